//! The three languages the course is written in.

use std::fmt;

/// A course language. The order is the fallback order for content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lang {
    En,
    Ja,
    Ko,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Ja, Lang::Ko];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
            Lang::Ko => "ko",
        }
    }

    /// Parses `en`, `ja`, `ko`, and also locale-shaped values such as `ja_JP.UTF-8` or `ko-KR`.
    pub fn parse(s: &str) -> Option<Lang> {
        let s = s.trim();
        let head: String = s
            .chars()
            .take_while(char::is_ascii_alphabetic)
            .collect::<String>()
            .to_ascii_lowercase();
        // Only a bare code or a code followed by a locale separator counts: "english" is not "en".
        let rest = &s[head.len()..];
        if !(rest.is_empty() || rest.starts_with(['_', '-', '.', '@'])) {
            return None;
        }
        match head.as_str() {
            "en" => Some(Lang::En),
            "ja" => Some(Lang::Ja),
            "ko" => Some(Lang::Ko),
            _ => None,
        }
    }

    /// The language's own name, for the language switcher.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ja => "日本語",
            Lang::Ko => "한국어",
        }
    }

    /// The next language in the cycle used by the in-app switch.
    pub fn next(self) -> Lang {
        match self {
            Lang::En => Lang::Ja,
            Lang::Ja => Lang::Ko,
            Lang::Ko => Lang::En,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Where the chosen language came from; shown by the app and useful in diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LangSource {
    Flag,
    Env,
    /// Picked with the in-app language switch last time.
    Saved,
    Locale,
    Default,
}

/// Picks the language: `--lang`, else `ROCM_LEARN_LANG`, else the language last picked in the
/// app, else the system locale, else English.
///
/// `flag` has already been validated by the argument parser. An unusable environment value is
/// skipped (the caller warns about it); an unusable locale such as `C` or `POSIX` means English.
pub fn choose(
    flag: Option<Lang>,
    env: Option<&str>,
    saved: Option<&str>,
    locale: Option<&str>,
) -> (Lang, LangSource) {
    if let Some(l) = flag {
        return (l, LangSource::Flag);
    }
    if let Some(l) = env.filter(|v| !v.trim().is_empty()).and_then(Lang::parse) {
        return (l, LangSource::Env);
    }
    if let Some(l) = saved.and_then(Lang::parse) {
        return (l, LangSource::Saved);
    }
    if let Some(l) = locale.and_then(Lang::parse) {
        return (l, LangSource::Locale);
    }
    (Lang::En, LangSource::Default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_codes_and_locales() {
        assert_eq!(Lang::parse("ja"), Some(Lang::Ja));
        assert_eq!(Lang::parse("ko-KR"), Some(Lang::Ko));
        assert_eq!(Lang::parse("ja_JP.UTF-8"), Some(Lang::Ja));
        assert_eq!(Lang::parse("EN"), Some(Lang::En));
        assert_eq!(Lang::parse("english"), None);
        assert_eq!(Lang::parse("C"), None);
        assert_eq!(Lang::parse("POSIX"), None);
        assert_eq!(Lang::parse("fr_FR.UTF-8"), None);
        assert_eq!(Lang::parse(""), None);
    }

    #[test]
    fn precedence_is_flag_env_saved_locale_default() {
        use LangSource::*;
        assert_eq!(
            choose(Some(Lang::Ko), Some("ja"), Some("en"), Some("en-US")),
            (Lang::Ko, Flag)
        );
        assert_eq!(
            choose(None, Some("ja"), Some("en"), Some("ko-KR")),
            (Lang::Ja, Env)
        );
        assert_eq!(
            choose(None, Some("klingon"), Some("en"), Some("ko-KR")),
            (Lang::En, Saved)
        );
        assert_eq!(
            choose(None, Some("klingon"), None, Some("ko-KR")),
            (Lang::Ko, Locale)
        );
        assert_eq!(
            choose(None, Some(""), None, Some("ja-JP")),
            (Lang::Ja, Locale)
        );
        assert_eq!(choose(None, None, None, Some("C")), (Lang::En, Default));
        assert_eq!(choose(None, None, None, None), (Lang::En, Default));
    }
}
