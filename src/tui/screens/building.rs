//! The ROCm stack as a five-floor building: pick a floor to see who works there, open it for
//! its components and lessons, or ride the elevator with one request from 5F to 1F and back.
//!
//! Every row is padded by display width (not characters), so Japanese and Korean names keep the
//! walls aligned; with `A` the drawing switches to ASCII for terminals that draw box characters
//! two cells wide.

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::super::doc;
use super::super::keymap::{self, Binding};
use super::super::theme::Glyphs;
use super::super::view::{Cx, Ev, Face, Outcome, View};
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

impl Building {
    /// Riding the elevator: keys and the wheel move between its stops.
    fn handle_ride(&mut self, cx: &Cx, ev: &Ev, step: usize) -> Outcome {
        let floors = &cx.course.building.floors;
        let steps = &cx.course.building.elevator.steps;
        let follow = |s: usize, this: &mut Self| {
            this.ride = Some(s);
            if let Some(i) = floors.iter().position(|f| f.level == steps[s].floor) {
                this.selected = i;
            }
        };
        match ev {
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
        }
    }

    /// Choosing a floor: move, jump by number, open it, or start the ride.
    fn handle_floors(&mut self, cx: &Cx, ev: &Ev) -> Outcome {
        let floors = &cx.course.building.floors;
        let steps = &cx.course.building.elevator.steps;
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
}

impl View for Building {
    fn face(&self, cx: &Cx) -> Face {
        Face::new(
            "building",
            cx.t("home-stack"),
            if self.ride.is_some() { RIDE } else { FLOORS },
        )
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        if cx.course.building.floors.is_empty() {
            return Outcome::Ignored;
        }
        match self.ride {
            Some(step) => self.handle_ride(cx, ev, step),
            None => self.handle_floors(cx, ev),
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
        let (bld, text_area) = self.layout(area, wide);
        let car = self.ride.map(|s| (steps[s].floor, going_down(steps, s)));
        self.draw_building(cx, f, bld, car);

        // The text is laid out for the column it is drawn in: wrapped for the whole screen,
        // `text_box` would wrap its lines a second time.
        let width = usize::from(text_area.width);
        let mut text: Vec<Line> = match self.ride {
            Some(s) => ride_text(cx, s, width),
            None if wide => floor_text(cx, &floors[self.selected], width),
            None => Vec::new(),
        };
        if !wide {
            text.retain(|l| l.width() > 0);
        }
        if !text.is_empty() && text_area.height > 0 {
            widgets::text_box(cx, f, text_area, &text);
        }
    }
}

/// The elevator's stop `s`: where the car is, what happens on that floor, and the keys.
fn ride_text(cx: &Cx, s: usize, width: usize) -> Vec<Line<'static>> {
    let theme = cx.theme;
    let elevator = &cx.course.building.elevator;
    let steps = &elevator.steps;
    let step = &steps[s];
    let mut text = vec![
        Line::styled(cx.loc(&elevator.title), theme.heading(2)),
        Line::styled(
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
        ),
        Line::raw(""),
    ];
    text.extend(doc::course_text(cx, &step.text, width));
    text.push(Line::raw(""));
    let hint = if s + 1 == steps.len() {
        cx.t("elevator-done")
    } else {
        cx.t("elevator-keys")
    };
    text.push(Line::styled(theme.chrome(&hint).into_owned(), theme.key()));
    text
}

/// The selected floor beside the building: who works there, its components, and the keys.
fn floor_text(cx: &Cx, floor: &Floor, width: usize) -> Vec<Line<'static>> {
    let theme = cx.theme;
    let mut text = floor_head(cx, floor, 2, width);
    let g = theme.glyphs();
    for c in &floor.components {
        text.push(Line::from(vec![
            Span::raw(format!("{} ", g.bullet)),
            Span::styled(cx.loc(&c.name), theme.key()),
        ]));
    }
    text.push(Line::raw(""));
    text.push(Line::styled(cx.t("building-keys"), theme.dim()));
    text
}

/// A floor's name (a heading of `level`), who works there and what it is, then a blank line:
/// the top of the floor beside the building and of the floor's own screen.
fn floor_head(cx: &Cx, floor: &Floor, level: u8, width: usize) -> Vec<Line<'static>> {
    let theme = cx.theme;
    let mut text = vec![
        Line::from(vec![
            Span::styled(format!("{}F  ", floor.level), theme.floor(floor.level)),
            Span::styled(cx.loc(&floor.name), theme.heading(level)),
        ]),
        Line::styled(cx.loc(&floor.role), theme.dim()),
        Line::raw(""),
    ];
    text.extend(doc::course_text(cx, &floor.description, width));
    text.push(Line::raw(""));
    text
}

/// Writes strings into the frame's buffer, never below `bottom` (the footer is there).
struct Pen<'b> {
    buf: &'b mut Buffer,
    bottom: u16,
}

impl Pen<'_> {
    fn put(&mut self, x: u16, y: u16, s: &str, st: Style) {
        if y < self.bottom {
            self.buf.set_string(x, y, s, st);
        }
    }
}

/// Where the walled building's parts go.
#[derive(Debug, Clone, Copy)]
struct Shape {
    /// The "5F" labels' column; the shaft is 3 columns right of it.
    x: u16,
    /// The box's left wall, and the width between its walls.
    box_x: u16,
    inner_w: usize,
    /// Text lines per floor.
    per: u16,
}

/// Where a car going down (or up) points.
fn car_arrow(g: &Glyphs, down: bool) -> &'static str {
    if down { g.down } else { g.up }
}

impl Building {
    /// The building's area and the text's: side by side when wide; stacked (building over
    /// text) when narrow.
    fn layout(&self, area: Rect, wide: bool) -> (Rect, Rect) {
        if wide {
            let bw = (area.width / 2).clamp(34, 56);
            let (bld, rest) = widgets::cut_cols(area, bw);
            // One column between the building and the text.
            let text = Rect {
                x: rest.x + 1,
                width: rest.width.saturating_sub(1),
                ..rest
            };
            (bld, text)
        } else {
            // Riding on a narrow screen: a compact building (one row per floor) and the
            // step's text in every row left.
            let text_rows = if self.ride.is_some() {
                area.height.saturating_sub(6)
            } else {
                0
            };
            widgets::cut_rows(area, area.height - text_rows)
        }
    }

    fn draw_building(&mut self, cx: &Cx, f: &mut Frame, area: Rect, car: Option<(u8, bool)>) {
        self.building_area = area;
        self.floor_rows.clear();
        // Columns: "5F" label, a space, the shaft, a space, then the box.
        if area.width.saturating_sub(5) < 6 {
            return;
        }
        let mut pen = Pen {
            buf: f.buffer_mut(),
            bottom: area.y + area.height,
        };
        match lines_per_floor(area.height) {
            None => self.draw_compact(cx, &mut pen, area, car),
            Some(per) => self.draw_floors(cx, &mut pen, area, car, per),
        }
    }

    /// Compact: one row per floor, no walls, the selected one highlighted.
    fn draw_compact(&mut self, cx: &Cx, pen: &mut Pen, area: Rect, car: Option<(u8, bool)>) {
        let theme = cx.theme;
        let g = theme.glyphs();
        let box_w = area.width.saturating_sub(5) as usize;
        let floors = cx.course.building.floors.iter().enumerate();
        for (y, (i, floor)) in (area.y..pen.bottom).zip(floors) {
            let label = format!("{}F", floor.level);
            pen.put(area.x, y, &label, theme.floor(floor.level));
            if let Some((lv, down)) = car
                && lv == floor.level
            {
                pen.put(area.x + 3, y, g.car, theme.key());
                pen.put(area.x + 4, y, car_arrow(g, down), theme.key());
            }
            let text = pad(
                &format!(" {} {} {}", cx.loc(&floor.name), g.dot, cx.loc(&floor.role)),
                box_w,
            );
            let st = if i == self.selected {
                theme.selected()
            } else {
                theme.text()
            };
            pen.put(area.x + 5, y, &text, st);
            self.floor_rows.push((y, y + 1));
        }
    }

    /// Walls and floors, `per` text lines each, under a roof when there is a spare row.
    fn draw_floors(
        &mut self,
        cx: &Cx,
        pen: &mut Pen,
        area: Rect,
        car: Option<(u8, bool)>,
        per: u16,
    ) {
        let theme = cx.theme;
        let g = theme.glyphs();
        let shape = Shape {
            x: area.x,
            box_x: area.x + 5,
            inner_w: area.width.saturating_sub(5) as usize - 2,
            per,
        };
        let (box_x, inner_w) = (shape.box_x, shape.inner_w);
        let mut y = area.y;
        let needed = 5 * (per + 1) + 1;
        if area.height > needed {
            pen.put(box_x + 1, y, &g.roof.repeat(inner_w), theme.dim());
            y += 1;
        }
        for (i, floor) in cx.course.building.floors.iter().enumerate() {
            let (l, r) = if i == 0 {
                (g.tl, g.tr)
            } else {
                (g.tee_l, g.tee_r)
            };
            pen.put(
                box_x,
                y,
                &format!("{l}{}{r}", g.h.repeat(inner_w)),
                theme.border(),
            );
            y += 1;
            let start = y;
            y = self.draw_floor(cx, pen, shape, i, floor, start);
            draw_car(cx, pen, shape, floor.level, car, start, y);
            self.floor_rows.push((start.saturating_sub(1), y));
        }
        pen.put(
            box_x,
            y,
            &format!("{}{}{}", g.bl, g.h.repeat(inner_w), g.br),
            theme.border(),
        );
    }

    /// Floor `i`'s rows from `y` between the walls: its name and role, then (given a second
    /// row) its components. Returns the row after it.
    fn draw_floor(
        &self,
        cx: &Cx,
        pen: &mut Pen,
        shape: Shape,
        i: usize,
        floor: &Floor,
        mut y: u16,
    ) -> u16 {
        let theme = cx.theme;
        let g = theme.glyphs();
        let (box_x, inner_w) = (shape.box_x, shape.inner_w);
        let selected = i == self.selected;
        let body_style = if selected {
            theme.selected()
        } else {
            theme.text()
        };
        for line in 0..shape.per {
            let text = if line == 0 {
                floor_title(cx, floor, inner_w)
            } else {
                floor_components(cx, floor, inner_w)
            };
            pen.put(box_x, y, g.v, theme.border());
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
            pen.put(box_x + 1, y, &pad(&text, inner_w), st);
            pen.put(box_x + 1 + inner_w as u16, y, g.v, theme.border());
            if line == 0 {
                pen.put(
                    shape.x,
                    y,
                    &format!("{}F", floor.level),
                    theme.floor(floor.level),
                );
            }
            y += 1;
        }
        y
    }
}

/// The shaft beside a floor's rows `start..end`: the car and its arrow on the car's floor, an
/// empty shaft elsewhere, and nothing when nobody rides.
fn draw_car(
    cx: &Cx,
    pen: &mut Pen,
    shape: Shape,
    level: u8,
    car: Option<(u8, bool)>,
    start: u16,
    end: u16,
) {
    let theme = cx.theme;
    let g = theme.glyphs();
    let shaft = shape.x + 3;
    match car {
        Some((lv, down)) if lv == level => {
            pen.put(shaft, start, g.car, theme.key());
            if shape.per > 1 {
                pen.put(shaft, start + 1, car_arrow(g, down), theme.key());
            } else {
                pen.put(shaft - 1, start, car_arrow(g, down), theme.key());
            }
        }
        Some(_) => {
            for yy in start..end {
                pen.put(shaft, yy, g.v, theme.dim());
            }
        }
        None => {}
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
    fn face(&self, cx: &Cx) -> Face {
        let title = match cx.course.floor(self.level) {
            Some(f) => format!(
                "{} {} {}F {}",
                cx.t("home-stack"),
                if cx.theme.ascii { ">" } else { "›" },
                f.level,
                cx.loc(&f.name)
            ),
            None => cx.t("home-stack"),
        };
        Face::new("floor", title, FLOOR_VIEW)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let Some(floor) = cx.course.floor(self.level) else {
            return Outcome::Ignored;
        };
        let n = floor.lessons.len();
        match ev {
            Ev::Key(k) => match (Binding::find(FLOOR_VIEW, k), k.code) {
                (Some(Act::Move), KeyCode::Up | KeyCode::Char('k')) => {
                    self.scroll = self.scroll.saturating_sub(1);
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
        let inner = widgets::pad_x(area);
        self.area = inner;
        let w = inner.width as usize;
        let text = floor_head(cx, floor, 1, w);
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
