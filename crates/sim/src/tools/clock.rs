//! `date` and `uptime` on the machine's own clock (boot time plus uptime, the clock wget's
//! dates and the journal use), so the three agree; the host's own programs would print the
//! host's time and its users instead.

use super::super::Ctx;
use super::{MONTHS, civil, weekday};

const FULL_DAYS: [&str; 7] = [
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
];
const FULL_MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// `t` (seconds since the epoch, UTC: the machine's zone) in `date`'s `+FORMAT`.
fn format(t: i64, fmt: &str) -> String {
    let (y, mo, d, h, mi, s) = civil(t);
    let wday = t.div_euclid(86400).rem_euclid(7) as usize;
    let yday = t.div_euclid(86400) - jan_first(y) + 1;
    let mut out = String::new();
    let mut it = fmt.chars();
    while let Some(c) = it.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(k) = it.next() else {
            out.push('%');
            break;
        };
        let piece = match k {
            'Y' => y.to_string(),
            'y' => format!("{:02}", y % 100),
            'm' => format!("{mo:02}"),
            'd' => format!("{d:02}"),
            'e' => format!("{d:2}"),
            'H' => format!("{h:02}"),
            'M' => format!("{mi:02}"),
            'S' => format!("{s:02}"),
            'F' => format!("{y}-{mo:02}-{d:02}"),
            'T' => format!("{h:02}:{mi:02}:{s:02}"),
            'R' => format!("{h:02}:{mi:02}"),
            'D' => format!("{mo:02}/{d:02}/{:02}", y % 100),
            's' => t.to_string(),
            'a' => weekday(t).to_string(),
            'A' => FULL_DAYS[wday].to_string(),
            'b' | 'h' => MONTHS[mo as usize - 1].to_string(),
            'B' => FULL_MONTHS[mo as usize - 1].to_string(),
            'j' => format!("{yday:03}"),
            'Z' => "UTC".into(),
            'z' => "+0000".into(),
            'n' => "\n".into(),
            't' => "\t".into(),
            '%' => "%".into(),
            other => format!("%{other}"),
        };
        out.push_str(&piece);
    }
    out
}

/// Days from the epoch to 1 January of `y` (the civil calendar counted from 1 March, as
/// `civil` does: January is month 10 of the year before).
fn jan_first(y: i64) -> i64 {
    let y = y - 1;
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + 306 - 719_468
}

/// `date`, `date +FORMAT`, `-u`, `-I`/`--iso-8601`, `-R`: the machine's time.
pub fn date(cx: &mut Ctx, args: &[String]) -> i32 {
    let now = cx.state.now();
    let mut fmt = "%a %b %e %H:%M:%S %Z %Y".to_string();
    for a in args {
        match a.as_str() {
            "-u" | "--utc" | "--universal" => {}
            "-I" | "--iso-8601" | "--iso-8601=date" => fmt = "%F".into(),
            "--iso-8601=seconds" | "-Iseconds" => fmt = "%FT%T+00:00".into(),
            "-R" | "--rfc-email" => fmt = "%a, %d %b %Y %T +0000".into(),
            f if f.starts_with('+') => fmt = f[1..].to_string(),
            other => {
                // Setting or computing other dates is not part of the machine.
                cx.eprintln(&format!(
                    "date: {other}: only the machine's own time is simulated (date, date +FORMAT, -u, -I, -R)"
                ));
                return 1;
            }
        }
    }
    cx.println(&format(now, &fmt));
    0
}

/// `uptime`: the time, how long since boot, the users logged in and a quiet load.
pub fn uptime(cx: &mut Ctx, args: &[String]) -> i32 {
    let now = cx.state.now();
    let up = cx.state.uptime.max(0);
    match args.first().map(String::as_str) {
        None => {}
        Some("-p" | "--pretty") => {
            cx.println(&format!("up {}", pretty(up)));
            return 0;
        }
        Some("-s" | "--since") => {
            cx.println(&format(cx.state.boot_time, "%F %T"));
            return 0;
        }
        Some(other) => {
            cx.eprintln(&format!(
                "uptime: invalid option -- '{}'",
                other.trim_start_matches('-')
            ));
            cx.eprintln("\nUsage:\n uptime [options]");
            return 1;
        }
    }
    let mut users: Vec<&str> = cx
        .state
        .sessions
        .values()
        .map(|s| s.user.as_str())
        .collect();
    users.sort_unstable();
    users.dedup();
    let n = users.len().max(1);
    let (days, hours, mins) = (up / 86400, up % 86400 / 3600, up % 3600 / 60);
    let mut since = String::new();
    if days > 0 {
        since.push_str(&format!("{days} day{}, ", if days == 1 { "" } else { "s" }));
    }
    if hours > 0 {
        since.push_str(&format!("{hours:2}:{mins:02}"));
    } else {
        since.push_str(&format!("{mins} min"));
    }
    cx.println(&format!(
        " {} up {since},  {n} user{},  load average: 0.00, 0.00, 0.00",
        format(now, "%T"),
        if n == 1 { "" } else { "s" }
    ));
    0
}

/// `uptime -p`: "5 minutes", "2 hours, 3 minutes".
fn pretty(up: i64) -> String {
    let parts = [
        (up / 604_800, "week"),
        (up % 604_800 / 86400, "day"),
        (up % 86400 / 3600, "hour"),
        (up % 3600 / 60, "minute"),
    ];
    let words: Vec<String> = parts
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, w)| format!("{n} {w}{}", if *n == 1 { "" } else { "s" }))
        .collect();
    if words.is_empty() {
        "0 minutes".into()
    } else {
        words.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;
    use super::format;

    #[test]
    fn formats_read_like_gnu_date() {
        // 2026-11-25 10:13:20 UTC, a Wednesday, day 329 of the year.
        let t = 1_795_601_600;
        assert_eq!(
            format(t, "%F %T %a %A %b %j"),
            "2026-11-25 10:13:20 Wed Wednesday Nov 329"
        );
        assert_eq!(
            format(t, "%a %b %e %H:%M:%S %Z %Y"),
            "Wed Nov 25 10:13:20 UTC 2026"
        );
        assert_eq!(format(1_767_225_600, "%F %j"), "2026-01-01 001");
        assert_eq!(format(0, "%F %j %s"), "1970-01-01 001 0");
    }

    #[test]
    fn date_uptime_and_the_journal_agree() {
        let m = Machine::stage();
        let date = m.learner("date +%F_%H:%M");
        let up = m.learner("uptime").stdout;
        let since = m.learner("uptime -s").stdout;
        let hm = date.stdout.trim().split('_').nth(1).unwrap().to_string();
        assert!(
            up.starts_with(&format!(" {hm}:")),
            "{up} vs {}",
            date.stdout
        );
        assert!(up.contains(",  1 user,  load average: "), "{up}");
        let day = date.stdout.split('_').next().unwrap().to_string();
        assert!(since.starts_with(&day), "{since} vs {day}");
        assert_eq!(m.learner("date -d tomorrow").code, 1);
    }
}
