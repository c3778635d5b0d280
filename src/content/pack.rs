//! `pack.toml`: what a content pack is (id, title, version), which languages it promises, and
//! whether it adds to the built-in course (`extends = "builtin"`) or replaces it.
//!
//! The pack's id and version travel with the learner's progress and exports, so that a class
//! report never scores one course's learners against another course.

use super::diag::{Diagnostics, Msg, SourceFile};
use super::toml_read::{self, Cx, Fields, Localized};
use crate::lang::Lang;

pub const MANIFEST: &str = "pack.toml";

/// The id of the course that ships inside the binary.
pub const BUILTIN: &str = "builtin";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pack {
    pub id: String,
    pub version: String,
    pub title: Option<Localized>,
    /// The languages the pack promises; a translation missing outside them is not a warning.
    pub languages: Vec<Lang>,
    /// Adds to the built-in course instead of replacing it.
    pub extends_builtin: bool,
}

impl Pack {
    /// The built-in course: its version is the program's.
    pub fn builtin() -> Self {
        Pack {
            id: BUILTIN.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            title: None,
            languages: Lang::ALL.to_vec(),
            extends_builtin: false,
        }
    }

    pub fn is_builtin(&self) -> bool {
        self.id == BUILTIN
    }

    /// `id@version`, as reports and folder names show it.
    pub fn label(&self) -> String {
        format!("{}@{}", self.id, self.version)
    }
}

/// Whether the manifest text asks to extend the built-in course. Read before the tree is built
/// (the built-in files go under the pack's); mistakes are reported later by [`read`].
pub fn extends_builtin(text: &str) -> bool {
    toml::from_str::<toml::Table>(text)
        .ok()
        .and_then(|t| {
            t.get("extends")
                .and_then(|v| v.as_str().map(|s| s == BUILTIN))
        })
        .unwrap_or(false)
}

/// Reads `pack.toml` with every problem as a diagnostic. `fallback_id` names a pack without a
/// manifest (its folder's name), which is a warning: its progress cannot tell versions apart.
pub fn read(text: Option<(String, &str)>, fallback_id: &str, diags: &mut Diagnostics) -> Pack {
    let mut pack = Pack {
        id: fallback_id.to_string(),
        version: "0".into(),
        title: None,
        languages: Lang::ALL.to_vec(),
        extends_builtin: false,
    };
    let Some((path, text)) = text else {
        diags.file_warning(
            &path_hint(fallback_id),
            Msg::new("classroom-pack-no-manifest"),
        );
        return pack;
    };
    let file = SourceFile::new(path, text);
    let mut cx = Cx::new(&file, diags);
    let Some(doc) = toml_read::parse(&mut cx, text) else {
        return pack;
    };
    let mut f = Fields::new(doc.get_ref(), 0, "pack");
    if let Some(id) = f.req_id(&mut cx, "id") {
        pack.id = id.into_inner();
    }
    if let Some(v) = f.req_string(&mut cx, "version") {
        pack.version = v.into_inner();
    }
    pack.title = f
        .localized(&mut cx, "title", true)
        .map(toml::Spanned::into_inner);
    let langs = f.str_list(&mut cx, "languages");
    if !langs.is_empty() {
        pack.languages.clear();
        for l in langs {
            match Lang::parse(l.get_ref()).filter(|x| x.code() == l.get_ref()) {
                Some(lang) => pack.languages.push(lang),
                None => cx.error(
                    l.span().start,
                    Msg::new("check-unknown-lang").arg("lang", l.get_ref()),
                ),
            }
        }
    }
    if let Some(e) = f.string(&mut cx, "extends") {
        if e.get_ref() == BUILTIN {
            pack.extends_builtin = true;
        } else {
            cx.error(
                e.span().start,
                Msg::new("classroom-pack-bad-extends").arg("value", e.get_ref()),
            );
        }
    }
    f.finish(&mut cx);
    pack
}

fn path_hint(dir: &str) -> String {
    format!("{dir}/{MANIFEST}")
}

/// Drops what is said of one language the pack does not promise (a missing translation or UI
/// file, a cue in its text): a pack written for a Japanese class need not be told 39 times
/// that it has no Korean, nor that its Korean, which falls back to another language, has cues.
pub fn keep_promised(pack: &Pack, diags: &mut Diagnostics) {
    const PER_LANGUAGE: [&str; 6] = [
        "check-missing-translation",
        "check-lesson-missing-lang",
        "check-ftl-file-missing",
        "check-ftl-missing-id",
        "content-longest-right",
        "content-cue-longest",
    ];
    diags.items.retain(|d| {
        if !PER_LANGUAGE.contains(&d.msg.id) {
            return true;
        }
        let lang = d
            .msg
            .args
            .iter()
            .find(|(k, _)| *k == "lang")
            .and_then(|(_, v)| Lang::parse(v));
        lang.is_none_or(|l| pack.languages.contains(&l))
    });
}

/// The commands rocm-learn suggests that depend on the course in use.
const COURSE_COMMANDS: [&str; 7] = [
    "lesson", "quiz", "lab", "progress", "list", "check", "report",
];

/// Rewrites every suggested `rocm-learn COMMAND` in `text` to carry `--content SOURCE`, so that
/// a learner who copies it works on the same pack (and exports the same course).
pub fn with_content(text: &str, source: &str) -> String {
    const PROGRAM: &str = "rocm-learn ";
    let flag = if source.contains([' ', '\'', '"']) {
        format!("--content '{}'", source.replace('\'', r"'\''"))
    } else {
        format!("--content {source}")
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(PROGRAM) {
        let (before, after) = rest.split_at(at + PROGRAM.len());
        out.push_str(before);
        let word: String = after
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        if COURSE_COMMANDS.contains(&word.as_str()) {
            out.push_str(&flag);
            out.push(' ');
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggested_commands_carry_the_pack_and_other_text_does_not() {
        assert_eq!(
            with_content(
                "Next: `rocm-learn quiz deploy` or rocm-learn lab x.",
                "class.tar.gz"
            ),
            "Next: `rocm-learn --content class.tar.gz quiz deploy` or rocm-learn --content class.tar.gz lab x."
        );
        assert_eq!(
            with_content("rocm-learn doctor: nothing changed", "p"),
            "rocm-learn doctor: nothing changed"
        );
        assert_eq!(
            with_content("run rocm-learn progress", "my pack"),
            "run rocm-learn --content 'my pack' progress"
        );
    }

    #[test]
    fn translations_outside_the_promised_languages_are_not_warned_about() {
        let mut diags = Diagnostics::default();
        for lang in ["ko", "ja"] {
            diags.file_warning(
                "q.toml",
                Msg::new("check-missing-translation").arg("lang", lang),
            );
        }
        let pack = Pack {
            languages: vec![Lang::En, Lang::Ja],
            ..Pack::builtin()
        };
        keep_promised(&pack, &mut diags);
        assert_eq!(diags.items.len(), 1);
        assert_eq!(diags.items[0].msg.args[0].1, "ja");
    }
}
