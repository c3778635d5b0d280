//! The course as data: load (embedded or `--content DIR`), validate, report diagnostics.

pub mod assets;
pub mod diag;
pub mod exam;
pub mod ftl;
pub mod lab;
pub mod lab_path;
pub mod lesson;
pub mod model;
pub mod option_stats;
pub mod pack;
pub mod quiz;
pub mod refs;
pub mod terminology;
pub mod toml_read;
pub mod tree;

pub use diag::{Diagnostic, Diagnostics, Msg, Severity};
pub use model::*;
pub use pack::Pack;
pub use tree::ContentTree;

use diag::SourceFile;
use refs::Refs;

/// Loads and validates a whole tree. The course holds whatever loaded cleanly; callers decide
/// whether errors are fatal (the app refuses a pack with errors, `check` lists them).
///
/// The glossary is every `assets/glossary*.toml` (so several authors can add terms without
/// editing one file). A pack that brings no glossary or no `assets/building.toml` uses the ones
/// that ship with rocm-learn, so an instructor can write just lessons and quizzes.
pub fn load(tree: &ContentTree) -> (Course, Diagnostics) {
    let (course, _, diags) = load_checked(tree);
    (course, diags)
}

/// [`load`], with what the pack says of itself (`pack.toml`): `check` speaks only of the
/// languages it promises.
pub fn load_checked(tree: &ContentTree) -> (Course, Pack, Diagnostics) {
    let (course, pack, mut diags) = load_pack_checked(tree, Checks::All);
    // The style lint (docs/terminology.md) only warns, and warnings are for `check`: the
    // app's start (load_pack) leaves it out, since it costs more than the rest of loading.
    terminology::check(tree, &course.glossary, &mut diags);
    // So are the course-wide answer cues (the right option's length), per promised language.
    option_stats::check(&course.quizzes, &mut diags);
    pack::keep_promised(&pack, &mut diags);
    (course, pack, diags)
}

/// [`load`], with what the pack says of itself (`pack.toml`; the built-in course for embedded
/// content), and without the terminology lint. Missing translations in languages the pack
/// does not promise are not reported.
///
/// For the course built into the binary, this is what the app's start reads, and it leaves out
/// the passes that only look for mistakes (links inside lesson pages, the UI translations):
/// [`load`] runs them over exactly this content in `check` and in the tests, and the home screen
/// needs none of it. A pack from a folder or archive is checked in full before it is used.
pub fn load_pack(tree: &ContentTree) -> (Course, Pack, Diagnostics) {
    load_pack_checked(tree, Checks::Shipped)
}

/// How much of loading is looking for mistakes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Checks {
    /// Everything, whatever the content (`check`, the tests).
    All,
    /// Everything for a pack; the built-in course was checked when it was built.
    Shipped,
}

impl Checks {
    /// Whether the passes that only find mistakes run over this tree.
    fn all_for(self, tree: &ContentTree) -> bool {
        self == Checks::All || !tree.is_embedded()
    }
}

fn load_pack_checked(tree: &ContentTree, checks: Checks) -> (Course, Pack, Diagnostics) {
    let mut pack_diags = Diagnostics::default();
    let pack = match tree.root() {
        None => Pack::builtin(),
        Some(root) => {
            let fallback = root
                .file_name()
                .map(|n| pack_id_from(&n.to_string_lossy()))
                .unwrap_or_else(|| "pack".into());
            let manifest = tree
                .get(pack::MANIFEST)
                .map(|t| (tree.display(pack::MANIFEST), t));
            let shown = root.display().to_string();
            let mut p = pack::read(manifest, &shown, &mut pack_diags);
            if tree.get(pack::MANIFEST).is_none() {
                p.id = fallback;
            }
            p
        }
    };
    let (course, mut diags) = load_course(tree, checks.all_for(tree));
    diags.items.extend(pack_diags.items);
    pack::keep_promised(&pack, &mut diags);
    // What a pack borrows from the built-in course is not the pack author's to fix.
    diags.items.retain(|d| !tree.is_borrowed(&d.path));
    diags.sort();
    (course, pack, diags)
}

/// A folder name made into an id (`My Pack` -> `my-pack`), for packs without a manifest.
fn pack_id_from(name: &str) -> String {
    let id: String = name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let id = id.trim_matches('-').to_string();
    if id.is_empty() { "pack".into() } else { id }
}

/// `full`: also the passes that only look for mistakes (links in lesson pages, translations),
/// and every quiz's questions built now rather than when the quiz is opened.
fn load_course(tree: &ContentTree, full: bool) -> (Course, Diagnostics) {
    let mut diags = Diagnostics::default();
    let mut refs = Refs::default();
    let mut course = Course::default();

    let own_glossary: Vec<(String, String)> = assets::glossary_files(tree)
        .map(|(rel, text)| (tree.display(rel), text.to_string()))
        .collect();
    let needs_builtin = !tree.is_embedded()
        && (own_glossary.is_empty()
            || tree.get(assets::BUILDING).is_none()
            || tree.get(assets::MATRIX).is_none());
    let builtin = needs_builtin.then(ContentTree::embedded);
    let builtin = builtin.as_ref();

    course.glossary = load_glossary(tree, own_glossary, builtin, &mut diags, &mut refs);
    let (building, borrowed_building) = load_building(tree, builtin, &mut diags, &mut refs);
    course.building = building;
    if let Some((path, text)) = matrix_file(tree, builtin) {
        course.matrix = assets::load_matrix(&SourceFile::new(path, text), &mut diags);
    }
    course.quizzes = quiz::load_all(tree, full, &mut diags, &mut refs);
    course.lessons = lesson::load_all(tree, full, &mut diags, &mut refs);
    course.labs = load_labs(tree, &course.lessons, &mut diags, &mut refs);
    course.exams = exam::load_all(tree, &mut diags, &mut refs);
    if full && tree.has_dir("i18n") {
        ftl::check(tree, &mut diags);
    }
    if borrowed_building {
        let lessons: Vec<String> = course.lessons.iter().map(|l| l.id.clone()).collect();
        for floor in &mut course.building.floors {
            floor.lessons.retain(|l| lessons.contains(l));
        }
    }
    refs.resolve(&mut diags);
    diags.sort();
    (course, diags)
}

/// The pack's glossary files, else the built-in ones; none at all is an error.
fn load_glossary(
    tree: &ContentTree,
    own: Vec<(String, String)>,
    builtin: Option<&ContentTree>,
    diags: &mut Diagnostics,
    refs: &mut Refs,
) -> Vec<Term> {
    let files = if own.is_empty() {
        builtin
            .map(|b| {
                assets::glossary_files(b)
                    .map(|(r, t)| (r.to_string(), t.to_string()))
                    .collect()
            })
            .unwrap_or_default()
    } else {
        own
    };
    if files.is_empty() {
        diags.file_error(
            &tree.display(assets::GLOSSARY),
            Msg::new("check-file-missing"),
        );
    }
    let mut terms = Vec::new();
    for (path, text) in files {
        let file = SourceFile::new(path, text);
        terms.extend(assets::load_glossary(&file, diags, refs));
    }
    terms
}

/// The pack's building, else the built-in one; also whether it was borrowed.
fn load_building(
    tree: &ContentTree,
    builtin: Option<&ContentTree>,
    diags: &mut Diagnostics,
    refs: &mut Refs,
) -> (Building, bool) {
    let rel = assets::BUILDING;
    let (path, text, borrowed) = match (tree.get(rel), builtin.and_then(|b| b.get(rel))) {
        (Some(text), _) => (tree.display(rel), text, false),
        (None, Some(text)) => (rel.to_string(), text, true),
        (None, None) => {
            diags.file_error(&tree.display(rel), Msg::new("check-file-missing"));
            return (Building::default(), false);
        }
    };
    let file = SourceFile::new(path, text);
    // The built-in building links to built-in lessons a pack may not have: that is not the
    // pack's problem, so its references are not checked (and are trimmed by the caller).
    let mut building_refs = Refs::default();
    let r = if borrowed { &mut building_refs } else { refs };
    (assets::load_building(&file, diags, r), borrowed)
}

/// The support matrix is optional in a pack: without one the built-in matrix is used.
fn matrix_file(tree: &ContentTree, builtin: Option<&ContentTree>) -> Option<(String, String)> {
    match tree.get(assets::MATRIX) {
        Some(text) => Some((tree.display(assets::MATRIX), text.to_string())),
        None => builtin.and_then(|b| {
            b.get(assets::MATRIX)
                .map(|t| (assets::MATRIX.to_string(), t.to_string()))
        }),
    }
}

/// Every lab, each given the lesson whose folder it sits in.
fn load_labs(
    tree: &ContentTree,
    lessons: &[Lesson],
    diags: &mut Diagnostics,
    refs: &mut Refs,
) -> Vec<Lab> {
    let lesson_of = |dir: &str| lessons.iter().find(|l| l.dir == dir).map(|l| l.id.clone());
    lab::load_all(tree, &lesson_of, diags, refs)
}
