//! Labs: a real bash in a bubblewrap sandbox on the simulated machine, graded by state.

pub mod keys;
pub mod record;
pub mod sandbox;
pub mod scripts;
pub mod session;
pub mod stage;
