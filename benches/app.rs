//! The full-screen app, measured in-process: loading everything and drawing the first frame,
//! and drawing one frame at 200x60 in Korean. `cargo bench --bench app`.

// The tests' helpers for driving the app: the bench builds its app the same way.
#[path = "../tests/common/tui.rs"]
mod tui;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use rocm_learn::content::{self, ContentTree};
use rocm_learn::lang::Lang;
use rocm_learn::markdown::Target;
use rocm_learn::tui::App;

fn main() {
    divan::main();
}

fn app(lang: Lang) -> App {
    // What the app's start runs: the course without the passes that only `check` reports
    // (the terminology lint; for the built-in course also links in pages and translations).
    let (course, _, _) = content::load_pack(&ContentTree::embedded());
    tui::new_app(course, lang, false)
}

/// Start to first frame: the course read as the app's start reads it (`content::load_pack`),
/// the home screen drawn (the terminal itself is a test backend; its own start is not ours to
/// measure).
#[divan::bench]
fn start_to_first_frame() {
    let mut a = app(Lang::Ko);
    let mut t = Terminal::new(TestBackend::new(120, 40)).unwrap();
    t.draw(|f| a.draw(f)).unwrap();
    divan::black_box(t.backend().buffer().area);
}

/// One frame of each text-heavy screen at 200x60 in Korean (layout is cached after the first).
#[divan::bench(args = ["home", "building", "reader", "quiz", "glossary"])]
fn frame_200x60_korean(bencher: divan::Bencher, screen: &str) {
    let mut a = app(Lang::Ko);
    match screen {
        "building" => a.open_screen_for_bench("building"),
        "reader" => a.open(&Target::Lesson("verify".into())),
        "quiz" => a.open(&Target::Quiz("deploy-workflow".into())),
        "glossary" => a.open_screen_for_bench("glossary"),
        _ => {}
    }
    let mut t = Terminal::new(TestBackend::new(200, 60)).unwrap();
    t.draw(|f| a.draw(f)).unwrap();
    bencher.bench_local(|| {
        t.draw(|f| a.draw(f)).unwrap();
    });
}
