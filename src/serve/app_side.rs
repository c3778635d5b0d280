//! The app's side of a class session: what the server tells the app it started (the files
//! named in its environment), given to the full-screen app as its `tui::class::Class`.

use crate::tui::class::{Class, Help};

/// The class server this process runs under, read from the files its environment names;
/// outside a class every answer is "nothing".
pub struct AppSide;

impl Class for AppSide {
    fn watched(&self) -> bool {
        super::screen::watched_now()
    }

    fn help(&self) -> Option<Help> {
        super::help::file().map(|f| super::help::read(&f))
    }

    fn set_help(&self, help: Help) {
        if let Some(f) = super::help::file() {
            super::help::write(&f, help);
        }
    }

    fn attached_since(&self, seen: u64) -> Option<u64> {
        super::session::attached_since(seen)
    }
}
