//! One word per idea: `docs/terminology.md` names, for every term the course defines, the word
//! to use in each language and the variants to avoid; `check` warns where a lesson, a quiz or a
//! glossary entry uses a variant.
//!
//! The table is Markdown so people read it as documentation; its header row names the columns:
//!
//! | Term | en | ja | ko | Avoid (en) | Avoid (ja) | Avoid (ko) |
//!
//! A cell may hold several forms separated by commas, each optionally in backticks; an empty
//! cell or "—" means none. A variant inside a preferred form (ドライバ in ドライバー) is not a use
//! of the variant.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use toml::de::{DeTable, DeValue};

use super::diag::{Diagnostics, Msg, SourceFile};
use super::model::Term;
use super::tree::{ContentTree, TERMINOLOGY as PATH};
use crate::lang::Lang;

/// One row: the preferred forms and the variants to avoid, per language (indexed by `Lang`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    pub term: String,
    pub preferred: [Vec<String>; 3],
    pub avoid: [Vec<String>; 3],
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Terminology {
    pub entries: Vec<Entry>,
}

const HEADER: [&str; 7] = [
    "term",
    "en",
    "ja",
    "ko",
    "avoid (en)",
    "avoid (ja)",
    "avoid (ko)",
];

fn cells(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix('|')?;
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    Some(inner.split('|').map(|c| c.trim().to_string()).collect())
}

fn forms(cell: &str) -> Vec<String> {
    cell.split(',')
        .map(|f| f.trim().trim_matches('`').trim())
        .filter(|f| !f.is_empty() && *f != "—" && *f != "-")
        .map(str::to_string)
        .collect()
}

/// Reads the table; problems (no table, a row with the wrong number of cells) are warnings
/// pointing at the line, and the rows that could be read are still used.
pub fn parse(file: &SourceFile, diags: &mut Diagnostics) -> Terminology {
    let mut out = Terminology::default();
    let mut in_table = false;
    let mut found = false;
    let mut offset = 0;
    for line in file.text.split_inclusive('\n') {
        let at = offset;
        offset += line.len();
        let Some(row) = cells(line) else {
            in_table = false;
            continue;
        };
        let lower: Vec<String> = row.iter().map(|c| c.to_lowercase()).collect();
        if lower.iter().map(String::as_str).eq(HEADER) {
            in_table = true;
            found = true;
            continue;
        }
        if !in_table || row.iter().all(|c| c.chars().all(|ch| "-: ".contains(ch))) {
            continue; // another table, or the |---| separator
        }
        if row.len() != HEADER.len() {
            diags.warning(
                file,
                at,
                Msg::new("content-term-bad-row")
                    .arg("count", row.len())
                    .arg("expected", HEADER.len()),
            );
            continue;
        }
        let per_lang = |from: usize| {
            [
                forms(&row[from]),
                forms(&row[from + 1]),
                forms(&row[from + 2]),
            ]
        };
        out.entries.push(Entry {
            term: row[0].trim_matches('`').to_string(),
            preferred: per_lang(1),
            avoid: per_lang(4),
        });
    }
    if !found {
        diags.warning(
            file,
            0,
            Msg::new("content-term-no-table")
                .arg("header", format!("| {} |", HEADER_TITLES.join(" | "))),
        );
    }
    out
}

const HEADER_TITLES: [&str; 7] = [
    "Term",
    "en",
    "ja",
    "ko",
    "Avoid (en)",
    "Avoid (ja)",
    "Avoid (ko)",
];

/// A use of a variant: byte range in the scanned text, the variant and the word to use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub start: usize,
    pub variant: String,
    pub preferred: String,
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Byte offsets where `needle` occurs in `hay`; ASCII letters match in any case, and a needle
/// that starts or ends with a Latin letter or digit must not be part of a longer word.
/// `lower` is `hay` with ASCII lowercased (same byte offsets), made once per text: this runs
/// for every term against every paragraph of the course at each start.
fn occurrences(hay: &str, lower: &str, needle: &str) -> Vec<(usize, usize)> {
    let n = needle.to_ascii_lowercase();
    let latin_edges = (
        needle
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric()),
        needle
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_alphanumeric()),
    );
    lower
        .match_indices(&n)
        .map(|(s, m)| (s, s + m.len()))
        .filter(|&(s, e)| {
            let before = hay[..s].chars().next_back();
            let after = hay[e..].chars().next();
            let glued_before = latin_edges.0 && before.is_some_and(is_word);
            let glued_after = latin_edges.1 && after.is_some_and(is_word);
            !(glued_before || glued_after)
        })
        .collect()
}

impl Terminology {
    /// Every variant to avoid in `text`, written in `lang`.
    pub fn scan(&self, text: &str, lang: Lang) -> Vec<Finding> {
        let l = lang as usize;
        let lower = text.to_ascii_lowercase();
        let mut out = Vec::new();
        for e in &self.entries {
            let word = e.preferred[l].first().cloned().unwrap_or_default();
            for v in &e.avoid[l] {
                for (s, _) in occurrences(text, &lower, v) {
                    out.push(Finding {
                        start: s,
                        variant: v.clone(),
                        preferred: word.clone(),
                    });
                }
            }
        }
        if out.is_empty() {
            // The usual case: no variant at all, so no preferred form needs finding.
            return out;
        }
        // A variant inside a preferred form (ドライバ in ドライバー) is not a use of it.
        let preferred: Vec<(usize, usize)> = self
            .entries
            .iter()
            .flat_map(|e| &e.preferred[l])
            .flat_map(|p| occurrences(text, &lower, p))
            .collect();
        out.retain(|f| {
            let end = f.start + f.variant.len();
            !preferred.iter().any(|&(ps, pe)| ps <= f.start && end <= pe)
        });
        out.sort_by_key(|f| f.start);
        out
    }

    /// Checks the lessons, labs, quizzes and glossary of a tree, and the words the app prints
    /// about them (its `i18n` messages: a lab's reasons live there).
    pub fn check_tree(&self, tree: &ContentTree, table_path: &str, diags: &mut Diagnostics) {
        for (path, text) in tree.under("lessons") {
            let lang = path
                .rsplit('/')
                .next()
                .and_then(|n| n.strip_suffix(".md"))
                .and_then(|c| Lang::parse(c).filter(|l| l.code() == c));
            if let Some(lang) = lang {
                let file = SourceFile::new(tree.display(path), text);
                for (start, prose) in markdown_prose(text) {
                    self.report(&file, start, prose, lang, table_path, diags);
                }
            }
        }
        // Labs (briefings, steps, hints, goals, solutions) sit beside their lessons.
        let tomls = tree
            .under("quizzes")
            .chain(tree.under("lessons"))
            .chain(tree.under("assets").filter(|(p, _)| {
                p.rsplit('/')
                    .next()
                    .is_some_and(|n| n.starts_with("glossary"))
            }))
            .filter(|(p, _)| p.ends_with(".toml"));
        for (path, text) in tomls {
            // A file that does not parse has its error from its own loader already.
            let Ok(doc) = DeTable::parse(text) else {
                continue;
            };
            let file = SourceFile::new(tree.display(path), text);
            let mut strings = Vec::new();
            localized_strings(doc.get_ref(), &mut strings);
            for (lang, start, end) in strings {
                let prose = mask_code_spans(&text[start..end]);
                self.report(&file, start, &prose, lang, table_path, diags);
            }
        }
        for (path, text) in tree.under("i18n").filter(|(p, _)| p.ends_with(".ftl")) {
            let lang = path
                .split('/')
                .nth(1)
                .and_then(|c| Lang::parse(c).filter(|l| l.code() == c));
            if let Some(lang) = lang {
                let file = SourceFile::new(tree.display(path), text);
                for (start, value) in ftl_values(text) {
                    self.report(&file, start, value, lang, table_path, diags);
                }
            }
        }
    }

    fn report(
        &self,
        file: &SourceFile,
        base: usize,
        text: &str,
        lang: Lang,
        table_path: &str,
        diags: &mut Diagnostics,
    ) {
        for f in self.scan(text, lang) {
            diags.warning(
                file,
                base + f.start,
                Msg::new("content-term-variant")
                    .arg("variant", f.variant)
                    .arg("preferred", f.preferred)
                    .arg("table", table_path),
            );
        }
    }
}

/// The prose of a Markdown file with its byte offset: code, code blocks and HTML (source
/// comments) are left out, since tool output and commands cannot follow a style guide.
fn markdown_prose(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut in_code = 0usize;
    for (ev, range) in Parser::new(text).into_offset_iter() {
        match ev {
            Event::Start(Tag::CodeBlock(_)) => in_code += 1,
            Event::End(TagEnd::CodeBlock) => in_code = in_code.saturating_sub(1),
            Event::Text(_) if in_code == 0 => out.push((range.start, &text[range])),
            _ => {}
        }
    }
    out
}

/// The value of every message line of a Fluent file (`id = value`), with its byte offset;
/// comments and ids are not prose.
fn ftl_values(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        if line.starts_with('#') || line.starts_with(char::is_whitespace) {
            continue;
        }
        if let Some(eq) = line.find(" = ") {
            out.push((start + eq + 3, line[eq + 3..].trim_end()));
        }
    }
    out
}

/// The text with every `code span` blanked out, byte for byte so offsets still match: commands
/// and tool output in quiz and glossary text are quoted as the tools spell them.
fn mask_code_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(c);
        } else if in_code {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// Every string under a key `en`, `ja` or `ko` (`why.ja = "…"`, `{ en = "…" }`), with its span.
fn localized_strings(t: &DeTable, out: &mut Vec<(Lang, usize, usize)>) {
    for (k, v) in t {
        let lang = Lang::parse(k.get_ref()).filter(|l| l.code() == k.get_ref());
        match (v.get_ref(), lang) {
            (DeValue::String(_), Some(lang)) => out.push((lang, v.span().start, v.span().end)),
            (DeValue::Table(inner), _) => localized_strings(inner, out),
            (DeValue::Array(items), _) => {
                for item in items {
                    if let DeValue::Table(inner) = item.get_ref() {
                        localized_strings(inner, out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// How many terms a tree's `docs/terminology.md` defines, when it has one (for `check` to say
/// what it held the content to).
pub fn rows(tree: &ContentTree) -> Option<usize> {
    let text = tree.get(PATH)?;
    let file = SourceFile::new(tree.display(PATH), text);
    Some(parse(&file, &mut Diagnostics::default()).entries.len())
}

/// Checks a tree against its own `docs/terminology.md` (the built-in course carries the one in
/// this repository). A pack without a table of its own is not held to the course's words.
pub fn check(tree: &ContentTree, glossary: &[Term], diags: &mut Diagnostics) {
    let Some(text) = tree.get(PATH) else {
        return;
    };
    let path = tree.display(PATH);
    let file = SourceFile::new(path.clone(), text);
    let table = parse(&file, diags);
    table.check_tree(tree, &path, diags);
    table.check_listed(glossary, &path, diags);
}

impl Terminology {
    /// Every glossary term has a row (its id in the Term column): a term without one has no
    /// words fixed for it, so nothing guards its translations.
    pub fn check_listed(&self, glossary: &[Term], table_path: &str, diags: &mut Diagnostics) {
        for t in glossary {
            if !self.entries.iter().any(|e| e.term == t.id) {
                diags.file_warning(
                    table_path,
                    Msg::new("content-term-unlisted")
                        .arg("term", &t.id)
                        .arg("name", t.name.get(Lang::En)),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: &str) -> Terminology {
        let text = format!(
            "| Term | en | ja | ko | Avoid (en) | Avoid (ja) | Avoid (ko) |\n|---|---|---|---|---|---|---|\n{rows}"
        );
        let mut d = Diagnostics::default();
        let t = parse(&SourceFile::new("t.md", text), &mut d);
        assert!(d.items.is_empty(), "{:?}", d.items);
        t
    }

    #[test]
    fn labs_and_their_reasons_are_held_to_the_table() {
        use crate::content::ContentTree;
        let tree = ContentTree::from_files([
            (
                PATH,
                "| Term | en | ja | ko | Avoid (en) | Avoid (ja) | Avoid (ko) |\n|---|---|---|---|---|---|---|\n| container | container | コンテナ | 컨테이너 | | コンテナー | |\n",
            ),
            (
                "lessons/01-x/lab-y.toml",
                "id = \"y\"\nbriefing.en = \"A container.\"\nbriefing.ja = \"コンテナーを起動します。\"\n",
            ),
            (
                "i18n/ja/lab.ftl",
                "# コンテナー in a comment is fine\nlab-why-x = コンテナーが動いていません。\n",
            ),
        ]);
        let mut d = Diagnostics::default();
        check(&tree, &[], &mut d);
        let paths: Vec<&str> = d.items.iter().map(|i| i.path.as_str()).collect();
        assert_eq!(
            paths,
            ["lessons/01-x/lab-y.toml", "i18n/ja/lab.ftl"],
            "{:?}",
            d.items
        );
        assert_eq!(d.items[1].line, 2);
    }

    #[test]
    fn a_variant_inside_the_preferred_word_is_not_reported() {
        let t = table("| driver | driver | ドライバー | 드라이버 | | ドライバ | |\n");
        assert!(t.scan("ドライバーを入れる", Lang::Ja).is_empty());
        let f = t.scan("ドライバを入れる", Lang::Ja);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].start, f[0].preferred.as_str()), (0, "ドライバー"));
    }

    #[test]
    fn english_variants_match_whole_words_in_any_case() {
        let t = table(
            "| use case | use case | ユースケース | 사용 사례 | usecase, `use-case` | | 유스케이스 |\n",
        );
        assert_eq!(t.scan("A Use-case here", Lang::En).len(), 1);
        assert!(t.scan("reuse-cases", Lang::En).is_empty());
        // Each language is held to its own column only.
        assert!(t.scan("use-case", Lang::Ja).is_empty());
    }

    #[test]
    fn code_spans_in_quiz_text_keep_their_offsets_and_are_not_prose() {
        let t = table("| driver | driver | ドライバー | 드라이버 | | ドライバ | |\n");
        let masked = mask_code_spans("`ドライバ` と ドライバ");
        assert_eq!(masked.len(), "`ドライバ` と ドライバ".len());
        let found = t.scan(&masked, Lang::Ja);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].start, "`ドライバ` と ".len());
    }

    #[test]
    fn code_and_comments_in_markdown_are_not_prose() {
        let md = "Text ドライバ\n\n```\nドライバ\n```\n\n`ドライバ` <!-- ドライバ -->\n";
        let prose: String = markdown_prose(md).into_iter().map(|(_, s)| s).collect();
        assert_eq!(prose.matches("ドライバ").count(), 1);
    }

    #[test]
    fn a_glossary_term_without_a_row_is_named() {
        use crate::content::model::{Category, Localized};
        let t = table("| driver | driver | ドライバー | 드라이버 | | ドライバ | |\n");
        let term = |id: &str| Term {
            id: id.into(),
            name: Localized::same(id),
            category: Category::Application,
            definition: Localized::same("d"),
        };
        let mut d = Diagnostics::default();
        t.check_listed(
            &[term("driver"), term("kernel-log")],
            "docs/terminology.md",
            &mut d,
        );
        assert_eq!(d.items.len(), 1, "{:?}", d.items);
        assert_eq!(d.items[0].path, "docs/terminology.md");
        assert!(format!("{:?}", d.items[0].msg).contains("kernel-log"));
    }
}
