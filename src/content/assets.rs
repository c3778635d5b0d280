//! `assets/glossary.toml` (terms and their categories) and `assets/building.toml` (the five floors).

use std::collections::HashSet;

use super::diag::{Diagnostics, Msg, SourceFile};
use super::model::{
    Building, Category, Component, Elevator, ElevatorStep, Floor, GpuSupport, MatrixGpu, MatrixOs,
    Release, Status, SupportMatrix, Term,
};
use super::refs::{Kind, Refs};
use super::toml_read::{self, Cx, Fields};
use super::tree::ContentTree;

pub const GLOSSARY: &str = "assets/glossary.toml";

/// `assets/glossary.toml` and any `assets/glossary-*.toml` beside it.
pub fn glossary_files(tree: &ContentTree) -> impl Iterator<Item = (&str, &str)> {
    tree.under("assets").filter(|(p, _)| {
        let name = &p["assets/".len()..];
        name.starts_with("glossary") && name.ends_with(".toml") && !name.contains('/')
    })
}
pub const BUILDING: &str = "assets/building.toml";

pub fn load_glossary(file: &SourceFile, diags: &mut Diagnostics, refs: &mut Refs) -> Vec<Term> {
    let mut cx = Cx {
        file,
        diags,
        base: 0,
    };
    let Some(doc) = toml_read::parse(&mut cx, &file.text) else {
        return Vec::new();
    };
    let mut f = Fields::new(doc.get_ref(), 0, "glossary");
    let tables = f.tables(&mut cx, "term");
    f.finish(&mut cx);

    let mut terms = Vec::new();
    for (at, t) in tables {
        let mut tf = Fields::new(t, at, "term");
        let id = tf.req_id(&mut cx, "id");
        let name = tf.localized(&mut cx, "name", true);
        let category = tf.req_string(&mut cx, "category");
        let definition = tf.localized(&mut cx, "definition", true);
        tf.finish(&mut cx);
        let category = category.and_then(|c| {
            let parsed = Category::parse(c.get_ref());
            if parsed.is_none() {
                let names: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
                cx.error(
                    c.span().start,
                    Msg::new("check-bad-category")
                        .arg("category", c.get_ref())
                        .arg("expected", names.join(", ")),
                );
            }
            parsed
        });
        let (Some(id), Some(name), Some(category), Some(definition)) =
            (id, name, category, definition)
        else {
            continue;
        };
        if refs.define(cx.diags, Kind::Term, id.get_ref(), file, id.span().start) {
            terms.push(Term {
                id: id.into_inner(),
                name: name.into_inner(),
                category,
                definition: definition.into_inner(),
            });
        }
    }
    terms
}

pub fn load_building(file: &SourceFile, diags: &mut Diagnostics, refs: &mut Refs) -> Building {
    let mut cx = Cx {
        file,
        diags,
        base: 0,
    };
    let Some(doc) = toml_read::parse(&mut cx, &file.text) else {
        return Building::default();
    };
    let mut f = Fields::new(doc.get_ref(), 0, "building");
    let floor_tables = f.tables(&mut cx, "floor");
    let elevator = f.table(&mut cx, "elevator");
    f.finish(&mut cx);

    let mut floors: Vec<Floor> = Vec::new();
    let mut component_ids = HashSet::new();
    for (at, t) in floor_tables {
        let mut ff = Fields::new(t, at, "floor");
        let level = ff.int(&mut cx, "level");
        let name = ff.localized(&mut cx, "name", true);
        let role = ff.localized(&mut cx, "role", true);
        let description = ff.localized(&mut cx, "description", true);
        let lessons = ff.str_list(&mut cx, "lessons");
        let comp_tables = ff.tables(&mut cx, "component");
        ff.finish(&mut cx);

        let mut components = Vec::new();
        for (cat, ct) in comp_tables {
            let mut cf = Fields::new(ct, cat, "component");
            let id = cf.req_id(&mut cx, "id");
            let name = cf.localized(&mut cx, "name", true);
            let description = cf.localized(&mut cx, "description", true);
            cf.finish(&mut cx);
            let (Some(id), Some(name), Some(description)) = (id, name, description) else {
                continue;
            };
            if !component_ids.insert(id.get_ref().clone()) {
                cx.error(
                    id.span().start,
                    Msg::new("check-duplicate-id")
                        .arg("kind", "component")
                        .arg("id", id.get_ref())
                        .arg("first", file.path.as_str()),
                );
                continue;
            }
            components.push(Component {
                id: id.into_inner(),
                name: name.into_inner(),
                description: description.into_inner(),
            });
        }
        for l in &lessons {
            refs.want(Kind::Lesson, l.get_ref(), file, l.span().start);
        }

        let Some(level) = level else {
            cx.error(
                at,
                Msg::new("check-missing-key")
                    .arg("key", "level")
                    .arg("what", "floor"),
            );
            continue;
        };
        if !(1..=5).contains(level.get_ref()) {
            cx.error(
                level.span().start,
                Msg::new("check-bad-floor").arg("floor", level.get_ref()),
            );
            continue;
        }
        let lv = *level.get_ref() as u8;
        if floors.iter().any(|f| f.level == lv) {
            cx.error(
                level.span().start,
                Msg::new("check-duplicate-id")
                    .arg("kind", "floor")
                    .arg("id", lv)
                    .arg("first", file.path.as_str()),
            );
            continue;
        }
        let (Some(name), Some(role), Some(description)) = (name, role, description) else {
            continue;
        };
        floors.push(Floor {
            level: lv,
            name: name.into_inner(),
            role: role.into_inner(),
            description: description.into_inner(),
            lessons: lessons.into_iter().map(|l| l.into_inner()).collect(),
            components,
        });
    }
    for lv in 1..=5u8 {
        if !floors.iter().any(|f| f.level == lv) {
            cx.error(0, Msg::new("check-floor-missing").arg("floor", lv));
        }
    }
    floors.sort_by_key(|f| std::cmp::Reverse(f.level));

    let mut lift = Elevator::default();
    if let Some((at, t)) = elevator {
        let mut ef = Fields::new(t, at, "elevator");
        let title = ef.localized(&mut cx, "title", true);
        let steps = ef.tables(&mut cx, "step");
        ef.finish(&mut cx);
        lift.title = title.map(|t| t.into_inner()).unwrap_or_default();
        for (sat, st) in steps {
            let mut sf = Fields::new(st, sat, "elevator-step");
            let floor = sf.int(&mut cx, "floor");
            let text = sf.localized(&mut cx, "text", true);
            sf.finish(&mut cx);
            let (Some(floor), Some(text)) = (floor, text) else {
                continue;
            };
            if !(1..=5).contains(floor.get_ref()) {
                cx.error(
                    floor.span().start,
                    Msg::new("check-bad-floor").arg("floor", floor.get_ref()),
                );
                continue;
            }
            lift.steps.push(ElevatorStep {
                floor: *floor.get_ref() as u8,
                text: text.into_inner(),
            });
        }
    }
    Building {
        floors,
        elevator: lift,
    }
}

pub const MATRIX: &str = "assets/support-matrix.toml";

/// Reads the support matrix; every GPU and OS a release names must be declared.
pub fn load_matrix(file: &SourceFile, diags: &mut Diagnostics) -> SupportMatrix {
    let mut cx = Cx {
        file,
        diags,
        base: 0,
    };
    let Some(doc) = toml_read::parse(&mut cx, &file.text) else {
        return SupportMatrix::default();
    };
    let mut f = Fields::new(doc.get_ref(), 0, "support matrix");
    let gpu_tables = f.tables(&mut cx, "gpu");
    let os_tables = f.tables(&mut cx, "os");
    let rel_tables = f.tables(&mut cx, "release");
    f.finish(&mut cx);
    let mut m = SupportMatrix::default();
    for (at, t) in gpu_tables {
        let mut g = Fields::new(t, at, "gpu");
        let (id, name, family) = (
            g.req_string(&mut cx, "id"),
            g.req_string(&mut cx, "name"),
            g.string(&mut cx, "family"),
        );
        g.finish(&mut cx);
        if let (Some(id), Some(name)) = (id, name) {
            m.gpus.push(MatrixGpu {
                id: id.into_inner(),
                name: name.into_inner(),
                family: family.map(|f| f.into_inner()).unwrap_or_default(),
            });
        }
    }
    for (at, t) in os_tables {
        let mut o = Fields::new(t, at, "os");
        let (id, name) = (o.req_string(&mut cx, "id"), o.req_string(&mut cx, "name"));
        o.finish(&mut cx);
        if let (Some(id), Some(name)) = (id, name) {
            m.oses.push(MatrixOs {
                id: id.into_inner(),
                name: name.into_inner(),
            });
        }
    }
    let known_os = |cx: &mut Cx, list: &[toml::Spanned<String>], m: &SupportMatrix| {
        for o in list {
            if !m.oses.iter().any(|x| &x.id == o.get_ref()) {
                cx.error(
                    o.span().start,
                    Msg::new("check-dangling-ref")
                        .arg("kind", "os")
                        .arg("id", o.get_ref())
                        .arg(
                            "known",
                            m.oses
                                .iter()
                                .map(|x| x.id.as_str())
                                .collect::<Vec<_>>()
                                .join(", "),
                        ),
                );
            }
        }
    };
    for (at, t) in rel_tables {
        let mut r = Fields::new(t, at, "release");
        let version = r.req_string(&mut cx, "version");
        let os = r.str_list(&mut cx, "os");
        let gpu_tables = r.tables(&mut cx, "gpu");
        r.finish(&mut cx);
        known_os(&mut cx, &os, &m);
        let mut gpus = Vec::new();
        for (gat, gt) in gpu_tables {
            let mut g = Fields::new(gt, gat, "gpu");
            let id = g.req_string(&mut cx, "id");
            let status = g.req_string(&mut cx, "status");
            let gos = g.str_list(&mut cx, "os");
            let note = g.localized(&mut cx, "note", false);
            g.finish(&mut cx);
            known_os(&mut cx, &gos, &m);
            let (Some(id), Some(status)) = (id, status) else {
                continue;
            };
            if !m.gpus.iter().any(|x| &x.id == id.get_ref()) {
                cx.error(
                    id.span().start,
                    Msg::new("check-dangling-ref")
                        .arg("kind", "gpu")
                        .arg("id", id.get_ref())
                        .arg(
                            "known",
                            m.gpus
                                .iter()
                                .map(|x| x.id.as_str())
                                .collect::<Vec<_>>()
                                .join(", "),
                        ),
                );
                continue;
            }
            let Some(st) = Status::parse(status.get_ref()) else {
                cx.error(
                    status.span().start,
                    Msg::new("check-bad-status").arg("status", status.get_ref()),
                );
                continue;
            };
            gpus.push(GpuSupport {
                id: id.into_inner(),
                status: st,
                os: gos.into_iter().map(|o| o.into_inner()).collect(),
                note: note.map(|n| n.into_inner()),
            });
        }
        if let Some(v) = version {
            m.releases.push(Release {
                version: v.into_inner(),
                os: os.into_iter().map(|o| o.into_inner()).collect(),
                gpus,
            });
        }
    }
    // Oldest first, comparing versions as numbers (6.10 after 6.9).
    m.releases.sort_by_key(|r| {
        r.version
            .split('.')
            .map(|p| p.parse::<u32>().unwrap_or(0))
            .collect::<Vec<_>>()
    });
    m
}
