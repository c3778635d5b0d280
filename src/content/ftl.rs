//! Checks the UI string catalogue `i18n/{en,ja,ko}/*.ftl`: every file parses, and every message
//! English has exists in Japanese and Korean (a missing UI string is an error: the learner would
//! meet an English phrase in the middle of a Japanese screen).

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast::Entry;
use fluent_syntax::parser;

use super::diag::{Diagnostics, Msg, SourceFile};
use super::tree::ContentTree;
use crate::lang::Lang;

/// Message ids defined in one `.ftl` text, and where; parse errors are reported.
pub fn message_ids(file: &SourceFile, diags: &mut Diagnostics) -> BTreeMap<String, usize> {
    let resource = match parser::parse(file.text.as_str()) {
        Ok(r) => r,
        Err((r, errors)) => {
            for e in errors {
                diags.error(
                    file,
                    e.pos.start,
                    Msg::new("check-ftl-syntax").arg("detail", &e.kind),
                );
            }
            r
        }
    };
    let mut ids = BTreeMap::new();
    for entry in resource.body {
        if let Entry::Message(m) = entry {
            // The parser does not give entry offsets; find the definition line for the message.
            let at = find_definition(&file.text, m.id.name).unwrap_or(0);
            if ids.insert(m.id.name.to_string(), at).is_some() {
                diags.error(
                    file,
                    at,
                    Msg::new("check-duplicate-id")
                        .arg("kind", "message")
                        .arg("id", m.id.name)
                        .arg("first", file.path.as_str()),
                );
            }
        }
    }
    ids
}

fn find_definition(text: &str, id: &str) -> Option<usize> {
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix(id)
            && rest.trim_start().starts_with('=')
        {
            return Some(pos);
        }
        pos += line.len();
    }
    None
}

/// One parsed `.ftl` file and the message ids it defines (with their offsets).
type Parsed = (SourceFile, BTreeMap<String, usize>);

pub fn check(tree: &ContentTree, diags: &mut Diagnostics) {
    // file name -> language -> parsed file
    let mut by_name: BTreeMap<String, BTreeMap<Lang, Parsed>> = BTreeMap::new();
    for (path, text) in tree.under("i18n") {
        let rest = &path["i18n/".len()..];
        let file = SourceFile::new(tree.display(path), text);
        let Some((code, name)) = rest.split_once('/') else {
            diags.warning(&file, 0, Msg::new("check-ftl-stray-file"));
            continue;
        };
        let Some(lang) = Lang::parse(code).filter(|l| l.code() == code) else {
            diags.warning(&file, 0, Msg::new("check-ftl-stray-file"));
            continue;
        };
        if !name.ends_with(".ftl") {
            diags.warning(&file, 0, Msg::new("check-ftl-stray-file"));
            continue;
        }
        let ids = message_ids(&file, diags);
        by_name
            .entry(name.to_string())
            .or_default()
            .insert(lang, (file, ids));
    }

    for (name, langs) in &by_name {
        let Some((en_file, en_ids)) = langs.get(&Lang::En) else {
            for (file, _) in langs.values() {
                diags.warning(file, 0, Msg::new("check-ftl-no-english").arg("name", name));
            }
            continue;
        };
        for lang in [Lang::Ja, Lang::Ko] {
            let Some((file, ids)) = langs.get(&lang) else {
                diags.error(
                    en_file,
                    0,
                    Msg::new("check-ftl-file-missing")
                        .arg("file", format!("i18n/{lang}/{name}"))
                        .arg("lang", lang),
                );
                continue;
            };
            let en_set: BTreeSet<&String> = en_ids.keys().collect();
            for (id, &at) in en_ids {
                if !ids.contains_key(id) {
                    diags.error(
                        en_file,
                        at,
                        Msg::new("check-ftl-missing-id")
                            .arg("id", id)
                            .arg("lang", lang)
                            .arg("file", &file.path),
                    );
                }
            }
            for (id, &at) in ids {
                if !en_set.contains(id) {
                    diags.warning(file, at, Msg::new("check-ftl-extra-id").arg("id", id));
                }
            }
        }
    }
}
