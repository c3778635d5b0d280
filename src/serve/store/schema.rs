//! The store's tables, made and moved forward by the binary itself: each migration runs once,
//! in order, in one transaction with the version it brings, under an advisory lock so that
//! workers starting together do not race. A database already past what this binary knows is
//! refused: an older binary would write rows a newer one reads wrong.

use tokio_postgres::Client;

use crate::content::Msg;

/// Migration `n` (1-based) brings the schema to version `n`. Only ever append.
const MIGRATIONS: &[&str] = &[
    // 1: each learner's events, once each (an event is keyed by its own id, so a worker that
    // sends one again changes nothing); sessions' presence, renewed by the worker holding them.
    "CREATE TABLE rocm_learn_events (
        learner text NOT NULL,
        dir text NOT NULL,
        id text NOT NULL,
        t bigint NOT NULL,
        body text NOT NULL,
        stored_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (learner, dir, id)
    );
    CREATE TABLE rocm_learn_presence (
        worker text NOT NULL,
        session text NOT NULL,
        learner text NOT NULL,
        detached_until bigint,
        seen timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (worker, session)
    );",
];

/// The version this binary's schema is at.
pub const VERSION: i32 = MIGRATIONS.len() as i32;

/// An arbitrary constant: the advisory lock every rocm-learn migration takes.
const LOCK: i64 = 0x726f_636d_6c72;

/// Brings the schema to `VERSION`; returns the version found before.
pub async fn migrate(client: &mut Client) -> Result<i32, Msg> {
    let failed = |e: tokio_postgres::Error| Msg::new("store-failed").arg("error", super::why(&e));
    let tx = client.transaction().await.map_err(failed)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK])
        .await
        .map_err(failed)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS rocm_learn_schema (version integer NOT NULL)")
        .await
        .map_err(failed)?;
    let found: i32 = tx
        .query_opt("SELECT max(version) FROM rocm_learn_schema", &[])
        .await
        .map_err(failed)?
        .and_then(|r| r.get::<_, Option<i32>>(0))
        .unwrap_or(0);
    if found > VERSION {
        return Err(Msg::new("store-too-new")
            .arg("found", found)
            .arg("known", VERSION));
    }
    for (n, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        tx.batch_execute(sql).await.map_err(failed)?;
        tx.execute(
            "INSERT INTO rocm_learn_schema (version) VALUES ($1)",
            &[&(n as i32 + 1)],
        )
        .await
        .map_err(failed)?;
    }
    tx.commit().await.map_err(failed)?;
    Ok(found)
}
