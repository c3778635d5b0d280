//! The app's side of a lab, on the host (see `lab`): everything here runs with the rights of
//! the learner's app, or of `serve`, and trusts nothing the sandbox says beyond its type.

pub mod bwrap;
pub mod device_pool;
pub mod exe_mount;
pub mod idmap;
pub mod key_bytes;
pub mod memory_ticket;
pub mod probe_cache;
pub mod programs;
pub mod reading;
pub mod run;
pub mod scripted;
pub mod session;
pub mod shell_files;
pub mod stage;
pub mod stage_dir;
pub mod usr_map;
