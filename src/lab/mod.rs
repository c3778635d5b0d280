//! Labs: a real bash in a bubblewrap sandbox on the simulated machine, graded by state.

pub mod checks;
pub mod keys;
pub mod modules_checks;
pub mod reading;
pub mod record;
pub mod run;
pub mod sandbox;
pub mod script;
pub mod scripts;
pub mod session;
pub mod stage;
pub mod userns;
