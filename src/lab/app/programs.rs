//! The host's programs a lab needs (bubblewrap, newuidmap, newgidmap), found as a shell would.

use std::path::PathBuf;

/// `tool` in a folder of PATH, as a shell would find it.
pub(super) fn on_path(tool: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(tool))
            .find(|f| f.is_file())
    })
}
