//! Lessons: `lessons/<NN-name>/lesson.toml` plus one Markdown file per language.

use std::collections::BTreeMap;

use pulldown_cmark::{Event, Parser, Tag};

use super::diag::{Diagnostics, Msg, SourceFile};
use super::model::{Body, Lesson, Localized};
use super::refs::{Kind, Refs};
use super::toml_read::{self, Cx, Fields};
use super::tree::ContentTree;
use crate::lang::Lang;
use toml::Spanned;

/// The files of one lesson folder.
#[derive(Default)]
struct Folder<'a> {
    meta: Option<(&'a str, &'a str)>,
    texts: Vec<(Lang, &'a str, &'a str)>,
}

/// `links`: also check the links and emphasis inside every page (a pass over all the Markdown
/// that finds mistakes only; see `content::load_pack`).
pub fn load_all(
    tree: &ContentTree,
    links: bool,
    diags: &mut Diagnostics,
    refs: &mut Refs,
) -> Vec<Lesson> {
    let mut folders: BTreeMap<&str, Folder> = BTreeMap::new();
    for (path, text) in tree.under("lessons") {
        let rest = &path["lessons/".len()..];
        let Some((dir, name)) = rest.split_once('/') else {
            let file = SourceFile::new(tree.display(path), "");
            diags.warning(&file, 0, Msg::new("check-lesson-stray-file"));
            continue;
        };
        let folder = folders.entry(dir).or_default();
        if name == "lesson.toml" {
            folder.meta = Some((path, text));
        } else if let Some(code) = name.strip_suffix(".md") {
            match Lang::parse(code).filter(|l| l.code() == code) {
                Some(lang) => folder.texts.push((lang, path, text)),
                None => {
                    let file = SourceFile::new(tree.display(path), "");
                    diags.warning(
                        &file,
                        0,
                        Msg::new("check-lesson-bad-lang-file").arg("name", name),
                    );
                }
            }
        }
        // Other files (lab scenarios, pictures) belong to other loaders.
    }

    let mut lessons = Vec::new();
    for (dir, folder) in folders {
        if let Some(l) = load_one(tree, dir, folder, links, diags, refs) {
            lessons.push(l);
        }
    }
    lessons
}

fn load_one(
    tree: &ContentTree,
    dir: &str,
    folder: Folder,
    links: bool,
    diags: &mut Diagnostics,
    refs: &mut Refs,
) -> Option<Lesson> {
    let Some((meta_path, meta_text)) = folder.meta else {
        if !folder.texts.is_empty() {
            let path = tree.display(&format!("lessons/{dir}"));
            diags.file_error(&path, Msg::new("check-lesson-no-meta"));
        }
        return None;
    };
    let meta_file = SourceFile::new(tree.display(meta_path), meta_text);
    let meta = read_meta(&meta_file, diags)?;
    let id = meta.id?;
    if !refs.define(
        diags,
        Kind::Lesson,
        id.get_ref(),
        &meta_file,
        id.span().start,
    ) {
        return None;
    }
    if let Some(q) = &meta.quiz {
        refs.want(Kind::Quiz, q.get_ref(), &meta_file, q.span().start);
    }
    for lab in &meta.labs {
        refs.want(Kind::Lab, lab.get_ref(), &meta_file, lab.span().start);
    }

    let (title, summary, body) = read_pages(tree, folder.texts, links, diags, refs);
    if body.is_empty() {
        diags.error(
            &meta_file,
            0,
            Msg::new("check-lesson-no-text").arg("id", id.get_ref()),
        );
        return None;
    }
    warn_missing_langs(dir, &body, &meta_file, &id, diags);
    Some(Lesson {
        id: id.into_inner(),
        dir: dir.to_string(),
        title,
        summary: (!summary.is_empty()).then_some(summary),
        body,
        floors: meta.floors,
        quiz: meta.quiz.map(toml::Spanned::into_inner),
        labs: meta
            .labs
            .into_iter()
            .map(toml::Spanned::into_inner)
            .collect(),
    })
}

/// What `lesson.toml` says.
struct Meta {
    id: Option<Spanned<String>>,
    floors: Vec<u8>,
    quiz: Option<Spanned<String>>,
    labs: Vec<Spanned<String>>,
}

/// Reads `lesson.toml`; `None` when it is not TOML at all.
fn read_meta(file: &SourceFile, diags: &mut Diagnostics) -> Option<Meta> {
    toml_read::read_file(file, diags, "lesson", |cx, mut f| {
        let id = f.req_id(cx, "id");
        let floors: Vec<u8> = f
            .int_list(cx, "floors")
            .into_iter()
            .filter_map(|n| {
                if (1..=5).contains(n.get_ref()) {
                    Some(*n.get_ref() as u8)
                } else {
                    cx.error(
                        n.span().start,
                        Msg::new("check-bad-floor").arg("floor", n.get_ref()),
                    );
                    None
                }
            })
            .collect();
        let quiz = f.string(cx, "quiz");
        let labs = f.str_list(cx, "labs");
        f.finish(cx);
        Some(Meta {
            id,
            floors,
            quiz,
            labs,
        })
    })
}

/// The title, summary and body of every language's page that reads cleanly.
fn read_pages(
    tree: &ContentTree,
    texts: Vec<(Lang, &str, &str)>,
    links: bool,
    diags: &mut Diagnostics,
    refs: &mut Refs,
) -> (Localized, Localized, Body) {
    let mut title = Localized::default();
    let mut summary = Localized::default();
    let mut body = Body::default();
    for (lang, path, text) in texts {
        let file = SourceFile::new(tree.display(path), text);
        if let Some(page) = read_page(&file, links, diags, refs) {
            title = title.with(lang, &page.title);
            if let Some(s) = page.summary {
                summary = summary.with(lang, &s);
            }
            body = body.with(lang, &page.body);
        }
    }
    (title, summary, body)
}

/// A lesson without a page in some language still loads (it falls back to English): a warning.
fn warn_missing_langs(
    dir: &str,
    body: &Body,
    meta_file: &SourceFile,
    id: &Spanned<String>,
    diags: &mut Diagnostics,
) {
    for lang in Lang::ALL {
        if !body.has(lang) {
            diags.warning(
                meta_file,
                id.span().start,
                Msg::new("check-lesson-missing-lang")
                    .arg("id", id.get_ref())
                    .arg("lang", lang)
                    .arg("file", format!("lessons/{dir}/{lang}.md")),
            );
        }
    }
}

struct Page {
    title: String,
    summary: Option<String>,
    body: String,
}

/// Splits `+++` TOML front matter from the Markdown body and, with `links`, checks the body's
/// links.
fn read_page(
    file: &SourceFile,
    links: bool,
    diags: &mut Diagnostics,
    refs: &mut Refs,
) -> Option<Page> {
    let text = file.text.as_str();
    let Some(after_open) = text
        .strip_prefix("+++\n")
        .or_else(|| text.strip_prefix("+++\r\n"))
    else {
        diags.error(file, 0, Msg::new("check-no-front-matter"));
        return None;
    };
    let fm_start = text.len() - after_open.len();
    let Some(close) = find_close(after_open) else {
        diags.error(file, 0, Msg::new("check-front-matter-unclosed"));
        return None;
    };
    let fm = &after_open[..close.0];
    let body_start = fm_start + close.1;

    let mut cx = Cx {
        file,
        diags,
        base: fm_start,
    };
    let doc = toml_read::parse(&mut cx, fm)?;
    let mut f = Fields::new(doc.get_ref(), 0, "front-matter");
    let title = f.req_string(&mut cx, "title");
    let summary = f.string(&mut cx, "summary");
    f.finish(&mut cx);
    let title = title?;
    if title.get_ref().trim().is_empty() {
        cx.error(
            title.span().start,
            Msg::new("check-empty-text").arg("key", "title"),
        );
    }

    let body = &text[body_start..];
    if links {
        check_links(file, body_start, body, diags, refs);
    }
    Some(Page {
        title: title.into_inner(),
        summary: summary.map(toml::Spanned::into_inner),
        body: body.to_string(),
    })
}

/// Finds the closing `+++` line: (end of front matter, start of body) relative to `s`.
fn find_close(s: &str) -> Option<(usize, usize)> {
    let mut pos = 0;
    for line in s.split_inclusive('\n') {
        if line.trim_end() == "+++" {
            return Some((pos, pos + line.len()));
        }
        pos += line.len();
    }
    None
}

/// Records `term:`, `lesson:`, `quiz:` and `lab:` links so dangling ones are reported, and
/// warns about emphasis markers that would show as text.
fn check_links(
    file: &SourceFile,
    base: usize,
    body: &str,
    diags: &mut Diagnostics,
    refs: &mut Refs,
) {
    // `**強調。**の後` is not emphasis in CommonMark (punctuation before the closing `**`, a
    // letter after it): the asterisks would show on screen. They come as separate text events,
    // so runs of text are joined before looking.
    let mut run = String::new();
    let mut run_start = 0;
    for (event, range) in Parser::new(body).into_offset_iter() {
        if let Event::Text(t) = &event {
            if run.is_empty() {
                run_start = range.start;
            }
            run.push_str(t);
            continue;
        }
        if run.contains("**") || run.contains("__") {
            diags.warning(file, base + run_start, Msg::new("check-literal-emphasis"));
        }
        run.clear();
        if let Event::Start(Tag::Link { dest_url, .. }) = event {
            let Some((scheme, id)) = dest_url.split_once(':') else {
                continue;
            };
            match Kind::from_scheme(scheme) {
                Some(kind) if toml_read::is_valid_id(id) => {
                    refs.want(kind, id, file, base + range.start);
                }
                Some(_) => diags.error(
                    file,
                    base + range.start,
                    Msg::new("check-bad-link").arg("link", dest_url.as_ref()),
                ),
                None => {} // web links and the like
            }
        }
    }
}
