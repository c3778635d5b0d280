//! Generic Unix helpers with no knowledge of the course or the simulated machine: whole-file
//! writes and capped reads (`files`), and the account files /etc/passwd, /etc/group and
//! /etc/gshadow under a root (`accounts`). The simulator, progress, export and the doctor all use
//! them; reading files others can write (a class's submit folder) is `crate::hostfs`.

pub mod accounts;
pub mod files;
