//! What `report --store URL` reads: every learner's events as the store holds them, and who
//! has a session now on any worker (a presence row renewed within `FRESH_SECS`).

use std::collections::{BTreeMap, BTreeSet};

use crate::content::Msg;
use crate::events::Event;

pub struct Class {
    /// (learner, folder inside theirs: "" or `packs/ID`) -> their events.
    pub events: BTreeMap<(String, String), Vec<Event>>,
    /// Learners with a session on some worker (a kept one too: its lab still runs).
    pub connected: BTreeSet<String>,
}

/// Reads the class from the store at `url`; migrates nothing (a report never changes the
/// database), but refuses a schema newer than this binary's.
pub fn read(url: &super::Url) -> Result<Class, Msg> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Msg::new("store-failed").arg("error", e))?;
    rt.block_on(read_async(url))
}

async fn read_async(url: &super::Url) -> Result<Class, Msg> {
    let failed = |e: tokio_postgres::Error| Msg::new("store-failed").arg("error", super::why(&e));
    let client = super::connect(url).await?;
    let version: Option<i32> = client
        .query_opt("SELECT max(version) FROM rocm_learn_schema", &[])
        .await
        .ok()
        .flatten()
        .and_then(|r| r.get(0));
    match version {
        None => return Err(Msg::new("store-empty").arg("url", &url.shown)),
        Some(v) if v > super::schema::VERSION => {
            return Err(Msg::new("store-too-new")
                .arg("found", v)
                .arg("known", super::schema::VERSION));
        }
        Some(_) => {}
    }
    let mut events: BTreeMap<(String, String), Vec<Event>> = BTreeMap::new();
    for r in client
        .query("SELECT learner, dir, body FROM rocm_learn_events", &[])
        .await
        .map_err(failed)?
    {
        if let Ok(e) = serde_json::from_str::<Event>(r.get::<_, &str>(2)) {
            events.entry((r.get(0), r.get(1))).or_default().push(e);
        }
    }
    let connected = client
        .query(
            "SELECT DISTINCT learner FROM rocm_learn_presence
             WHERE seen > now() - make_interval(secs => $1)",
            &[&super::FRESH_SECS],
        )
        .await
        .map_err(failed)?
        .into_iter()
        .map(|r| r.get(0))
        .collect();
    Ok(Class { events, connected })
}
