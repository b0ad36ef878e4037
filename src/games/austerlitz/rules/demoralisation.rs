//! Demoralization: a unit that retreats more than 3 spaces in a turn is turned to its lighter side
//! (CF halved), twice is elimination; recovery and the Guard's collapse.

use crate::games::austerlitz::actions::Event;
use crate::games::austerlitz::state::Austerlitz;

impl Austerlitz {
    pub fn demoralise(&mut self, u: usize, why: String, ev: &mut Vec<Event>) {
        if !self.on_board(u) {
            return;
        }
        if self.units[u].demoralised {
            self.eliminate(u, format!("double demoralisation ({why})"), ev);
            return;
        }
        self.units[u].demoralised = true;
        self.units[u].demoralised_this_turn += 1;
        ev.push(Event::Demoralised { unit: u as u8, why });
        if self.units[u].demoralised_this_turn >= 2 {
            self.eliminate(u, "demoralised twice in a turn".into(), ev);
        }
    }

    /// A demoralised unit that retreats an enemy more than 3 spaces becomes normal again.
    pub fn recover(&mut self, u: usize, ev: &mut Vec<Event>) {
        if self.units[u].demoralised && !self.units[u].eliminated {
            self.units[u].demoralised = false;
            ev.push(Event::Recovered { unit: u as u8 });
        }
    }

    /// Whether the unit is demoralised now (by itself or by its Guard's collapse).
    pub fn is_demoralised(&self, u: usize) -> bool {
        self.units[u].demoralised || self.collapse_until[self.side_of(u).index()].is_some_and(|t| self.collapsed_in(t))
    }

    /// Whether this game-turn is one of the two that follow a Guard's collapse (`until` the last).
    pub fn collapsed_in(&self, until: u8) -> bool {
        self.turn + 1 >= until && self.turn <= until
    }
}
