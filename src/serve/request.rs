//! What a client may ask of a session, checked before anything runs: the command of
//! `ssh NAME@HOST COMMAND` against a fixed list, and the few environment values kept (TERM,
//! NO_COLOR, the language). Client text never reaches a shell: the app is started with an
//! argument list built here.

use crate::lang::Lang;

/// A command allowed over ssh, as the app's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// The home screen (`ssh -t NAME@HOST`).
    Home,
    /// `lab ID`, `quiz ID`, `lesson ID`.
    Open { kind: &'static str, id: String },
    /// `progress`, `progress --json`, `progress --csv`: printed, no terminal needed.
    Progress { format: Option<&'static str> },
}

impl Request {
    /// Parses the exec command; `None` when it is not on the list.
    pub fn parse(command: &[u8]) -> Option<Request> {
        let text = std::str::from_utf8(command).ok()?;
        if text.len() > 200 {
            return None;
        }
        let words: Vec<&str> = text.split_ascii_whitespace().collect();
        match words.as_slice() {
            [] => Some(Request::Home),
            [kind @ ("lab" | "quiz" | "lesson"), id] if valid_id(id) => Some(Request::Open {
                kind: match *kind {
                    "lab" => "lab",
                    "quiz" => "quiz",
                    _ => "lesson",
                },
                id: id.to_string(),
            }),
            ["progress"] => Some(Request::Progress { format: None }),
            ["progress", "--json"] => Some(Request::Progress {
                format: Some("--json"),
            }),
            ["progress", "--csv"] => Some(Request::Progress {
                format: Some("--csv"),
            }),
            _ => None,
        }
    }

    /// Whether it draws the full-screen app (and so needs `ssh -t`).
    pub fn needs_terminal(&self) -> bool {
        !matches!(self, Request::Progress { .. })
    }

    /// The app's arguments after the global ones.
    pub fn args(&self) -> Vec<String> {
        match self {
            Request::Home => vec![],
            Request::Open { kind, id } => vec![kind.to_string(), id.clone()],
            Request::Progress { format } => {
                let mut a = vec!["progress".to_string()];
                a.extend(format.map(str::to_string));
                a
            }
        }
    }
}

/// An item id as the course writes them: letters, digits, `-`, `_`, `.` and one `:` (kind
/// prefix), never starting with `-` (it would read as an option).
fn valid_id(id: &str) -> bool {
    (1..=80).contains(&id.len())
        && !id.starts_with('-')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b))
}

/// TERM as the client named it, if it is a plain terminal name; else a safe default.
pub fn term(name: &str) -> String {
    let ok = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.+".contains(&b));
    if ok {
        name.to_string()
    } else {
        "xterm-256color".to_string()
    }
}

/// The environment a client sent that the session keeps.
#[derive(Debug, Default, Clone)]
pub struct ClientEnv {
    lang: Option<String>,
    lc_messages: Option<String>,
    lc_all: Option<String>,
    pub no_color: bool,
}

impl ClientEnv {
    /// Keeps one `env` request (OpenSSH sends LANG and LC_* by default on Debian and Ubuntu);
    /// every other variable is dropped.
    pub fn set(&mut self, name: &str, value: &str) {
        let kept = || Some(value.chars().take(64).collect::<String>());
        match name {
            "LANG" => self.lang = kept(),
            "LC_MESSAGES" => self.lc_messages = kept(),
            "LC_ALL" => self.lc_all = kept(),
            "NO_COLOR" => self.no_color = !value.is_empty(),
            _ => {}
        }
    }

    /// The language of the client's locale (`ja_JP.UTF-8` is Japanese), else English.
    pub fn lang(&self) -> Lang {
        [&self.lc_all, &self.lc_messages, &self.lang]
            .into_iter()
            .flatten()
            .find(|v| !v.is_empty())
            .and_then(|v| Lang::parse(v))
            .unwrap_or(Lang::En)
    }
}

/// The LANG a session's app gets for its language (the app reads the language from it when the
/// learner has not picked one in the app).
pub fn locale(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "C.UTF-8",
        Lang::Ja => "ja_JP.UTF-8",
        Lang::Ko => "ko_KR.UTF-8",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_list_and_nothing_else() {
        assert_eq!(Request::parse(b""), Some(Request::Home));
        assert_eq!(
            Request::parse(b"lab gpu-access").unwrap().args(),
            ["lab", "gpu-access"]
        );
        assert_eq!(
            Request::parse(b"progress --json").unwrap().args(),
            ["progress", "--json"]
        );
        for bad in [
            &b"bash"[..],
            b"lab",
            b"lab --script /etc/passwd x",
            b"lab -x",
            b"lab a;id",
            b"lab $(id)",
            b"progress reset",
            b"report /etc/shadow",
            b"lab \xff",
        ] {
            assert_eq!(
                Request::parse(bad),
                None,
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn language_from_the_client_locale() {
        let mut e = ClientEnv::default();
        assert_eq!(e.lang(), Lang::En);
        e.set("LANG", "ja_JP.UTF-8");
        assert_eq!(e.lang(), Lang::Ja);
        e.set("LC_ALL", "ko_KR.UTF-8");
        assert_eq!(e.lang(), Lang::Ko);
        e.set("PATH", "/evil");
        e.set("NO_COLOR", "1");
        assert!(e.no_color);
        assert_eq!(term("xterm-256color"), "xterm-256color");
        assert_eq!(term("x\x1b[2J"), "xterm-256color");
    }
}
