//! Runs the app in a real terminal: raw mode, alternate screen, mouse; one event loop that
//! sleeps until input or a signal arrives, draws only after something changed, and always gives
//! the terminal back (normal exit, panic, SIGTERM, SIGHUP, SIGINT, a terminal that went away).
//! Ctrl-Z and SIGTSTP suspend like any terminal program: the terminal is restored first, and on
//! SIGCONT the app takes it back and redraws.

use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// The shortest time between two redraws caused by background output alone (a burst of it).
const FRAME: Duration = Duration::from_millis(16);

/// How long a key typed into a lab's shell waits for the shell's echo before the screen is
/// drawn without it. The echo normally comes within a fraction of this: one redraw per key
/// instead of two (a redraw is most of the app's work per key).
const ECHO_WAIT: Duration = Duration::from_millis(3);

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
use super::class::Class;
use crate::progress::Store;

enum Msg {
    Input(Event),
    /// A background thread (a lab's shell) has news; at most one is queued at a time.
    Wake,
    /// SIGTERM, SIGHUP, SIGINT, or the terminal cannot be read any more: leave cleanly, saving
    /// progress and removing any lab sandbox, whatever has focus.
    Stop,
    /// SIGTSTP: give the terminal back and stop until SIGCONT.
    Suspend,
    /// SIGCONT: someone (a job-control shell's `fg`, `kill -CONT`) resumed the app.
    Resume,
}

/// What the signal thread turns each signal into; every one is handled, not only the first.
fn signal_msg(sig: i32) -> Msg {
    use signal_hook::consts::{SIGCONT, SIGTSTP};
    match sig {
        SIGTSTP => Msg::Suspend,
        SIGCONT => Msg::Resume,
        _ => Msg::Stop,
    }
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

/// Raw mode, alternate screen, mouse and paste: at start and again after a suspension.
fn enter() -> io::Result<()> {
    enable_raw_mode()?;
    if let Err(e) = execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    ) {
        restore();
        return Err(e);
    }
    Ok(())
}

/// Stops the process the way SIGTSTP would have, with the terminal given back first; returns
/// once a SIGCONT resumed it, with the terminal taken again and the screen redrawn.
fn suspend(terminal: &mut Terminal<CrosstermBackend<Stdout>>, app: &mut App) -> io::Result<()> {
    if !job_control() {
        return Ok(());
    }
    restore();
    // SIGTSTP's own handler is ours now: stop with the default action instead.
    let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGTSTP);
    resume(terminal, app)
}

/// Takes the terminal again after a stop: whoever ran meanwhile left it in cooked mode with
/// their own text on it, so everything is set up again and drawn from scratch.
fn resume(terminal: &mut Terminal<CrosstermBackend<Stdout>>, app: &mut App) -> io::Result<()> {
    enter()?;
    // Not `Terminal::clear`: it asks the terminal for the cursor position, an answer the input
    // thread would read first, and waits for it.
    let size = terminal.size()?;
    terminal.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))?;
    terminal.draw(|f| app.draw(f))?;
    Ok(())
}

/// Whether a job-control shell started the app and can resume it. Run straight by a terminal
/// (the app leads its own session) nobody could continue a stopped app, so it does not stop.
fn job_control() -> bool {
    rustix::process::getsid(None).is_ok_and(|sid| sid != rustix::process::getpgrp())
}

fn setup() -> io::Result<Terminal<CrosstermBackend<Stdout>>> {
    enter()?;
    let out = io::stdout();
    // A panic must not leave the learner's terminal in raw mode on the alternate screen.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    // A fixed area, changed on each resize event: a full-screen one asks the terminal for its
    // size before every frame (an open of /dev/tty and an ioctl per key).
    let viewport = match crossterm::terminal::size() {
        Ok((w, h)) => ratatui::Viewport::Fixed(ratatui::layout::Rect::new(0, 0, w, h)),
        Err(_) => ratatui::Viewport::Fullscreen,
    };
    Terminal::with_options(
        CrosstermBackend::new(out),
        ratatui::TerminalOptions { viewport },
    )
}

/// Persists the app's pending progress changes; the merged result (another instance may have
/// written meanwhile) becomes the app's copy. When another program holds the progress lock
/// past its deadline the changes are kept and tried again, no sooner than `retry` says (each
/// try may wait for the lock once more). Returns what a failed save said.
fn persist(app: &mut App, store: Option<&Store>, retry: &mut Option<Instant>) -> Option<String> {
    if app.outbox.is_empty() || retry.is_some_and(|t| Instant::now() < t) {
        return None;
    }
    let changes = std::mem::take(&mut app.outbox);
    let store = store?;
    match store.update(|p| changes.iter().for_each(|c| p.apply(c))) {
        Ok((merged, notice)) => {
            *retry = None;
            app.world.progress = merged;
            if let Some(n) = notice {
                let text = app.world.i18n.msg(&n.msg());
                app.notify(text);
            }
            None
        }
        Err(e) => {
            if e.is_locked() {
                // Nothing was written: the same changes go first in the next try.
                let newer = std::mem::replace(&mut app.outbox, changes);
                app.outbox.extend(newer);
                *retry = Some(Instant::now() + LOCKED_RETRY);
            }
            let text = app.world.i18n.msg(&e.0);
            app.notify(text.clone());
            Some(text)
        }
    }
}

/// How long the app goes on without trying a save that found the progress lock held.
const LOCKED_RETRY: Duration = Duration::from_secs(10);

/// Runs the app until the learner quits; `open` is shown first (`rocm-learn lesson ID` ...),
/// once the loop can be woken by background work such as a lab's shell. `class` is the class
/// server the app runs under (`class::Alone` when none).
pub fn run(
    mut app: App,
    store: Option<Store>,
    open: Option<crate::markdown::Target>,
    class: Box<dyn Class>,
) -> io::Result<()> {
    // Before any thread starts, so that all of them inherit it: a key and its echo pass
    // through three of them.
    crate::sys::set_turn(crate::sys::SHORT_TURN_NS);
    app.class = class;
    let mut terminal = setup()?;
    let (tx, rx) = mpsc::channel();
    let pending = install_waker(&mut app, tx.clone());
    // Screens opened now (a lab sizes its shell's terminal) lay out for the real size.
    if let Ok(size) = terminal.size() {
        app.handle(Input::Resize(size.width, size.height));
    }
    app.watched = app.class.watched();
    if let Some(t) = &open {
        app.open(t);
    }
    spawn_input(tx.clone());
    spawn_signals(tx)?;

    let result = event_loop(&mut terminal, &mut app, &rx, &pending, store.as_ref());
    // Also when drawing failed (the terminal is gone): screens leave, labs end their sandbox.
    if !app.quit {
        app.quit_all();
    }
    // The last try, also when a held lock refused one a moment ago; a failure is said where
    // the learner can still read it, on the restored terminal.
    let failed = persist(&mut app, store.as_ref(), &mut None);
    restore();
    if let Some(text) = failed {
        eprintln!("{text}");
    }
    result
}

/// Gives the app a waker for background threads. Shell output can arrive thousands of times a
/// second: one wake at most is queued (the returned flag says so), and the loop takes everything
/// that happened since in one redraw.
fn install_waker(app: &mut App, tx: mpsc::Sender<Msg>) -> Arc<AtomicBool> {
    let pending = Arc::new(AtomicBool::new(false));
    let flag = pending.clone();
    app.world.waker = Some(Arc::new(move || {
        if !flag.swap(true, Ordering::SeqCst) {
            let _ = tx.send(Msg::Wake);
        }
    }));
    pending
}

/// Reads the terminal's input on its own thread.
fn spawn_input(tx: mpsc::Sender<Msg>) {
    std::thread::spawn(move || {
        // Blocks in read(): no polling, so an idle app uses no CPU.
        while let Ok(ev) = event::read() {
            if tx.send(Msg::Input(ev)).is_err() {
                return;
            }
        }
        // The terminal cannot be read any more (it was closed): nobody can use the app now,
        // and its lab sandbox must not outlive it.
        let _ = tx.send(Msg::Stop);
    });
}

/// Turns the signals the app handles into messages, on their own thread.
fn spawn_signals(tx: mpsc::Sender<Msg>) -> io::Result<()> {
    use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM, SIGTSTP};
    let mut signals =
        signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT])?;
    std::thread::spawn(move || {
        for sig in signals.forever() {
            if tx.send(signal_msg(sig)).is_err() {
                return;
            }
        }
    });
    Ok(())
}

/// Draws, then waits for messages and redraws after each batch until the app quits.
fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
    rx: &mpsc::Receiver<Msg>,
    pending: &AtomicBool,
    store: Option<&Store>,
) -> io::Result<()> {
    terminal.draw(|f| app.draw(f))?;
    // The last reattach this app has redrawn for.
    let mut attached = 0u64;
    // When the last redraw was for background output alone, and when it was drawn.
    let mut last_output_draw: Option<Instant> = None;
    let mut retry_save = None;
    while let Ok(msg) = rx.recv() {
        let mut stop = false;
        // Output that follows a key (a shell's echo) is drawn at once, as a terminal would;
        // only a burst of output after output is paced to about 60 redraws a second.
        let output_only = matches!(msg, Msg::Wake);
        if output_only
            && let Some(since) = last_output_draw.map(|t| t.elapsed())
            && since < FRAME
        {
            std::thread::sleep(FRAME - since);
        }
        // Take everything already queued before drawing again (a burst of mouse wheel
        // events or a paste is one redraw, not fifty).
        let mut output_only = output_only;
        let mut typed_into_shell = false;
        let mut woken = false;
        for msg in std::iter::once(msg).chain(rx.try_iter()) {
            output_only &= matches!(msg, Msg::Wake);
            woken |= matches!(msg, Msg::Wake);
            typed_into_shell |= matches!(msg, Msg::Input(Event::Key(_))) && app.captures_input();
            stop |= handle_msg(terminal, app, pending, &mut attached, msg)?;
        }
        // A key the shell will echo: draw once, with the echo, rather than now and again.
        if typed_into_shell && !woken && !stop {
            let deadline = Instant::now() + ECHO_WAIT;
            while let Some(left) = deadline.checked_duration_since(Instant::now()) {
                let Ok(msg) = rx.recv_timeout(left) else {
                    break;
                };
                let wake = matches!(msg, Msg::Wake);
                stop |= handle_msg(terminal, app, pending, &mut attached, msg)?;
                if wake || stop {
                    break;
                }
            }
        }
        if stop {
            // Never a key: a focused lab shell would take it as Ctrl-C typed by the learner.
            app.quit_all();
        }
        // A failure is on screen already (a notice).
        let _ = persist(app, store, &mut retry_save);
        if app.quit {
            break;
        }
        terminal.draw(|f| app.draw(f))?;
        last_output_draw = output_only.then(Instant::now);
    }
    Ok(())
}

/// Handles one message; true when it asks the app to stop.
fn handle_msg(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
    pending: &AtomicBool,
    attached: &mut u64,
    msg: Msg,
) -> io::Result<bool> {
    match msg {
        Msg::Stop => return Ok(true),
        Msg::Suspend => suspend(terminal, app)?,
        Msg::Resume => resume(terminal, app)?,
        Msg::Wake => {
            pending.store(false, Ordering::SeqCst);
            app.handle(Input::Wake);
        }
        // Ctrl-Z is a key in raw mode; it stops the app unless a lab's shell has the keys
        // (there it suspends the learner's job, as in any terminal).
        Msg::Input(Event::Key(k)) if is_ctrl_z(&k) && !app.captures_input() => {
            suspend(terminal, app)?;
        }
        Msg::Input(ev) => {
            // A class server pokes with a resize when its instructor starts or stops watching,
            // and when the session is shown on a new connection (a reattach).
            if let Event::Resize(w, h) = ev {
                terminal.resize(ratatui::layout::Rect::new(0, 0, w, h))?;
                app.watched = app.class.watched();
                if let Some(h) = app.class.help() {
                    app.help = h;
                }
                if let Some(n) = app.class.attached_since(*attached) {
                    *attached = n;
                    app.reattached = true;
                    // A new terminal knows nothing of our modes or of what is on the screen.
                    enter()?;
                    let size = terminal.size()?;
                    terminal.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))?;
                }
            }
            if let Some(input) = to_input(ev) {
                app.handle(input);
            }
        }
    }
    Ok(false)
}

fn is_ctrl_z(k: &crossterm::event::KeyEvent) -> bool {
    k.code == crossterm::event::KeyCode::Char('z')
        && k.modifiers
            .contains(crossterm::event::KeyModifiers::CONTROL)
        && k.kind != crossterm::event::KeyEventKind::Release
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
