//! apt's words for the Core SDK repository on stable.repo.amd.com: where its packages come
//! from, and the keyring apt ignores (for it and for repo.radeon.com alike).

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
