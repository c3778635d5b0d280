//! `wget`: there is no network in a lab, so the URLs of the ROCm install steps are served from
//! the simulator (the repository key, the amdgpu-install .deb, the device plugin manifests);
//! every other host fails to resolve. The log on stderr has wget's shape (dates from the
//! simulated clock).

use super::super::{Ctx, catalog, k8s, keys};
use super::{check_writable, civil, opts};

const USAGE: &str = "Usage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.";

/// The content served at `url`, with its MIME type.
pub fn serve(url: &str) -> Option<(Vec<u8>, &'static str)> {
    if url == catalog::KEY_URL {
        return Some((keys::amd_key_armored().into_bytes(), "application/pgp-keys"));
    }
    if url == super::super::coresdk::KEY_URL {
        let key = super::super::coresdk::key_armored();
        return Some((key.into_bytes(), "application/pgp-keys"));
    }
    if url == catalog::DEVICE_PLUGIN_URL || url == catalog::DEVICE_PLUGIN_HEALTH_URL {
        return Some((
            k8s::device_plugin_manifest().as_bytes().to_vec(),
            "text/plain",
        ));
    }
    if url == catalog::LABELLER_URL {
        return Some((k8s::labeller_manifest().as_bytes().to_vec(), "text/plain"));
    }
    for r in catalog::RELEASES {
        for code in ["jammy", "noble"] {
            if url == r.installer_url(code) {
                let body = format!(
                    "!<arch>\ndebian-binary   0           0     0     100644  4         `\n2.0\n{}amdgpu-install {} {code}\n",
                    super::apt::DEB_MARKER,
                    r.version
                );
                return Some((body.into_bytes(), "application/vnd.debian.binary-package"));
            }
        }
    }
    None
}

pub fn ip_of(host: &str) -> &'static str {
    if host == "raw.githubusercontent.com" {
        "185.199.108.133"
    } else {
        "23.58.229.146"
    }
}

fn human(n: usize) -> String {
    if n < 1024 {
        format!("{n}")
    } else if n < 1024 * 1024 {
        format!("{:.1}K", n as f64 / 1024.0)
    } else {
        format!("{:.1}M", n as f64 / 1024.0 / 1024.0)
    }
}

/// What wget's command line asks for.
#[derive(Debug, Default)]
struct Request {
    /// `-nv`: no progress log.
    quiet: bool,
    /// `-q`: not even the errors.
    silent: bool,
    output: Option<String>,
    dir: Option<String>,
    urls: Vec<String>,
}

/// Why wget stops before it downloads anything.
#[derive(Debug, PartialEq)]
enum Stop {
    Help,
    Version,
    /// getopt's complaint, printed above the usage (exit 2).
    Usage(String),
}

fn unrecognized(word: &str) -> Stop {
    Stop::Usage(format!("wget: unrecognized option '{word}'"))
}

fn needs_file() -> Stop {
    Stop::Usage("wget: option requires an argument -- 'O'".into())
}

fn parse(args: &[String]) -> Result<Request, Stop> {
    use opts::Token::{DashDash, Long, Short, Value};
    let mut p = opts::parser(args);
    let mut r = Request::default();
    while let Some(t) = opts::next_token(&mut p) {
        match t {
            // -q prints nothing at all, errors included; -nv keeps the errors.
            Short('q') => (r.quiet, r.silent) = (true, true),
            Short('O') => r.output = Some(opts::value(&mut p).map_err(|_| needs_file())?),
            Short('P') => r.dir = opts::value(&mut p).ok(),
            Short('c' | 'N') => {}
            Short('h') => return Err(Stop::Help),
            Short('V') => return Err(Stop::Version),
            // `-q-` holds a `--`, which getopt reads as an option here.
            Short('-') | DashDash => return Err(unrecognized("--")),
            Short(c) => return Err(Stop::Usage(format!("wget: invalid option -- '{c}'"))),
            Long(name, Some(v)) if name == "output-document" => r.output = Some(v),
            Long(name, Some(v)) => return Err(unrecognized(&format!("--{name}={v}"))),
            Long(name, None) => match name.as_str() {
                "quiet" => (r.quiet, r.silent) = (true, true),
                "no-verbose" => r.quiet = true,
                "output-document" => {
                    r.output = Some(opts::value(&mut p).map_err(|_| needs_file())?)
                }
                "directory-prefix" => r.dir = opts::value(&mut p).ok(),
                "continue" | "timestamping" | "no-check-certificate" => {}
                "help" => return Err(Stop::Help),
                "version" => return Err(Stop::Version),
                n => return Err(unrecognized(&format!("--{n}"))),
            },
            Value(u) => r.urls.push(u),
        }
    }
    Ok(r)
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let r = match parse(args) {
        Ok(r) => r,
        Err(Stop::Help) => {
            cx.println("GNU Wget 1.21.4, a non-interactive network retriever.");
            cx.println(USAGE.lines().next().unwrap_or(""));
            return 0;
        }
        Err(Stop::Version) => {
            cx.println("GNU Wget 1.21.4 built on linux-gnu.");
            return 0;
        }
        Err(Stop::Usage(msg)) => {
            cx.eprintln(&msg);
            cx.eprintln(USAGE);
            return 2;
        }
    };
    if r.urls.is_empty() {
        cx.eprintln("wget: missing URL");
        cx.eprintln(USAGE);
        return 1;
    }
    let (y, mo, d, h, mi, s) = civil(cx.state.now());
    let stamp = format!("{y}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}");
    // wget opens an explicit -O file before it connects.
    if let Some(o) = r.output.as_deref().filter(|o| *o != "-")
        && let Err(e) = check_writable(cx, o)
    {
        cx.eprintln(&format!("{o}: {e}"));
        return 3;
    }
    // The exit code is the last failure's.
    r.urls
        .iter()
        .map(|url| get(cx, &r, url, &stamp))
        .fold(0, |code, c| if c == 0 { code } else { c })
}

/// Downloads one URL: the log on stderr unless quiet, the body to its file or stdout. Returns
/// wget's exit code for it (4 no such host, 8 server error, 3 file error).
fn get(cx: &mut Ctx, r: &Request, url: &str, stamp: &str) -> i32 {
    let (with_scheme, host) = url_and_host(url);
    let log = !r.quiet;
    if log {
        cx.eprintln(&format!("--{stamp}--  {with_scheme}"));
    }
    if !mirrored(&host) {
        if log {
            cx.eprintln(&format!(
                "Resolving {host} ({host})... failed: Temporary failure in name resolution."
            ));
        }
        if !r.silent {
            cx.eprintln(&format!("wget: unable to resolve host address ‘{host}’"));
        }
        return 4;
    }
    if log {
        connected(cx, &host, &with_scheme);
    }
    let Some((body, mime)) = serve(&with_scheme) else {
        not_found(cx, r, &with_scheme, stamp);
        return 8;
    };
    let target = target(cx, r, &with_scheme);
    if target != "-"
        && let Err(e) = check_writable(cx, &target)
    {
        cx.eprintln(&format!("{target}: {e}"));
        return 3;
    }
    if log {
        saved(cx, &target, body.len(), mime, stamp);
    }
    if target == "-" {
        cx.out.stdout.extend_from_slice(&body);
    } else if let Err(e) = cx.write_named(&target, &body) {
        cx.eprintln(&format!("{target}: {e}"));
        return 3;
    }
    0
}

/// The resolve and connect lines of the log.
fn connected(cx: &mut Ctx, host: &str, with_scheme: &str) {
    let ip = ip_of(host);
    let port = if with_scheme.starts_with("https") {
        443
    } else {
        80
    };
    cx.eprintln(&format!("Resolving {host} ({host})... {ip}"));
    cx.eprintln(&format!(
        "Connecting to {host} ({host})|{ip}|:{port}... connected."
    ));
}

/// A path the mirror does not have: the server's 404.
fn not_found(cx: &mut Ctx, r: &Request, with_scheme: &str, stamp: &str) {
    if !r.quiet {
        cx.eprintln("HTTP request sent, awaiting response... 404 Not Found");
    }
    if !r.silent {
        cx.eprintln(&format!("{stamp} ERROR 404: Not Found."));
        cx.eprintln("");
    }
    // The lab's own note, also under -q.
    upstream_note(cx, with_scheme);
}

/// Whether the offline mirror answers for `host`; every other host fails to resolve. Shared
/// with curl.
pub fn mirrored(host: &str) -> bool {
    host == "repo.radeon.com"
        || host == "raw.githubusercontent.com"
        || host == super::super::coresdk::HOST
}

/// The lab's note under a 404 for a release repo.radeon.com has and the mirror does not: the
/// 404 is the mirror's, not upstream's. Shared with curl.
pub fn upstream_note(cx: &mut Ctx, with_scheme: &str) {
    if let Some(v) = catalog::upstream_only(with_scheme) {
        cx.eprintln(&format!(
            "rocm-learn: repo.radeon.com publishes ROCm {v}, but this lab's offline mirror does not carry it (it has {}).",
            catalog::mirrored()
        ));
    }
}

/// Where the body goes: -O, else the URL's last part under -P or in the working directory.
fn target(cx: &Ctx, r: &Request, with_scheme: &str) -> String {
    let name = with_scheme.rsplit('/').next().unwrap_or("index.html");
    match (&r.output, &r.dir) {
        (Some(o), _) => o.clone(),
        (None, Some(d)) => format!("{}/{name}", d.trim_end_matches('/')),
        (None, None) => {
            // Like wget, never overwrite: name.1, name.2, ...
            let mut candidate = name.to_string();
            let mut i = 1;
            while cx.host(&candidate).exists() {
                candidate = format!("{name}.{i}");
                i += 1;
            }
            candidate
        }
    }
}

/// The log of a download that worked: length, destination, the progress bar, the summary.
fn saved(cx: &mut Ctx, target: &str, len: usize, mime: &str, stamp: &str) {
    cx.eprintln("HTTP request sent, awaiting response... 200 OK");
    if len < 1024 {
        cx.eprintln(&format!("Length: {len} [{mime}]"));
    } else {
        cx.eprintln(&format!("Length: {len} ({}) [{mime}]", human(len)));
    }
    let shown = if target == "-" { "STDOUT" } else { target };
    cx.eprintln(&format!("Saving to: ‘{shown}’"));
    cx.eprintln("");
    cx.eprintln(&format!(
        "{:<20}100%[===================>] {:>7}  --.-KB/s    in 0s      ",
        target.chars().take(19).collect::<String>(),
        human(len)
    ));
    cx.eprintln("");
    let dest = if target == "-" {
        "written to stdout".to_string()
    } else {
        format!("‘{target}’ saved")
    };
    cx.eprintln(&format!("{stamp} (38.2 MB/s) - {dest} [{len}/{len}]"));
    cx.eprintln("");
}

/// The URL as the download tools print it (`http://` added when no scheme is given) and its
/// host, which decides whether the offline mirror answers. Shared with curl.
pub fn url_and_host(url: &str) -> (String, String) {
    let with_scheme = if url.contains("://") {
        url.to_string()
    } else {
        format!("http://{url}")
    };
    let host = with_scheme
        .split("://")
        .nth(1)
        .unwrap_or("")
        .split('/')
        .next()
        .unwrap_or("")
        .to_string();
    (with_scheme, host)
}

#[cfg(test)]
mod tests {
    use super::super::super::catalog::KEY_URL;
    use super::super::testkit::{Bench, err};
    use super::USAGE;

    fn usage(first: &str, code: i32) -> (i32, String) {
        (code, format!("{first}\n{USAGE}\n"))
    }

    #[test]
    fn option_errors_read_like_wget() {
        let b = Bench::new(|_| {});
        let bad = |o: &str| usage(&format!("wget: invalid option -- '{o}'"), 2);
        let unrecognized = |o: &str| usage(&format!("wget: unrecognized option '{o}'"), 2);
        assert_eq!(err(b.run("wget")), usage("wget: missing URL", 1));
        assert_eq!(err(b.run("wget -P")), usage("wget: missing URL", 1));
        assert_eq!(err(b.run("wget -z x")), bad("z"));
        assert_eq!(err(b.run("wget -cz x")), bad("z"));
        // Only the long form: -nv is -n with -v.
        assert_eq!(err(b.run("wget -nv x")), bad("n"));
        assert_eq!(err(b.run("wget --bogus=1 x")), unrecognized("--bogus=1"));
        assert_eq!(err(b.run("wget --quiet=1 x")), unrecognized("--quiet=1"));
        assert_eq!(err(b.run("wget --help=x")), unrecognized("--help=x"));
        assert_eq!(
            err(b.run("wget --directory-prefix=/tmp x")),
            unrecognized("--directory-prefix=/tmp")
        );
        assert_eq!(err(b.run("wget -- x")), unrecognized("--"));
        assert_eq!(err(b.run("wget -q- x")), unrecognized("--"));
        let needs = usage("wget: option requires an argument -- 'O'", 2);
        assert_eq!(err(b.run("wget -q -O")), needs);
        assert_eq!(err(b.run("wget --output-document")), needs);
    }

    #[test]
    fn output_forms() {
        let b = Bench::new(|_| {});
        let key = super::serve(KEY_URL)
            .map(|(body, _)| body)
            .unwrap_or_default();
        let key = String::from_utf8_lossy(&key).into_owned();
        for line in [
            format!("wget -qO- {KEY_URL}"),
            format!("wget -q -O - {KEY_URL}"),
            format!("wget {KEY_URL} -qO -"),
            format!("wget --output-document=- --quiet {KEY_URL}"),
            format!("wget --output-document - -q {KEY_URL}"),
        ] {
            assert_eq!(b.run(&line), (0, key.clone(), String::new()), "{line}");
        }
        assert_eq!(b.run(&format!("wget -qO=k {KEY_URL}")).0, 0);
        assert!(b.has("home/learner/=k"), "the = belongs to the file name");
        assert_eq!(b.run(&format!("wget -qOk2 {KEY_URL}")).0, 0);
        assert!(b.has("home/learner/k2"));
        assert_eq!(b.run(&format!("wget -q -P /home/learner/ {KEY_URL}")).0, 0);
        assert!(b.has("home/learner/rocm.gpg.key"));
        assert_eq!(b.run(&format!("wget -q -P. -Nc {KEY_URL}")).0, 0);
        assert!(
            !b.has("home/learner/rocm.gpg.key.1"),
            "-P names the file itself"
        );
    }
}
