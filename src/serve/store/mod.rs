//! `serve --store postgres://...`: the class kept in PostgreSQL, so that several workers (on
//! any machines, behind a TCP load balancer) serve one class and a worker that dies loses
//! nothing.
//!
//! Why this shape: a session's app keeps writing its learner's log in the worker's class folder
//! exactly as without a store (the app and its tests stay as they are), and the worker sends
//! every new event to the store within `ROUND` (`forward`). A learner who logs in on a worker
//! first gets every event the store has for them added to their folder there
//! (`progress::Store::absorb`), so `progress` and the app on any worker show all their work.
//! Events are keyed by their own id: sent twice, or absorbed back, an event is still one.
//! Presence (who has a session, on which worker) is renewed every `PRESENCE`; the report
//! takes a row not renewed for `FRESH` as a dead worker's.

pub mod forward;
pub mod report;
pub mod schema;
pub mod url;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::sync::Mutex;
use tokio_postgres::Client;

use crate::content::Msg;

pub use url::{ENV, Url};

/// How often a worker sends its learners' new events.
const ROUND: Duration = Duration::from_millis(250);
/// How long a login waits for the learner's events from the database.
const MATERIALIZE_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a worker renews its sessions' presence.
const PRESENCE: Duration = Duration::from_secs(2);
/// How old a presence row may be and still mean "connected" (several missed renewals).
pub const FRESH_SECS: f64 = 15.0;

pub struct Store {
    url: Url,
    client: Mutex<Option<Client>>,
    /// This worker, in presence rows: host, process and start time, so a restarted worker on
    /// the same host with the same pid is still another.
    worker: String,
    /// The server's language, for its log.
    lang: crate::lang::Lang,
    /// How far each log has been sent.
    tail: Mutex<forward::Tail>,
}

fn failed(e: &tokio_postgres::Error) -> Msg {
    Msg::new("store-failed").arg("error", why(e))
}

/// The driver's error with its cause: alone it says only "db error" for what the database
/// refused (a missing database, a wrong password).
pub fn why(e: &tokio_postgres::Error) -> String {
    match std::error::Error::source(e) {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
}

/// Connects and spawns the connection's task (it must run on a tokio runtime).
async fn connect(url: &Url) -> Result<Client, Msg> {
    let (client, conn) = url
        .config
        .connect(tokio_postgres::NoTls)
        .await
        .map_err(|e| {
            Msg::new("store-unreachable")
                .arg("url", &url.shown)
                .arg("error", why(&e))
        })?;
    tokio::spawn(async move {
        if let Err(e) = conn.await {
            eprintln!("serve: the class database: {e}");
        }
    });
    Ok(client)
}

impl Store {
    /// Connects and brings the schema up to date.
    pub async fn open(url: Url, lang: crate::lang::Lang) -> Result<Store, Msg> {
        let mut client = connect(&url).await?;
        schema::migrate(&mut client).await?;
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
        let worker = format!(
            "{}:{}:{}",
            host.trim(),
            std::process::id(),
            crate::progress::now()
        );
        Ok(Store {
            url,
            client: Mutex::new(Some(client)),
            worker,
            lang,
            tail: Mutex::default(),
        })
    }

    pub fn shown(&self) -> &str {
        &self.url.shown
    }

    /// The connection, made again if the database dropped it.
    async fn client(&self) -> Result<tokio::sync::MappedMutexGuard<'_, Client>, Msg> {
        let mut guard = self.client.lock().await;
        if guard.as_ref().is_none_or(Client::is_closed) {
            *guard = Some(connect(&self.url).await?);
        }
        Ok(tokio::sync::MutexGuard::map(guard, |c| {
            c.as_mut().expect("connected above")
        }))
    }

    /// Sends new events, committed before they count as sent.
    async fn send(&self, new: &forward::New) -> Result<(), Msg> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(|e| failed(&e))?;
        let insert = tx
            .prepare(
                "INSERT INTO rocm_learn_events (learner, dir, id, t, body) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT DO NOTHING",
            )
            .await
            .map_err(|e| failed(&e))?;
        for e in &new.events {
            let body = serde_json::to_string(e).expect("event serialises");
            let t = i64::try_from(e.t).unwrap_or(i64::MAX);
            tx.execute(&insert, &[&new.learner, &new.dir, &e.id, &t, &body])
                .await
                .map_err(|e| failed(&e))?;
        }
        tx.commit().await.map_err(|e| failed(&e))
    }

    /// Every event the store has for `learner`, by folder inside theirs.
    async fn events_of(
        &self,
        learner: &str,
    ) -> Result<BTreeMap<String, Vec<crate::events::Event>>, Msg> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT dir, body FROM rocm_learn_events WHERE learner = $1",
                &[&learner],
            )
            .await
            .map_err(|e| failed(&e))?;
        let mut out: BTreeMap<String, Vec<crate::events::Event>> = BTreeMap::new();
        for r in rows {
            let dir: String = r.get(0);
            if let Ok(e) = serde_json::from_str(r.get::<_, &str>(1)) {
                out.entry(dir).or_default().push(e);
            }
        }
        Ok(out)
    }

    /// Adds to `learner`'s folder on this worker every event the store has for them, before
    /// their session starts. A store that cannot be read is logged, and the session starts
    /// with what this worker has (the learner still works; what they do is sent as usual).
    pub async fn materialize(&self, class: &Path, learner: &str) {
        // Bounded: a database that hangs must not hold the learner's login.
        let read = tokio::time::timeout(MATERIALIZE_TIMEOUT, self.events_of(learner)).await;
        let read = read.unwrap_or_else(|_| {
            Err(Msg::new("store-timeout").arg("secs", MATERIALIZE_TIMEOUT.as_secs()))
        });
        let by_dir = match read {
            Ok(b) => b,
            Err(msg) => {
                eprintln!("serve: {learner}: the class database: {}", self.text(&msg));
                return;
            }
        };
        let home = crate::progress::learner_dir(class, learner);
        let name = learner.to_string();
        let lang = self.lang;
        let _ = tokio::task::spawn_blocking(move || {
            for (dir, events) in by_dir {
                if !forward::safe_dir(&dir) {
                    continue;
                }
                let folder: PathBuf = if dir.is_empty() {
                    home.clone()
                } else {
                    home.join(&dir)
                };
                if let Err(e) = crate::progress::Store::at(folder).absorb(&events) {
                    eprintln!("serve: {name}: {}", crate::i18n::I18n::new(lang).msg(&e.0));
                }
            }
        })
        .await;
    }

    /// Replaces this worker's presence rows with its sessions now (`online/NAME.PID.N`).
    async fn renew_presence(&self, class: &Path) -> Result<(), Msg> {
        let mine = format!(".{}.", std::process::id());
        let mut sessions: Vec<(String, String, Option<i64>)> = Vec::new();
        if let Ok(entries) = std::fs::read_dir(class.join(super::presence::DIR)) {
            for e in entries.filter_map(Result::ok) {
                let file = e.file_name().to_string_lossy().into_owned();
                let Some((learner, _)) = file.split_once(&mine) else {
                    continue;
                };
                let detached = std::fs::read_to_string(e.path())
                    .ok()
                    .and_then(|t| t.strip_prefix("detached ")?.trim().parse().ok());
                sessions.push((file.clone(), learner.to_string(), detached));
            }
        }
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(|e| failed(&e))?;
        // A dead worker's rows count for nothing after FRESH_SECS; an hour later they go.
        tx.execute(
            "DELETE FROM rocm_learn_presence WHERE worker = $1 OR seen < now() - interval '1 hour'",
            &[&self.worker],
        )
        .await
        .map_err(|e| failed(&e))?;
        for (session, learner, detached) in &sessions {
            tx.execute(
                "INSERT INTO rocm_learn_presence (worker, session, learner, detached_until)
                 VALUES ($1, $2, $3, $4)",
                &[&self.worker, session, learner, detached],
            )
            .await
            .map_err(|e| failed(&e))?;
        }
        tx.commit().await.map_err(|e| failed(&e))
    }

    /// One round: every new event sent, each log marked sent only once committed.
    async fn round(&self, class: &Path) -> Result<(), Msg> {
        let mut tail = self.tail.lock().await;
        let c = class.to_path_buf();
        let taken = std::mem::take(&mut *tail);
        let (new, back) = tokio::task::spawn_blocking(move || (taken.new_events(&c), taken))
            .await
            .map_err(|e| Msg::new("store-failed").arg("error", e))?;
        *tail = back;
        for n in &new {
            self.send(n).await?;
            tail.done(n);
        }
        Ok(())
    }

    /// Sends what waits now (a draining worker, before it exits).
    pub async fn flush(&self, class: &Path) {
        if let Err(msg) = self.round(class).await {
            eprintln!("serve: the class database: {}", self.text(&msg));
        }
    }

    /// The worker's part, for as long as it runs: new events out every `ROUND`, presence
    /// every `PRESENCE`. An outage is logged once and retried; nothing is marked sent
    /// before the database committed it.
    pub async fn run(self: std::sync::Arc<Self>, class: PathBuf) {
        let mut last_presence = tokio::time::Instant::now() - PRESENCE;
        let mut down = false;
        loop {
            let mut result = self.round(&class).await;
            if result.is_ok() && last_presence.elapsed() >= PRESENCE {
                result = self.renew_presence(&class).await;
                last_presence = tokio::time::Instant::now();
            }
            match result {
                Err(msg) if !down => {
                    eprintln!("serve: the class database: {}", self.text(&msg));
                    down = true;
                }
                Ok(()) if down => {
                    eprintln!("serve: the class database is reachable again");
                    down = false;
                }
                _ => {}
            }
            tokio::time::sleep(ROUND).await;
        }
    }
}

impl Store {
    /// A message for the server's log, in the server's language.
    fn text(&self, msg: &Msg) -> String {
        crate::i18n::I18n::new(self.lang).msg(msg)
    }
}
