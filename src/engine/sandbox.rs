//! The sandbox of every game, from the kit: with the rules silent, any piece put anywhere it can
//! lie, flipped, taken off and put back by hand; each such move logged, saved and undone like an
//! action, and the table back under the rules from a position they accept.
//!
//! A game says what its pieces are (`Game::hand_pieces`, read through the view so that a blank
//! stays a blank), where they can lie (`Game::hand_places`), how a hand moves one
//! (`Game::move_by_hand`) and which positions its rules accept (`Game::position_accepted`); the
//! table checks a hand move against those lists, so no game writes that check.

use crate::engine::seats::SeatId;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The heading a sandbox refusal names: the table's own rule, no rulebook's.
pub const SANDBOX_RULE: &str = "Grognard: the sandbox";

/// A move by hand (`Act::Hand`). Pieces and places are indices into the game's lists.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HandMove {
    /// Put the piece on a place (a piece off the table goes back on it).
    Put { piece: u32, on: u32 },
    /// Turn the piece over.
    Flip { piece: u32 },
    /// Turn the piece where it lies by the smallest step its place allows (an Austerlitz unit's
    /// front: an eighth on an octagon, a quarter on a square), clockwise or not.
    Turn { piece: u32, clockwise: bool },
    /// Take the piece off the table.
    Remove { piece: u32 },
    /// Back to the rules: the table is enforced from here on (refused unless the rules accept
    /// the position). Never undone.
    Enforce,
}

/// A piece as a hand finds it on the table.
#[derive(Clone, Debug, PartialEq)]
pub struct HandPiece {
    /// Its name as the viewer may read it.
    pub name: String,
    /// Whose piece it is (None: nobody's, a marker of the table).
    pub seat: Option<SeatId>,
    /// The place it lies on; None: off the table.
    pub at: Option<u32>,
    /// The places it can lie on (a counter on the map's hexes, a marker on its track).
    pub goes: Range<u32>,
    /// Its face: None where it has one face, Some(true) turned over.
    pub flipped: Option<bool>,
    /// Whether it may be taken off the table (a track's marker may not).
    pub removable: bool,
    /// Whether it has a front to turn where it lies.
    pub turns: bool,
}

/// Whether `mv` fits the pieces and places: the table's check of a hand move, the same for every
/// game. The words say why not.
pub fn fits(mv: &HandMove, pieces: &[HandPiece], places: usize) -> Result<(), String> {
    let piece = |p: u32| pieces.get(p as usize).ok_or_else(|| format!("there is no piece {p} on this table"));
    match *mv {
        HandMove::Put { piece: p, on } => {
            let piece = piece(p)?;
            if on as usize >= places || !piece.goes.contains(&on) {
                return Err(format!("{} cannot lie there", piece.name));
            }
            if piece.at == Some(on) {
                return Err(format!("{} lies there already", piece.name));
            }
            Ok(())
        }
        HandMove::Flip { piece: p } => match piece(p)? {
            HandPiece { flipped: None, name, .. } => Err(format!("{name} has only one face")),
            _ => Ok(()),
        },
        HandMove::Remove { piece: p } => match piece(p)? {
            HandPiece { removable: false, name, .. } => Err(format!("{name} stays on its track")),
            HandPiece { at: None, name, .. } => Err(format!("{name} is off the table already")),
            _ => Ok(()),
        },
        HandMove::Turn { piece: p, .. } => match piece(p)? {
            HandPiece { turns: false, name, .. } => Err(format!("{name} has no front to turn")),
            HandPiece { at: None, name, .. } => Err(format!("{name} is off the table")),
            _ => Ok(()),
        },
        HandMove::Enforce => Ok(()),
    }
}

/// A hand move by `who` in words, the pieces named as the reader's view names them (a hidden
/// counter stays a blank; `Game::hand_text` gives them).
pub fn words(who: &str, mv: &HandMove, pieces: &[HandPiece], places: &[String]) -> String {
    let name = |p: u32| pieces.get(p as usize).map(|x| x.name.clone()).unwrap_or_default();
    match *mv {
        HandMove::Put { piece, on } => {
            let place = places.get(on as usize).cloned().unwrap_or_default();
            format!("{who} puts {} on {place} by hand", name(piece))
        }
        HandMove::Flip { piece } => format!("{who} turns {} over by hand", name(piece)),
        HandMove::Turn { piece, clockwise } => {
            format!("{who} turns {} {} by hand", name(piece), if clockwise { "clockwise" } else { "anticlockwise" })
        }
        HandMove::Remove { piece } => format!("{who} takes {} off the table by hand", name(piece)),
        HandMove::Enforce => format!("{who} puts the table back under the rules"),
    }
}

/// A place list of numbered track spaces: "NAME 0" … "NAME max", appended to `places`; the range
/// they take (for a track marker's `goes`).
pub fn track(places: &mut Vec<String>, name: &str, max: u32) -> Range<u32> {
    let start = places.len() as u32;
    places.extend((0..=max).map(|v| format!("{name} {v}")));
    start..places.len() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counter(at: Option<u32>) -> HandPiece {
        HandPiece {
            name: "III Corps".into(),
            seat: None,
            at,
            goes: 0..10,
            flipped: Some(false),
            removable: true,
            turns: false,
        }
    }

    #[test]
    fn a_hand_move_fits_only_the_pieces_and_places_of_the_table() {
        let pieces =
            [counter(Some(1)), HandPiece { flipped: None, removable: false, goes: 10..12, ..counter(Some(10)) }];
        assert!(fits(&HandMove::Put { piece: 0, on: 5 }, &pieces, 12).is_ok());
        assert!(fits(&HandMove::Put { piece: 0, on: 1 }, &pieces, 12).unwrap_err().contains("already"));
        assert!(fits(&HandMove::Put { piece: 0, on: 11 }, &pieces, 12).unwrap_err().contains("cannot lie"));
        assert!(fits(&HandMove::Put { piece: 2, on: 1 }, &pieces, 12).unwrap_err().contains("no piece 2"));
        assert!(fits(&HandMove::Flip { piece: 1 }, &pieces, 12).unwrap_err().contains("one face"));
        assert!(fits(&HandMove::Remove { piece: 1 }, &pieces, 12).unwrap_err().contains("track"));
        assert!(fits(&HandMove::Remove { piece: 0 }, &[counter(None)], 12).unwrap_err().contains("off the table"));
        assert!(fits(&HandMove::Flip { piece: 0 }, &pieces, 12).is_ok());
    }

    #[test]
    fn a_track_is_its_numbered_spaces() {
        let mut places = vec!["Pool".to_string()];
        assert_eq!(track(&mut places, "VP", 3), 1..5);
        assert_eq!(places[4], "VP 3");
    }
}
