//! Cavalry Charges and Disorganization: who may charge and with what bonus, and the DIS marker a
//! charge or a unit crossed leaves.

use crate::games::austerlitz::actions::Event;
use crate::games::austerlitz::data::{Cell, Crossing, Terrain};
use crate::games::austerlitz::state::Austerlitz;

impl Austerlitz {
    /// Whether a cavalry unit may charge `target` (Cavalry charge): it crossed a plain space in
    /// front of the enemy straight on, and the enemy is not in a square, town, woods, castle,
    /// behind an uphill contour or a river.
    pub fn may_charge(&self, u: usize, target: Cell) -> bool {
        let Some(at) = self.units[u].at else { return false };
        let b = &self.sc.board;
        let Some(d) = self.defender_of(target) else { return false };
        self.kind(u).is_cavalry()
            && self.units[u].moved
            && self.units[u].straight
            && b.space(at).terrain == Terrain::Clear
            && !self.units[d].square
            && b.space(target).terrain == Terrain::Clear
            && !b.uphill(at, target)
            && b.crossing(at, target) == Crossing::Open
    }

    /// A charging unit (it met the charge's conditions when it attacked).
    pub(super) fn may_charge_done(&self, u: usize) -> bool {
        self.kind(u).is_cavalry() && self.units[u].straight && self.units[u].moved
    }

    pub fn disorder(&mut self, u: usize, why: String, ev: &mut Vec<Event>) {
        if !self.on_board(u) {
            return;
        }
        if self.units[u].dis {
            self.eliminate(u, format!("double DIS ({why})"), ev);
            return;
        }
        self.units[u].dis = true;
        self.units[u].dis_this_turn += 1;
        ev.push(Event::Disordered { unit: u as u8, why });
        if self.units[u].dis_this_turn >= 2 {
            self.eliminate(u, "disorganized twice in a turn".into(), ev);
        }
    }
}
