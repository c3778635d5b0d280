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
    yes: bool,
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
            Long("yes") => r.yes = true,
            Short('q') | Long("batch" | "quiet" | "no-tty") => {}
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
        yes,
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
    // A file given without -o: gpg writes FILE.gpg beside it, as it does for --dearmor.
    let output = output.or_else(|| {
        inputs
            .first()
            .filter(|f| *f != "-")
            .map(|f| format!("{f}.gpg"))
    });
    if let Some(f) = output.as_deref().filter(|f| *f != "-")
        && !yes
        && cx.host(f).exists()
    {
        let answer = cx.ask(&format!("File '{f}' exists. Overwrite? (y/N) "));
        if !matches!(answer.as_deref().map(str::trim), Some("y" | "Y" | "yes")) {
            cx.eprintln("gpg: dearmoring failed: File exists");
            return 2;
        }
    }
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
    fn dearmor_of_a_file_writes_file_dot_gpg() {
        let m = Machine::stage();
        let key = crate::keys::amd_key_armored();
        std::fs::write(m.root().join("home/learner/rocm.asc"), key).unwrap();
        let r = m.learner("gpg --dearmor rocm.asc");
        assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
        let written = std::fs::read(m.root().join("home/learner/rocm.asc.gpg")).unwrap();
        assert_eq!(written, crate::keys::amd_key_binary());
        // Once there, gpg asks before writing over it; --yes does not ask.
        assert_eq!(m.learner("gpg --yes --dearmor rocm.asc").code, 0);
    }

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
