//! What the coach of a lesson says at a moment of it: a step (what to do, why, under which rule,
//! where) or a wait. Each game's `TableGame::lesson` gives it; `lesson` shows it.

use crate::engine::geometry::SpaceId;

/// One step of the lesson: what to do now, why, under which rule, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson<A> {
    pub now: String,
    pub why: String,
    /// The rule's section, as the rulebook names or numbers it.
    pub section: String,
    /// The places the step speaks of, ringed on the table.
    pub at: Vec<SpaceId>,
    /// The order the step suggests, marked in the Orders list (None: done on the table).
    pub pick: Option<A>,
}

/// What the coach says at a moment of the lesson.
#[derive(Clone, Debug, PartialEq)]
pub enum Coach<A> {
    Step(Lesson<A>),
    /// The decision is another seat's (the computer's): the lesson waits.
    Waiting(String),
    /// The learner's first turn is over.
    Done,
}

impl<A: Clone> Coach<A> {
    /// A step of the lesson (the order it suggests, if any, copied from the legal list).
    pub fn step(now: impl Into<String>, why: &str, section: &str, at: Vec<SpaceId>, pick: Option<&A>) -> Self {
        Coach::Step(Lesson {
            now: now.into(),
            why: why.to_string(),
            section: section.to_string(),
            at,
            pick: pick.cloned(),
        })
    }
}
