//! An instructor's help: from the mirror the instructor asks to type in a learner's session,
//! the learner says yes with a key of their own (F9), and then both type into the same lab
//! until either ends it (F9 on either side). Nobody types into a learner's session without
//! that learner's yes: the yes can only come from the learner's own app, a process of the
//! server's that only the learner's keys drive.
//!
//! The two sides share one small file per session in the server's own folder (0700), named by
//! `ROCM_LEARN_HELP`: `asked` (written by the server), `granted` (by the app, on the learner's
//! key), `ended` (by either). Each side pokes or polls the other (see `screen::poke`).

use std::path::Path;

/// The environment variable naming a session's help file.
pub const ENV: &str = "ROCM_LEARN_HELP";

/// Where help stands for a session: the app's own type (it shows it and answers it).
pub use crate::tui::class::Help as State;

fn word(state: State) -> &'static [u8] {
    match state {
        State::Off => b"ended",
        State::Asked => b"asked",
        State::Granted => b"granted",
    }
}

/// The state a help file holds (a missing or unreadable file: none asked).
pub fn read(path: &Path) -> State {
    let Ok(bytes) = crate::hostfs::read_named(path, 16) else {
        return State::Off;
    };
    match bytes.trim_ascii() {
        b"asked" => State::Asked,
        b"granted" => State::Granted,
        _ => State::Off,
    }
}

pub fn write(path: &Path, state: State) {
    let _ = std::fs::write(path, word(state));
}

/// The app's side: the help file of this session, when it runs on a class server.
pub fn file() -> Option<std::path::PathBuf> {
    std::env::var_os(ENV)
        .filter(|p| !p.is_empty())
        .map(std::path::PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_help_file_says_asked_granted_or_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("help");
        assert_eq!(read(&f), State::Off);
        write(&f, State::Asked);
        assert_eq!(read(&f), State::Asked);
        write(&f, State::Granted);
        assert_eq!(read(&f), State::Granted);
        write(&f, State::Off);
        assert_eq!(read(&f), State::Off);
        std::fs::write(&f, b"granted-by-nobody").unwrap();
        assert_eq!(read(&f), State::Off);
    }
}
