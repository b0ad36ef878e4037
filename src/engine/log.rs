//! A line of the readable log: the rules' events and the rolls, as the table keeps them and every
//! game words them (`Game::entry_text`).

use crate::engine::roll::Roll;
use crate::engine::seats::SeatId;
use serde::{Deserialize, Serialize};

/// A piece of a log line: words, or a name the reader can click to find it on the table.
#[derive(Clone, Debug, PartialEq)]
pub enum Span {
    Text(String),
    /// A name, and the space to light when it is clicked (if it is on the table).
    Link(String, Option<crate::engine::geometry::SpaceId>),
}

/// A line of the readable log: what happened, with the pieces it involves, or a roll of the
/// dice (every roll the rules make, and a free roll of the tray).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Entry<E> {
    Game {
        seat: SeatId,
        event: E,
    },
    Roll(Roll),
    /// A move by hand in a sandbox (worded by `Game::hand_text`).
    Hand {
        seat: SeatId,
        mv: crate::engine::sandbox::HandMove,
    },
}

impl<E> Entry<E> {
    /// The roll this entry is, if it is one.
    pub fn roll(&self) -> Option<&Roll> {
        match self {
            Entry::Roll(r) => Some(r),
            Entry::Game { .. } | Entry::Hand { .. } => None,
        }
    }
}
