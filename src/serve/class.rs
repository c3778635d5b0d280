//! The instructor's class screen: every learner on the roster, the item and step they are on,
//! how long they have been on it, the hints and solutions they used there, and who looks stuck
//! (same step for more than N minutes; `+`/`-` change N). It is read from the learners' event
//! logs in the class folder, with the capped readers that never follow a link, and redrawn
//! every few seconds. Learner-made text is stripped of terminal controls before it is drawn.

use std::path::Path;
use std::time::Duration;

use crossterm::event::{self, Event as TermEvent, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Paragraph, Row as TableRow, Table};

use super::roster::Roster;
use crate::events::{Event, What};
use crate::hostfs::{self, Limits};
use crate::i18n::I18n;
use crate::progress::ItemKind;

/// One learner's line on the class screen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Row {
    pub name: String,
    /// The item they are on (kind, id) and the lab step or quiz question, if any.
    pub item: Option<(ItemKind, String)>,
    pub step: Option<String>,
    /// When they came to this item and step (seconds since the epoch).
    pub since: Option<u64>,
    /// The item was finished (a lab solved, a quiz run or lesson ended) and not taken up
    /// again since: done, whatever its last step, so never stuck.
    pub done: bool,
    /// Hints revealed and whether the solution was opened, on this item.
    pub hints: u32,
    pub solution: bool,
    /// Their last event.
    pub last: Option<u64>,
    /// Connected now (a session of theirs runs on a server of this class).
    pub online: bool,
    /// Not connected, but a session of theirs is kept until then for their next login.
    pub kept_until: Option<std::time::SystemTime>,
}

/// The line of `name` from their events (any order).
pub fn derive(name: &str, events: &[Event]) -> Row {
    let mut events: Vec<&Event> = events.iter().collect();
    events.sort_by_key(|e| e.t);
    let mut row = Row {
        name: name.to_string(),
        ..Row::default()
    };
    for e in &events {
        row.last = Some(e.t);
        let here = match &e.what {
            What::At { kind, item, step } => Some((*kind, item.clone(), step.clone())),
            What::Opened { kind, item } => Some((*kind, item.clone(), None)),
            _ => None,
        };
        if let Some((kind, item, step)) = here {
            let same_item = row
                .item
                .as_ref()
                .is_some_and(|(k, i)| *k == kind && *i == item);
            // An `opened` after an `at` of the same item says nothing new about the step.
            let step = if step.is_none() && same_item {
                row.step.clone()
            } else {
                step
            };
            if !same_item {
                row.hints = 0;
                row.solution = false;
            }
            // Opened again, or on another step: at work again, and the time counts anew.
            let again = row.done && matches!(e.what, What::Opened { .. });
            if !same_item || step != row.step || again {
                row.since = Some(e.t);
                row.done = false;
            }
            row.item = Some((kind, item));
            row.step = step;
        }
        let here = e.what.place().is_some_and(|p| {
            row.item
                .as_ref()
                .is_some_and(|(k, i)| *k == p.kind && *i == p.id)
        });
        match &e.what {
            What::Hint { .. } if here => row.hints = row.hints.saturating_add(1),
            What::SolutionViewed { .. } if here => row.solution = true,
            What::Lab { session, .. } if here && session.complete => finished(&mut row, e.t),
            What::Answered { complete: true, .. } | What::Read { finished: true, .. } if here => {
                finished(&mut row, e.t);
            }
            _ => {}
        }
    }
    row
}

/// The row's item was finished at `t`: done from then on, until the learner is at it again.
fn finished(row: &mut Row, t: u64) {
    if !row.done {
        row.done = true;
        row.since = Some(t);
    }
}

/// Every event log under one learner's folder (the built-in course's and each pack's).
fn learner_events(dir: &Path) -> Vec<Event> {
    let limits = Limits {
        max_file: 32 << 20,
        max_total: 128 << 20,
        max_entries: 2_000,
        max_depth: 2,
        deadline: Duration::from_secs(2),
    };
    let walk = hostfs::walk(dir, limits, &|rel, is_dir| {
        let depth = rel.matches('/').count();
        if is_dir {
            (depth == 0 && rel == "packs") || (depth == 1 && rel.starts_with("packs/"))
        } else {
            rel.rsplit('/').next() == Some(crate::events::LOG_NAME)
        }
    });
    walk.files
        .iter()
        .flat_map(|(_, bytes)| {
            bytes
                .split(|&b| b == b'\n')
                .filter_map(|l| serde_json::from_slice::<Event>(l).ok())
        })
        .collect()
}

/// The class now: one row per learner on the roster, in roster order.
pub fn rows(class: &Path, roster: &Roster) -> Vec<Row> {
    roster
        .learners()
        .map(|p| {
            let here = super::presence::here(class, &p.name);
            Row {
                online: here == Some(super::presence::Here::Connected),
                kept_until: match here {
                    Some(super::presence::Here::Detached(t)) => Some(t),
                    _ => None,
                },
                ..derive(
                    &p.name,
                    &learner_events(&super::learner_dir(class, &p.name)),
                )
            }
        })
        .collect()
}

/// Text a learner's files gave, made safe to draw: no terminal controls, one line, bounded.
fn safe(text: &str) -> String {
    crate::term_text::plain(text.as_bytes())
        .chars()
        .filter(|c| !c.is_control())
        .take(60)
        .collect()
}

/// "12 min", "1 h 05 min", "40 s", in the instructor's language.
fn span(i18n: &I18n, secs: u64) -> String {
    match secs {
        0..60 => i18n.ta("serve-class-secs", &[("n", secs.into())]),
        60..3600 => i18n.ta("serve-class-mins", &[("n", (secs / 60).into())]),
        _ => i18n.ta(
            "serve-class-hours",
            &[
                ("h", (secs / 3600).into()),
                ("m", format!("{:02}", (secs % 3600) / 60).into()),
            ],
        ),
    }
}

/// The table's cells of one row, in the instructor's language.
pub fn cells(i18n: &I18n, row: &Row, now: u64, stuck_after: u64) -> [String; 7] {
    let (item, step) = match &row.item {
        None => (i18n.t("serve-class-not-started"), String::new()),
        Some((kind, id)) => {
            let kind = i18n.t(match kind {
                ItemKind::Lesson => "classroom-kind-lesson",
                ItemKind::Quiz => "classroom-kind-quiz",
                ItemKind::Lab => "classroom-kind-lab",
            });
            let step = if row.done {
                i18n.t("progress-status-done")
            } else {
                row.step.as_deref().map(safe).unwrap_or_default()
            };
            (format!("{kind} {}", safe(id)), step)
        }
    };
    let on = row.since.map(|s| now.saturating_sub(s));
    let time = match on {
        Some(secs) if row.step.is_some() && !row.done && secs > stuck_after * 60 => {
            format!("{} {}", span(i18n, secs), i18n.t("serve-class-stuck"))
        }
        Some(secs) => span(i18n, secs),
        None => String::new(),
    };
    let solution = if row.solution {
        i18n.t("serve-class-yes")
    } else {
        String::new()
    };
    [
        row.name.clone(),
        item,
        step,
        time,
        row.hints.to_string(),
        solution,
        if row.online {
            i18n.t("serve-class-online")
        } else if let Some(until) = row.kept_until {
            // Whole minutes left, rounded up: "kept 1 min" until the very end.
            let left = until
                .duration_since(std::time::SystemTime::now())
                .unwrap_or_default();
            i18n.ta(
                "serve-class-detached",
                &[("n", left.as_secs().div_ceil(60).into())],
            )
        } else {
            String::new()
        },
    ]
}

/// Runs the class screen on this terminal until `q`.
pub fn main(i18n: &I18n, class: &Path) -> i32 {
    let roster = match Roster::load(class) {
        Ok(r) => r,
        Err(msg) => {
            eprintln!("{}", i18n.msg(&msg));
            return crate::exit::EXIT_FAIL;
        }
    };
    match run(i18n, class, &roster) {
        Ok(()) => crate::exit::EXIT_OK,
        Err(e) => {
            eprintln!("serve: {e}");
            crate::exit::EXIT_FAIL
        }
    }
}

fn run(i18n: &I18n, class: &Path, roster: &Roster) -> std::io::Result<()> {
    use crossterm::terminal::{
        EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
    };
    enable_raw_mode()?;
    crossterm::execute!(std::io::stdout(), EnterAlternateScreen)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    let result = screen_loop(i18n, class, roster, &mut terminal);
    let _ = disable_raw_mode();
    let _ = crossterm::execute!(std::io::stdout(), LeaveAlternateScreen);
    result
}

/// The class screen's line to its server, which shows a learner's screen on request (see
/// `mirror`); none when the screen runs anywhere else.
struct Link {
    stream: std::os::unix::net::UnixStream,
    replies: std::io::BufReader<std::os::unix::net::UnixStream>,
}

impl Link {
    fn open() -> Option<Link> {
        let path = std::env::var_os(super::mirror::MIRROR_ENV)?;
        let stream = std::os::unix::net::UnixStream::connect(path).ok()?;
        let replies = std::io::BufReader::new(stream.try_clone().ok()?);
        Some(Link { stream, replies })
    }

    /// Asks the server to show `name`'s screen; returns when the instructor has left it.
    fn watch(&mut self, name: &str) -> std::io::Result<()> {
        use std::io::{BufRead, Read, Write};
        writeln!(self.stream, "watch {name}")?;
        let mut line = String::new();
        if (&mut self.replies).take(64).read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        Ok(())
    }
}

/// How often the screen is read again when no key comes.
const REFRESH: Duration = Duration::from_secs(2);

fn screen_loop(
    i18n: &I18n,
    class: &Path,
    roster: &Roster,
    terminal: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
) -> std::io::Result<()> {
    let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut stuck_after: u64 = 10;
    let mut link = Link::open();
    let mut state = ratatui::widgets::TableState::default().with_selected(Some(0));
    loop {
        let now = crate::progress::now();
        // Read again each time: learners join with the class code while the class runs.
        let fresh = Roster::load(class).ok();
        let rows = rows(class, fresh.as_ref().unwrap_or(roster));
        let last = rows.len().saturating_sub(1);
        state.select(Some(state.selected().unwrap_or(0).min(last)));
        terminal.draw(|f| {
            let [head, body, foot] = Layout::vertical([
                Constraint::Length(2),
                Constraint::Min(1),
                Constraint::Length(1),
            ])
            .areas(f.area());
            let title = i18n.ta(
                "serve-class-title",
                &[
                    ("learners", rows.len().into()),
                    ("minutes", stuck_after.into()),
                ],
            );
            f.render_widget(
                Paragraph::new(Line::from(title)).style(Style::new().add_modifier(Modifier::BOLD)),
                head,
            );
            let header = TableRow::new(
                [
                    "serve-class-col-learner",
                    "serve-class-col-item",
                    "serve-class-col-step",
                    "serve-class-col-time",
                    "serve-class-col-hints",
                    "serve-class-col-solution",
                    "serve-class-col-online",
                ]
                .map(|k| Cell::from(i18n.t(k))),
            )
            .style(Style::new().add_modifier(Modifier::UNDERLINED));
            let lines: Vec<TableRow> = rows
                .iter()
                .map(|r| {
                    let c = cells(i18n, r, now, stuck_after);
                    let stuck = c[3].contains(&i18n.t("serve-class-stuck"));
                    let style = if stuck && color {
                        Style::new().fg(ratatui::style::Color::Yellow)
                    } else if stuck {
                        Style::new().add_modifier(Modifier::REVERSED)
                    } else {
                        Style::new()
                    };
                    TableRow::new(c.map(Cell::from)).style(style)
                })
                .collect();
            let table = Table::new(
                lines,
                [
                    Constraint::Length(10),
                    Constraint::Min(12),
                    Constraint::Length(11),
                    Constraint::Length(18),
                    Constraint::Length(6),
                    Constraint::Length(8),
                    // "now", or "kept 10 min" for a session kept after a dropped connection.
                    Constraint::Length(14),
                ],
            )
            .header(header)
            .row_highlight_style(Style::new().add_modifier(Modifier::BOLD))
            .highlight_symbol("> ")
            .highlight_spacing(ratatui::widgets::HighlightSpacing::Always);
            f.render_stateful_widget(table, body, &mut state);
            f.render_widget(Paragraph::new(i18n.t("serve-class-keys")), foot);
        })?;
        if event::poll(REFRESH)? {
            match event::read()? {
                TermEvent::Key(k) if k.kind != KeyEventKind::Release => match k.code {
                    KeyCode::Char('q') | KeyCode::Esc => return Ok(()),
                    KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => {
                        return Ok(());
                    }
                    KeyCode::Char('+') => stuck_after = (stuck_after + 1).min(240),
                    KeyCode::Char('-') => stuck_after = stuck_after.saturating_sub(1).max(1),
                    KeyCode::Up | KeyCode::Char('k') => state.select_previous(),
                    KeyCode::Down | KeyCode::Char('j') => state.select_next(),
                    KeyCode::Enter => {
                        let who = state.selected().and_then(|i| rows.get(i));
                        if let (Some(l), Some(r)) = (link.as_mut(), who) {
                            // The server draws the mirror meanwhile; then all is drawn anew.
                            if l.watch(&r.name).is_err() {
                                link = None;
                            }
                            // Not `clear`: it asks the terminal where the cursor is.
                            let size = terminal.size()?;
                            terminal.resize(ratatui::layout::Rect::new(
                                0,
                                0,
                                size.width,
                                size.height,
                            ))?;
                        }
                    }
                    _ => {}
                },
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(t: u64, what: What) -> Event {
        Event {
            id: format!("{t:032x}"),
            t,
            hash: String::new(),
            what,
        }
    }

    fn at(t: u64, item: &str, step: &str) -> Event {
        ev(
            t,
            What::At {
                kind: ItemKind::Lab,
                item: item.into(),
                step: Some(step.into()),
            },
        )
    }

    #[test]
    fn the_current_step_its_time_and_the_help_used_there() {
        let events = vec![
            ev(
                100,
                What::Opened {
                    kind: ItemKind::Lab,
                    item: "a".into(),
                },
            ),
            at(100, "a", "one"),
            ev(
                150,
                What::Hint {
                    item: "a".into(),
                    step: "one".into(),
                },
            ),
            at(200, "a", "two"),
            ev(
                210,
                What::Hint {
                    item: "a".into(),
                    step: "two".into(),
                },
            ),
            ev(220, What::SolutionViewed { item: "a".into() }),
        ];
        let row = derive("ana", &events);
        assert_eq!(row.item, Some((ItemKind::Lab, "a".into())));
        assert_eq!(row.step.as_deref(), Some("two"));
        assert_eq!(row.since, Some(200));
        assert_eq!((row.hints, row.solution), (2, true));
        let i18n = I18n::new(crate::lang::Lang::En);
        let c = cells(&i18n, &row, 200 + 11 * 60, 10);
        assert_eq!(c[1], "lab a");
        assert!(
            c[3].starts_with("11 min") && c[3].contains("stuck"),
            "{}",
            c[3]
        );
        let c = cells(&i18n, &row, 200 + 5 * 60, 10);
        assert_eq!(c[3], "5 min");
        // A new item starts its own count.
        let mut more = events.clone();
        more.push(at(300, "b", "x"));
        let row = derive("ana", &more);
        assert_eq!((row.hints, row.solution, row.since), (0, false, Some(300)));
    }

    fn solved(t: u64, item: &str) -> Event {
        ev(
            t,
            What::Lab {
                item: item.into(),
                session: crate::events::LabSession {
                    steps_done: vec!["one".into(), "two".into()],
                    complete: true,
                    hints: 0,
                    secs: 60,
                    session_over: false,
                    confined: true,
                    solved_before: false,
                },
                by_script: false,
            },
        )
    }

    #[test]
    fn a_finished_item_is_done_never_stuck_until_taken_up_again() {
        let i18n = I18n::new(crate::lang::Lang::En);
        // A lab solved on its last step, as the lab screen logs it: the solve, then "no step".
        let mut events = vec![at(100, "a", "two"), solved(200, "a")];
        events.push(ev(
            200,
            What::At {
                kind: ItemKind::Lab,
                item: "a".into(),
                step: None,
            },
        ));
        let row = derive("ana", &events);
        assert!(row.done);
        let c = cells(&i18n, &row, 200 + 60 * 60, 10);
        assert_eq!(c[2], "done");
        assert!(!c[3].contains("stuck"), "{c:?}");
        // A quiz whose last question was answered.
        let quiz = vec![
            ev(
                100,
                What::At {
                    kind: ItemKind::Quiz,
                    item: "q".into(),
                    step: Some("last".into()),
                },
            ),
            ev(
                130,
                What::Answered {
                    item: "q".into(),
                    answers: Vec::new(),
                    total: 3,
                    complete: true,
                    secs: 30,
                    continues: false,
                    score: Some(3),
                },
            ),
        ];
        let c = cells(&i18n, &derive("ana", &quiz), 130 + 60 * 60, 10);
        assert!(!c[3].contains("stuck"), "{c:?}");
        // Opened again: at work, the time counts from there, and it can be stuck again.
        events.push(ev(
            5_000,
            What::Opened {
                kind: ItemKind::Lab,
                item: "a".into(),
            },
        ));
        events.push(at(5_000, "a", "one"));
        let row = derive("ana", &events);
        assert!(!row.done);
        assert_eq!(row.since, Some(5_000));
        assert!(cells(&i18n, &row, 5_000 + 11 * 60, 10)[3].contains("stuck"));
    }

    #[test]
    fn learner_made_text_is_drawn_without_terminal_controls() {
        let row = derive("ana", &[at(1, "a\x1b]0;owned\x07\x1b[2Jb", "s\x1b[31mt")]);
        let c = cells(&I18n::new(crate::lang::Lang::En), &row, 2, 10);
        assert!(!c[1].contains('\x1b') && !c[2].contains('\x1b'), "{c:?}");
    }

    #[test]
    fn logs_are_found_in_the_learner_folder_and_links_are_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let learner = dir.path().join("learners/ana");
        std::fs::create_dir_all(learner.join("packs/p")).unwrap();
        let line = |e: &Event| serde_json::to_string(e).unwrap() + "\n";
        std::fs::write(learner.join("events.jsonl"), line(&at(5, "a", "one"))).unwrap();
        std::fs::write(
            learner.join("packs/p/events.jsonl"),
            line(&at(9, "b", "two")) + "not json\n",
        )
        .unwrap();
        let elsewhere = dir.path().join("other.jsonl");
        std::fs::write(&elsewhere, line(&at(50, "c", "x"))).unwrap();
        std::fs::create_dir_all(learner.join("packs/q")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, learner.join("packs/q/events.jsonl")).unwrap();
        let roster = Roster::parse(
            "[[learner]]\nname = \"ana\"\nkey = \"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGVujA3cxiovefmTlENBEqxsxkG7X/5/5ua2IjEiKufJ\"\n",
            "roster.toml",
        )
        .unwrap();
        let rows = rows(dir.path(), &roster);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].item, Some((ItemKind::Lab, "b".into())));
        assert_eq!(rows[0].last, Some(9));
    }
}
