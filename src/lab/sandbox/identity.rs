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

/// Signalled whenever a login start ends (registered or failed), for `identify`.
static REGISTERED: std::sync::Condvar = std::sync::Condvar::new();

/// The longest `identify` waits for a login start under way. A guard against a start that
/// hangs, not an ordering: the start signals its end (`Table::started`), and a process is
/// only waited for while a start is under way at all.
pub const HUNG_START: std::time::Duration = std::time::Duration::from_secs(10);

/// The identity of `pid` in `table`. A login's first prompt can come before the supervisor has
/// registered the login it just started (it learns the pid only once the shell runs), so while
/// a start is under way (`Table::starting`) its end is awaited: a handshake with
/// `Table::started`, not a poll. A process no login started gets None at once when nothing is
/// starting. The supervisor keeps one table, so one condition serves it.
pub fn identify(table: &std::sync::Mutex<Table>, pid: i32) -> Option<Identity> {
    let deadline = std::time::Instant::now() + HUNG_START;
    let mut t = table.lock().ok()?;
    loop {
        if let Some(w) = t.of(pid) {
            return Some(w);
        }
        if t.starting == 0 {
            return None;
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
    /// Logins being started and not yet registered.
    starting: u32,
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

    /// A login is about to start: `identify` waits for its registration until `started`.
    pub fn starting(&mut self) {
        self.starting += 1;
    }

    /// The login announced by `starting` runs as `pid` (registered as `who`), or did not
    /// start (None); either way a wait for it in `identify` ends.
    pub fn started(&mut self, login: Option<(i32, Identity)>) {
        self.starting = self.starting.saturating_sub(1);
        match login {
            Some((pid, who)) => self.register(pid, who),
            None => REGISTERED.notify_all(),
        }
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
    fn a_login_being_started_is_waited_for_however_long_its_start_takes() {
        let table = std::sync::Arc::new(std::sync::Mutex::new(Table::default()));
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        // Nothing is starting: a process no login started is not waited for.
        assert_eq!(identify(&table, pid), None);
        table.lock().unwrap().starting();
        let starter = {
            let table = table.clone();
            std::thread::spawn(move || {
                // A slow start (a loaded machine): longer than any fixed wait used to be.
                std::thread::sleep(std::time::Duration::from_millis(400));
                table.lock().unwrap().started(Some((pid, who("learner"))));
            })
        };
        assert_eq!(
            identify(&table, pid).map(|w| w.user).as_deref(),
            Some("learner")
        );
        starter.join().unwrap();
        // A start that failed ends the wait too.
        let t = &mut table.lock().unwrap();
        t.forget(pid);
        t.starting();
        t.started(None);
        assert_eq!(t.starting, 0);
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn stat_reads_names_with_parentheses_and_spaces() {
        let me = std::process::id() as i32;
        let (ppid, start) = stat(me).unwrap();
        assert!(ppid > 0 && start > 0);
    }
}
