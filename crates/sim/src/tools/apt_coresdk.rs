//! apt's words for the Core SDK repository on stable.repo.amd.com: where its packages come
//! from, and what apt says when it cannot verify it.

use super::super::pkgs::{KeyCheck, Source};
use super::super::{Ctx, coresdk};

/// Where apt says a Core SDK package comes from in its `Get:` lines.
pub fn origin(cx: &Ctx) -> String {
    let dir = coresdk::os_dir(&cx.state.machine.os.version_id);
    format!(
        "https://{}/rocm/core/packages/{dir} stable/main amd64",
        coresdk::HOST
    )
}

/// A stable.repo.amd.com source apt cannot verify. Its key id is not documented, so apt's
/// `NO_PUBKEY <id>` line is left out; what surely prints is the error and the notes.
pub fn unsigned(
    cx: &mut Ctx,
    s: &Source,
    check: &KeyCheck,
    n: usize,
    warnings: &mut Vec<String>,
    errors: &mut bool,
) {
    let name = format!("{} {}", s.uri.trim_end_matches('/'), s.suite);
    cx.println(&format!("Err:{n} {name} InRelease"));
    if let Some(w) = ignored_keyring(s, check) {
        warnings.push(w);
    }
    warnings.push(format!(
        "E: The repository '{name} InRelease' is not signed."
    ));
    warnings.push("N: Updating from such a repository can't be done securely, and is therefore disabled by default.".into());
    warnings.push(
        "N: See apt-secure(8) manpage for repository creation and user configuration details."
            .into(),
    );
    *errors = true;
    cx.state.apt_lists.remove(&s.list_key());
}

/// apt's warning about a keyring it had to ignore for `s`: armored without `.asc`, or one the
/// `_apt` user may not read.
pub fn ignored_keyring(s: &Source, check: &KeyCheck) -> Option<String> {
    let why = match check {
        KeyCheck::UnsupportedFiletype(f) => {
            format!(
                "The key(s) in the keyring {f} are ignored as the file has an unsupported filetype."
            )
        }
        KeyCheck::NotReadable(f) => format!(
            "The key(s) in the keyring {f} are ignored as the file is not readable by user '_apt' executing apt-key."
        ),
        _ => return None,
    };
    Some(format!(
        "W: {}/dists/{}/InRelease: {why}",
        s.uri.trim_end_matches('/'),
        s.suite
    ))
}
