//! Set-up, the Phases of a game turn and the Check for victory: setting up within the sectors on
//! one's side of the red border (Soult's two units a sector), the five steps of each player's
//! turn (the Allies first), Davout's arrival roll, smoke and DIS removal, and the end of the game
//! at turn 9, after turn 18 or on the capture of Napoléon or Kutuzov.

use super::super::actions::{AzError, Event, rule};
use super::super::data::{Cell, Kind, Sectors, Side, Terrain};
use super::super::state::{Austerlitz, Step};
use crate::engine::geometry::{CellShape, Facing};

impl Austerlitz {
    /// Whether a space is on a side's half of the red border (`AzScenario::own_half`).
    pub fn own_half(&self, side: Side, c: Cell) -> bool {
        self.sc.own_half(side, c)
    }

    /// The spaces a command's units set up on: its sectors, on its side of the red border
    /// (found at load, `AzScenario::setup_cells`).
    pub fn setup_cells(&self, command: usize) -> &[Cell] {
        &self.sc.setup_cells[command]
    }

    /// Units and commands of the side setting up that wait for a place (Davout's corps arrives
    /// later).
    pub fn to_set_up(&self) -> (Vec<usize>, Vec<usize>) {
        let side = self.side;
        let arriving = |k: usize| self.sc.commands[k].at.is_none();
        let units = (0..self.units.len())
            .filter(|&u| self.side_of(u) == side && self.units[u].at.is_none() && !self.units[u].eliminated)
            .filter(|&u| !arriving(self.sc.unit_command[u] as usize))
            .collect();
        let commands = (0..self.commands.len())
            .filter(|&k| self.sc.commands[k].side == side && self.commands[k].at.is_none() && !arriving(k))
            .collect();
        (units, commands)
    }

    /// Soult must place at least 2 combat units within each of his at-start sectors: a unit of his
    /// may go where the units still to place can fill every sector.
    fn soult_allows(&self, u: usize, c: Cell) -> bool {
        self.soult_allows_for(u)(c)
    }

    /// `soult_allows` for unit `u`, what does not depend on the cell (the units of its command
    /// in each sector, those still to place) counted once: the set-up list asks it of every cell.
    fn soult_allows_for(&self, u: usize) -> impl Fn(Cell) -> bool + '_ {
        let k = self.sc.unit_command[u] as usize;
        let sectors = self.sc.sectors_of(k);
        let sector_of = |x: Cell| self.sc.board.space(x).sector;
        let (have, left) = if sectors.len() < 2 {
            (Vec::new(), 0)
        } else {
            let mine: Vec<usize> = (0..self.units.len()).filter(|&v| self.sc.unit_command[v] as usize == k).collect();
            let left = mine.iter().filter(|&&v| self.units[v].at.is_none() && v != u).count() as i32;
            let have: Vec<i32> = sectors
                .iter()
                .map(|&s| mine.iter().filter(|&&v| self.units[v].at.and_then(sector_of) == Some(s)).count() as i32)
                .collect();
            (have, left)
        };
        move |c: Cell| {
            if sectors.len() < 2 {
                return true;
            }
            let here = sector_of(c);
            let deficit: i32 =
                sectors.iter().zip(&have).map(|(&s, &have)| (2 - (have + i32::from(here == Some(s)))).max(0)).sum();
            deficit <= left
        }
    }

    pub fn deploy_refusal(&self, u: usize, c: Cell, f: Facing) -> Option<AzError> {
        let e = |m: String| Some(AzError::new(rule::SETUP, m));
        if !self.to_set_up().0.contains(&u) {
            return e("that unit is not waiting to be set up by this side".into());
        }
        let k = self.sc.unit_command[u] as usize;
        if !self.sc.board.contains(c) || !self.setup_cells(k).contains(&c) {
            return e(format!(
                "{} sets up in sectors {:?}, on its side of the red border",
                self.sc.commands[k].name,
                self.sc.sectors_of(k)
            ));
        }
        if f.is_diagonal() && self.sc.board.shape(c) == CellShape::Square {
            return e("a unit on a square faces one of its four sides".into());
        }
        if !self.may_stand(u, c) {
            return Some(AzError::new(
                rule::STACKING,
                "only 1 combat unit a space (1 artillery unit may stack with 1 infantry unit), never on a frozen pond",
            ));
        }
        if !self.soult_allows(u, c) {
            return e("Soult must place at least 2 combat units within each of his 5 at-start sectors".into());
        }
        None
    }

    /// The set-up's actions (for one unit only, where `only` names it; no unit's at all without
    /// `units_too`, for the check of a command's place or of the rest).
    pub(super) fn deploy_options(&self, only: Option<usize>, units_too: bool, out: &mut Vec<super::super::Action>) {
        let (units, commands) = self.to_set_up();
        let mut occupied: Vec<Cell> = self.units.iter().filter_map(|x| x.at).collect();
        occupied.sort_unstable();
        for u in units.into_iter().filter(|_| units_too) {
            if only.is_some_and(|o| o != u) {
                continue;
            }
            let k = self.sc.unit_command[u] as usize;
            let soult_allows = self.soult_allows_for(u);
            for &c in self.setup_cells(k) {
                // An empty cell takes any unit but in a pond (`may_stand`, without its scans).
                let stands = if occupied.binary_search(&c).is_ok() {
                    self.may_stand(u, c)
                } else {
                    self.sc.board.space(c).terrain != Terrain::Pond
                };
                if !stands || !soult_allows(c) {
                    continue;
                }
                for f in Facing::ALL {
                    if !(f.is_diagonal() && self.sc.board.shape(c) == CellShape::Square) {
                        out.push(super::super::Action::Deploy { unit: u as u8, at: c, facing: f });
                    }
                }
            }
        }
        if only.is_some() {
            return;
        }
        // Who stands where, read once: a cell no unit is on has no holder (`holder`'s scan).
        let placed: Vec<Cell> = self.commands.iter().filter(|c| !c.captured).filter_map(|c| c.at).collect();
        for k in commands {
            for &c in self.setup_cells(k) {
                let held = occupied.binary_search(&c).is_ok() && self.holder(c).is_some_and(|s| s != self.side);
                if !placed.contains(&c) && !held {
                    out.push(super::super::Action::PlaceCommand { command: k as u8, at: c });
                }
            }
        }
        out.push(super::super::Action::DeployRest);
    }

    pub(super) fn apply_deploy(&mut self, u: usize, c: Cell, f: Facing, ev: &mut Vec<Event>) {
        self.units[u].at = Some(c);
        self.units[u].facing = f;
        ev.push(Event::Deployed { unit: u as u8, at: c });
        self.setup_done(ev);
    }

    pub(super) fn apply_place_command(&mut self, k: usize, c: Cell, ev: &mut Vec<Event>) {
        self.commands[k].at = Some(c);
        ev.push(Event::CommandPlaced { command: k as u8, at: c });
        self.setup_done(ev);
    }

    /// Everything still waiting goes to its historical place (with the game sectors, or where
    /// that place is taken: the first space of its sectors that takes it).
    pub(super) fn apply_deploy_rest(&mut self, ev: &mut Vec<Event>) {
        let (mut units, commands) = self.to_set_up();
        // Soult's sectors first, so that each gets its two.
        units.sort_by_key(|&u| std::cmp::Reverse(self.sc.sectors_of(self.sc.unit_command[u] as usize).len()));
        for u in units {
            let d = &self.sc.units[u];
            let k = self.sc.unit_command[u] as usize;
            let historical = self.sc.sectors == Sectors::Historical;
            let facing = if self.side == Side::French { Facing::E } else { Facing::W };
            let mut choice = None;
            if historical
                && let Some(at) = d.at
                && self.deploy_refusal(u, at, d.facing).is_none()
            {
                choice = Some((at, d.facing));
            }
            if choice.is_none() {
                // Fill Soult's emptiest sector first.
                let mut cells = self.setup_cells(k).to_vec();
                let sector_count = |s: Option<u8>| {
                    (0..self.units.len())
                        .filter(|&v| {
                            self.sc.unit_command[v] as usize == k
                                && self.units[v].at.and_then(|x| self.sc.board.space(x).sector) == s
                        })
                        .count()
                };
                cells.sort_by_key(|&c| sector_count(self.sc.board.space(c).sector));
                choice = cells.into_iter().find(|&c| self.deploy_refusal(u, c, facing).is_none()).map(|c| (c, facing));
            }
            if choice.is_none() {
                // A sector too full: anywhere on the side's half.
                choice = self
                    .sc
                    .board
                    .cells()
                    .find(|&c| self.own_half(self.side, c) && self.may_stand(u, c))
                    .map(|c| (c, facing));
            }
            if let Some((c, f)) = choice {
                self.units[u].at = Some(c);
                self.units[u].facing = f;
                ev.push(Event::Deployed { unit: u as u8, at: c });
            }
        }
        for k in commands {
            let want = if self.sc.sectors == Sectors::Historical { self.sc.commands[k].at } else { None };
            let free = |g: &Self, c: Cell| g.command_at(c).is_none() && g.holder(c).is_none_or(|s| s == g.side);
            let at = want.filter(|&c| free(self, c)).or_else(|| {
                let own: Vec<Cell> = (0..self.units.len())
                    .filter(|&u| self.sc.unit_command[u] as usize == k)
                    .filter_map(|u| self.units[u].at)
                    .collect();
                own.into_iter().chain(self.setup_cells(k).iter().copied()).find(|&c| free(self, c))
            });
            self.commands[k].at =
                at.or_else(|| self.sc.board.cells().find(|&c| self.own_half(self.side, c) && free(self, c)));
        }
        self.setup_done(ev);
    }

    fn setup_done(&mut self, ev: &mut Vec<Event>) {
        let (units, commands) = self.to_set_up();
        if !units.is_empty() || !commands.is_empty() {
            return;
        }
        ev.push(Event::SetUpDone { side: self.side });
        match self.side {
            // The Allies set up first; then the French; then the Allies begin turn 1.
            Side::Allied => self.side = Side::French,
            Side::French => {
                self.turn = 1;
                self.begin_turn(Side::Allied);
            }
        }
    }

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
