//! `udevadm control --reload-rules` (loads the rule files) and `udevadm trigger` (sends an
//! event, "change" unless `--action=add`, to the devices its filters select; udevd reads rule
//! files that changed since the last event before handling it, as the real daemon does).

use super::super::Ctx;
use super::super::udev::{self, Action};
use super::opts::{self, Error, Long, Short, Value};

const HELP: &str = "udevadm [--help] [--version] [--debug] COMMAND [COMMAND OPTIONS]

Send control commands or test the device manager.

Commands:
  info          Query sysfs or the udev database
  trigger       Request events from the kernel
  settle        Wait for pending udev events
  control       Control the udev daemon
  monitor       Listen to kernel and udev events
  test          Test an event run
  test-builtin  Test a built-in command
  verify        Verify udev rules files
  wait          Wait for device or device symlink
  lock          Lock a block device

See the udevadm(8) man page for details.
";

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let Some(cmd) = args.first() else {
        cx.eprintln("udevadm: missing or unknown command");
        return 2;
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "-h" | "--help" => {
            cx.print(HELP);
            0
        }
        "--version" | "-V" => {
            let v = if cx.state.machine.os.codename == "noble" {
                "255"
            } else {
                "249"
            };
            cx.println(v);
            0
        }
        "control" => control(cx, rest),
        "trigger" => trigger(cx, rest),
        "settle" => 0,
        "info" | "monitor" | "test" | "test-builtin" | "verify" | "wait" | "lock" => {
            cx.eprintln(&format!(
                "udevadm {cmd}: not available on the simulated machine"
            ));
            1
        }
        other => {
            cx.eprintln(&format!("Unknown command verb '{other}'."));
            1
        }
    }
}

fn control(cx: &mut Ctx, args: &[String]) -> i32 {
    if args.is_empty() {
        cx.eprintln("No control command option is specified.");
        return 1;
    }
    let reload = match control_options(args) {
        Ok(r) => r,
        Err(m) => {
            cx.eprintln(&format!("udevadm control: {m}"));
            return 1;
        }
    };
    if !cx.caller.is_root() {
        cx.eprintln("Failed to send reload request: Permission denied");
        return 1;
    }
    if reload {
        cx.state.udev_rules = udev::load_rules(cx.root);
    }
    0
}

/// Whether `udevadm control` is asked to reload the rules; `Err` is the complaint.
fn control_options(args: &[String]) -> Result<bool, String> {
    let mut p = opts::parser(args);
    let mut reload = false;
    let getopt = |e: Error| opts::getopt_message(&e);
    while let Some(arg) = p.next().map_err(getopt)? {
        match arg {
            Short('R') | Long("reload" | "reload-rules") => reload = true,
            Short('s' | 'S') | Long("stop-exec-queue" | "start-exec-queue" | "ping") => {}
            Value(v) => return Err(format!("unrecognized option '{}'", opts::text(v))),
            other => return Err(getopt(opts::unknown(other.unexpected(), &mut p))),
        }
    }
    Ok(reload)
}

/// Which devices a trigger sends events to: every filter given must match.
#[derive(Default)]
struct Filter {
    subsystems: Vec<String>,
    not_subsystems: Vec<String>,
    sysnames: Vec<String>,
    names: Vec<String>,
}

impl Filter {
    fn matches(&self, d: &super::super::state::DevNode) -> bool {
        let any = |pats: &[String], v: &str| pats.iter().any(|p| udev::glob(p, v));
        (self.subsystems.is_empty() || any(&self.subsystems, &d.subsystem))
            && !any(&self.not_subsystems, &d.subsystem)
            && (self.sysnames.is_empty() || any(&self.sysnames, &d.kernel))
            && (self.names.is_empty()
                || self.names.iter().any(|n| {
                    let full = if n.starts_with("/dev/") {
                        n.clone()
                    } else {
                        format!("/dev/{n}")
                    };
                    full == d.path
                }))
    }
}

/// Reads trigger's options as systemd's getopt_long does (`-s kfd`, `-skfd`,
/// `--subsystem-match=kfd`, clustered flags); `Err` is the complaint. A device path or name
/// among them sends the event to that device.
fn trigger_options(args: &[String]) -> Result<(Action, Filter), String> {
    let mut p = opts::parser(args);
    let mut action = Action::Change;
    let mut filter = Filter::default();
    let getopt = |e: Error| opts::getopt_message(&e);
    while let Some(arg) = p.next().map_err(getopt)? {
        match arg {
            Short('c') | Long("action") => {
                action = match opts::value(&mut p).map_err(getopt)?.as_str() {
                    "add" => Action::Add,
                    "change" => Action::Change,
                    other => return Err(format!("Unknown action '{other}'")),
                }
            }
            Short('s') | Long("subsystem-match") => {
                filter.subsystems.push(opts::value(&mut p).map_err(getopt)?)
            }
            Short('S') | Long("subsystem-nomatch") => filter
                .not_subsystems
                .push(opts::value(&mut p).map_err(getopt)?),
            Short('y') | Long("sysname-match") => {
                filter.sysnames.push(opts::value(&mut p).map_err(getopt)?)
            }
            Long("name-match") => filter.names.push(opts::value(&mut p).map_err(getopt)?),
            // Filters the machine's few devices do not need.
            Short('a' | 'A' | 'p' | 'g' | 'b' | 't')
            | Long("attr-match" | "attr-nomatch" | "property-match" | "tag-match")
            | Long("parent-match" | "type" | "prioritized-subsystem") => {
                p.value().map_err(getopt)?;
            }
            Short('v' | 'w' | 'n' | 'q')
            | Long("verbose" | "settle" | "dry-run" | "quiet" | "uuid") => {}
            // `--wait-daemon[=SECONDS]`.
            Long("wait-daemon") => {
                p.optional_value();
            }
            Value(v) => filter.names.push(
                opts::text(v)
                    .trim_start_matches("/sys/class/drm/")
                    .trim_start_matches("/sys/devices/virtual/kfd/")
                    .trim_end_matches("/uevent")
                    .to_string(),
            ),
            other => return Err(getopt(opts::unknown(other.unexpected(), &mut p))),
        }
    }
    Ok((action, filter))
}

fn trigger(cx: &mut Ctx, args: &[String]) -> i32 {
    let (action, filter) = match trigger_options(args) {
        Ok(x) => x,
        Err(m) => {
            // systemd's own complaint about the action does not name the command; getopt's do.
            if m.starts_with("Unknown action") {
                cx.eprintln(&m);
            } else {
                cx.eprintln(&format!("udevadm trigger: {m}"));
            }
            return 1;
        }
    };
    let act = match action {
        Action::Add => "add",
        Action::Change => "change",
    };
    if !cx.caller.is_root() {
        let paths: Vec<String> = cx
            .state
            .devices
            .iter()
            .filter(|d| filter.matches(d))
            .map(|d| match d.subsystem.as_str() {
                "kfd" => "/sys/devices/virtual/kfd/kfd/uevent".to_string(),
                _ => format!("/sys/class/drm/{}/uevent", d.kernel),
            })
            .collect();
        for p in paths {
            cx.eprintln(&format!(
                "Failed to write '{act}' to '{p}': Permission denied"
            ));
        }
        return 1;
    }
    // udevd notices changed rule files on the next event and reads them again, with or
    // without `udevadm control --reload`.
    let root = cx.root;
    cx.state.udev_rules = udev::load_rules(root);
    let rules = cx.state.udev_rules.clone();
    for d in cx.state.devices.iter_mut().filter(|d| filter.matches(d)) {
        udev::apply(root, &rules, d, action);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn trigger_option_forms() {
        let m = Machine::stage();
        let kfd = m.learner("udevadm trigger --subsystem-match kfd");
        assert_eq!(
            kfd.stderr,
            "Failed to write 'change' to '/sys/devices/virtual/kfd/kfd/uevent': Permission denied\n"
        );
        for line in [
            "udevadm trigger -s kfd",
            "udevadm trigger -vskfd",
            "udevadm trigger --subsystem-match=kfd --wait-daemon=5",
            "udevadm trigger -y kfd -c change",
        ] {
            assert_eq!(m.learner(line), kfd, "{line}");
        }
        for (line, first) in [
            (
                "udevadm trigger -s",
                "udevadm trigger: option requires an argument -- 's'",
            ),
            (
                "udevadm trigger --action",
                "udevadm trigger: option '--action' requires an argument",
            ),
            ("udevadm trigger -c bogus", "Unknown action 'bogus'"),
            (
                "udevadm trigger --bogus=1",
                "udevadm trigger: unrecognized option '--bogus=1'",
            ),
            (
                "udevadm control --bogus",
                "udevadm control: unrecognized option '--bogus'",
            ),
        ] {
            assert_eq!(m.learner(line).complaint(), (first, 1), "{line}");
        }
    }
}
