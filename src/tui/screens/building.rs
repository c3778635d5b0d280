//! The ROCm stack as a five-floor building: pick a floor to see who works there, open it for
//! its components and lessons, or ride the elevator with one request from 5F to 1F and back.
//!
//! Every row is padded by display width (not characters), so Japanese and Korean names keep the
//! walls aligned; with `A` the drawing switches to ASCII for terminals that draw box characters
//! two cells wide.

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::super::doc;
use super::super::keymap::{self, Binding};
use super::super::view::{Cx, Ev, Outcome, View};
use super::super::widgets;
use super::super::wrap::{pad, str_width, truncate};
use super::reader::Reader;
use crate::content::Floor;

/// What a key does on the building, on a floor, or in the elevator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    /// Up or down: a floor, a line.
    Move,
    /// Back one elevator stop.
    Prev,
    /// Open a floor, the next link, or the next elevator stop.
    Next,
    First,
    Floor,
    Open,
    Matrix,
    Elevator,
}

const FLOORS: &[Binding<Act>] = &[
    Binding::new(keymap::UP_DOWN, "↑↓", "key-floor", Act::Move),
    Binding::hidden(
        &[
            KeyCode::Char('1'),
            KeyCode::Char('2'),
            KeyCode::Char('3'),
            KeyCode::Char('4'),
            KeyCode::Char('5'),
        ],
        Act::Floor,
    ),
    Binding::new(
        &[KeyCode::Enter, KeyCode::Right, KeyCode::Char('l')],
        "Enter",
        "key-open",
        Act::Next,
    ),
    Binding::new(&[KeyCode::Char('e')], "e", "key-elevator", Act::Elevator),
    Binding::new(&[KeyCode::Char('m')], "m", "key-matrix", Act::Matrix),
];

const RIDE: &[Binding<Act>] = &[
    Binding::new(
        &[
            KeyCode::Right,
            KeyCode::Char('l'),
            KeyCode::Char(' '),
            KeyCode::Enter,
            KeyCode::Char('n'),
        ],
        "←→",
        "key-step",
        Act::Next,
    ),
    Binding::hidden(
        &[
            KeyCode::Left,
            KeyCode::Char('h'),
            KeyCode::Char('p'),
            KeyCode::Backspace,
        ],
        Act::Prev,
    ),
    Binding::hidden(&[KeyCode::Home], Act::First),
    Binding::new(
        &[KeyCode::Char('e'), KeyCode::Esc],
        "e",
        "key-elevator-off",
        Act::Elevator,
    ),
];

const FLOOR_VIEW: &[Binding<Act>] = &[
    Binding::new(keymap::UP_DOWN, "↑↓", "key-scroll", Act::Move),
    Binding::new(
        &[KeyCode::Tab, KeyCode::BackTab],
        "Tab",
        "key-next-link",
        Act::Next,
    ),
    Binding::new(&[KeyCode::Enter], "Enter", "key-read", Act::Open),
];

pub struct Building {
    /// Selected floor, as an index from the top (0 = 5F).
    selected: usize,
    /// Elevator step when riding, else None.
    ride: Option<usize>,
    /// Screen rows of each floor at the last draw, for clicks.
    floor_rows: Vec<(u16, u16)>,
    building_area: Rect,
}

impl Building {
    pub fn new() -> Self {
        Building {
            selected: 0,
            ride: None,
            floor_rows: Vec::new(),
            building_area: Rect::default(),
        }
    }

    fn floor_at(&self, x: u16, y: u16) -> Option<usize> {
        let a = self.building_area;
        if x < a.x || x >= a.x + a.width {
            return None;
        }
        self.floor_rows.iter().position(|&(s, e)| y >= s && y < e)
    }
}

impl Default for Building {
    fn default() -> Self {
        Self::new()
    }
}

/// How many text lines each floor gets, from the rows available.
fn lines_per_floor(height: u16) -> Option<u16> {
    match height {
        h if h >= 16 => Some(2),
        h if h >= 11 => Some(1),
        _ => None, // compact: one row per floor, no walls
    }
}

/// Is step `i` of the ride on the way down (true) or back up?
fn going_down(steps: &[crate::content::ElevatorStep], i: usize) -> bool {
    if i + 1 < steps.len() {
        steps[i + 1].floor < steps[i].floor
    } else {
        i == 0 || steps[i].floor < steps[i - 1].floor
    }
}

impl View for Building {
    fn id(&self) -> &'static str {
        "building"
    }

    fn title(&self, cx: &Cx) -> String {
        cx.t("home-stack")
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        keymap::hints(if self.ride.is_some() { RIDE } else { FLOORS })
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let floors = &cx.course.building.floors;
        let steps = &cx.course.building.elevator.steps;
        if floors.is_empty() {
            return Outcome::Ignored;
        }
        if let Some(step) = self.ride {
            let follow = |s: usize, this: &mut Self| {
                this.ride = Some(s);
                if let Some(i) = floors.iter().position(|f| f.level == steps[s].floor) {
                    this.selected = i;
                }
            };
            return match ev {
                Ev::Key(k) => match Binding::find(RIDE, k) {
                    Some(Act::Next) => {
                        if step + 1 < steps.len() {
                            follow(step + 1, self);
                        }
                        Outcome::Stay
                    }
                    Some(Act::Prev) => {
                        follow(step.saturating_sub(1), self);
                        Outcome::Stay
                    }
                    Some(Act::First) => {
                        follow(0, self);
                        Outcome::Stay
                    }
                    Some(Act::Elevator) => {
                        self.ride = None;
                        Outcome::Stay
                    }
                    _ => Outcome::Ignored,
                },
                Ev::Click { .. } | Ev::Scroll(_) => {
                    let d = matches!(ev, Ev::Scroll(d) if *d < 0);
                    let next = if d {
                        step.saturating_sub(1)
                    } else {
                        (step + 1).min(steps.len().saturating_sub(1))
                    };
                    follow(next, self);
                    Outcome::Stay
                }
                _ => Outcome::Ignored,
            };
        }
        match ev {
            Ev::Key(k) => match (Binding::find(FLOORS, k), k.code) {
                (Some(Act::Move), KeyCode::Up | KeyCode::Char('k')) => {
                    self.selected = self.selected.saturating_sub(1);
                    Outcome::Stay
                }
                (Some(Act::Move), _) => {
                    self.selected = (self.selected + 1).min(floors.len() - 1);
                    Outcome::Stay
                }
                (Some(Act::Floor), KeyCode::Char(d)) => {
                    let level = d as u8 - b'0';
                    if let Some(i) = floors.iter().position(|f| f.level == level) {
                        self.selected = i;
                    }
                    Outcome::Stay
                }
                (Some(Act::Next), _) => {
                    Outcome::Push(Box::new(FloorView::new(floors[self.selected].level)))
                }
                (Some(Act::Matrix), _) => Outcome::Push(Box::new(super::matrix::Matrix::new())),
                (Some(Act::Elevator), _) if !steps.is_empty() => {
                    self.ride = Some(0);
                    if let Some(i) = floors.iter().position(|f| f.level == steps[0].floor) {
                        self.selected = i;
                    }
                    Outcome::Stay
                }
                _ => Outcome::Ignored,
            },
            Ev::Click { x, y } => match self.floor_at(*x, *y) {
                Some(i) if i == self.selected => {
                    Outcome::Push(Box::new(FloorView::new(floors[i].level)))
                }
                Some(i) => {
                    self.selected = i;
                    Outcome::Stay
                }
                None => Outcome::Stay,
            },
            Ev::Scroll(d) => {
                self.selected = self
                    .selected
                    .saturating_add_signed(d.signum() as isize)
                    .min(floors.len() - 1);
                Outcome::Stay
            }
            _ => Outcome::Ignored,
        }
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let floors = &cx.course.building.floors;
        if floors.is_empty() {
            return;
        }
        self.selected = self.selected.min(floors.len() - 1);
        let wide = area.width >= 70;
        let steps = &cx.course.building.elevator.steps;
        // Side by side when wide; stacked (building over text) when narrow.
        let (bld, text_area) = if wide {
            let bw = (area.width / 2).clamp(34, 56);
            (
                Rect { width: bw, ..area },
                Rect {
                    x: area.x + bw + 1,
                    width: area.width - bw - 1,
                    ..area
                },
            )
        } else {
            // Riding on a narrow screen: a compact building (one row per floor) and the
            // step's text in every row left.
            let text_rows = if self.ride.is_some() {
                area.height.saturating_sub(6)
            } else {
                0
            };
            let bh = area.height - text_rows;
            (
                Rect { height: bh, ..area },
                Rect {
                    y: area.y + bh,
                    height: text_rows,
                    ..area
                },
            )
        };
        let car = self.ride.map(|s| (steps[s].floor, going_down(steps, s)));
        self.draw_building(cx, f, bld, car);

        let theme = cx.theme;
        let mut text: Vec<Line> = Vec::new();
        if let Some(s) = self.ride {
            let step = &steps[s];
            text.push(Line::styled(
                cx.loc(&cx.course.building.elevator.title),
                theme.heading(2),
            ));
            text.push(Line::styled(
                theme
                    .chrome(&cx.i18n.ta(
                        "elevator-step",
                        &[
                            ("n", (s + 1).into()),
                            ("total", steps.len().into()),
                            ("floor", step.floor.into()),
                        ],
                    ))
                    .into_owned(),
                theme.dim(),
            ));
            text.push(Line::raw(""));
            text.extend(doc::text_lines(
                &cx.loc(&step.text),
                usize::from(area.width),
                cx.course,
                theme,
                theme.text(),
            ));
            text.push(Line::raw(""));
            let hint = if s + 1 == steps.len() {
                cx.t("elevator-done")
            } else {
                cx.t("elevator-keys")
            };
            text.push(Line::styled(theme.chrome(&hint).into_owned(), theme.key()));
        } else if wide {
            let floor = &floors[self.selected];
            text.push(Line::from(vec![
                Span::styled(format!("{}F  ", floor.level), theme.floor(floor.level)),
                Span::styled(cx.loc(&floor.name), theme.heading(2)),
            ]));
            text.push(Line::styled(cx.loc(&floor.role), theme.dim()));
            text.push(Line::raw(""));
            text.extend(doc::text_lines(
                &cx.loc(&floor.description),
                usize::from(area.width),
                cx.course,
                theme,
                theme.text(),
            ));
            text.push(Line::raw(""));
            let g = theme.glyphs();
            for c in &floor.components {
                text.push(Line::from(vec![
                    Span::raw(format!("{} ", g.bullet)),
                    Span::styled(cx.loc(&c.name), theme.key()),
                ]));
            }
            text.push(Line::raw(""));
            text.push(Line::styled(cx.t("building-keys"), theme.dim()));
        }
        if !wide {
            text.retain(|l| l.width() > 0);
        }
        if !text.is_empty() && text_area.height > 0 {
            widgets::text_box(cx, f, text_area, &text);
        }
    }
}

impl Building {
    fn draw_building(&mut self, cx: &Cx, f: &mut Frame, area: Rect, car: Option<(u8, bool)>) {
        let theme = cx.theme;
        let g = theme.glyphs();
        let floors = &cx.course.building.floors;
        self.building_area = area;
        self.floor_rows.clear();
        // Columns: "5F" label, a space, the shaft, a space, then the box.
        let box_x = area.x + 5;
        let box_w = area.width.saturating_sub(5) as usize;
        if box_w < 6 {
            return;
        }
        let inner_w = box_w - 2;
        let buf = f.buffer_mut();
        let mut y = area.y;
        let bottom = area.y + area.height;
        let per = lines_per_floor(area.height);
        let put = |buf: &mut ratatui::buffer::Buffer, x: u16, y: u16, s: &str, st: Style| {
            if y < bottom {
                buf.set_string(x, y, s, st);
            }
        };
        let car_glyph = |down: bool| if down { g.down } else { g.up };

        if per.is_none() {
            // Compact: one row per floor, the selected one highlighted.
            for (i, floor) in floors.iter().enumerate() {
                if y >= bottom {
                    break;
                }
                let label = format!("{}F", floor.level);
                put(buf, area.x, y, &label, theme.floor(floor.level));
                if let Some((lv, down)) = car
                    && lv == floor.level
                {
                    put(buf, area.x + 3, y, g.car, theme.key());
                    put(buf, area.x + 4, y, car_glyph(down), theme.key());
                }
                let text = pad(
                    &format!(
                        " {} {} {}",
                        cx.loc(&floor.name),
                        cx.theme.glyphs().dot,
                        cx.loc(&floor.role)
                    ),
                    box_w,
                );
                let st = if i == self.selected {
                    theme.selected()
                } else {
                    theme.text()
                };
                put(buf, box_x, y, &text, st);
                self.floor_rows.push((y, y + 1));
                y += 1;
            }
            return;
        }
        let per = per.unwrap_or(1);
        // A roof when there is a spare row.
        let needed = 5 * (per + 1) + 1;
        if area.height > needed {
            put(buf, box_x + 1, y, &g.roof.repeat(inner_w), theme.dim());
            y += 1;
        }
        for (i, floor) in floors.iter().enumerate() {
            let (l, r) = if i == 0 {
                (g.tl, g.tr)
            } else {
                (g.tee_l, g.tee_r)
            };
            put(
                buf,
                box_x,
                y,
                &format!("{l}{}{r}", g.h.repeat(inner_w)),
                theme.border(),
            );
            y += 1;
            let start = y;
            let selected = i == self.selected;
            let body_style = if selected {
                theme.selected()
            } else {
                theme.text()
            };
            for line in 0..per {
                let text = if line == 0 {
                    floor_title(cx, floor, inner_w)
                } else {
                    floor_components(cx, floor, inner_w)
                };
                put(buf, box_x, y, g.v, theme.border());
                let st = if line == 0 {
                    body_style.patch(theme.floor(floor.level))
                } else {
                    body_style
                };
                let st = if selected {
                    st.patch(theme.selected())
                } else {
                    st
                };
                put(buf, box_x + 1, y, &pad(&text, inner_w), st);
                put(buf, box_x + 1 + inner_w as u16, y, g.v, theme.border());
                if line == 0 {
                    put(
                        buf,
                        area.x,
                        y,
                        &format!("{}F", floor.level),
                        theme.floor(floor.level),
                    );
                }
                y += 1;
            }
            if let Some((lv, down)) = car
                && lv == floor.level
            {
                put(buf, area.x + 3, start, g.car, theme.key());
                if per > 1 {
                    put(buf, area.x + 3, start + 1, car_glyph(down), theme.key());
                } else {
                    put(buf, area.x + 2, start, car_glyph(down), theme.key());
                }
            } else if car.is_some() {
                // The empty shaft, only while riding.
                for yy in start..y {
                    put(buf, area.x + 3, yy, g.v, theme.dim());
                }
            }
            self.floor_rows.push((start.saturating_sub(1), y));
        }
        put(
            buf,
            box_x,
            y,
            &format!("{}{}{}", g.bl, g.h.repeat(inner_w), g.br),
            theme.border(),
        );
    }
}

fn floor_title(cx: &Cx, floor: &Floor, w: usize) -> String {
    let name = cx.loc(&floor.name);
    let role = cx.loc(&floor.role);
    if str_width(&name) + str_width(&role) + 4 <= w {
        format!(" {name} {} {role}", cx.theme.glyphs().dot)
    } else {
        format!(" {}", truncate(&name, w.saturating_sub(1)))
    }
}

fn floor_components(cx: &Cx, floor: &Floor, w: usize) -> String {
    let names: Vec<String> = floor.components.iter().map(|c| cx.loc(&c.name)).collect();
    format!("   {}", truncate(&names.join(", "), w.saturating_sub(3)))
}

/// One floor opened: what it does, its components, and the lessons about it.
pub struct FloorView {
    level: u8,
    /// Selected lesson link.
    selected: usize,
    scroll: usize,
    /// Lines of the lesson links at the last draw, and where the text was drawn.
    lesson_lines: Vec<usize>,
    area: Rect,
    /// Set by Tab: bring the selected link into view at the next draw.
    reveal: bool,
}

impl FloorView {
    pub fn new(level: u8) -> Self {
        FloorView {
            level,
            selected: 0,
            scroll: 0,
            lesson_lines: Vec::new(),
            area: Rect::default(),
            reveal: false,
        }
    }
}

impl View for FloorView {
    fn id(&self) -> &'static str {
        "floor"
    }

    fn title(&self, cx: &Cx) -> String {
        match cx.course.floor(self.level) {
            Some(f) => format!(
                "{} {} {}F {}",
                cx.t("home-stack"),
                if cx.theme.ascii { ">" } else { "›" },
                f.level,
                cx.loc(&f.name)
            ),
            None => cx.t("home-stack"),
        }
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        keymap::hints(FLOOR_VIEW)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let Some(floor) = cx.course.floor(self.level) else {
            return Outcome::Ignored;
        };
        let n = floor.lessons.len();
        match ev {
            Ev::Key(k) => match (Binding::find(FLOOR_VIEW, k), k.code) {
                (Some(Act::Move), KeyCode::Up | KeyCode::Char('k')) => {
                    self.scroll = self.scroll.saturating_sub(1)
                }
                (Some(Act::Move), _) => self.scroll += 1,
                (Some(Act::Next), KeyCode::Tab) if n > 0 => {
                    self.selected = (self.selected + 1) % n;
                    self.reveal = true;
                }
                (Some(Act::Next), KeyCode::BackTab) if n > 0 => {
                    self.selected = (self.selected + n - 1) % n;
                    self.reveal = true;
                }
                (Some(Act::Open), _) if n > 0 => {
                    return Outcome::Push(Box::new(Reader::new(
                        cx,
                        &floor.lessons[self.selected.min(n - 1)],
                    )));
                }
                _ => return Outcome::Ignored,
            },
            Ev::Click { x, y } => {
                let a = self.area;
                if *x >= a.x && *x < a.x + a.width && *y >= a.y && *y < a.y + a.height {
                    let line = self.scroll + (*y - a.y) as usize;
                    if let Some(i) = self.lesson_lines.iter().position(|l| *l == line) {
                        self.selected = i;
                        return Outcome::Push(Box::new(Reader::new(cx, &floor.lessons[i])));
                    }
                }
            }
            Ev::Scroll(d) => self.scroll = self.scroll.saturating_add_signed(*d as isize),
            _ => return Outcome::Ignored,
        }
        Outcome::Stay
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let Some(floor) = cx.course.floor(self.level) else {
            return;
        };
        let theme = cx.theme;
        let g = theme.glyphs();
        let inner = Rect {
            x: area.x + 1,
            width: area.width.saturating_sub(2),
            ..area
        };
        self.area = inner;
        let w = inner.width as usize;
        let mut text = vec![
            Line::from(vec![
                Span::styled(format!("{}F  ", floor.level), theme.floor(floor.level)),
                Span::styled(cx.loc(&floor.name), theme.heading(1)),
            ]),
            Line::styled(cx.loc(&floor.role), theme.dim()),
            Line::raw(""),
        ];
        text.extend(doc::text_lines(
            &cx.loc(&floor.description),
            w,
            cx.course,
            theme,
            theme.text(),
        ));
        text.push(Line::raw(""));
        let mut lines = widgets::wrap_lines(&text, w);
        for c in &floor.components {
            let name = Line::from(vec![
                Span::raw(format!("{} ", g.bullet)),
                Span::styled(cx.loc(&c.name), theme.key()),
            ]);
            lines.extend(widgets::wrap_lines(&[name], w));
            // The description hangs under the name, indented on every line.
            let indent = [super::super::wrap::Seg::new("  ", Style::new())];
            lines.extend(
                doc::text(
                    &cx.loc(&c.description),
                    w,
                    cx.course,
                    theme,
                    theme.text(),
                    &indent,
                    &indent,
                )
                .iter()
                .map(|l| widgets::to_line(l, None)),
            );
        }
        self.lesson_lines.clear();
        let lessons: Vec<_> = floor
            .lessons
            .iter()
            .filter_map(|id| cx.course.lesson(id))
            .collect();
        if !lessons.is_empty() {
            lines.push(Line::raw(""));
            lines.push(Line::styled(cx.t("floor-lessons"), theme.heading(2)));
        }
        for (i, l) in lessons.iter().enumerate() {
            self.lesson_lines.push(lines.len());
            let style = if i == self.selected {
                theme.selected()
            } else {
                theme.link()
            };
            lines.push(Line::styled(
                format!("{} {}", g.pointer, cx.loc(&l.title)),
                style,
            ));
        }
        let h = inner.height as usize;
        if self.reveal
            && let Some(&l) = self.lesson_lines.get(self.selected)
        {
            if l >= self.scroll + h {
                self.scroll = l + 1 - h;
            } else if l < self.scroll {
                self.scroll = l;
            }
            self.reveal = false;
        }
        self.scroll = self.scroll.min(lines.len().saturating_sub(h));
        let visible: Vec<Line> = lines.into_iter().skip(self.scroll).take(h).collect();
        f.render_widget(Paragraph::new(visible), inner);
    }
}
