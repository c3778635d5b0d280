//! How long the kernel lets a thread run before another may take its CPU: a short turn for
//! the threads a typed key passes through, the kernel's default for everything else.

#![allow(unsafe_code)]

/// `struct sched_attr` (linux/sched/types.h), for `sched_setattr`, which libc does not wrap.
#[repr(C)]
#[derive(Default)]
struct SchedAttr {
    size: u32,
    policy: u32,
    flags: u64,
    nice: i32,
    priority: u32,
    runtime: u64,
    deadline: u64,
    period: u64,
}

/// The turn for the threads that carry keystrokes and their echo: shorter than the kernel's
/// default (0.7 ms on one CPU, more on several), so they go first when they wake, yet long
/// enough for a redraw to finish in one turn rather than wait between many.
pub const SHORT_TURN_NS: u64 = 500_000;

/// Asks the kernel (Linux 6.12 and later) to run this thread, and the threads and programs it
/// starts from now on, in turns of `slice_ns` nanoseconds (0: the kernel's default turn).
///
/// A thread whose turn is shorter than the running one's is let on the CPU as soon as it
/// wakes: an echo that passes through several of our threads then does not wait behind a
/// learner's busy loop at each of them. A short turn gives no larger share of the CPU, needs no
/// privilege, and keeps the policy and nice value. An older kernel ignores the request or
/// refuses it; either way nothing changes, so the result is not reported.
pub fn set_turn(slice_ns: u64) {
    // SAFETY: plain system calls about this thread, with a struct laid out as the kernel's.
    unsafe {
        if libc::sched_getscheduler(0) != libc::SCHED_OTHER {
            return;
        }
        *libc::__errno_location() = 0;
        let nice = libc::getpriority(libc::PRIO_PROCESS, 0);
        if nice == -1 && *libc::__errno_location() != 0 {
            return;
        }
        let attr = SchedAttr {
            size: std::mem::size_of::<SchedAttr>() as u32,
            policy: libc::SCHED_OTHER as u32,
            nice,
            runtime: slice_ns,
            ..SchedAttr::default()
        };
        libc::syscall(libc::SYS_sched_setattr, 0, &raw const attr, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The turn the kernel reports for this thread, where it reports one.
    fn turn() -> Option<u64> {
        let tid = unsafe { libc::gettid() };
        let text = std::fs::read_to_string(format!("/proc/self/task/{tid}/sched")).ok()?;
        let line = text.lines().find(|l| l.starts_with("se.slice"))?;
        line.split(':').nth(1)?.trim().parse().ok()
    }

    #[test]
    fn a_thread_asks_for_short_turns_and_gives_them_back() {
        std::thread::spawn(|| {
            let Some(default) = turn() else {
                return; // a kernel without per-task turns: nothing to see
            };
            set_turn(SHORT_TURN_NS);
            let short = turn().unwrap();
            // Kernels before 6.12 keep their own turn whatever is asked.
            if short != default {
                assert_eq!(short, SHORT_TURN_NS);
                // What this thread starts inherits the turn.
                let child = std::thread::spawn(turn).join().unwrap();
                assert_eq!(child, Some(SHORT_TURN_NS));
                set_turn(0);
                assert_eq!(turn(), Some(default));
            }
        })
        .join()
        .unwrap();
    }
}
