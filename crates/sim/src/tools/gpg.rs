//! `gpg --dearmor`: turns the armored key from stdin (or a file) into the binary keyring apt's
//! `signed-by=` wants. Other gpg commands are outside the labs.

use super::super::{Ctx, keys};
use super::check_writable;
use super::opts::{self, Long, Short, Value};

/// What the command line asks for.
#[derive(Debug, Default)]
struct Request {
    dearmor: bool,
    output: Option<String>,
    inputs: Vec<String>,
    version: bool,
}

/// Reads the options the labs use. GnuPG's own parser names the whole word it refuses
/// (`invalid option "-qx"`), so the word is kept beside lexopt's reading of it.
fn parse(args: &[String]) -> Result<Request, String> {
    let mut p = opts::parser(args);
    let mut r = Request::default();
    let mut word = opts::Word::default();
    let invalid = |word: &str| format!("invalid option \"{word}\"");
    loop {
        let arg = match opts::next_word(&mut p, &mut word) {
            Ok(Some(a)) => a,
            Ok(None) => return Ok(r),
            Err(_) => return Err(invalid(&word.text)),
        };
        match arg {
            Long("dearmor" | "dearmour") => r.dearmor = true,
            Short('o') | Long("output") => {
                let name = match arg {
                    Short(_) => "-o",
                    _ => "--output",
                };
                match p.value() {
                    Ok(v) => r.output = Some(opts::text(v)),
                    Err(_) => return Err(format!("missing argument for option \"{name}\"")),
                }
            }
            Short('q') | Long("yes" | "batch" | "quiet" | "no-tty") => {}
            Long("version") => {
                r.version = true;
                return Ok(r);
            }
            Value(v) => r.inputs.push(opts::text(v)),
            _ => return Err(invalid(&word.text)),
        }
    }
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let Request {
        dearmor,
        output,
        inputs,
        version,
    } = match parse(args) {
        Ok(r) => r,
        Err(m) => {
            cx.eprintln(&format!("gpg: {m}"));
            return 2;
        }
    };
    if version {
        cx.println("gpg (GnuPG) 2.4.4\nlibgcrypt 1.10.3\nCopyright (C) 2024 g10 Code GmbH\nLicense GNU GPL-3.0-or-later <https://gnu.org/licenses/gpl.html>\nThis is free software: you are free to change and redistribute it.\nThere is NO WARRANTY, to the extent permitted by law.");
        return 0;
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

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn option_forms_and_complaints() {
        let m = Machine::stage();
        let missing = "gpg: can't open 'nosuch': No such file or directory";
        for line in [
            "gpg --dearmor -o k.gpg nosuch",
            "gpg -qo k.gpg --dearmor nosuch",
            "gpg --dearmor --output=k.gpg nosuch",
            "gpg --dearmor -ok.gpg nosuch",
        ] {
            assert_eq!(m.learner(line).complaint(), (missing, 2), "{line}");
        }
        for (line, first) in [
            ("gpg -qx", "gpg: invalid option \"-qx\""),
            ("gpg --bogus=1", "gpg: invalid option \"--bogus=1\""),
            (
                "gpg --dearmor -o",
                "gpg: missing argument for option \"-o\"",
            ),
            (
                "gpg --output",
                "gpg: missing argument for option \"--output\"",
            ),
        ] {
            assert_eq!(m.learner(line).complaint(), (first, 2), "{line}");
        }
    }
}
