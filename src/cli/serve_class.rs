//! `serve [--listen ADDR:PORT] --class DIR`: the whole app for a class over SSH (`src/serve/`).
//! It loads the class's own content per session, not the course this process would.

use clap::{ArgMatches, Command};

use super::arg_kit::ArgKit;
use super::Define::Whole;
use super::Runs::Alone;
use super::{Ctx, Sub};

pub(super) const SUB: Sub = Sub::new("serve", Whole(command), Alone(run));

fn command(a: &ArgKit) -> Command {
    crate::serve::command(a.i18n)
}

fn run(cx: Ctx, m: &ArgMatches) -> i32 {
    crate::serve::main(&cx.i18n, m)
}
