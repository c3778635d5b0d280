//! Whether a program waits for input from a terminal: a process of the terminal's foreground
//! group asleep in read(2) on that very terminal (apt's `[Y/n]`, `read -p`, a password prompt).
//! Scripted runs type the next line early only then; anything else is waited for until its
//! prompt, however long it stays silent.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// State and process group from the text of /proc/PID/stat. The command name between the
/// parentheses is the learner's to choose (spaces, parentheses, digits): the fields are read
/// after the last ')'.
pub fn parse_stat(text: &str) -> Option<(char, i32)> {
    let rest = &text[text.rfind(')')? + 1..];
    let mut f = rest.split_ascii_whitespace();
    let state = f.next()?.chars().next()?;
    let _ppid = f.next()?;
    let pgrp = f.next()?.parse().ok()?;
    Some((state, pgrp))
}

/// Calls that wait for a descriptor to become readable (select and poll exist only as the
/// p-forms on newer architectures).
#[cfg(target_arch = "x86_64")]
const WAITS: [i64; 4] = [
    libc::SYS_pselect6,
    libc::SYS_ppoll,
    libc::SYS_select,
    libc::SYS_poll,
];
#[cfg(not(target_arch = "x86_64"))]
const WAITS: [i64; 2] = [libc::SYS_pselect6, libc::SYS_ppoll];

/// The file descriptor a process is blocked reading, from /proc/PID/syscall
/// ("NR ARG0 ARG1 ..."; NR in decimal, the arguments in hex); None for any other call.
/// A wait in select or poll counts as a read of standard input: readline waits that way,
/// so bash at its `> ` continuation prompt (a heredoc, an open quote) is asking for a line.
/// At its main prompt it has already reported the command's end, so no other case matters.
pub fn parse_read_call(text: &str) -> Option<i32> {
    let mut f = text.split_ascii_whitespace();
    let nr: i64 = f.next()?.parse().ok()?;
    if WAITS.contains(&nr) {
        return Some(0);
    }
    if nr != libc::SYS_read {
        return None;
    }
    i32::from_str_radix(f.next()?.strip_prefix("0x")?, 16).ok()
}

/// True when some process of group `pgrp` sleeps reading the terminal `tty`.
pub fn waits_for_input(pgrp: i32, tty: &Path) -> bool {
    let Ok(dev) = std::fs::metadata(tty).map(|m| m.rdev()) else {
        return false;
    };
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return false;
    };
    dir.filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        })
        .any(|e| reads(&e.path(), pgrp, dev))
}

fn reads(proc_dir: &Path, pgrp: i32, dev: u64) -> bool {
    let Ok(stat) = std::fs::read_to_string(proc_dir.join("stat")) else {
        return false;
    };
    if parse_stat(&stat) != Some(('S', pgrp)) {
        return false;
    }
    let fd = match std::fs::read_to_string(proc_dir.join("syscall")) {
        Ok(call) => match parse_read_call(&call) {
            Some(fd) => fd,
            None => return false,
        },
        // Without the right to see the call, the kernel function it sleeps in still tells a
        // terminal read from a timer or a child; standard input must be the terminal then.
        Err(_) => {
            let wchan = std::fs::read_to_string(proc_dir.join("wchan")).unwrap_or_default();
            if !matches!(
                wchan.trim(),
                "n_tty_read" | "wait_woken" | "do_select" | "do_sys_poll" | "poll_schedule_timeout"
            ) {
                return false;
            }
            0
        }
    };
    std::fs::metadata(proc_dir.join("fd").join(fd.to_string())).is_ok_and(|m| m.rdev() == dev)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_come_after_the_last_parenthesis_whatever_the_name() {
        assert_eq!(
            parse_stat("4242 (apt) S 4200 4242 4100 34816 4242 4194304 0"),
            Some(('S', 4242))
        );
        // A learner can name a program ") R 1 1 (" to fake the fields after the name.
        assert_eq!(
            parse_stat("77 (x) R 1 1 () S 70 77 70 34816 77 0"),
            Some(('S', 77))
        );
        assert_eq!(parse_stat("77 (sleep) S"), None, "cut short");
        assert_eq!(parse_stat("no parenthesis"), None);
    }

    #[test]
    fn only_a_read_call_names_its_descriptor() {
        let read = format!("{} 0x0 0x7f1e11758000 0x20000", libc::SYS_read);
        assert_eq!(parse_read_call(&read), Some(0));
        let read3 = format!("{} 0x3 0x1 0x1", libc::SYS_read);
        assert_eq!(parse_read_call(&read3), Some(3));
        let other = format!("{} 0x0 0x0", libc::SYS_write);
        assert_eq!(parse_read_call(&other), None);
        let wait = format!("{} 0x0 0x0 0x0", libc::SYS_wait4);
        assert_eq!(
            parse_read_call(&wait),
            None,
            "a shell waiting for its command"
        );
        let select = format!("{} 0x1 0x7ffc 0x0 0x0 0x0 0x7ffd", libc::SYS_pselect6);
        assert_eq!(parse_read_call(&select), Some(0), "readline at a prompt");
        assert_eq!(parse_read_call("running"), None);
        assert_eq!(parse_read_call(""), None);
    }
}
