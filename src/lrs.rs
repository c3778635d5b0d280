//! Statements to a Learning Record Store: queued on disk as they are made (one file each,
//! numbered in the order of the log) and sent in order by a thread of their own, so the app
//! never waits on the network. While the LRS is away nothing is lost: a statement leaves the
//! queue only once the LRS has it. Bad credentials stop sending and keep the queue.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// The xAPI base URL (statements are at `BASE/statements`).
pub const URL_ENV: &str = "ROCM_LEARN_LRS";
/// `user:password` for HTTP basic authentication.
pub const AUTH_ENV: &str = "ROCM_LEARN_LRS_AUTH";

// An underscore: ids with a hyphen read as message ids to the i18n test.
const QUEUE_DIR: &str = "lrs_queue";
const STATUS_FILE: &str = "status.json";
const LOCK_FILE: &str = "queue.lock";

#[derive(Debug, Clone)]
pub struct Config {
    pub base: String,
    pub auth: Option<String>,
}

impl Config {
    pub fn from_env() -> Option<Config> {
        let base = std::env::var(URL_ENV)
            .ok()
            .filter(|s| !s.trim().is_empty())?;
        Some(Config {
            base: base.trim().trim_end_matches('/').to_string(),
            auth: std::env::var(AUTH_ENV).ok().filter(|s| !s.is_empty()),
        })
    }
}

/// Why statements wait, as `lrs status` says it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// `unreachable`, `credentials`, `rejected` or empty (none).
    #[serde(default)]
    pub problem: String,
    #[serde(default)]
    pub detail: String,
    #[serde(default)]
    pub at: u64,
}

pub fn queue_dir(data: &Path) -> PathBuf {
    data.join(QUEUE_DIR)
}

/// Statements waiting, oldest first.
pub fn waiting(data: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(queue_dir(data))
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .filter(|p| p.file_name().is_some_and(|n| n != STATUS_FILE))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// How many statements wait in `data`'s queue while no LRS is set (so nothing sends them), if
/// any: a class server started without `ROCM_LEARN_LRS` says so rather than keep them unseen.
pub fn stranded(data: &Path) -> Option<usize> {
    if Config::from_env().is_some() {
        return None;
    }
    let n = waiting(data).len();
    (n > 0).then_some(n)
}

fn lock(data: &Path) -> std::io::Result<std::fs::File> {
    let dir = queue_dir(data);
    std::fs::create_dir_all(&dir)?;
    crate::unix::files::lock_file(&dir.join(LOCK_FILE))
}

/// Adds statements to the end of the queue, in order.
pub fn enqueue(data: &Path, statements: &[serde_json::Value]) -> std::io::Result<()> {
    if statements.is_empty() {
        return Ok(());
    }
    let _lock = lock(data)?;
    let dir = queue_dir(data);
    let next = waiting(data)
        .last()
        .and_then(|p| p.file_stem()?.to_str()?.parse::<u64>().ok())
        .map_or(0, |n| n + 1);
    for (n, s) in (next..).zip(statements) {
        let path = dir.join(format!("{n:016}.json"));
        crate::unix::files::write_atomic(&path, &serde_json::to_vec(s).expect("json"))?;
    }
    Ok(())
}

pub fn status(data: &Path) -> Status {
    std::fs::read(queue_dir(data).join(STATUS_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

fn set_status(data: &Path, s: &Status) {
    let path = queue_dir(data).join(STATUS_FILE);
    let _ = crate::unix::files::write_atomic(&path, &serde_json::to_vec(s).expect("json"));
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(10)))
        .http_status_as_error(false)
        .build()
        .into()
}

fn basic(auth: &str) -> String {
    format!("Basic {}", base64(auth.as_bytes()))
}

fn base64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(T[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Statements sent in one request at most: fewer round trips for a queue that grew while the
/// LRS was away, and requests of a size every LRS takes.
const BATCH: usize = 50;

/// Sends what waits, in order, until the queue is empty or the LRS refuses; the queue's lock
/// keeps two senders (two instances) from sending one statement twice at once.
pub fn flush(data: &Path, cfg: &Config) -> Status {
    let Ok(_lock) = lock(data) else {
        return status(data);
    };
    let agent = agent();
    let mut st = Status::default();
    let files = waiting(data);
    for batch in files.chunks(BATCH) {
        match send(&agent, cfg, batch) {
            Sent::Ok => remove(batch),
            // Some were there already (a redelivery): one at a time, so none is dropped.
            Sent::Conflict if batch.len() > 1 => {
                for f in batch {
                    match send(&agent, cfg, std::slice::from_ref(f)) {
                        Sent::Ok | Sent::Conflict => remove(std::slice::from_ref(f)),
                        Sent::Problem(p) => {
                            st = p;
                            break;
                        }
                    }
                }
            }
            Sent::Conflict => remove(batch),
            Sent::Problem(p) => st = p,
        }
        if !st.problem.is_empty() {
            break;
        }
    }
    set_status(data, &st);
    st
}

enum Sent {
    Ok,
    Conflict,
    Problem(Status),
}

fn remove(files: &[PathBuf]) {
    for f in files {
        let _ = std::fs::remove_file(f);
    }
}

fn send(agent: &ureq::Agent, cfg: &Config, files: &[PathBuf]) -> Sent {
    let statements: Vec<serde_json::Value> = files
        .iter()
        .filter_map(|f| std::fs::read(f).ok())
        .filter_map(|b| serde_json::from_slice(&b).ok())
        .collect();
    let body = serde_json::to_string(&statements).expect("json");
    let mut req = agent
        .post(format!("{}/statements", cfg.base))
        .header("X-Experience-API-Version", "1.0.3")
        .header("Content-Type", "application/json");
    if let Some(a) = &cfg.auth {
        req = req.header("Authorization", &basic(a));
    }
    match req.send(&body) {
        Err(e) => Sent::Problem(problem("unreachable", e.to_string())),
        Ok(r) => match r.status().as_u16() {
            200..=299 => Sent::Ok,
            409 => Sent::Conflict,
            401 | 403 => Sent::Problem(problem("credentials", format!("HTTP {}", r.status()))),
            code @ 400..=499 => Sent::Problem(problem("rejected", format!("HTTP {code}"))),
            code => Sent::Problem(problem("unreachable", format!("HTTP {code}"))),
        },
    }
}

fn problem(kind: &str, detail: String) -> Status {
    Status {
        problem: kind.into(),
        detail,
        at: crate::progress::now(),
    }
}

static SENDER: Mutex<Option<std::thread::JoinHandle<()>>> = Mutex::new(None);

/// Starts sending in the background unless a send is under way.
pub fn flush_in_background(data: PathBuf, cfg: Config) {
    let mut slot = SENDER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if slot.as_ref().is_some_and(|h| !h.is_finished()) {
        return;
    }
    *slot = std::thread::Builder::new()
        .name("lrs".into())
        .spawn(move || {
            flush(&data, &cfg);
        })
        .ok();
}

/// Gives a send under way up to `limit` to finish (a command about to exit); what is not sent
/// stays queued for the next run.
pub fn wait(limit: Duration) {
    let start = Instant::now();
    loop {
        let busy = SENDER
            .lock()
            .map(|s| s.as_ref().is_some_and(|h| !h.is_finished()))
            .unwrap_or(false);
        if !busy || start.elapsed() >= limit {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every statement of the LRS (following `more`), for `report --lrs`.
pub fn fetch_all(cfg: &Config) -> Result<Vec<serde_json::Value>, String> {
    let agent = agent();
    let origin = cfg
        .base
        .find("://")
        .and_then(|i| cfg.base[i + 3..].find('/').map(|j| &cfg.base[..i + 3 + j]))
        .unwrap_or(&cfg.base)
        .to_string();
    let mut url = format!("{}/statements?limit=500&ascending=true", cfg.base);
    let mut out = Vec::new();
    for _ in 0..10_000 {
        let mut req = agent.get(&url).header("X-Experience-API-Version", "1.0.3");
        if let Some(a) = &cfg.auth {
            req = req.header("Authorization", &basic(a));
        }
        let mut resp = req.call().map_err(|e| e.to_string())?;
        if !resp.status().is_success() {
            return Err(format!("HTTP {}", resp.status()));
        }
        let body = resp
            .body_mut()
            .read_to_string()
            .map_err(|e| e.to_string())?;
        let v: serde_json::Value = serde_json::from_str(&body).map_err(|e| e.to_string())?;
        if let Some(s) = v["statements"].as_array() {
            out.extend(s.iter().cloned());
        }
        match v["more"].as_str().filter(|m| !m.is_empty()) {
            Some(more) if more.starts_with("http") => url = more.to_string(),
            Some(more) => url = format!("{origin}{more}"),
            None => break,
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn basic_auth_is_standard_base64() {
        assert_eq!(super::base64(b"user:pass"), "dXNlcjpwYXNz");
        assert_eq!(super::base64(b"ab"), "YWI=");
        assert_eq!(super::base64(b"a"), "YQ==");
    }
}
