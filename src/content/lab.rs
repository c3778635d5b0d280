//! Lab scenarios: `lessons/<NN-name>/lab-<id>.toml`, beside the lesson they belong to.

use toml::de::{DeTable, DeValue};

use super::diag::{Diagnostics, Msg, SourceFile};
pub use super::lab_path::{LabPath, LabPathError};
use super::model::{Check, Lab, LabFile, Step};
use super::refs::{Kind, Refs};
use super::toml_read::{self, Cx, Fields, Localized, Val};
use super::tree::ContentTree;
use toml::Spanned;

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
    toml_read::read_file(file, diags, "lab", |cx, mut f| {
        let id = f.req_id(cx, "id");
        let title = f.localized(cx, "title", true);
        let briefing = f.localized(cx, "briefing", true);
        let (machine, user) = read_machine(cx, f.raw("machine"));
        let file_tables = f.tables(cx, "files");
        let step_tables = f.tables(cx, "steps");
        let solution = f.table(cx, "solution");
        let way = f.string(cx, "way");
        let learned = f.localized(cx, "learned", false);
        f.finish(cx);
        // A way check does not know is an error; the lab still loads (guided), so its id stays
        // known and nothing else is reported on its account.
        let way = match way {
            None => super::model::LabWay::Guided,
            Some(w) => super::model::LabWay::parse(w.get_ref()).unwrap_or_else(|| {
                cx.error(
                    w.span().start,
                    Msg::new("check-bad-way").arg("way", w.get_ref()),
                );
                super::model::LabWay::Guided
            }),
        };

        let files = file_tables
            .into_iter()
            .filter_map(|(at, t)| read_file(cx, at, t))
            .collect();
        let steps = read_steps(cx, step_tables, &user);
        let (solution_text, commands) = read_solution(cx, solution);

        let (id, title, briefing, machine) = (id?, title?, briefing?, machine?);
        if steps.is_empty() {
            cx.error(0, Msg::new("check-lab-no-steps").arg("id", id.get_ref()));
            return None;
        }
        if !refs.define(cx.diags, Kind::Lab, id.get_ref(), file, id.span().start) {
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
            way,
            learned: learned.map(toml::Spanned::into_inner),
        })
    })
}

/// `[machine]`: the table as TOML text for the simulator, and the machine's user (`user`,
/// `learner` by default), whom checks name when they name nobody.
fn read_machine(cx: &mut Cx, v: Option<Val>) -> (Option<String>, String) {
    let mut user = "learner".to_string();
    let Some(v) = v else {
        cx.error(
            0,
            Msg::new("check-missing-key")
                .arg("key", "machine")
                .arg("what", "lab"),
        );
        return (None, user);
    };
    let Some(t) = v.get_ref().as_table() else {
        cx.error(
            v.span().start,
            Msg::new("check-wrong-type")
                .arg("key", "machine")
                .arg("expected", "table")
                .arg("found", v.get_ref().type_str()),
        );
        return (None, user);
    };
    if let Some(u) = t.get("user").and_then(|u| u.get_ref().as_str()) {
        user = u.to_string();
    }
    (Some(table_to_toml(t)), user)
}

/// One `[[files]]` entry; `None` (after saying why) when it cannot be placed on the machine.
fn read_file(cx: &mut Cx, at: usize, t: &DeTable) -> Option<LabFile> {
    let mut ff = Fields::new(t, at, "file");
    let path = ff.req_string(cx, "path");
    let text = ff.req_string(cx, "text");
    let mode = ff.string(cx, "mode");
    ff.finish(cx);
    let mode = match mode {
        Some(m) => file_mode(cx, &m)?,
        None => 0o644,
    };
    let (path, text) = (path?, text?);
    let parsed = lab_path(cx, &path)?;
    if let Some(own) = simulator_own(&parsed) {
        cx.error(
            path.span().start,
            Msg::new("check-file-simulator-own")
                .arg("path", parsed.as_str())
                .arg("folder", own),
        );
        return None;
    }
    Some(LabFile {
        path: parsed,
        text: text.into_inner(),
        mode,
    })
}

/// Folders of the machine that belong to the simulator and the lab's supervisor (its state,
/// the kernel's view, the grading channel): no learner writes them, and no pack's file may
/// be placed there either.
pub const SIMULATOR_OWN: [&str; 2] = ["/var/lib/rocm-sim", "/run/rocm-lab"];

/// The simulator's folder `path` lies in, if any.
pub fn simulator_own(path: &LabPath) -> Option<&'static str> {
    SIMULATOR_OWN.into_iter().find(|own| {
        path.as_str() == *own
            || path
                .as_str()
                .strip_prefix(own)
                .is_some_and(|rest| rest.starts_with('/'))
    })
}

/// A lab file's octal mode: set-id and sticky bits have their own error, since a package never
/// installs them.
fn file_mode(cx: &mut Cx, m: &Spanned<String>) -> Option<u32> {
    match u32::from_str_radix(m.get_ref(), 8) {
        Ok(v) if v <= MAX_FILE_MODE => Some(v),
        Ok(v) if v <= 0o7777 => {
            cx.error(
                m.span().start,
                Msg::new("check-mode-special").arg("mode", m.get_ref()),
            );
            None
        }
        _ => {
            cx.error(
                m.span().start,
                Msg::new("check-bad-mode").arg("mode", m.get_ref()),
            );
            None
        }
    }
}

/// A path on the lab machine, or an error where it is written.
fn lab_path(cx: &mut Cx, p: &Spanned<String>) -> Option<LabPath> {
    match LabPath::parse(p.get_ref()) {
        Ok(lp) => Some(lp),
        Err(e) => {
            cx.error(
                p.span().start,
                Msg::new(e.msg_id()).arg("path", p.get_ref()),
            );
            None
        }
    }
}

/// The `[[steps]]` that read cleanly, each id once.
fn read_steps(cx: &mut Cx, tables: Vec<(usize, &DeTable)>, user: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for (at, t) in tables {
        let Some(step) = load_step(cx, at, t, user) else {
            continue;
        };
        if steps.iter().any(|s| s.id == step.id) {
            let file = cx.file;
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
    steps
}

/// `[solution]`: its text and the commands that solve the lab (both required).
fn read_solution(cx: &mut Cx, solution: Option<(usize, &DeTable)>) -> (Localized, Vec<String>) {
    let Some((at, t)) = solution else {
        cx.error(
            0,
            Msg::new("check-missing-key")
                .arg("key", "solution")
                .arg("what", "lab"),
        );
        return (Localized::default(), Vec::new());
    };
    let mut sf = Fields::new(t, at, "solution");
    let text = sf
        .localized(cx, "text", true)
        .map(toml::Spanned::into_inner)
        .unwrap_or_default();
    let commands: Vec<String> = sf
        .str_list(cx, "commands")
        .into_iter()
        .map(toml::Spanned::into_inner)
        .collect();
    sf.finish(cx);
    if commands.is_empty() {
        cx.error(
            at,
            Msg::new("check-missing-key")
                .arg("key", "commands")
                .arg("what", "solution"),
        );
    }
    (text, commands)
}

fn load_step(cx: &mut Cx, at: usize, t: &DeTable, user: &str) -> Option<Step> {
    let mut f = Fields::new(t, at, "step");
    let id = f.req_id(cx, "id");
    let title = f.localized(cx, "title", true);
    let hints = f.localized_list(cx, "hints");
    let goal = f
        .localized(cx, "goal", false)
        .map(toml::Spanned::into_inner);
    let kind = f.req_string(cx, "check");
    let check = kind.and_then(|k| read_check(cx, &mut f, &k, user));
    f.finish(cx);
    Some(Step {
        id: id?.into_inner(),
        title: title?.into_inner(),
        check: check?,
        hints,
        goal,
    })
}

/// Reads the parameters of a check; unknown kinds list the known ones.
fn read_check(
    cx: &mut Cx,
    f: &mut Fields,
    kind: &Spanned<String>,
    machine_user: &str,
) -> Option<Check> {
    if let Some(check) = check_without_params(kind.get_ref()) {
        return Some(check);
    }
    let mut p = Params {
        at: f.at(),
        cx,
        f,
        machine_user,
    };
    match kind.get_ref().as_str() {
        "groups" => p.groups(),
        "session-groups" => p.session_groups(),
        "command-on-path" => p.command_on_path(),
        "login-command" => Some(Check::LoginCommand {
            command: p.text("command")?,
        }),
        "module-loaded" => Some(Check::ModuleLoaded {
            module: p.text("module")?,
        }),
        "module-persisted" => Some(Check::ModulePersisted {
            module: p.text("module")?,
        }),
        "udev-rule" => p
            .device_and_mode()
            .map(|(device, mode)| Check::UdevRule { device, mode }),
        "device-mode" => p
            .device_and_mode()
            .map(|(device, mode)| Check::DeviceMode { device, mode }),
        "packages" => {
            let all = p.list("all");
            Some(Check::Packages {
                all: p.nonempty("all", all)?,
            })
        }
        "node-label" => Some(Check::NodeLabel {
            label: p.text("label")?,
        }),
        "gpu-pod-running" => Some(Check::GpuPodRunning {
            namespace: p.text_or("namespace", "default"),
        }),
        "rocm-default" => Some(Check::RocmDefault {
            release: p.text("release")?,
        }),
        "login-release" => p.login_release(),
        "file-contains" => p.file_contains(),
        "coresdk-login" => {
            let commands = p.list("commands");
            Some(Check::CoreSdkLogin {
                commands: p.nonempty("commands", commands)?,
            })
        }
        "replaced-command" => {
            let path = p.text("path");
            let old = p.text("old");
            let new = p.text("new");
            Some(Check::ReplacedCommand {
                path: path?,
                old: old?,
                new: new?,
            })
        }
        "managed-runtime" => {
            let version = p.text("version");
            let family = p.text("family");
            let toolchain = p.text_or("toolchain", "included");
            Some(Check::ManagedRuntime {
                version: version?,
                family: family?,
                toolchain: toolchain == "included",
            })
        }
        "active-runtime" => Some(Check::ActiveRuntime {
            version: p.text("version")?,
        }),
        "login-runtime" => {
            let commands = p.list("commands");
            Some(Check::LoginRuntime {
                commands: p.nonempty("commands", commands)?,
            })
        }
        other => {
            p.cx.error(
                kind.span().start,
                Msg::new("check-unknown-check")
                    .arg("check", other)
                    .arg("expected", Check::KINDS.join(", ")),
            );
            None
        }
    }
}

/// The checks that take no parameters.
fn check_without_params(kind: &str) -> Option<Check> {
    Some(match kind {
        "kfd-access" => Check::KfdAccess,
        "kernel-headers" => Check::KernelHeaders,
        "rocm-repo" => Check::RocmRepo,
        "repo-matches-node" => Check::RepoMatchesNode,
        "device-plugin" => Check::DevicePlugin,
        "container-devices" => Check::ContainerDevices,
        "container-render-group" => Check::ContainerRenderGroup,
        "container-gpu" => Check::ContainerGpu,
        "login-gpu-selected" => Check::LoginGpuSelected,
        "login-torch-works" => Check::LoginTorchWorks,
        "boots-with-amdgpu" => Check::BootsWithAmdgpu,
        "coresdk-driver-repo" => Check::CoreSdkDriverRepo,
        "coresdk-repo" => Check::CoreSdkRepo,
        "coresdk-installed" => Check::CoreSdkInstalled,
        "legacy-removed" => Check::LegacyRemoved,
        _ => return None,
    })
}

/// The parameters of one step's check, read from the step's table. Every parameter is read
/// (and so reported when broken) before a missing one fails the check.
struct Params<'p, 'c, 't, 'i> {
    cx: &'p mut Cx<'c>,
    f: &'p mut Fields<'t, 'i>,
    /// Where the step starts: missing parameters are reported there.
    at: usize,
    /// Whom a check names when it names nobody.
    machine_user: &'p str,
}

impl Params<'_, '_, '_, '_> {
    fn list(&mut self, key: &'static str) -> Vec<String> {
        self.f
            .str_list(self.cx, key)
            .into_iter()
            .map(toml::Spanned::into_inner)
            .collect()
    }

    fn text(&mut self, key: &'static str) -> Option<String> {
        self.f
            .req_string(self.cx, key)
            .map(toml::Spanned::into_inner)
    }

    /// An optional text, `default` when absent.
    fn text_or(&mut self, key: &'static str, default: &str) -> String {
        self.f
            .string(self.cx, key)
            .map(toml::Spanned::into_inner)
            .unwrap_or_else(|| default.into())
    }

    fn mode(&mut self) -> Option<u32> {
        let m = self.f.req_string(self.cx, "mode")?;
        match u32::from_str_radix(m.get_ref(), 8) {
            Ok(v) if v <= 0o7777 => Some(v),
            _ => {
                self.cx.error(
                    m.span().start,
                    Msg::new("check-bad-mode").arg("mode", m.get_ref()),
                );
                None
            }
        }
    }

    /// A list that must not be empty: an empty or absent one is a missing parameter.
    fn nonempty(&mut self, key: &str, v: Vec<String>) -> Option<Vec<String>> {
        if v.is_empty() {
            self.cx.error(
                self.at,
                Msg::new("check-missing-key")
                    .arg("key", key)
                    .arg("what", "step"),
            );
            None
        } else {
            Some(v)
        }
    }

    fn user(&mut self) -> String {
        let machine_user = self.machine_user;
        self.text_or("user", machine_user)
    }

    fn groups(&mut self) -> Option<Check> {
        let user = self.user();
        let groups = self.list("groups");
        let keep = self.list("keep");
        Some(Check::Groups {
            user,
            groups: self.nonempty("groups", groups)?,
            keep,
        })
    }

    fn session_groups(&mut self) -> Option<Check> {
        let user = self.user();
        let groups = self.list("groups");
        Some(Check::SessionGroups {
            user,
            groups: self.nonempty("groups", groups)?,
        })
    }

    fn command_on_path(&mut self) -> Option<Check> {
        let command = self.text("command");
        let keep = self.list("keep");
        Some(Check::CommandOnPath {
            command: command?,
            keep,
        })
    }

    fn device_and_mode(&mut self) -> Option<(String, u32)> {
        let device = self.text("device");
        let mode = self.mode();
        Some((device?, mode?))
    }

    fn login_release(&mut self) -> Option<Check> {
        let command = self.text("command");
        let release = self.text("release");
        Some(Check::LoginRelease {
            command: command?,
            release: release?,
        })
    }

    fn file_contains(&mut self) -> Option<Check> {
        let path = self
            .f
            .req_string(self.cx, "path")
            .and_then(|p| lab_path(self.cx, &p));
        let text = self.text("text");
        Some(Check::FileContains {
            path: path?,
            text: text?,
        })
    }
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

/// The largest mode a lab file may have: what a package installs, without setuid, setgid or
/// sticky bits.
pub const MAX_FILE_MODE: u32 = 0o777;

#[cfg(test)]
mod load_tests {
    use super::*;

    /// A lab around `steps` (TOML `[[steps]]` tables), with `rest` appended.
    fn lab(steps: &str, rest: &str) -> String {
        format!(
            "id = \"l\"\ntitle = \"t\"\nbriefing = \"b\"\n[machine]\nuser = \"dana\"\n\
             [solution]\ntext = \"s\"\ncommands = [\"c\"]\n{steps}{rest}"
        )
    }

    fn load(text: &str) -> (Option<Lab>, Vec<(&'static str, usize)>) {
        let file = SourceFile::new("lab-l.toml", text);
        let mut diags = Diagnostics::default();
        let lab = load_one(&file, &mut diags, &mut Refs::default());
        let ids = diags.items.iter().map(|d| (d.msg.id, d.line)).collect();
        (lab, ids)
    }

    fn step(n: usize, check: &str, params: &str) -> String {
        format!("[[steps]]\nid = \"s{n}\"\ntitle = \"t\"\ncheck = \"{check}\"\n{params}")
    }

    #[test]
    fn every_check_kind_reads_its_parameters_and_defaults() {
        let kinds = [
            ("groups", "groups = [\"render\"]\nkeep = [\"sudo\"]\n"),
            ("session-groups", "user = \"bob\"\ngroups = [\"video\"]\n"),
            ("command-on-path", "command = \"rocminfo\"\n"),
            ("login-command", "command = \"hipcc\"\n"),
            ("module-loaded", "module = \"amdgpu\"\n"),
            ("module-persisted", "module = \"amdgpu\"\n"),
            ("udev-rule", "device = \"kfd\"\nmode = \"0666\"\n"),
            ("device-mode", "device = \"kfd\"\nmode = \"660\"\n"),
            ("packages", "all = [\"rocm\"]\n"),
            ("node-label", "label = \"amd.com/gpu\"\n"),
            ("gpu-pod-running", ""),
            ("gpu-pod-running", "namespace = \"kube\"\n"),
            ("rocm-default", "release = \"6.3\"\n"),
            ("login-release", "command = \"hipcc\"\nrelease = \"6.3\"\n"),
            ("file-contains", "path = \"/etc//x/\"\ntext = \"y\"\n"),
            ("kfd-access", ""),
            ("boots-with-amdgpu", ""),
        ];
        let steps: String = kinds
            .iter()
            .enumerate()
            .map(|(n, (k, p))| step(n, k, p))
            .collect();
        let (lab, diags) = load(&lab(&steps, ""));
        assert_eq!(diags, vec![]);
        let lab = lab.expect("loads");
        assert_eq!(lab.user, "dana");
        let s = |v: &[&str]| v.iter().map(ToString::to_string).collect::<Vec<_>>();
        let checks: Vec<Check> = lab.steps.into_iter().map(|s| s.check).collect();
        assert_eq!(
            checks,
            vec![
                Check::Groups {
                    user: "dana".into(),
                    groups: s(&["render"]),
                    keep: s(&["sudo"]),
                },
                Check::SessionGroups {
                    user: "bob".into(),
                    groups: s(&["video"]),
                },
                Check::CommandOnPath {
                    command: "rocminfo".into(),
                    keep: vec![],
                },
                Check::LoginCommand {
                    command: "hipcc".into(),
                },
                Check::ModuleLoaded {
                    module: "amdgpu".into(),
                },
                Check::ModulePersisted {
                    module: "amdgpu".into(),
                },
                Check::UdevRule {
                    device: "kfd".into(),
                    mode: 0o666,
                },
                Check::DeviceMode {
                    device: "kfd".into(),
                    mode: 0o660,
                },
                Check::Packages { all: s(&["rocm"]) },
                Check::NodeLabel {
                    label: "amd.com/gpu".into(),
                },
                Check::GpuPodRunning {
                    namespace: "default".into(),
                },
                Check::GpuPodRunning {
                    namespace: "kube".into(),
                },
                Check::RocmDefault {
                    release: "6.3".into(),
                },
                Check::LoginRelease {
                    command: "hipcc".into(),
                    release: "6.3".into(),
                },
                Check::FileContains {
                    path: LabPath::parse("/etc/x").unwrap(),
                    text: "y".into(),
                },
                Check::KfdAccess,
                Check::BootsWithAmdgpu,
            ]
        );
    }

    #[test]
    fn every_broken_part_of_a_lab_is_reported_and_the_rest_still_read() {
        let steps = [
            step(1, "groups", "groups = []\n"),
            step(6, "kfd-access", ""),
            step(2, "udev-rule", "mode = \"9\"\n"),
            step(3, "login-release", ""),
            step(4, "file-contains", "path = \"x\"\n"),
            step(5, "nope", ""),
            step(6, "kfd-access", ""),
        ]
        .concat();
        let files = "[[files]]\npath = \"/a\"\ntext = \"x\"\nmode = \"4755\"\n\
                     [[files]]\npath = \"/b\"\ntext = \"x\"\nmode = \"rw\"\n\
                     [[files]]\npath = \"b\"\ntext = \"x\"\n\
                     [[files]]\npath = \"/ok\"\ntext = \"x\"\n";
        let (lab, diags) = load(&lab(&steps, files));
        assert_eq!(
            diags,
            vec![
                ("check-mode-special", 43),
                ("check-bad-mode", 47),
                ("check-path-not-absolute", 49),
                ("check-missing-key", 9),
                ("check-missing-key", 18),
                ("check-bad-mode", 22),
                ("check-missing-key", 23),
                ("check-missing-key", 23),
                ("check-path-not-absolute", 31),
                ("check-missing-key", 27),
                ("check-unknown-check", 35),
                ("check-duplicate-id", 36),
            ]
        );
        let lab = lab.expect("the good steps make a lab");
        let ids: Vec<&str> = lab.steps.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["s6"]);
        assert_eq!(lab.files.len(), 1);
        assert_eq!(lab.files[0].mode, 0o644);
    }

    #[test]
    fn a_lab_without_machine_steps_or_solution_says_so() {
        let (lab, diags) = load("id = \"l\"\ntitle = \"t\"\nbriefing = \"b\"\nmachine = 1\n");
        assert!(lab.is_none());
        assert_eq!(
            diags,
            vec![("check-wrong-type", 4), ("check-missing-key", 1)]
        );
    }
}
