//! Reconnaissance: what the Allies see of the French, and when a French stack is revealed.

use crate::engine::seats::Viewer;
use crate::games::leipzig::actions::Event;
use crate::games::leipzig::data::{Hex, Side};
use crate::games::leipzig::state::Leipzig;

impl Leipzig {
    /// The French examine every Allied counter next to a French unit at the start of their
    /// Movement Phase (Reconnaissance).
    pub(super) fn reveal_adjacent(&mut self, ev: &mut Vec<Event>) {
        let b = &self.sc.board;
        let french: Vec<Hex> = self.on_map(Side::French).filter_map(|u| self.hex_of(u)).collect();
        let mut seen = Vec::new();
        for u in self.on_map(Side::Allied).collect::<Vec<_>>() {
            let h = self.hex_of(u).expect("on the map");
            if !self.units[u as usize].revealed && french.iter().any(|&f| b.adjacent(f, h)) {
                seen.push(u);
            }
        }
        for &u in &seen {
            self.units[u as usize].revealed = true;
        }
        if !seen.is_empty() {
            ev.push(Event::Revealed { units: seen });
        }
    }

    /// Whether the phasing side may examine every counter on `h` (Reconnaissance).
    pub(super) fn target_known(&self, h: Hex) -> bool {
        let me = Viewer::Seat(super::seat_of(self.side));
        self.at(h).all(|u| self.seen_by(u as usize, me))
    }

    /// Reconnaissance is in force this turn.
    pub fn reconnaissance(&self) -> bool {
        self.sc.reconnaissance_until.is_some_and(|t| self.turn <= t)
    }
}
