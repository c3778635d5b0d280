//! A user namespace with the ids of a real machine: root and every account up to 65535, so the
//! system files belong to root and the learner is an ordinary user whom the kernel refuses as
//! Ubuntu does. bubblewrap creates the namespace and waits (`--userns-block-fd`) until the app
//! has written the maps: as the host's root it may map any id; a user with subordinate ids in
//! /etc/subuid and /etc/subgid has newuidmap and newgidmap map them.
//!
//! Root inside is the unprivileged host account the sandbox runs as (nobody, or the user who
//! started the lab), never the host's root: the kernel trusts a host uid 0 in places a
//! namespace does not reach (sysctls).

use std::io::{self, Read, Write};

/// Where bubblewrap waits for the maps, and where it says which process holds the namespace.
pub const BLOCK_FD: i32 = 5;
pub const INFO_FD: i32 = 6;

/// Host ids behind the machine's accounts 1..=65535: a range no host account uses (above the
/// ranges /etc/subuid and container managers hand out, below the signed-int limit).
pub const SUBORDINATE: u32 = 0x6a00_0000;

/// Ids the namespace maps: 0..=65535, as a machine's accounts and groups go.
pub const COUNT: u32 = 65536;

/// The sandbox's first process, from bubblewrap's info (`{"child-pid": N, ...}`), read to its
/// end (bubblewrap closes it once written) and bounded in size.
pub fn child_pid(info: impl Read) -> io::Result<i32> {
    #[derive(serde::Deserialize)]
    struct Info {
        #[serde(rename = "child-pid")]
        child_pid: i32,
    }
    let mut text = Vec::new();
    info.take(4096).read_to_end(&mut text)?;
    let info: Info = serde_json::from_slice(&text)
        .map_err(|e| io::Error::other(format!("bubblewrap's info: {e}")))?;
    Ok(info.child_pid)
}

/// Who writes the maps, and what they say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mapper {
    /// The app, as the host's root, for a sandbox run as `run_as` (nobody).
    Root { run_as: (u32, u32) },
    /// newuidmap and newgidmap, for the user who started the lab (root inside) and the ids
    /// /etc/subuid and /etc/subgid give that user (the accounts 1..=65535).
    Subordinate {
        uid: u32,
        gid: u32,
        sub_uid: u32,
        sub_gid: u32,
    },
}

impl Mapper {
    /// The host user the sandbox runs as, when not the caller.
    pub fn run_as(&self) -> Option<(u32, u32)> {
        match self {
            Mapper::Root { run_as } => Some(*run_as),
            Mapper::Subordinate { .. } => None,
        }
    }

    /// Started by the host's root, who alone may make device nodes and idmapped mounts.
    pub fn is_root(&self) -> bool {
        matches!(self, Mapper::Root { .. })
    }

    /// (inside, outside, count) of the uid map and of the gid map.
    fn ranges(&self) -> [[(u32, u32, u32); 2]; 2] {
        let rest = COUNT - 1;
        match *self {
            Mapper::Root { run_as: (u, g) } => [
                [(0, u, 1), (1, SUBORDINATE + 1, rest)],
                [(0, g, 1), (1, SUBORDINATE + 1, rest)],
            ],
            Mapper::Subordinate {
                uid,
                gid,
                sub_uid,
                sub_gid,
            } => [
                [(0, uid, 1), (1, sub_uid, rest)],
                [(0, gid, 1), (1, sub_gid, rest)],
            ],
        }
    }

    /// The text of the uid map and of the gid map.
    pub fn maps(&self) -> [String; 2] {
        self.ranges().map(|lines| {
            lines
                .iter()
                .map(|(i, o, c)| format!("{i} {o} {c}\n"))
                .collect()
        })
    }

    /// Writes the maps of `pid`'s namespace.
    pub fn write(&self, pid: i32) -> io::Result<()> {
        match self {
            Mapper::Root { .. } => {
                let [uids, gids] = self.maps();
                for (file, text) in [("uid_map", uids), ("gid_map", gids)] {
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open(format!("/proc/{pid}/{file}"))?
                        .write_all(text.as_bytes())?;
                }
                Ok(())
            }
            Mapper::Subordinate { .. } => {
                for (tool, lines) in ["newuidmap", "newgidmap"].into_iter().zip(self.ranges()) {
                    let mut cmd = std::process::Command::new(tool);
                    cmd.arg(pid.to_string())
                        .stdin(std::process::Stdio::null())
                        .stdout(std::process::Stdio::null())
                        .stderr(std::process::Stdio::piped());
                    for (i, o, c) in lines {
                        cmd.args([i.to_string(), o.to_string(), c.to_string()]);
                    }
                    let out =
                        crate::child::run_capped(cmd, std::time::Duration::from_secs(5), 4096)
                            .map_err(|e| io::Error::other(format!("{tool}: {e:?}")))?;
                    if !out.status.success() {
                        let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
                        return Err(io::Error::other(format!("{tool}: {err}")));
                    }
                }
                Ok(())
            }
        }
    }
}

/// The two pipes between the app and a bubblewrap started with `args()`: bubblewrap says on one
/// which process holds the new namespace and waits on the other until its maps are written.
pub struct Handshake {
    block: (io::PipeReader, io::PipeWriter),
    info: (io::PipeReader, io::PipeWriter),
}

/// bubblewrap's options for new namespaces, a user namespace among them, whose first process
/// is root there (the handshake's sandbox, and a lab of one id that may mount).
pub const NS_ROOT: [&str; 6] = [
    "--unshare-all",
    "--unshare-user",
    "--uid",
    "0",
    "--gid",
    "0",
];

impl Handshake {
    pub fn new() -> io::Result<Handshake> {
        Ok(Handshake {
            block: io::pipe()?,
            info: io::pipe()?,
        })
    }

    /// bubblewrap's options for it: a new user namespace whose first process is its root.
    pub fn args() -> Vec<String> {
        let fds = [
            "--userns-block-fd",
            &BLOCK_FD.to_string(),
            "--info-fd",
            &INFO_FD.to_string(),
        ];
        NS_ROOT
            .iter()
            .chain(&fds)
            .map(|a| String::from(*a))
            .collect()
    }

    /// The child's ends, with the numbers `args()` names (for `child::place_fds`).
    pub fn child_fds(&self) -> [(i32, i32); 2] {
        use std::os::fd::AsRawFd;
        [
            (self.block.0.as_raw_fd(), BLOCK_FD),
            (self.info.1.as_raw_fd(), INFO_FD),
        ]
    }

    /// Once bubblewrap runs: writes the maps and lets it go on. On failure bubblewrap is
    /// killed and reaped, and the error says what failed.
    pub fn finish(self, child: &mut std::process::Child, mapper: &Mapper) -> io::Result<()> {
        let Handshake {
            block: (block_r, mut block_w),
            info: (info_r, info_w),
        } = self;
        // Our copies of the child's ends: the info pipe ends when bubblewrap closes its end.
        drop((block_r, info_w));
        let released = child_pid(info_r).and_then(|pid| {
            mapper.write(pid)?;
            block_w.write_all(b"1")
        });
        if released.is_err() {
            let _ = child.kill();
            let _ = child.wait();
        }
        released
    }
}

/// The subordinate ids /etc/subuid (or /etc/subgid) give `name` (or its number): the start of
/// the first range long enough for the machine's accounts.
pub fn subordinate_start(table: &str, name: &str, id: u32) -> Option<u32> {
    let id = id.to_string();
    table.lines().find_map(|l| {
        let mut f = l.trim().split(':');
        let (who, start, count) = (f.next()?, f.next()?, f.next()?);
        let (start, count) = (start.parse::<u32>().ok()?, count.parse::<u32>().ok()?);
        ((who == name || who == id) && count >= COUNT - 1 && start.checked_add(COUNT).is_some())
            .then_some(start)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_is_the_sandbox_account_and_the_rest_one_range() {
        let root = Mapper::Root {
            run_as: (65534, 65534),
        };
        assert_eq!(root.maps()[0], "0 65534 1\n1 1778384897 65535\n");
        let user = Mapper::Subordinate {
            uid: 1001,
            gid: 1002,
            sub_uid: 100000,
            sub_gid: 200000,
        };
        assert_eq!(
            user.maps(),
            ["0 1001 1\n1 100000 65535\n", "0 1002 1\n1 200000 65535\n"]
        );
    }

    #[test]
    fn subordinate_ranges_are_found_by_name_or_number_and_must_be_long_enough() {
        let table = "alice:100000:65536\n1001:300000:65536\nshort:400000:1000\n";
        assert_eq!(subordinate_start(table, "alice", 1000), Some(100000));
        assert_eq!(subordinate_start(table, "bob", 1001), Some(300000));
        assert_eq!(subordinate_start(table, "short", 1002), None);
        assert_eq!(subordinate_start("junk\n", "alice", 1000), None);
        assert_eq!(
            subordinate_start("alice:4294967000:65536\n", "alice", 1),
            None
        );
    }

    #[test]
    fn info_gives_the_child_pid_or_a_reason() {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(b"{\n    \"child-pid\": 4242,\n    \"user-namespace\": 1\n}\n")
            .unwrap();
        use std::io::Seek;
        f.rewind().unwrap();
        assert_eq!(child_pid(f).unwrap(), 4242);
        let empty = tempfile::tempfile().unwrap();
        let e = child_pid(empty).unwrap_err();
        assert!(e.to_string().contains("bubblewrap's info"), "{e}");
    }
}
