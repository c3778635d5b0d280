//! `curl` against the same offline mirror as wget ([`super::wget::serve`]): `-fsSL URL | gpg
//! --dearmor`, `-O`, `-o FILE`. Other hosts do not resolve; a missing file is a 404.

use super::super::Ctx;
use super::{check_writable, opts};

const TRY: &str = "curl: try 'curl --help' or 'curl --manual' for more information";

/// What curl's command line asks for.
#[derive(Debug, Default)]
struct Request {
    silent: bool,
    show_error: bool,
    fail: bool,
    /// `-O`: save under the URL's file name.
    remote_name: bool,
    output: Option<String>,
    urls: Vec<String>,
}

/// Why curl stops before it connects.
#[derive(Debug, PartialEq)]
enum Stop {
    Help,
    /// curl's complaint, printed above the hint to read the help (exit 2).
    Usage(String),
}

fn unknown(word: &str) -> Stop {
    Stop::Usage(format!("curl: option {word}: is unknown"))
}

fn output(p: &mut lexopt::Parser) -> Result<Option<String>, Stop> {
    opts::value(p)
        .ok()
        .map(Some)
        .ok_or_else(|| Stop::Usage("curl: option -o: requires parameter".into()))
}

fn parse(args: &[String]) -> Result<Request, Stop> {
    use opts::Token::{DashDash, Long, Short, Value};
    let mut p = opts::parser(args);
    let mut r = Request::default();
    while let Some(t) = opts::next_token(&mut p) {
        match t {
            Short('s') => r.silent = true,
            Short('S') => r.show_error = true,
            Short('f') => r.fail = true,
            Short('L' | 'k' | '#' | 'v') => {}
            Short('O') => r.remote_name = true,
            Short('o') => r.output = output(&mut p)?,
            // Request options with a value the offline mirror has no use for.
            Short('X' | 'H' | 'd' | 'A' | 'e' | 'u' | 'w') => {
                opts::value(&mut p).ok();
            }
            Short('h') => return Err(Stop::Help),
            // `-s-` holds a `--`, an option curl does not know.
            Short('-') | DashDash => return Err(unknown("--")),
            Short(c) => return Err(unknown(&format!("-{c}"))),
            Long(name, Some(v)) if name == "output" => r.output = Some(v),
            Long(name, Some(v)) => return Err(unknown(&format!("--{name}={v}"))),
            Long(name, None) => match name.as_str() {
                "silent" => r.silent = true,
                "show-error" => r.show_error = true,
                "fail" => r.fail = true,
                "location" | "insecure" | "progress-bar" | "verbose" | "compressed" => {}
                "remote-name" => r.remote_name = true,
                "output" => r.output = output(&mut p)?,
                "help" => return Err(Stop::Help),
                n => return Err(unknown(&format!("--{n}"))),
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
            cx.println("Usage: curl [options...] <url>");
            return 0;
        }
        Err(Stop::Usage(msg)) => {
            cx.eprintln(&msg);
            cx.eprintln(TRY);
            return 2;
        }
    };
    let Some(url) = r.urls.first() else {
        cx.eprintln("curl: no URL specified!");
        cx.eprintln(TRY);
        return 2;
    };
    let errors = !r.silent || r.show_error;
    let (with_scheme, host) = super::wget::url_and_host(url);
    if !super::wget::mirrored(&host) {
        if errors {
            cx.eprintln(&format!("curl: (6) Could not resolve host: {host}"));
        }
        return 6;
    }
    let Some((body, _mime)) = super::wget::serve(&with_scheme) else {
        return not_found(cx, &r, &with_scheme);
    };
    let target = target(&r, &with_scheme);
    if let Some(t) = target.as_deref().filter(|t| *t != "-")
        && let Err(e) = check_writable(cx, t)
    {
        if errors {
            cx.eprintln(&format!(
                "Warning: Failed to open the file {t}: {e}\ncurl: (23) Failure writing output to destination"
            ));
        }
        return 23;
    }
    if !r.silent {
        progress(cx, body.len());
    }
    match target.as_deref() {
        Some(t) if t != "-" => {
            if let Err(e) = cx.write_named(t, &body) {
                cx.eprintln(&format!("curl: (23) {e}"));
                return 23;
            }
        }
        _ => cx.out.stdout.extend_from_slice(&body),
    }
    0
}

/// A path the mirror does not have: error 22 with -f; without it the server's error page is
/// the output.
fn not_found(cx: &mut Ctx, r: &Request, with_scheme: &str) -> i32 {
    super::wget::upstream_note(cx, with_scheme);
    if !r.fail {
        cx.print("<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n</body>\r\n</html>\r\n");
        return 0;
    }
    if !r.silent || r.show_error {
        cx.eprintln("curl: (22) The requested URL returned error: 404");
    }
    22
}

/// The file the body goes to: -o, or the URL's last part with -O; stdout otherwise.
fn target(r: &Request, with_scheme: &str) -> Option<String> {
    if r.output.is_some() {
        return r.output.clone();
    }
    r.remote_name.then(|| {
        with_scheme
            .rsplit('/')
            .next()
            .filter(|n| !n.is_empty())
            .unwrap_or("index.html")
            .to_string()
    })
}

/// curl's progress meter, on stderr unless silent.
fn progress(cx: &mut Ctx, n: usize) {
    cx.eprint(&format!(
        "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n100 {n:>5}  100 {n:>5}    0     0  {:>5}      0 --:--:-- --:--:-- --:--:-- {:>5}\n",
        n * 10,
        n * 10
    ));
}

#[cfg(test)]
mod tests {
    use super::super::super::catalog::KEY_URL;
    use super::super::testkit::{Bench, err};
    use super::TRY;

    fn unknown(o: &str) -> (i32, String) {
        (2, format!("curl: option {o}: is unknown\n{TRY}\n"))
    }

    #[test]
    fn option_errors_read_like_curl() {
        let b = Bench::new(|_| {});
        assert_eq!(
            err(b.run("curl")),
            (2, format!("curl: no URL specified!\n{TRY}\n"))
        );
        assert_eq!(err(b.run("curl -z x")), unknown("-z"));
        assert_eq!(err(b.run("curl -sz x")), unknown("-z"));
        assert_eq!(err(b.run("curl --bogus=1 x")), unknown("--bogus=1"));
        assert_eq!(err(b.run("curl --silent=1 x")), unknown("--silent=1"));
        assert_eq!(err(b.run("curl --help=1")), unknown("--help=1"));
        assert_eq!(err(b.run("curl -- x")), unknown("--"));
        assert_eq!(err(b.run("curl -s- x")), unknown("--"));
        let needs = (2, format!("curl: option -o: requires parameter\n{TRY}\n"));
        assert_eq!(err(b.run("curl -s -o")), needs);
        assert_eq!(err(b.run("curl --output")), needs);
    }

    #[test]
    fn output_forms() {
        let b = Bench::new(|_| {});
        let key = super::super::wget::serve(KEY_URL)
            .map(|(body, _)| String::from_utf8_lossy(&body).into_owned())
            .unwrap_or_default();
        for line in [
            format!("curl -fsSL {KEY_URL}"),
            format!("curl -s -X GET {KEY_URL}"),
            format!("curl -sHAccept:x {KEY_URL}"),
            format!("curl -s {KEY_URL} -X"),
            format!("curl --silent --location {KEY_URL} -o -"),
        ] {
            assert_eq!(b.run(&line), (0, key.clone(), String::new()), "{line}");
        }
        for (line, file) in [
            (format!("curl -fsSL {KEY_URL} -o k1"), "k1"),
            (format!("curl -fsSLok2 {KEY_URL}"), "k2"),
            (format!("curl -s --output=k3 {KEY_URL}"), "k3"),
            (format!("curl -s --output k4 {KEY_URL}"), "k4"),
            (format!("curl -so=k5 {KEY_URL}"), "=k5"),
            (format!("curl -sO {KEY_URL}"), "rocm.gpg.key"),
        ] {
            assert_eq!(b.run(&line), (0, String::new(), String::new()), "{line}");
            assert!(b.has(&format!("home/learner/{file}")), "{line}");
        }
    }
}
