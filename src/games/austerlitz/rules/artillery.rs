//! Artillery: fire or move (field artillery), move and fire on the lower MF (horse artillery),
//! the field of fire, line of sight, range with its additions, 2 dice on the Artillery Table (+1
//! for 12-pounders, one result lower for a demoralised battery, -1 for a DIS one firing in
//! defence), counter-battery fire on 1 die, smoke.

use crate::games::austerlitz::actions::Action;
use crate::games::austerlitz::actions::{AzError, Event, rule};
use crate::games::austerlitz::data::{BatteryResult, Cell, FireResult, FireTable, Kind, Terrain};
use crate::games::austerlitz::state::{Austerlitz, Pending, Step, rotate};
use smallvec::SmallVec;

impl Austerlitz {
    /// The table a gun fires on: the Horse Artillery Table for a horse battery that moves and
    /// fires in one turn, in either order. A horse battery fires so in step 2, before or after
    /// its move; in step 1 it fires on the Artillery Table as field artillery does, and stands
    /// ("Horse artillery: may fire and move or move and fire, but if doing so must use their
    /// lower MF").
    pub fn fire_table(&self, g: usize) -> &FireTable {
        if self.kind(g) == Kind::Horse && self.step == Step::Move && self.side_of(g) == self.side {
            &self.sc.tables.horse_artillery
        } else {
            &self.sc.tables.artillery
        }
    }

    /// Why gun `g` may not fire at space `target` now (in its own turn), if it may not.
    pub fn fire_refusal(&self, g: usize, target: Cell, battery: bool) -> Option<AzError> {
        let e = |m: String| Some(AzError::new(rule::ARTILLERY, m));
        let name = &self.sc.units[g].name;
        if let Some(why) = self.gun_barred(g) {
            return e(match why {
                GunBarred::NotYours => format!("{name} is not one of your guns on the board"),
                GunBarred::Fired => format!("{name} has fired this turn (once in its own turn)"),
                GunBarred::Dis => format!("{name} is disorganized"),
                GunBarred::Shielded => format!("{name} stands in a square and can't fire"),
                GunBarred::HigherMf => {
                    format!("{name} moved on its higher MF: horse artillery moves and fires on its lower")
                }
                GunBarred::NotNow => {
                    "guns fire in step 1 (horse artillery also in step 2, before or after moving)".into()
                }
            });
        }
        let Some(&(_, rows)) = self.field_of_fire(g).iter().find(|(c, _)| *c == target) else {
            return e(format!("{} is not in {name}'s field of fire", self.sc.board.place_name(target)));
        };
        if self.holder(target).is_none_or(|s| s == self.side) {
            return e("artillery fires at enemy units (never at a lone command)".into());
        }
        if let Some((c, what)) = self.los_blocked(g, target) {
            return Some(AzError::new(
                rule::LOS,
                format!("the line of sight is blocked by {what} at {}", self.sc.board.place_name(c)),
            ));
        }
        let range = self.fire_range(rows, target);
        if self.fire_table(g).result(range, 12).is_none() {
            return e(format!("out of range: {rows} spaces + woods/town/castle and mist = {range}"));
        }
        if battery {
            let guns: Vec<usize> = self.units_in(target).filter(|&u| self.kind(u).is_artillery()).collect();
            if guns.is_empty() {
                return e("counter-battery fire needs enemy artillery in the space".into());
            }
            if guns.iter().any(|&u| self.shielded(u)) {
                return e("artillery shielded in a square may not be the target of counter-battery fire".into());
            }
        }
        None
    }

    /// What bars gun `g` from firing now whatever its target, if anything (`fire_refusal` words
    /// it; the list asks it once a gun, not once a target).
    fn gun_barred(&self, g: usize) -> Option<GunBarred> {
        let unit = &self.units[g];
        if self.side_of(g) != self.side || !self.on_board(g) || !self.kind(g).is_artillery() {
            return Some(GunBarred::NotYours);
        }
        if unit.fired {
            return Some(GunBarred::Fired);
        }
        if unit.dis {
            return Some(GunBarred::Dis);
        }
        if self.shielded(g) {
            return Some(GunBarred::Shielded);
        }
        let horse = self.kind(g) == Kind::Horse;
        match self.step {
            Step::Fire => None,
            Step::Move if horse && !unit.moved => None,
            Step::Move if horse && unit.spent <= self.sc.units[g].mf.0 + unit.bonus => None,
            Step::Move if horse => Some(GunBarred::HigherMf),
            _ => Some(GunBarred::NotNow),
        }
    }

    /// Every shot a gun may take now.
    pub fn fire_options(&self, g: usize, out: &mut Vec<(Cell, bool)>) {
        if self.gun_barred(g).is_some() {
            return;
        }
        // Only a space the enemy holds may be fired at (`fire_refusal`'s test, asked first: most
        // of the field of fire is empty, and a refusal is worded).
        for (c, _) in self.field_of_fire(g) {
            if self.holder(c).is_none_or(|s| s == self.side) {
                continue;
            }
            for battery in [false, true] {
                if self.fire_refusal(g, c, battery).is_none() {
                    out.push((c, battery));
                }
            }
        }
    }

    pub(super) fn apply_fire(&mut self, g: usize, target: Cell, battery: bool, ev: &mut Vec<Event>) {
        self.units[g].fired = true;
        self.units[g].smoke = true;
        if self.step == Step::Fire && self.kind(g) == Kind::Horse {
            // Fired on the Artillery Table: it stands this turn, as field artillery does.
            self.units[g].spent = self.sc.units[g].mf.1;
        }
        if battery {
            let gun = self.units_at(target).into_iter().find(|&u| self.kind(u).is_artillery()).expect("checked");
            let roll = self.rng.d6();
            let result = self.sc.tables.counter_battery.results[roll as usize - 1];
            let words = match result {
                BatteryResult::Turn => "turned about",
                BatteryResult::TurnDemoralise => "turned about and demoralised",
                BatteryResult::Eliminate => "eliminated",
            };
            ev.push(self.roll(
                self.side_of(g),
                rule::ARTILLERY,
                format!("{}'s counter-battery fire at {}", self.sc.units[g].name, self.sc.units[gun].name),
                vec![roll],
                Vec::new(),
                Some(("counter-battery fire", None, Some(format!("die {roll}")))),
                words.into(),
            ));
            match result {
                BatteryResult::Turn => self.units[gun].facing = rotate(self.units[gun].facing, 4),
                BatteryResult::TurnDemoralise => {
                    self.units[gun].facing = rotate(self.units[gun].facing, 4);
                    self.demoralise(gun, "counter-battery fire".into(), ev);
                }
                BatteryResult::Eliminate => self.eliminate(gun, "counter-battery fire".into(), ev),
            }
            return;
        }
        let targets = self.units_at(target);
        self.fire_at(g, target, targets, ev);
    }

    /// A gun's shot on the Artillery Table at these units of a space (in its own turn or in
    /// reaction).
    pub(crate) fn fire_at(&mut self, g: usize, target: Cell, targets: Vec<usize>, ev: &mut Vec<Event>) {
        let rows = self.field_of_fire(g).iter().find(|(c, _)| *c == target).map_or(1, |x| x.1);
        let range = self.fire_range(rows, target);
        let (a, b) = (self.rng.d6(), self.rng.d6());
        let mut modifiers = Vec::new();
        if self.kind(g) == Kind::Heavy {
            modifiers.push((1, "12-pounder".to_string()));
        }
        if self.units[g].dis {
            modifiers.push((-1, "disorganized battery firing in defence".to_string()));
        }
        let roll = (a + b) as i32 + modifiers.iter().map(|m| m.0).sum::<i32>();
        let mut result = self.fire_table(g).result(range, roll).unwrap_or(super::super::data::FireResult::N);
        if self.is_demoralised(g) {
            result = result.lower();
            modifiers.push((0, "demoralised battery: one result lower".to_string()));
        }
        let horse = std::ptr::eq(self.fire_table(g), &self.sc.tables.horse_artillery);
        let table = if horse { "Horse Artillery Table" } else { "Artillery Table" };
        modifiers.push((0, format!("range {range} (spaces, with woods, town, castle and mist)")));
        ev.push(self.roll(
            self.side_of(g),
            rule::ARTILLERY,
            format!("{}'s fire at {}", self.sc.units[g].name, self.sc.board.place_name(target)),
            vec![a, b],
            modifiers,
            Some((table, Some(format!("roll {roll}")), Some(format!("range {range}")))),
            crate::games::austerlitz::text::fire_name(result),
        ));
        self.fire_result(g, targets, result, ev);
    }
}

/// Why a gun may not fire now whatever its target (`Austerlitz::gun_barred`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GunBarred {
    NotYours,
    Fired,
    Dis,
    Shielded,
    HigherMf,
    NotNow,
}

impl Austerlitz {
    /// The retreat of a fire result (Resolution of artillery Fire): away from the gun, chosen by
    /// the firing player.
    pub(crate) fn fire_result(&mut self, gun: usize, targets: Vec<usize>, result: FireResult, ev: &mut Vec<Event>) {
        let from = vec![self.units[gun].at.expect("on the board")];
        match result {
            FireResult::N => {}
            FireResult::E => {
                for u in targets {
                    self.eliminate(u, "artillery fire: E".into(), ev);
                }
            }
            FireResult::R(n) => {
                let chooser = self.side_of(gun);
                let units = targets.iter().filter(|&&u| self.on_board(u)).map(|&u| u as u8).collect::<Vec<_>>();
                if !units.is_empty() {
                    self.pending.push(Pending::Retreat { units, spaces: n, from, demoralise: n > 3, chooser });
                }
                if n > 3 {
                    self.recover(gun, ev);
                }
            }
        }
    }

    /// Artillery stacked in a square may not fire (nor be the target of counter-battery fire).
    pub fn shielded(&self, u: usize) -> bool {
        self.units[u].at.is_some_and(|c| self.units_in(c).any(|v| v != u && self.units[v].square))
    }

    /// A gun's field of fire: (space, distance in rows). Pointing at a long side: 1 space, then
    /// 3, then 5; at an octagon's short side: 1 (the diagonal), then 3, then 5. Field artillery
    /// reaches 9 spaces (three rows); horse artillery 7 (the third row 3 wide).
    pub fn field_of_fire(&self, gun: usize) -> SmallVec<[(Cell, u8); 9]> {
        let Some(at) = self.units[gun].at else { return SmallVec::new() };
        let f = self.units[gun].facing;
        let horse = self.kind(gun) == Kind::Horse;
        // At most 1 + 3 + 5 spaces: on the stack (the lists ask it of every gun).
        let mut out = SmallVec::new();
        let (fx, fy) = f.offset();
        for k in 1..=3i32 {
            let half = if horse && k == 3 { 1 } else { k - 1 };
            if f.is_diagonal() {
                // Rows of an octagon's diagonal: spaces at distance k both ways along it, at
                // least one space off each axis; the horse battery's third row keeps the 3
                // nearest the diagonal.
                for a in 1..=k {
                    for b in 1..=k {
                        if a.max(b) != k || (horse && k == 3 && a.min(b) < 2) {
                            continue;
                        }
                        out.push(((at.0 + fx * a, at.1 + fy * b), k as u8));
                    }
                }
            } else {
                let (px, py) = (fy, fx);
                for s in -half..=half {
                    out.push(((at.0 + fx * k + px * s, at.1 + fy * k + py * s), k as u8));
                }
            }
        }
        out.retain(|(c, _)| self.sc.board.contains(*c));
        out
    }

    /// The spaces a line of sight crosses between two spaces (not the ends): the centres'
    /// straight line, every space it passes through (both where it runs along a corner).
    pub fn between(a: Cell, b: Cell) -> Vec<Cell> {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let n = dx.abs().max(dy.abs());
        let mut out = Vec::new();
        for i in 1..(2 * n) {
            // Half steps along the line, rounded both ways where it falls on a boundary.
            let t = i as f64 / (2 * n) as f64;
            let x = a.0 as f64 + dx as f64 * t;
            let y = a.1 as f64 + dy as f64 * t;
            for cx in [x.floor() as i32, x.ceil() as i32] {
                for cy in [y.floor() as i32, y.ceil() as i32] {
                    let (rx, ry) = (x - cx as f64, y - cy as f64);
                    if rx.abs() <= 0.5 && ry.abs() <= 0.5 && (cx, cy) != a && (cx, cy) != b && !out.contains(&(cx, cy))
                    {
                        out.push((cx, cy));
                    }
                }
            }
        }
        out
    }

    /// What blocks a gun's line of sight to a space, if anything (Line of Sight): units, towns,
    /// castles, woods and hills between; from a ridge a gun fires over units below it.
    pub fn los_blocked(&self, gun: usize, target: Cell) -> Option<(Cell, String)> {
        let at = self.units[gun].at?;
        let board = &self.sc.board;
        let own = board.space(at);
        for c in Self::between(at, target) {
            if !board.contains(c) {
                continue;
            }
            let s = board.space(c);
            let over = own.ridge && s.level < own.level;
            if !self.units_at(c).is_empty() && !over {
                return Some((c, "a unit".into()));
            }
            match s.terrain {
                Terrain::Town => return Some((c, "a town".into())),
                Terrain::Castle => return Some((c, "a castle".into())),
                Terrain::Woods => return Some((c, "woods".into())),
                _ => {}
            }
            if s.level > own.level && s.level > board.space(target).level {
                return Some((c, "a hill".into()));
            }
        }
        None
    }

    /// The range of a shot at a space in the field of fire: rows, plus 2 for woods or a town, 3
    /// for a castle, plus the mist of the first turns for a target not on a hill.
    pub fn fire_range(&self, rows: u8, target: Cell) -> u8 {
        let s = self.sc.board.space(target);
        let terrain = match s.terrain {
            Terrain::Woods | Terrain::Town => 2,
            Terrain::Castle => 3,
            _ => 0,
        };
        let mist = if s.level == 0 { self.sc.tables.mist(self.turn).map_or(0, |m| m.range) } else { 0 };
        rows + terrain + mist
    }
}

// The legal listing and the refusals of this chapter.
impl Austerlitz {
    /// The fire of every gun that may fire now (all, or the one `one` names).
    pub(super) fn list_fire(&self, one: Option<usize>, out: &mut Vec<Action>) {
        for g in (0..self.units.len()).filter(|&g| one.is_none_or(|o| o == g)) {
            let mut shots = Vec::new();
            self.fire_options(g, &mut shots);
            out.extend(shots.into_iter().map(|(target, battery)| Action::Fire { gun: g as u8, target, battery }));
        }
    }
}
