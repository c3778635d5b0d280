//! Snapshot of every screen in English, Japanese and Korean, at a narrow (40x15), a usual
//! (80x24) and a wide (160x50) size; plus the building's alignment with CJK text.

#[path = "common/tui.rs"]
mod tui;

use rocm_learn::lang::Lang;
use tui::{
    app, assert_ascii_chrome, assert_no_hidden_cells, content_chars, draw, draw_both, send, text,
};

/// (name, keys from the home screen that lead there)
const SCREENS: &[(&str, &str)] = &[
    ("home", ""),
    ("building", "1"),
    ("building-elevator", "1ell"),
    ("floor", "1jj<Enter>"),
    ("lessons", "2"),
    ("reader", "2<Enter>"),
    ("reader-toc", "2<Enter>t"),
    ("quizzes", "3"),
    ("quiz-asking", "3<Enter>j"),
    ("quiz-verdict", "3<Enter>1<Enter>"),
    (
        "quiz-results",
        "3<Enter>1<Enter><Enter>2<Enter><Enter>3<Enter><Enter>2<Enter><Enter>2<Enter><Enter>",
    ),
    ("labs", "4"),
    ("glossary", "5"),
    ("glossary-search", "5kfd"),
    ("progress", "6"),
    ("matrix", "7"),
    ("matrix-scrolled", "7jjjjjjjjjjjj"),
    // Tab after scrolling a focused link away focuses a link on screen, not the next one above.
    (
        "reader-tab-after-scroll",
        "2<Enter><Tab><Tab><Tab><End><Tab>",
    ),
    ("help", "1?"),
];

const SIZES: &[(u16, u16)] = &[(40, 15), (80, 24), (160, 50)];

#[test]
fn every_screen_in_every_language_and_size() {
    for (name, keys) in SCREENS {
        for lang in Lang::ALL {
            for &(w, h) in SIZES {
                let mut a = app(lang);
                // Size first, so screens lay out for it (as a real terminal would).
                draw(&mut a, w, h);
                send(&mut a, keys);
                let buf = draw(&mut a, w, h);
                tui::assert_rows_fit(&buf);
                let snap = format!("{name}-{lang}-{w}x{h}");
                insta::assert_snapshot!(snap, text(&buf));
            }
        }
    }
}

/// Column (in cells) of the building's right wall on each floor row.
fn right_walls(buf: &ratatui::buffer::Buffer, wall: &str) -> Vec<u16> {
    let mut cols = Vec::new();
    for y in 0..buf.area.height {
        let row: Vec<&str> = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
        // Floor rows start with a "5F".."1F" label or an indent, then the shaft and the wall.
        let Some(left) = row.iter().take(8).position(|s| *s == wall) else {
            continue;
        };
        if let Some(right) = row.iter().skip(left + 1).position(|s| *s == wall) {
            cols.push((left + 1 + right) as u16);
        }
    }
    cols
}

#[test]
fn the_building_walls_line_up_with_cjk_names_at_every_width() {
    for lang in Lang::ALL {
        for ascii in [false, true] {
            for w in [40u16, 57, 70, 81, 99, 120, 160] {
                let mut a = app(lang);
                a.world.theme.ascii = ascii;
                send(&mut a, "1");
                let buf = draw(&mut a, w, 24);
                let walls = right_walls(&buf, if ascii { "|" } else { "│" });
                assert!(
                    walls.len() >= 5,
                    "{lang} {w}: found the floors\n{}",
                    text(&buf)
                );
                assert!(
                    walls.iter().all(|c| *c == walls[0]),
                    "{lang} {w} ascii={ascii}: right wall moves: {walls:?}\n{}",
                    text(&buf)
                );
            }
        }
    }
}

/// The floor's text beside the building is wrapped once, for its own column: within a
/// paragraph no line could have taken the next line's first word.
#[test]
fn the_floor_text_beside_the_building_is_wrapped_once() {
    for w in 70u16..=130 {
        let mut a = app(Lang::En);
        draw(&mut a, w, 24);
        send(&mut a, "1");
        let buf = draw(&mut a, w, 24);
        let x0 = (w / 2).clamp(34, 56) + 1;
        let panel = usize::from(w - x0);
        let rows: Vec<String> = (1..buf.area.height)
            .map(|y| {
                (x0..w)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect();
        // The paragraphs after the floor's name and role (their first blank line).
        let start = rows.iter().position(String::is_empty).unwrap_or(0);
        for pair in rows[start..].windows(2) {
            let (line, next) = (&pair[0], &pair[1]);
            if line.is_empty() || next.is_empty() || next.starts_with('•') {
                continue;
            }
            let word = next.split_whitespace().next().unwrap_or("");
            assert!(
                line.chars().count() + 1 + word.chars().count() > panel,
                "{w}x24: {line:?} had room for {word:?}\n{}",
                text(&buf)
            );
        }
    }
}

#[test]
fn ascii_mode_draws_no_box_characters() {
    let mut a = app(Lang::Ja);
    send(&mut a, "A1");
    let screen = text(&draw(&mut a, 80, 24));
    for c in ['│', '─', '┌', '┐', '└', '┘', '├', '┤', '▁'] {
        assert!(!screen.contains(c), "{c} in\n{screen}");
    }
    assert!(screen.contains("+-----"), "{screen}");
}

/// Screens and overlays the snapshots do not cover, for the ASCII walk.
const MORE: &[(&str, &str)] = &[
    ("glossary-term", "5<Enter>"),
    ("lessons-help", "2?"),
    ("quiz-help", "3<Enter>?"),
    ("glossary-help", "5<F1>"),
    ("reader-end", "2<Enter>G"),
];

#[test]
fn ascii_mode_draws_only_ascii_outside_learner_content_on_every_screen() {
    for lang in Lang::ALL {
        let content = content_chars(lang);
        for (name, keys) in SCREENS.iter().chain(MORE) {
            for &(w, h) in SIZES {
                let mut a = app(lang);
                a.world.theme.ascii = true;
                draw(&mut a, w, h);
                send(&mut a, keys);
                let (buf, drawn) = draw_both(&mut a, w, h);
                assert_ascii_chrome(&buf, lang, &content, name);
                assert_no_hidden_cells(&drawn, name);
            }
        }
    }
}

#[test]
fn pop_ups_over_wide_text_keep_their_left_border() {
    // Pop-ups whose left edge falls on Japanese or Korean text at some width.
    for lang in [Lang::Ja, Lang::Ko] {
        for (name, keys) in [
            ("help", "?"),
            ("contents", "2<Enter>t"),
            ("term", "5<Enter>"),
        ] {
            for (w, h) in [
                (40, 15),
                (41, 15),
                (57, 20),
                (63, 24),
                (80, 24),
                (81, 30),
                (99, 30),
            ] {
                for ascii in [false, true] {
                    let mut a = app(lang);
                    a.world.theme.ascii = ascii;
                    draw(&mut a, w, h);
                    send(&mut a, keys);
                    let (_, drawn) = draw_both(&mut a, w, h);
                    assert_no_hidden_cells(&drawn, &format!("{name} {lang} {w}x{h}"));
                }
            }
        }
    }
}
