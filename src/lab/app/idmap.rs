//! A user namespace with the ids of a real machine: root and every account up to 65535, so the
//! system files belong to root and the learner is an ordinary user whom the kernel refuses as
//! Ubuntu does. bubblewrap creates the namespace and waits (`--userns-block-fd`) until the app
//! has written the maps: as the host's root it may map any id; a user with subordinate ids in
//! /etc/subuid and /etc/subgid has newuidmap and newgidmap map them.
//!
//! Root inside is the unprivileged host account the sandbox runs as (nobody, a `serve`
//! session's own id, or the user who started the lab), never the host's root: the kernel
//! trusts a host uid 0 in places a namespace does not reach (sysctls). Each session of `serve`
//! gets a block of host ids of its own (`SLOT_ENV`), so one learner's lab shares no host id
//! with another's.

use std::io::{self, Read, Write};

/// Where bubblewrap waits for the maps, and where it says which process holds the namespace.
pub const BLOCK_FD: i32 = 5;
pub const INFO_FD: i32 = 6;

/// Host ids behind the machine's accounts 1..=65535: a range no host account uses (above the
/// ranges /etc/subuid and container managers hand out, below the signed-int limit).
pub const SUBORDINATE: u32 = 0x6a00_0000;

/// Ids the namespace maps: 0..=65535, as a machine's accounts and groups go.
pub const COUNT: u32 = 65536;

/// The host's `nobody`: root inside a lab started by root outside `serve`.
pub const NOBODY: (u32, u32) = (65534, 65534);

/// Set by `serve` in each session's app (never by the learner, who reaches a fixed command
/// list): the session's slot, below `MAX_SLOTS`, whose lab gets host ids of its own.
pub const SLOT_ENV: &str = "ROCM_LEARN_LAB_SLOT";

/// How many sessions one server can give ids of their own. Host ids come in blocks of
/// `COUNT`: block 0 is for labs outside `serve`, block s+1 is slot s's, and the last block ends
/// at the signed 32-bit limit (programs that keep a uid in an `int`).
pub const MAX_SLOTS: u32 = (i32::MAX as u32 - SUBORDINATE + 1) / COUNT - 1;

/// Set by `serve` next to `SLOT_ENV`: the lock file through which this app holds its slot's
/// block of host ids (`serve::blocks`) for as long as it lives, and its lab with it, even when
/// the server that gave the block out is gone.
pub const SLOT_LOCK_ENV: &str = "ROCM_LEARN_LAB_SLOT_LOCK";

/// This process's slot (`SLOT_ENV`), read once; None outside `serve` or when out of range, or
/// when its block cannot be held (`SLOT_LOCK_ENV`): then it may be someone else's.
pub fn slot() -> Option<u32> {
    use std::os::fd::OwnedFd;
    use std::sync::OnceLock;
    static SLOT: OnceLock<Option<(u32, Option<OwnedFd>)>> = OnceLock::new();
    SLOT.get_or_init(|| {
        let slot = parse_slot(std::env::var(SLOT_ENV).ok().as_deref())?;
        match std::env::var_os(SLOT_LOCK_ENV) {
            None => Some((slot, None)),
            Some(lock) => hold(std::path::Path::new(&lock))
                .ok()
                .map(|fd| (slot, Some(fd))),
        }
    })
    .as_ref()
    .map(|(s, _)| *s)
}

/// A shared hold on a block's lab lock, kept until the returned descriptor is closed (or the
/// process ends): while any is held, no server gives the block out (`serve::blocks`).
pub fn hold(lock: &std::path::Path) -> io::Result<std::os::fd::OwnedFd> {
    use rustix::fs::{FlockOperation, Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = rustix::fs::open(lock, flags, Mode::empty())?;
    rustix::fs::flock(&fd, FlockOperation::NonBlockingLockShared)?;
    Ok(fd)
}

fn parse_slot(value: Option<&str>) -> Option<u32> {
    value?.parse::<u32>().ok().filter(|s| *s < MAX_SLOTS)
}

/// The first host id of `slot`'s block within ids starting at `start` (block 0 without one).
fn block_start(start: u32, slot: Option<u32>) -> Option<u32> {
    let block = slot.map_or(Some(0), |s| s.checked_add(1))?;
    start.checked_add(block.checked_mul(COUNT)?)
}

/// Whether a subordinate range (start, count) holds the accounts of every one of `slots`
/// slots' blocks (account 1 at a block's start, as in block 0).
pub fn slots_fit(range: (u32, u32), slots: u32) -> bool {
    let (start, count) = range;
    let need = (u64::from(slots) + 1) * u64::from(COUNT) - 1;
    u64::from(count) >= need && u64::from(start) + need <= u64::from(u32::MAX)
}

/// How many slots' blocks a subordinate range (start, count) holds (`slots_fit`), at most
/// `MAX_SLOTS`: the host-id blocks a user's servers share out among their sessions.
pub fn slots_in(range: (u32, u32)) -> u32 {
    let (start, count) = range;
    let usable = u64::from(count).min(u64::from(u32::MAX - start));
    let blocks = (usable + 1) / u64::from(COUNT);
    u32::try_from(blocks.saturating_sub(1))
        .unwrap_or(u32::MAX)
        .min(MAX_SLOTS)
}

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
    /// The app, as the host's root, for a sandbox run as `run_as` (root inside), with the
    /// accounts 1..=65535 from host id `accounts` on (`Mapper::root`).
    Root { run_as: (u32, u32), accounts: u32 },
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
    /// The maps of a lab started by root. Outside `serve`, root inside is the host's `nobody`
    /// and the accounts block 0 of `SUBORDINATE`; a session's lab (`slot`) gets a block of its
    /// own, root inside its first id, so no two sessions' labs share a host id.
    pub fn root(slot: Option<u32>) -> Mapper {
        match slot
            .filter(|s| *s < MAX_SLOTS)
            .and_then(|s| block_start(SUBORDINATE, Some(s)))
        {
            Some(b) => Mapper::Root {
                run_as: (b, b),
                accounts: b + 1,
            },
            None => Mapper::Root {
                run_as: NOBODY,
                accounts: SUBORDINATE + 1,
            },
        }
    }

    /// The maps of a lab started by a user with subordinate ids, `uids` and `gids` (start,
    /// count) from /etc/subuid and /etc/subgid: root inside is the user (the stage is the
    /// user's), and the accounts block 0 of the ranges, or `slot`'s block when the ranges
    /// hold it; else block 0, shared (`serve` says so as it starts).
    pub fn subordinate(
        (uid, gid): (u32, u32),
        uids: (u32, u32),
        gids: (u32, u32),
        slot: Option<u32>,
    ) -> Mapper {
        let fits = |s: u32| {
            let n = s.saturating_add(1);
            slots_fit(uids, n) && slots_fit(gids, n)
        };
        let slot = slot.filter(|s| fits(*s));
        let start = |(first, _): (u32, u32)| block_start(first, slot).unwrap_or(first);
        Mapper::Subordinate {
            uid,
            gid,
            sub_uid: start(uids),
            sub_gid: start(gids),
        }
    }

    /// The host user the sandbox runs as, when not the caller.
    pub fn run_as(&self) -> Option<(u32, u32)> {
        match self {
            Mapper::Root { run_as, .. } => Some(*run_as),
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
            Mapper::Root {
                run_as: (u, g),
                accounts,
            } => [
                [(0, u, 1), (1, accounts, rest)],
                [(0, g, 1), (1, accounts, rest)],
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

/// The subordinate ids /etc/subuid (or /etc/subgid) give `name` (or its number): the first
/// range long enough for the machine's accounts, as (start, count).
pub fn subordinate_range(table: &str, name: &str, id: u32) -> Option<(u32, u32)> {
    let id = id.to_string();
    table.lines().find_map(|l| {
        let mut f = l.trim().split(':');
        let (who, start, count) = (f.next()?, f.next()?, f.next()?);
        let (start, count) = (start.parse::<u32>().ok()?, count.parse::<u32>().ok()?);
        ((who == name || who == id) && count >= COUNT - 1 && start.checked_add(COUNT).is_some())
            .then_some((start, count))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_is_the_sandbox_account_and_the_rest_one_range() {
        let root = Mapper::root(None);
        assert_eq!(root.run_as(), Some(NOBODY));
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
        assert_eq!(
            subordinate_range(table, "alice", 1000),
            Some((100000, 65536))
        );
        assert_eq!(subordinate_range(table, "bob", 1001), Some((300000, 65536)));
        assert_eq!(subordinate_range(table, "short", 1002), None);
        assert_eq!(subordinate_range("junk\n", "alice", 1000), None);
        assert_eq!(
            subordinate_range("alice:4294967000:65536\n", "alice", 1),
            None
        );
    }

    /// (inside, outside, count) of every line of a map's text.
    fn lines(map: &str) -> Vec<(u32, u32, u32)> {
        map.lines()
            .map(|l| {
                let f: Vec<u32> = l.split(' ').map(|n| n.parse().unwrap()).collect();
                (f[0], f[1], f[2])
            })
            .collect()
    }

    /// The host ids a map's text gives, as ranges [first, last].
    fn outside(map: &str) -> Vec<(u64, u64)> {
        lines(map)
            .into_iter()
            .map(|(_, o, c)| (u64::from(o), u64::from(o) + u64::from(c) - 1))
            .collect()
    }

    #[test]
    fn each_session_slot_of_a_root_lab_has_host_ids_no_other_lab_has() {
        let slot0 = Mapper::root(Some(0));
        // Root inside is the block's first id, an account that owns nothing (not nobody).
        assert_eq!(slot0.run_as(), Some((1778450432, 1778450432)));
        assert_eq!(
            slot0.maps(),
            [
                "0 1778450432 1\n1 1778450433 65535\n",
                "0 1778450432 1\n1 1778450433 65535\n"
            ]
        );
        let slot1 = Mapper::root(Some(1));
        assert_eq!(slot1.maps()[0], "0 1778515968 1\n1 1778515969 65535\n");
        // Every slot's ids and the lab outside serve's are pairwise apart, and all stay below
        // the signed 32-bit limit; nobody is no slot's.
        let mut all: Vec<(u64, u64)> = outside(&Mapper::root(None).maps()[1]);
        for s in 0..MAX_SLOTS {
            let m = Mapper::root(Some(s));
            assert_ne!(m.run_as(), Some(NOBODY));
            let [uids, gids] = m.maps();
            assert_eq!(uids, gids);
            all.extend(outside(&uids));
        }
        all.sort();
        for pair in all.windows(2) {
            assert!(pair[0].1 < pair[1].0, "{pair:?} overlap");
        }
        assert!(all.iter().all(|r| r.1 <= i32::MAX as u64));
        assert_eq!(all.last().unwrap().1, i32::MAX as u64);
        // A slot past the last keeps the lab outside serve's maps rather than wrap.
        assert_eq!(Mapper::root(Some(MAX_SLOTS)), Mapper::root(None));
        assert_eq!(MAX_SLOTS, 5631);
    }

    #[test]
    fn the_slot_comes_from_the_environment_within_range() {
        assert_eq!(parse_slot(None), None);
        assert_eq!(parse_slot(Some("3")), Some(3));
        assert_eq!(parse_slot(Some("-1")), None);
        assert_eq!(parse_slot(Some("x")), None);
        assert_eq!(parse_slot(Some(&MAX_SLOTS.to_string())), None);
    }

    #[test]
    fn a_subordinate_range_long_enough_gives_each_slot_its_block() {
        let me = (1001, 1002);
        // 41 blocks: one for a lab outside serve, one each for 40 sessions.
        let long = (100000, 41 * COUNT);
        assert!(slots_fit(long, 40));
        assert!(!slots_fit(long, 41));
        let outside_serve = Mapper::subordinate(me, long, long, None);
        assert_eq!(outside_serve.maps()[0], "0 1001 1\n1 100000 65535\n");
        let s0 = Mapper::subordinate(me, long, long, Some(0));
        assert_eq!(s0.maps()[0], "0 1001 1\n1 165536 65535\n");
        let s39 = Mapper::subordinate(me, long, long, Some(39));
        assert_eq!(s39.maps()[1], "0 1002 1\n1 2721440 65535\n");
        assert!(outside(&s39.maps()[0])[1].1 < 100000 + u64::from(41 * COUNT));
        // Too short for the slot: the one range, shared (serve says so as it starts).
        assert_eq!(Mapper::subordinate(me, long, long, Some(40)), outside_serve);
        let short = (100000, 65536);
        assert!(!slots_fit(short, 1));
        assert_eq!(
            Mapper::subordinate(me, short, long, Some(0)),
            Mapper::subordinate(me, short, short, None)
        );
        // A range at the top of the id space never wraps, nor does a slot past any range.
        assert!(!slots_fit((u32::MAX - COUNT - 10, 3 * COUNT), 1));
        assert_eq!(
            Mapper::subordinate(me, long, long, Some(u32::MAX)),
            outside_serve
        );
    }

    #[test]
    fn a_range_holds_as_many_slots_as_fit_and_no_more() {
        for range in [
            (100000, 41 * COUNT),
            (100000, 41 * COUNT - 1),
            (100000, 41 * COUNT - 2),
            (100000, COUNT - 1),
            (u32::MAX - 3 * COUNT, 10 * COUNT),
            (0, u32::MAX),
        ] {
            let n = slots_in(range);
            assert!(n == 0 || slots_fit(range, n), "{range:?}: {n}");
            assert!(n == MAX_SLOTS || !slots_fit(range, n + 1), "{range:?}: {n}");
        }
        assert_eq!(slots_in((100000, 41 * COUNT)), 40);
        assert_eq!(slots_in((100000, 41 * COUNT - 2)), 39);
        assert_eq!(slots_in((0, u32::MAX)), MAX_SLOTS);
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
