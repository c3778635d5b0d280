//! Option parsing shared by the simulated tools. lexopt reads the command line; these helpers
//! make it read as glibc's getopt_long does, which most of the real tools use, and word its
//! complaints the same way, since the learner sees those words.

use std::ffi::OsString;
use std::ops::ControlFlow;

use super::super::Ctx;

pub use lexopt::Arg::{self, Long, Short, Value};
pub use lexopt::{Error, Parser};

/// What a command line asks for: the tool's help or version (printed at once, whatever else
/// it says), or the work it describes.
pub enum Parsed<R> {
    Help,
    Version,
    Request(R),
}

/// A parser for `args`. The value of `-o=x` is `=x`, as with getopt (lexopt would drop the
/// `=`, and refuse `-a=` for a flag where getopt reads the options `a` and `=`).
pub fn parser(args: &[String]) -> Parser {
    let mut p = Parser::from_args(args);
    p.set_short_equals(false);
    p
}

/// The text of an argument. The tools get their arguments as `String`s, so the lossy branch
/// never runs.
pub fn text(v: OsString) -> String {
    v.into_string()
        .unwrap_or_else(|v| v.to_string_lossy().into_owned())
}

/// The next argument, as text, whatever it looks like: an option's required value.
pub fn value(p: &mut Parser) -> Result<String, Error> {
    p.value().map(text)
}

/// An option the tool does not know (`arg.unexpected()`), as getopt names it: a long option
/// with the `=value` it was given (`unrecognized option '--foo=1'`).
pub fn unknown(e: Error, p: &mut Parser) -> Error {
    match e {
        Error::UnexpectedOption(o) if o.starts_with("--") => match p.optional_value() {
            Some(v) => Error::UnexpectedOption(format!("{o}={}", text(v))),
            None => Error::UnexpectedOption(o),
        },
        e => e,
    }
}

/// The command-line word an argument came from, and how far into it lexopt has read: for
/// tools that name the whole word in their complaints (`-qx` for `x`) or look at what follows
/// a short option (`-d=true`).
#[derive(Debug, Default)]
pub struct Word {
    pub text: String,
    read: usize,
}

impl Word {
    /// What follows the short option just read, in its word.
    pub fn after(&self) -> &str {
        self.text.get(self.read..).unwrap_or("")
    }
}

/// [`Parser::next`], keeping `word` up to date.
pub fn next_word<'a>(p: &'a mut Parser, word: &mut Word) -> Result<Option<Arg<'a>>, Error> {
    // Between words lexopt lends the raw arguments; inside `-qx` it does not, and the word
    // is the one already noted.
    if let Some(w) = p
        .try_raw_args()
        .and_then(|raw| raw.peek().map(|w| w.to_owned()))
    {
        word.text = text(w);
        word.read = 1;
    }
    let arg = p.next()?;
    if let Some(Short(c)) = &arg {
        word.read += c.len_utf8();
    }
    Ok(arg)
}

/// Refuses `--flag=value` for a flag that acts at once (`--help`), as getopt does; lexopt
/// would only complain when asked for the next argument. Only for long options: on a short one
/// it would take the rest of the cluster.
pub fn no_value(p: &mut Parser, long: &str) -> Result<(), Error> {
    match p.optional_value() {
        Some(v) => Err(Error::UnexpectedValue {
            option: format!("--{long}"),
            value: v,
        }),
        None => Ok(()),
    }
}

/// GNU's way to fail on a bad command line (coreutils, util-linux): the complaint, the pointer
/// to `--help`, exit 1.
pub fn try_help(cx: &mut Ctx, prog: &str, message: &str) -> i32 {
    cx.eprintln(&format!("{prog}: {message}"));
    cx.eprintln(&format!("Try '{prog} --help' for more information."));
    1
}

// The download, package and cluster tools also see what lexopt hides: a `--` word (lexopt
// swallows it; apt, wget, curl and dpkg refuse it, kubectl keeps what follows for the
// container) and the value glued to a long option (`--quiet=1` is an error for most of them,
// ignored by kubectl's switches).

/// One word of a command line, or one letter of a short cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// `-x`; the rest of its cluster is still in the parser (`Parser::value`).
    Short(char),
    /// `--name` and the value after its `=`, if any.
    Long(String, Option<String>),
    /// An operand, `-` included.
    Value(String),
    /// A `--` word, taken out of the parser; what follows is still in it.
    DashDash,
}

/// The next token, or `None` at the end.
pub fn next_token(p: &mut Parser) -> Option<Token> {
    if let Some(mut raw) = p.try_raw_args()
        && raw.next_if(|a| a == "--").is_some()
    {
        return Some(Token::DashDash);
    }
    // A long option's glued value is taken right away and short clusters carry no `=` of
    // their own, so lexopt has no unexpected value to complain about.
    let arg = p.next().ok()??;
    Some(match arg {
        Arg::Short(c) => Token::Short(c),
        Arg::Long(name) => {
            let name = name.to_string();
            Token::Long(name, p.optional_value().map(text))
        }
        Arg::Value(v) => Token::Value(text(v)),
    })
}

/// What is left of the current short cluster (`-Ofile`), if anything.
pub fn rest(p: &mut Parser) -> Option<String> {
    p.optional_value().map(text)
}

/// The words not read yet, as they were typed.
pub fn remaining(p: &mut Parser) -> Vec<String> {
    p.raw_args()
        .map(|raw| raw.map(text).collect())
        .unwrap_or_default()
}

/// `--help` or `--version` (`asked`, named `long`) as coreutils reads them: acted on at once,
/// a value glued to them refused.
pub fn at_once<R>(p: &mut Parser, long: &str, asked: Parsed<R>) -> Result<Parsed<R>, Error> {
    no_value(p, long)?;
    Ok(asked)
}

/// What a GNU coreutils tool does with its command line before its work: the help or the
/// version printed (exit 0), a bad command line refused with the pointer to `--help` (exit 1);
/// otherwise the work to do.
pub fn coreutils<R>(
    cx: &mut Ctx,
    prog: &str,
    help: &str,
    parsed: Result<Parsed<R>, Error>,
) -> ControlFlow<i32, R> {
    match parsed {
        Ok(Parsed::Request(r)) => ControlFlow::Continue(r),
        Ok(Parsed::Help) => {
            cx.println(help);
            ControlFlow::Break(0)
        }
        Ok(Parsed::Version) => {
            cx.println(&format!("{prog} (GNU coreutils) 9.4"));
            ControlFlow::Break(0)
        }
        Err(e) => ControlFlow::Break(try_help(cx, prog, &getopt_message(&e))),
    }
}

/// What glibc's getopt prints for `e`, after `PROGRAM: `.
pub fn getopt_message(e: &Error) -> String {
    match e {
        Error::MissingValue { option: Some(o) } if o.starts_with("--") => {
            format!("option '{o}' requires an argument")
        }
        Error::MissingValue { option: Some(o) } => {
            format!("option requires an argument -- '{}'", short_name(o))
        }
        Error::UnexpectedOption(o) if o.starts_with("--") => format!("unrecognized option '{o}'"),
        Error::UnexpectedOption(o) => format!("invalid option -- '{}'", short_name(o)),
        Error::UnexpectedValue { option, .. } => {
            format!("option '{option}' doesn't allow an argument")
        }
        e => e.to_string(),
    }
}

/// `x` of `-x`.
fn short_name(o: &str) -> &str {
    o.strip_prefix('-').unwrap_or(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(line: &str) -> Vec<Token> {
        let args: Vec<String> = line.split(' ').map(String::from).collect();
        let mut p = parser(&args);
        std::iter::from_fn(|| next_token(&mut p)).collect()
    }

    #[test]
    fn dashes_and_glued_values_are_visible() {
        use Token::*;
        assert_eq!(
            tokens("-ab -- --x=1 --y - z"),
            [
                Short('a'),
                Short('b'),
                DashDash,
                Long("x".into(), Some("1".into())),
                Long("y".into(), None),
                Value("-".into()),
                Value("z".into()),
            ]
        );
        assert_eq!(tokens("-a="), [Short('a'), Short('=')]);
        assert_eq!(tokens("-a-"), [Short('a'), Short('-')]);
    }

    fn args(words: &[&str]) -> Vec<String> {
        words.iter().map(|s| s.to_string()).collect()
    }

    /// Reads `-a`, `-G VALUE`/`--groups VALUE` and operands, as a getopt string "aG:" would.
    fn read(words: &[&str]) -> Result<Vec<String>, String> {
        let mut seen = Vec::new();
        match read_into(&mut parser(&args(words)), &mut seen) {
            Ok(()) => Ok(seen),
            Err(e) => Err(getopt_message(&e)),
        }
    }

    fn read_into(p: &mut Parser, seen: &mut Vec<String>) -> Result<(), Error> {
        while let Some(arg) = p.next()? {
            match arg {
                Short('a') => seen.push("a".to_string()),
                Short('G') | Long("groups") => seen.push(format!("G={}", value(p)?)),
                Long("append") => seen.push("append".to_string()),
                Value(v) => seen.push(text(v)),
                other => return Err(unknown(other.unexpected(), p)),
            }
        }
        Ok(())
    }

    #[test]
    fn reads_as_getopt() {
        assert_eq!(
            read(&["-aG", "render", "x"]).unwrap(),
            ["a", "G=render", "x"]
        );
        assert_eq!(read(&["-aGrender"]).unwrap(), ["a", "G=render"]);
        assert_eq!(read(&["-G=render"]).unwrap(), ["G==render"]);
        assert_eq!(read(&["--groups=a,b"]).unwrap(), ["G=a,b"]);
        assert_eq!(read(&["-G", "-a"]).unwrap(), ["G=-a"]);
        assert_eq!(read(&["x", "--", "-a"]).unwrap(), ["x", "-a"]);
        assert_eq!(read(&["-"]).unwrap(), ["-"]);
    }

    #[test]
    fn complains_as_getopt() {
        let e = |w: &[&str]| read(w).unwrap_err();
        assert_eq!(e(&["-x"]), "invalid option -- 'x'");
        assert_eq!(e(&["-a="]), "invalid option -- '='");
        assert_eq!(e(&["--bogus"]), "unrecognized option '--bogus'");
        assert_eq!(e(&["--bogus=1"]), "unrecognized option '--bogus=1'");
        assert_eq!(e(&["-G"]), "option requires an argument -- 'G'");
        assert_eq!(e(&["--groups"]), "option '--groups' requires an argument");
        assert_eq!(
            e(&["--append=1"]),
            "option '--append' doesn't allow an argument"
        );
    }
}
