//! A lab's place in the class server's memory budget (the server's side is
//! `serve::lab_memory`): asked for before a lab opens, held while it is open.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

/// The environment variable that names the server's socket (set only for a session on a
/// class server).
pub const ENV: &str = "ROCM_LEARN_LAB_MEMORY";

/// A lab's place in the server's budget, held while the lab is open.
pub struct Ticket(#[allow(dead_code)] std::os::unix::net::UnixStream);

/// Why a lab may not open.
#[derive(Debug)]
pub struct Full;

/// Asks the class server (when this app runs on one) for `bytes` of its lab memory. Not on a
/// class server, or the server cannot be asked: no ticket and no refusal (a laptop's labs are
/// their owner's business).
pub fn ask(bytes: u64, learner: &str) -> Result<Option<Ticket>, Full> {
    let Some(path) = std::env::var_os(ENV).filter(|p| !p.is_empty()) else {
        return Ok(None);
    };
    let Ok(mut stream) = std::os::unix::net::UnixStream::connect(Path::new(&path)) else {
        return Ok(None);
    };
    let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(10)));
    if writeln!(stream, "lab {bytes} {learner}").is_err() {
        return Ok(None);
    }
    let mut answer = String::new();
    let Ok(reader) = stream.try_clone() else {
        return Ok(None);
    };
    if BufReader::new(reader.take(16))
        .read_line(&mut answer)
        .is_err()
    {
        return Ok(None);
    }
    match answer.trim() {
        "ok" => Ok(Some(Ticket(stream))),
        "full" => Err(Full),
        _ => Ok(None),
    }
}
