//! Leaving a load balancer's pool cleanly. `--health ADDR:PORT` answers HTTP `200 ready` until
//! SIGTERM and `503 draining` after, so the balancer sends no one new; from SIGTERM on the
//! server takes no new connection, ends every learner's session with a line telling them to
//! log in again (the balancer sends them to another worker; their apps save first), and exits
//! once the last session has ended or at the deadline.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::Notify;

/// How long a draining server waits for its sessions' apps to save and end.
pub const DEADLINE: Duration = Duration::from_secs(30);

#[derive(Default)]
pub struct Drain {
    draining: AtomicBool,
    notify: Notify,
}

impl Drain {
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    pub fn start(&self) {
        self.draining.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    /// Returns once draining has started.
    pub async fn started(&self) {
        loop {
            let woken = self.notify.notified();
            if self.is_draining() {
                return;
            }
            woken.await;
        }
    }
}

/// Starts draining on SIGTERM (a thread of its own: the signal may come at any time).
pub fn on_sigterm(drain: Arc<Drain>) -> std::io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([signal_hook::consts::SIGTERM])?;
    std::thread::spawn(move || {
        for _ in signals.forever() {
            drain.start();
        }
    });
    Ok(())
}

/// The readiness endpoint: any request gets the state, and the connection closes. A client
/// that sends nothing is answered after a second anyway (a plain TCP check works too).
pub async fn health(listener: tokio::net::TcpListener, drain: Arc<Drain>) {
    loop {
        let Ok((mut socket, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let drain = drain.clone();
        tokio::spawn(async move {
            let mut buf = [0u8; 1024];
            let mut got = 0;
            // Read the request head (bounded in size and time), then answer.
            let _ = tokio::time::timeout(Duration::from_secs(1), async {
                while got < buf.len() {
                    match socket.read(&mut buf[got..]).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => got += n,
                    }
                    if buf[..got].windows(4).any(|w| w == b"\r\n\r\n") {
                        break;
                    }
                }
            })
            .await;
            let _ = socket
                .write_all(answer(drain.is_draining()).as_bytes())
                .await;
            let _ = socket.shutdown().await;
        });
    }
}

fn answer(draining: bool) -> String {
    let (status, body) = if draining {
        ("503 Service Unavailable", "draining\n")
    } else {
        ("200 OK", "ready\n")
    };
    format!(
        "HTTP/1.0 {status}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_until_draining() {
        assert!(answer(false).starts_with("HTTP/1.0 200 OK\r\n"));
        assert!(answer(false).ends_with("\r\n\r\nready\n"));
        assert!(answer(true).starts_with("HTTP/1.0 503 "));
        assert!(answer(true).ends_with("\r\n\r\ndraining\n"));
    }
}
