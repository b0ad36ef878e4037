//! Combat, Leaders, Fortress and Siege: strengths with supply, leaders and terrain; the four
//! segments of the Combat Phase (declared attacks with the attacker's supply, retreat before
//! combat, the defender's supply, resolution on the CRT); every result of the table.

use super::Asked;
use super::supply::supply_near;
use super::zoc::Situation;
use crate::engine::seats::Viewer;
use crate::games::leipzig::actions::{Action, LzError, rule};
use crate::games::leipzig::actions::{Event, Loss, gone_for};
use crate::games::leipzig::data::{CrtResult, Hex, Side, Terrain};
use crate::games::leipzig::state::Dispersal;
use crate::games::leipzig::state::Step;
use crate::games::leipzig::state::{Attack, Leipzig, Pending, Status, UnitId};
use crate::games::leipzig::text::half;

/// Attacks from one hex enumerate every subset of its units up to this many combat units; a
/// larger stack offers all of them or one at a time.
pub const SUBSET_LIMIT: usize = 6;

impl Leipzig {
    /// A counter that may take part in an attack now (Combat, case C; Dispersal; Saxon Garrison).
    pub fn attack_ready(&self, u: UnitId) -> bool {
        let unit = &self.units[u as usize];
        unit.on_map()
            && unit.side == self.side
            && !unit.attacked
            && unit.dispersed.is_none()
            && !self.garrison_neutral(u)
            && (self.is_combat(u) || self.is_leader(u))
    }

    /// A combat unit's strength in half points: halved out of supply, never below one (Supply, A).
    fn half_points(&self, u: UnitId, supplied: bool) -> u32 {
        let s = self.strength(u) as u32;
        if supplied { 2 * s } else { s.max(2) }
    }

    /// The attacking strength of a hex-group in half points, with its reasons: supply, then the
    /// leaders' offensive bonus up to the units' own strength (Leaders, B). A fortress's sortie
    /// attacks supplied, with its basic strength (Fortress, E).
    pub fn attack_strength(&self, units: &[UnitId], supplied: bool, sortie: bool) -> (u32, Vec<String>) {
        let mut why = Vec::new();
        let base: u32 =
            units.iter().filter(|&&u| self.is_combat(u)).map(|&u| self.half_points(u, supplied || sortie)).sum();
        if !supplied && !sortie {
            why.push("attackers out of supply: halved (not below 1 each)".to_string());
        }
        let mut total = base;
        if !sortie {
            let bonus = self.leader_bonus(units, false) * 2;
            if bonus > 0 {
                let add = bonus.min(base);
                why.push(format!(
                    "leaders' offensive bonus +{} (of {}, capped by the units' {})",
                    half(add),
                    half(bonus),
                    half(base)
                ));
                total += add;
            }
        } else {
            why.push("sortie from a fortress: supplied, basic strength".to_string());
        }
        (total, why)
    }

    /// The defending strength of the attacked hexes in half points: supply (or a fortress),
    /// leaders' defensive bonus up to the units' strength, alone a strength of 1, then the terrain
    /// multiplies it all: fortress ×3, mountain ×2, across a river ×2 (Terrain Effects Chart).
    pub fn defense_strength(&self, targets: &[Hex], supplied: bool, river: bool) -> (u32, Vec<String>) {
        let b = &self.sc.board;
        let mut total = 0;
        let mut why = Vec::new();
        for &h in targets {
            let units: Vec<UnitId> = self.at(h).collect();
            let fortress = b.is_fortress(h);
            let sup = supplied || fortress;
            let base: u32 = units.iter().filter(|&&u| self.is_combat(u)).map(|&u| self.half_points(u, sup)).sum();
            let mut hex_total = if base == 0 {
                why.push(format!("{}: no combat unit, defends with 1", b.label(h)));
                2
            } else {
                if !sup {
                    why.push(format!("{}: defenders out of supply: halved (not below 1 each)", b.label(h)));
                }
                let bonus = self.leader_bonus(&units, true) * 2;
                let add = bonus.min(base);
                if add > 0 {
                    why.push(format!(
                        "{}: leaders' defensive bonus +{} (capped by the units' {})",
                        b.label(h),
                        half(add),
                        half(base)
                    ));
                }
                base + add
            };
            let mut factor = 1;
            if fortress {
                factor *= 3;
                why.push(format!("{}: fortress, defender tripled", b.label(h)));
            } else if matches!(b.terrain(h), Terrain::Mountain | Terrain::Pass) {
                factor *= 2;
                why.push(format!("{}: mountains, defender doubled", b.label(h)));
            }
            if river {
                factor *= 2;
                why.push("across a river hexside: defender doubled".to_string());
            }
            hex_total *= factor;
            total += hex_total;
        }
        (total, why)
    }

    /// The ratio in percent, rounded down in the defender's favour (Combat, case F).
    pub fn percent(attack: u32, defense: u32) -> u32 {
        (attack as u64 * 100 / defense.max(1) as u64) as u32
    }

    /// The hexes a declared attack from `from` on `target` strikes: the target, or for a sortie
    /// every adjacent Enemy hex not behind a river (Fortress, case E).
    pub fn attack_targets(&self, s: &Situation, from: Hex, target: Hex) -> Vec<Hex> {
        let b = &self.sc.board;
        if b.is_fortress(from) {
            b.neighbours(from).map(|(_, n)| n).filter(|&n| s.enemy_on(self.side, n) && !b.river_line(from, n)).collect()
        } else {
            vec![target]
        }
    }

    /// Every attack that may be declared now (Combat, cases A to H; River; Fortress; Saxon
    /// Garrison; Armistice).
    pub fn declarations(&self, s: &Situation, out: &mut Vec<(Hex, Vec<UnitId>, Hex, Option<UnitId>)>) {
        if self.armistice_on() {
            return;
        }
        let b = &self.sc.board;
        let mut froms: Vec<Hex> = self
            .on_map(self.side)
            .filter(|&u| self.attack_ready(u) && self.is_combat(u))
            .filter_map(|u| self.hex_of(u))
            .collect();
        froms.sort_unstable();
        froms.dedup();
        for from in froms {
            let fortress = b.is_fortress(from);
            let mut targets: Vec<Hex> =
                b.neighbours(from).map(|(_, n)| n).filter(|&n| s.enemy_on(self.side, n)).collect();
            if fortress {
                // A sortie strikes every adjacent Enemy hex at once: one declaration, named by the first.
                targets.retain(|&n| !b.river_line(from, n));
                targets.truncate(1);
            }
            // Most stacks have no Enemy beside them: their groups are not made at all.
            if targets.is_empty() {
                continue;
            }
            let combat: Vec<UnitId> = self.at(from).filter(|&u| self.attack_ready(u) && self.is_combat(u)).collect();
            let leaders: Vec<UnitId> = self.at(from).filter(|&u| self.attack_ready(u) && self.is_leader(u)).collect();
            let supplies: Vec<Option<UnitId>> = if fortress {
                vec![None]
            } else {
                std::iter::once(None).chain(supply_near(self, self.side, from).into_iter().map(Some)).collect()
            };
            let mut groups: Vec<Vec<UnitId>> = Vec::new();
            if combat.len() <= SUBSET_LIMIT {
                for mask in 1u32..(1 << combat.len()) {
                    groups.push(
                        combat.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, &u)| u).collect(),
                    );
                }
            } else {
                groups.push(combat.clone());
                groups.extend(combat.iter().map(|&u| vec![u]));
            }
            if !leaders.is_empty() && !fortress {
                let with: Vec<Vec<UnitId>> =
                    groups.iter().map(|g| g.iter().chain(&leaders).copied().collect()).collect();
                groups.extend(with);
            }
            for target in targets {
                if self.at(target).any(|u| self.garrison_neutral(u))
                    || self.attacks.iter().any(|a| a.from == from && a.targets.contains(&target))
                {
                    continue;
                }
                // Across a river the odds must reach 160%; under Reconnaissance the French cannot
                // judge them on blanks, so an attack on a hex they cannot examine is offered and the
                // odds are judged once its counters are examined (`apply_declare`).
                let river = b.river_line(from, target) && !fortress && self.target_known(target);
                for g in &groups {
                    for &sup in &supplies {
                        if river && !self.river_odds_met(g, sup.is_some(), target) {
                            continue;
                        }
                        out.push((from, g.clone(), target, sup));
                    }
                }
            }
        }
    }

    /// Whether an attack across a river reaches the 160% the River hex-side needs, against the
    /// strongest defence the attacker can judge.
    fn river_odds_met(&self, units: &[UnitId], supply: bool, target: Hex) -> bool {
        let (a, _) = self.attack_strength(units, supply, false);
        let (d, _) = self.defense_strength(&[target], self.defender_could_supply_as_seen(target), true);
        Self::percent(a, d) >= self.sc.charts.crt.river_minimum as u32
    }

    /// `defender_could_supply` as the phasing side can judge it under Reconnaissance: a counter
    /// in reach it may not examine could be a supply unit, so it counts as one (the strongest
    /// defence). Judged on the real counters, the legal list told the French whether a blank
    /// beside the target was a supply unit (found by tests/net_leak.rs).
    fn defender_could_supply_as_seen(&self, h: Hex) -> bool {
        let Some(side) = self.side_at(h) else { return false };
        let b = &self.sc.board;
        let me = Viewer::Seat(super::seat_of(self.side));
        b.is_fortress(h)
            || self.on_map(side).any(|u| {
                self.units[u as usize].hex.is_some_and(|s| s == h || b.adjacent(s, h))
                    && (self.is_supply(u) || !self.seen_by(u as usize, me))
            })
    }

    /// Whether the defender of `h` could be in supply (a fortress, or a supply unit in reach):
    /// the strongest defence, used for the limits fixed at declaration (160% across a river, 500%
    /// against retreat before combat).
    pub fn defender_could_supply(&self, h: Hex) -> bool {
        let Some(side) = self.side_at(h) else { return false };
        self.sc.board.is_fortress(h) || !supply_near(self, side, h).is_empty()
    }

    pub fn apply_declare(
        &mut self,
        from: Hex,
        units: &[UnitId],
        target: Hex,
        supply: Option<UnitId>,
        ev: &mut Vec<Event>,
    ) {
        let s = Situation::of(self);
        let b = &self.sc.board;
        let sortie = b.is_fortress(from);
        let targets = self.attack_targets(&s, from, target);
        let river = !sortie && b.river_line(from, target);
        for &u in units {
            self.units[u as usize].attacked = true;
        }
        let idx = self.attacks.len() as u8;
        // Examining the Allied counters attacked commits the French to the attack (Reconnaissance).
        let mut seen = Vec::new();
        // An Allied attack is shown to the French defender: whether he may retreat before combat
        // depends on its odds (Combat, case J II), which he could not judge on blanks.
        if self.side == Side::Allied && self.reconnaissance() {
            for &u in units {
                if !self.units[u as usize].revealed {
                    self.units[u as usize].revealed = true;
                    seen.push(u);
                }
            }
        }
        for &t in &targets {
            for x in self.at(t).collect::<Vec<_>>() {
                if !self.units[x as usize].revealed {
                    self.units[x as usize].revealed = true;
                    seen.push(x);
                }
            }
        }
        ev.push(Event::Declared { attack: idx, from, targets: targets.clone(), units: units.to_vec(), supply });
        if !seen.is_empty() && self.reconnaissance() {
            ev.push(Event::Revealed { units: seen });
        }
        // Declared on blanks across a river: examined, the defenders may stand too strong for the
        // 160% the river needs. The examination committed the attackers (Reconnaissance), but no
        // attack may be made under 160% (Terrain Effects Chart, River): none is, and the supply
        // unit is not spent.
        if river && !self.river_odds_met(units, supply.is_some(), target) {
            ev.push(Event::NoCombat {
                from,
                targets,
                why: "across the river the examined defenders stand too strong: no attack under 160%".into(),
            });
            return;
        }
        if let Some(sup) = supply {
            self.units[sup as usize].used.combat = true;
        }
        self.attacks.push(Attack { from, units: units.to_vec(), targets, supply, river, sortie, resolved: false });
    }

    /// The hexes under attack, in the order of the declarations.
    pub fn attacked_hexes(&self) -> Vec<Hex> {
        let mut out: Vec<Hex> = Vec::new();
        for a in &self.attacks {
            for &t in &a.targets {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
        out
    }

    /// Whether any declared attack on `h` is at 500% or more against its strongest defence.
    pub(super) fn attacked_at_auto(&self, h: Hex) -> bool {
        self.attacks.iter().filter(|a| a.targets.contains(&h)).any(|a| {
            let (att, _) = self.attack_strength(&a.units, a.supply.is_some(), a.sortie);
            let (d, _) =
                self.defense_strength(&a.targets, a.targets.iter().all(|&t| self.defender_could_supply(t)), a.river);
            Self::percent(att, d) >= self.sc.charts.crt.auto as u32
        })
    }

    /// Resolves a declared attack on the CRT (How to Use the Combat Results Table).
    pub fn apply_resolve(&mut self, idx: usize, ev: &mut Vec<Event>) {
        self.attacks[idx].resolved = true;
        let a = self.attacks[idx].clone();
        let b = &self.sc.board;
        let targets: Vec<Hex> =
            a.targets.iter().copied().filter(|&t| self.side_at(t) == Some(self.side.other())).collect();
        let attackers: Vec<UnitId> = a.units.iter().copied().filter(|&u| self.hex_of(u) == Some(a.from)).collect();
        let any_fortress = targets.iter().any(|&t| b.is_fortress(t));
        if targets.is_empty() || !attackers.iter().any(|&u| self.is_combat(u)) {
            let why = if targets.is_empty() {
                "the defenders left before combat"
            } else {
                "no attacking combat unit is left"
            };
            ev.push(Event::NoCombat { from: a.from, targets: a.targets.clone(), why: why.into() });
            // The defender left before combat: the attacker may occupy across a river or a fortress.
            if targets.is_empty() && (a.river || a.targets.iter().any(|&t| b.is_fortress(t))) && a.targets.len() == 1 {
                self.pending.push(Pending::Advance { attack: idx as u8, into: a.targets[0] });
            }
            return;
        }
        let supplied = a.supply.is_some();
        let (att, mut why) = self.attack_strength(&attackers, supplied, a.sortie);
        let def_supplied = targets.iter().all(|t| self.defended.iter().any(|(d, s)| d == t && s.is_some()));
        let (def, dwhy) = self.defense_strength(&targets, def_supplied, a.river);
        why.extend(dwhy);
        let percent = Self::percent(att, def);
        let crt = &self.sc.charts.crt;
        let col = crt.column(percent);
        let die = self.rng.d6();
        let result = crt.rows[die as usize - 1][col];
        let column = crt.columns[col];
        let label = |h: &Hex| b.label(*h);
        ev.push(Event::Rolled(crate::engine::roll::Roll {
            seat: super::seat_of(self.side),
            rule: crate::engine::rules::Section::heading(crate::games::leipzig::actions::rule::CRT).into(),
            what: format!(
                "the attack from {} on {}: {} against {} = {percent}%",
                b.label(a.from),
                targets.iter().map(label).collect::<Vec<_>>().join(", "),
                half(att),
                half(def)
            ),
            dice: vec![die],
            modifiers: why.into_iter().map(|w| (0, w)).collect(),
            table: Some(crate::engine::roll::Consulted {
                name: "Combat Results Table".into(),
                column: Some(format!("column {}{column}%", if col == 0 { "≤" } else { "" })),
                row: Some(format!("die {die}")),
            }),
            result: result.code(),
        }));
        // The attacker's part.
        match result {
            CrtResult::As => {
                for &u in &attackers {
                    self.scatter(u, ev);
                }
            }
            CrtResult::Ad | CrtResult::AdDs => {
                for &u in &attackers {
                    self.disperse(u, ev);
                }
            }
            _ => {}
        }
        // The defender's part: in a fortress only Dx (and Auto, an automatic Dx) applies.
        let mut vacated = false;
        let defenders: Vec<UnitId> = targets.iter().flat_map(|&t| self.at(t).collect::<Vec<_>>()).collect();
        let applies = |r: CrtResult| !any_fortress || matches!(r, CrtResult::Dx | CrtResult::Auto);
        if applies(result) {
            match result {
                CrtResult::Dd(n) => {
                    for &u in &defenders {
                        self.disperse(u, ev);
                    }
                    if n > 0 {
                        for &t in &targets {
                            let units: Vec<UnitId> = self.at(t).collect();
                            self.pending.push(Pending::Retreat { units, from: t, hexes: n });
                        }
                        vacated = true;
                    }
                }
                CrtResult::Ds | CrtResult::AdDs => {
                    for &u in &defenders {
                        self.scatter(u, ev);
                    }
                    vacated = true;
                }
                CrtResult::Dx | CrtResult::Auto => {
                    for &u in &defenders {
                        self.lose(u, Loss::Combat, ev);
                    }
                    vacated = true;
                }
                CrtResult::HalfEx => {
                    let lost: u16 = defenders.iter().map(|&u| self.divisions(u)).sum();
                    for &u in &defenders {
                        self.lose(u, Loss::Combat, ev);
                    }
                    // The attacker chooses which of his attacking divisions go (Pending::Lose).
                    self.pending.push(Pending::Lose { attack: Some(idx as u8), divisions: lost.div_ceil(2) });
                    vacated = true;
                }
                _ => {}
            }
        }
        if vacated && (a.river || any_fortress) && targets.len() == 1 && result != CrtResult::As {
            self.pending.push(Pending::Advance { attack: idx as u8, into: targets[0] });
        }
    }

    /// The counters that may advance after attack `attack`: its units still in the attacking
    /// hex and not dispersed (pieces of a counter broken down for a ½ex among them).
    pub fn advancers(&self, attack: u8) -> Vec<UnitId> {
        let a = &self.attacks[attack as usize];
        a.units
            .iter()
            .copied()
            .filter(|&u| self.hex_of(u) == Some(a.from) && self.units[u as usize].dispersed.is_none())
            .collect()
    }

    /// The counters a pending loss may take: the attack's combat units still in its hex (½ex), or
    /// every French combat unit on the map (German Rebellion).
    pub fn loss_candidates(&self, attack: Option<u8>) -> Vec<UnitId> {
        match attack {
            Some(i) => {
                let a = &self.attacks[i as usize];
                a.units.iter().copied().filter(|&u| self.hex_of(u) == Some(a.from) && self.is_combat(u)).collect()
            }
            None => self.on_map(Side::French).filter(|&u| self.is_combat(u)).collect(),
        }
    }

    /// The owner removes a counter for a pending loss; a counter of more divisions than are still
    /// owed is broken down instead, and he chooses again among the pieces and the rest.
    pub fn apply_remove(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        let Some(&Pending::Lose { attack, divisions }) = self.pending.first() else { unreachable!("a loss waits") };
        let d = self.divisions(u);
        if d <= divisions {
            self.lose(u, if attack.is_some() { Loss::Combat } else { Loss::Rebellion }, ev);
            self.pending[0] = Pending::Lose { attack, divisions: divisions - d };
        } else {
            let into = self.split(u, 0);
            ev.push(Event::BrokeDown { unit: u, into: into.clone() });
            if let Some(i) = attack {
                self.attacks[i as usize].units.extend(into);
            }
        }
    }

    /// Advance after combat: every counter still waiting (`unit` None) or one of them; the others
    /// may follow. Staying put ends the advance.
    pub fn apply_advance(&mut self, unit: Option<UnitId>, ev: &mut Vec<Event>) {
        let Some(&Pending::Advance { attack, into }) = self.pending.first() else { unreachable!("an advance waits") };
        let movers = match unit {
            Some(u) => vec![u],
            None => {
                self.pending.remove(0);
                self.advancers(attack)
            }
        };
        for &u in &movers {
            self.units[u as usize].hex = Some(into);
        }
        ev.push(Event::Advanced { units: movers, into });
        self.update_owners(ev);
    }

    /// Removes a counter from the game; enemy divisions and leaders score (Victory: Div.).
    pub fn lose(&mut self, u: UnitId, why: Loss, ev: &mut Vec<Event>) {
        let at = self.hex_of(u);
        let side = self.units[u as usize].side;
        if !self.units[u as usize].on_map() {
            return;
        }
        self.units[u as usize].status = Status::Gone(gone_for(why));
        ev.push(Event::Lost { unit: u, at, why });
        if why == Loss::Rebellion {
            return;
        }
        if self.is_supply(u) && why != Loss::Marched {
            self.supply_lost[side.index()] = self.supply_lost[side.index()].saturating_add(1);
        }
        let points = self.divisions(u) + u16::from(self.is_leader(u));
        self.unit_vp[side.other().index()] += points * self.sc.victory.division as u16;
        if why != Loss::Marched {
            self.combat_losses[side.index()] += points * self.sc.victory.division as u16;
        }
    }
}

impl Leipzig {
    /// Disperses a counter (inverted until a friendly Movement and Combat Phase have passed).
    pub fn disperse(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        if self.units[u as usize].on_map() {
            self.units[u as usize].dispersed = Some(Dispersal { fresh: true, ..Dispersal::default() });
            ev.push(Event::Dispersed { unit: u });
        }
    }

    /// Automatic elimination: a definite 500% from the units of one hex (Auto; Reconnaissance).
    pub fn overrun_ratio(&self, s: &Situation, from: Hex, target: Hex) -> Option<(u32, u32)> {
        let b = &self.sc.board;
        if !b.adjacent(from, target) || !s.enemy_on(self.side, target) || s.side[from.0 as usize] != Some(self.side) {
            return None;
        }
        if self.at(target).any(|u| self.is_cavalry(u) || self.garrison_neutral(u)) || self.armistice_on() {
            return None;
        }
        if self.side == Side::French
            && self.reconnaissance()
            && self.at(target).any(|u| !self.units[u as usize].scouted)
        {
            return None;
        }
        let units: Vec<UnitId> = self.at(from).filter(|&u| self.attack_ready(u)).collect();
        if !units.iter().any(|&u| self.is_combat(u)) {
            return None;
        }
        let supplied = !supply_near(self, self.side, from).is_empty() || b.is_fortress(from);
        let a = self.attack_strength(&units, supplied, false).0;
        let d = self.defense_strength(&[target], true, b.river_line(from, target)).0;
        (a * 100 >= d * self.sc.charts.crt.auto as u32).then_some((a, d))
    }

    pub fn apply_overrun(&mut self, from: Hex, target: Hex, ev: &mut Vec<Event>) {
        let s = Situation::of(self);
        let (a, d) = self.overrun_ratio(&s, from, target).expect("checked");
        if let Some(&sup) = supply_near(self, self.side, from).first()
            && !self.sc.board.is_fortress(from)
        {
            self.units[sup as usize].used.combat = true;
            ev.push(Event::SupplyUsed { unit: sup });
        }
        for u in self.at(from).filter(|&u| self.attack_ready(u)).collect::<Vec<_>>() {
            self.units[u as usize].attacked = true;
        }
        ev.push(Event::Overrun { from, target, attack: a, defense: d });
        for u in self.at(target).collect::<Vec<_>>() {
            self.lose(u, Loss::Overrun, ev);
        }
        self.overrun.push(target);
    }
}

// The legal listing and the refusals of this chapter.
impl Leipzig {
    /// The choices a combat's result leaves: advance after combat, the losses (½ex, or the
    /// German Rebellion's divisions), or a retreat (the Retreat Order of Preference).
    pub(super) fn list_pending(&self, s: &Situation, out: &mut Vec<Action>) {
        match &self.pending[0] {
            Pending::Advance { attack, .. } => {
                out.push(Action::Advance);
                out.extend(self.advancers(*attack).into_iter().map(|unit| Action::AdvanceOne { unit }));
                out.push(Action::StayPut);
            }
            Pending::Lose { attack, .. } => {
                out.extend(self.loss_candidates(*attack).into_iter().map(|unit| Action::Remove { unit }));
            }
            _ => {
                for to in self.pending_options(s).unwrap_or_default() {
                    out.push(Action::Retreat { to });
                }
            }
        }
    }

    /// The attacks that may be declared (cases A to E), then the end of the declarations.
    pub(super) fn list_declare(&self, s: &Situation, ask: &Asked, out: &mut Vec<Action>) {
        if ask.wants(&Action::Declare { from: Hex(0), units: Vec::new(), target: Hex(0), supply: None }) {
            let mut list = Vec::new();
            self.declarations(s, &mut list);
            let from_only = match ask.like {
                Some(Action::Declare { from, .. }) => Some(*from),
                _ => None,
            };
            out.extend(
                list.into_iter()
                    .filter(|(f, ..)| from_only.is_none_or(|x| x == *f))
                    .map(|(from, units, target, supply)| Action::Declare { from, units, target, supply }),
            );
        }
        out.push(Action::EndDeclarations);
    }

    /// The declared attacks not yet resolved, in any order the attacker likes.
    pub(super) fn list_resolve(&self, out: &mut Vec<Action>) {
        out.extend(
            self.attacks
                .iter()
                .enumerate()
                .filter(|(_, a)| !a.resolved)
                .map(|(i, _)| Action::Resolve { attack: i as u8 }),
        );
    }

    /// The automatic eliminations of the CRT's Auto column open now, from each hex with a unit
    /// ready to attack.
    pub(super) fn list_overruns(&self, s: &Situation, out: &mut Vec<Action>) {
        let mut froms: Vec<Hex> =
            self.on_map(self.side).filter(|&u| self.attack_ready(u)).filter_map(|u| self.hex_of(u)).collect();
        froms.sort_unstable();
        froms.dedup();
        for from in froms {
            for (_, target) in self.sc.board.neighbours(from) {
                // `overrun_ratio`'s first test, asked here: most neighbours hold no Enemy.
                if s.enemy_on(self.side, target) && self.overrun_ratio(s, from, target).is_some() {
                    out.push(Action::Overrun { from, target });
                }
            }
        }
    }

    /// Why an advance after combat or a loss is refused.
    pub(super) fn refuse_after_combat(&self, action: &Action) -> LzError {
        match action {
            Action::AdvanceOne { .. } => LzError::new(
                rule::COMBAT,
                "only the attack's own units still in its hex, not dispersed, advance after combat",
            ),
            _ => LzError::new(
                rule::COMBAT,
                "the loss is taken from the attacking units still in their hex (½ex), or from the French combat units on the map (German Rebellion)",
            ),
        }
    }

    /// Why an attack may not be declared.
    pub(super) fn refuse_declare(&self) -> LzError {
        if self.step != Step::Declare {
            return self.not_now("declaring an attack");
        }
        if self.armistice_on() {
            return LzError::new(rule::ARMISTICE, "no combat may occur during the armistice");
        }
        LzError::new(
            rule::COMBAT,
            "that attack may not be declared: only adjacent units that have not attacked, not dispersed, from one hex against one Enemy hex, at 160% at least across a river, with a supply unit next to them (cases A to E)",
        )
    }

    /// Why an automatic elimination is refused (the CRT's Auto column).
    pub(super) fn refuse_overrun(&self) -> LzError {
        LzError::new(
            rule::AUTO,
            "automatic elimination needs a definite 500% from one hex, against a hex without cavalry (and, for the French under reconnaissance, a unit exposed by cavalry)",
        )
    }
}
