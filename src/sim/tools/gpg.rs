//! `gpg --dearmor`: turns the armored key from stdin (or a file) into the binary keyring apt's
//! `signed-by=` wants. Other gpg commands are outside the labs.

use super::super::{Ctx, keys};
use super::check_writable;

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut dearmor = false;
    let mut output: Option<String> = None;
    let mut inputs = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--dearmor" | "--dearmour" => dearmor = true,
            "-o" | "--output" => match it.next() {
                Some(v) => output = Some(v.clone()),
                None => {
                    cx.eprintln("gpg: missing argument for option \"-o\"");
                    return 2;
                }
            },
            "--yes" | "--batch" | "-q" | "--quiet" | "--no-tty" => {}
            "--version" => {
                cx.println("gpg (GnuPG) 2.4.4\nlibgcrypt 1.10.3\nCopyright (C) 2024 g10 Code GmbH\nLicense GNU GPL-3.0-or-later <https://gnu.org/licenses/gpl.html>\nThis is free software: you are free to change and redistribute it.\nThere is NO WARRANTY, to the extent permitted by law.");
                return 0;
            }
            o if o.starts_with("--output=") => output = Some(o["--output=".len()..].to_string()),
            o if o.starts_with('-') && o != "-" => {
                cx.eprintln(&format!("gpg: invalid option \"{o}\""));
                return 2;
            }
            f => inputs.push(f.to_string()),
        }
    }
    if !dearmor {
        cx.eprintln("gpg: WARNING: no command supplied.  Trying to guess what you mean ...");
        cx.eprintln("gpg: no valid OpenPGP data found.");
        cx.eprintln("gpg: processing message failed: Unknown system error");
        return 2;
    }
    let data = match inputs.first().map(String::as_str) {
        None | Some("-") => cx.console.read_stdin(),
        Some(f) => match std::fs::read(cx.host(f)) {
            Ok(b) => b,
            Err(_) => {
                cx.eprintln(&format!("gpg: can't open '{f}': No such file or directory"));
                cx.eprintln("gpg: dearmoring failed: No such file or directory");
                return 2;
            }
        },
    };
    let Some(bin) = keys::dearmor(&data) else {
        cx.eprintln("gpg: no valid OpenPGP data found.");
        return 2;
    };
    match output.as_deref() {
        None | Some("-") => {
            cx.out.stdout.extend_from_slice(&bin);
            0
        }
        Some(f) => {
            if let Err(e) = check_writable(cx, f) {
                cx.eprintln(&format!("gpg: can't create '{f}': {e}"));
                cx.eprintln(&format!("gpg: dearmoring failed: {e}"));
                return 2;
            }
            match cx.write_named(f, &bin) {
                Ok(()) => 0,
                Err(e) => {
                    cx.eprintln(&format!("gpg: can't create '{f}': {e}"));
                    2
                }
            }
        }
    }
}
