//! `lrs status`: sends the statements that wait for the learning record store, then says how
//! many still wait and why.

use clap::{ArgMatches, Command};

use super::Define::Whole;
use super::Runs::OnCourse;
use super::arg_kit::ArgKit;
use super::{EXIT_FAIL, EXIT_OK, Loaded, Sub};
use crate::i18n::I18n;
use crate::progress;

pub(super) const SUB: Sub = Sub::new("lrs", Whole(command), OnCourse(run));

fn command(a: &ArgKit) -> Command {
    // Made like every other command, so that `lrs --help` is the help flag it shows.
    a.sub("lrs", "cli-lrs", vec![])
        .subcommand_required(true)
        .subcommand(a.sub("status", "cli-lrs-status", vec![]))
}

/// `status` is the only subcommand, and clap requires one.
fn run(cx: Loaded, _: &ArgMatches) -> i32 {
    cmd_lrs_status(&cx.i18n)
}

/// `lrs status`: sends what waits, then says how many statements still wait and why.
fn cmd_lrs_status(i18n: &I18n) -> i32 {
    let data = match progress::base_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{}", i18n.msg(&e.0));
            return EXIT_FAIL;
        }
    };
    let cfg = crate::lrs::Config::from_env();
    let status = match &cfg {
        Some(cfg) => crate::lrs::flush(&data, cfg),
        None => crate::lrs::status(&data),
    };
    let waiting = crate::lrs::waiting(&data).len();
    let url = cfg.as_ref().map_or(String::new(), |c| c.base.clone());
    println!(
        "{}",
        i18n.ta(
            "lrs-status-waiting",
            &[("count", waiting.into()), ("url", url.as_str().into())]
        )
    );
    if cfg.is_none() {
        println!(
            "{}",
            i18n.ta("lrs-not-configured", &[("env", crate::lrs::URL_ENV.into())])
        );
    }
    let why = match status.problem.as_str() {
        "" => None,
        "credentials" => Some("lrs-problem-credentials"),
        "rejected" => Some("lrs-problem-rejected"),
        _ => Some("lrs-problem-unreachable"),
    };
    match why {
        Some(id) => {
            eprintln!(
                "{}",
                i18n.ta(
                    id,
                    &[
                        ("detail", status.detail.as_str().into()),
                        ("env", crate::lrs::AUTH_ENV.into())
                    ]
                )
            );
            EXIT_FAIL
        }
        None => EXIT_OK,
    }
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::super::parse;

    #[test]
    fn lrs_needs_its_status_subcommand() {
        assert!(parse(&["lrs", "status"]).is_ok());
        assert_eq!(
            parse(&["lrs", "--help"]).err(),
            Some(ErrorKind::DisplayHelp)
        );
        assert_eq!(
            parse(&["lrs", "status", "--help"]).err(),
            Some(ErrorKind::DisplayHelp)
        );
        assert_eq!(parse(&["lrs"]).err(), Some(ErrorKind::MissingSubcommand));
        assert_eq!(
            parse(&["lrs", "send"]).err(),
            Some(ErrorKind::InvalidSubcommand)
        );
    }
}
