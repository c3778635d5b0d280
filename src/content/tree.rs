//! A content tree: the files of `lessons/`, `quizzes/`, `assets/` and `i18n/`, either embedded in
//! the binary or read from a directory given with `--content`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use include_dir::{Dir, include_dir};

use super::diag::{Diagnostics, Msg};
use super::pack;
use crate::hostfs;

/// Where the terminology table lives, in the repository and in a content pack.
pub const TERMINOLOGY: &str = "docs/terminology.md";

/// The terminology table that ships with rocm-learn, used for the built-in course.
pub const TERMINOLOGY_BUILTIN: &str = include_str!("../../docs/terminology.md");

static LESSONS: Dir = include_dir!("$CARGO_MANIFEST_DIR/lessons");
static QUIZZES: Dir = include_dir!("$CARGO_MANIFEST_DIR/quizzes");
static EXAMS: Dir = include_dir!("$CARGO_MANIFEST_DIR/exams");
static ASSETS: Dir = include_dir!("$CARGO_MANIFEST_DIR/assets");
static I18N: Dir = include_dir!("$CARGO_MANIFEST_DIR/i18n");

/// The top-level folders a content tree is made of.
pub const TOP_DIRS: [&str; 5] = ["lessons", "quizzes", "exams", "assets", "i18n"];

/// A file larger than this is not course content; refusing it keeps a stray dump from eating memory.
const MAX_FILE: u64 = hostfs::Limits::PACK.max_file;

/// What a `.tar.gz` pack may unpack to in all: a pack is text, and this keeps a bomb out.
const MAX_ARCHIVE: u64 = 64 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct ContentTree {
    /// How paths are shown in diagnostics: "" for embedded content, else the directory given.
    root: Option<PathBuf>,
    /// Relative path with `/` separators -> UTF-8 text.
    files: BTreeMap<String, String>,
    /// Files taken from the built-in course by a pack that extends it (shown by their own path).
    borrowed: BTreeSet<String>,
}

impl ContentTree {
    /// The course that ships inside the binary.
    pub fn embedded() -> Self {
        let mut files = BTreeMap::new();
        for (name, dir) in [
            ("lessons", &LESSONS),
            ("quizzes", &QUIZZES),
            ("exams", &EXAMS),
            ("assets", &ASSETS),
            ("i18n", &I18N),
        ] {
            collect_embedded(dir, name, &mut files);
        }
        files.insert(TERMINOLOGY.to_string(), TERMINOLOGY_BUILTIN.to_string());
        ContentTree {
            root: None,
            files,
            borrowed: BTreeSet::new(),
        }
    }

    /// Builds a tree from in-memory files (tests, fuzzing).
    pub fn from_files<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        ContentTree {
            root: None,
            files: files
                .into_iter()
                .map(|(p, t)| (p.to_string(), t.to_string()))
                .collect(),
            borrowed: BTreeSet::new(),
        }
    }

    /// Reads a content pack from disk. Unreadable files are reported, not fatal; a directory
    /// that does not exist, or holds none of the content folders, is an error for the caller.
    /// A pack's author may be hostile: the folder is read through `hostfs` (no links followed,
    /// regular files only, sizes, counts and time capped), and what is refused is reported
    /// by file.
    pub fn from_dir(root: &Path, diags: &mut Diagnostics) -> Result<Self, Msg> {
        if !root.is_dir() {
            return Err(Msg::new("content-dir-missing").arg("dir", root.display()));
        }
        let terms = TERMINOLOGY;
        let wanted = |rel: &str, is_dir: bool| match rel.split_once('/') {
            None if is_dir => TOP_DIRS.contains(&rel) || terms.starts_with(&format!("{rel}/")),
            None => rel == pack::MANIFEST,
            Some((top, _)) => TOP_DIRS.contains(&top) || rel == terms,
        };
        let walk = hostfs::walk(root, hostfs::Limits::PACK, &wanted);
        let has_top = |rel: &str| TOP_DIRS.iter().any(|d| rel.starts_with(&format!("{d}/")));
        if !walk.files.iter().any(|(rel, _)| has_top(rel))
            && !TOP_DIRS.iter().any(|d| root.join(d).is_dir())
        {
            return Err(no_content(root));
        }
        let manifest = walk.files.iter().find(|(rel, _)| rel == pack::MANIFEST);
        let mut tree = ContentTree::started(root, manifest.map(|(_, b)| b.as_slice()));
        for (rel, why) in walk.refused {
            diags.file_error(&tree.display(&rel), why.msg());
        }
        for (rel, bytes) in walk.files {
            tree.add(rel, bytes, diags);
        }
        Ok(tree)
    }

    /// A pack read from `root`, before its files are added: empty, or the built-in files when
    /// its manifest says it extends them (the pack's own files then go over those of the same
    /// path).
    fn started(root: &Path, manifest: Option<&[u8]>) -> Self {
        let mut tree = ContentTree {
            root: Some(root.to_path_buf()),
            files: BTreeMap::new(),
            borrowed: BTreeSet::new(),
        };
        if let Some(text) = manifest.and_then(|b| std::str::from_utf8(b).ok())
            && pack::extends_builtin(text)
        {
            let builtin = ContentTree::embedded();
            tree.borrowed = builtin.files.keys().cloned().collect();
            tree.files = builtin.files;
        }
        tree
    }

    /// Takes one file of the pack: UTF-8 text is kept (over a borrowed built-in file of the
    /// same path); other bytes are skipped unless the name says text.
    fn add(&mut self, rel: String, bytes: Vec<u8>, diags: &mut Diagnostics) {
        match String::from_utf8(bytes) {
            Ok(text) => {
                self.borrowed.remove(&rel);
                self.files.insert(rel, text);
            }
            Err(_) if !is_text_name(&rel) => {} // pictures and such are not ours to read
            Err(_) => diags.file_error(&self.display(&rel), Msg::new("content-not-utf8")),
        }
    }

    /// Reads a content pack handed out as one `.tar.gz` (or `.tgz`), in memory: the pack may sit
    /// at the archive's top or inside one folder. Nothing is written to disk.
    pub fn from_archive(file: &Path, diags: &mut Diagnostics) -> Result<Self, Msg> {
        let unreadable = |e: std::io::Error| {
            Msg::new("classroom-archive-unreadable")
                .arg("file", file.display())
                .arg("error", e)
        };
        let f = hostfs::open_named(file).map_err(|why| {
            Msg::new("classroom-archive-unreadable")
                .arg("file", file.display())
                .arg("error", why)
        })?;
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(f));
        let mut raw: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        let mut total = 0u64;
        for entry in archive.entries().map_err(unreadable)? {
            let mut entry = entry.map_err(unreadable)?;
            if !entry.header().entry_type().is_file() {
                continue;
            }
            let path = entry
                .path()
                .map_err(unreadable)?
                .to_string_lossy()
                .into_owned();
            let rel = path.trim_start_matches("./").to_string();
            if rel.split('/').any(|c| c == ".." || c.starts_with('.')) {
                continue;
            }
            total = total.saturating_add(entry.size());
            if entry.size() > MAX_FILE || total > MAX_ARCHIVE {
                diags.file_error(
                    &format!("{}/{rel}", file.display()),
                    Msg::new("content-too-large").arg("max", MAX_FILE),
                );
                continue;
            }
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut entry, &mut bytes).map_err(unreadable)?;
            raw.insert(rel, bytes);
        }
        // A pack packed with its folder (`tar czf class.tar.gz class/`) has one top folder.
        let at_top = |raw: &BTreeMap<String, Vec<u8>>| {
            raw.keys().any(|k| {
                k == pack::MANIFEST || TOP_DIRS.iter().any(|d| k.starts_with(&format!("{d}/")))
            })
        };
        if !at_top(&raw) {
            let tops: BTreeSet<&str> = raw
                .keys()
                .filter_map(|k| k.split_once('/'))
                .map(|(t, _)| t)
                .collect();
            if let [top] = tops.into_iter().collect::<Vec<_>>()[..] {
                let prefix = format!("{top}/");
                raw = raw
                    .into_iter()
                    .filter_map(|(k, v)| Some((k.strip_prefix(&prefix)?.to_string(), v)))
                    .collect();
            }
        }
        if !at_top(&raw) {
            return Err(no_content(file));
        }
        let mut tree = ContentTree::started(file, raw.get(pack::MANIFEST).map(Vec::as_slice));
        let terms = TERMINOLOGY;
        for (rel, bytes) in raw {
            let ours = rel == pack::MANIFEST
                || rel == terms
                || TOP_DIRS.iter().any(|d| rel.starts_with(&format!("{d}/")));
            if ours {
                tree.add(rel, bytes, diags);
            }
        }
        Ok(tree)
    }

    /// The path of a file as the user should see it.
    pub fn display(&self, rel: &str) -> String {
        match &self.root {
            Some(root) if !self.borrowed.contains(rel) => root.join(rel).display().to_string(),
            _ => rel.to_string(),
        }
    }

    pub fn is_embedded(&self) -> bool {
        self.root.is_none()
    }

    /// The folder a pack was read from (none for the built-in course).
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// Whether a file came from the built-in course into a pack that extends it.
    pub fn is_borrowed(&self, rel: &str) -> bool {
        self.borrowed.contains(rel)
    }

    pub fn get(&self, rel: &str) -> Option<&str> {
        self.files.get(rel).map(String::as_str)
    }

    pub fn has_dir(&self, top: &str) -> bool {
        let prefix = format!("{top}/");
        self.files.keys().any(|k| k.starts_with(&prefix))
    }

    /// Files under a folder, in path order.
    pub fn under<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        self.files
            .iter()
            .filter(move |(k, _)| {
                k.starts_with(prefix) && k.as_bytes().get(prefix.len()) == Some(&b'/')
            })
            .map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

fn is_text_name(name: &str) -> bool {
    [".md", ".toml", ".ftl", ".txt", ".yaml", ".yml", ".sh"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

fn collect_embedded(dir: &Dir, prefix: &str, out: &mut BTreeMap<String, String>) {
    for f in dir.files() {
        if let Some(text) = f.contents_utf8() {
            out.insert(format!("{prefix}/{}", f.path().display()), text.to_string());
        }
    }
    for d in dir.dirs() {
        collect_embedded(d, prefix, out);
    }
}

/// The UI string files that ship in the binary: (language folder, file name, text).
pub fn embedded_i18n() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    I18N.dirs().flat_map(|d| {
        let lang = d.path().to_str().unwrap_or("");
        d.files().filter_map(move |f| {
            let name = f.path().file_name()?.to_str()?;
            Some((lang, name, f.contents_utf8()?))
        })
    })
}

/// What a folder or archive holding none of the content folders is told.
fn no_content(place: &Path) -> Msg {
    Msg::new("content-dir-empty")
        .arg("dir", place.display())
        .arg("expected", TOP_DIRS.join(", "))
}
