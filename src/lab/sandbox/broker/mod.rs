//! sudo as `run0` does it: inside the lab a simulated tool never acts with the rights of the
//! process that typed it. The tool's wrapper asks the supervisor (`client`), which knows from
//! the kernel who asked (`identity`), runs the tool outside the learner's Landlock domain as
//! that identity, in a copy of itself (`server`: a fork, no second start of the binary), and
//! the tool, when it hands over to a program the learner controls (sudo's command, su's
//! shell), tells the supervisor who that program is and confines it before it runs
//! (`trusted`).

pub mod client;
pub mod server;
pub mod trusted;

/// What a trusted tool tells the supervisor on its report socket.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Report {
    /// The program it is about to become runs as this identity (answered with one byte once
    /// registered).
    HandOver(crate::lab::sandbox::identity::Identity),
    /// It booted the machine again: every program on it ends (not answered).
    Rebooted,
}

/// `rocm-learn sim TOOL ARGS` (or a wrapper's `sim:TOOL@RELEASE`) typed inside the lab
/// sandbox: a request to the supervisor, which runs the tool (`server`, `trusted`).
pub fn sim_main(tool: &str, args: &[String], release: Option<&str>) -> i32 {
    client::forward(tool, args, release)
}
