//! Paths inside the simulated machine and file writes that never leave half a file.
//!
//! A "sim path" is what the learner types (`/etc/group`, `./rocm.gpg`); it is resolved against the
//! stage root and the caller's working directory, and can never climb out of the root.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

pub use rocm_unix::files::{READ_CAP, read_capped, read_opt, write_atomic};

/// Normalises `path` (absolute, or relative to `cwd`) into a clean absolute sim path.
pub fn normalize(path: &str, cwd: &str) -> String {
    let joined = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{}/{}", cwd.trim_end_matches('/'), path)
    };
    let mut parts: Vec<&str> = Vec::new();
    for p in joined.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

/// The host path of a sim path under `root`. Links on the way to the last component are
/// followed as the machine follows them (an absolute target counts from `root`: /opt/rocm ->
/// /etc/alternatives/rocm), so a stage kept in a folder reads like the sandbox; the last
/// component itself is left alone, so a tool can still read or replace a link.
pub fn host(root: &Path, path: &str, cwd: &str) -> PathBuf {
    let clean = normalize(path, cwd);
    let join = |p: &str| {
        let rel = p.trim_start_matches('/');
        if rel.is_empty() {
            root.to_path_buf()
        } else {
            root.join(rel)
        }
    };
    if root == Path::new("/") {
        return join(&clean);
    }
    match clean.rsplit_once('/') {
        Some((dir, name)) if !dir.is_empty() && !name.is_empty() => {
            match rocm_unix::machine_path::resolve(dir, join) {
                Some(d) => join(&d).join(name),
                None => join(&clean),
            }
        }
        _ => join(&clean),
    }
}

/// Names the folder where the machine's `/usr/bin` and `/usr/sbin` are seen when the root is `/`
/// (`$ROCM_SIM_PROGRAMS/bin`, `$ROCM_SIM_PROGRAMS/sbin`). Whoever runs the machine there sets it
/// when they cannot be laid over the real /usr (a lab whose kernel refuses the overlay: then
/// /usr/local); unset or `/usr`, they are where they belong.
pub const PROGRAMS_ENV: &str = "ROCM_SIM_PROGRAMS";

/// Names a folder holding the host's own /usr/bin, for a tool that hands over to a real
/// program (`ls`, `stat`) whose name one of the machine's programs covers in /usr/bin.
pub const HOST_PROGRAMS_ENV: &str = "ROCM_SIM_HOST_PROGRAMS";

thread_local! {
    /// Where this thread's calls see the machine's /usr/bin and /usr/sbin at `/`: set by the
    /// entry from the host's `$ROCM_SIM_PROGRAMS` (one thread runs one call). Per thread and
    /// without a lock: the lab's supervisor runs each tool in a fork of one of its threads,
    /// and a lock another thread held at that moment would stay held in the copy forever.
    static PROGRAMS: std::cell::Cell<Option<&'static Path>> = const { std::cell::Cell::new(None) };
}

/// Says where the machine's /usr/bin and /usr/sbin are seen at `/` (None: at their place),
/// for this thread's calls.
pub fn set_programs(dir: Option<PathBuf>) {
    let now = PROGRAMS.with(std::cell::Cell::get);
    let dir = match dir {
        // Kept for the process's life (a few bytes per call that names another folder; a
        // process runs one call, so one folder): no owner to free it while a copy reads it.
        Some(d) if now != Some(d.as_path()) => Some(&*Box::leak(d.into_boxed_path())),
        Some(_) => now,
        None => None,
    };
    PROGRAMS.with(|p| p.set(dir));
}

/// Where this call sees the machine's /usr/bin and /usr/sbin when they are not at their
/// place: the folder holding that bin and sbin (`/usr/local`), else None.
pub fn programs_elsewhere() -> Option<PathBuf> {
    PROGRAMS
        .with(std::cell::Cell::get)
        .filter(|p| *p != Path::new("/usr"))
        .map(Path::to_path_buf)
}

/// The host path of one of the machine's own programs (`/usr/bin/X`, `/usr/sbin/X`). Under a
/// stage root that is `usr/bin/X`; at `/` it is under the folder `set_programs` named, so
/// that a package's program lands where something can run it.
pub fn system_bin(root: &Path, path: &str) -> PathBuf {
    // Only for `/`: under a stage root the setting counts for nothing.
    let programs = (root == Path::new("/"))
        .then(|| PROGRAMS.with(std::cell::Cell::get))
        .flatten();
    system_bin_in(root, path, programs.and_then(Path::to_str))
}

fn system_bin_in(root: &Path, path: &str, programs: Option<&str>) -> PathBuf {
    let clean = normalize(path, "/");
    if let (true, Some(programs)) = (root == Path::new("/"), programs) {
        for dir in ["bin", "sbin"] {
            if let Some(rest) = clean.strip_prefix(&format!("/usr/{dir}/")) {
                return Path::new(programs).join(dir).join(rest);
            }
        }
    }
    host(root, &clean, "/")
}

/// Writes an executable (0755) file atomically.
pub fn write_executable(path: &Path, text: &str) -> io::Result<()> {
    write_atomic(path, text.as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

/// Sorted file names in a directory (empty when it does not exist).
pub fn list_dir(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.path().is_file())
                .filter_map(|e| e.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_never_climbs_out() {
        assert_eq!(normalize("../../etc/group", "/home/learner"), "/etc/group");
        assert_eq!(normalize("/../../x", "/"), "/x");
        assert_eq!(normalize("./a.deb", "/home/learner"), "/home/learner/a.deb");
        assert_eq!(normalize("", "/tmp"), "/tmp");
    }

    #[test]
    fn where_programs_are_is_each_threads_own_setting() {
        let sandbox = Path::new("/");
        set_programs(Some(PathBuf::from("/usr/local")));
        let other = std::thread::spawn(|| {
            // Another thread's call (another tool's) is not moved by this one's setting.
            let before = system_bin(Path::new("/"), "/usr/bin/kubectl");
            set_programs(Some(PathBuf::from("/elsewhere")));
            (before, system_bin(Path::new("/"), "/usr/bin/kubectl"))
        })
        .join()
        .unwrap();
        assert_eq!(
            other,
            (
                PathBuf::from("/usr/bin/kubectl"),
                PathBuf::from("/elsewhere/bin/kubectl")
            )
        );
        assert_eq!(
            system_bin(sandbox, "/usr/sbin/dkms"),
            Path::new("/usr/local/sbin/dkms")
        );
        set_programs(None);
        assert_eq!(
            system_bin(sandbox, "/usr/sbin/dkms"),
            Path::new("/usr/sbin/dkms")
        );
    }

    #[test]
    fn system_programs_go_where_the_machine_runner_says() {
        let stage = Path::new("/tmp/stage");
        let at = |root, path, programs| system_bin_in(root, path, programs);
        assert_eq!(
            at(stage, "/usr/sbin/dkms", Some("/x")),
            stage.join("usr/sbin/dkms")
        );
        let sandbox = Path::new("/");
        assert_eq!(
            at(sandbox, "/usr/sbin/dkms", Some("/usr/local")),
            Path::new("/usr/local/sbin/dkms")
        );
        assert_eq!(
            at(sandbox, "/usr/bin/kubectl", Some("/usr/local")),
            Path::new("/usr/local/bin/kubectl")
        );
        assert_eq!(
            at(sandbox, "/usr/bin/kubectl", None),
            Path::new("/usr/bin/kubectl")
        );
        assert_eq!(
            at(sandbox, "/usr/bin/kubectl", Some("/usr")),
            Path::new("/usr/bin/kubectl")
        );
        assert_eq!(
            at(sandbox, "/etc/x", Some("/usr/local")),
            Path::new("/etc/x")
        );
    }
}
