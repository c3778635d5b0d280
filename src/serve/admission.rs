//! Who may hold a connection, and how many: the class server's defences against a hostile
//! network, after OpenSSH's. A source address has at most `per_source` connections that have
//! not logged in; past `start` such connections in all, new ones are dropped at random, more
//! often as the count nears `full` (sshd's MaxStartups 10:30:100); a source that keeps failing
//! is refused for a while (sshd's PerSourcePenalties, gentler: a class often shares one
//! address, and a source that has just logged someone in is not penalized for a few minutes,
//! so a learner fumbling keys cannot lock out the room); a learner has at most `per_learner`
//! logged-in connections and the server `logged_in` in all. Pure bookkeeping: the caller logs.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// sshd's MaxStartups: drop at random from `start` connections not logged in, with `rate`
/// percent, rising linearly to every one at `full`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Startups {
    pub start: usize,
    pub rate: u32,
    pub full: usize,
}

impl std::str::FromStr for Startups {
    type Err = String;

    /// `START:RATE:FULL` or a single number (every connection past it refused), as sshd reads it.
    fn from_str(s: &str) -> Result<Startups, String> {
        let nums: Result<Vec<usize>, _> = s.split(':').map(str::parse::<usize>).collect();
        match nums.as_deref() {
            Ok([n]) if *n > 0 => Ok(Startups {
                start: *n,
                rate: 100,
                full: *n,
            }),
            Ok([start, rate, full]) if *start > 0 && *rate <= 100 && start <= full => {
                Ok(Startups {
                    start: *start,
                    rate: *rate as u32,
                    full: *full,
                })
            }
            _ => Err(format!("{s}: START:RATE:FULL, for example 10:30:100")),
        }
    }
}

/// Every limit, with OpenSSH's defaults where it has one.
#[derive(Debug, Clone)]
pub struct Limits {
    pub startups: Startups,
    /// Connections not logged in from one source at once (a classroom behind one NAT shares a
    /// source: kept well above what a class logs in with at the same moment).
    pub per_source: usize,
    /// Logged-in connections of one learner at once.
    pub per_learner: usize,
    /// Logged-in connections at once, in all.
    pub logged_in: usize,
}

impl Limits {
    /// The limits of a server with `sessions` session places.
    pub fn for_sessions(sessions: usize, startups: Startups, per_source: usize) -> Limits {
        Limits {
            startups,
            per_source,
            per_learner: 8,
            logged_in: sessions * 2 + 16,
        }
    }
}

/// What a source did that counts against it, and for how long (sshd's defaults).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offence {
    /// A connection that ended after failed logins.
    AuthFail,
    /// A connection that ended without trying to log in.
    NoAuth,
    /// A connection still not logged in when its time ran out.
    Grace,
}

impl Offence {
    fn cost(self) -> Duration {
        Duration::from_secs(match self {
            Offence::AuthFail => 2,
            Offence::NoAuth => 1,
            Offence::Grace => 10,
        })
    }
}

/// A penalty is enforced once it has added up to this much (about fifteen failed logins in a
/// row, or three connections that sat out the login time)...
const PENALTY_MIN: Duration = Duration::from_secs(30);
/// A source that logged someone in is not penalized for this long.
const VOUCHED: Duration = Duration::from_secs(600);
/// ...and never lasts longer than this.
const PENALTY_MAX: Duration = Duration::from_secs(600);
/// Sources remembered at most (penalties of the oldest are forgotten first).
const MAX_SOURCES: usize = 65_536;

/// Why a connection was not admitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// The source is serving a penalty for this much longer.
    Penalty(Duration),
    /// The source already has this many connections not logged in.
    Source(usize),
    /// Dropped at random: this many connections are not logged in.
    EarlyDrop(usize),
    /// This many connections are not logged in: the server takes no more.
    Full(usize),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Penalty(d) => write!(f, "penalty for repeated failures, {} s left", {
                d.as_secs().max(1)
            }),
            Refused::Source(n) => write!(f, "{n} connections from this address not logged in"),
            Refused::EarlyDrop(n) => write!(f, "{n} connections not logged in (random early drop)"),
            Refused::Full(n) => write!(f, "{n} connections not logged in (full)"),
        }
    }
}

/// Why a login was not admitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginRefused {
    /// The learner has this many logged-in connections already.
    Learner(usize),
    /// The server has this many logged-in connections already.
    Full(usize),
}

/// The source a limit counts: the address, or its /64 for IPv6 (one host's usual share).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Source(IpAddr);

impl Source {
    pub fn of(ip: IpAddr) -> Source {
        match ip {
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Source(IpAddr::V4(v4)),
                None => {
                    let mut o = v6.octets();
                    o[8..].fill(0);
                    Source(IpAddr::V6(o.into()))
                }
            },
            v4 => Source(v4),
        }
    }
}

#[derive(Default)]
struct State {
    pending: HashMap<Source, usize>,
    total_pending: usize,
    learners: HashMap<String, usize>,
    total_logged_in: usize,
    /// When each penalized source's penalty ends, and whether it is enforced.
    penalties: HashMap<Source, (Instant, bool)>,
    /// Sources that logged someone in, and when.
    vouched: HashMap<Source, Instant>,
}

/// The server's admission bookkeeping; shared by every connection.
pub struct Admission {
    limits: Limits,
    state: Mutex<State>,
    /// Draws the random early drop; replaceable in tests.
    draw: Box<dyn Fn() -> u32 + Send + Sync>,
}

/// A connection counted as not logged in until it logs in or is dropped.
pub struct Pending {
    admission: Arc<Admission>,
    source: Source,
    counted: bool,
}

/// A logged-in connection, counted until dropped.
pub struct LoggedIn {
    admission: Arc<Admission>,
    name: String,
}

/// A number from 0 to 99, from the system's random source.
fn percent() -> u32 {
    let mut b = [0u8; 4];
    let _ = getrandom::fill(&mut b);
    u32::from_le_bytes(b) % 100
}

impl Admission {
    pub fn new(limits: Limits) -> Arc<Admission> {
        Arc::new(Admission {
            limits,
            state: Mutex::new(State::default()),
            draw: Box::new(percent),
        })
    }

    #[cfg(test)]
    fn with_draw(limits: Limits, draw: impl Fn() -> u32 + Send + Sync + 'static) -> Arc<Admission> {
        Arc::new(Admission {
            limits,
            state: Mutex::new(State::default()),
            draw: Box::new(draw),
        })
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // Bookkeeping stays usable even if a holder panicked: the counts are plain numbers.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A new connection from `ip` at `now`: counted as not logged in, or refused.
    pub fn admit(self: &Arc<Self>, ip: IpAddr, now: Instant) -> Result<Pending, Refused> {
        let source = Source::of(ip);
        let mut st = self.state();
        if let Some(&(until, enforced)) = st.penalties.get(&source) {
            if until <= now {
                st.penalties.remove(&source);
            } else if enforced {
                return Err(Refused::Penalty(until - now));
            }
        }
        let here = st.pending.get(&source).copied().unwrap_or(0);
        if here >= self.limits.per_source {
            return Err(Refused::Source(here));
        }
        let s = self.limits.startups;
        let total = st.total_pending;
        if total >= s.full {
            return Err(Refused::Full(total));
        }
        if total >= s.start {
            // sshd's formula: `rate` percent at `start`, rising linearly to 100 at `full`.
            let span = (s.full - s.start).max(1) as u32;
            let p = s.rate + (100 - s.rate) * (total - s.start) as u32 / span;
            if (self.draw)() < p {
                return Err(Refused::EarlyDrop(total));
            }
        }
        *st.pending.entry(source).or_insert(0) += 1;
        st.total_pending += 1;
        Ok(Pending {
            admission: self.clone(),
            source,
            counted: true,
        })
    }

    /// Adds `offence` to `ip`'s penalty; true when that makes the penalty enforced now (the
    /// caller logs it once).
    pub fn penalize(&self, ip: IpAddr, offence: Offence, now: Instant) -> bool {
        let source = Source::of(ip);
        let mut st = self.state();
        if st
            .vouched
            .get(&source)
            .is_some_and(|t| now.saturating_duration_since(*t) < VOUCHED)
        {
            return false;
        }
        if st.penalties.len() >= MAX_SOURCES && !st.penalties.contains_key(&source) {
            st.penalties.retain(|_, (until, _)| *until > now);
            if st.penalties.len() >= MAX_SOURCES {
                return false;
            }
        }
        let (until, enforced) = st.penalties.entry(source).or_insert((now, false));
        let from = (*until).max(now);
        *until = (from + offence.cost()).min(now + PENALTY_MAX);
        let was = *enforced;
        *enforced = *until - now >= PENALTY_MIN;
        *enforced && !was
    }

    /// Someone logged in from `ip`: its penalty, if any, is lifted, and none is added for a
    /// while (the room it stands for is at work).
    pub fn vouch(&self, ip: IpAddr, now: Instant) {
        let source = Source::of(ip);
        let mut st = self.state();
        st.penalties.remove(&source);
        if st.vouched.len() >= MAX_SOURCES {
            st.vouched
                .retain(|_, t| now.saturating_duration_since(*t) < VOUCHED);
        }
        if st.vouched.len() < MAX_SOURCES {
            st.vouched.insert(source, now);
        }
    }

    /// Connections not logged in, and logged in, now.
    pub fn counts(&self) -> (usize, usize) {
        let st = self.state();
        (st.total_pending, st.total_logged_in)
    }
}

impl Pending {
    /// The connection logged in as `name`: counted as logged in from now on, or refused.
    pub fn login(mut self, name: &str) -> Result<LoggedIn, LoginRefused> {
        let a = self.admission.clone();
        let mut st = a.state();
        let mine = st.learners.get(name).copied().unwrap_or(0);
        if mine >= a.limits.per_learner {
            return Err(LoginRefused::Learner(mine));
        }
        if st.total_logged_in >= a.limits.logged_in {
            return Err(LoginRefused::Full(st.total_logged_in));
        }
        *st.learners.entry(name.to_string()).or_insert(0) += 1;
        st.total_logged_in += 1;
        uncount(&mut st, self.source);
        self.counted = false;
        drop(st);
        Ok(LoggedIn {
            admission: a,
            name: name.to_string(),
        })
    }
}

fn uncount(st: &mut State, source: Source) {
    if let Some(n) = st.pending.get_mut(&source) {
        *n -= 1;
        if *n == 0 {
            st.pending.remove(&source);
        }
    }
    st.total_pending = st.total_pending.saturating_sub(1);
}

impl Drop for Pending {
    fn drop(&mut self) {
        if self.counted {
            uncount(&mut self.admission.state(), self.source);
        }
    }
}

impl Drop for LoggedIn {
    fn drop(&mut self) {
        let mut st = self.admission.state();
        if let Some(n) = st.learners.get_mut(&self.name) {
            *n -= 1;
            if *n == 0 {
                st.learners.remove(&self.name);
            }
        }
        st.total_logged_in = st.total_logged_in.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn limits() -> Limits {
        Limits {
            startups: "4:50:8".parse().unwrap(),
            per_source: 3,
            per_learner: 2,
            logged_in: 3,
        }
    }

    #[test]
    fn max_startups_reads_as_sshd_writes_it() {
        let s: Startups = "10:30:100".parse().unwrap();
        assert_eq!((s.start, s.rate, s.full), (10, 30, 100));
        let one: Startups = "5".parse().unwrap();
        assert_eq!((one.start, one.rate, one.full), (5, 100, 5));
        for bad in ["", "0", "10:30", "10:101:100", "20:30:10", "a:b:c"] {
            assert!(bad.parse::<Startups>().is_err(), "{bad}");
        }
    }

    #[test]
    fn one_source_cannot_hold_every_place_and_others_still_get_in() {
        let a = Admission::with_draw(limits(), || 99);
        let now = Instant::now();
        let flood: Vec<_> = (0..3)
            .map(|_| a.admit(ip("10.0.0.9"), now).unwrap())
            .collect();
        assert_eq!(a.admit(ip("10.0.0.9"), now).err(), Some(Refused::Source(3)));
        assert!(a.admit(ip("10.0.0.1"), now).is_ok());
        drop(flood);
        assert_eq!(a.counts(), (0, 0));
        assert!(a.admit(ip("10.0.0.9"), now).is_ok());
    }

    #[test]
    fn past_start_connections_are_dropped_at_random_and_all_at_full() {
        // A draw of 60: kept while the chance of a drop is at most 60 percent.
        let a = Admission::with_draw(limits(), || 60);
        let now = Instant::now();
        let mut held = Vec::new();
        for i in 0..5 {
            held.push(a.admit(ip(&format!("10.0.1.{i}")), now).unwrap());
        }
        // 5 pending, start 4, full 8: 50 + 50 * 1/4 = 62 percent: this draw drops it.
        assert_eq!(
            a.admit(ip("10.0.2.1"), now).err(),
            Some(Refused::EarlyDrop(5))
        );
        let lucky = Admission::with_draw(limits(), || 99);
        let mut held2 = Vec::new();
        for i in 0..8 {
            held2.push(lucky.admit(ip(&format!("10.0.1.{i}")), now).unwrap());
        }
        assert_eq!(
            lucky.admit(ip("10.0.2.1"), now).err(),
            Some(Refused::Full(8))
        );
    }

    #[test]
    fn penalties_add_up_are_enforced_past_the_minimum_and_expire() {
        let a = Admission::with_draw(limits(), || 99);
        let now = Instant::now();
        let bad = ip("10.0.0.66");
        // Fourteen failed connections: 28 s, not yet enforced.
        for _ in 0..14 {
            assert!(!a.penalize(bad, Offence::AuthFail, now));
        }
        assert!(a.admit(bad, now).is_ok());
        // The fifteenth makes 30 s: enforced, said once.
        assert!(a.penalize(bad, Offence::AuthFail, now));
        assert!(!a.penalize(bad, Offence::NoAuth, now));
        assert!(matches!(a.admit(bad, now), Err(Refused::Penalty(_))));
        // Another address is not touched, and the penalty ends.
        assert!(a.admit(ip("10.0.0.67"), now).is_ok());
        assert!(a.admit(bad, now + Duration::from_secs(32)).is_ok());
        // Never longer than the maximum, however many failures.
        for _ in 0..1000 {
            a.penalize(bad, Offence::Grace, now);
        }
        assert!(
            a.admit(bad, now + PENALTY_MAX + Duration::from_secs(1))
                .is_ok()
        );
    }

    #[test]
    fn a_source_that_logs_someone_in_is_not_penalized_for_a_while() {
        let a = Admission::with_draw(limits(), || 99);
        let now = Instant::now();
        let room = ip("10.0.0.80");
        for _ in 0..10 {
            a.penalize(room, Offence::AuthFail, now);
        }
        // A learner of that room logs in: what was counted is forgiven...
        a.vouch(room, now);
        // ...and a fumbling neighbour cannot lock the room out meanwhile.
        for _ in 0..100 {
            assert!(!a.penalize(room, Offence::AuthFail, now));
        }
        assert!(a.admit(room, now).is_ok());
        // Long after, failures count again.
        let later = now + VOUCHED + Duration::from_secs(1);
        for _ in 0..15 {
            a.penalize(room, Offence::AuthFail, later);
        }
        assert!(matches!(a.admit(room, later), Err(Refused::Penalty(_))));
    }

    #[test]
    fn logins_are_capped_per_learner_and_in_all() {
        let a = Admission::with_draw(limits(), || 99);
        let now = Instant::now();
        let l1 = a.admit(ip("10.0.0.1"), now).unwrap().login("ana").unwrap();
        let _l2 = a.admit(ip("10.0.0.2"), now).unwrap().login("ana").unwrap();
        let third = a.admit(ip("10.0.0.3"), now).unwrap();
        assert_eq!(third.login("ana").err(), Some(LoginRefused::Learner(2)));
        // A refused login is no longer counted as pending either.
        assert_eq!(a.counts(), (0, 2));
        let _b = a.admit(ip("10.0.0.4"), now).unwrap().login("bo").unwrap();
        let cy = a.admit(ip("10.0.0.5"), now).unwrap();
        assert_eq!(cy.login("cy").err(), Some(LoginRefused::Full(3)));
        drop(l1);
        assert!(a.admit(ip("10.0.0.5"), now).unwrap().login("cy").is_ok());
    }

    #[test]
    fn ipv6_counts_by_slash_64_and_mapped_v4_as_v4() {
        assert_eq!(
            Source::of(ip("2001:db8::1")),
            Source::of(ip("2001:db8::ffff:2"))
        );
        assert_ne!(
            Source::of(ip("2001:db8::1")),
            Source::of(ip("2001:db8:0:1::1"))
        );
        assert_eq!(
            Source::of(ip("::ffff:10.0.0.1")),
            Source::of(ip("10.0.0.1"))
        );
    }
}
