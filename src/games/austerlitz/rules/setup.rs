//! Set-up (and the Order of Battle): each side sets up within the sectors on its side of the red
//! border, Soult two units a sector, the commanders placed within their units.

use crate::engine::geometry::{CellShape, Facing};
use crate::engine::rng::TableRng;
use crate::engine::rules::Shared;
use crate::games::austerlitz::actions::{AzError, Event, rule};
use crate::games::austerlitz::data::AzScenario;
use crate::games::austerlitz::data::{Cell, Sectors, Side, Terrain};
use crate::games::austerlitz::state::{Austerlitz, Command, Step, Unit};
use std::sync::Arc;

/// A new table: nothing on the board yet; the Allies set up first.
pub fn setup(sc: Arc<AzScenario>, seed: u64) -> Austerlitz {
    let units = sc
        .units
        .iter()
        .map(|d| Unit {
            at: None,
            facing: d.facing,
            square: false,
            dis: false,
            demoralised: false,
            eliminated: false,
            spent: 0,
            moved: false,
            attacked: false,
            fired: false,
            reacted: false,
            smoke: false,
            charged: false,
            counter_charged: false,
            straight: false,
            extra: false,
            bonus: 0,
            formation_at_start: None,
            dis_this_turn: 0,
            demoralised_this_turn: 0,
        })
        .collect();
    let commands = sc.commands.iter().map(|_| Command { at: None, captured: false, moved: false }).collect();
    Austerlitz {
        sc: Shared(sc),
        turn: 0,
        side: Side::Allied,
        step: Step::Setup,
        units,
        commands,
        pending: Vec::new(),
        davout_arrived: false,
        collapse_until: [None, None],
        eliminated: [0, 0],
        winner: None,
        final_points: None,
        rng: TableRng::from_seed(seed),
    }
}

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
}

impl Austerlitz {
    /// The spaces of a position a sandbox takes back to the rules: every unit on the board where
    /// stacking lets it stand (1 combat unit a space, 1 artillery with 1 infantry, never on a pond,
    /// never with an enemy commander).
    pub(super) fn refuse_stacks(&self) -> Result<(), AzError> {
        for u in (0..self.units.len()).filter(|&u| self.on_board(u)) {
            let c = self.units[u].at.expect("on the board");
            if !self.may_stand(u, c) {
                return Err(AzError::new(
                    rule::STACKING,
                    format!(
                        "{} may not stand on {}: 1 combat unit a space (1 artillery with 1 infantry), never on a pond, never with an enemy commander",
                        self.name(u),
                        self.cell_name(c)
                    ),
                ));
            }
        }
        Ok(())
    }
}
