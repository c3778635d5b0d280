//! Labs: a real bash in a bubblewrap sandbox on the simulated machine, graded by state.

pub mod broker;
pub mod checks;
pub mod confine;
pub mod coresdk_checks;
pub mod devnodes;
pub mod fdpass;
pub mod identity;
pub mod idmap;
pub mod in_memory;
pub mod keys;
pub mod modules_checks;
pub mod protocol;
pub mod reading;
pub mod record;
pub mod releases_checks;
pub mod run;
pub mod sandbox;
pub mod sanitize;
pub mod script;
pub mod scripts;
pub mod session;
pub mod stage;
pub mod stage_dir;
pub mod supervisor;
pub mod userns;
pub mod usr_layer;
