//! Paths inside a lab machine, checked once when the content is loaded: the course's model and
//! the lab loader both name them, and the lab runner joins them under the machine's folder.

/// A path inside a lab machine, as a lab file or check names it: parsed once, when the content
/// is loaded. Absolute, with no "." or ".." segment and no NUL, repeated and trailing slashes
/// folded, so that joining it under the machine's folder can never leave that folder.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct LabPath(String);

/// Why a text is not a `LabPath` (each has its own message for `check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabPathError {
    NotAbsolute,
    DotSegment,
    Nul,
}

impl LabPathError {
    pub fn msg_id(self) -> &'static str {
        match self {
            LabPathError::NotAbsolute => "check-path-not-absolute",
            LabPathError::DotSegment => "check-path-dot-segment",
            LabPathError::Nul => "check-path-nul",
        }
    }
}

impl std::fmt::Display for LabPathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LabPathError::NotAbsolute => "not an absolute path",
            LabPathError::DotSegment => "a \".\" or \"..\" segment",
            LabPathError::Nul => "a NUL character",
        })
    }
}

impl std::error::Error for LabPathError {}

impl LabPath {
    pub fn parse(s: &str) -> Result<LabPath, LabPathError> {
        if s.contains('\0') {
            return Err(LabPathError::Nul);
        }
        if !s.starts_with('/') {
            return Err(LabPathError::NotAbsolute);
        }
        let mut out = String::with_capacity(s.len());
        for seg in s.split('/').filter(|seg| !seg.is_empty()) {
            if seg == "." || seg == ".." {
                return Err(LabPathError::DotSegment);
            }
            out.push('/');
            out.push_str(seg);
        }
        if out.is_empty() {
            out.push('/');
        }
        Ok(LabPath(out))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for LabPath {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for LabPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for LabPath {
    type Error = String;
    fn try_from(s: String) -> Result<LabPath, String> {
        LabPath::parse(&s).map_err(|e| format!("{s:?}: {e}"))
    }
}

impl From<LabPath> for String {
    fn from(p: LabPath) -> String {
        p.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lab_paths_are_absolute_normalised_and_cannot_climb() {
        assert_eq!(
            LabPath::parse("/etc//profile.d/").unwrap().as_str(),
            "/etc/profile.d"
        );
        assert_eq!(LabPath::parse("/").unwrap().as_str(), "/");
        assert_eq!(LabPath::parse("etc/x"), Err(LabPathError::NotAbsolute));
        assert_eq!(LabPath::parse(""), Err(LabPathError::NotAbsolute));
        assert_eq!(
            LabPath::parse("/etc/../../pwned-by-content-pack"),
            Err(LabPathError::DotSegment)
        );
        assert_eq!(LabPath::parse("/etc/./x"), Err(LabPathError::DotSegment));
        assert_eq!(LabPath::parse("/etc/x\0y"), Err(LabPathError::Nul));
        // `...` and names starting with dots are ordinary names.
        assert!(LabPath::parse("/home/learner/.bashrc").is_ok());
        assert!(LabPath::parse("/tmp/...").is_ok());
    }

    #[test]
    fn a_lab_path_from_the_wire_is_checked_again() {
        let ok: LabPath = serde_json::from_str("\"/etc/group\"").unwrap();
        assert_eq!(ok.as_str(), "/etc/group");
        assert!(serde_json::from_str::<LabPath>("\"/etc/../x\"").is_err());
    }
}
