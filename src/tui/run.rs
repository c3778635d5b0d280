//! Runs the app in a real terminal: raw mode, alternate screen, mouse; one event loop that
//! sleeps until input or a signal arrives, draws only after something changed, and always gives
//! the terminal back (normal exit, panic, SIGTERM, SIGHUP, SIGINT, a terminal that went away).
//! Ctrl-Z and SIGTSTP suspend like any terminal program: the terminal is restored first, and on
//! SIGCONT the app takes it back and redraws.

use std::io::{self, Read, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
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
use crate::lab::app::session::{Pump, Watch};
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
    // through them.
    crate::sys::set_turn(crate::sys::SHORT_TURN_NS);
    app.class = class;
    let mut terminal = setup()?;
    let (tx, rx) = mpsc::channel();
    let bell = Bell::new()?;
    let pending = install_waker(&mut app, tx.clone(), bell.ringer()?);
    let watched = Watched::default();
    app.world.watch = Some(watched.watch());
    // Screens opened now (a lab sizes its shell's terminal) lay out for the real size.
    if let Ok(size) = terminal.size() {
        app.handle(Input::Resize(size.width, size.height));
    }
    app.watched = app.class.watched();
    if let Some(t) = &open {
        app.open(t);
    }
    // The loop reads the terminal itself where it can (one thread woken per key); a thread
    // reads it where the terminal is not the app's stdin.
    let tty = rustix::termios::isatty(io::stdin());
    if !tty {
        spawn_input(tx.clone(), bell.ringer()?);
    }
    spawn_signals(tx, bell.ringer()?)?;

    let mut lp = Loop {
        look: tty,
        rx: &rx,
        bell: &bell,
        watched: &watched,
        tty,
        pending: &pending,
        store: store.as_ref(),
    };
    let result = lp.run(&mut terminal, &mut app);
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

/// Wakes the event loop from another thread: a byte on a socket the loop polls beside the
/// terminal. Messages themselves go through the channel; the bell only says to look.
struct Bell {
    ear: std::os::unix::net::UnixStream,
    mouth: std::os::unix::net::UnixStream,
}

impl Bell {
    fn new() -> io::Result<Bell> {
        let (ear, mouth) = std::os::unix::net::UnixStream::pair()?;
        ear.set_nonblocking(true)?;
        mouth.set_nonblocking(true)?;
        Ok(Bell { ear, mouth })
    }

    /// A handle another thread rings the bell with.
    fn ringer(&self) -> io::Result<Ringer> {
        Ok(Ringer(Arc::new(self.mouth.try_clone()?)))
    }

    /// Takes every ring so far (they only ever say "look at the channel").
    fn quiet(&self) {
        let mut buf = [0u8; 64];
        while matches!((&self.ear).read(&mut buf), Ok(1..)) {}
    }
}

#[derive(Clone)]
struct Ringer(Arc<std::os::unix::net::UnixStream>);

impl Ringer {
    fn ring(&self) {
        // A full socket already holds rings enough: the loop will look.
        let _ = (&*self.0).write(&[1]);
    }
}

/// The descriptors the loop reads for others (a lab shell's terminal), each with what reads
/// it. Filled from the loop's own thread, when a screen starts a lab.
#[derive(Clone, Default)]
struct Watched(Arc<Mutex<Vec<(std::os::fd::OwnedFd, Pump)>>>);

impl Watched {
    fn watch(&self) -> Watch {
        let list = self.0.clone();
        Arc::new(move |fd, pump| {
            if let Ok(mut l) = list.lock() {
                l.push((fd, pump));
            }
        })
    }
}

/// Gives the app a waker for background threads. Shell output can arrive thousands of times a
/// second: one wake at most is queued (the returned flag says so), and the loop takes everything
/// that happened since in one redraw.
fn install_waker(app: &mut App, tx: mpsc::Sender<Msg>, bell: Ringer) -> Arc<AtomicBool> {
    let pending = Arc::new(AtomicBool::new(false));
    let flag = pending.clone();
    app.world.waker = Some(Arc::new(move || {
        if !flag.swap(true, Ordering::SeqCst) {
            let _ = tx.send(Msg::Wake);
            bell.ring();
        }
    }));
    pending
}

/// Reads the terminal's input on its own thread (when the terminal is not the app's stdin).
fn spawn_input(tx: mpsc::Sender<Msg>, bell: Ringer) {
    std::thread::spawn(move || {
        // Blocks in read(): no polling, so an idle app uses no CPU.
        while let Ok(ev) = event::read() {
            if tx.send(Msg::Input(ev)).is_err() {
                return;
            }
            bell.ring();
        }
        // The terminal cannot be read any more (it was closed): nobody can use the app now,
        // and its lab sandbox must not outlive it.
        let _ = tx.send(Msg::Stop);
        bell.ring();
    });
}

/// Turns the signals the app handles into messages, on their own thread.
fn spawn_signals(tx: mpsc::Sender<Msg>, bell: Ringer) -> io::Result<()> {
    use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM, SIGTSTP, SIGWINCH};
    let mut signals =
        signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT, SIGWINCH])?;
    std::thread::spawn(move || {
        for sig in signals.forever() {
            // A new size is read here: crossterm's own resize event is made in its signal
            // handler, which may run after this thread has already woken the loop.
            let msg = if sig == SIGWINCH {
                match crossterm::terminal::size() {
                    Ok((w, h)) => Msg::Input(Event::Resize(w, h)),
                    Err(_) => continue,
                }
            } else {
                signal_msg(sig)
            };
            if tx.send(msg).is_err() {
                return;
            }
            bell.ring();
        }
    });
    Ok(())
}

/// What one turn of the loop took in, for deciding when to draw.
#[derive(Default)]
struct Batch {
    /// Something other than a lab's output: draw at once.
    input: bool,
    /// A key typed into a lab's shell, which will echo it.
    typed_into_shell: bool,
    /// Output of a lab's shell (or other background news).
    output: bool,
    stop: bool,
}

/// The event loop: sleeps in one poll over the terminal, the lab shells' terminals and the
/// bell, handles what came, and draws when it is time.
struct Loop<'a> {
    rx: &'a mpsc::Receiver<Msg>,
    bell: &'a Bell,
    watched: &'a Watched,
    /// The terminal is stdin, read here (else a thread reads it and rings).
    tty: bool,
    /// crossterm may hold events already: read them before sleeping.
    look: bool,
    pending: &'a AtomicBool,
    store: Option<&'a Store>,
}

impl Loop<'_> {
    /// Draws, then waits for news and redraws after each batch until the app quits.
    fn run(
        &mut self,
        terminal: &mut Terminal<CrosstermBackend<Stdout>>,
        app: &mut App,
    ) -> io::Result<()> {
        terminal.draw(|f| app.draw(f))?;
        // The last reattach this app has redrawn for.
        let mut attached = 0u64;
        // When the last redraw for background output alone was drawn.
        let mut last_output_draw: Option<Instant> = None;
        // A key went to a lab's shell: draw with its echo, or at this moment without it.
        let mut echo_by: Option<Instant> = None;
        // Output waits for this moment (about 60 redraws a second for a burst of it).
        let mut output_by: Option<Instant> = None;
        let mut retry_save = None;
        loop {
            let due = [echo_by, output_by].into_iter().flatten().min();
            let b = self.wait(terminal, app, &mut attached, due)?;
            if b.stop {
                // Never a key: a focused lab shell would take it as Ctrl-C typed by the
                // learner.
                app.quit_all();
            }
            let now = Instant::now();
            // Output that follows a key (a shell's echo) is drawn at once, as a terminal
            // would; a key the shell will echo waits a moment for it (one redraw, not two);
            // only a burst of output after output is paced.
            let draw_now = b.stop
                || b.input
                || (b.output && echo_by.is_some())
                || (b.typed_into_shell && b.output);
            if b.typed_into_shell && !b.output {
                echo_by = echo_by.or(Some(now + ECHO_WAIT));
            }
            if b.output && !draw_now && output_by.is_none() {
                output_by = Some(match last_output_draw {
                    Some(t) if now < t + FRAME => t + FRAME,
                    _ => now,
                });
            }
            let due = [echo_by, output_by].into_iter().flatten().min();
            if !draw_now && due.is_none_or(|d| now < d) {
                continue;
            }
            // A failure is on screen already (a notice).
            let _ = persist(app, self.store, &mut retry_save);
            if app.quit {
                break;
            }
            terminal.draw(|f| app.draw(f))?;
            let output_only = !b.input && !b.typed_into_shell && echo_by.is_none();
            last_output_draw = output_only.then(Instant::now);
            echo_by = None;
            output_by = None;
        }
        Ok(())
    }

    /// Sleeps until news or `until`, and handles all that has come.
    fn wait(
        &mut self,
        terminal: &mut Terminal<CrosstermBackend<Stdout>>,
        app: &mut App,
        attached: &mut u64,
        until: Option<Instant>,
    ) -> io::Result<Batch> {
        use rustix::event::{PollFd, PollFlags};
        let mut b = Batch::default();
        let ready = {
            let watched = self
                .watched
                .0
                .lock()
                .map_err(|_| io::Error::other("poisoned"))?;
            let stdin = io::stdin();
            let mut fds = vec![PollFd::new(&self.bell.ear, PollFlags::IN)];
            if self.tty {
                fds.push(PollFd::new(&stdin, PollFlags::IN));
            }
            for (fd, _) in watched.iter() {
                fds.push(PollFd::new(fd, PollFlags::IN));
            }
            let until = if self.look {
                Some(Instant::now())
            } else {
                until
            };
            let timeout = until.map(|t| {
                let left = t.saturating_duration_since(Instant::now());
                rustix::event::Timespec::try_from(left).unwrap_or_default()
            });
            match rustix::event::poll(&mut fds, timeout.as_ref()) {
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
            fds.iter().map(PollFd::revents).collect::<Vec<_>>()
        };
        let gone = PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL;
        let mut at = 1;
        if self.tty {
            let r = ready[at];
            at += 1;
            let look = std::mem::take(&mut self.look);
            if r.intersects(gone) {
                // The terminal hung up: nobody can use the app now, and its lab sandbox must
                // not outlive it. (crossterm is not asked: it would read the end of the
                // stream again and again.)
                b.stop = true;
            } else if look || r.intersects(PollFlags::IN) || ready[0].intersects(PollFlags::IN) {
                // Every event the terminal has sent so far, parsed (a key's escape sequence
                // that is not complete yet stays for the next turn).
                loop {
                    match event::poll(Duration::ZERO) {
                        Ok(true) => {}
                        Ok(false) => break,
                        Err(_) => {
                            b.stop = true;
                            break;
                        }
                    }
                    let Ok(ev) = event::read() else {
                        b.stop = true;
                        break;
                    };
                    // The signal thread gives the new size (see `spawn_signals`).
                    if matches!(ev, Event::Resize(..)) {
                        continue;
                    }
                    self.note(&mut b, app, &Msg::Input(ev.clone()));
                    b.stop |= handle_msg(terminal, app, self.pending, attached, Msg::Input(ev))?;
                }
            }
        }
        // Each lab shell's output, read here; a stream that ended is let go.
        let mut read = false;
        if let Ok(mut watched) = self.watched.0.lock() {
            let mut i = 0;
            watched.retain_mut(|(_, pump)| {
                let r = ready.get(at + i).copied().unwrap_or(PollFlags::empty());
                i += 1;
                if !r.intersects(PollFlags::IN | gone) {
                    return true;
                }
                read = true;
                pump()
            });
        }
        if read {
            b.output = true;
            app.handle(Input::Wake);
        }
        if ready[0].intersects(PollFlags::IN) {
            self.bell.quiet();
        }
        for msg in self.rx.try_iter() {
            self.note(&mut b, app, &msg);
            b.stop |= handle_msg(terminal, app, self.pending, attached, msg)?;
        }
        Ok(b)
    }

    /// Records what kind of news `msg` is.
    fn note(&self, b: &mut Batch, app: &App, msg: &Msg) {
        match msg {
            Msg::Wake => b.output = true,
            Msg::Input(Event::Key(_)) if app.captures_input() => b.typed_into_shell = true,
            _ => b.input = true,
        }
    }
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
