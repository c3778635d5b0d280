//! Runs the app in a real terminal: raw mode, alternate screen, mouse; one event loop that
//! sleeps until input or a signal arrives, draws only after something changed, and always gives
//! the terminal back (normal exit, panic, SIGTERM, SIGHUP).

use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// The shortest time between two redraws caused by background output.
const FRAME: Duration = Duration::from_millis(16);

use crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::app::{App, Input};
use crate::progress::Store;

enum Msg {
    Input(Event),
    /// A background thread (a lab's shell) has news; at most one is queued at a time.
    Wake,
    /// SIGTERM, SIGHUP or SIGINT: leave cleanly, saving progress.
    Stop,
}

fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

fn setup() -> io::Result<Terminal<CrosstermBackend<Stdout>>> {
    enable_raw_mode()?;
    let mut out = io::stdout();
    if let Err(e) = execute!(
        out,
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    ) {
        restore();
        return Err(e);
    }
    // A panic must not leave the learner's terminal in raw mode on the alternate screen.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    Terminal::new(CrosstermBackend::new(out))
}

/// Persists the app's pending progress changes; the merged result (another instance may have
/// written meanwhile) becomes the app's copy.
fn persist(app: &mut App, store: Option<&Store>) {
    if app.outbox.is_empty() {
        return;
    }
    let changes = std::mem::take(&mut app.outbox);
    let Some(store) = store else { return };
    match store.update(|p| changes.iter().for_each(|c| p.apply(c))) {
        Ok((merged, notice)) => {
            app.world.progress = merged;
            if let Some(n) = notice {
                let text = app.world.i18n.msg(&n.msg());
                app.notify(text);
            }
        }
        Err(e) => {
            let text = app.world.i18n.msg(&e.0);
            app.notify(text);
        }
    }
}

/// Runs the app until the learner quits; `open` is shown first (`rocm-learn lesson ID` ...),
/// once the loop can be woken by background work such as a lab's shell.
pub fn run(
    mut app: App,
    store: Option<Store>,
    open: Option<crate::markdown::Target>,
) -> io::Result<()> {
    let mut terminal = setup()?;
    let (tx, rx) = mpsc::channel();

    // Shell output can arrive thousands of times a second: queue one wake at most, and let the
    // loop take everything that happened since in one redraw.
    let pending = Arc::new(AtomicBool::new(false));
    {
        let tx = tx.clone();
        let pending = pending.clone();
        app.world.waker = Some(Arc::new(move || {
            if !pending.swap(true, Ordering::SeqCst) {
                let _ = tx.send(Msg::Wake);
            }
        }));
    }
    if let Some(t) = &open {
        app.open(t);
    }
    let input_tx = tx.clone();
    std::thread::spawn(move || {
        // Blocks in read(): no polling, so an idle app uses no CPU.
        while let Ok(ev) = event::read() {
            if input_tx.send(Msg::Input(ev)).is_err() {
                break;
            }
        }
    });
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGINT,
    ]) {
        std::thread::spawn(move || {
            if signals.forever().next().is_some() {
                let _ = tx.send(Msg::Stop);
            }
        });
    }

    let result = (|| -> io::Result<()> {
        terminal.draw(|f| app.draw(f))?;
        let mut last_draw = Instant::now();
        while let Ok(msg) = rx.recv() {
            let mut stop = false;
            // Output-only bursts redraw at most about 60 times a second; keys are never delayed.
            if matches!(msg, Msg::Wake) {
                let since = last_draw.elapsed();
                if since < FRAME {
                    std::thread::sleep(FRAME - since);
                }
            }
            // Take everything already queued before drawing again (a burst of mouse wheel
            // events or a paste is one redraw, not fifty).
            for msg in std::iter::once(msg).chain(rx.try_iter()) {
                match msg {
                    Msg::Stop => stop = true,
                    Msg::Wake => {
                        pending.store(false, Ordering::SeqCst);
                        app.handle(Input::Wake);
                    }
                    Msg::Input(ev) => {
                        if let Some(input) = to_input(ev) {
                            app.handle(input);
                        }
                    }
                }
            }
            if stop {
                app.handle(Input::Key(crossterm::event::KeyEvent::new(
                    crossterm::event::KeyCode::Char('c'),
                    crossterm::event::KeyModifiers::CONTROL,
                )));
            }
            persist(&mut app, store.as_ref());
            if app.quit {
                break;
            }
            terminal.draw(|f| app.draw(f))?;
            last_draw = Instant::now();
        }
        Ok(())
    })();
    persist(&mut app, store.as_ref());
    restore();
    result
}

fn to_input(ev: Event) -> Option<Input> {
    match ev {
        Event::Key(k) => Some(Input::Key(k)),
        Event::Mouse(m) => Some(Input::Mouse(m)),
        Event::Resize(w, h) => Some(Input::Resize(w, h)),
        Event::Paste(s) => Some(Input::Paste(s)),
        Event::FocusGained | Event::FocusLost => None,
    }
}
