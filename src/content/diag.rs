//! Diagnostics about content files: `path:line:col: error: message`.
//!
//! The message is kept as a Fluent id plus arguments so `check` can print it in the learner's
//! language; the content layer itself stays free of any UI dependency.

use std::fmt;

use crate::hostfs::Refusal;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// A message to be rendered through the UI catalogue (`i18n/*/check.ftl`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Msg {
    pub id: &'static str,
    pub args: Vec<(&'static str, String)>,
}

impl Msg {
    pub fn new(id: &'static str) -> Self {
        Msg {
            id,
            args: Vec::new(),
        }
    }

    pub fn arg(mut self, name: &'static str, value: impl fmt::Display) -> Self {
        self.args.push((name, value.to_string()));
        self
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Path as the user named it (content root joined with the relative path).
    pub path: String,
    /// 1-based line and column (column counted in characters).
    pub line: usize,
    pub col: usize,
    pub severity: Severity,
    pub msg: Msg,
}

/// A text file of the content tree, with a line index for turning byte offsets into positions.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            path: path.into(),
            text,
            line_starts,
        }
    }

    /// 1-based (line, column) of a byte offset; offsets past the end clamp to the end.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        // A span may start inside a multi-byte character only if the producer was wrong; be lenient.
        let col = self.text[start..]
            .char_indices()
            .take_while(|(i, _)| start + i < offset)
            .count()
            + 1;
        (line + 1, col)
    }
}

/// Collects diagnostics for a whole content tree.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn at(&mut self, file: &SourceFile, offset: usize, severity: Severity, msg: Msg) {
        let (line, col) = file.position(offset);
        self.items.push(Diagnostic {
            path: file.path.clone(),
            line,
            col,
            severity,
            msg,
        });
    }

    pub fn error(&mut self, file: &SourceFile, offset: usize, msg: Msg) {
        self.at(file, offset, Severity::Error, msg);
    }

    pub fn warning(&mut self, file: &SourceFile, offset: usize, msg: Msg) {
        self.at(file, offset, Severity::Warning, msg);
    }

    /// A problem with a path rather than with a place in a file (unreadable file, missing file).
    pub fn file_error(&mut self, path: &str, msg: Msg) {
        self.items.push(Diagnostic {
            path: path.to_string(),
            line: 1,
            col: 1,
            severity: Severity::Error,
            msg,
        });
    }

    /// A warning about a file as a whole (a pack without its manifest).
    pub fn file_warning(&mut self, path: &str, msg: Msg) {
        self.file_error(path, msg);
        if let Some(d) = self.items.last_mut() {
            d.severity = Severity::Warning;
        }
    }

    pub fn error_count(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    pub fn warning_count(&self) -> usize {
        self.items.len() - self.error_count()
    }

    /// Orders by file and position, so output reads top to bottom like a compiler's.
    pub fn sort(&mut self) {
        self.items.sort_by(|a, b| {
            (a.path.as_str(), a.line, a.col, b.severity).cmp(&(
                b.path.as_str(),
                b.line,
                b.col,
                a.severity,
            ))
        });
        self.items.dedup();
    }
}

// Here, not in `hostfs`: the helpers below the course know nothing of its messages.
impl Refusal {
    /// The message for the user, through the UI catalogue (`i18n/*/cli.ftl`).
    pub fn msg(&self) -> Msg {
        match self {
            Refusal::Link => Msg::new("hostfs-link"),
            Refusal::NotRegular(kind) => Msg::new("hostfs-not-regular").arg("kind", kind),
            Refusal::TooLarge(max) => Msg::new("hostfs-too-large").arg("max", max),
            Refusal::TooMany(max) => Msg::new("hostfs-too-many").arg("max", max),
            Refusal::TooDeep(max) => Msg::new("hostfs-too-deep").arg("max", max),
            Refusal::TooMuch(max) => Msg::new("hostfs-too-much").arg("max", max),
            Refusal::Deadline(d) => Msg::new("hostfs-deadline").arg("secs", d.as_secs()),
            Refusal::Io(e) => Msg::new("content-unreadable").arg("error", e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let f = SourceFile::new("x.toml", "a = 1\nタイトル = 2\n");
        assert_eq!(f.position(0), (1, 1));
        assert_eq!(f.position(4), (1, 5));
        assert_eq!(f.position(6), (2, 1));
        // "タイトル" is 4 characters of 3 bytes each: the " " after it is column 5.
        assert_eq!(f.position(6 + 12), (2, 5));
        assert_eq!(f.position(999), (3, 1));
    }
}
