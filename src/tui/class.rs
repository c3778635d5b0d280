//! What the app learns from a class server it runs under (`serve` starts it as a child
//! process): whether the instructor watches, where their help stands, and whether the session
//! was just shown on a new connection. The caller passes it to `run`, so the front end imports
//! nothing of the server above it.

/// Where an instructor's help stands for this session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Help {
    #[default]
    Off,
    /// The instructor asked; the learner has not said yes.
    Asked,
    /// The learner said yes: the instructor's keys reach the session.
    Granted,
}

/// The class server's side of this session, read when the server pokes the app.
pub trait Class {
    /// The instructor watches this screen now.
    fn watched(&self) -> bool;
    /// Where help stands; `None` when this session cannot be helped (no class server).
    fn help(&self) -> Option<Help>;
    /// Records the learner's answer (yes, or the end of the help).
    fn set_help(&self, help: Help);
    /// The number of the newest reattach, when it is newer than `seen`.
    fn attached_since(&self, seen: u64) -> Option<u64>;
}

/// The app on its own: nobody watches, helps or reattaches.
pub struct Alone;

impl Class for Alone {
    fn watched(&self) -> bool {
        false
    }
    fn help(&self) -> Option<Help> {
        None
    }
    fn set_help(&self, _: Help) {}
    fn attached_since(&self, _: u64) -> Option<u64> {
        None
    }
}
