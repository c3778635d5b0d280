//! The exit statuses every command shares, at the bottom so that `serve` and the commands
//! agree on them without `serve` importing the command line.

/// Exit statuses: 0 success, 1 the thing checked failed (content errors), 2 usage or
/// "not available".
pub const EXIT_OK: i32 = 0;
pub const EXIT_FAIL: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
