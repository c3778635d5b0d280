//! `verify FILE [--issuer-jwk JWK]`: checks a credential's signature and says what it proves
//! and what it does not.

use std::path::PathBuf;

use clap::{Arg, ArgMatches};

use super::Define::Args;
use super::Runs::Alone;
use super::arg_kit::ArgKit;
use super::{Ctx, EXIT_FAIL, EXIT_OK, EXIT_USAGE, Sub};
use crate::credential::{self, Recorder};
use crate::i18n::I18n;

pub(super) const SUB: Sub = Sub::new("verify", Args("cli-verify", args), Alone(run));

fn args(a: &ArgKit) -> Vec<Arg> {
    vec![
        Arg::new("file")
            .value_name("FILE")
            .required(true)
            .value_parser(clap::value_parser!(PathBuf))
            .help(a.t("cli-verify-file"))
            .help_heading(a.arguments.clone()),
        a.option("issuer-jwk", "JWK", "cli-verify-jwk")
            .value_parser(clap::value_parser!(PathBuf)),
    ]
}

/// A file's text, at most `MAX_BYTES`; an error says which file and why.
fn read(i18n: &I18n, file: &std::path::Path) -> Result<String, i32> {
    crate::unix::files::read_capped(file, credential::MAX_BYTES)
        .and_then(|b| String::from_utf8(b).map_err(std::io::Error::other))
        .map_err(|e| {
            eprintln!(
                "{}",
                i18n.ta(
                    "credential-unreadable",
                    &[
                        ("file", file.display().to_string().into()),
                        ("error", e.to_string().into())
                    ]
                )
            );
            EXIT_USAGE
        })
}

fn run(cx: Ctx, m: &ArgMatches) -> i32 {
    let i18n = &cx.i18n;
    let file = m.get_one::<PathBuf>("file").expect("required");
    let pinned = match m.get_one::<PathBuf>("issuer-jwk") {
        None => None,
        Some(f) => {
            let text = match read(i18n, f) {
                Ok(t) => t,
                Err(code) => return code,
            };
            match serde_json::from_str(&text)
                .ok()
                .as_ref()
                .and_then(credential::key_of)
            {
                Some(k) => Some(k),
                None => {
                    eprintln!(
                        "{}",
                        i18n.ta(
                            "credential-bad-jwk",
                            &[("file", f.display().to_string().into())]
                        )
                    );
                    return EXIT_USAGE;
                }
            }
        }
    };
    let token = match read(i18n, file) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let v = match credential::verify(&token, pinned.as_ref()) {
        Ok(v) => v,
        Err(bad) => {
            println!(
                "{}",
                i18n.ta(bad.msg_id(), &[("file", file.display().to_string().into())])
            );
            return EXIT_FAIL;
        }
    };
    // The learner's name and the course come from the file: cleaned of terminal controls.
    let clean = |s: &str| crate::term_text::sanitize::text(s);
    println!(
        "{}",
        i18n.ta(
            "credential-valid",
            &[
                ("learner", clean(&v.learner).into()),
                ("course", clean(&v.course).into()),
                ("items", v.items.into()),
                ("issued", clean(&v.issued).into()),
                ("kid", v.kid.clone().into()),
            ]
        )
    );
    println!("{}", i18n.t("credential-proves"));
    let key = if pinned.is_some() {
        "credential-key-pinned"
    } else {
        "credential-key-unpinned"
    };
    println!("{}", i18n.t(key));
    // "Recorded by a server" is only worth the key that says it: unpinned, it is the file's word.
    let word = match (v.recorder, pinned.is_some()) {
        (Recorder::Server, true) => "credential-by-server",
        (Recorder::Server, false) => "credential-server-unpinned",
        (Recorder::Learner, _) => "credential-by-learner",
    };
    println!("{}", i18n.t(word));
    println!("{}", i18n.t("credential-not-proves"));
    EXIT_OK
}
