//! One file per screen.

pub mod building;
pub mod glossary;
pub mod home;
pub mod lab;
pub mod labs;
pub mod lessons;
pub mod list;
pub mod matrix;
pub mod progress;
pub mod quiz;
pub mod quizzes;
pub mod reader;

use super::view::{Cx, View};
use crate::markdown::Target;

/// The screen a course link opens (terms open as an overlay instead, web links nowhere).
pub fn for_target(cx: &Cx, target: &Target) -> Option<Box<dyn View>> {
    match target {
        Target::Lesson(id) => cx
            .course
            .lesson(id)
            .map(|l| Box::new(reader::Reader::new(cx, &l.id)) as Box<dyn View>),
        Target::Quiz(id) => cx
            .course
            .quiz(id)
            .map(|q| Box::new(quiz::QuizScreen::new(&q.id, None)) as Box<dyn View>),
        Target::Lab(id) => cx
            .course
            .lab(id)
            .map(|l| Box::new(lab::LabScreen::new(&l.id)) as Box<dyn View>),
        Target::Term(_) | Target::Web(_) => None,
    }
}
