//! The learner's shell runs inside bubblewrap: the host's userland (/usr and the merged-/usr
//! links) read-only and nothing else of the host, the lab's own /etc, /opt, /home and /var
//! from its stage folder (with the host /etc entries Ubuntu's tools need), the stage's usr/bin
//! and usr/sbin (the simulated tools) at /usr/local/bin and /usr/local/sbin for the supervisor
//! to lay over /usr/bin and /usr/sbin (`sandbox::usr_layer`), a sized /tmp, no network, its own
//! PID namespace, and it dies with the app. When bubblewrap cannot run, the
//! lab says exactly why and how to fix it; it never falls back to an unconfined shell.

use super::programs::on_path;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::content::Msg;
use crate::lab::wire::layout::{
    EXE_FD, FALLBACK_PROGRAMS, HOME_SEED, HOST_ETC, SIM_BIN, host_alternatives,
};

/// Top-level folders of a merged-/usr system: symlinks into /usr there, bound read-only on
/// systems that still have them as folders.
const USR_LINKS: [&str; 6] = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/// Empty, private folders where Ubuntu has them; nothing of the host's shows through.
const EMPTY: [&str; 5] = ["/root", "/mnt", "/media", "/srv", "/run"];

/// The writable /tmp of a lab (a tmpfs, so a full one is the learner's and not the host's).
pub const TMP_SIZE: u64 = 512 << 20;

/// /dev/shm (PyTorch's data loaders use it).
pub const SHM_SIZE: u64 = 64 << 20;

/// The size of /var/tmp, a tmpfs like /tmp.
pub const VAR_TMP_SIZE: u64 = 256 << 20;

/// The learner's home is a tmpfs of this size too (1 GiB with /tmp): a full disk is the
/// learner's "No space left on device", never the host's.
pub const HOME_SIZE: u64 = 512 << 20;

/// Why the sandbox cannot start, as a message naming the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxError(pub Msg);

/// The lab's namespaces: all of them, the user's too, with the learner's uid and gid inside.
const NAMESPACES: [&str; 6] = [
    "--unshare-all",
    "--unshare-user",
    "--uid",
    "1000",
    "--gid",
    "1000",
];

/// What root keeps in a lab with real ids: bubblewrap gives one capability per `--cap-add`.
pub const ROOT_CAPS: [&str; 8] = [
    "CAP_CHOWN",
    "CAP_DAC_OVERRIDE",
    "CAP_DAC_READ_SEARCH",
    "CAP_FOWNER",
    "CAP_FSETID",
    "CAP_KILL",
    "CAP_SETGID",
    "CAP_SETUID",
];

/// What the supervisor alone holds besides (`userns::keep_to_self`): mounting the machine's
/// device nodes (`devnodes`), and taking these two out of what any program it starts can get.
pub const SUPERVISOR_CAPS: [&str; 2] = ["CAP_SYS_ADMIN", "CAP_SETPCAP"];

/// Which ids the sandbox's user namespace holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ids {
    /// The learner's uid alone, all an unprivileged user may map: the learner's uid owns the
    /// machine's files, and Landlock alone keeps them from being written.
    One,
    /// Root and the machine's accounts (a lab started by root or by a user
    /// with subordinate ids): root owns the system files.
    Many,
}

/// A lab of one id whose supervisor may mount: root of the namespace at first (`NS_ROOT`, see
/// `userns::become_learner_alone`), with these capabilities.
const ONE_ID_MOUNTS: [&str; 14] = [
    "--cap-drop",
    "ALL",
    "--cap-add",
    "CAP_SYS_ADMIN",
    "--cap-add",
    "CAP_CHOWN",
    "--cap-add",
    "CAP_DAC_OVERRIDE",
    "--cap-add",
    "CAP_FOWNER",
    "--cap-add",
    "CAP_DAC_READ_SEARCH",
    // Mapping the namespace's root, even to the learner, takes it (Linux 5.12 and later).
    "--cap-add",
    "CAP_SETFCAP",
];

/// Whether bubblewrap gives a sandbox of one id the capabilities of `ONE_ID_MOUNTS` here
/// (some systems allow user namespaces but not capabilities in them). Tried once per process.
fn one_id_mounts(bwrap: &Path) -> bool {
    answer("one-id-mounts", bwrap, "", || {
        let mut cmd = trial(bwrap, crate::lab::app::idmap::NS_ROOT);
        cmd.args(ONE_ID_MOUNTS).args(TRIAL_MOUNTS).arg("true");
        cmd.status().is_ok_and(|s| s.success())
    })
}

/// A throwaway sandbox's answer to `question` for `bwrap`, once per process, and a yes once
/// per machine (`probe_cache`).
fn answer(question: &str, bwrap: &Path, detail: &str, ask: impl FnOnce() -> bool) -> bool {
    let detail = format!("{}\0{detail}", bwrap.display());
    super::probe_cache::answer(question, &detail, ask)
}

/// Forgets what the throwaway sandboxes said (`probe_cache::forget`): a lab failed to start,
/// and the next one asks the host again. True if an answer had been taken from the cache.
pub fn forget_probes() -> bool {
    super::probe_cache::forget()
}

/// Whether the supervisor will be able to move the machine into memory (`in_memory`): it is
/// root of its namespace with the machine's ids, or bubblewrap grants one id the capabilities.
pub fn machine_in_memory(bwrap: &Path) -> bool {
    mapper(bwrap).is_some() || one_id_mounts(bwrap)
}

/// A throwaway sandbox like the lab's (`NAMESPACES`, the host seen read-only): what the
/// probes try before a lab depends on it.
const TRIAL_MOUNTS: [&str; 7] = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];

/// bubblewrap with the namespace options `ns` and no input or output: the start of every
/// probe's throwaway sandbox (its mounts and program follow).
fn trial<S: AsRef<std::ffi::OsStr>>(bwrap: &Path, ns: impl IntoIterator<Item = S>) -> Command {
    let mut cmd = Command::new(bwrap);
    cmd.args(ns)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

/// Checks once that bubblewrap exists and may create the namespaces the lab needs.
pub fn probe() -> Result<PathBuf, SandboxError> {
    // Not a missing package: bubblewrap is Linux's. Say so instead of naming apt or dnf.
    let not_linux = if cfg!(target_os = "linux") {
        None
    } else if cfg!(target_os = "macos") {
        Some("doctor-labs-macos")
    } else if cfg!(target_os = "windows") {
        Some("doctor-labs-windows")
    } else {
        Some("doctor-labs-other-os")
    };
    if let Some(id) = not_linux {
        return Err(SandboxError(Msg::new(id)));
    }
    let Some(bwrap) = on_path("bwrap") else {
        return Err(SandboxError(Msg::new("lab-no-bwrap")));
    };
    // A sandbox that worked once keeps working for this process, and on this machine until
    // it reboots or changes (`probe_cache`): each lab open would otherwise pay for a trial
    // sandbox. A failure is tried again, once the user has fixed it.
    let question = format!("{}\0", bwrap.display());
    if super::probe_cache::known("bwrap", &question) == Some(true) {
        return Ok(bwrap);
    }
    let out = trial(&bwrap, NAMESPACES)
        .args(TRIAL_MOUNTS)
        .arg("true")
        .stderr(Stdio::piped())
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) => return Err(SandboxError(Msg::new("lab-bwrap-failed").arg("error", e))),
    };
    if out.status.success() {
        super::probe_cache::remember("bwrap", &question, true);
        return Ok(bwrap);
    }
    let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
    // Ubuntu 24.04 restricts unprivileged user namespaces through AppArmor; other systems
    // turn them off with a sysctl. Both show up as a refused uid map or namespace.
    let id = if err.contains("uid map") || err.contains("setting up uid") {
        "lab-userns-apparmor"
    } else if err.contains("No permissions to create") || err.contains("Operation not permitted") {
        "lab-userns-disabled"
    } else {
        "lab-bwrap-failed"
    };
    Err(SandboxError(Msg::new(id).arg("error", err)))
}

/// Who the sandbox should run as: None for the caller itself; when the caller is root and an
/// unprivileged user may create user namespaces here, root inside the lab (`Mapper::root`):
/// nobody, or a `serve` session's own id. The kernel exempts root from the sandbox's process
/// limit, and an escape lands in an account that owns nothing. Tried once per machine (a yes).
pub fn run_as(bwrap: &Path) -> Option<(u32, u32)> {
    use std::os::unix::process::CommandExt;
    if !rustix::process::geteuid().is_root() {
        return None;
    }
    let who = crate::lab::app::idmap::Mapper::root(crate::lab::app::idmap::slot()).run_as()?;
    // Whether an unprivileged id may create the namespaces does not depend on which one: the
    // answer for nobody holds for a `serve` session's own id too.
    let ok = answer("run-as-unprivileged", bwrap, "", || {
        // The binary and the stage are handed over by descriptor (`Layout::handed`): the
        // account need not reach them by path (it has no home, nor any file), only create the
        // namespaces.
        trial(bwrap, NAMESPACES)
            .args(TRIAL_MOUNTS)
            .arg("true")
            .uid(who.0)
            .gid(who.1)
            .status()
            .is_ok_and(|s| s.success())
    });
    ok.then_some(who)
}

/// Who writes the maps of a namespace with the machine's ids (`Ids::Many`), when anybody can:
/// the app as the host's root (the sandbox running as nobody), or newuidmap and newgidmap for a
/// user with subordinate ids that work here. None: the sandbox maps the learner's uid alone.
/// Tried once per process.
pub fn mapper(bwrap: &Path) -> Option<crate::lab::app::idmap::Mapper> {
    use crate::lab::app::idmap::Mapper;
    let (m, detail) = if run_as(bwrap).is_some() {
        // A bubblewrap too old for the options the lab needs (before 0.5) keeps one uid. Root
        // writes any map: the answer is the same for every session's block.
        (Mapper::root(crate::lab::app::idmap::slot()), "root".into())
    } else {
        // newuidmap checks the ranges against /etc/subuid: the answer is for these maps.
        let m = subordinate_mapper()?;
        let detail = format!("{m:?}");
        (m, detail)
    };
    answer("many-ids", bwrap, &detail, || trial_many(bwrap, &m)).then_some(m)
}

/// Asks every question a lab's open depends on now, so that the answers are kept for the
/// processes to come (`serve` does, as it starts: its sessions find them).
pub fn ask_ahead() {
    if let Ok(bwrap) = probe() {
        let _ = machine_in_memory(&bwrap);
    }
}

/// The caller's subordinate ids, when newuidmap and newgidmap are installed (a `serve`
/// session's own block of them, when the ranges are long enough).
fn subordinate_mapper() -> Option<crate::lab::app::idmap::Mapper> {
    let (ids, uids, gids) = subordinate_ranges()?;
    Some(crate::lab::app::idmap::Mapper::subordinate(
        ids,
        uids,
        gids,
        crate::lab::app::idmap::slot(),
    ))
}

/// A user's (uid, gid), and its subordinate uids and gids as (start, count).
pub type Ranges = ((u32, u32), (u32, u32), (u32, u32));

/// The caller's uid and gid, and the ranges /etc/subuid and /etc/subgid give it, when
/// newuidmap and newgidmap are installed.
pub fn subordinate_ranges() -> Option<Ranges> {
    on_path("newuidmap")?;
    on_path("newgidmap")?;
    let (uid, gid) = (
        rustix::process::getuid().as_raw(),
        rustix::process::getgid().as_raw(),
    );
    // The host's own account database, read as the simulator reads a machine's.
    let name = crate::sim::accounts::user_by_uid(Path::new("/"), uid)
        .map(|pw| pw.name)
        .unwrap_or_default();
    let range = |file: &str| {
        let table = std::fs::read_to_string(file).ok()?;
        crate::lab::app::idmap::subordinate_range(&table, &name, uid)
    };
    Some(((uid, gid), range("/etc/subuid")?, range("/etc/subgid")?))
}

/// How the labs of a server's `slots` sessions get their host ids here (for `serve` to
/// say as it starts); no sandbox is tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionIds {
    /// Each session's lab its own block (started by root, or ranges long enough).
    OwnBlock,
    /// Subordinate ids too few for a block per session: every lab the same range.
    SharedRange { have: u32, need: u64 },
    /// No subordinate ids: every lab maps the server's own uid alone.
    ServerUser,
}

pub fn session_ids(slots: u32) -> SessionIds {
    use crate::lab::app::idmap::{COUNT, slots_fit};
    if rustix::process::geteuid().is_root() {
        return SessionIds::OwnBlock;
    }
    match subordinate_ranges() {
        Some((_, uids, gids)) if slots_fit(uids, slots) && slots_fit(gids, slots) => {
            SessionIds::OwnBlock
        }
        Some((_, uids, gids)) => SessionIds::SharedRange {
            have: uids.1.min(gids.1),
            need: (u64::from(slots) + 1) * u64::from(COUNT) - 1,
        },
        None => SessionIds::ServerUser,
    }
}

/// Whether a throwaway sandbox with `mapper`'s maps starts and runs a program.
fn trial_many(bwrap: &Path, mapper: &crate::lab::app::idmap::Mapper) -> bool {
    // The options a lab's command line adds to the namespaces, on a program that needs them.
    run_mapped(
        bwrap,
        mapper,
        &[
            "--cap-drop",
            "ALL",
            "--cap-add",
            "CAP_SETUID",
            "--perms",
            "1777",
            "--tmpfs",
            "/tmp",
            "true",
        ],
    )
}

/// Gives the caller back what the machine's accounts left in a stage: files of the learner's
/// uid are the caller's subordinate ids, which the caller may neither open nor remove. A
/// throwaway sandbox with the lab's maps, in which the caller is root, makes the stage the
/// caller's again and open to it (never following a link; the sandbox sees the stage and the
/// host read-only).
/// Call once the lab's sandbox is gone.
pub fn reclaim(bwrap: &Path, stage: &Path, mapper: &crate::lab::app::idmap::Mapper) -> bool {
    let Some(stage) = stage.to_str() else {
        return false;
    };
    run_mapped(
        bwrap,
        mapper,
        &[
            "--cap-add",
            "CAP_CHOWN",
            "--cap-add",
            "CAP_DAC_OVERRIDE",
            "--cap-add",
            "CAP_DAC_READ_SEARCH",
            "--cap-add",
            "CAP_FOWNER",
            "--tmpfs",
            "/tmp",
            "--bind",
            stage,
            "/tmp/stage",
            "sh",
            "-c",
            "chown -R -h 0:0 /tmp/stage && chmod -R u+rwX /tmp/stage",
        ],
    )
}

/// Runs `args` (bubblewrap's options after the namespaces, then the program) in a throwaway
/// sandbox whose maps `mapper` writes; whether all went well.
fn run_mapped(bwrap: &Path, mapper: &crate::lab::app::idmap::Mapper, args: &[&str]) -> bool {
    use crate::lab::app::idmap::Handshake;
    use std::os::unix::process::CommandExt;
    let run = || -> std::io::Result<bool> {
        let handshake = Handshake::new()?;
        let mut cmd = trial(bwrap, Handshake::args());
        cmd.args(TRIAL_MOUNTS).args(args);
        if let Some((uid, gid)) = mapper.run_as() {
            cmd.uid(uid).gid(gid);
        }
        crate::sys::place_fds(&mut cmd, handshake.child_fds().to_vec());
        let mut child = cmd.spawn()?;
        handshake.finish(&mut child, mapper)?;
        Ok(child.wait()?.success())
    };
    run().unwrap_or(false)
}

/// The folders of a lab's stage that replace the host's inside the sandbox.
pub struct Layout<'a> {
    pub stage: &'a Path,
    pub exe: &'a Path,
    /// The stage and the binary are handed to the sandbox by descriptor (`STAGE_FD`,
    /// `EXE_FD`), not by path: a lab started by root, whose sandbox runs as nobody, works
    /// wherever the binary and the temporary folder are, and no host process as nobody can
    /// reach the stage by its path.
    pub handed: bool,
    /// With `handed`: `EXE_FD` is a read-only mount of the binary (`exe_mount`), which the
    /// supervisor puts in place, instead of the file for bubblewrap to copy.
    pub exe_mount: bool,
    pub hostname: &'a str,
    pub user: &'a str,
    /// Host /etc entries to bind (see `HOST_ETC`), their mount points made in the stage.
    pub host_etc: &'a [String],
    pub ids: Ids,
    /// Extra environment (language of the login banner, terminal type).
    pub env: Vec<(String, String)>,
}

fn push(a: &mut Vec<OsString>, items: &[&str]) {
    a.extend(items.iter().map(OsString::from));
}

/// The bubblewrap command line that runs `program` as the learner in the stage.
pub fn command(bwrap: &Path, l: &Layout, program: &[&str]) -> Vec<OsString> {
    let s = |p: &str| l.stage.join(p).into_os_string();
    let mut a: Vec<OsString> = vec![bwrap.into()];
    // World-writable scratch folders are root's with the sticky bit on a machine with root.
    let scratch: &[&str] = match l.ids {
        Ids::One if one_id_mounts(bwrap) => {
            // Root of a namespace that maps the learner's uid alone, with what moving the
            // machine into memory takes; the supervisor then becomes the learner and gives
            // every capability up (`userns::become_learner_alone`).
            push(&mut a, &crate::lab::app::idmap::NS_ROOT);
            push(&mut a, &ONE_ID_MOUNTS);
            &[]
        }
        Ids::One => {
            push(&mut a, &NAMESPACES);
            &[]
        }
        Ids::Many => {
            // The sandbox's first process is root of a namespace whose maps the app writes
            // (`idmap`), with the capabilities a root of the machine uses on files and accounts.
            a.extend(
                crate::lab::app::idmap::Handshake::args()
                    .into_iter()
                    .map(OsString::from),
            );
            push(&mut a, &["--cap-drop", "ALL"]);
            for cap in ROOT_CAPS.iter().chain(&SUPERVISOR_CAPS) {
                push(&mut a, &["--cap-add", cap]);
            }
            &["--perms", "1777"]
        }
    };
    push(&mut a, &["--hostname", l.hostname, "--die-with-parent"]);
    push(&mut a, &["--ro-bind", "/usr", "/usr"]);
    for link in USR_LINKS {
        let Ok(meta) = std::fs::symlink_metadata(link) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            if let Ok(target) = std::fs::read_link(link) {
                a.extend(["--symlink".into(), target.into_os_string(), link.into()]);
            }
        } else if meta.is_dir() {
            push(&mut a, &["--ro-bind", link, link]);
        }
    }
    push(&mut a, &["--dev", "/dev", "--proc", "/proc"]);
    // Shared memory sized like /tmp's little sibling, not half the host's memory.
    let shm_size = SHM_SIZE.to_string();
    push(&mut a, scratch);
    push(&mut a, &["--size", &shm_size, "--tmpfs", "/dev/shm"]);
    // The machine's kernel command line, not the host's (a handed stage: the supervisor).
    if !l.handed {
        a.extend([
            "--ro-bind-try".into(),
            s(crate::sim::kernel::CMDLINE_PATH),
            "/proc/cmdline".into(),
        ]);
    }
    push(&mut a, &["--tmpfs", "/sys", "--remount-ro", "/sys"]);
    for h in EMPTY {
        push(&mut a, &["--tmpfs", h]);
    }
    let tmp_size = TMP_SIZE.to_string();
    push(&mut a, scratch);
    push(&mut a, &["--size", &tmp_size, "--tmpfs", "/tmp"]);
    // A handed stage is not shown at all: the supervisor copies it from its descriptor (the
    // home's mount point is made here, for bubblewrap's --chdir).
    if l.handed {
        a.extend(["--dir".into(), format!("/home/{}", l.user).into()]);
    } else {
        for (inside, dir) in crate::lab::wire::layout::MOUNTS {
            a.extend(["--bind".into(), s(dir), format!("/{inside}").into()]);
        }
        // Everyone's other scratch folder, over the stage's: what a learner leaves there
        // stays in memory, within its size, never on the host's disk.
        let var_tmp_size = VAR_TMP_SIZE.to_string();
        push(&mut a, scratch);
        push(&mut a, &["--size", &var_tmp_size, "--tmpfs", "/var/tmp"]);
        let user_home = format!("home/{}", l.user);
        a.extend(["--ro-bind".into(), s(&user_home), HOME_SEED.into()]);
        let home_size = HOME_SIZE.to_string();
        push(
            &mut a,
            &["--size", &home_size, "--tmpfs", &format!("/{user_home}")],
        );
    }
    for e in l.host_etc {
        let host = format!("/etc/{e}");
        a.extend(["--ro-bind".into(), host.clone().into(), host.into()]);
    }
    if l.handed {
        // The host's alternatives, for the supervisor to merge into the machine's.
        for (rel, _) in crate::sim::alternatives::FOLDERS {
            a.extend([
                "--ro-bind-try".into(),
                format!("/{rel}").into(),
                host_alternatives(rel).into(),
            ]);
        }
    }
    // The machine's own programs are shown in /usr/local first: the supervisor lays them over
    // /usr/bin and /usr/sbin (`sandbox::usr_layer`), or leaves them there, first on PATH, where
    // the kernel refuses the overlay.
    a.extend(["--tmpfs".into(), FALLBACK_PROGRAMS.into()]);
    if !l.handed {
        for (inside, dir) in crate::lab::wire::layout::fallback_binds() {
            a.extend(["--bind".into(), s(dir), format!("/{inside}").into()]);
        }
    }
    // A folder bubblewrap would make for the mount point is root's 0700: made here, it is 0755.
    if let Some(dir) = Path::new(SIM_BIN).parent() {
        a.extend(["--dir".into(), dir.into()]);
    }
    if l.exe_mount {
        // Nothing to copy: the supervisor mounts the binary at SIM_BIN.
    } else if l.handed {
        a.extend([
            "--perms".into(),
            "0755".into(),
            "--ro-bind-data".into(),
            EXE_FD.to_string().into(),
            SIM_BIN.into(),
        ]);
    } else {
        a.extend([
            "--ro-bind".into(),
            l.exe.as_os_str().to_owned(),
            SIM_BIN.into(),
        ]);
    }
    let home = format!("/home/{}", l.user);
    let mut env: Vec<(String, String)> = vec![
        ("HOME".into(), home.clone()),
        ("USER".into(), l.user.into()),
        ("LOGNAME".into(), l.user.into()),
        ("SHELL".into(), "/bin/bash".into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("PATH".into(), DEFAULT_PATH.into()),
        ("ROCM_SIM_ROOT".into(), "/".into()),
        ("ROCM_SIM_USER".into(), l.user.into()),
        ("ROCM_SIM_BIN".into(), SIM_BIN.into()),
        (crate::lab::wire::layout::SANDBOX_ENV.into(), "1".into()),
    ];
    env.extend(l.env.iter().cloned());
    a.push("--clearenv".into());
    for (k, v) in env {
        a.extend(["--setenv".into(), k.into(), v.into()]);
    }
    a.extend(["--chdir".into(), home.into()]);
    a.push("--".into());
    a.extend(program.iter().map(OsString::from));
    a
}

pub use crate::sim::entry::DEFAULT_PATH;

/// Makes the mount points for the host /etc entries the machine does not have itself, and
/// returns their names. Before the sandbox starts (the stage's /etc is read-only after).
pub fn host_etc_mountpoints(stage: &Path) -> std::io::Result<Vec<String>> {
    let mut bound = Vec::new();
    for e in HOST_ETC {
        let host = Path::new("/etc").join(e);
        let inside = stage.join("etc").join(e);
        let Ok(meta) = std::fs::metadata(&host) else {
            continue;
        };
        if std::fs::symlink_metadata(&inside).is_ok() {
            continue;
        }
        if meta.is_dir() {
            std::fs::create_dir(&inside)?;
        } else {
            std::fs::write(&inside, "")?;
        }
        bound.push(e.to_string());
    }
    Ok(bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout<'a>(stage: &'a Path, exe: &'a Path, handed: bool) -> Layout<'a> {
        Layout {
            stage,
            exe,
            hostname: "gpu-node",
            user: "learner",
            host_etc: &[],
            ids: Ids::Many,
            handed,
            exe_mount: false,
            env: Vec::new(),
        }
    }

    fn argv(l: &Layout) -> Vec<String> {
        command(
            Path::new("/usr/bin/bwrap"),
            l,
            &[SIM_BIN, "__lab-supervisor"],
        )
        .into_iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
    }

    #[test]
    fn a_handed_stage_is_never_named_by_path() {
        let (stage, exe) = (
            Path::new("/tmp/rocm-lab-x"),
            Path::new("/opt/app/rocm-learn"),
        );
        let shown = argv(&layout(stage, exe, false));
        assert!(shown.iter().any(|a| a.starts_with("/tmp/rocm-lab-x/")));
        let handed = argv(&layout(stage, exe, true));
        let leaks: Vec<&String> = handed
            .iter()
            .filter(|a| a.contains("rocm-lab-x") || a.contains("/opt/app"))
            .collect();
        assert!(
            leaks.is_empty(),
            "host paths in a handed sandbox: {leaks:?}"
        );
        // The binary comes by descriptor instead, copied where the tools find it.
        let at = handed.iter().position(|a| a == SIM_BIN).expect("SIM_BIN");
        assert_eq!(handed[at - 1], EXE_FD.to_string());
    }

    #[test]
    fn the_program_follows_the_last_separator() {
        let a = argv(&layout(Path::new("/s"), Path::new("/e"), true));
        let sep = a.iter().rposition(|x| x == "--").expect("--");
        assert_eq!(&a[sep + 1..], [SIM_BIN, "__lab-supervisor"]);
    }
}
