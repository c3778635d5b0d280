//! The sandbox's layout, as both sides of the lab know it: the descriptors the app hands the
//! supervisor, where things are inside, the hidden subcommands and the variables that cross.
//! One table, so the app's bubblewrap command line and the supervisor cannot disagree.

use std::path::{Path, PathBuf};

// Hidden subcommands of the one binary.

/// The supervisor, the sandbox's first process.
pub const SUPERVISOR: &str = "__lab-supervisor";

/// Confines a program and runs it: `__lab-exec DOMAIN -- PROG ARGS`.
pub const EXEC: &str = "__lab-exec";

// Descriptors, as the supervisor finds them (the channel itself: `protocol::FD`).

/// The copy of /usr whose ids read as the lab's (a lab started by root).
pub const USR_FD: i32 = 7;

/// The device pool (`app::device_pool`), mounted at `POOL`.
pub const POOL_FD: i32 = 8;

/// The fd of the binary in a sandbox whose stage is handed over (`Layout::handed`):
/// bubblewrap copies it into memory at `SIM_BIN`.
pub const EXE_FD: i32 = 9;

/// The fd of the stage's folder in such a sandbox, for the supervisor to copy the machine from.
pub const STAGE_FD: i32 = 10;

// Variables set in the sandbox's environment.

/// Set in the sandbox's environment: the simulated tools ask the supervisor rather than act.
pub const SANDBOX_ENV: &str = "ROCM_LAB_SANDBOX";

/// Whether this process runs inside a lab's sandbox.
pub fn in_sandbox() -> bool {
    std::env::var_os(SANDBOX_ENV).is_some_and(|v| v == "1")
}

/// The app's language inside the sandbox (`Options::lang`).
pub const LANG_ENV: &str = "ROCM_LEARN_LANG";

// Who and where, inside.

/// The learner's uid and gid inside the sandbox.
pub const LEARNER_UID: u32 = 1000;

/// Where the rocm-learn binary is mounted inside the sandbox (the simulated tools call it).
pub const SIM_BIN: &str = "/usr/local/libexec/rocm-learn";

/// Where the supervisor starts from when the binary comes as a mount (`Layout::exe_mount`):
/// its descriptor, which the supervisor then mounts at `SIM_BIN`.
pub fn exe_by_fd() -> String {
    format!("/proc/self/fd/{EXE_FD}")
}

/// Where the stage's home folder is shown read-only, for the supervisor to copy into the
/// home's tmpfs before the first login.
pub const HOME_SEED: &str = "/run/rocm-lab/home-seed";

/// Where a handed stage's sandbox shows the host's alternatives folder `rel` (one of
/// `sim::alternatives::FOLDERS`) until the supervisor has merged it into the machine's.
pub fn host_alternatives(rel: &str) -> String {
    format!("/run/host-{}", rel.replace('/', "-"))
}

/// Host /etc entries that Ubuntu's own programs read (the dynamic linker, name lookup, terminal
/// descriptions); /etc/alternatives is the machine's own, seeded with the host's links. Bound
/// read-only where the simulated
/// machine has none of its own.
pub const HOST_ETC: [&str; 10] = [
    "ld.so.cache",
    // man(1) reads these before any page.
    "manpath.config",
    "groff",
    "nsswitch.conf",
    "terminfo",
    "bash.bashrc",
    "inputrc",
    "localtime",
    "magic",
    "vim",
];

/// Where the supervisor mounts the device pool.
pub const POOL: &str = "/run/rocm-lab/devices";

/// A device node's name in the pool.
pub fn pool_name((major, minor): (u32, u32)) -> String {
    format!("c{major}_{minor}")
}

/// The stage's folders as the sandbox mounts them, read-write: (path inside, without the
/// leading slash; folder of the stage). The one table the sandbox's binds and `host_path` use.
pub const MOUNTS: [(&str, &str); 5] = [
    ("run/rocm-lab", "run"),
    ("etc", "etc"),
    ("home", "home"),
    ("opt", "opt"),
    ("var", "var"),
];

/// The machine's own programs: (their folder inside, without the leading slash; folder of the
/// stage). The supervisor lays them over the host's folder of the same name
/// (`sandbox::usr_layer`), so a tool is where its package puts it and the host's programs stay
/// beside it.
pub const PROGRAMS: [(&str, &str); 2] = [("usr/bin", "usr/bin"), ("usr/sbin", "usr/sbin")];

/// Where bubblewrap first shows the machine's programs (over a tmpfs at /usr/local), for the
/// supervisor to take them from; where they stay when the kernel refuses the overlay.
pub const FALLBACK_PROGRAMS: &str = "/usr/local";

/// `PROGRAMS` as bubblewrap binds them: (path inside under `FALLBACK_PROGRAMS`, without the
/// leading slash; folder of the stage).
pub fn fallback_binds() -> Vec<(String, &'static str)> {
    let local = FALLBACK_PROGRAMS.trim_start_matches('/');
    PROGRAMS
        .iter()
        .map(|(inside, dir)| {
            let name = inside.rsplit('/').next().unwrap_or(inside);
            (format!("{local}/{name}"), *dir)
        })
        .collect()
}

/// Where the supervisor shows the host's own /usr/bin, read-only, once the machine's programs
/// cover some of its names (`ls`, `stat`, `which`): the simulated tools run the real one from
/// here for what they do not draw themselves.
pub const HOST_BIN: &str = "/run/rocm-lab/host-bin";

/// Where a path of the sandbox lives on the host: the stage's folders for what is mounted from
/// it; in /usr/bin and /usr/sbin the machine's program when the stage has one of that name,
/// else the host's; the host's own file (read-only in the sandbox) for everything else.
pub fn host_path(root: &Path, inside: &str) -> PathBuf {
    let p = inside.trim_start_matches('/');
    // Inside the sandbox (the supervisor's checks) the mounts are already in place.
    if root == Path::new("/") {
        return Path::new("/").join(p);
    }
    for (mount, dir) in MOUNTS {
        if p == mount {
            return root.join(dir);
        }
        if let Some(rest) = p.strip_prefix(mount).and_then(|r| r.strip_prefix('/')) {
            return root.join(dir).join(rest);
        }
    }
    for (folder, dir) in PROGRAMS {
        if let Some(name) = p.strip_prefix(folder).and_then(|r| r.strip_prefix('/')) {
            let staged = root.join(dir).join(name);
            if !name.contains('/') && std::fs::symlink_metadata(&staged).is_ok() {
                return staged;
            }
        }
    }
    Path::new("/").join(p)
}

/// Follows a path as the sandbox sees it, symlinks included (an absolute link target means the
/// sandbox's path, not the host's), and returns where the file is on the host.
pub fn resolve(root: &Path, inside: &str) -> Option<PathBuf> {
    crate::machine_path::resolve(inside, |p| host_path(root, p)).map(|p| host_path(root, &p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_is_the_stages_when_it_has_one_and_the_hosts_otherwise() {
        let t = tempfile::tempdir().unwrap();
        let s = t.path();
        std::fs::create_dir_all(s.join("usr/sbin")).unwrap();
        std::fs::write(s.join("usr/sbin/dkms"), "").unwrap();
        assert_eq!(host_path(s, "/usr/sbin/dkms"), s.join("usr/sbin/dkms"));
        assert_eq!(host_path(s, "/usr/bin/env"), Path::new("/usr/bin/env"));
        assert_eq!(host_path(s, "/usr/sbin"), Path::new("/usr/sbin"));
        // Nothing of the machine is in /usr/local: the host's file, which the lab never shows.
        assert!(!host_path(s, "/usr/local/sbin/dkms").starts_with(s));
        assert_eq!(
            fallback_binds(),
            [
                ("usr/local/bin".to_string(), "usr/bin"),
                ("usr/local/sbin".to_string(), "usr/sbin")
            ]
        );
    }

    #[test]
    fn inside_the_sandbox_every_path_is_its_own() {
        assert_eq!(
            host_path(Path::new("/"), "/usr/bin/lspci"),
            Path::new("/usr/bin/lspci")
        );
    }

    #[test]
    fn each_fd_is_the_supervisors_for_one_thing() {
        let mut fds = vec![
            USR_FD,
            POOL_FD,
            EXE_FD,
            STAGE_FD,
            crate::lab::wire::protocol::FD,
            crate::lab::wire::protocol::SHELL_FD,
        ];
        fds.sort_unstable();
        fds.dedup();
        assert_eq!(fds.len(), 6);
        assert!(fds.iter().all(|fd| *fd > 2), "stdio is the login's");
    }
}
