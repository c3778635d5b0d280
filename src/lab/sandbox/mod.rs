//! The sandbox's side of a lab (see `lab`): the code that runs inside bubblewrap, as the
//! supervisor, as a brokered tool or as the learner's confined program. A learner can reach
//! all of it, so nothing here decides a grade the app would take on trust.

pub mod broker;
pub mod checks;
pub mod confine;
pub mod coresdk_checks;
pub mod dev_binds;
pub mod identity;
pub mod ids;
pub mod in_memory;
pub mod modules_checks;
pub mod path_dirs;
pub mod releases_checks;
pub mod runnable;
pub mod runtime_checks;
pub mod script_run;
pub mod supervisor;
pub mod sys;
pub mod userns;
pub mod usr_layer;
