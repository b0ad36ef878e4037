//! The sandbox (no rulebook chapter; `engine::sandbox`): every counter put on any hex, inverted
//! (dispersed) or taken off by hand, and the positions the rules accept to go back to them.

use super::zoc::Situation;
use crate::engine::sandbox::{HandMove, HandPiece};
use crate::games::leipzig::actions::{LzError, rule};
use crate::games::leipzig::data::{Hex, seat_of};
use crate::games::leipzig::observe::LzView;
use crate::games::leipzig::state::{Dispersal, Gone, Leipzig, Status, Step, UnitId};

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

    /// A position the rules can go on from: no decision or forced march half made (the counters
    /// it names may have been moved), no hex shared by both sides, and every stack legal (Stacking,
    /// case B), but the phasing side's while its Movement Phase runs: it must set them right
    /// before the phase ends, as the rules already make it.
    pub(super) fn position_accepted_now(&self) -> Result<(), LzError> {
        if !self.pending.is_empty() || self.march.is_some() || self.attacks.iter().any(|a| !a.resolved) {
            return Err(LzError::new(
                rule::SEQUENCE,
                "a combat, retreat or forced march is under way: finish it before the rules take over again",
            ));
        }
        let s = Situation::of(self);
        for h in (0..self.sc.board.len() as u16).map(Hex) {
            let mut sides = self.at(h).map(|u| self.units[u as usize].side);
            if let Some(first) = sides.next()
                && sides.any(|x| x != first)
            {
                return Err(LzError::new(
                    rule::STACKING,
                    format!("French and Allied counters share {}", self.hex_name(h)),
                ));
            }
            let i = h.0 as usize;
            let Some(side) = s.side[i] else { continue };
            let moving = side == self.side && matches!(self.step, Step::Move | Step::March | Step::Build);
            if !moving && !s.stack_ok(self, side, h, s.combat[i], s.divisions[i]) {
                return Err(LzError::new(
                    rule::STACKING,
                    format!("the stack on {} is over the limit", self.hex_name(h)),
                ));
            }
        }
        Ok(())
    }
}
