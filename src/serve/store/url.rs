//! The store's address: a PostgreSQL URL (`postgres://user:pass@host:port/db?sslmode=...`).
//! No TLS crate is built in, so a URL that asks for TLS is refused with the reason, never
//! quietly sent in the clear; `sslmode=prefer` (libpq's default) connects without it.

use tokio_postgres::config::SslMode;

use crate::content::Msg;

/// The environment variable naming the store when `--store` is not given.
pub const ENV: &str = "ROCM_LEARN_STORE";

/// How long a connection may take unless the URL says (`connect_timeout=SECONDS`).
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// A parsed store address, and a form of it safe to print (no password).
#[derive(Clone)]
pub struct Url {
    pub config: tokio_postgres::Config,
    pub shown: String,
}

impl std::fmt::Debug for Url {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

pub fn parse(url: &str) -> Result<Url, Msg> {
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err(Msg::new("store-url-bad").arg("why", "postgres://USER@HOST:PORT/DB"));
    }
    let mut config: tokio_postgres::Config = url
        .parse()
        .map_err(|e: tokio_postgres::Error| Msg::new("store-url-bad").arg("why", e.to_string()))?;
    if config.get_ssl_mode() == SslMode::Require {
        return Err(Msg::new("store-tls-unsupported"));
    }
    // An unreachable host must not hold a login (or a report) for the system's TCP timeout.
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    Ok(Url {
        shown: shown(&config),
        config,
    })
}

/// `user@host:port/db`, for messages and logs.
fn shown(c: &tokio_postgres::Config) -> String {
    use tokio_postgres::config::Host;
    let host = match c.get_hosts().first() {
        Some(Host::Tcp(h)) => h.clone(),
        Some(Host::Unix(p)) => p.display().to_string(),
        None => "localhost".into(),
    };
    let port = c.get_ports().first().copied().unwrap_or(5432);
    format!(
        "{}@{host}:{port}/{}",
        c.get_user().unwrap_or_default(),
        c.get_dbname().unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_asking_for_tls_is_refused_and_a_password_is_never_shown() {
        assert_eq!(
            parse("postgres://a:secret@db:6432/class?sslmode=require")
                .err()
                .map(|m| m.id),
            Some("store-tls-unsupported")
        );
        let ok = parse("postgres://a:secret@db:6432/class").expect("parses");
        assert_eq!(ok.shown, "a@db:6432/class");
        assert!(!format!("{ok:?}").contains("secret"));
        assert_eq!(
            parse("mysql://a@db/class").err().map(|m| m.id),
            Some("store-url-bad")
        );
    }

    #[test]
    fn a_connection_is_bounded_in_time_unless_the_url_says_otherwise() {
        let five = parse("postgres://a@db/class").expect("parses");
        assert_eq!(five.config.get_connect_timeout(), Some(&CONNECT_TIMEOUT));
        let two = parse("postgres://a@db/class?connect_timeout=2").expect("parses");
        assert_eq!(
            two.config.get_connect_timeout(),
            Some(&std::time::Duration::from_secs(2))
        );
    }
}
