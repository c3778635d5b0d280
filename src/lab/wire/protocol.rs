//! The one channel between the app and the lab's supervisor (the sandbox's first process):
//! a socketpair the app creates, messages as a 4-byte big-endian length and a JSON body.
//!
//! The app trusts nothing it reads here beyond its type: every message is capped at `MAX`
//! before anything is allocated, and a message that does not parse ends the channel. The
//! supervisor runs in the sandbox, so what it says is what a learner *could* have made it say;
//! it is the only thing the app reads from the sandbox at all.

use std::io::{self, Read, Write};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::content::{Check, Msg};
use crate::lab::wire::record::Record;

/// Bumped when a message changes shape; both ends are the same binary, but a stale sandbox
/// from an older build must fail loudly, not half-work. 2: `Relogin` is acknowledged.
pub const VERSION: u32 = 2;

/// No message is larger (a status of every step with its reason fits many times over).
pub const MAX: usize = 64 * 1024;

/// The fd the supervisor finds its end of the channel on.
pub const FD: i32 = 3;

/// App to supervisor.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub enum ToSupervisor {
    /// The first message: what to run and what to check.
    Hello {
        version: u32,
        user: String,
        /// Printed between two logins ("logged out; logging in again").
        relogin: String,
        checks: Vec<Check>,
        /// Confine the learner's processes (Landlock). Off only for tests of the unconfined
        /// path (`ROCM_LEARN_LAB_NO_LANDLOCK=1`); the lab then says so and marks the result.
        confine: bool,
        /// The stage and the binary come by descriptor (`bwrap::Layout::handed`).
        #[serde(default)]
        handed: bool,
        /// With `handed`: the binary comes as a read-only mount to put at `SIM_BIN`.
        #[serde(default)]
        exe_mount: bool,
        /// With `handed`: the host /etc entries the machine takes from the host (bubblewrap
        /// binds every one the host has; the machine's own are kept).
        #[serde(default)]
        host_etc: Vec<String>,
        /// What the lab may write in all, in bytes (`[machine] disk_mib`).
        #[serde(default = "default_budget")]
        budget: u64,
    },
    /// The banner between two logins, in the language the learner switched to. `seq` counts
    /// up; the supervisor answers `ReloginApplied` with it once the text is in place.
    Relogin { seq: u64, text: String },
}

/// Supervisor to app.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub enum FromSupervisor {
    /// Every step checked against the machine as it is now, after the shell's `record`
    /// (none before the first prompt).
    Status {
        record: Option<Record>,
        steps: Vec<WireStep>,
    },
    /// Logins end as soon as they start (a startup file the learner changed): the loop stopped.
    LoginBroken { status: i32 },
    /// Sent once, first: whether the machine lives in memory, and whether the stage on the
    /// host's disk is still used (the device pool of a lab started by root) or may go now.
    Machine { in_memory: bool, stage_unused: bool },
    /// Sent once, next: whether the kernel confines the learner's processes (Landlock). When
    /// it does not, the lab works but its result is not tamper-proof.
    Confinement { enforced: bool },
    /// Every `Relogin` up to `seq` is applied: a login that ends from now on gets its banner.
    /// The keys reach the shell by the terminal and the banner by this channel, so the app
    /// holds what the learner types after `L` until this comes (`run::Hold`); otherwise an
    /// `exit` typed at once could end the login before the new text is in place.
    ReloginApplied { seq: u64 },
}

/// Inside the sandbox, on the socket every login inherits (`SHELL_FD`): a simulated tool asks
/// the supervisor to run it. The message carries the caller's stdin, stdout and stderr and the
/// socket for the reply; the kernel adds who sent it. Nothing in it says who the caller is.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ToolRequest {
    pub version: u32,
    pub tool: String,
    pub args: Vec<String>,
    pub cwd: String,
    pub env: Vec<(String, String)>,
}

/// The supervisor's answer on the reply socket, when the tool has ended.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub enum ToolReply {
    Exit {
        code: i32,
    },
    Signal {
        signal: i32,
    },
    /// The supervisor cannot tell who asked (a process outside every login).
    Refused,
}

/// The fd every login's processes find the supervisor's socket on (hook records and
/// `ToolRequest`s). High, so that no redirection a learner types is likely to reuse it.
pub const SHELL_FD: i32 = 99;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WireStep {
    pub done: bool,
    pub why: Option<WireMsg>,
}

/// A `Msg` on the wire: its ids become the catalogue's static ids again on the app side.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WireMsg {
    pub id: String,
    pub args: Vec<(String, String)>,
}

impl From<&Msg> for WireMsg {
    fn from(m: &Msg) -> Self {
        WireMsg {
            id: m.id.to_string(),
            args: m
                .args
                .iter()
                .map(|(k, v)| ((*k).to_string(), v.clone()))
                .collect(),
        }
    }
}

impl WireMsg {
    /// Back to a `Msg`. Ids and argument names are interned (a bounded set: see `intern`).
    pub fn to_msg(&self) -> Msg {
        let mut m = Msg::new(intern(&self.id));
        for (k, v) in &self.args {
            // Values name the learner's files and paths: shown as `ls` would show them.
            m = m.arg(intern(k), crate::lab::wire::sanitize::quote(v));
        }
        m
    }
}

/// Message ids are `&'static str`. Names coming back over the channel are kept once each; a
/// channel sending endless new names gets a fixed fallback instead of growing memory.
fn intern(s: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static SEEN: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    const LIMIT: usize = 512;
    let ok = !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    if !ok {
        return "lab-why-state-broken";
    }
    let Ok(mut seen) = SEEN.lock() else {
        return "lab-why-state-broken";
    };
    let set = seen.get_or_insert_with(HashSet::new);
    if let Some(k) = set.get(s) {
        return k;
    }
    if set.len() >= LIMIT {
        return "lab-why-state-broken";
    }
    let k: &'static str = Box::leak(s.to_string().into_boxed_str());
    set.insert(k);
    k
}

/// Writes one message.
pub fn send<T: Serialize>(w: &mut impl Write, msg: &T) -> io::Result<()> {
    let body = serde_json::to_vec(msg).map_err(io::Error::other)?;
    if body.len() > MAX {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("message of {} bytes over the {MAX}-byte limit", body.len()),
        ));
    }
    let mut frame = Vec::with_capacity(4 + body.len());
    frame.extend_from_slice(&(body.len() as u32).to_be_bytes());
    frame.extend_from_slice(&body);
    w.write_all(&frame)?;
    w.flush()
}

/// Reads one message. End of stream, an oversized length and a body that is not a message are
/// all errors: the channel is over.
pub fn recv<T: DeserializeOwned>(r: &mut impl Read) -> io::Result<T> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_be_bytes(len) as usize;
    if len > MAX {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("message of {len} bytes over the {MAX}-byte limit"),
        ));
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body)?;
    serde_json::from_slice(&body).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// What a lab may write when the app does not say (an app of the previous protocol).
fn default_budget() -> u64 {
    crate::sim::spec::DEFAULT_DISK_BYTES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_survives_the_round_trip() {
        let msg = FromSupervisor::Status {
            record: None,
            steps: vec![WireStep {
                done: false,
                why: Some(WireMsg::from(
                    &Msg::new("lab-why-no-user").arg("user", "learner"),
                )),
            }],
        };
        let mut buf = Vec::new();
        send(&mut buf, &msg).unwrap();
        let back: FromSupervisor = recv(&mut buf.as_slice()).unwrap();
        assert_eq!(back, msg);
        let FromSupervisor::Status { steps, .. } = back else {
            unreachable!()
        };
        let m = steps[0].why.as_ref().unwrap().to_msg();
        assert_eq!(m, Msg::new("lab-why-no-user").arg("user", "learner"));
    }

    #[test]
    fn an_oversized_length_is_refused_before_reading_the_body() {
        // A length of 4 GiB with no body: refused at once, nothing allocated or awaited.
        let frame = [0xffu8, 0xff, 0xff, 0xff];
        let err = recv::<FromSupervisor>(&mut frame.as_slice()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("limit"), "{err}");
    }

    #[test]
    fn garbage_and_truncated_frames_end_the_channel() {
        let mut frame = 5u32.to_be_bytes().to_vec();
        frame.extend_from_slice(b"nope!");
        assert!(recv::<FromSupervisor>(&mut frame.as_slice()).is_err());
        let short = [0u8, 0, 0, 9, b'{'];
        assert!(recv::<FromSupervisor>(&mut short.as_slice()).is_err());
    }

    #[test]
    fn names_that_are_not_message_ids_are_not_kept() {
        let m = WireMsg {
            id: "\u{1b}]52;c;x\u{7}".into(),
            args: vec![],
        }
        .to_msg();
        assert_eq!(m.id, "lab-why-state-broken");
    }
}
