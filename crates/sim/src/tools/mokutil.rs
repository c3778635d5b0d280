//! `mokutil --sb-state` and `mokutil --import KEY` (the MOK is enrolled at the next boot, when
//! MokManager asks for the password given here).

use super::super::Ctx;

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("--sb-state") => {
            cx.println(if cx.state.boot.secure_boot {
                "SecureBoot enabled"
            } else {
                "SecureBoot disabled"
            });
            0
        }
        Some("--import") | Some("-i") => {
            let Some(file) = args.get(1) else {
                cx.eprintln("mokutil: option '--import' requires an argument");
                return 1;
            };
            if !cx.host(file).is_file() {
                cx.eprintln(&format!("Failed to open {file}"));
                return 1;
            }
            if !cx.caller.is_root() {
                cx.eprintln("Failed to enroll new keys");
                return 1;
            }
            let first = cx.ask("input password: ").unwrap_or_default();
            let again = cx.ask("input password again: ").unwrap_or_default();
            if first.is_empty() || first.len() > 256 {
                cx.eprintln("password should be 1~256 characters");
                return 1;
            }
            if first != again {
                cx.eprintln("password doesn't match");
                return 1;
            }
            cx.state.boot.mok_pending = true;
            0
        }
        Some(o) => {
            cx.eprintln(&format!("mokutil: unrecognized option '{o}'"));
            1
        }
        None => {
            cx.eprintln("Usage:\n  mokutil OPTIONS [ARGS...]");
            1
        }
    }
}
