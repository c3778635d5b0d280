//! UI strings with Fluent: `i18n/{en,ja,ko}/*.ftl`, embedded in the binary.

use std::cell::OnceCell;

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

use crate::content::tree::embedded_i18n;
use crate::content::{Localized, Msg};
use crate::lang::Lang;

pub struct I18n {
    lang: Lang,
    /// One catalogue per language, parsed the first time a string of it is asked for: the
    /// first frame needs the learner's language (and English for gaps), not all three.
    bundles: [OnceCell<FluentBundle<FluentResource>>; Lang::ALL.len()],
    /// The `--content` of this run: commands the messages suggest carry it.
    content: Option<String>,
}

/// A content text in the learner's language; an English fallback is marked so it is never a
/// silent surprise.
pub fn loc(i18n: &I18n, text: &Localized) -> String {
    let (s, used) = text.resolve(i18n.lang());
    if used == i18n.lang() {
        s.to_string()
    } else {
        format!("[{used}] {s}")
    }
}

/// A message shown outside any screen (a log, a `?` in code, an error chained by another
/// crate) reads in English; screens and commands render it in the learner's language with
/// [`I18n::msg`].
impl std::fmt::Display for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&I18n::new(Lang::En).msg(self))
    }
}

impl I18n {
    /// The catalogues from the binary; `lang` is the one in use.
    pub fn new(lang: Lang) -> Self {
        I18n {
            lang,
            bundles: Default::default(),
            content: None,
        }
    }

    /// The catalogue of `lang`, parsed on first use.
    fn bundle(&self, lang: Lang) -> &FluentBundle<FluentResource> {
        self.bundles[lang as usize].get_or_init(|| parse_bundle(lang))
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    pub fn set_lang(&mut self, lang: Lang) {
        self.lang = lang;
    }

    /// The pack in use (`--content SOURCE`), added to every `rocm-learn ...` command suggested.
    pub fn set_content(&mut self, source: Option<String>) {
        self.content = source;
    }

    /// A message without arguments.
    pub fn t(&self, id: &str) -> String {
        self.format(id, None)
    }

    /// A message with arguments: `ta("quiz-score", &[("score", 3.into()), ("total", 5.into())])`.
    pub fn ta(&self, id: &str, args: &[(&str, FluentValue)]) -> String {
        let mut fa = FluentArgs::new();
        for (k, v) in args {
            fa.set(*k, v.clone());
        }
        self.format(id, Some(&fa))
    }

    /// A diagnostic or error message from the core layers.
    pub fn msg(&self, m: &Msg) -> String {
        let mut fa = FluentArgs::new();
        for (k, v) in &m.args {
            // Whole numbers go in as numbers so plural rules apply; "0660" is a file mode, not 660.
            match v.parse::<i64>() {
                Ok(n) if !(v.len() > 1 && v.starts_with('0')) => fa.set(*k, n),
                _ => fa.set(*k, v.as_str()),
            }
        }
        self.format(m.id, Some(&fa))
    }

    /// True when the current language has this message (used by tests and `check`).
    pub fn has(&self, lang: Lang, id: &str) -> bool {
        self.bundle(lang).has_message(id)
    }

    fn format(&self, id: &str, args: Option<&FluentArgs>) -> String {
        for l in [self.lang, Lang::En] {
            let bundle = self.bundle(l);
            if let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) {
                let mut errors = Vec::new();
                let text = bundle.format_pattern(pattern, args, &mut errors);
                return match &self.content {
                    Some(source) => crate::content::pack::with_content(&text, source),
                    None => text.into_owned(),
                };
            }
        }
        // Never panic over a missing string: show its id so the gap is visible and reportable.
        id.to_string()
    }
}

/// One language's catalogue from the `.ftl` files embedded in the binary.
fn parse_bundle(lang: Lang) -> FluentBundle<FluentResource> {
    let langid: LanguageIdentifier = lang
        .code()
        .parse()
        .expect("en/ja/ko are valid language ids");
    let mut bundle = FluentBundle::new(vec![langid]);
    // Bidi isolation marks (U+2068/U+2069) draw as boxes in terminals.
    bundle.set_use_isolating(false);
    for (dir, _name, text) in embedded_i18n() {
        if dir != lang.code() {
            continue;
        }
        // A broken file is a build-time bug caught by `check` and the tests; at run time keep
        // whatever parsed rather than failing to start.
        let res = FluentResource::try_new(text.to_string()).unwrap_or_else(|(r, _)| r);
        let _ = bundle.add_resource(res);
    }
    bundle
}
