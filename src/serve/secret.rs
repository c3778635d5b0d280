//! What the server keeps secret in the class folder (the class code, the host key): made on
//! first use and read again after, so that servers sharing the folder agree. A problem with the
//! file names it.

use std::path::Path;

use crate::content::Msg;

/// Reads `class/file` with `read` when it is there, else makes it with `make`. The reason either
/// one fails goes into the message `problem`, next to the file's path.
pub fn load_or_make<T>(
    class: &Path,
    file: &str,
    problem: &'static str,
    read: impl FnOnce(&Path) -> Result<T, String>,
    make: impl FnOnce(&Path) -> Result<T, String>,
) -> Result<T, Msg> {
    let path = class.join(file);
    let got = if std::fs::symlink_metadata(&path).is_ok() {
        read(&path)
    } else {
        make(&path)
    };
    got.map_err(|why| {
        Msg::new(problem)
            .arg("path", path.display())
            .arg("why", why)
    })
}
