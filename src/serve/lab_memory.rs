//! The class server's memory budget for labs. Each lab keeps its machine in memory, up to its
//! own budget (a GiB by default); a server admits a lab only while the budgets of the labs open
//! on it add up to no more than `--lab-memory`. A session's app asks before it opens a lab, on
//! a socket only this server's sessions can reach, and holds the connection while the lab is
//! open: when the lab closes, or the app dies, the kernel closes it and the budget is free
//! again, so nothing is ever leaked by a crash.
//!
//! The line protocol: the app sends `lab BYTES NAME\n`; the server answers `ok\n` or `full\n`.
//! The app's side is `lab::app::memory_ticket`.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

pub use crate::lab::app::memory_ticket::ENV;

/// What the open labs hold, against the limit.
pub struct Budget {
    limit: u64,
    used: Mutex<u64>,
}

impl Budget {
    pub fn new(limit: u64) -> Arc<Budget> {
        Arc::new(Budget {
            limit,
            used: Mutex::new(0),
        })
    }

    /// Takes `bytes` if they fit; what is then in use, or None (with what is in use) if not.
    fn take(&self, bytes: u64) -> Result<u64, u64> {
        let mut used = self
            .used
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if used.saturating_add(bytes) > self.limit {
            return Err(*used);
        }
        *used += bytes;
        Ok(*used)
    }

    fn give_back(&self, bytes: u64) {
        let mut used = self
            .used
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *used = used.saturating_sub(bytes);
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }
}

/// Half of this machine's memory, the default limit (MemTotal of /proc/meminfo).
pub fn half_of_ram() -> u64 {
    let text = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kib: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(8 << 20);
    kib * 1024 / 2
}

fn mib(bytes: u64) -> u64 {
    bytes >> 20
}

/// Serves requests on `listener` until the server ends.
pub async fn serve(listener: tokio::net::UnixListener, budget: Arc<Budget>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            continue;
        };
        tokio::spawn(one(stream, budget.clone()));
    }
}

/// One lab's request, and its hold until the connection closes.
async fn one(stream: tokio::net::UnixStream, budget: Arc<Budget>) {
    let (read, mut write) = stream.into_split();
    // One short line at most: a session's app never sends more.
    let mut read = tokio::io::BufReader::new(read.take(256));
    let mut line = String::new();
    if read.read_line(&mut line).await.is_err() {
        return;
    }
    let mut words = line.split_whitespace();
    let (Some("lab"), Some(bytes), name) = (words.next(), words.next(), words.next()) else {
        return;
    };
    let Ok(bytes) = bytes.parse::<u64>() else {
        return;
    };
    let name = super::printable(name.unwrap_or("?"));
    match budget.take(bytes) {
        Ok(_) => {
            if write.write_all(b"ok\n").await.is_err() {
                budget.give_back(bytes);
                return;
            }
            // Held until the app lets go (its lab closed, or it ended).
            let mut rest = read.into_inner();
            let mut sink = [0u8; 64];
            while matches!(rest.read(&mut sink).await, Ok(1..)) {}
            budget.give_back(bytes);
        }
        Err(used) => {
            eprintln!(
                "serve: refused a lab to {name}: the class server is full for labs \
                 ({} MiB of {} MiB held, this lab needs {} MiB; --lab-memory)",
                mib(used),
                mib(budget.limit),
                mib(bytes)
            );
            let _ = write.write_all(b"full\n").await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labs_are_admitted_while_their_budgets_fit_and_freed_when_closed() {
        let b = Budget::new(3 << 30);
        assert_eq!(b.take(1 << 30), Ok(1 << 30));
        assert_eq!(b.take(1 << 30), Ok(2 << 30));
        assert_eq!(b.take(1 << 30), Ok(3 << 30));
        assert_eq!(b.take(1 << 30), Err(3 << 30));
        b.give_back(1 << 30);
        assert_eq!(b.take(1 << 30), Ok(3 << 30));
        assert_eq!(b.take(u64::MAX), Err(3 << 30));
    }
}
