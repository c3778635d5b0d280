//! Who a process in the lab is, as the supervisor knows it: every login, and every program a
//! brokered sudo, su, newgrp or sg started, is registered by its pid when the supervisor
//! starts it; any other process is whoever its nearest registered ancestor is. The kernel
//! names the sender of each message (SCM_CREDENTIALS), and a process cannot choose its
//! parent, so no variable or file the learner writes can change the answer.

use std::collections::HashMap;

/// The credentials of a login (or of a program sudo or su started).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Identity {
    pub user: String,
    pub uid: u32,
    pub home: String,
    /// The simulated login session, which holds the groups the login got.
    pub session: String,
}

/// Signalled on every registration, for `identify`: a login's first prompt can come before
/// the supervisor has registered the login it just started.
static REGISTERED: std::sync::Condvar = std::sync::Condvar::new();

/// The identity of `pid` in `table`, waiting (signalled, at most `limit`) for a registration
/// under way: a handshake with `Table::register`, not a poll. The supervisor keeps one table,
/// so one condition serves it.
pub fn identify(
    table: &std::sync::Mutex<Table>,
    pid: i32,
    limit: std::time::Duration,
) -> Option<Identity> {
    let deadline = std::time::Instant::now() + limit;
    let mut t = table.lock().ok()?;
    loop {
        if let Some(w) = t.of(pid) {
            return Some(w);
        }
        let left = deadline.checked_duration_since(std::time::Instant::now())?;
        t = REGISTERED.wait_timeout(t, left).ok()?.0;
    }
}

/// Registered processes by pid, with their start time (so a reused pid is not mistaken for
/// the process that had it).
#[derive(Default)]
pub struct Table {
    by_pid: HashMap<i32, (u64, Identity)>,
}

/// Parent pid and start time from /proc/PID/stat.
fn stat(pid: i32) -> Option<(i32, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    let rest = &text[text.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    // rest starts at field 3 (state): ppid is field 4, starttime field 22.
    Some((f.get(1)?.parse().ok()?, f.get(19)?.parse().ok()?))
}

impl Table {
    pub fn register(&mut self, pid: i32, who: Identity) {
        if let Some((_, start)) = stat(pid) {
            self.by_pid.insert(pid, (start, who));
        }
        REGISTERED.notify_all();
    }

    pub fn forget(&mut self, pid: i32) {
        self.by_pid.remove(&pid);
    }

    /// The identity of `pid`: its own registration or its nearest registered ancestor's.
    pub fn of(&self, pid: i32) -> Option<Identity> {
        let mut at = pid;
        for _ in 0..512 {
            let (ppid, start) = stat(at)?;
            if let Some((s, who)) = self.by_pid.get(&at)
                && *s == start
            {
                return Some(who.clone());
            }
            if ppid <= 0 {
                return None;
            }
            at = ppid;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(user: &str) -> Identity {
        Identity {
            user: user.into(),
            uid: 1000,
            home: format!("/home/{user}"),
            session: "s1".into(),
        }
    }

    #[test]
    fn a_child_is_who_its_registered_ancestor_is() {
        let mut t = Table::default();
        let me = std::process::id() as i32;
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        assert_eq!(t.of(pid), None);
        t.register(me, who("learner"));
        assert_eq!(t.of(pid).unwrap().user, "learner");
        // The nearest registration wins.
        t.register(pid, who("root"));
        assert_eq!(t.of(pid).unwrap().user, "root");
        t.forget(pid);
        assert_eq!(t.of(pid).unwrap().user, "learner");
        child.kill().unwrap();
        child.wait().unwrap();
        // A pid that is gone has no identity.
        assert_eq!(t.of(pid), None);
    }

    #[test]
    fn stat_reads_names_with_parentheses_and_spaces() {
        let me = std::process::id() as i32;
        let (ppid, start) = stat(me).unwrap();
        assert!(ppid > 0 && start > 0);
    }
}
