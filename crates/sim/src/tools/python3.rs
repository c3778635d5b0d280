//! `python3`: just enough Python to answer the PyTorch smoke test the way real torch would on
//! this machine, for the environment the caller runs it in.
//!
//! Torch is "installed" when a `torch/version.py` exists in one of the machine's site-packages
//! folders (as pip leaves it); its `__version__` and `hip` say which build it is. A ROCm build
//! carries code objects for a fixed list of ISAs (`WHEEL_ARCHS`); a CUDA build (`hip = None`)
//! finds no AMD GPU at all. At the first `torch.cuda` call the HIP runtime starts: it needs the
//! driver and a /dev/kfd the caller may open, applies `ROCR_VISIBLE_DEVICES`, then
//! `HIP_VISIBLE_DEVICES` (or `CUDA_VISIBLE_DEVICES`), and reports each visible GPU's ISA, or
//! the one `HSA_OVERRIDE_GFX_VERSION` names. A visible GPU whose reported ISA has no code object
//! aborts with `hipErrorNoBinaryForGpu`; code that loads but was built for another generation
//! than the chip fails at the first kernel with `HIP error: invalid device function`.
//!
//! Understood: `import torch`, `print(...)` of `torch.cuda.is_available()`,
//! `torch.cuda.device_count()`, `torch.cuda.get_device_name(N)`, `torch.version.hip`,
//! `torch.__version__`, string literals, and `torch.ones(N, device='cuda')` /
//! `torch.zeros(N).cuda()` (a kernel launch), from `-c CODE` or a script file. Anything else
//! says plainly that the simulation does not run it. Tracebacks show the `<module>` frame only.

use super::super::Ctx;
use super::super::machine::{Gpu, Machine};
use super::super::state::State;
use super::can_read_write;

/// ISAs a ROCm 6.x PyTorch wheel ships code objects for (its PYTORCH_ROCM_ARCH).
pub const WHEEL_ARCHS: &[&str] = &[
    "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1101",
];

/// ISAs of AMD's integrated (APU) GPUs, which ROCm does not support.
const INTEGRATED: &[&str] = &[
    "gfx902", "gfx909", "gfx90c", "gfx1035", "gfx1036", "gfx1103", "gfx1150",
];

/// Whether `g` is an integrated GPU (an APU).
pub fn is_integrated(g: &Gpu) -> bool {
    INTEGRATED.contains(&g.gfx.as_str())
}

/// Standard-library modules a smoke script may import next to torch (they load, do nothing).
const STDLIB: &[&str] = &[
    "os",
    "sys",
    "json",
    "math",
    "time",
    "platform",
    "subprocess",
];

const SITES: &[&str] = &[
    "/home/{user}/.local/lib/python3.12/site-packages",
    "/usr/local/lib/python3.12/dist-packages",
    "/usr/lib/python3/dist-packages",
];

/// The torch build found on the machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Torch {
    /// `torch.__version__`.
    pub version: String,
    /// `torch.version.hip`: `None` on CUDA and CPU builds.
    pub hip: Option<String>,
}

/// Finds torch the way `import torch` would, in the user's and the system's site-packages.
pub fn find_torch(root: &std::path::Path, user: &str) -> Option<Torch> {
    SITES.iter().find_map(|site| {
        let p = format!("{}/torch/version.py", site.replace("{user}", user));
        let text = std::fs::read_to_string(root.join(p.trim_start_matches('/'))).ok()?;
        let field = |name: &str| {
            text.lines().find_map(|l| {
                let (k, v) = l.split_once('=')?;
                // `hip: Optional[str] = '6.2...'`: the name before any annotation.
                let key = k.split(':').next().unwrap_or(k).trim();
                (key == name).then(|| v.trim().trim_matches(['\'', '"']).to_string())
            })
        };
        let version = field("__version__")?;
        let hip = field("hip").filter(|h| h != "None");
        Some(Torch { version, hip })
    })
}

/// `10.3.0` -> `gfx1030`, `9.0.12` -> `gfx90c`; `None` when malformed.
pub fn override_isa(v: &str) -> Option<String> {
    let parts: Vec<u32> = v
        .split('.')
        .map(|p| p.parse().ok())
        .collect::<Option<Vec<u32>>>()?;
    match parts[..] {
        [major, minor, step] if minor < 16 && step < 16 => {
            Some(format!("gfx{major}{minor:x}{step:x}"))
        }
        _ => None,
    }
}

/// Major and minor of an ISA name (`gfx1031` -> (10, 3)): code of one generation runs on
/// another chip of the same major.minor.
fn generation(isa: &str) -> Option<(u32, u32)> {
    let digits = isa.strip_prefix("gfx")?;
    if digits.len() < 3 {
        return None;
    }
    let (major, rest) = digits.split_at(digits.len() - 2);
    Some((
        major.parse().ok()?,
        u32::from_str_radix(&rest[..1], 16).ok()?,
    ))
}

fn var<'a>(env: &'a [(String, String)], name: &str) -> Option<&'a str> {
    env.iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// Applies one `*_VISIBLE_DEVICES` list to `devices`: indices into it, up to the first entry
/// that is not a valid index (CUDA's rule, which HIP follows).
fn filter(devices: &[usize], list: Option<&str>) -> Vec<usize> {
    let Some(list) = list else {
        return devices.to_vec();
    };
    let mut out = Vec::new();
    for item in list.split(',') {
        match item.trim().parse::<usize>() {
            Ok(i) if i < devices.len() && !out.contains(&devices[i]) => out.push(devices[i]),
            _ => break,
        }
    }
    out
}

/// The machine's GPUs (indices into `machine.gpus`) that a HIP program sees in `env`.
pub fn visible_gpus(machine: &Machine, env: &[(String, String)]) -> Vec<usize> {
    let all: Vec<usize> = (0..machine.gpus.len()).collect();
    let rocr = filter(&all, var(env, "ROCR_VISIBLE_DEVICES"));
    let hip = var(env, "HIP_VISIBLE_DEVICES").or(var(env, "CUDA_VISIBLE_DEVICES"));
    filter(&rocr, hip)
}

/// What the HIP runtime does at start-up in a torch process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// No usable GPU: `is_available()` is False.
    NoGpu,
    /// `hipErrorNoBinaryForGpu`: the process aborts.
    NoBinary,
    /// Running: the visible GPUs, in device order, with the ISA each reports.
    Ready(Vec<(usize, String)>),
}

/// Starts HIP as torch would (`kfd_ok`: the caller may open /dev/kfd and the driver is loaded).
pub fn start(machine: &Machine, torch: &Torch, env: &[(String, String)], kfd_ok: bool) -> Start {
    if torch.hip.is_none() || !kfd_ok {
        return Start::NoGpu;
    }
    let isa_override = match var(env, "HSA_OVERRIDE_GFX_VERSION") {
        None => None,
        Some(v) => match override_isa(v) {
            Some(isa) => Some(isa),
            None => return Start::NoGpu,
        },
    };
    let devices: Vec<(usize, String)> = visible_gpus(machine, env)
        .into_iter()
        .map(|i| {
            let isa = isa_override
                .clone()
                .unwrap_or_else(|| machine.gpus[i].gfx.clone());
            (i, isa)
        })
        .collect();
    if devices.is_empty() {
        Start::NoGpu
    } else if devices
        .iter()
        .any(|(_, isa)| !WHEEL_ARCHS.contains(&isa.as_str()))
    {
        Start::NoBinary
    } else {
        Start::Ready(devices)
    }
}

/// Would a kernel built for `isa` run on this chip?
pub fn runs_on(g: &Gpu, isa: &str) -> bool {
    generation(&g.gfx).is_some() && generation(&g.gfx) == generation(isa)
}

const INVALID_DEVICE_FUNCTION: &str = "RuntimeError: HIP error: invalid device function\nHIP kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing AMD_SERIALIZE_KERNEL=3\nCompile with `TORCH_USE_HIP_DSA` to enable device-side assertions.\n";

/// A Python value as `print` shows it.
enum Value {
    Str(String),
    Bool(bool),
    Int(usize),
    None,
}

impl Value {
    fn shown(&self) -> String {
        match self {
            Value::Str(s) => s.clone(),
            Value::Bool(b) => if *b { "True" } else { "False" }.into(),
            Value::Int(n) => n.to_string(),
            Value::None => "None".into(),
        }
    }
}

/// Why a statement stopped the program.
enum Stop {
    /// An exception: its last lines (type and message).
    Raise(String),
    /// The process aborts (hipErrorNoBinaryForGpu).
    Abort,
    /// The simulation does not run this statement.
    Unsupported(String),
}

struct Interp<'a> {
    machine: &'a Machine,
    torch: Option<Torch>,
    imported: bool,
    env: &'a [(String, String)],
    kfd_ok: bool,
    started: Option<Start>,
    out: String,
}

impl Interp<'_> {
    fn hip(&mut self) -> Result<Vec<(usize, String)>, Stop> {
        let torch = self.torch.clone().expect("imported");
        let s = self
            .started
            .get_or_insert_with(|| start(self.machine, &torch, self.env, self.kfd_ok))
            .clone();
        match s {
            Start::NoBinary => Err(Stop::Abort),
            Start::NoGpu => Ok(Vec::new()),
            Start::Ready(d) => Ok(d),
        }
    }

    fn device(&mut self, index: usize) -> Result<(usize, String), Stop> {
        let devices = self.hip()?;
        if devices.is_empty() {
            return Err(Stop::Raise(
                "RuntimeError: No HIP GPUs are available\n".into(),
            ));
        }
        devices
            .get(index)
            .cloned()
            .ok_or_else(|| Stop::Raise("AssertionError: Invalid device id\n".into()))
    }

    fn eval(&mut self, expr: &str) -> Result<Value, Stop> {
        let e = expr.trim();
        if let Some(s) = string_literal(e) {
            return Ok(Value::Str(s));
        }
        if !self.imported && e.starts_with("torch") {
            return Err(Stop::Raise(
                "NameError: name 'torch' is not defined\n".into(),
            ));
        }
        let compact: String = e.chars().filter(|c| !c.is_whitespace()).collect();
        match compact.as_str() {
            "torch.__version__" => {
                return Ok(Value::Str(
                    self.torch.as_ref().expect("imported").version.clone(),
                ));
            }
            "torch.version.hip" => {
                return Ok(match &self.torch.as_ref().expect("imported").hip {
                    Some(h) => Value::Str(h.clone()),
                    None => Value::None,
                });
            }
            "torch.cuda.is_available()" => return Ok(Value::Bool(!self.hip()?.is_empty())),
            "torch.cuda.device_count()" => return Ok(Value::Int(self.hip()?.len())),
            _ => {}
        }
        if let Some(arg) = compact
            .strip_prefix("torch.cuda.get_device_name(")
            .and_then(|r| r.strip_suffix(')'))
        {
            let index = device_index(arg).ok_or_else(|| Stop::Unsupported(e.into()))?;
            let (gpu, _) = self.device(index)?;
            return Ok(Value::Str(self.machine.gpus[gpu].marketing_name.clone()));
        }
        if let Some((n, device)) = tensor_on_gpu(&compact) {
            let (gpu, isa) = self.device(device)?;
            if !runs_on(&self.machine.gpus[gpu], &isa) {
                return Err(Stop::Raise(INVALID_DEVICE_FUNCTION.into()));
            }
            let fill = if compact.starts_with("torch.ones") {
                "1."
            } else {
                "0."
            };
            let items = vec![fill; n].join(", ");
            return Ok(Value::Str(format!(
                "tensor([{items}], device='cuda:{device}')"
            )));
        }
        Err(Stop::Unsupported(e.into()))
    }

    fn statement(&mut self, stmt: &str) -> Result<(), Stop> {
        let s = stmt.trim();
        if s.is_empty() || s.starts_with('#') {
            return Ok(());
        }
        if let Some(module) = s.strip_prefix("import ").map(str::trim)
            && module != "torch"
            && !module.is_empty()
            && !STDLIB.contains(&module)
            && module.chars().all(|c| c.is_alphanumeric() || c == '_')
        {
            return Err(Stop::Raise(format!(
                "ModuleNotFoundError: No module named '{module}'\n"
            )));
        }
        if let Some(module) = s.strip_prefix("import ").map(str::trim)
            && STDLIB.contains(&module)
        {
            return Ok(());
        }
        if s == "import torch" {
            if self.torch.is_none() {
                return Err(Stop::Raise(
                    "ModuleNotFoundError: No module named 'torch'\n".into(),
                ));
            }
            self.imported = true;
            return Ok(());
        }
        if let Some(inner) = s.strip_prefix("print(").and_then(|r| r.strip_suffix(')')) {
            let mut shown = Vec::new();
            for arg in split_args(inner) {
                shown.push(self.eval(&arg)?.shown());
            }
            self.out.push_str(&shown.join(" "));
            self.out.push('\n');
            return Ok(());
        }
        self.eval(s).map(|_| ())
    }
}

/// `'text'`, `"text"` or an f-string without fields.
fn string_literal(e: &str) -> Option<String> {
    let e = e.strip_prefix('f').unwrap_or(e);
    for q in ['\'', '"'] {
        if e.len() >= 2 && e.starts_with(q) && e.ends_with(q) {
            let inner = &e[1..e.len() - 1];
            if !inner.contains(q) && !inner.contains('{') {
                return Some(inner.to_string());
            }
        }
    }
    None
}

/// `0`, `device=0` or empty (the current device, 0).
fn device_index(arg: &str) -> Option<usize> {
    let a = arg.strip_prefix("device=").unwrap_or(arg);
    if a.is_empty() {
        return Some(0);
    }
    a.parse().ok()
}

/// `torch.ones(N,device='cuda[:K]')` or `torch.ones(N).cuda()` (and zeros): (N, K).
fn tensor_on_gpu(compact: &str) -> Option<(usize, usize)> {
    let rest = compact
        .strip_prefix("torch.ones(")
        .or_else(|| compact.strip_prefix("torch.zeros("))?;
    let (args, tail) = rest.split_once(')')?;
    let mut parts = args.split(',');
    let n: usize = parts.next()?.parse().ok()?;
    let device_arg = parts.next();
    let device = match (device_arg, tail) {
        (None, ".cuda()") => "cuda".to_string(),
        (Some(d), "") => d
            .strip_prefix("device=")?
            .trim_matches(['\'', '"'])
            .to_string(),
        _ => return None,
    };
    let k = match device.strip_prefix("cuda") {
        Some("") => 0,
        Some(idx) => idx.strip_prefix(':')?.parse().ok()?,
        None => return None,
    };
    (n <= 16).then_some((n, k))
}

/// Splits call arguments at top-level commas (not inside brackets or quotes).
fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut quote, mut cur) = (0i32, None::<char>, String::new());
    for c in s.chars() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[') => depth += 1,
            (None, ')' | ']') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// Splits a program into (line number, source line, statement) at newlines and semicolons.
fn statements(code: &str) -> Vec<(usize, String, String)> {
    code.lines()
        .enumerate()
        .flat_map(|(n, line)| {
            split_semicolons(line)
                .into_iter()
                .map(move |s| (n + 1, line.to_string(), s))
        })
        .collect()
}

fn split_semicolons(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut quote, mut cur) = (None::<char>, String::new());
    for c in line.chars() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            (None, ';') => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out
}

/// Runs `code` from `file` (`<string>` for -c) on the machine.
pub fn run_program(cx: &mut Ctx, code: &str, file: &str) -> i32 {
    let state: &State = cx.state;
    let kfd_ok = state.is_module_loaded()
        && state
            .device("/dev/kfd")
            .is_some_and(|n| can_read_write(cx, n));
    let mut it = Interp {
        machine: &state.machine,
        torch: find_torch(cx.root, &cx.caller.user),
        imported: false,
        env: cx.env,
        kfd_ok,
        started: None,
        out: String::new(),
    };
    let mut stop = None;
    for (line, source, stmt) in statements(code) {
        if let Err(s) = it.statement(&stmt) {
            stop = Some((line, source, s));
            break;
        }
    }
    let printed = std::mem::take(&mut it.out);
    cx.print(&printed);
    match stop {
        None => 0,
        Some((_, _, Stop::Abort)) => {
            cx.eprintln(
                "\"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\"",
            );
            // What bash prints when the process dies of SIGABRT; the status is bash's too.
            cx.eprintln("Aborted (core dumped)");
            134
        }
        Some((_, _, Stop::Unsupported(what))) => {
            cx.eprintln(&format!(
                "rocm-learn sim: python3 here runs the PyTorch smoke test (import torch, print, torch.cuda.is_available(), torch.cuda.get_device_name(N), torch.cuda.device_count(), torch.version.hip, torch.ones(N, device='cuda')); it does not run: {what}"
            ));
            1
        }
        Some((line, source, Stop::Raise(error))) => {
            let mut tb = format!(
                "Traceback (most recent call last):\n  File \"{file}\", line {line}, in <module>\n"
            );
            if file != "<string>" {
                tb.push_str(&format!("    {}\n", source.trim()));
            }
            tb.push_str(&error);
            cx.eprint(&tb);
            1
        }
    }
}

/// `python3 ARGS`: the interpreter's version, and the torch scripts the labs run.
pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("-V" | "--version") => {
            cx.println("Python 3.12.3");
            0
        }
        Some("-c") => match args.get(1) {
            Some(code) => {
                let code = code.clone();
                run_program(cx, &code, "<string>")
            }
            None => {
                cx.eprintln("Argument expected for the -c option");
                cx.eprintln("usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...");
                cx.eprintln("Try `python -h' for more information.");
                2
            }
        },
        Some(path) if !path.starts_with('-') => {
            let host = cx.host(path);
            match std::fs::read_to_string(&host) {
                Ok(code) => {
                    let shown = super::super::fsx::normalize(path, &cx.caller.cwd);
                    run_program(cx, &code, &shown)
                }
                Err(_) => {
                    let abs = super::super::fsx::normalize(path, &cx.caller.cwd);
                    cx.eprintln(&format!(
                        "python3: can't open file '{abs}': [Errno 2] No such file or directory"
                    ));
                    2
                }
            }
        }
        _ => {
            cx.eprintln("rocm-learn sim: the simulated python3 runs a script file or -c CODE, not the interactive prompt");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn override_names_the_isa() {
        assert_eq!(override_isa("10.3.0").as_deref(), Some("gfx1030"));
        assert_eq!(override_isa("9.0.12").as_deref(), Some("gfx90c"));
        assert_eq!(override_isa("11.0.0").as_deref(), Some("gfx1100"));
        assert_eq!(override_isa("gfx1030"), None);
        assert_eq!(override_isa("10.3"), None);
    }

    #[test]
    fn same_generation_runs_gfx1030_code() {
        let m = super::super::super::machine::Preset::Rdna2Workstation.machine(None);
        assert!(runs_on(&m.gpus[1], "gfx1030"));
        assert!(!runs_on(&m.gpus[0], "gfx1030"));
        assert!(!runs_on(&m.gpus[1], "gfx1100"));
    }

    #[test]
    fn visibility_renumbers_and_stops_at_a_bad_index() {
        let m = super::super::super::machine::Preset::Rdna2Workstation.machine(None);
        assert_eq!(visible_gpus(&m, &[]), [0, 1]);
        assert_eq!(visible_gpus(&m, &env(&[("HIP_VISIBLE_DEVICES", "1")])), [1]);
        assert_eq!(
            visible_gpus(&m, &env(&[("ROCR_VISIBLE_DEVICES", "1")])),
            [1]
        );
        // After ROCr keeps only the card, HIP's index 1 no longer exists.
        assert!(
            visible_gpus(
                &m,
                &env(&[("ROCR_VISIBLE_DEVICES", "1"), ("HIP_VISIBLE_DEVICES", "1")])
            )
            .is_empty()
        );
        assert!(visible_gpus(&m, &env(&[("CUDA_VISIBLE_DEVICES", "-1")])).is_empty());
    }

    #[test]
    fn args_split_at_top_level_commas() {
        assert_eq!(
            split_args("torch.cuda.is_available(), torch.cuda.get_device_name(0)"),
            [
                "torch.cuda.is_available()",
                " torch.cuda.get_device_name(0)"
            ]
        );
        assert_eq!(split_args("'a, b', 1"), ["'a, b'", " 1"]);
        assert_eq!(tensor_on_gpu("torch.ones(2,device='cuda')"), Some((2, 0)));
        assert_eq!(tensor_on_gpu("torch.zeros(3).cuda()"), Some((3, 0)));
        assert_eq!(tensor_on_gpu("torch.ones(2,device='cpu')"), None);
    }
}
