//! A lab started by root gets a user namespace with the ids of a real machine: root and every
//! account up to 65535, so the system files belong to root and the learner is an ordinary user
//! whom the kernel refuses as Ubuntu does. bubblewrap creates the namespace and waits
//! (`--userns-block-fd`) until the app, which may map any host id, has written the maps.
//!
//! Root inside is the unprivileged host account the sandbox runs as (nobody), never the host's
//! root: the kernel trusts a host uid 0 in places a namespace does not reach (sysctls).

use std::io::{self, Read, Write};

/// Where bubblewrap waits for the maps, and where it says which process holds the namespace.
pub const BLOCK_FD: i32 = 5;
pub const INFO_FD: i32 = 6;

/// Host ids behind the machine's accounts 1..=65535: a range no host account uses (above the
/// ranges /etc/subuid and container managers hand out, below the signed-int limit).
pub const SUBORDINATE: u32 = 0x6a00_0000;

/// Ids the namespace maps: 0..=65535, as a machine's accounts and groups go.
pub const COUNT: u32 = 65536;

/// The lines of a uid_map or gid_map: id 0 is `root_host`, the rest the subordinate range.
pub fn map(root_host: u32) -> String {
    format!("0 {root_host} 1\n1 {} {}\n", SUBORDINATE + 1, COUNT - 1)
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

/// Writes the namespace's maps for `pid` and lets bubblewrap go on.
pub fn release(pid: i32, (uid, gid): (u32, u32), mut block: impl Write) -> io::Result<()> {
    for (file, root) in [("uid_map", uid), ("gid_map", gid)] {
        std::fs::OpenOptions::new()
            .write(true)
            .open(format!("/proc/{pid}/{file}"))?
            .write_all(map(root).as_bytes())?;
    }
    block.write_all(b"1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_is_the_sandbox_account_and_the_rest_one_range() {
        assert_eq!(map(65534), "0 65534 1\n1 1778384897 65535\n");
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
