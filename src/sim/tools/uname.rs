//! `uname`: the simulated kernel, so `linux-headers-$(uname -r)` names the machine's kernel and
//! not the host's.

use super::super::Ctx;

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let m = &cx.state.machine;
    let kernel = m.kernel.clone();
    let build = if m.os.codename == "noble" {
        "#53-Ubuntu SMP PREEMPT_DYNAMIC Sat Jan 11 00:06:25 UTC 2025"
    } else {
        "#135-Ubuntu SMP Fri Sep 27 13:53:58 UTC 2024"
    };
    let host = m.hostname.clone();
    // Field order of `uname -a`.
    let mut want = [false; 8];
    for a in super::split_short(args, "") {
        match a.as_str() {
            "-a" | "--all" => want = [true, true, true, true, true, true, true, true],
            "-s" | "--kernel-name" => want[0] = true,
            "-n" | "--nodename" => want[1] = true,
            "-r" | "--kernel-release" => want[2] = true,
            "-v" | "--kernel-version" => want[3] = true,
            "-m" | "--machine" => want[4] = true,
            "-p" | "--processor" => want[5] = true,
            "-i" | "--hardware-platform" => want[6] = true,
            "-o" | "--operating-system" => want[7] = true,
            "--help" => {
                cx.println("Usage: uname [OPTION]...\nPrint certain system information.  With no OPTION, same as -s.");
                return 0;
            }
            "--version" => {
                cx.println("uname (GNU coreutils) 9.4");
                return 0;
            }
            o if o.starts_with("--") => {
                cx.eprintln(&format!("uname: unrecognized option '{o}'"));
                cx.eprintln("Try 'uname --help' for more information.");
                return 1;
            }
            o if o.starts_with('-') && o.len() > 1 => {
                cx.eprintln(&format!("uname: invalid option -- '{}'", &o[1..]));
                cx.eprintln("Try 'uname --help' for more information.");
                return 1;
            }
            o => {
                cx.eprintln(&format!("uname: extra operand ‘{o}’"));
                cx.eprintln("Try 'uname --help' for more information.");
                return 1;
            }
        }
    }
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
