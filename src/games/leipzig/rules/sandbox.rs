//! The sandbox (no rulebook chapter; `engine::sandbox`): every counter put on any hex, inverted
//! (dispersed) or taken off by hand, and the positions the rules accept to go back to them.

use crate::engine::sandbox::{HandMove, HandPiece};
use crate::games::leipzig::actions::LzError;
use crate::games::leipzig::data::{Hex, seat_of};
use crate::games::leipzig::observe::LzView;
use crate::games::leipzig::state::{Dispersal, Gone, Leipzig, Status, UnitId};

impl Leipzig {
    /// Every counter, in id order, as the view names it (a blank stays a blank); a counter goes
    /// on any hex of the map.
    pub(super) fn hand_pieces_of(view: &LzView) -> Vec<HandPiece> {
        let g = &view.game;
        (0..g.units.len())
            .map(|u| {
                let unit = &g.units[u];
                HandPiece {
                    name: g.name(u as u16),
                    seat: Some(seat_of(unit.side)),
                    at: g.hex_of(u as u16).map(|h| h.0 as u32),
                    goes: 0..g.sc.board.len() as u32,
                    flipped: Some(unit.dispersed.is_some()),
                    removable: true,
                    turns: false,
                }
            })
            .collect()
    }

    /// Counter `u` put on `hex` by hand (a counter is the piece of its id, a hex the place of its
    /// number): what a drop on the map sends in a sandbox.
    pub fn hand_put(u: UnitId, hex: Hex) -> HandMove {
        HandMove::Put { piece: u as u32, on: hex.0 as u32 }
    }

    /// The hexes by their names, in the map's order.
    pub(super) fn hand_places_of(&self) -> Vec<String> {
        (0..self.sc.board.len() as u16).map(|h| self.hex_name(Hex(h))).collect()
    }

    pub(super) fn move_by_hand_now(&mut self, mv: &HandMove) {
        match *mv {
            HandMove::Put { piece, on } => {
                let unit = &mut self.units[piece as usize];
                unit.hex = Some(Hex(on as u16));
                unit.status = Status::OnMap;
            }
            HandMove::Flip { piece } => {
                let unit = &mut self.units[piece as usize];
                unit.dispersed = match unit.dispersed {
                    Some(_) => None,
                    None => Some(Dispersal { fresh: true, ..Dispersal::default() }),
                };
            }
            HandMove::Remove { piece } => {
                let unit = &mut self.units[piece as usize];
                unit.hex = None;
                unit.status = Status::Gone(Gone::Destroyed);
            }
            HandMove::Turn { .. } | HandMove::Enforce => {}
        }
    }

    /// A position the rules can go on from (for a sandbox going back to them): nothing half made
    /// (Game Turn Sequence) and every stack as stacking allows (`sequence.rs`, `stacking.rs`).
    pub(super) fn position_accepted_now(&self) -> Result<(), LzError> {
        self.refuse_half_made()?;
        self.refuse_stacks()
    }
}
