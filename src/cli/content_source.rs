//! Where the course comes from (`--content`, `ROCM_LEARN_CONTENT`, the pack remembered from
//! the app, or the built-in course) and loading it, refusing a pack with errors.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::content::{self, ContentTree, Course, Diagnostics, Pack, Severity};
use crate::exit::{EXIT_FAIL, EXIT_USAGE};
use crate::i18n::I18n;
use crate::progress::{self, Store};

/// `--content`, else ROCM_LEARN_CONTENT, else the pack last opened in the app with `--content`
/// (`--content builtin` goes back to the built-in course); `None` is the built-in course.
pub(super) fn content_dir(
    i18n: &I18n,
    flag: Option<&PathBuf>,
    settings: &progress::Settings,
) -> Option<PathBuf> {
    match flag {
        Some(f) if f.as_os_str() == crate::content::pack::BUILTIN => None,
        Some(f) => Some(f.clone()),
        None => content_from_env().or_else(|| {
            let r = PathBuf::from(settings.content.as_ref()?);
            eprintln!(
                "{}",
                i18n.ta(
                    "classroom-remembered-pack",
                    &[("pack", r.display().to_string().into())]
                )
            );
            Some(r)
        }),
    }
}

/// Prints diagnostics as `path:line:col: error: message`. The severity words stay English so
/// editors and CI problem matchers can read them; the message is in the learner's language.
pub(super) fn print_diagnostics(
    i18n: &I18n,
    diags: &Diagnostics,
    out: &mut impl Write,
) -> io::Result<()> {
    for d in &diags.items {
        let sev = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        writeln!(
            out,
            "{}:{}:{}: {sev}: {}",
            d.path,
            d.line,
            d.col,
            i18n.msg(&d.msg)
        )?;
    }
    Ok(())
}

pub(super) fn read_tree(
    i18n: &I18n,
    dir: Option<PathBuf>,
    diags: &mut Diagnostics,
) -> Result<ContentTree, i32> {
    match dir {
        None => Ok(ContentTree::embedded()),
        Some(d) if is_archive(&d) => ContentTree::from_archive(&d, diags).map_err(|m| {
            eprintln!("{}", i18n.msg(&m));
            EXIT_USAGE
        }),
        Some(d) => ContentTree::from_dir(&d, diags).map_err(|m| {
            eprintln!("{}", i18n.msg(&m));
            EXIT_USAGE
        }),
    }
}

/// Loads the course; a pack with errors is refused with its diagnostics (warnings are left to
/// `check`, so a half-translated pack still runs).
pub(super) fn load_course(i18n: &I18n, dir: Option<PathBuf>) -> Result<(Course, Pack), i32> {
    let mut read_diags = Diagnostics::default();
    let tree = read_tree(i18n, dir.clone(), &mut read_diags)?;
    let (course, pack, mut diags) = content::load_pack(&tree);
    diags.items.extend(read_diags.items);
    if diags.error_count() > 0 {
        diags.items.retain(|d| d.severity == Severity::Error);
        let _ = print_diagnostics(i18n, &diags, &mut io::stderr());
        let dir = dir.map(|d| d.display().to_string()).unwrap_or_default();
        eprintln!(
            "{}",
            i18n.ta(
                "cli-content-has-errors",
                &[("count", diags.error_count().into()), ("dir", dir.into())]
            )
        );
        return Err(EXIT_FAIL);
    }
    Ok((course, pack))
}

/// Remembers the pack the app was opened with, for the next runs without `--content`.
pub(super) fn remember_content(dir: Option<&std::path::Path>) {
    let value = dir.map(|d| {
        std::fs::canonicalize(d)
            .unwrap_or_else(|_| d.to_path_buf())
            .display()
            .to_string()
    });
    if let Ok(store) = Store::locate() {
        let _ = store.update(|p| p.settings.content = value);
    }
}

/// A pack handed out as one file.
pub(super) fn is_archive(path: &std::path::Path) -> bool {
    let name = path.to_string_lossy();
    (name.ends_with(".tar.gz") || name.ends_with(".tgz")) && path.is_file()
}

/// `ROCM_LEARN_CONTENT`: the pack a classroom machine opens without `--content` (`builtin`, or
/// empty, for the built-in course).
pub(super) fn content_from_env() -> Option<PathBuf> {
    std::env::var_os(CONTENT_ENV)
        .filter(|v| !v.is_empty() && v != crate::content::pack::BUILTIN)
        .map(PathBuf::from)
}

pub const CONTENT_ENV: &str = "ROCM_LEARN_CONTENT";
