//! The learner's side of a simulated tool: one request to the supervisor carrying this
//! process's terminal, then the tool's exit status as this process's own.

use std::io;
use std::os::fd::AsFd;
use std::os::unix::net::UnixStream;

use crate::content::Msg;
use crate::i18n::I18n;
use crate::lab::wire::fdpass;
use crate::lab::wire::protocol::{self, SHELL_FD, ToolReply, ToolRequest};
use crate::lang::Lang;

/// Environment a request carries at most (the rest is dropped, newest variables last).
const ENV_BUDGET: usize = 48 * 1024;

pub fn forward(tool: &str, args: &[String], release: Option<&str>) -> i32 {
    match ask(tool, args, release) {
        Ok(ToolReply::Exit { code }) => code,
        Ok(ToolReply::Signal { signal }) => crate::lab::sandbox::sys::die_by(signal),
        Ok(ToolReply::Refused) => fail(Msg::new("lab-tool-no-login").arg("tool", tool)),
        Err(e) => fail(
            Msg::new("lab-tool-unreachable")
                .arg("tool", tool)
                .arg("error", e),
        ),
    }
}

/// Says why the tool did not run, in the app's language (Fluent is loaded only here, on the
/// way out), and gives the status of a command that could not be executed.
fn fail(why: Msg) -> i32 {
    let lang = std::env::var(crate::lab::wire::layout::LANG_ENV)
        .ok()
        .and_then(|c| Lang::parse(&c))
        .unwrap_or(Lang::En);
    eprintln!("{}", I18n::new(lang).msg(&why));
    126
}

fn ask(tool: &str, args: &[String], release: Option<&str>) -> io::Result<ToolReply> {
    // Every login's processes inherit the supervisor's socket there; this process ends after
    // the answer, so it may own it. A learner may have closed it or put a file there: then
    // there is no socket and sendmsg fails, which is reported.
    let shell = crate::lab::sandbox::sys::take_fd(SHELL_FD)
        .ok_or_else(|| io::Error::from_raw_os_error(libc::EBADF))?;
    let mut budget = ENV_BUDGET;
    // A release's wrapper names its release: the tool answers for that tree.
    let named = release.map(|r| (crate::sim::wrappers::RELEASE_ENV.to_string(), r.to_string()));
    let env: Vec<(String, String)> = named
        .into_iter()
        .chain(std::env::vars().filter(|(k, _)| k != crate::sim::wrappers::RELEASE_ENV))
        .filter(|(k, v)| {
            let n = k.len() + v.len();
            let fits = n <= budget;
            if fits {
                budget -= n;
            }
            fits
        })
        .collect();
    let req = ToolRequest {
        version: protocol::VERSION,
        tool: tool.into(),
        args: args.to_vec(),
        cwd: std::env::current_dir()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|_| "/".into()),
        env,
    };
    let body = serde_json::to_vec(&req).map_err(io::Error::other)?;
    if body.len() > protocol::MAX {
        return Err(io::Error::other("argument list too long"));
    }
    let (mine, theirs) = fdpass::pair(fdpass::SocketType::STREAM)?;
    fdpass::send(
        shell.as_fd(),
        &body,
        &[
            io::stdin().as_fd(),
            io::stdout().as_fd(),
            io::stderr().as_fd(),
            theirs.as_fd(),
        ],
    )?;
    drop(theirs);
    let mut reply = UnixStream::from(mine);
    protocol::recv(&mut reply)
}
