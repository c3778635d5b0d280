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
use toml::Spanned;
use toml::de::DeTable;

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
    toml_read::read_file(file, diags, "glossary", |cx, mut f| {
        let tables = f.tables(cx, "term");
        f.finish(cx);

        let mut terms = Vec::new();
        for (at, t) in tables {
            let mut tf = Fields::new(t, at, "term");
            let id = tf.req_id(cx, "id");
            let name = tf.localized(cx, "name", true);
            let category = tf.req_string(cx, "category");
            let definition = tf.localized(cx, "definition", true);
            tf.finish(cx);
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
    })
}

pub fn load_building(file: &SourceFile, diags: &mut Diagnostics, refs: &mut Refs) -> Building {
    toml_read::read_file(file, diags, "building", |cx, mut f| {
        let floor_tables = f.tables(cx, "floor");
        let elevator = f.table(cx, "elevator");
        f.finish(cx);

        let mut floors: Vec<Floor> = Vec::new();
        // Component ids are unique in the whole building, not only on their floor.
        let mut component_ids = HashSet::new();
        for (at, t) in floor_tables {
            if let Some(floor) = read_floor(cx, at, t, &floors, &mut component_ids, refs) {
                floors.push(floor);
            }
        }
        for lv in 1..=5u8 {
            if !floors.iter().any(|f| f.level == lv) {
                cx.error(0, Msg::new("check-floor-missing").arg("floor", lv));
            }
        }
        floors.sort_by_key(|f| std::cmp::Reverse(f.level));
        Building {
            floors,
            elevator: elevator
                .map(|(at, t)| read_elevator(cx, at, t))
                .unwrap_or_default(),
        }
    })
}

/// One `[[floor]]`: its components and lesson references are read (and checked) even when
/// the floor itself is then left out for a bad or taken level.
fn read_floor(
    cx: &mut Cx,
    at: usize,
    t: &DeTable,
    floors: &[Floor],
    component_ids: &mut HashSet<String>,
    refs: &mut Refs,
) -> Option<Floor> {
    let mut ff = Fields::new(t, at, "floor");
    let level = ff.int(cx, "level");
    let name = ff.localized(cx, "name", true);
    let role = ff.localized(cx, "role", true);
    let description = ff.localized(cx, "description", true);
    let lessons = ff.str_list(cx, "lessons");
    let comp_tables = ff.tables(cx, "component");
    ff.finish(cx);

    let components = comp_tables
        .into_iter()
        .filter_map(|(cat, ct)| read_component(cx, cat, ct, component_ids))
        .collect();
    for l in &lessons {
        refs.want(Kind::Lesson, l.get_ref(), cx.file, l.span().start);
    }
    let level = floor_level(cx, at, level, floors)?;
    let (name, role, description) = (name?, role?, description?);
    Some(Floor {
        level,
        name: name.into_inner(),
        role: role.into_inner(),
        description: description.into_inner(),
        lessons: lessons.into_iter().map(toml::Spanned::into_inner).collect(),
        components,
    })
}

/// A floor's level: given, 1 to 5, and not taken by a floor read before.
fn floor_level(
    cx: &mut Cx,
    at: usize,
    level: Option<Spanned<i64>>,
    floors: &[Floor],
) -> Option<u8> {
    let Some(level) = level else {
        cx.error(
            at,
            Msg::new("check-missing-key")
                .arg("key", "level")
                .arg("what", "floor"),
        );
        return None;
    };
    if !(1..=5).contains(level.get_ref()) {
        cx.error(
            level.span().start,
            Msg::new("check-bad-floor").arg("floor", level.get_ref()),
        );
        return None;
    }
    let lv = *level.get_ref() as u8;
    if floors.iter().any(|f| f.level == lv) {
        let file = cx.file;
        cx.error(
            level.span().start,
            Msg::new("check-duplicate-id")
                .arg("kind", "floor")
                .arg("id", lv)
                .arg("first", file.path.as_str()),
        );
        return None;
    }
    Some(lv)
}

/// One `[[floor.component]]`, its id not used by another component.
fn read_component(
    cx: &mut Cx,
    at: usize,
    t: &DeTable,
    ids: &mut HashSet<String>,
) -> Option<Component> {
    let mut cf = Fields::new(t, at, "component");
    let id = cf.req_id(cx, "id");
    let name = cf.localized(cx, "name", true);
    let description = cf.localized(cx, "description", true);
    cf.finish(cx);
    let (id, name, description) = (id?, name?, description?);
    if !ids.insert(id.get_ref().clone()) {
        let file = cx.file;
        cx.error(
            id.span().start,
            Msg::new("check-duplicate-id")
                .arg("kind", "component")
                .arg("id", id.get_ref())
                .arg("first", file.path.as_str()),
        );
        return None;
    }
    Some(Component {
        id: id.into_inner(),
        name: name.into_inner(),
        description: description.into_inner(),
    })
}

/// `[elevator]`: the ride's title and its stops; a stop on no floor is left out.
fn read_elevator(cx: &mut Cx, at: usize, t: &DeTable) -> Elevator {
    let mut ef = Fields::new(t, at, "elevator");
    let title = ef.localized(cx, "title", true);
    let steps = ef.tables(cx, "step");
    ef.finish(cx);
    let mut lift = Elevator {
        title: title.map(toml::Spanned::into_inner).unwrap_or_default(),
        ..Elevator::default()
    };
    for (sat, st) in steps {
        let mut sf = Fields::new(st, sat, "elevator-step");
        let floor = sf.int(cx, "floor");
        let text = sf.localized(cx, "text", true);
        sf.finish(cx);
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
    lift
}

pub const MATRIX: &str = "assets/support-matrix.toml";

/// Reads the support matrix; every GPU and OS a release names must be declared.
pub fn load_matrix(file: &SourceFile, diags: &mut Diagnostics) -> SupportMatrix {
    toml_read::read_file(file, diags, "support matrix", |cx, mut f| {
        let gpu_tables = f.tables(cx, "gpu");
        let os_tables = f.tables(cx, "os");
        let rel_tables = f.tables(cx, "release");
        f.finish(cx);
        let mut m = SupportMatrix::default();
        for (at, t) in gpu_tables {
            m.gpus.extend(read_gpu(cx, at, t));
        }
        for (at, t) in os_tables {
            m.oses.extend(read_os(cx, at, t));
        }
        for (at, t) in rel_tables {
            let release = read_release(cx, at, t, &m);
            m.releases.extend(release);
        }
        // Oldest first, comparing versions as numbers (6.10 after 6.9).
        m.releases.sort_by_key(|r| {
            r.version
                .split('.')
                .map(|p| p.parse::<u32>().unwrap_or(0))
                .collect::<Vec<_>>()
        });
        m
    })
}

fn read_gpu(cx: &mut Cx, at: usize, t: &DeTable) -> Option<MatrixGpu> {
    let mut g = Fields::new(t, at, "gpu");
    let (id, name, family) = (
        g.req_string(cx, "id"),
        g.req_string(cx, "name"),
        g.string(cx, "family"),
    );
    g.finish(cx);
    Some(MatrixGpu {
        id: id?.into_inner(),
        name: name?.into_inner(),
        family: family.map(toml::Spanned::into_inner).unwrap_or_default(),
    })
}

fn read_os(cx: &mut Cx, at: usize, t: &DeTable) -> Option<MatrixOs> {
    let mut o = Fields::new(t, at, "os");
    let (id, name) = (o.req_string(cx, "id"), o.req_string(cx, "name"));
    o.finish(cx);
    Some(MatrixOs {
        id: id?.into_inner(),
        name: name?.into_inner(),
    })
}

/// One `[[release]]`, checked against the GPUs and operating systems declared; the release is
/// kept (with the GPUs that read cleanly) whenever it has a version.
fn read_release(cx: &mut Cx, at: usize, t: &DeTable, m: &SupportMatrix) -> Option<Release> {
    let mut r = Fields::new(t, at, "release");
    let version = r.req_string(cx, "version");
    let os = r.str_list(cx, "os");
    let gpu_tables = r.tables(cx, "gpu");
    r.finish(cx);
    known_os(cx, &os, m);
    let gpus = gpu_tables
        .into_iter()
        .filter_map(|(gat, gt)| read_release_gpu(cx, gat, gt, m))
        .collect();
    Some(Release {
        version: version?.into_inner(),
        os: os.into_iter().map(toml::Spanned::into_inner).collect(),
        gpus,
    })
}

/// One `[[release.gpu]]`: a declared GPU with a known status.
fn read_release_gpu(cx: &mut Cx, at: usize, t: &DeTable, m: &SupportMatrix) -> Option<GpuSupport> {
    let mut g = Fields::new(t, at, "gpu");
    let id = g.req_string(cx, "id");
    let status = g.req_string(cx, "status");
    let gos = g.str_list(cx, "os");
    let note = g.localized(cx, "note", false);
    g.finish(cx);
    known_os(cx, &gos, m);
    let (id, status) = (id?, status?);
    if !m.gpus.iter().any(|x| &x.id == id.get_ref()) {
        let known: Vec<&str> = m.gpus.iter().map(|x| x.id.as_str()).collect();
        dangling(cx, &id, "gpu", &known);
        return None;
    }
    let Some(st) = Status::parse(status.get_ref()) else {
        cx.error(
            status.span().start,
            Msg::new("check-bad-status").arg("status", status.get_ref()),
        );
        return None;
    };
    Some(GpuSupport {
        id: id.into_inner(),
        status: st,
        os: gos.into_iter().map(toml::Spanned::into_inner).collect(),
        note: note.map(toml::Spanned::into_inner),
    })
}

/// Reports each operating system in `list` that the matrix does not declare.
fn known_os(cx: &mut Cx, list: &[Spanned<String>], m: &SupportMatrix) {
    let known: Vec<&str> = m.oses.iter().map(|x| x.id.as_str()).collect();
    for o in list {
        if !known.contains(&o.get_ref().as_str()) {
            dangling(cx, o, "os", &known);
        }
    }
}

/// An id of `kind` that names nothing declared, with the ones that are.
fn dangling(cx: &mut Cx, id: &Spanned<String>, kind: &str, known: &[&str]) {
    cx.error(
        id.span().start,
        Msg::new("check-dangling-ref")
            .arg("kind", kind)
            .arg("id", id.get_ref())
            .arg("known", known.join(", ")),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(diags: &Diagnostics) -> Vec<(&'static str, usize)> {
        diags.items.iter().map(|d| (d.msg.id, d.line)).collect()
    }

    const FLOORS: &str = r#"[[floor]]
level = 5
name = "A"
role = "r"
description = "d"
lessons = ["l1"]
  [[floor.component]]
  id = "c1"
  name = "C"
  description = "d"
[[floor]]
level = 4
name = "B"
role = "r"
description = "d"
  [[floor.component]]
  id = "c1"
  name = "C again"
  description = "d"
[[floor]]
level = 4
name = "Taken"
role = "r"
description = "d"
[[floor]]
level = 9
name = "Nine"
role = "r"
description = "d"
[[floor]]
name = "No level"
role = "r"
description = "d"
[[floor]]
level = 1
name = "GPU"
role = "r"
[elevator]
title = "Ride"
  [[elevator.step]]
  floor = 4
  text = "down"
  [[elevator.step]]
  floor = 0
  text = "nowhere"
"#;

    #[test]
    fn a_building_keeps_the_floors_that_read_cleanly_and_names_the_rest() {
        let file = SourceFile::new("assets/building.toml", FLOORS);
        let mut diags = Diagnostics::default();
        let mut refs = Refs::default();
        let b = load_building(&file, &mut diags, &mut refs);
        assert_eq!(
            ids(&diags),
            vec![
                ("check-duplicate-id", 17),
                ("check-duplicate-id", 21),
                ("check-bad-floor", 26),
                ("check-missing-key", 30),
                ("check-missing-key", 34),
                ("check-floor-missing", 1),
                ("check-floor-missing", 1),
                ("check-floor-missing", 1),
                ("check-bad-floor", 44),
            ]
        );
        let levels: Vec<u8> = b.floors.iter().map(|f| f.level).collect();
        assert_eq!(levels, [5, 4]);
        assert_eq!(b.floors[0].components.len(), 1);
        assert!(b.floors[1].components.is_empty());
        assert_eq!(b.floors[0].lessons, ["l1"]);
        let stops: Vec<u8> = b.elevator.steps.iter().map(|s| s.floor).collect();
        assert_eq!(stops, [4]);
    }

    const MATRIX_TOML: &str = r#"[[gpu]]
id = "g1"
name = "G one"
[[gpu]]
id = "g2"
[[os]]
id = "u1"
name = "Ubuntu"
[[release]]
version = "6.10"
os = ["u1", "zz"]
  [[release.gpu]]
  id = "g1"
  status = "supported"
  os = ["qq"]
  [[release.gpu]]
  id = "gX"
  status = "supported"
  [[release.gpu]]
  id = "g1"
  status = "weird"
[[release]]
version = "6.9"
  [[release.gpu]]
  id = "g1"
  status = "deprecated"
[[release]]
os = ["u1"]
"#;

    #[test]
    fn a_matrix_names_what_releases_refer_to_and_sorts_them_as_numbers() {
        let file = SourceFile::new("assets/support-matrix.toml", MATRIX_TOML);
        let mut diags = Diagnostics::default();
        let m = load_matrix(&file, &mut diags);
        assert_eq!(
            ids(&diags),
            vec![
                ("check-missing-key", 4),
                ("check-dangling-ref", 11),
                ("check-dangling-ref", 15),
                ("check-dangling-ref", 17),
                ("check-bad-status", 21),
                ("check-missing-key", 27),
            ]
        );
        assert_eq!(m.gpus.len(), 1);
        let versions: Vec<&str> = m.releases.iter().map(|r| r.version.as_str()).collect();
        assert_eq!(versions, ["6.9", "6.10"]);
        assert_eq!(m.releases[1].gpus.len(), 1);
        assert_eq!(m.releases[1].os, ["u1", "zz"]);
    }
}
