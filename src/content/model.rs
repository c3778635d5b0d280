//! The course as data, after loading and validation.

use crate::lang::Lang;

pub use super::toml_read::Localized;

#[derive(Debug, Clone, Default)]
pub struct Course {
    pub lessons: Vec<Lesson>,
    pub quizzes: Vec<Quiz>,
    pub labs: Vec<Lab>,
    pub exams: Vec<Exam>,
    pub glossary: Vec<Term>,
    pub building: Building,
    pub matrix: SupportMatrix,
}

impl Course {
    pub fn lesson(&self, id: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|l| l.id == id)
    }

    pub fn quiz(&self, id: &str) -> Option<&Quiz> {
        self.quizzes.iter().find(|q| q.id == id)
    }

    pub fn lab(&self, id: &str) -> Option<&Lab> {
        self.labs.iter().find(|l| l.id == id)
    }

    pub fn exam(&self, id: &str) -> Option<&Exam> {
        self.exams.iter().find(|e| e.id == id)
    }

    pub fn term(&self, id: &str) -> Option<&Term> {
        self.glossary.iter().find(|t| t.id == id)
    }

    /// The building's floor at a level (5 = application ... 1 = hardware).
    pub fn floor(&self, level: u8) -> Option<&Floor> {
        self.building.floors.iter().find(|f| f.level == level)
    }
}

#[derive(Debug, Clone)]
pub struct Lesson {
    pub id: String,
    /// Folder under `lessons/`; its name sorts the lessons.
    pub dir: String,
    pub title: Localized,
    pub summary: Option<Localized>,
    /// Markdown body per language (front matter removed, NFC-normalised when first read).
    pub body: Body,
    /// Building floors this lesson is about.
    pub floors: Vec<u8>,
    /// Quiz offered at the end.
    pub quiz: Option<String>,
    /// Labs offered at the end.
    pub labs: Vec<String>,
}

impl Lesson {
    pub fn has_lang(&self, lang: Lang) -> bool {
        self.body.has(lang)
    }
}

/// A lesson's Markdown per language, kept as written and normalised to NFC the first time it is
/// read: the home screen needs a lesson's title, not its text, so starting the app does not go
/// through every lesson's pages.
#[derive(Clone, Default)]
pub struct Body {
    raw: [Option<String>; 3],
    text: std::sync::OnceLock<Localized>,
}

impl Body {
    /// Adds the page of one language, as read from its file.
    pub fn with(mut self, lang: Lang, raw: &str) -> Self {
        self.raw[lang as usize] = Some(raw.to_string());
        self.text = std::sync::OnceLock::new();
        self
    }

    /// Whether there is a page in `lang`, without reading any.
    pub fn has(&self, lang: Lang) -> bool {
        self.raw[lang as usize].is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.raw.iter().all(Option::is_none)
    }

    /// Whether the pages have been read (normalised) yet.
    #[cfg(test)]
    fn is_read(&self) -> bool {
        self.text.get().is_some()
    }
}

impl std::ops::Deref for Body {
    type Target = Localized;

    fn deref(&self) -> &Localized {
        self.text.get_or_init(|| {
            Lang::ALL.into_iter().fold(Localized::default(), |t, lang| {
                match &self.raw[lang as usize] {
                    Some(raw) => t.with(lang, raw),
                    None => t,
                }
            })
        })
    }
}

/// The same text as the normalised pages' own: a lesson's content hash formats its body.
impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

#[derive(Debug, Clone)]
pub struct Quiz {
    pub id: String,
    pub title: Localized,
    pub lesson: Option<String>,
    pub questions: Questions,
}

/// Builds a quiz's questions from its file's path and text.
pub type BuildQuestions = fn(&str, &str) -> Vec<Question>;

/// A quiz's questions. The app's start counts them (the home screen and the quiz list show how
/// many) and builds them from the quiz's file the first time they are read.
#[derive(Clone)]
pub struct Questions {
    /// How many there are, before they are built.
    count: usize,
    /// The quiz file's path and text, and how to build its questions from them.
    source: Option<(String, String, BuildQuestions)>,
    built: std::sync::OnceLock<Vec<Question>>,
}

impl Questions {
    /// `count` questions to be built from the file at `path` by `build` when first read.
    pub fn later(count: usize, path: String, text: String, build: BuildQuestions) -> Self {
        Questions {
            count,
            source: Some((path, text, build)),
            built: std::sync::OnceLock::new(),
        }
    }

    /// How many questions there are, without building them.
    pub fn len(&self) -> usize {
        self.built.get().map_or(self.count, Vec::len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the questions have been built yet.
    #[cfg(test)]
    fn is_built(&self) -> bool {
        self.built.get().is_some()
    }
}

impl From<Vec<Question>> for Questions {
    fn from(v: Vec<Question>) -> Self {
        Questions {
            count: v.len(),
            source: None,
            built: std::sync::OnceLock::from(v),
        }
    }
}

impl FromIterator<Question> for Questions {
    fn from_iter<I: IntoIterator<Item = Question>>(iter: I) -> Self {
        Questions::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl std::ops::Deref for Questions {
    type Target = Vec<Question>;

    fn deref(&self) -> &Vec<Question> {
        self.built.get_or_init(|| match &self.source {
            Some((path, text, build)) => build(path, text),
            None => Vec::new(),
        })
    }
}

impl<'a> IntoIterator for &'a Questions {
    type Item = &'a Question;
    type IntoIter = std::slice::Iter<'a, Question>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The same text as the built questions' own: a quiz's content hash formats them.
impl std::fmt::Debug for Questions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl Quiz {
    pub fn question(&self, id: &str) -> Option<&Question> {
        self.questions.iter().find(|q| q.id == id)
    }
}

#[derive(Debug, Clone)]
pub struct Question {
    pub id: String,
    pub prompt: Localized,
    /// Tool output or a config file to read before answering; shown as is, in every language.
    pub excerpt: Option<String>,
    pub options: Vec<Choice>,
    /// Index of the one correct option.
    pub answer: usize,
}

#[derive(Debug, Clone)]
pub struct Choice {
    pub text: Localized,
    /// Why this option is right, or the misconception behind it when it is wrong.
    pub why: Localized,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    Application,
    Architecture,
    OperatingSystem,
    Language,
    License,
    Device,
}

impl Category {
    pub const ALL: [Category; 6] = [
        Category::Application,
        Category::Architecture,
        Category::OperatingSystem,
        Category::Language,
        Category::License,
        Category::Device,
    ];

    /// The spelling used in content files.
    pub fn name(self) -> &'static str {
        match self {
            Category::Application => "Application",
            Category::Architecture => "Architecture",
            Category::OperatingSystem => "Operating system",
            Category::Language => "Language",
            Category::License => "License",
            Category::Device => "Device",
        }
    }

    pub fn parse(s: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == s)
    }

    /// The Fluent id of the category's display name.
    pub fn msg_id(self) -> &'static str {
        match self {
            Category::Application => "category-application",
            Category::Architecture => "category-architecture",
            Category::OperatingSystem => "category-operating-system",
            Category::Language => "category-language",
            Category::License => "category-license",
            Category::Device => "category-device",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Term {
    pub id: String,
    pub name: Localized,
    pub category: Category,
    pub definition: Localized,
}

#[derive(Debug, Clone, Default)]
pub struct Building {
    /// Top floor first: 5F, 4F, ... 1F.
    pub floors: Vec<Floor>,
    pub elevator: Elevator,
}

#[derive(Debug, Clone)]
pub struct Floor {
    pub level: u8,
    pub name: Localized,
    /// One line: what this floor does for the floors above it.
    pub role: Localized,
    pub description: Localized,
    pub lessons: Vec<String>,
    pub components: Vec<Component>,
}

#[derive(Debug, Clone)]
pub struct Component {
    pub id: String,
    pub name: Localized,
    pub description: Localized,
}

/// One request followed down the building and back up.
#[derive(Debug, Clone, Default)]
pub struct Elevator {
    pub title: Localized,
    pub steps: Vec<ElevatorStep>,
}

#[derive(Debug, Clone)]
pub struct ElevatorStep {
    pub floor: u8,
    pub text: Localized,
}

/// A hands-on lab: a briefing, the machine it starts from, and steps graded by state.
#[derive(Debug, Clone)]
pub struct Lab {
    pub id: String,
    /// The lesson folder it lives in (and teaches).
    pub lesson: Option<String>,
    pub title: Localized,
    pub briefing: Localized,
    /// The simulated machine, as the TOML of its `[machine]` table (read by the simulator).
    pub machine: String,
    /// Who logs in on it (`[machine] user`, learner by default).
    pub user: String,
    /// Extra files written into the machine before the learner logs in.
    pub files: Vec<LabFile>,
    pub steps: Vec<Step>,
    /// Shown when the learner asks for it; the `commands` also drive the solution test.
    pub solution: Localized,
    pub solution_commands: Vec<String>,
    /// How the pack offers the lab first (`way`); the learner may switch before starting.
    pub way: LabWay,
    /// What a finished lab taught, in one line (`learned`).
    pub learned: Option<Localized>,
}

/// Two ways to take a lab: the checklist names what to do (guided), or only the goals, each
/// shown once it is met, with the hints counted (challenge).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LabWay {
    #[default]
    Guided,
    Challenge,
}

impl LabWay {
    pub fn parse(s: &str) -> Option<LabWay> {
        match s {
            "guided" => Some(LabWay::Guided),
            "challenge" => Some(LabWay::Challenge),
            _ => None,
        }
    }

    pub fn other(self) -> LabWay {
        match self {
            LabWay::Guided => LabWay::Challenge,
            LabWay::Challenge => LabWay::Guided,
        }
    }
}

#[derive(Debug, Clone)]
pub struct LabFile {
    pub path: super::lab_path::LabPath,
    pub text: String,
    pub mode: u32,
}

#[derive(Debug, Clone)]
pub struct Step {
    pub id: String,
    pub title: Localized,
    pub check: Check,
    /// From a nudge to nearly the answer; shown one at a time.
    pub hints: Vec<Localized>,
    /// What the step achieves without saying how (`goal`), for the challenge way; the title
    /// stands in when there is none.
    pub goal: Option<Localized>,
}

/// A condition on the lab's state. Never the command text: any way that reaches the state passes.
/// Serde: the app hands the checks to the lab's supervisor, which evaluates them in the sandbox.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Check {
    /// /etc/group lists `user` (the machine's user unless named) in every one of `groups`, and
    /// still in every one of `keep`.
    Groups {
        user: String,
        groups: Vec<String>,
        keep: Vec<String>,
    },
    /// The login session of the shell the learner types in has these groups. `user` (the
    /// machine's user unless named) is the account whose /etc/group entry tells "log in
    /// again" from "not in the group yet", and whom the reasons name.
    SessionGroups { user: String, groups: Vec<String> },
    /// That login session can open /dev/kfd read-write (what rocminfo needs).
    KfdAccess,
    /// The live shell finds `command` on its PATH, and PATH still has each of `keep`.
    CommandOnPath { command: String, keep: Vec<String> },
    /// A new login shell would find `command` on its PATH (~/.bashrc, /etc/profile.d ...).
    LoginCommand { command: String },
    /// A kernel module is loaded now.
    ModuleLoaded { module: String },
    /// A kernel module is listed to load at boot (/etc/modules or /etc/modules-load.d/*.conf).
    ModulePersisted { module: String },
    /// A `*.rules` file in /etc/udev/rules.d gives `device` this mode.
    UdevRule { device: String, mode: u32 },
    /// The device node has this mode now (rules loaded and triggered).
    DeviceMode { device: String, mode: u32 },
    /// All of these packages are installed.
    Packages { all: Vec<String> },
    /// The headers (and extra modules) for the running kernel are installed.
    KernelHeaders,
    /// apt can install from AMD's ROCm repository: source line, signed-by key, lists fetched.
    RocmRepo,
    /// A ROCm repository is configured, and every AMD source line (rocm and amdgpu) names this
    /// node's distribution codename.
    RepoMatchesNode,
    /// A Kubernetes node carries this label.
    NodeLabel { label: String },
    /// The AMD GPU device plugin runs in the cluster.
    DevicePlugin,
    /// A pod requesting `amd.com/gpu` runs (in `namespace`).
    GpuPodRunning { namespace: String },
    /// A file in the machine contains a text (for content packs).
    FileContains {
        path: super::lab_path::LabPath,
        text: String,
    },
    /// The last container that ran rocminfo was given /dev/kfd and a render node.
    ContainerDevices,
    /// ... and its process held the host's render group.
    ContainerRenderGroup,
    /// ... and rocminfo inside it listed a GPU agent.
    ContainerGpu,
    /// New logins make only the discrete GPUs visible to ROCm programs.
    LoginGpuSelected,
    /// In a new login, the PyTorch smoke test runs a kernel on the discrete GPU.
    LoginTorchWorks,
    /// A boot from the machine's configuration now would bring amdgpu up.
    BootsWithAmdgpu,
    /// /opt/rocm leads to this release through the alternatives system, and the next ROCm
    /// package update keeps it there.
    RocmDefault { release: String },
    /// A new login's `command` is this release's.
    LoginRelease { command: String, release: String },
    /// apt can install from the amdgpu repository of the Core SDK's driver line (31.x), for
    /// this node's codename.
    CoreSdkDriverRepo,
    /// apt can install from the Core SDK repository on stable.repo.amd.com for this node's OS.
    CoreSdkRepo,
    /// The Core SDK for this node's GPU is installed and /opt/rocm leads into it.
    CoreSdkInstalled,
    /// A new login runs each of `commands` from the Core SDK, with no dead ROCm folders on PATH.
    CoreSdkLogin { commands: Vec<String> },
    /// No legacy ROCm packages, repository lines or install folders are left.
    LegacyRemoved,
    /// The script at `path` runs `new` where it ran `old`.
    ReplacedCommand {
        path: String,
        old: String,
        new: String,
    },
    /// AMD's `rocm` command has a managed runtime of ROCm `version` for `family` registered
    /// and whole, with the compiler toolchain when `toolchain`.
    ManagedRuntime {
        version: String,
        family: String,
        toolchain: bool,
    },
    /// rocm-cli's active default runtime is ROCm `version`.
    ActiveRuntime { version: String },
    /// A new login runs each of `commands` from the active managed runtime, and the learner ran
    /// that runtime's `rocm-sdk version` in their own login.
    LoginRuntime { commands: Vec<String> },
}

impl Check {
    /// The names used in scenario files, for `check` to list.
    pub const KINDS: [&'static str; 34] = [
        "groups",
        "session-groups",
        "kfd-access",
        "command-on-path",
        "login-command",
        "module-loaded",
        "module-persisted",
        "udev-rule",
        "device-mode",
        "packages",
        "kernel-headers",
        "rocm-repo",
        "repo-matches-node",
        "node-label",
        "device-plugin",
        "gpu-pod-running",
        "file-contains",
        "container-devices",
        "container-render-group",
        "container-gpu",
        "login-gpu-selected",
        "login-torch-works",
        "boots-with-amdgpu",
        "rocm-default",
        "login-release",
        "coresdk-driver-repo",
        "coresdk-repo",
        "coresdk-installed",
        "coresdk-login",
        "legacy-removed",
        "replaced-command",
        "managed-runtime",
        "active-runtime",
        "login-runtime",
    ];
}

/// Which GPUs each ROCm release supports, on which operating systems (`assets/support-matrix.toml`).
#[derive(Debug, Clone, Default)]
pub struct SupportMatrix {
    pub gpus: Vec<MatrixGpu>,
    pub oses: Vec<MatrixOs>,
    /// Oldest first.
    pub releases: Vec<Release>,
}

#[derive(Debug, Clone)]
pub struct MatrixGpu {
    pub id: String,
    pub name: String,
    pub family: String,
}

#[derive(Debug, Clone)]
pub struct MatrixOs {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone)]
pub struct Release {
    pub version: String,
    /// Operating systems every GPU of the release gets.
    pub os: Vec<String>,
    pub gpus: Vec<GpuSupport>,
}

#[derive(Debug, Clone)]
pub struct GpuSupport {
    pub id: String,
    pub status: Status,
    /// Operating systems only this GPU gets, on top of the release's.
    pub os: Vec<String>,
    pub note: Option<Localized>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Supported,
    Deprecated,
    Unsupported,
}

impl Status {
    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "supported" => Some(Status::Supported),
            "deprecated" => Some(Status::Deprecated),
            "unsupported" => Some(Status::Unsupported),
            _ => None,
        }
    }
}

/// The answer for one GPU on one OS with one release.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub status: Status,
    /// Listed for the release but not on this OS.
    pub wrong_os: bool,
    /// Not listed in the release at all.
    pub unlisted: bool,
    pub note: Option<Localized>,
}

impl SupportMatrix {
    pub fn verdict(&self, gpu: &str, os: &str, release: &str) -> Verdict {
        let unsupported = |unlisted, wrong_os, note| Verdict {
            status: Status::Unsupported,
            wrong_os,
            unlisted,
            note,
        };
        let Some(rel) = self.releases.iter().find(|r| r.version == release) else {
            return unsupported(true, false, None);
        };
        let Some(g) = rel.gpus.iter().find(|g| g.id == gpu) else {
            return unsupported(true, false, None);
        };
        if g.status == Status::Unsupported {
            return unsupported(false, false, g.note.clone());
        }
        if !rel.os.iter().chain(&g.os).any(|o| o == os) {
            return unsupported(false, true, g.note.clone());
        }
        Verdict {
            status: g.status,
            wrong_os: false,
            unlisted: false,
            note: g.note.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ContentTree, load_pack};
    use crate::lang::Lang;

    /// The home screen draws titles and counts; a start that read every lesson page or built
    /// every quiz's questions again would show up here.
    #[test]
    fn the_apps_start_leaves_pages_and_questions_for_when_they_are_shown() {
        let (course, _, _) = load_pack(&ContentTree::embedded());
        assert!(!course.lessons.is_empty() && !course.quizzes.is_empty());
        assert!(course.lessons.iter().all(|l| !l.body.is_read()));
        assert!(course.quizzes.iter().all(|q| !q.questions.is_built()));

        let lesson = &course.lessons[0];
        assert!(lesson.has_lang(Lang::Ja) && !lesson.body.is_read());
        assert!(!lesson.body.get(Lang::Ja).is_empty());
        assert!(lesson.body.is_read());

        let quiz = &course.quizzes[0];
        let counted = quiz.questions.len();
        assert!(counted > 0 && !quiz.questions.is_built());
        assert_eq!(quiz.questions.iter().count(), counted);
        assert!(quiz.questions.is_built());
    }
}

/// An exam: `questions` drawn from the quizzes `from` (a seed picks which, and their option
/// order), answered without hints or explanations until the end, within a time limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exam {
    pub id: String,
    pub title: Localized,
    /// Quiz ids whose questions make the pool.
    pub from: Vec<String>,
    /// How many questions one sitting asks (all of the pool when it has fewer).
    pub questions: usize,
    pub time_limit_secs: u64,
    /// The share of right answers that passes, in percent.
    pub pass_percent: u8,
}
