//! Reads TOML content with positions, reporting every problem instead of stopping at the first.
//!
//! serde would stop at the first unknown key or type error in a file; instructors fixing a pack
//! want the whole list, each with its line and column, so content types are read by hand from
//! toml's spanned document tree.

use toml::Spanned;
use toml::de::{DeTable, DeValue};
use unicode_normalization::UnicodeNormalization;

use super::diag::{Diagnostics, Msg, SourceFile};
use crate::lang::Lang;

/// Where diagnostics go, and the offset of the TOML text inside its file (front matter).
pub struct Cx<'a> {
    pub file: &'a SourceFile,
    pub diags: &'a mut Diagnostics,
    pub base: usize,
}

impl<'a> Cx<'a> {
    /// Reading a whole file: offsets are the file's own.
    pub fn new(file: &'a SourceFile, diags: &'a mut Diagnostics) -> Self {
        Cx {
            file,
            diags,
            base: 0,
        }
    }

    pub fn error(&mut self, offset: usize, msg: Msg) {
        self.diags.error(self.file, self.base + offset, msg);
    }

    pub fn warning(&mut self, offset: usize, msg: Msg) {
        self.diags.warning(self.file, self.base + offset, msg);
    }
}

/// Parses TOML text, reporting syntax errors (all of them, with recovery).
/// Returns `None` when the document is too broken to read further.
pub fn parse<'i>(cx: &mut Cx, text: &'i str) -> Option<Spanned<DeTable<'i>>> {
    let (doc, errors) = DeTable::parse_recoverable(text);
    let had_errors = !errors.is_empty();
    for e in errors {
        let at = e.span().map(|s| s.start).unwrap_or(0);
        cx.error(
            at,
            Msg::new("check-toml-syntax").arg("detail", e.message().trim()),
        );
    }
    // A recovered tree after syntax errors would produce confusing follow-on errors.
    (!had_errors).then_some(doc)
}

/// Text normalised to NFC: decomposed Hangul or kana from some editors would misrender.
/// Nearly all text is NFC already, and the quick check says so without rebuilding it char by
/// char (which was the larger part of loading the course).
pub fn nfc(s: &str) -> String {
    match unicode_normalization::is_nfc_quick(s.chars()) {
        unicode_normalization::IsNormalized::Yes => s.to_string(),
        _ => s.nfc().collect(),
    }
}

/// A text in up to three languages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Localized {
    texts: [Option<String>; 3],
}

impl Localized {
    /// The same text in every language (names such as "rocBLAS").
    pub fn same(s: &str) -> Self {
        let s = nfc(s);
        Localized {
            texts: [Some(s.clone()), Some(s.clone()), Some(s)],
        }
    }

    pub fn with(mut self, lang: Lang, s: &str) -> Self {
        self.texts[lang as usize] = Some(nfc(s));
        self
    }

    pub fn has(&self, lang: Lang) -> bool {
        self.texts[lang as usize].is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.texts.iter().all(Option::is_none)
    }

    /// The text in `lang`, else English, else whatever language exists, with the language used
    /// so a fallback can be shown as such.
    pub fn resolve(&self, lang: Lang) -> (&str, Lang) {
        for l in [lang, Lang::En, Lang::Ja, Lang::Ko] {
            if let Some(s) = &self.texts[l as usize] {
                return (s, l);
            }
        }
        ("", lang)
    }

    pub fn get(&self, lang: Lang) -> &str {
        self.resolve(lang).0
    }
}

/// Reads a whole TOML file with `read`, given its top table as `what` ("quiz", "building"...).
/// A file that is not TOML at all (reported) reads as `T::default()`: nothing, or `None`.
pub fn read_file<T: Default>(
    file: &SourceFile,
    diags: &mut Diagnostics,
    what: &'static str,
    read: impl FnOnce(&mut Cx, Fields) -> T,
) -> T {
    let mut cx = Cx::new(file, diags);
    let Some(doc) = parse(&mut cx, &file.text) else {
        return T::default();
    };
    read(&mut cx, Fields::new(doc.get_ref(), 0, what))
}

/// One TOML table being read: remembers which keys were asked for so the rest can be reported.
pub struct Fields<'t, 'i> {
    table: &'t DeTable<'i>,
    at: usize,
    what: &'static str,
    asked: Vec<&'static str>,
}

pub type Val<'t, 'i> = &'t Spanned<DeValue<'i>>;

impl<'t, 'i> Fields<'t, 'i> {
    /// `at` is where the table starts (missing keys are reported there); `what` names the table
    /// in messages ("quiz", "question", ...).
    pub fn new(table: &'t DeTable<'i>, at: usize, what: &'static str) -> Self {
        Fields {
            table,
            at,
            what,
            asked: Vec::new(),
        }
    }

    pub fn at(&self) -> usize {
        self.at
    }

    /// The raw value of a key (for tables handed on to another reader, like a lab's machine).
    pub fn raw(&mut self, key: &'static str) -> Option<Val<'t, 'i>> {
        self.get(key)
    }

    fn get(&mut self, key: &'static str) -> Option<Val<'t, 'i>> {
        self.asked.push(key);
        self.table.get(key)
    }

    fn missing(&self, cx: &mut Cx, key: &str) {
        cx.error(
            self.at,
            Msg::new("check-missing-key")
                .arg("key", key)
                .arg("what", self.what),
        );
    }

    fn wrong_type(cx: &mut Cx, key: &str, v: Val, expected: &'static str) {
        cx.error(
            v.span().start,
            Msg::new("check-wrong-type")
                .arg("key", key)
                .arg("expected", expected)
                .arg("found", v.get_ref().type_str()),
        );
    }

    pub fn string(&mut self, cx: &mut Cx, key: &'static str) -> Option<Spanned<String>> {
        let v = self.get(key)?;
        match v.get_ref().as_str() {
            Some(s) => Some(Spanned::new(v.span(), nfc(s))),
            None => {
                Self::wrong_type(cx, key, v, "string");
                None
            }
        }
    }

    pub fn req_string(&mut self, cx: &mut Cx, key: &'static str) -> Option<Spanned<String>> {
        let present = self.table.contains_key(key);
        let s = self.string(cx, key);
        if !present {
            self.missing(cx, key);
        }
        s
    }

    /// An identifier: lowercase ASCII letters, digits and dashes, so it works on a command line.
    pub fn req_id(&mut self, cx: &mut Cx, key: &'static str) -> Option<Spanned<String>> {
        let id = self.req_string(cx, key)?;
        if !is_valid_id(id.get_ref()) {
            cx.error(
                id.span().start,
                Msg::new("check-bad-id").arg("id", id.get_ref()),
            );
            return None;
        }
        Some(id)
    }

    pub fn bool(&mut self, cx: &mut Cx, key: &'static str) -> Option<bool> {
        let v = self.get(key)?;
        let b = v.get_ref().as_bool();
        if b.is_none() {
            Self::wrong_type(cx, key, v, "boolean");
        }
        b
    }

    pub fn int(&mut self, cx: &mut Cx, key: &'static str) -> Option<Spanned<i64>> {
        let v = self.get(key)?;
        match integer(v.get_ref()) {
            Some(n) => Some(Spanned::new(v.span(), n)),
            None => {
                Self::wrong_type(cx, key, v, "integer");
                None
            }
        }
    }

    /// The entries of an array; an absent key is an empty list, another type an error.
    fn array(
        &mut self,
        cx: &mut Cx,
        key: &'static str,
        expected: &'static str,
    ) -> &'t [Spanned<DeValue<'i>>] {
        let Some(v) = self.get(key) else {
            return &[];
        };
        match v.get_ref().as_array() {
            Some(items) => items,
            None => {
                Self::wrong_type(cx, key, v, expected);
                &[]
            }
        }
    }

    /// A list of strings (references to ids, mostly).
    pub fn str_list(&mut self, cx: &mut Cx, key: &'static str) -> Vec<Spanned<String>> {
        let mut out = Vec::new();
        for item in self.array(cx, key, "array") {
            match item.get_ref().as_str() {
                Some(s) => out.push(Spanned::new(item.span(), nfc(s))),
                None => Self::wrong_type(cx, key, item, "string"),
            }
        }
        out
    }

    /// A list of integers.
    pub fn int_list(&mut self, cx: &mut Cx, key: &'static str) -> Vec<Spanned<i64>> {
        let mut out = Vec::new();
        for item in self.array(cx, key, "array") {
            match integer(item.get_ref()) {
                Some(n) => out.push(Spanned::new(item.span(), n)),
                None => Self::wrong_type(cx, key, item, "integer"),
            }
        }
        out
    }

    /// A text in several languages: a table `{ en = "..", ja = "..", ko = ".." }`, or a plain
    /// string meaning the same in every language. Missing languages are warnings (the learner
    /// sees the English text, marked); a missing key is an error when `required`.
    pub fn localized(
        &mut self,
        cx: &mut Cx,
        key: &'static str,
        required: bool,
    ) -> Option<Spanned<Localized>> {
        let Some(v) = self.get(key) else {
            if required {
                self.missing(cx, key);
            }
            return None;
        };
        if let Some(s) = v.get_ref().as_str() {
            if s.trim().is_empty() {
                cx.error(v.span().start, Msg::new("check-empty-text").arg("key", key));
                return None;
            }
            return Some(Spanned::new(v.span(), Localized::same(s)));
        }
        let Some(t) = v.get_ref().as_table() else {
            Self::wrong_type(cx, key, v, "languages");
            return None;
        };
        let mut out = Localized::default();
        for (k, text) in t {
            let Some(lang) = Lang::parse(k.get_ref()).filter(|l| l.code() == k.get_ref()) else {
                cx.error(
                    k.span().start,
                    Msg::new("check-unknown-lang").arg("lang", k.get_ref()),
                );
                continue;
            };
            match text.get_ref().as_str() {
                Some(s) if !s.trim().is_empty() => out = out.with(lang, s),
                Some(_) => cx.error(
                    text.span().start,
                    Msg::new("check-empty-text").arg("key", format!("{key}.{lang}")),
                ),
                None => Self::wrong_type(cx, key, text, "string"),
            }
        }
        if out.is_empty() {
            // Every language was broken or absent: treat it as missing altogether.
            if required && t.is_empty() {
                cx.error(v.span().start, Msg::new("check-empty-text").arg("key", key));
            }
            return None;
        }
        for lang in Lang::ALL {
            if !out.has(lang) {
                cx.warning(
                    v.span().start,
                    Msg::new("check-missing-translation")
                        .arg("key", key)
                        .arg("lang", lang),
                );
            }
        }
        Some(Spanned::new(v.span(), out))
    }

    /// A list of texts, each a table of languages or a plain string (hints).
    pub fn localized_list(&mut self, cx: &mut Cx, key: &'static str) -> Vec<Localized> {
        let mut out = Vec::new();
        for item in self.array(cx, key, "array") {
            // Read each entry as if it were the value of `key` in a table of its own.
            let mut one = DeTable::new();
            one.insert(Spanned::new(item.span(), key.into()), item.clone());
            let mut f = Fields::new(&one, item.span().start, self.what);
            if let Some(l) = f.localized(cx, key, true) {
                out.push(l.into_inner());
            }
        }
        out
    }

    /// An array of tables (`[[questions]]`); each comes with the offset where it starts.
    pub fn tables(&mut self, cx: &mut Cx, key: &'static str) -> Vec<(usize, &'t DeTable<'i>)> {
        let mut out = Vec::new();
        for item in self.array(cx, key, "array-of-tables") {
            match item.get_ref().as_table() {
                Some(t) => out.push((item.span().start, t)),
                None => Self::wrong_type(cx, key, item, "table"),
            }
        }
        out
    }

    /// A single sub-table (`[elevator]`).
    pub fn table(&mut self, cx: &mut Cx, key: &'static str) -> Option<(usize, &'t DeTable<'i>)> {
        let v = self.get(key)?;
        match v.get_ref().as_table() {
            Some(t) => Some((v.span().start, t)),
            None => {
                Self::wrong_type(cx, key, v, "table");
                None
            }
        }
    }

    /// Reports every key that was not asked for, listing the ones that are allowed.
    pub fn finish(self, cx: &mut Cx) {
        for (k, _) in self.table {
            if !self.asked.contains(&k.get_ref().as_ref()) {
                cx.error(
                    k.span().start,
                    Msg::new("check-unknown-key")
                        .arg("key", k.get_ref())
                        .arg("what", self.what)
                        .arg("expected", self.asked.join(", ")),
                );
            }
        }
    }
}

/// An integer value as a number (`0x1F` and `0o17` too); `None` for another type or one too big.
fn integer(v: &DeValue) -> Option<i64> {
    v.as_integer()
        .and_then(|i| i64::from_str_radix(i.as_str(), i.radix()).ok())
}

pub fn is_valid_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}
