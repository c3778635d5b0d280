//! `update-alternatives`: Debian's tool for the links that pick one of several installed
//! programs (here above all `/opt/rocm` among the ROCm releases). Options, messages, the
//! `--config` menu and exit codes follow dpkg's `utils/update-alternatives.c`; the model of the
//! files is in `sim::alternatives`. There is no root check of its own: a normal user fails at
//! the first file it must write, with that file's error, as on Ubuntu.

use super::super::Ctx;
use super::super::alternatives::{
    Alternatives, Fatal, Group, Slave, Status, check_name, check_path,
};
use super::opts::{self, Long, Short, Value};

const USAGE: &str = "Usage: update-alternatives [<option> ...] <command>

Commands:
  --install <link> <name> <path> <priority>
    [--slave <link> <name> <path>] ...
                           add a group of alternatives to the system.
  --remove <name> <path>   remove <path> from the <name> group alternative.
  --remove-all <name>      remove <name> group from the alternatives system.
  --auto <name>            switch the master link <name> to automatic mode.
  --display <name>         display information about the <name> group.
  --query <name>           machine parseable version of --display <name>.
  --list <name>            display all targets of the <name> group.
  --get-selections         list master alternative names and their status.
  --set-selections         read alternative status from standard input.
  --config <name>          show alternatives for the <name> group and ask the
                           user to select which one to use.
  --set <name> <path>      set <path> as alternative for <name>.
  --all                    call --config on all alternatives.

<link> is the symlink pointing to /etc/alternatives/<name>.
  (e.g. /usr/bin/pager)
<name> is the master name for this link group.
  (e.g. pager)
<path> is the location of one of the alternative target files.
  (e.g. /usr/bin/less)
<priority> is an integer; options with higher numbers have higher priority in
  automatic mode.

Options:
  --altdir <directory>     change the alternatives directory.
  --admindir <directory>   change the administrative directory.
  --log <file>             change the log file.
  --force                  allow replacing files with alternative links.
  --skip-auto              skip prompt for alternatives correctly configured
                           in automatic mode (relevant for --config only)
  --verbose                verbose operation, more output.
  --quiet                  quiet operation, minimal output.
  --help                   show this help message.
  --version                show the version.
";

/// What the command line asks for.
#[derive(Debug, Default)]
struct Cmd {
    action: Option<&'static str>,
    name: String,
    path: String,
    link: String,
    priority: i32,
    slaves: Vec<(Slave, String)>,
    verbose: i32,
    skip_auto: bool,
}

enum Stop {
    /// `badusage`: message, blank line, the pointer to --help; exit 2.
    Usage(String),
    /// `error`: exit 2.
    Error(Fatal),
    /// --help / --version printed.
    Done,
}

const ACTIONS: &[&str] = &[
    "install",
    "remove",
    "set",
    "display",
    "query",
    "auto",
    "config",
    "list",
    "remove-all",
    "all",
    "get-selections",
    "set-selections",
];

/// Reads the command line as dpkg's own parser does: every option is a whole `--word` (no
/// `--opt=value`, no short options, no `--`), and a command takes the words after it as its
/// arguments, whatever they look like.
fn parse(cx: &mut Ctx, args: &[String]) -> Result<Cmd, Stop> {
    let mut c = Cmd::default();
    let mut p = opts::parser(args);
    let mut word = opts::Word::default();
    loop {
        let arg = opts::next_word(&mut p, &mut word);
        // lexopt ends the options at `--`; dpkg knows no such word.
        if word.text == "--" {
            return Err(Stop::Usage("unknown option '--'".into()));
        }
        let name = match arg {
            Ok(None) => break,
            Ok(Some(Long(name))) => name.to_string(),
            Ok(Some(Value(v))) => return Err(unknown_argument(&opts::text(v))),
            Ok(Some(Short(_))) | Err(_) => return Err(unknown_argument(&word.text)),
        };
        if p.optional_value().is_some() {
            return Err(Stop::Usage(format!("unknown option '{}'", word.text)));
        }
        if !option(cx, &mut c, &name, &mut p)? {
            return Err(Stop::Done);
        }
    }
    if c.action.is_none() {
        return Err(Stop::Usage("need --display, --query, --list, --get-selections, --config, --set, --set-selections, --install, --remove, --all, --remove-all or --auto".into()));
    }
    Ok(c)
}

fn unknown_argument(word: &str) -> Stop {
    Stop::Error(format!("unknown argument '{word}'"))
}

/// The words a command takes after it; `Err` is `needs` when the command line ends first.
fn words<const N: usize>(p: &mut opts::Parser, needs: &str) -> Result<[String; N], Stop> {
    let mut out: [String; N] = std::array::from_fn(|_| String::new());
    for w in &mut out {
        *w = opts::value(p).map_err(|_| Stop::Usage(needs.to_string()))?;
    }
    Ok(out)
}

/// Records the command `a`; dpkg allows one.
fn set_action(c: &mut Cmd, a: &'static str) -> Result<(), Stop> {
    if let Some(old) = c.action {
        return Err(Stop::Usage(format!(
            "two commands specified: --{old} and --{a}"
        )));
    }
    c.action = Some(a);
    Ok(())
}

/// One `--name` and the words it takes. `Ok(false)` after --help or --version printed.
fn option(cx: &mut Ctx, c: &mut Cmd, name: &str, p: &mut opts::Parser) -> Result<bool, Stop> {
    let action = ACTIONS.iter().copied().find(|x| *x == name);
    match (name, action) {
        ("help", _) => {
            cx.print(USAGE);
            return Ok(false);
        }
        ("version", _) => {
            let v = if cx.state.machine.os.codename == "noble" {
                "1.22.6"
            } else {
                "1.21.1"
            };
            cx.println(&format!("Debian update-alternatives version {v}.\n"));
            cx.println("This is free software; see the GNU General Public License version 2 or\nlater for copying conditions. There is NO warranty.");
            return Ok(false);
        }
        ("verbose", _) => c.verbose += 1,
        ("quiet", _) => c.verbose -= 1,
        ("skip-auto", _) => c.skip_auto = true,
        ("force", _) => {}
        ("install", _) => install(c, p)?,
        ("remove" | "set", Some(act)) => {
            set_action(c, act)?;
            let [name, path] = words(p, &format!("--{act} needs <name> <path>"))?;
            check_name(&name).map_err(Stop::Error)?;
            check_path(&path).map_err(Stop::Error)?;
            (c.name, c.path) = (name, path);
        }
        (_, Some(act))
            if ["display", "query", "auto", "config", "list", "remove-all"].contains(&act) =>
        {
            set_action(c, act)?;
            let [name] = words(p, &format!("--{act} needs <name>"))?;
            check_name(&name).map_err(Stop::Error)?;
            c.name = name;
        }
        (_, Some(act)) => set_action(c, act)?,
        ("slave", _) => slave(c, p)?,
        ("log" | "altdir" | "admindir", _) => {
            let what = if name == "log" {
                "<file>"
            } else {
                "<directory>"
            };
            words::<1>(p, &format!("--log needs a {what} argument"))?;
        }
        _ => return Err(Stop::Usage(format!("unknown option '--{name}'"))),
    }
    Ok(true)
}

/// `--install <link> <name> <path> <priority>`.
fn install(c: &mut Cmd, p: &mut opts::Parser) -> Result<(), Stop> {
    set_action(c, "install")?;
    let [link, name, path, priority] = words(p, "--install needs <link> <name> <path> <priority>")?;
    if link == path {
        return Err(Stop::Usage("<link> and <path> can't be the same".into()));
    }
    c.priority = match priority.parse::<i64>() {
        Err(_) => return Err(Stop::Usage("priority must be an integer".into())),
        Ok(p) => i32::try_from(p).map_err(|_| Stop::Usage("priority is out of range".into()))?,
    };
    (c.link, c.name, c.path) = (link, name, path);
    Ok(())
}

/// `--slave <link> <name> <path>`, after --install: names and links must not repeat.
fn slave(c: &mut Cmd, p: &mut opts::Parser) -> Result<(), Stop> {
    if c.action != Some("install") {
        return Err(Stop::Usage("--slave only allowed with --install".into()));
    }
    let [link, name, path] = words(p, "--slave needs <link> <name> <path>")?;
    let refused = if link == path {
        Some("<link> and <path> can't be the same".to_string())
    } else if name == c.name {
        Some(format!("name {name} is both primary and slave"))
    } else if link == c.link {
        Some(format!("link {link} is both primary and slave"))
    } else if c.slaves.iter().any(|(s, _)| s.name == name) {
        Some(format!("duplicate slave name {name}"))
    } else if c.slaves.iter().any(|(s, _)| s.link == link) {
        Some(format!("duplicate slave link {link}"))
    } else {
        None
    };
    if let Some(m) = refused {
        return Err(Stop::Usage(m));
    }
    c.slaves.push((Slave { name, link }, path));
    Ok(())
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let cmd = match parse(cx, args) {
        Ok(c) => c,
        Err(stop) => return stopped(cx, stop),
    };
    let now = cx.state.now();
    let mut alt = Alternatives::new(cx.root, cx.caller.is_root(), now);
    alt.verbose = cmd.verbose;
    let r = act(cx, &mut alt, &cmd, args);
    alt.flush_log();
    cx.print(&std::mem::take(&mut alt.stdout));
    cx.eprint(&std::mem::take(&mut alt.stderr));
    match r {
        Ok(code) => code,
        Err(e) => stopped(cx, Stop::Error(e)),
    }
}

fn stopped(cx: &mut Ctx, stop: Stop) -> i32 {
    match stop {
        Stop::Done => 0,
        Stop::Error(e) => {
            cx.eprintln(&format!("update-alternatives: error: {e}"));
            2
        }
        Stop::Usage(m) => {
            cx.eprintln(&format!("update-alternatives: {m}\n"));
            cx.eprintln("Use 'update-alternatives --help' for program usage information.");
            2
        }
    }
}

/// Output so far goes out before a prompt, so the menu shows above it.
fn flush(cx: &mut Ctx, alt: &mut Alternatives) {
    cx.print(&std::mem::take(&mut alt.stdout));
    cx.eprint(&std::mem::take(&mut alt.stderr));
}

fn act(cx: &mut Ctx, alt: &mut Alternatives, c: &Cmd, args: &[String]) -> Result<i32, Fatal> {
    let action = c.action.unwrap_or("display");
    let run_with = format!("run with {}", args.join(" "));
    match action {
        "install" => {
            alt.log(run_with);
            alt.install(&c.link, &c.name, &c.path, c.priority, c.slaves.clone())?;
            return Ok(0);
        }
        "get-selections" => {
            get_selections(alt);
            return Ok(0);
        }
        "all" => {
            alt.log(run_with);
            config_all(cx, alt, c.skip_auto)?;
            return Ok(0);
        }
        "set-selections" => {
            alt.log(run_with);
            set_selections(cx, alt)?;
            return Ok(0);
        }
        _ => {}
    }
    let loaded = alt.load(&c.name)?;
    let Some(mut g) = loaded else {
        if action == "remove" {
            alt.verbose_info(&format!("no alternatives for {}", c.name));
            return Ok(0);
        }
        return Err(format!("no alternatives for {}", c.name));
    };
    match action {
        "display" => display(alt, &g),
        "query" => query(alt, &g),
        "list" => {
            for ch in &g.choices {
                alt.stdout.push_str(&format!("{}\n", ch.path));
            }
        }
        _ => {
            alt.log(run_with);
            change(cx, alt, c, &mut g)?;
        }
    }
    Ok(0)
}

/// `--get-selections`: each group's name, mode and current choice.
fn get_selections(alt: &mut Alternatives) {
    for name in alt.names() {
        if let Ok(Some(g)) = alt.load(&name) {
            let cur = alt.current(&name).unwrap_or_default();
            alt.stdout
                .push_str(&format!("{name:<30} {:<8} {cur}\n", g.status().word()));
        }
    }
}

/// `--all`: `--config` on every group.
fn config_all(cx: &mut Ctx, alt: &mut Alternatives, skip_auto: bool) -> Result<(), Fatal> {
    for name in alt.names() {
        let Ok(Some(mut g)) = alt.load(&name) else {
            continue;
        };
        let cur = alt.current(&name);
        alt.select_mode(&mut g, cur.as_deref());
        let new = config(cx, alt, &mut g, cur.as_deref(), skip_auto);
        alt.update(&mut g, cur.as_deref(), new.as_deref())?;
    }
    Ok(())
}

/// `--set-selections`: `NAME STATUS CHOICE` lines from stdin, each applied or skipped.
fn set_selections(cx: &mut Ctx, alt: &mut Alternatives) -> Result<(), Fatal> {
    let input = String::from_utf8_lossy(&cx.console.read_stdin()).into_owned();
    for line in input.lines() {
        let mut w = line.split_whitespace();
        let (Some(name), Some(status), Some(_)) = (w.next(), w.next(), w.next()) else {
            alt.stdout.push_str(&format!(
                "[update-alternatives --set-selections] Skip invalid line: {line}\n"
            ));
            continue;
        };
        let choice = line
            .splitn(3, char::is_whitespace)
            .nth(2)
            .unwrap_or("")
            .trim_start();
        alt.stdout
            .push_str("[update-alternatives --set-selections] ");
        let Ok(Some(mut g)) = alt.load(name) else {
            alt.stdout
                .push_str(&format!("Skip unknown alternative {name}.\n"));
            continue;
        };
        let mut log = Vec::new();
        let new = if status == "auto" {
            g.set_status(Status::Auto, &mut log);
            g.best(alt.current(name).as_deref()).map(|b| b.path.clone())
        } else if g.choice(choice).is_some() {
            g.set_status(Status::Manual, &mut log);
            Some(choice.to_string())
        } else {
            alt.stdout.push_str(&format!(
                "Alternative {name} unchanged because choice {choice} is not available.\n"
            ));
            None
        };
        for l in log {
            alt.log(l);
        }
        if let Some(new) = new {
            let cur = alt.current(name);
            alt.select_mode(&mut g, cur.as_deref());
            alt.update(&mut g, cur.as_deref(), Some(&new))?;
        }
    }
    Ok(())
}

/// The commands that change one group: --set, --auto, --config, --remove, --remove-all.
fn change(cx: &mut Ctx, alt: &mut Alternatives, c: &Cmd, g: &mut Group) -> Result<(), Fatal> {
    let current = alt.current(&c.name);
    alt.select_mode(g, current.as_deref());
    let mut log = Vec::new();
    let new: Option<String> = match c.action.unwrap_or("display") {
        "set" => {
            if g.choice(&c.path).is_none() {
                return Err(format!(
                    "alternative {} for {} not registered; not setting",
                    c.path, c.name
                ));
            }
            g.set_status(Status::Manual, &mut log);
            Some(c.path.clone())
        }
        "auto" => {
            g.set_status(Status::Auto, &mut log);
            if g.choices.is_empty() {
                alt.stdout
                    .push_str(&format!("There is no program which provides {}.\n", c.name));
                None
            } else {
                g.best(current.as_deref()).map(|b| b.path.clone())
            }
        }
        "config" => config(cx, alt, g, current.as_deref(), c.skip_auto),
        "remove" => remove(alt, c, g, current.as_deref(), &mut log),
        _ => {
            // remove-all
            g.modified |= !g.choices.is_empty();
            g.choices.clear();
            None
        }
    };
    for l in log {
        alt.log(l);
    }
    alt.update(g, current.as_deref(), new.as_deref())
}

/// `--remove NAME PATH`: the new choice when the removed one was current (back to auto mode
/// if it had been chosen by hand).
fn remove(
    alt: &mut Alternatives,
    c: &Cmd,
    g: &mut Group,
    current: Option<&str>,
    log: &mut Vec<String>,
) -> Option<String> {
    if !g.remove_choice(&c.path) {
        alt.verbose_info(&format!(
            "alternative {} for {} not registered; not removing",
            c.path, c.name
        ));
    }
    if current != Some(c.path.as_str()) {
        return None;
    }
    if g.status() == Status::Manual {
        alt.info(&format!(
            "removing manually selected alternative - switching {} to auto mode",
            c.name
        ));
        g.set_status(Status::Auto, log);
    }
    g.best(None).map(|b| b.path.clone())
}

fn display(alt: &mut Alternatives, g: &Group) {
    let mut s = format!("{} - {}\n", g.name, g.status().describe());
    let current = alt.current(&g.name);
    match g.best(current.as_deref()) {
        Some(b) => s.push_str(&format!("  link best version is {}\n", b.path)),
        None => s.push_str("  link best version not available\n"),
    }
    match &current {
        Some(c) => s.push_str(&format!("  link currently points to {c}\n")),
        None => s.push_str("  link currently absent\n"),
    }
    s.push_str(&format!("  link {} is {}\n", g.name, g.link()));
    for sl in &g.slaves {
        s.push_str(&format!("  slave {} is {}\n", sl.name, sl.link));
    }
    for ch in &g.choices {
        s.push_str(&format!("{} - priority {}\n", ch.path, ch.priority));
        for sl in &g.slaves {
            if let Some(f) = ch.slave(&sl.name) {
                s.push_str(&format!("  slave {}: {f}\n", sl.name));
            }
        }
    }
    alt.stdout.push_str(&s);
}

fn query(alt: &mut Alternatives, g: &Group) {
    let mut s = format!("Name: {}\nLink: {}\n", g.name, g.link());
    if !g.slaves.is_empty() {
        s.push_str("Slaves:\n");
        for sl in &g.slaves {
            s.push_str(&format!(" {} {}\n", sl.name, sl.link));
        }
    }
    s.push_str(&format!("Status: {}\n", g.status().word()));
    let current = alt.current(&g.name);
    if let Some(b) = g.best(current.as_deref()) {
        s.push_str(&format!("Best: {}\n", b.path));
    }
    s.push_str(&format!(
        "Value: {}\n",
        current.as_deref().unwrap_or("none")
    ));
    for ch in &g.choices {
        s.push_str(&format!(
            "\nAlternative: {}\nPriority: {}\n",
            ch.path, ch.priority
        ));
        if g.slaves.is_empty() {
            continue;
        }
        s.push_str("Slaves:\n");
        for sl in &g.slaves {
            if let Some(f) = ch.slave(&sl.name) {
                s.push_str(&format!(" {} {f}\n", sl.name));
            }
        }
    }
    alt.stdout.push_str(&s);
}

/// `alternative_config`: the cases with nothing to ask, else the menu.
fn config(
    cx: &mut Ctx,
    alt: &mut Alternatives,
    g: &mut Group,
    current: Option<&str>,
    skip_auto: bool,
) -> Option<String> {
    if g.choices.is_empty() {
        alt.stdout.push_str(&format!(
            "There is no program which provides {}.\nNothing to configure.\n",
            g.name
        ));
        None
    } else if skip_auto && g.status() == Status::Auto {
        display(alt, g);
        None
    } else if g.choices.len() == 1 && g.status() == Status::Auto && current.is_some() {
        alt.stdout.push_str(&format!(
            "There is only one alternative in link group {} (providing {}): {}\nNothing to configure.\n",
            g.name,
            g.link(),
            current.unwrap_or_default()
        ));
        None
    } else {
        select_choice(cx, alt, g, current)
    }
}

/// The menu of `alternative_select_choice`, asked again until the answer names a choice.
fn select_choice(
    cx: &mut Ctx,
    alt: &mut Alternatives,
    g: &mut Group,
    current: Option<&str>,
) -> Option<String> {
    let best = g.best(current)?.clone();
    let len = g
        .choices
        .iter()
        .map(|c| c.path.len() + 1)
        .max()
        .unwrap_or(0)
        .max(15);
    loop {
        let n = g.choices.len();
        let mut m = if n == 1 {
            format!(
                "There is {n} choice for the alternative {} (providing {}).\n\n",
                g.name,
                g.link()
            )
        } else {
            format!(
                "There are {n} choices for the alternative {} (providing {}).\n\n",
                g.name,
                g.link()
            )
        };
        m.push_str(&format!(
            "  {:<12} {:<len$} {:<10} {}\n",
            "Selection", "Path", "Priority", "Status"
        ));
        m.push_str(&"-".repeat(60));
        m.push('\n');
        let row = |status: Status, path: &str, prio: i32, idx: usize| {
            let mark = if g.status() == status && current == Some(path) {
                '*'
            } else {
                ' '
            };
            // printf's "% -10d": a space where the sign would be, left-aligned in 10.
            let p = if prio < 0 {
                prio.to_string()
            } else {
                format!(" {prio}")
            };
            format!(
                "{mark} {idx:<12} {path:<len$} {p:<10} {}\n",
                status.describe()
            )
        };
        m.push_str(&row(Status::Auto, &best.path, best.priority, 0));
        for (i, c) in g.choices.iter().enumerate() {
            m.push_str(&row(Status::Manual, &c.path, c.priority, i + 1));
        }
        m.push('\n');
        flush(cx, alt);
        cx.print(&m);
        let answer =
            cx.ask("Press <enter> to keep the current choice[*], or type selection number: ")?;
        let answer = answer.trim_end_matches(['\n', '\r']);
        if answer.is_empty() {
            return current.map(String::from);
        }
        let picked = match strtol(answer) {
            // An overflow or a negative number asks again.
            None => None,
            Some((idx, _)) if idx < 0 => None,
            Some((0, true)) => Some((Status::Auto, best.path.clone())),
            Some((idx, true)) => usize::try_from(idx - 1)
                .ok()
                .and_then(|i| g.choices.get(i))
                .map(|c| (Status::Manual, c.path.clone())),
            Some((_, false)) => g.choice(answer).map(|c| (Status::Manual, c.path.clone())),
        };
        if let Some((status, path)) = picked {
            let mut log = Vec::new();
            g.set_status(status, &mut log);
            log.into_iter().for_each(|l| alt.log(l));
            return Some(path);
        }
    }
}

/// C's strtol on a whole answer: the number, and whether nothing followed it. `None` when it
/// overflows; a non-number reads as 0 with text left over (looked up as a path).
fn strtol(s: &str) -> Option<(i64, bool)> {
    let t = s.trim_start();
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let n = digits.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 {
        return Some((0, false));
    }
    let v: i64 = digits[..n].parse().ok()?;
    Some((if neg { -v } else { v }, n == digits.len()))
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;
    use super::strtol;

    #[test]
    fn dpkg_words_not_getopt_ones() {
        let m = Machine::stage();
        let usage = |m: &str| {
            format!(
                "update-alternatives: {m}\n\nUse 'update-alternatives --help' for program usage information.\n"
            )
        };
        for (line, stderr) in [
            (
                "update-alternatives --display=rocm",
                usage("unknown option '--display=rocm'"),
            ),
            ("update-alternatives --", usage("unknown option '--'")),
            (
                "update-alternatives --install /a b /c",
                usage("--install needs <link> <name> <path> <priority>"),
            ),
            (
                "update-alternatives -xy",
                "update-alternatives: error: unknown argument '-xy'\n".to_string(),
            ),
            (
                "update-alternatives rocm",
                "update-alternatives: error: unknown argument 'rocm'\n".to_string(),
            ),
        ] {
            let r = m.learner(line);
            assert_eq!((r.stderr.as_str(), r.code), (stderr.as_str(), 2), "{line}");
        }
    }

    #[test]
    fn answers_read_like_strtol() {
        assert_eq!(strtol("1"), Some((1, true)));
        assert_eq!(strtol(" 2"), Some((2, true)));
        assert_eq!(strtol("1x"), Some((1, false)));
        assert_eq!(strtol("/opt/rocm-6.2.2"), Some((0, false)));
        assert_eq!(strtol("-1"), Some((-1, true)));
    }
}
