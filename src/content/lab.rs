//! Lab scenarios: `lessons/<NN-name>/lab-<id>.toml`, beside the lesson they belong to.

use toml::de::{DeTable, DeValue};

use super::diag::{Diagnostics, Msg, SourceFile};
use super::model::{Check, Lab, LabFile, Step};
use super::refs::{Kind, Refs};
use super::toml_read::{self, Cx, Fields, Localized};
use super::tree::ContentTree;

/// Lab files and the lesson folder each sits in.
pub fn files(tree: &ContentTree) -> impl Iterator<Item = (&str, &str, &str)> {
    tree.under("lessons").filter_map(|(path, text)| {
        let rest = &path["lessons/".len()..];
        let (dir, name) = rest.split_once('/')?;
        (name.starts_with("lab-") && name.ends_with(".toml") && !name.contains('/'))
            .then_some((path, dir, text))
    })
}

/// Loads every lab; `lesson_of` maps a lesson folder to its lesson id.
pub fn load_all(
    tree: &ContentTree,
    lesson_of: &dyn Fn(&str) -> Option<String>,
    diags: &mut Diagnostics,
    refs: &mut Refs,
) -> Vec<Lab> {
    let mut labs = Vec::new();
    for (path, dir, text) in files(tree) {
        let file = SourceFile::new(tree.display(path), text);
        if let Some(mut lab) = load_one(&file, diags, refs) {
            lab.lesson = lesson_of(dir);
            labs.push(lab);
        }
    }
    labs
}

fn load_one(file: &SourceFile, diags: &mut Diagnostics, refs: &mut Refs) -> Option<Lab> {
    let mut cx = Cx {
        file,
        diags,
        base: 0,
    };
    let doc = toml_read::parse(&mut cx, &file.text)?;
    let mut f = Fields::new(doc.get_ref(), 0, "lab");
    let id = f.req_id(&mut cx, "id");
    let title = f.localized(&mut cx, "title", true);
    let briefing = f.localized(&mut cx, "briefing", true);
    // The machine's user (`[machine] user`, learner by default) is whom checks name by default.
    let mut user = "learner".to_string();
    let machine = match f.raw("machine") {
        Some(v) => match v.get_ref().as_table() {
            Some(t) => {
                if let Some(u) = t.get("user").and_then(|u| u.get_ref().as_str()) {
                    user = u.to_string();
                }
                Some(table_to_toml(t))
            }
            None => {
                cx.error(
                    v.span().start,
                    Msg::new("check-wrong-type")
                        .arg("key", "machine")
                        .arg("expected", "table")
                        .arg("found", v.get_ref().type_str()),
                );
                None
            }
        },
        None => {
            cx.error(
                0,
                Msg::new("check-missing-key")
                    .arg("key", "machine")
                    .arg("what", "lab"),
            );
            None
        }
    };
    let file_tables = f.tables(&mut cx, "files");
    let step_tables = f.tables(&mut cx, "steps");
    let solution = f.table(&mut cx, "solution");
    f.finish(&mut cx);

    let mut files = Vec::new();
    for (at, t) in file_tables {
        let mut ff = Fields::new(t, at, "file");
        let path = ff.req_string(&mut cx, "path");
        let text = ff.req_string(&mut cx, "text");
        let mode = ff.string(&mut cx, "mode");
        ff.finish(&mut cx);
        let mode = match mode {
            Some(m) => match u32::from_str_radix(m.get_ref(), 8) {
                Ok(v) if v <= MAX_FILE_MODE => v,
                Ok(v) if v <= 0o7777 => {
                    cx.error(
                        m.span().start,
                        Msg::new("check-mode-special").arg("mode", m.get_ref()),
                    );
                    continue;
                }
                _ => {
                    cx.error(
                        m.span().start,
                        Msg::new("check-bad-mode").arg("mode", m.get_ref()),
                    );
                    continue;
                }
            },
            None => 0o644,
        };
        if let (Some(path), Some(text)) = (path, text) {
            let parsed = match LabPath::parse(path.get_ref()) {
                Ok(p) => p,
                Err(e) => {
                    cx.error(
                        path.span().start,
                        Msg::new(e.msg_id()).arg("path", path.get_ref()),
                    );
                    continue;
                }
            };
            files.push(LabFile {
                path: parsed,
                text: text.into_inner(),
                mode,
            });
        }
    }

    let mut steps: Vec<Step> = Vec::new();
    for (at, t) in step_tables {
        if let Some(step) = load_step(&mut cx, at, t, &user) {
            if steps.iter().any(|s| s.id == step.id) {
                cx.error(
                    at,
                    Msg::new("check-duplicate-id")
                        .arg("kind", "step")
                        .arg("id", &step.id)
                        .arg("first", file.path.as_str()),
                );
                continue;
            }
            steps.push(step);
        }
    }

    let (mut solution_text, mut commands) = (Localized::default(), Vec::new());
    match solution {
        Some((at, t)) => {
            let mut sf = Fields::new(t, at, "solution");
            solution_text = sf
                .localized(&mut cx, "text", true)
                .map(|s| s.into_inner())
                .unwrap_or_default();
            commands = sf
                .str_list(&mut cx, "commands")
                .into_iter()
                .map(|c| c.into_inner())
                .collect();
            sf.finish(&mut cx);
            if commands.is_empty() {
                cx.error(
                    at,
                    Msg::new("check-missing-key")
                        .arg("key", "commands")
                        .arg("what", "solution"),
                );
            }
        }
        None => cx.error(
            0,
            Msg::new("check-missing-key")
                .arg("key", "solution")
                .arg("what", "lab"),
        ),
    }

    let (id, title, briefing, machine) = (id?, title?, briefing?, machine?);
    if steps.is_empty() {
        cx.error(0, Msg::new("check-lab-no-steps").arg("id", id.get_ref()));
        return None;
    }
    if !refs.define(diags, Kind::Lab, id.get_ref(), file, id.span().start) {
        return None;
    }
    Some(Lab {
        id: id.into_inner(),
        lesson: None,
        title: title.into_inner(),
        briefing: briefing.into_inner(),
        machine,
        user,
        files,
        steps,
        solution: solution_text,
        solution_commands: commands,
    })
}

fn load_step(cx: &mut Cx, at: usize, t: &DeTable, user: &str) -> Option<Step> {
    let mut f = Fields::new(t, at, "step");
    let id = f.req_id(cx, "id");
    let title = f.localized(cx, "title", true);
    let hints = f.localized_list(cx, "hints");
    let kind = f.req_string(cx, "check");
    let check = kind.and_then(|k| read_check(cx, &mut f, &k, user));
    f.finish(cx);
    Some(Step {
        id: id?.into_inner(),
        title: title?.into_inner(),
        check: check?,
        hints,
    })
}

/// Reads the parameters of a check; unknown kinds list the known ones.
fn read_check(
    cx: &mut Cx,
    f: &mut Fields,
    kind: &toml::Spanned<String>,
    machine_user: &str,
) -> Option<Check> {
    let list = |cx: &mut Cx, f: &mut Fields, key: &'static str| -> Vec<String> {
        f.str_list(cx, key)
            .into_iter()
            .map(|s| s.into_inner())
            .collect()
    };
    let text = |cx: &mut Cx, f: &mut Fields, key: &'static str| -> Option<String> {
        f.req_string(cx, key).map(|s| s.into_inner())
    };
    let mode = |cx: &mut Cx, f: &mut Fields| -> Option<u32> {
        let m = f.req_string(cx, "mode")?;
        match u32::from_str_radix(m.get_ref(), 8) {
            Ok(v) if v <= 0o7777 => Some(v),
            _ => {
                cx.error(
                    m.span().start,
                    Msg::new("check-bad-mode").arg("mode", m.get_ref()),
                );
                None
            }
        }
    };
    let nonempty = |cx: &mut Cx, at: usize, key: &str, v: Vec<String>| -> Option<Vec<String>> {
        if v.is_empty() {
            cx.error(
                at,
                Msg::new("check-missing-key")
                    .arg("key", key)
                    .arg("what", "step"),
            );
            None
        } else {
            Some(v)
        }
    };
    let at = f.at();
    let user = |cx: &mut Cx, f: &mut Fields| -> String {
        f.string(cx, "user")
            .map(|s| s.into_inner())
            .unwrap_or_else(|| machine_user.to_string())
    };
    Some(match kind.get_ref().as_str() {
        "groups" => {
            let user = user(cx, f);
            let groups = list(cx, f, "groups");
            let keep = list(cx, f, "keep");
            Check::Groups {
                user,
                groups: nonempty(cx, at, "groups", groups)?,
                keep,
            }
        }
        "session-groups" => {
            let user = user(cx, f);
            let groups = list(cx, f, "groups");
            Check::SessionGroups {
                user,
                groups: nonempty(cx, at, "groups", groups)?,
            }
        }
        "kfd-access" => Check::KfdAccess,
        "command-on-path" => {
            let command = text(cx, f, "command");
            let keep = list(cx, f, "keep");
            Check::CommandOnPath {
                command: command?,
                keep,
            }
        }
        "login-command" => Check::LoginCommand {
            command: text(cx, f, "command")?,
        },
        "module-loaded" => Check::ModuleLoaded {
            module: text(cx, f, "module")?,
        },
        "module-persisted" => Check::ModulePersisted {
            module: text(cx, f, "module")?,
        },
        "udev-rule" => {
            let device = text(cx, f, "device");
            let mode = mode(cx, f);
            Check::UdevRule {
                device: device?,
                mode: mode?,
            }
        }
        "device-mode" => {
            let device = text(cx, f, "device");
            let mode = mode(cx, f);
            Check::DeviceMode {
                device: device?,
                mode: mode?,
            }
        }
        "packages" => {
            let all = list(cx, f, "all");
            Check::Packages {
                all: nonempty(cx, at, "all", all)?,
            }
        }
        "kernel-headers" => Check::KernelHeaders,
        "rocm-repo" => Check::RocmRepo,
        "repo-matches-node" => Check::RepoMatchesNode,
        "node-label" => Check::NodeLabel {
            label: text(cx, f, "label")?,
        },
        "device-plugin" => Check::DevicePlugin,
        "gpu-pod-running" => Check::GpuPodRunning {
            namespace: f
                .string(cx, "namespace")
                .map(|s| s.into_inner())
                .unwrap_or_else(|| "default".into()),
        },
        "container-devices" => Check::ContainerDevices,
        "container-render-group" => Check::ContainerRenderGroup,
        "container-gpu" => Check::ContainerGpu,
        "login-gpu-selected" => Check::LoginGpuSelected,
        "login-torch-works" => Check::LoginTorchWorks,
        "boots-with-amdgpu" => Check::BootsWithAmdgpu,
        "rocm-default" => Check::RocmDefault {
            release: text(cx, f, "release")?,
        },
        "login-release" => {
            let command = text(cx, f, "command");
            let release = text(cx, f, "release");
            Check::LoginRelease {
                command: command?,
                release: release?,
            }
        }
        "file-contains" => {
            let path = f
                .req_string(cx, "path")
                .and_then(|p| match LabPath::parse(p.get_ref()) {
                    Ok(lp) => Some(lp),
                    Err(e) => {
                        cx.error(
                            p.span().start,
                            Msg::new(e.msg_id()).arg("path", p.get_ref()),
                        );
                        None
                    }
                });
            let t = text(cx, f, "text");
            Check::FileContains {
                path: path?,
                text: t?,
            }
        }
        other => {
            cx.error(
                kind.span().start,
                Msg::new("check-unknown-check")
                    .arg("check", other)
                    .arg("expected", Check::KINDS.join(", ")),
            );
            return None;
        }
    })
}

/// Writes a parsed TOML table back as TOML text (the machine table goes to the simulator).
fn table_to_toml(t: &DeTable) -> String {
    fn value(v: &DeValue) -> toml::Value {
        match v {
            DeValue::String(s) => toml::Value::String(s.to_string()),
            DeValue::Integer(i) => {
                toml::Value::Integer(i64::from_str_radix(i.as_str(), i.radix()).unwrap_or(0))
            }
            DeValue::Float(f) => toml::Value::Float(f.as_str().parse().unwrap_or(0.0)),
            DeValue::Boolean(b) => toml::Value::Boolean(*b),
            DeValue::Datetime(d) => toml::Value::Datetime(*d),
            DeValue::Array(a) => toml::Value::Array(a.iter().map(|x| value(x.get_ref())).collect()),
            DeValue::Table(t) => toml::Value::Table(table(t)),
        }
    }
    fn table(t: &DeTable) -> toml::Table {
        t.iter()
            .map(|(k, v)| (k.get_ref().to_string(), value(v.get_ref())))
            .collect()
    }
    toml::to_string(&table(t)).unwrap_or_default()
}

/// A path inside a lab machine, as a lab file or check names it: parsed once, when the content
/// is loaded. Absolute, with no "." or ".." segment and no NUL, repeated and trailing slashes
/// folded, so that joining it under the machine's folder can never leave that folder.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct LabPath(String);

/// Why a text is not a `LabPath` (each has its own message for `check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabPathError {
    NotAbsolute,
    DotSegment,
    Nul,
}

impl LabPathError {
    pub fn msg_id(self) -> &'static str {
        match self {
            LabPathError::NotAbsolute => "check-path-not-absolute",
            LabPathError::DotSegment => "check-path-dot-segment",
            LabPathError::Nul => "check-path-nul",
        }
    }
}

impl std::fmt::Display for LabPathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LabPathError::NotAbsolute => "not an absolute path",
            LabPathError::DotSegment => "a \".\" or \"..\" segment",
            LabPathError::Nul => "a NUL character",
        })
    }
}

impl std::error::Error for LabPathError {}

impl LabPath {
    pub fn parse(s: &str) -> Result<LabPath, LabPathError> {
        if s.contains('\0') {
            return Err(LabPathError::Nul);
        }
        if !s.starts_with('/') {
            return Err(LabPathError::NotAbsolute);
        }
        let mut out = String::with_capacity(s.len());
        for seg in s.split('/').filter(|seg| !seg.is_empty()) {
            if seg == "." || seg == ".." {
                return Err(LabPathError::DotSegment);
            }
            out.push('/');
            out.push_str(seg);
        }
        if out.is_empty() {
            out.push('/');
        }
        Ok(LabPath(out))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for LabPath {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for LabPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for LabPath {
    type Error = String;
    fn try_from(s: String) -> Result<LabPath, String> {
        LabPath::parse(&s).map_err(|e| format!("{s:?}: {e}"))
    }
}

impl From<LabPath> for String {
    fn from(p: LabPath) -> String {
        p.0
    }
}

/// The largest mode a lab file may have: what a package installs, without setuid, setgid or
/// sticky bits.
pub const MAX_FILE_MODE: u32 = 0o777;

#[cfg(test)]
mod lab_path_tests {
    use super::*;

    #[test]
    fn lab_paths_are_absolute_normalised_and_cannot_climb() {
        assert_eq!(
            LabPath::parse("/etc//profile.d/").unwrap().as_str(),
            "/etc/profile.d"
        );
        assert_eq!(LabPath::parse("/").unwrap().as_str(), "/");
        assert_eq!(LabPath::parse("etc/x"), Err(LabPathError::NotAbsolute));
        assert_eq!(LabPath::parse(""), Err(LabPathError::NotAbsolute));
        assert_eq!(
            LabPath::parse("/etc/../../pwned-by-content-pack"),
            Err(LabPathError::DotSegment)
        );
        assert_eq!(LabPath::parse("/etc/./x"), Err(LabPathError::DotSegment));
        assert_eq!(LabPath::parse("/etc/x\0y"), Err(LabPathError::Nul));
        // `...` and names starting with dots are ordinary names.
        assert!(LabPath::parse("/home/learner/.bashrc").is_ok());
        assert!(LabPath::parse("/tmp/...").is_ok());
    }

    #[test]
    fn a_lab_path_from_the_wire_is_checked_again() {
        let ok: LabPath = serde_json::from_str("\"/etc/group\"").unwrap();
        assert_eq!(ok.as_str(), "/etc/group");
        assert!(serde_json::from_str::<LabPath>("\"/etc/../x\"").is_err());
    }
}
