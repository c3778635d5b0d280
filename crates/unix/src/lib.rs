//! Generic Unix helpers with no knowledge of the course or the simulated machine: whole-file
//! writes and capped reads (`files`), the account files /etc/passwd, /etc/group and
//! /etc/gshadow under a root (`accounts`), paths of a machine kept in a folder
//! (`machine_path`) and calendar dates of unix times (`clock`). The simulator, progress, export
//! and the doctor all use them; reading files others can write (a class's submit folder) is the
//! app's `hostfs`.

pub mod accounts;
pub mod clock;
pub mod files;
pub mod machine_path;
