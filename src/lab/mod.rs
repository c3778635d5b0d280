//! Labs: a real bash in a bubblewrap sandbox on the simulated machine, graded by state.
//!
//! The folders are the trust boundary:
//! - `app`: the app's side, on the host. It builds the stage, starts bubblewrap, writes the
//!   id maps, feeds the learner's keys to the shell and shows what the supervisor reports.
//! - `sandbox`: the sandbox's side. The supervisor (the sandbox's first process), the broker
//!   that runs simulated tools as the identity that asked, the Landlock confinement, the
//!   machine in memory, and the checks. A learner can reach everything here.
//! - `wire`: what both sides agree on and nothing else: the channel's messages, descriptor
//!   passing, the prompt record and the sandbox's layout (fds, paths, names).
//!
//! `app` and `sandbox` each import `wire`, never each other.

pub mod app;
pub mod sandbox;
pub mod wire;
