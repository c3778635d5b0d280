//! A simulated tool run by the supervisor, outside the learner's domain. It may act as the
//! identity the supervisor gave it; when it hands over to a program the learner controls, it
//! reports who that program is and confines it first.

use std::io::{self, Read, Write};
use std::os::unix::net::UnixStream;

use super::{REPORT_FD, Report};
use crate::lab::sandbox::confine::{self, Domain};
use crate::lab::sandbox::identity::Identity;
use crate::lab::sandbox::ids::{self, Ids};
use crate::lab::sandbox::{sys, userns};
use crate::sim::entry::{self, HandOver, Host};

struct Lab {
    confine: bool,
    /// The sandbox maps the machine's ids and this tool runs as its root: the program it hands
    /// over to is switched to its user's ids for real (`ids::switch_to`).
    real_ids: bool,
}

/// The ids `who` runs with: its session's groups where the session is its own.
fn ids_of(who: &HandOver) -> Ids {
    let root = std::path::Path::new("/");
    let gids = crate::sim::State::load_recorded(root)
        .ok()
        .and_then(|st| st.sessions.get(&who.session).cloned())
        .filter(|s| s.uid == who.uid)
        .map(|s| s.gids);
    ids::account_ids(root, who.uid, gids)
}

impl Host for Lab {
    fn vouches(&self) -> bool {
        true
    }

    fn become_id(&self, uid: u32, gid: u32) -> io::Result<()> {
        // As root of a namespace with the machine's ids the tool already may act as anyone;
        // the program it hands over to changes ids at the hand-over, with its groups.
        if self.real_ids {
            return Ok(());
        }
        userns::become_id(uid, gid)
    }

    fn handing_over(&self, who: &HandOver) -> io::Result<()> {
        let id = Identity {
            user: who.user.clone(),
            uid: who.uid,
            home: who.home.clone(),
            session: who.session.clone(),
        };
        let mut report = report(&Report::HandOver(id))?;
        // The supervisor has registered this pid once it answers: whatever the program sends
        // from its first instruction on is attributed to `who`.
        let mut ack = [0u8; 1];
        report.read_exact(&mut ack)?;
        // Looked up before the switch: the state is root's to read.
        let ids = self.real_ids.then(|| ids_of(who));
        // The program is the learner's: held to a login's memory limit.
        crate::lab::sandbox::supervisor::limit_memory()?;
        if self.confine
            && let Err(e) = confine::apply(&Domain::for_uid(who.uid, &who.home))
        {
            return Err(io::Error::other(format!("cannot confine the program: {e}")));
        }
        match ids {
            Some(ids) => ids::switch_to(&ids)
                .map_err(|e| io::Error::other(format!("cannot set the user's ids: {e}"))),
            None => Ok(()),
        }
    }

    fn rebooted(&self) {
        let _ = report(&Report::Rebooted);
    }
}

/// The report socket the supervisor put on REPORT_FD for this process alone, adopted once at
/// the start (close-on-exec from then on: a program the tool hands over to never gets it).
static REPORT: std::sync::OnceLock<Option<UnixStream>> = std::sync::OnceLock::new();

/// Sends one report to the supervisor; the socket is returned for its answer.
fn report(r: &Report) -> io::Result<&'static UnixStream> {
    let mut sock = REPORT
        .get()
        .and_then(Option::as_ref)
        .ok_or_else(|| io::Error::other("no report socket: not run by the supervisor"))?;
    let body = serde_json::to_vec(r).map_err(io::Error::other)?;
    sock.write_all(&body)?;
    Ok(sock)
}

pub fn main(tool: &str, args: &[String]) -> i32 {
    // The report socket adopted (close-on-exec) and the markers gone: a program the tool
    // hands over to is the learner's, and its own tools must ask the supervisor again.
    let _ = REPORT.set(sys::take_fd(REPORT_FD).map(UnixStream::from));
    let confine = std::env::var_os(super::UNCONFINED_ENV).is_none_or(|v| v != "1");
    sys::forget_vars_at_start(&[super::TRUSTED_ENV, super::UNCONFINED_ENV]);
    let real_ids = userns::euid() == 0 && userns::many_ids();
    entry::main(tool, args, &Lab { confine, real_ids })
}
