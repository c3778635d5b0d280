//! The learner's language, picked before clap runs so that help and errors are in it.

use std::ffi::OsString;

use crate::lang::{self, Lang};
use crate::progress;

/// `--lang`, else ROCM_LEARN_LANG, else the language picked in the app, else the locale's; also
/// a ROCM_LEARN_LANG that names no language (and was not overridden), to be said.
pub(super) fn choose_lang(
    args: &[OsString],
    settings: &progress::Settings,
) -> (Lang, Option<String>) {
    let env_lang = std::env::var("ROCM_LEARN_LANG").ok();
    let locale = sys_locale::get_locale();
    let flag = prescan_lang(args);
    let saved = settings.lang.map(Lang::code);
    let (lang, _) = lang::choose(flag, env_lang.as_deref(), saved, locale.as_deref());
    let bad =
        env_lang.filter(|v| !v.trim().is_empty() && Lang::parse(v).is_none() && flag.is_none());
    (lang, bad)
}

/// Finds `--lang X` / `--lang=X` before clap runs, so help and errors use that language.
pub(super) fn prescan_lang(args: &[OsString]) -> Option<Lang> {
    let mut it = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        if a == "--lang" {
            return it
                .next()
                .and_then(|v| Lang::parse(&v).filter(|l| l.code() == v));
        }
        if let Some(v) = a.strip_prefix("--lang=") {
            return Lang::parse(v).filter(|l| l.code() == v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<OsString> {
        std::iter::once("rocm-learn")
            .chain(v.iter().copied())
            .map(OsString::from)
            .collect()
    }

    #[test]
    fn the_language_flag_is_found_before_clap_in_both_spellings() {
        assert_eq!(
            prescan_lang(&args(&["list", "--lang", "ja"])),
            Some(Lang::Ja)
        );
        assert_eq!(
            prescan_lang(&args(&["--lang=ko", "quiz", "q"])),
            Some(Lang::Ko)
        );
        // Only the exact codes clap accepts; after `--` it is an argument, not a flag.
        assert_eq!(prescan_lang(&args(&["--lang", "JA"])), None);
        assert_eq!(prescan_lang(&args(&["--", "--lang", "ja"])), None);
        assert_eq!(prescan_lang(&args(&["--lang"])), None);
    }
}
