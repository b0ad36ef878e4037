//! Set-up, the Phases of a game turn and the Check for victory: setting up within the sectors on
//! one's side of the red border (Soult's two units a sector), the five steps of each player's
//! turn (the Allies first), Davout's arrival roll, smoke and DIS removal, and the end of the game
//! at turn 9, after turn 18 or on the capture of Napoléon or Kutuzov.

use crate::games::austerlitz::actions::{AzError, Event, rule};
use crate::games::austerlitz::data::{Kind, Side};
use crate::games::austerlitz::state::{Austerlitz, Step};

impl Austerlitz {
    /// A player's turn begins with step 1; every unit's formation is noted.
    pub(crate) fn begin_turn(&mut self, side: Side) {
        self.side = side;
        self.step = Step::Fire;
        for u in 0..self.units.len() {
            if self.side_of(u) == side {
                self.units[u].formation_at_start = self.formation_kind(u);
            }
        }
    }

    /// Step 2 begins; in the first turns the French roll for Davout.
    pub(super) fn begin_movement(&mut self, ev: &mut Vec<Event>) {
        self.step = Step::Move;
        let d = &self.sc.tables.davout;
        if self.side == Side::French && !self.davout_arrived && self.turn <= d.last_turn {
            let needed = (d.first + self.turn - 1).min(6);
            let roll = self.rng.d6();
            let arrives = roll <= needed;
            ev.push(self.roll(
                Side::French,
                rule::PHASES,
                format!("Davout's arrival (turn {}: {needed} or less)", self.turn),
                vec![roll],
                Vec::new(),
                None,
                if arrives { "Davout's corps arrives by the arrow".into() } else { "not yet".into() },
            ));
            if arrives {
                self.davout_arrived = true;
                let entry = self.sc.board.davout_entry.at;
                for k in 0..self.commands.len() {
                    if self.sc.commands[k].at.is_none()
                        && self.sc.commands[k].side == Side::French
                        && self.command_at(entry).is_none()
                    {
                        self.commands[k].at = Some(entry);
                    }
                }
            }
        }
    }

    /// Step 5: smoke comes off (own and enemy) and the phasing player's DIS markers, except on
    /// cavalry that charged this round; then the other player, or the next game turn.
    pub(super) fn end_turn(&mut self, ev: &mut Vec<Event>) {
        let side = self.side;
        for u in 0..self.units.len() {
            let unit = &mut self.units[u];
            unit.smoke = false;
            unit.dis_this_turn = 0;
            unit.demoralised_this_turn = 0;
            if self.sc.commands[self.sc.unit_command[u] as usize].side == side {
                if unit.charged {
                    unit.charged = false;
                } else {
                    unit.dis = false;
                }
                unit.spent = 0;
                unit.moved = false;
                unit.attacked = false;
                unit.fired = false;
                unit.straight = false;
                unit.extra = false;
                unit.bonus = 0;
            } else {
                unit.reacted = false;
                unit.counter_charged = false;
            }
        }
        for c in &mut self.commands {
            c.moved = false;
        }
        ev.push(Event::TurnEnded { side, turn: self.turn });
        match side {
            Side::Allied => self.begin_turn(Side::French),
            Side::French => {
                let v = &self.sc.tables.victory;
                let (sudden, margin, last) = (v.sudden_death_turn, v.margin as u16, v.last_turn);
                let [f, a] = self.eliminated;
                if self.turn == sudden && f.abs_diff(a) >= margin {
                    let winner = if f > a { Side::French } else { Side::Allied };
                    self.finish(
                        Some(winner),
                        format!("at the end of turn {sudden}: {f} against {a} combat units eliminated"),
                        ev,
                    );
                    return;
                }
                if self.turn >= last {
                    let points = self.points();
                    let winner = match points[0].cmp(&points[1]) {
                        std::cmp::Ordering::Greater => Some(Side::French),
                        std::cmp::Ordering::Less => Some(Side::Allied),
                        std::cmp::Ordering::Equal => None,
                    };
                    self.finish(winner, format!("after turn {last}"), ev);
                    return;
                }
                self.turn += 1;
                self.begin_turn(Side::Allied);
            }
        }
    }

    /// Victory points of each side, in halves: 1 for each enemy infantry or cavalry unit
    /// eliminated, 3 for artillery, 5 for a Guard unit or a command; 1/2 for each enemy unit
    /// demoralised.
    pub fn points(&self) -> [u16; 2] {
        let v = &self.sc.tables.victory;
        let mut p = [0u16; 2];
        for u in 0..self.units.len() {
            let scorer = self.side_of(u).other().index();
            if self.units[u].eliminated {
                p[scorer] += if self.sc.units[u].guard {
                    v.guard_or_command
                } else if self.kind(u).is_artillery() {
                    v.artillery
                } else {
                    v.infantry_cavalry
                };
            } else if self.on_board(u) && self.is_demoralised(u) {
                p[scorer] += v.demoralised;
            }
        }
        for k in 0..self.commands.len() {
            if self.commands[k].captured {
                p[self.sc.commands[k].side.other().index()] += v.guard_or_command;
            }
        }
        p
    }

    pub(crate) fn finish(&mut self, winner: Option<Side>, why: String, ev: &mut Vec<Event>) {
        let points = self.points();
        self.winner = winner;
        self.final_points = Some(points);
        self.step = Step::Over;
        self.pending.clear();
        ev.push(Event::Victory { winner, points, why });
    }

    /// Field artillery that may move in step 3: without smoke or DIS, not fired this turn.
    pub fn may_move_artillery(&self, u: usize) -> bool {
        self.side_of(u) == self.side
            && self.sc.units[u].kind != Kind::Horse
            && self.kind(u).is_field_artillery()
            && !self.units[u].smoke
            && !self.units[u].fired
    }
}

impl Austerlitz {
    /// A sandbox going back to the rules: no retreat, reaction or fire waiting (the units it names
    /// may have been moved by hand since).
    pub(super) fn refuse_half_made(&self) -> Result<(), AzError> {
        if !self.pending.is_empty() {
            return Err(AzError::new(
                rule::PHASES,
                "a retreat, reaction or opportunity fire is waiting: answer it before the rules take over again",
            ));
        }
        Ok(())
    }
}
