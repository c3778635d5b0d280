//! Ids defined and ids referred to across the tree, resolved once everything is loaded.

use std::collections::HashMap;

use super::diag::{Diagnostic, Diagnostics, Msg, Severity, SourceFile};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Lesson,
    Quiz,
    Lab,
    Term,
    Exam,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Lesson => "lesson",
            Kind::Quiz => "quiz",
            Kind::Lab => "lab",
            Kind::Term => "term",
            Kind::Exam => "exam",
        }
    }

    /// The link scheme used in lesson Markdown: `[KFD](term:kfd)`.
    pub fn from_scheme(s: &str) -> Option<Kind> {
        match s {
            "lesson" => Some(Kind::Lesson),
            "quiz" => Some(Kind::Quiz),
            "lab" => Some(Kind::Lab),
            "term" => Some(Kind::Term),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
struct Place {
    path: String,
    line: usize,
    col: usize,
}

impl Place {
    fn of(file: &SourceFile, offset: usize) -> Self {
        let (line, col) = file.position(offset);
        Place {
            path: file.path.clone(),
            line,
            col,
        }
    }
}

#[derive(Debug, Default)]
pub struct Refs {
    defined: HashMap<(Kind, String), Place>,
    wanted: Vec<(Kind, String, Place)>,
}

impl Refs {
    /// Records a definition; a second one with the same id is an error pointing at the first.
    /// Returns false for a duplicate so the caller can drop it.
    pub fn define(
        &mut self,
        diags: &mut Diagnostics,
        kind: Kind,
        id: &str,
        file: &SourceFile,
        offset: usize,
    ) -> bool {
        let place = Place::of(file, offset);
        if let Some(first) = self.defined.get(&(kind, id.to_string())) {
            diags.error(
                file,
                offset,
                Msg::new("check-duplicate-id")
                    .arg("kind", kind.name())
                    .arg("id", id)
                    .arg(
                        "first",
                        format!("{}:{}:{}", first.path, first.line, first.col),
                    ),
            );
            return false;
        }
        self.defined.insert((kind, id.to_string()), place);
        true
    }

    pub fn want(&mut self, kind: Kind, id: &str, file: &SourceFile, offset: usize) {
        self.wanted
            .push((kind, id.to_string(), Place::of(file, offset)));
    }

    pub fn is_defined(&self, kind: Kind, id: &str) -> bool {
        self.defined.contains_key(&(kind, id.to_string()))
    }

    /// Reports every reference to an id that nothing defines.
    pub fn resolve(&self, diags: &mut Diagnostics) {
        for (kind, id, place) in &self.wanted {
            if !self.is_defined(*kind, id) {
                let mut known: Vec<&str> = self
                    .defined
                    .keys()
                    .filter(|(k, _)| k == kind)
                    .map(|(_, i)| i.as_str())
                    .collect();
                known.sort_unstable();
                diags.items.push(Diagnostic {
                    path: place.path.clone(),
                    line: place.line,
                    col: place.col,
                    severity: Severity::Error,
                    msg: Msg::new("check-dangling-ref")
                        .arg("kind", kind.name())
                        .arg("id", id)
                        .arg(
                            "known",
                            if known.is_empty() {
                                "-".to_string()
                            } else {
                                known.join(", ")
                            },
                        ),
                });
            }
        }
    }
}
