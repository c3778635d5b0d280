//! sudo as `run0` does it: inside the lab a simulated tool never acts with the rights of the
//! process that typed it. The tool's wrapper asks the supervisor (`client`), which knows from
//! the kernel who asked (`identity`), runs the tool outside the learner's Landlock domain as
//! that identity (`server`), and the tool, when it hands over to a program the learner
//! controls (sudo's command, su's shell), tells the supervisor who that program is and
//! confines it before it runs (`trusted`).

pub mod client;
pub mod server;
pub mod trusted;

/// Set by the supervisor for the tools it runs: the fd number of their report socket.
pub const TRUSTED_ENV: &str = "ROCM_LAB_TRUSTED";

/// Set to 1 by the supervisor when labs run unconfined: a trusted tool then hands over
/// without a Landlock domain too.
pub const UNCONFINED_ENV: &str = "ROCM_LAB_UNCONFINED";

/// The fd a trusted tool finds its report socket on.
pub const REPORT_FD: i32 = 98;

/// What a trusted tool tells the supervisor on its report socket.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Report {
    /// The program it is about to become runs as this identity (answered with one byte once
    /// registered).
    HandOver(crate::lab::sandbox::identity::Identity),
    /// It booted the machine again: every program on it ends (not answered).
    Rebooted,
}

/// `rocm-learn sim TOOL ARGS` inside the lab sandbox: run by the supervisor it is the tool
/// itself; typed by the learner it is a request to the supervisor.
pub fn sim_main(tool: &str, args: &[String]) -> i32 {
    if std::env::var_os(TRUSTED_ENV).is_some() {
        trusted::main(tool, args)
    } else {
        client::forward(tool, args)
    }
}
