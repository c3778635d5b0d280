//! Small pieces several commands share: whether a screen can be drawn, the `ID` argument,
//! how an unknown id is said, saving progress, writing to a stdout that may have gone away.

use std::io::{self, IsTerminal, Write};

use clap::ArgMatches;

use super::EXIT_USAGE;
use crate::i18n::I18n;
use crate::progress::{self, ItemKind, Store};

/// Full-screen drawing needs a real terminal on both ends that is not `TERM=dumb`.
pub(super) fn terminal_ok() -> bool {
    io::stdout().is_terminal()
        && io::stdin().is_terminal()
        && std::env::var("TERM").map_or(true, |t| t != "dumb")
}

pub(super) fn plain_mode(m: &ArgMatches) -> bool {
    m.get_flag("plain")
        || m.try_get_one::<bool>("json")
            .ok()
            .flatten()
            .copied()
            .unwrap_or(false)
        || !terminal_ok()
}

/// The `ID` argument of `lesson`, `quiz` or `lab`, which may also be written qualified
/// (`quiz:history`), as `progress reset` needs it.
pub(super) fn item_id(m: &ArgMatches, kind: ItemKind) -> String {
    let id = m.get_one::<String>("id").map(String::as_str).unwrap_or("");
    id.strip_prefix(kind.name())
        .and_then(|rest| rest.strip_prefix(':'))
        .unwrap_or(id)
        .to_string()
}

pub(super) fn unknown_id(i18n: &I18n, kind: &str, id: &str, known: Vec<&str>) -> i32 {
    eprintln!(
        "{}",
        i18n.ta(
            "cli-unknown-id",
            &[
                ("kind", kind.into()),
                ("id", id.into()),
                ("known", known.join(", ").into())
            ]
        )
    );
    EXIT_USAGE
}

pub(super) fn save(
    i18n: &I18n,
    store: Option<&Store>,
    change: impl FnOnce(&mut progress::Progress),
) {
    let Some(store) = store else { return };
    match store.update(change) {
        Ok((_, Some(notice))) => eprintln!("{}", i18n.msg(&notice.msg())),
        Ok(_) => {}
        Err(e) => eprintln!("{}", i18n.msg(&e.0)),
    }
}

/// Writes to stdout, ignoring a reader that went away (`report ... | head`): `print!` would
/// panic with "Broken pipe" and exit 101.
pub(super) fn print_out(text: &str) {
    let _ = io::stdout().lock().write_all(text.as_bytes());
}

/// Where the words for people go: stderr when stdout carries only a JSON result.
pub(super) fn human_out(json: bool) -> Box<dyn Write> {
    if json {
        Box::new(io::stderr())
    } else {
        Box::new(io::stdout())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_may_be_written_qualified_by_its_kind() {
        let m = super::super::parse(&["quiz", "quiz:history"]).expect("parses");
        let (_, m) = m.subcommand().expect("quiz");
        assert_eq!(item_id(m, ItemKind::Quiz), "history");
        let m = super::super::parse(&["lesson", "gpu-basics"]).expect("parses");
        let (_, m) = m.subcommand().expect("lesson");
        assert_eq!(item_id(m, ItemKind::Lesson), "gpu-basics");
        // Another kind's prefix is part of the id, to be reported as unknown.
        let m = super::super::parse(&["lab", "quiz:history"]).expect("parses");
        let (_, m) = m.subcommand().expect("lab");
        assert_eq!(item_id(m, ItemKind::Lab), "quiz:history");
    }

    #[test]
    fn an_unknown_id_is_a_usage_error() {
        let i18n = I18n::new(crate::lang::Lang::En);
        assert_eq!(unknown_id(&i18n, "lab", "nope", vec!["a", "b"]), EXIT_USAGE);
    }
}
