//! `uname`: the simulated kernel, so `linux-headers-$(uname -r)` names the machine's kernel and
//! not the host's.

use super::super::Ctx;
use std::ops::ControlFlow;

use super::opts::{self, Error, Long, Parsed, Short, Value};

/// Which fields to print, in the order of `uname -a`.
type Fields = [bool; 8];

/// Reads the options as coreutils' getopt_long does; uname takes no operand, but getopt reads
/// every option before that is noticed.
fn parse(args: &[String]) -> Result<Parsed<Fields>, Error> {
    let mut p = opts::parser(args);
    let mut want = [false; 8];
    let mut extra: Option<String> = None;
    while let Some(arg) = p.next()? {
        match arg {
            Short('a') | Long("all") => want = [true; 8],
            Short('s') | Long("kernel-name") => want[0] = true,
            Short('n') | Long("nodename") => want[1] = true,
            Short('r') | Long("kernel-release") => want[2] = true,
            Short('v') | Long("kernel-version") => want[3] = true,
            Short('m') | Long("machine") => want[4] = true,
            Short('p') | Long("processor") => want[5] = true,
            Short('i') | Long("hardware-platform") => want[6] = true,
            Short('o') | Long("operating-system") => want[7] = true,
            Long("help") => return opts::at_once(&mut p, "help", Parsed::Help),
            Long("version") => return opts::at_once(&mut p, "version", Parsed::Version),
            Value(v) => {
                extra.get_or_insert(opts::text(v));
            }
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    match extra {
        Some(o) => Err(Error::from(format!("extra operand ‘{o}’"))),
        None => Ok(Parsed::Request(want)),
    }
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut want = match opts::coreutils(
        cx,
        "uname",
        "Usage: uname [OPTION]...\nPrint certain system information.  With no OPTION, same as -s.",
        parse(args),
    ) {
        ControlFlow::Continue(r) => r,
        ControlFlow::Break(code) => return code,
    };
    let m = &cx.state.machine;
    let kernel = m.kernel.clone();
    let build = if m.os.codename == "noble" {
        "#53-Ubuntu SMP PREEMPT_DYNAMIC Sat Jan 11 00:06:25 UTC 2025"
    } else {
        "#135-Ubuntu SMP Fri Sep 27 13:53:58 UTC 2024"
    };
    let host = m.hostname.clone();
    if !want.iter().any(|w| *w) {
        want[0] = true;
    }
    let values = [
        "Linux".to_string(),
        host,
        kernel,
        build.to_string(),
        "x86_64".into(),
        "x86_64".into(),
        "x86_64".into(),
        "GNU/Linux".into(),
    ];
    let out: Vec<&str> = values
        .iter()
        .zip(want)
        .filter(|(_, w)| *w)
        .map(|(v, _)| v.as_str())
        .collect();
    cx.println(&out.join(" "));
    0
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn option_forms_and_complaints() {
        let m = Machine::stage();
        assert_eq!(m.learner("uname -sm").stdout, "Linux x86_64\n");
        assert_eq!(m.learner("uname --").stdout, "Linux\n");
        for (line, first) in [
            ("uname foo", "uname: extra operand ‘foo’"),
            ("uname foo -x", "uname: invalid option -- 'x'"),
            (
                "uname --all=1",
                "uname: option '--all' doesn't allow an argument",
            ),
        ] {
            assert_eq!(m.learner(line).complaint(), (first, 1), "{line}");
        }
    }
}
