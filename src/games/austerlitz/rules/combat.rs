//! Combat, Cavalry Charges and Disorganization, Demoralization and Reactions: who may attack
//! what, the CF difference with every modifier and its reason, the die and its modifiers, the
//! results, the retreats in a straight line chosen by the winner, DIS and demoralisation (twice is
//! elimination), the Guard's collapse, and the non-phasing player's reactions (infantry and
//! artillery opportunity fire, the counter-charge).

use crate::engine::geometry::{CellShape, Facing};
use crate::games::austerlitz::actions::Action;
use crate::games::austerlitz::actions::{AzError, Event, rule};
use crate::games::austerlitz::data::{Cell, Crossing, CrtResult, Kind, Side, Terrain};
use crate::games::austerlitz::state::{Aspect, Attack, Austerlitz, Formation, Pending, chebyshev};
use smallvec::SmallVec;

/// The worked-out odds of an attack, before the die.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    pub attack: i32,
    pub defence: i32,
    pub modifiers: Vec<(i32, String)>,
    pub die_modifiers: Vec<(i32, String)>,
    /// Attacker's adverse results count as N (an artillery or cavalry unit struck in flank or
    /// rear).
    pub attacker_safe: bool,
}

impl Odds {
    pub fn difference(&self) -> i32 {
        self.attack - self.defence
    }
    pub fn die_modifier(&self) -> i32 {
        self.die_modifiers.iter().map(|(m, _)| m).sum()
    }
}

/// Halved, rounded up (a demoralised unit's CF).
fn half_up(x: i32) -> i32 {
    (x + 1) / 2
}

/// The die modifier of a difference in command ratings: 1-2 → 1, 3-4 → 2, 5-6 → 3.
pub fn rating_modifier(diff: i32) -> i32 {
    diff.signum() * ((diff.abs() + 1) / 2).min(3)
}

/// An attack the phasing player may declare: its units, the target space, whether it charges.
pub type AttackOption = (Vec<usize>, Cell, bool);

impl Austerlitz {
    /// The unit of a space that fights for it: the infantry where artillery stacks with it.
    pub fn defender_of(&self, c: Cell) -> Option<usize> {
        let mut here = self.units_in(c);
        here.clone().find(|&u| !self.kind(u).is_artillery()).or_else(|| here.next())
    }

    /// A unit's CF in a fight (before terrain): light infantry in a formation has a line
    /// infantry's; a demoralised unit's is halved, rounded up.
    pub fn base_cf(&self, u: usize) -> i32 {
        let d = &self.sc.units[u];
        let in_formation = matches!(self.formation_kind(u), Some(Formation::Line | Formation::Column));
        let cf = match d.line_cf {
            Some(l) if in_formation => l,
            _ => d.cf,
        } as i32;
        if self.is_demoralised(u) { half_up(cf) } else { cf }
    }

    /// Why these units may not attack that space, if they may not.
    pub fn attack_refusal(&self, units: &[usize], target: Cell) -> Option<String> {
        let (why, u) = self.attack_barred(units, target)?;
        let name = u.map(|u| self.sc.units[u].name.as_str()).unwrap_or_default();
        Some(match why {
            Barred::NoEnemy => "there is no enemy combat unit in that space".into(),
            Barred::NoUnit => "an attack needs at least one unit".into(),
            Barred::Twice => format!("{name} is named twice"),
            Barred::NotYours => format!("{name} is not one of your units on the board"),
            Barred::Artillery => format!("{name}: an artillery unit's CF is used only in defence"),
            Barred::Attacked => format!("{name} has had combat this turn"),
            Barred::Dis => format!("{name} is disorganized"),
            Barred::NotInFront => format!("{name} does not have the target in its front"),
            Barred::HigherMf => format!("{name} moved on its higher MF and may not attack"),
            Barred::RussianFormation => {
                format!("{name}: Russian units may not attack after a change of formation in a turn")
            }
        })
    }

    /// Why `units` may not attack `target`, and the unit it concerns: the tests of
    /// `attack_refusal` without its words (the list of attacks asks them of every unit).
    pub(super) fn attack_barred(&self, units: &[usize], target: Cell) -> Option<(Barred, Option<usize>)> {
        let side = self.side;
        match self.holder(target) {
            Some(s) if s != side => {}
            _ => return Some((Barred::NoEnemy, None)),
        }
        if units.is_empty() {
            return Some((Barred::NoUnit, None));
        }
        for (i, &u) in units.iter().enumerate() {
            let why = if units[..i].contains(&u) { Some(Barred::Twice) } else { self.unit_barred(u, target) };
            if let Some(why) = why {
                return Some((why, Some(u)));
            }
        }
        None
    }

    /// What bars unit `u` from attacking `target` (whose holder `attack_barred` has asked about):
    /// the attack options ask this of every unit for every target.
    fn unit_barred(&self, u: usize, target: Cell) -> Option<Barred> {
        let unit = &self.units[u];
        let why = if self.side_of(u) != self.side || !self.on_board(u) {
            Barred::NotYours
        } else if self.kind(u).is_artillery() {
            Barred::Artillery
        } else if unit.attacked {
            Barred::Attacked
        } else if unit.dis {
            Barred::Dis
        } else if !self.front_cells(u).contains(&target) {
            Barred::NotInFront
        } else if self.kind(u).is_cavalry() && unit.spent > self.sc.units[u].mf.0 + unit.bonus {
            // Cavalry attacks on its lower MF (and the road's 2 where it used the road).
            Barred::HigherMf
        } else if self.nation_of(u) == super::super::data::Nation::Russian
            && unit.formation_at_start.is_some()
            && unit.formation_at_start != self.formation_kind(u)
        {
            Barred::RussianFormation
        } else {
            return None;
        };
        Some(why)
    }

    /// The CF difference with every modifier and its reason, and the die modifiers.
    pub fn odds(&self, units: &[usize], target: Cell, charge: bool, counter_charge: bool) -> Odds {
        self.odds_worded(units, target, charge, counter_charge, true)
    }

    /// `odds`, its modifiers worded (`words`) or with the numbers alone: the attack options ask
    /// the odds of every set of units against every target and read only the difference.
    fn odds_worded(&self, units: &[usize], target: Cell, charge: bool, counter_charge: bool, words: bool) -> Odds {
        let say = |list: &mut Vec<(i32, String)>, m: i32, text: &dyn Fn() -> String| {
            if words {
                list.push((m, text()));
            }
        };
        let b = &self.sc.board;
        let d = self.defender_of(target).expect("a defender");
        let mut mods = Vec::new();
        let mut attack = 0;
        let mut formations_counted: Vec<usize> = Vec::new();
        let mut attacker_safe = false;
        let mut worst = Aspect::Front;
        let hill = b.space(target).level > 0;
        for &u in units {
            let at = self.units[u].at.expect("on the board");
            let name = &self.sc.units[u].name;
            let mut cf = self.base_cf(u);
            let charging = charge && self.may_charge(u, target);
            if charging && counter_charge {
                cf = half_up(self.sc.units[u].cf as i32);
                say(&mut mods, 0, &|| format!("{name}: counter-charged, its basic CF halved to {cf}"));
            }
            attack += cf;
            if charging && !counter_charge {
                let bonus = match self.kind(u) {
                    Kind::Dragoons => 1,
                    Kind::LightCav => 2,
                    _ => 3,
                };
                // "cavalry subtracts 2 and 1 CF from charges in turns 1 and 2" (Phases): read as
                // taken from what the charge adds, never below it, so a dragoons' +1 charge in
                // turn 1's mist adds 0 rather than -1. The mist dampens the charge; it does not
                // make a charging unit weaker than the same unit attacking without charging,
                // which the player may always choose (Cavalry charge).
                let mist = if hill { 0 } else { self.sc.tables.mist(self.turn).map_or(0, |m| m.charge as i32) };
                attack += bonus - mist.min(bonus);
                say(&mut mods, bonus, &|| format!("{name}: charge"));
                if mist > 0 {
                    say(&mut mods, -mist.min(bonus), &|| format!("{name}: mist (turn {})", self.turn));
                }
            }
            if !formations_counted.contains(&u) {
                let (bonus, members) = self.formation_bonus(u, true);
                if bonus > 0 {
                    attack += bonus;
                    say(&mut mods, bonus, &|| format!("{name}: formation (+1 a unit, at most +3)"));
                    formations_counted.extend(members);
                }
                formations_counted.push(u);
            }
            if b.uphill(at, target) {
                attack -= 1;
                say(&mut mods, -1, &|| format!("{name}: attacking uphill"));
            }
            if b.crossing(at, target) != Crossing::Open {
                attack -= 1;
                say(&mut mods, -1, &|| format!("{name}: attacking across the stream"));
            }
            if matches!(self.kind(u), Kind::LightCav | Kind::HeavyCav)
                && matches!(b.space(target).terrain, Terrain::Town | Terrain::Woods | Terrain::Castle)
            {
                attack -= 1;
                say(&mut mods, -1, &|| format!("{name}: cavalry attacking a town, woods or castle"));
            }
            let aspect = self.aspect(d, at);
            if aspect != Aspect::Front {
                if self.kind(d).is_artillery() || self.kind(d).is_cavalry() {
                    attacker_safe = true;
                }
                if aspect == Aspect::Rear || worst == Aspect::Front {
                    worst = aspect;
                }
            }
        }
        // The defence.
        let dname = &self.sc.units[d].name;
        let stacked_infantry = self.kind(d).is_infantry();
        let mut defence = self.base_cf(d);
        say(&mut mods, 0, &|| {
            format!(
                "{dname} defends with {defence}{}",
                if self.is_demoralised(d) { " (demoralised: halved)" } else { "" }
            )
        });
        if !self.kind(d).is_artillery() || !stacked_infantry {
            let (bonus, _) = self.formation_bonus(d, false);
            if bonus > 0 {
                defence += bonus;
                say(&mut mods, -bonus, &|| format!("{dname}: in formation"));
            }
        }
        if self.units[d].square {
            defence += 1;
            say(&mut mods, -1, &|| format!("{dname}: square (+1 in defence)"));
        }
        match b.space(target).terrain {
            Terrain::Woods => {
                defence += 1;
                say(&mut mods, -1, &|| format!("{dname}: in woods"));
            }
            Terrain::Town | Terrain::Castle if stacked_infantry => {
                defence += 2;
                say(&mut mods, -2, &|| format!("{dname}: infantry in a town or castle"));
            }
            _ => {}
        }
        let flank = match worst {
            Aspect::Front => 0,
            Aspect::Flank => 1,
            Aspect::Rear => 2,
        };
        if flank > 0 {
            let doubled = stacked_infantry && self.is_demoralised(d);
            let m = if doubled { flank * 2 } else { flank };
            defence -= m;
            let side = if worst == Aspect::Rear { "rear" } else { "flank" };
            say(&mut mods, m, &|| {
                format!("attack on the {side}{}", if doubled { " of demoralised infantry (doubled)" } else { "" })
            });
        }
        // The die: commanders' ratings, formations against cavalry and guns.
        let mut die_modifiers = Vec::new();
        let a_rating = units.iter().map(|&u| self.rating_of(u)).max().unwrap_or(0) as i32;
        let d_rating = self.rating_of(d) as i32;
        let rm = rating_modifier(a_rating - d_rating);
        if rm != 0 {
            say(&mut die_modifiers, rm, &|| format!("command ratings {a_rating} against {d_rating}"));
        }
        let formed = |u: usize| {
            matches!(self.formation_kind(u), Some(Formation::Line | Formation::Column)) && self.in_command(u)
        };
        if units.iter().any(|&u| formed(u)) && (self.kind(d).is_artillery() || self.kind(d).is_cavalry()) {
            say(&mut die_modifiers, 1, &|| "a formation in command range attacks artillery or cavalry".into());
        }
        if units.iter().all(|&u| self.kind(u).is_cavalry()) && stacked_infantry && formed(d) {
            say(&mut die_modifiers, -1, &|| "cavalry attacks infantry in a formation in command range".into());
        }
        Odds { attack, defence, modifiers: mods, die_modifiers, attacker_safe }
    }

    /// Every attack the phasing player may declare now: for each enemy space, each set of the
    /// units that may strike it (all of them, and each alone, and every pair where few), with
    /// and without the charge.
    pub fn attack_options(&self, out: &mut Vec<AttackOption>) {
        self.attack_options_on(None, out)
    }

    /// The attack options on one target space (all of them without): the check of an attack
    /// asks only of its own target, whose options are the same whatever the other targets.
    pub(super) fn attack_options_on(&self, only: Option<Cell>, out: &mut Vec<AttackOption>) {
        let side = self.side;
        let mut targets: Vec<Cell> = Vec::new();
        // The units that may strike, each with its front (found once, not once a target).
        let mut strikers: Vec<(usize, SmallVec<[Cell; 8]>)> = Vec::new();
        for u in 0..self.units.len() {
            if self.side_of(u) == side && self.on_board(u) && !self.units[u].attacked && !self.kind(u).is_artillery() {
                let front = self.front_cells(u);
                for &c in &front {
                    if self.holder(c).is_some_and(|s| s != side) && !targets.contains(&c) {
                        targets.push(c);
                    }
                }
                strikers.push((u, front));
            }
        }
        targets.sort_unstable();
        for t in targets.into_iter().filter(|&t| only.is_none_or(|o| o == t)) {
            // `attack_barred(&[u], t)` for each unit with `t` in its front (no other may strike
            // it), the target's holder (an enemy, found above) not asked again for every unit.
            let able: Vec<usize> = strikers
                .iter()
                .filter(|(u, front)| front.contains(&t) && self.unit_barred(*u, t).is_none())
                .map(|(u, _)| *u)
                .collect();
            let mut sets: Vec<Vec<usize>> = able.iter().map(|&u| vec![u]).collect();
            if able.len() > 1 {
                if able.len() <= 4 {
                    for i in 0..able.len() {
                        for j in i + 1..able.len() {
                            sets.push(vec![able[i], able[j]]);
                        }
                    }
                }
                if able.len() > 2 {
                    sets.push(able.clone());
                }
            }
            for set in sets {
                let charge_possible = set.iter().any(|&u| self.may_charge(u, t));
                for charge in [false, true] {
                    if charge && !charge_possible {
                        continue;
                    }
                    // No attack below the table's first row.
                    if self.sc.tables.crt_row(self.odds_worded(&set, t, charge, false, false).difference()).is_some() {
                        out.push((set.clone(), t, charge));
                    }
                }
            }
        }
    }

    pub(super) fn apply_attack(&mut self, units: Vec<usize>, target: Cell, charge: bool, ev: &mut Vec<Event>) {
        ev.push(Event::AttackDeclared { units: units.iter().map(|&u| u as u8).collect(), target, charge });
        for &u in &units {
            self.units[u].attacked = true;
        }
        let attack = Attack {
            units: units.iter().map(|&u| u as u8).collect(),
            target,
            charge,
            counter_charge: false,
            answered: Vec::new(),
        };
        if self.reactions(&attack).is_empty() {
            self.resolve_attack(attack, ev);
        } else {
            self.pending.push(Pending::AttackReactions { attack });
        }
    }

    pub(super) fn resolve_attack(&mut self, attack: Attack, ev: &mut Vec<Event>) {
        let target = attack.target;
        let units: Vec<usize> = attack
            .units
            .iter()
            .map(|&u| u as usize)
            .filter(|&u| self.on_board(u) && self.front_cells(u).contains(&target))
            .collect();
        if units.is_empty() || self.holder(target).is_none_or(|s| s == self.side) {
            return;
        }
        let odds = self.odds(&units, target, attack.charge, attack.counter_charge);
        let Some(row) = self.sc.tables.crt_row(odds.difference()) else {
            // Reactions cut the attack below the table: it is called off.
            return;
        };
        let row = row.results.clone();
        let die = self.rng.d6();
        let modified = (die as i32 + odds.die_modifier()).clamp(1, 6);
        let mut result = row[(modified - 1) as usize];
        if odds.attacker_safe && matches!(result, CrtResult::AE | CrtResult::AR(_)) {
            result = CrtResult::N;
        }
        let mut modifiers: Vec<(i32, String)> =
            odds.modifiers.iter().map(|(v, why)| (0, format!("{v:+} CF {why}"))).collect();
        modifiers.splice(0..0, odds.die_modifiers.iter().cloned());
        ev.push(self.roll(
            self.side,
            rule::COMBAT,
            format!(
                "the {} on {}: CF {} against {} = {:+}",
                if attack.charge { "charge" } else { "attack" },
                self.sc.board.place_name(target),
                odds.attack,
                odds.defence,
                odds.difference()
            ),
            vec![die],
            modifiers,
            Some(("CRT", Some(format!("difference {:+}", odds.difference())), Some(format!("die {modified}")))),
            crate::games::austerlitz::text::crt_name(result),
        ));
        for &u in &units {
            if attack.charge && self.may_charge_done(u) {
                self.units[u].charged = true;
                self.disorder(u, "charged".into(), ev);
            }
        }
        let defenders = self.units_at(target);
        let attacker_cells: Vec<Cell> = units.iter().filter_map(|&u| self.units[u].at).collect();
        match result {
            CrtResult::N => {}
            CrtResult::AE => {
                for &u in &units {
                    self.eliminate(u, "AE on the Attack CRT".into(), ev);
                }
            }
            CrtResult::DE => {
                for &u in &defenders {
                    self.eliminate(u, "DE on the Attack CRT".into(), ev);
                }
            }
            CrtResult::AR(n) => {
                let mut cells = attacker_cells.clone();
                cells.dedup();
                for c in cells.into_iter().rev() {
                    let here: Vec<u8> = self.units_at(c).into_iter().map(|u| u as u8).collect();
                    self.pending.push(Pending::Retreat {
                        units: here,
                        spaces: n,
                        from: vec![target],
                        demoralise: n > 3,
                        chooser: self.side.other(),
                    });
                }
            }
            CrtResult::DR(n) => {
                self.pending.push(Pending::Retreat {
                    units: defenders.iter().map(|&u| u as u8).collect(),
                    spaces: n,
                    from: attacker_cells,
                    demoralise: n > 3,
                    chooser: self.side,
                });
                if n > 3 {
                    for &u in &units {
                        self.recover(u, ev);
                    }
                }
            }
        }
    }

    /// The straight lines a retreat may take and the damage of each: (direction, spaces passed,
    /// damage). Eliminating lines cost most, then each friendly unit disordered or pushed.
    pub fn retreat_lines(&self, units: &[u8], spaces: u8, from: &[Cell]) -> Vec<(Facing, Vec<Cell>, u32)> {
        let Some(&first) = units.first() else { return Vec::new() };
        let Some(start) = self.units[first as usize].at else { return Vec::new() };
        let b = &self.sc.board;
        let side = self.side_of(first as usize);
        let mut out = Vec::new();
        for d in Facing::ALL {
            if d.is_diagonal() && b.shape(start) == CellShape::Square {
                continue;
            }
            let Some(n1) = b.grid.step(start, d) else {
                out.push((d, Vec::new(), 1000));
                continue;
            };
            // Away: the first step takes it further from every victorious unit.
            if !from.iter().all(|&f| chebyshev(n1, f) > chebyshev(start, f)) {
                continue;
            }
            let mut path = Vec::new();
            let mut damage = 0;
            let mut c = start;
            for _ in 0..spaces {
                let Some(n) = b.grid.step(c, d) else {
                    damage += 1000;
                    break;
                };
                let unbridged = b.crossing(c, n) == Crossing::Stream;
                let enemy = self.holder(n).is_some_and(|s| s != side)
                    || self.command_at(n).is_some_and(|k| self.sc.commands[k].side != side);
                let woods =
                    b.space(n).terrain == Terrain::Woods && units.iter().any(|&u| !self.kind(u as usize).is_infantry());
                if unbridged || enemy || woods {
                    damage += 1000;
                    path.push(n);
                    break;
                }
                damage += self.units_at(n).len() as u32;
                path.push(n);
                c = n;
            }
            if path.last().is_some_and(|&l| b.space(l).terrain == Terrain::Pond) {
                damage += 1000;
            }
            out.push((d, path, damage));
        }
        if out.is_empty() {
            // Hemmed in, with no line away: the unit is eliminated whichever way.
            out.push((self.units[first as usize].facing, Vec::new(), 1000));
        }
        out
    }

    /// The least damaging lines (the winner must choose among them).
    pub fn retreat_choices(&self) -> Vec<(Facing, Vec<Cell>, u32)> {
        let Some(Pending::Retreat { units, spaces, from, .. }) = self.pending.last() else { return Vec::new() };
        let lines = self.retreat_lines(units, *spaces, from);
        let least = lines.iter().map(|l| l.2).min().unwrap_or(0);
        lines.into_iter().filter(|l| l.2 == least).collect()
    }

    pub(super) fn apply_retreat(&mut self, toward: Facing, facing: Facing, ev: &mut Vec<Event>) {
        let (_, path, damage) = self.retreat_choices().into_iter().find(|l| l.0 == toward).expect("checked");
        let Some(Pending::Retreat { units, demoralise, .. }) = self.pending.pop() else { unreachable!("checked") };
        let units: Vec<usize> = units.into_iter().map(|u| u as usize).filter(|&u| self.on_board(u)).collect();
        let Some(&lead) = units.first() else { return };
        let side = self.side_of(lead);
        let from = self.units[lead].at.expect("on the board");
        if damage >= 1000 {
            for &u in &units {
                self.eliminate(u, "no retreat but through the enemy, a stream, woods or off the board".into(), ev);
            }
            return;
        }
        let demoralised_before = units.iter().any(|&u| self.is_demoralised(u));
        let end = path.last().copied().unwrap_or(from);
        for (i, &c) in path.iter().enumerate() {
            for v in self.units_at(c) {
                if units.contains(&v) || self.side_of(v) != side {
                    continue;
                }
                if i + 1 == path.len() {
                    // Retreating onto own units pushes them a space further the same way.
                    self.push_away(v, toward, ev);
                } else {
                    self.disorder(v, "a retreat passed over it".into(), ev);
                }
                if demoralised_before {
                    self.demoralise(v, "a demoralised unit retreated over it".into(), ev);
                }
            }
        }
        // A retreat through a space next to the front of an enemy infantry unit provokes its
        // opportunity fire (offered once the retreat is made).
        let provoked: Vec<usize> = (0..self.units.len())
            .filter(|&v| {
                self.side_of(v) != side
                    && self.on_board(v)
                    && self.kind(v).is_infantry()
                    && !self.units[v].dis
                    && self.opportunity_odds(v, lead).is_some()
                    && path.iter().any(|c| self.front_cells(v).contains(c))
            })
            .collect();
        for &u in &units {
            self.units[u].at = Some(end);
            self.units[u].facing = facing;
            ev.push(Event::Retreated { unit: u as u8, from, to: end });
        }
        // Combat: "If a Command is stacked with combat units it suffers the same result as the
        // units it is stacked with": it retreats with them (issue 63: it stayed behind, alone).
        self.carry_command(from, end, side, ev);
        for &u in &units {
            if self.units[u].square {
                self.disorder(u, "a square that retreats".into(), ev);
            }
            if demoralise {
                self.demoralise(u, "retreated more than 3 spaces".into(), ev);
            }
        }
        if self.on_board(lead) {
            for v in provoked {
                self.pending.push(Pending::OpportunityFire { by: v as u8, at: lead as u8, chance: false });
            }
        }
    }

    fn push_away(&mut self, v: usize, d: Facing, ev: &mut Vec<Event>) {
        let c = self.units[v].at.expect("on the board");
        let next = self.sc.board.grid.step(c, d);
        match next {
            Some(n) if self.units_at(n).is_empty() && self.sc.board.space(n).terrain != Terrain::Pond => {
                self.units[v].at = Some(n);
                ev.push(Event::Retreated { unit: v as u8, from: c, to: n });
                self.carry_command(c, n, self.side_of(v), ev);
            }
            _ => self.disorder(v, "pushed by a retreat with nowhere to go".into(), ev),
        }
    }

    /// A command of `side` on `from` left without a unit of its own there goes where they went
    /// (Combat: a stacked command suffers the same result as its units).
    fn carry_command(&mut self, from: Cell, to: Cell, side: Side, ev: &mut Vec<Event>) {
        let Some(k) = self.command_at(from) else { return };
        if self.sc.commands[k].side != side || self.units_at(from).iter().any(|&u| self.side_of(u) == side) {
            return;
        }
        self.commands[k].at = Some(to);
        ev.push(Event::CommandMoved { command: k as u8, to });
    }

    pub fn eliminate(&mut self, u: usize, why: String, ev: &mut Vec<Event>) {
        if self.units[u].eliminated {
            return;
        }
        let at = self.units[u].at;
        self.units[u].eliminated = true;
        let side = self.side_of(u);
        self.eliminated[side.other().index()] += 1;
        ev.push(Event::Eliminated { unit: u as u8, why });
        // A command on the space with no unit left is captured.
        if let Some(c) = at
            && self.units_at(c).is_empty()
            && let Some(k) = self.command_at(c)
            && self.sc.commands[k].side == side
        {
            self.capture(k, "the unit it stood on was eliminated".into(), ev);
        }
        // The Guard's collapse: all three Guard infantry units of a side gone.
        let guard: Vec<usize> = (0..self.units.len())
            .filter(|&v| self.side_of(v) == side && self.sc.units[v].guard && self.kind(v).is_infantry())
            .collect();
        if self.sc.units[u].guard
            && self.kind(u).is_infantry()
            && guard.len() >= 3
            && guard.iter().all(|&v| self.units[v].eliminated)
        {
            let until = self.turn + 2;
            self.collapse_until[side.index()] = Some(until);
            ev.push(Event::GuardCollapse { side, until });
        }
    }

    pub(crate) fn capture(&mut self, k: usize, why: String, ev: &mut Vec<Event>) {
        if self.commands[k].captured {
            return;
        }
        self.commands[k].captured = true;
        ev.push(Event::CommandCaptured { command: k as u8, why });
        if self.sc.commands[k].supreme && self.winner.is_none() {
            let winner = self.sc.commands[k].side.other();
            self.finish(Some(winner), format!("{} captured", self.sc.commands[k].name), ev);
        }
    }

    /// Who decides the pending decision.
    pub fn pending_chooser(&self) -> Option<Side> {
        match self.pending.last()? {
            Pending::Retreat { chooser, .. } => Some(*chooser),
            Pending::AttackReactions { .. } => Some(self.side.other()),
            // The firing unit's player (the non-phasing one, or the winner of a fight whose
            // loser retreats past his infantry).
            Pending::OpportunityFire { by, .. } => Some(self.side_of(*by as usize)),
            Pending::Faced { unit, .. } => Some(self.side_of(*unit as usize)),
        }
    }

    /// Drops decisions nobody can take any more (their units gone); `apply` calls it after every
    /// action.
    pub(crate) fn drop_stale_pending(&mut self) {
        while let Some(p) = self.pending.last() {
            let stale = match p {
                Pending::Retreat { units, .. } => units.iter().all(|&u| !self.on_board(u as usize)),
                Pending::OpportunityFire { by, at, .. } => !self.on_board(*by as usize) || !self.on_board(*at as usize),
                Pending::AttackReactions { .. } => false,
                Pending::Faced { unit, by } => {
                    !self.on_board(*unit as usize) || by.iter().all(|&v| !self.on_board(v as usize))
                }
            };
            if stale || self.winner.is_some() {
                self.pending.pop();
            } else {
                break;
            }
        }
    }

    /// Whether a rule refuses an attack on these grounds: for `explain`.
    pub fn explain_attack(&self, units: &[usize], target: Cell, charge: bool) -> AzError {
        if let Some(why) = self.attack_refusal(units, target) {
            return AzError::new(rule::COMBAT, why);
        }
        if charge && !units.iter().any(|&u| self.may_charge(u, target)) {
            return AzError::new(
                rule::CHARGE,
                "no charge: cavalry must cross 1 plain space in front of the enemy without turning there, and the enemy may not be in a square, town, woods, castle, uphill or across the stream",
            );
        }
        let d = self.odds(units, target, charge, false).difference();
        AzError::new(rule::COMBAT, format!("the CF difference is {d}: below -1 an attack is not allowed by the CRT"))
    }
}

/// Why an attack is refused (`Austerlitz::attack_refusal` words it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Barred {
    NoEnemy,
    NoUnit,
    Twice,
    NotYours,
    Artillery,
    Attacked,
    Dis,
    NotInFront,
    HigherMf,
    RussianFormation,
}

// The legal listing and the refusals of this chapter.
impl Austerlitz {
    /// The straight lines a retreat may take, each with every facing the space it ends on allows.
    pub(super) fn list_retreats(&self, units: &[u8], out: &mut Vec<Action>) {
        let start = units.first().and_then(|&u| self.units[u as usize].at);
        for (d, path, _) in self.retreat_choices() {
            let Some(end) = path.last().copied().or(start) else { continue };
            for f in Facing::ALL {
                if !(f.is_diagonal() && self.sc.board.shape(end) == CellShape::Square) {
                    out.push(Action::Retreat { toward: d, facing: f });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::rating_modifier;

    #[test]
    fn rating_differences_give_one_two_or_three() {
        assert_eq!(rating_modifier(0), 0);
        assert_eq!(rating_modifier(1), 1);
        assert_eq!(rating_modifier(2), 1);
        assert_eq!(rating_modifier(3), 2);
        assert_eq!(rating_modifier(-4), -2);
        assert_eq!(rating_modifier(6), 3);
    }
}
