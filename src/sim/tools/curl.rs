//! `curl` against the same offline mirror as wget ([`super::wget::serve`]): `-fsSL URL | gpg
//! --dearmor`, `-O`, `-o FILE`. Other hosts do not resolve; a missing file is a 404.

use super::super::{Ctx, catalog};
use super::check_writable;

const TRY: &str = "curl: try 'curl --help' or 'curl --manual' for more information";

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let args = super::split_short(args, "oXHdAeuw");
    let (mut silent, mut show_error, mut fail) = (false, false, false);
    let mut remote_name = false;
    let mut output: Option<String> = None;
    let mut urls = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        match a {
            "-s" | "--silent" => silent = true,
            "-S" | "--show-error" => show_error = true,
            "-f" | "--fail" => fail = true,
            "-L" | "--location" | "-k" | "--insecure" | "-#" | "--progress-bar" | "-v"
            | "--verbose" | "--compressed" => {}
            "-O" | "--remote-name" => remote_name = true,
            "-o" | "--output" => match args.get(i) {
                Some(v) => {
                    output = Some(v.clone());
                    i += 1;
                }
                None => {
                    cx.eprintln("curl: option -o: requires parameter");
                    cx.eprintln(TRY);
                    return 2;
                }
            },
            "-X" | "-H" | "-d" | "-A" | "-e" | "-u" | "-w" => i += 1,
            "-h" | "--help" => {
                cx.println("Usage: curl [options...] <url>");
                return 0;
            }
            o if o.starts_with("--output=") => output = Some(o["--output=".len()..].into()),
            o if o.starts_with('-') && o.len() > 1 => {
                cx.eprintln(&format!("curl: option {o}: is unknown"));
                cx.eprintln(TRY);
                return 2;
            }
            u => urls.push(u.to_string()),
        }
    }
    let Some(url) = urls.first().cloned() else {
        cx.eprintln("curl: no URL specified!");
        cx.eprintln(TRY);
        return 2;
    };
    let errors = !silent || show_error;
    let (with_scheme, host) = super::wget::url_and_host(&url);
    if host != "repo.radeon.com" && host != "raw.githubusercontent.com" {
        if errors {
            cx.eprintln(&format!("curl: (6) Could not resolve host: {host}"));
        }
        return 6;
    }
    let Some((body, _mime)) = super::wget::serve(&with_scheme) else {
        if let Some(v) = catalog::upstream_only(&with_scheme) {
            cx.eprintln(&format!(
                "rocm-learn: repo.radeon.com publishes ROCm {v}, but this lab's offline mirror does not carry it (it has {}).",
                catalog::mirrored()
            ));
        }
        if fail {
            if errors {
                cx.eprintln("curl: (22) The requested URL returned error: 404");
            }
            return 22;
        }
        // Without -f the server's error page is the output.
        cx.print("<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n</body>\r\n</html>\r\n");
        return 0;
    };
    let target = match (output, remote_name) {
        (Some(o), _) => Some(o),
        (None, true) => Some(
            with_scheme
                .rsplit('/')
                .next()
                .filter(|n| !n.is_empty())
                .unwrap_or("index.html")
                .to_string(),
        ),
        (None, false) => None,
    };
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
    if !silent {
        let n = body.len();
        cx.eprint(&format!(
            "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n100 {n:>5}  100 {n:>5}    0     0  {:>5}      0 --:--:-- --:--:-- --:--:-- {:>5}\n",
            n * 10,
            n * 10
        ));
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
