//! The sandbox (no rulebook chapter; `engine::sandbox`): every unit and commander put on any
//! space, a unit turned to face another way or its DIS marker turned over, a piece taken off by
//! hand, and the positions the rules accept to go back to them.

use super::seat_of;
use crate::engine::geometry::CellShape;
use crate::engine::sandbox::{HandMove, HandPiece};
use crate::games::austerlitz::actions::AzError;
use crate::games::austerlitz::observe::AzView;
use crate::games::austerlitz::state::{Austerlitz, rotate};

impl Austerlitz {
    /// The combat units in id order, then the commanders; each goes on any space.
    pub(super) fn hand_pieces_of(view: &AzView) -> Vec<HandPiece> {
        let g = &view.game;
        let board = &g.sc.board;
        let spaces = 0..board.spaces.len() as u32;
        let place = |c| board.index(c) as u32;
        let units = (0..g.units.len()).map(|u| HandPiece {
            name: g.name(u),
            seat: Some(seat_of(g.side_of(u))),
            at: g.units[u].at.filter(|_| !g.units[u].eliminated).map(place),
            goes: spaces.clone(),
            flipped: Some(g.units[u].dis),
            removable: true,
            turns: true,
        });
        let commands = g.commands.iter().zip(&g.sc.commands).map(|(k, def)| HandPiece {
            name: format!("{} {}", def.side.name(), def.name),
            seat: Some(seat_of(def.side)),
            at: k.at.filter(|_| !k.captured).map(place),
            goes: spaces.clone(),
            flipped: None,
            removable: true,
            turns: false,
        });
        units.chain(commands).collect()
    }

    /// A unit (or with `command`, a commander) put on `cell` by hand (the units are the first
    /// pieces, the commanders after them; a space is the place of its index): what a drop on the
    /// board sends in a sandbox.
    pub fn hand_put(&self, command: bool, id: u8, cell: crate::games::austerlitz::data::Cell) -> HandMove {
        let piece = if command { self.units.len() as u32 + id as u32 } else { id as u32 };
        HandMove::Put { piece, on: self.sc.board.index(cell) as u32 }
    }

    /// The spaces by their names, in the board's order.
    pub(super) fn hand_places_of(&self) -> Vec<String> {
        self.sc.board.cells().map(|c| self.cell_name(c)).collect()
    }

    pub(super) fn move_by_hand_now(&mut self, mv: &HandMove) {
        let units = self.units.len();
        match *mv {
            HandMove::Put { piece, on } => {
                let c = self.sc.board.cell_of(on as usize);
                if (piece as usize) < units {
                    let unit = &mut self.units[piece as usize];
                    unit.at = Some(c);
                    unit.eliminated = false;
                    // A unit on a square faces one of its four sides: a diagonal front turns left.
                    if self.sc.board.shape(c) == CellShape::Square && unit.facing.is_diagonal() {
                        unit.facing = rotate(unit.facing, -1);
                    }
                } else {
                    let k = &mut self.commands[piece as usize - units];
                    k.at = Some(c);
                    k.captured = false;
                }
            }
            HandMove::Flip { piece } => self.units[piece as usize].dis ^= true,
            HandMove::Turn { piece, clockwise } => {
                // An eighth on an octagon; a square's unit faces one of its four sides.
                let unit = &mut self.units[piece as usize];
                let square = unit.at.is_some_and(|c| self.sc.board.shape(c) == CellShape::Square);
                let step = if square { 2 } else { 1 };
                unit.facing = rotate(unit.facing, if clockwise { step } else { -step });
            }
            HandMove::Remove { piece } => {
                if (piece as usize) < units {
                    self.units[piece as usize].eliminated = true;
                } else {
                    self.commands[piece as usize - units].at = None;
                }
            }
            HandMove::Enforce => {}
        }
    }

    /// A position the rules can go on from (for a sandbox going back to them): nothing waiting
    /// in the middle of a step (`turn.rs`) and every space as stacking allows (`setup.rs`).
    pub(super) fn position_accepted_now(&self) -> Result<(), AzError> {
        self.refuse_half_made()?;
        self.refuse_stacks()
    }
}
