//! The course as data: load (embedded or `--content DIR`), validate, report diagnostics.

pub mod assets;
pub mod diag;
pub mod ftl;
pub mod lesson;
pub mod model;
pub mod quiz;
pub mod refs;
pub mod toml_read;
pub mod tree;

pub use diag::{Diagnostic, Diagnostics, Msg, Severity};
pub use model::*;
pub use tree::ContentTree;

use diag::SourceFile;
use refs::Refs;

/// Loads and validates a whole tree. The course holds whatever loaded cleanly; callers decide
/// whether errors are fatal (the app refuses a pack with errors, `check` lists them).
///
/// A pack that brings no `assets/glossary.toml` or `assets/building.toml` uses the ones that
/// ship with rocm-learn, so an instructor can write just lessons and quizzes.
pub fn load(tree: &ContentTree) -> (Course, Diagnostics) {
    let mut diags = Diagnostics::default();
    let mut refs = Refs::default();
    let mut course = Course::default();

    let needs_builtin = !tree.is_embedded()
        && (tree.get(assets::GLOSSARY).is_none() || tree.get(assets::BUILDING).is_none());
    let builtin = needs_builtin.then(ContentTree::embedded);
    let pick = |rel: &str| -> Option<(String, String)> {
        match tree.get(rel) {
            Some(text) => Some((tree.display(rel), text.to_string())),
            None => builtin
                .as_ref()?
                .get(rel)
                .map(|text| (rel.to_string(), text.to_string())),
        }
    };

    match pick(assets::GLOSSARY) {
        Some((path, text)) => {
            let file = SourceFile::new(path, text);
            course.glossary = assets::load_glossary(&file, &mut diags, &mut refs);
        }
        None => diags.file_error(
            &tree.display(assets::GLOSSARY),
            Msg::new("check-file-missing"),
        ),
    }
    match pick(assets::BUILDING) {
        Some((path, text)) => {
            let file = SourceFile::new(path, text);
            course.building = assets::load_building(&file, &mut diags, &mut refs);
        }
        None => diags.file_error(
            &tree.display(assets::BUILDING),
            Msg::new("check-file-missing"),
        ),
    }
    course.quizzes = quiz::load_all(tree, &mut diags, &mut refs);
    course.lessons = lesson::load_all(tree, &mut diags, &mut refs);
    if tree.has_dir("i18n") {
        ftl::check(tree, &mut diags);
    }
    refs.resolve(&mut diags);
    diags.sort();
    (course, diags)
}
