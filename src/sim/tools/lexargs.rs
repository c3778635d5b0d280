//! lexopt with the two things the download, package and cluster tools need to see that lexopt
//! hides: a `--` word (lexopt swallows it; apt, wget, curl and dpkg refuse it, kubectl keeps
//! what follows for the container) and the value glued to a long option (`--quiet=1` is an
//! error for most of them, ignored by kubectl's switches).

use lexopt::{Arg, Parser};

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

/// A parser over `args` (no program name in them). `=` in a short cluster is a letter, as
/// getopt has it: `-O=file` writes to `=file`.
pub fn parser(args: &[String]) -> Parser {
    let mut p = Parser::from_args(args);
    p.set_short_equals(false);
    p
}

/// The next token, or `None` at the end.
pub fn next(p: &mut Parser) -> Option<Token> {
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

/// The value of the option just read: glued to it or the next word, whatever that looks like.
pub fn value(p: &mut Parser) -> Option<String> {
    p.value().ok().map(text)
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

fn text(s: std::ffi::OsString) -> String {
    s.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(line: &str) -> Vec<Token> {
        let args: Vec<String> = line.split(' ').map(String::from).collect();
        let mut p = parser(&args);
        std::iter::from_fn(|| next(&mut p)).collect()
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
}
