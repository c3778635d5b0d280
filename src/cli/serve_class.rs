//! `serve [--listen ADDR:PORT] --class DIR`: the whole app for a class over SSH (`src/serve/`).
//! It loads the class's own content per session, not the course this process would.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches};

use super::Define::Args;
use super::Runs::Alone;
use super::arg_kit::ArgKit;
use super::{Ctx, Sub};

pub(super) const SUB: Sub = Sub::new("serve", Args("serve-about", args), Alone(run));

fn args(a: &ArgKit) -> Vec<Arg> {
    // Defaults are said in the help text, in the reader's language.
    let opt = |name, value, help| a.option(name, value, help).hide_default_value(true);
    vec![
        opt("class", "DIR", "serve-opt-class")
            .required(true)
            .value_parser(clap::value_parser!(PathBuf)),
        opt("listen", "ADDR:PORT", "serve-opt-listen")
            .default_value(crate::serve::DEFAULT_LISTEN)
            .value_parser(clap::value_parser!(SocketAddr)),
        opt("max-sessions", "N", "serve-opt-max-sessions")
            .default_value("40")
            .value_parser(clap::value_parser!(u32).range(1..)),
        opt("login-timeout", "SECONDS", "serve-opt-login-timeout")
            .default_value("30")
            .value_parser(clap::value_parser!(u64).range(1..=3600)),
        opt("keep-detached", "MINUTES", "serve-opt-keep-detached")
            .default_value("10")
            .value_parser(clap::value_parser!(u64).range(0..=1440)),
        opt(
            "sessions-per-learner",
            "N",
            "serve-opt-sessions-per-learner",
        )
        .default_value("3")
        .value_parser(clap::value_parser!(u32).range(1..=40)),
        opt("max-startups", "START:RATE:FULL", "serve-opt-max-startups")
            .default_value("10:30:100")
            .value_parser(clap::value_parser!(crate::serve::admission::Startups)),
        opt("per-source-startups", "N", "serve-opt-per-source")
            .default_value("5")
            .value_parser(clap::value_parser!(usize)),
        // Its id is not its flag: ids shaped like message ids are reserved for messages.
        Arg::new("lab_memory")
            .long("lab-memory")
            .value_name("MIB")
            .help(a.t("serve-opt-lab-memory"))
            .help_heading(a.options.clone())
            .value_parser(clap::value_parser!(u64).range(1..)),
        opt("store", "URL", "serve-opt-store"),
        opt("health", "ADDR:PORT", "serve-opt-health")
            .value_parser(clap::value_parser!(SocketAddr)),
        a.flag("print-code", "serve-opt-print-code"),
        // Tests: close logged-in connections without a channel after these seconds.
        Arg::new("idle-close")
            .long("idle-close")
            .value_parser(clap::value_parser!(u64).range(1..))
            .hide(true),
        // The instructor's session runs this (the class screen on its terminal).
        Arg::new("class-view")
            .long("class-view")
            .action(ArgAction::SetTrue)
            .hide(true),
    ]
}

fn run(cx: Ctx, m: &ArgMatches) -> i32 {
    crate::serve::main(&cx.i18n, &options(m))
}

/// The parsed command line as `serve` takes it (every option with a default has one).
fn options(m: &ArgMatches) -> crate::serve::Options {
    let num = |id: &str| m.get_one::<u64>(id).copied();
    let count = |id: &str| m.get_one::<u32>(id).copied();
    crate::serve::Options {
        class: m.get_one::<PathBuf>("class").cloned().unwrap_or_default(),
        listen: *m.get_one::<SocketAddr>("listen").expect("has a default"),
        max_sessions: count("max-sessions").expect("has a default"),
        login_timeout: Duration::from_secs(num("login-timeout").expect("has a default")),
        keep_detached: Duration::from_secs(num("keep-detached").expect("has a default") * 60),
        sessions_per_learner: count("sessions-per-learner").expect("has a default"),
        startups: *m
            .get_one::<crate::serve::admission::Startups>("max-startups")
            .expect("has a default"),
        per_source_startups: *m
            .get_one::<usize>("per-source-startups")
            .expect("has a default"),
        lab_memory: num("lab_memory").map(|mib| mib << 20),
        store: m.get_one::<String>("store").cloned(),
        health: m.get_one::<SocketAddr>("health").copied(),
        print_code: m.get_flag("print-code"),
        idle_close: num("idle-close").map(Duration::from_secs),
        class_view: m.get_flag("class-view"),
    }
}
