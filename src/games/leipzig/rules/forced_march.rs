//! Forced March: double and triple the Movement Allowance, the die roll at the end, and the supply
//! unit a march may spend.

use super::movement::march_words;
use super::supply::supply_near;
use crate::games::leipzig::actions::{Event, Loss};
use crate::games::leipzig::data::{Hex, MarchResult, MarchRow, Side};
use crate::games::leipzig::state::{Leipzig, March, UnitId};

impl Leipzig {
    /// The smallest march whose allowance covers a move of `cost` by counter `u` (Forced March).
    pub(super) fn march_for(&self, u: UnitId, cost: u8) -> March {
        let ma = self.movement(u) as u16;
        let spent = self.units[u as usize].spent as u16;
        if cost as u16 + spent <= ma {
            March::Normal
        } else if cost as u16 + spent <= 2 * ma {
            March::Double
        } else {
            March::Triple
        }
    }

    /// The supply units a forced march may use instead of the table (stacked or adjacent).
    pub fn march_supplies(&self, u: UnitId) -> Vec<UnitId> {
        let Some(h) = self.hex_of(u) else { return Vec::new() };
        supply_near(self, self.units[u as usize].side, h).into_iter().filter(|&s| s != u).collect()
    }

    /// Whether this forced march needs no table: Gotha's first French player-turn.
    pub fn free_march(&self, u: UnitId) -> bool {
        self.sc.gotha_march
            && self.units[u as usize].gotha
            && self.turn == self.sc.first_turn
            && self.side == Side::French
    }

    /// The subsidiary table (J to N) rolled, or the march halted where it stands.
    pub fn apply_march_choice(&mut self, roll: bool, ev: &mut Vec<Event>) {
        let m = self.march.take().expect("a march waits");
        self.step = crate::games::leipzig::state::Step::Move;
        if !roll {
            ev.push(Event::MarchHalted { unit: m.unit, at: m.path[m.at].0 });
            self.after_move(m.unit, &m.path[..=m.at], ev);
            return;
        }
        let table = if m.table == March::Double {
            &self.sc.charts.forced_march.double
        } else {
            &self.sc.charts.forced_march.triple
        };
        let results = table
            .iter()
            .find_map(|r| match r {
                MarchRow::Then(l, rs) if *l == m.letter => Some(rs.clone()),
                _ => None,
            })
            .expect("the letter's table");
        let second = self.rng.d6();
        let result = results[second as usize - 1];
        let from = m.path[0].0;
        ev.push(self.march_roll(m.table, from, second, Some(&m.letter), &march_words(result)));
        self.march_result(m.unit, &m.path, m.at, m.table, result, ev);
    }

    /// A forced march's roll as the engine's roll entry: on the Double or Triple Allowance
    /// table, or (`letter`) on its subsidiary table. Named by the hex it set out from, which
    /// every viewer sees (a counter's identity may be hidden: Reconnaissance).
    pub(super) fn march_roll(&self, march: March, from: Hex, die: u8, letter: Option<&str>, result: &str) -> Event {
        let t = if march == March::Double { "Double" } else { "Triple" };
        Event::Rolled(crate::engine::roll::Roll {
            seat: super::seat_of(self.side),
            rule: crate::engine::rules::Section::heading(crate::games::leipzig::actions::rule::FORCED_MARCH).into(),
            what: format!("a forced march ({} allowance) from {}", t.to_lowercase(), self.sc.board.label(from)),
            dice: vec![die],
            modifiers: Vec::new(),
            table: Some(crate::engine::roll::Consulted {
                name: match letter {
                    Some(l) => format!("Forced March Table {l}"),
                    None => format!("{t} Allowance Forced March Table"),
                },
                column: None,
                row: Some(format!("die {die}")),
            }),
            result: result.to_string(),
        })
    }

    pub(super) fn march_result(
        &mut self,
        u: UnitId,
        path: &[(Hex, u8)],
        at: usize,
        march: March,
        result: MarchResult,
        ev: &mut Vec<Event>,
    ) {
        match result {
            MarchResult::Ok => self.finish_move(u, path, path.len() - 1, march, ev),
            MarchResult::D => {
                self.finish_move(u, path, path.len() - 1, march, ev);
                self.disperse(u, ev);
            }
            MarchResult::Halt => {
                self.move_along(u, path, at);
                ev.push(Event::MarchHalted { unit: u, at: path[at].0 });
                self.after_move(u, &path[..=at], ev);
            }
            MarchResult::X => {
                self.move_along(u, path, at);
                self.lose(u, Loss::Marched, ev);
            }
        }
    }
}
