//! Combat, Leaders, Fortress and Siege: strengths with supply, leaders and terrain; the four
//! segments of the Combat Phase (declared attacks with the attacker's supply, retreat before
//! combat, the defender's supply, resolution on the CRT); every result of the table.

use super::zoc::{Situation, Zoc, supply_near};
use crate::engine::seats::Viewer;
use crate::games::leipzig::actions::{Event, Loss, gone_for};
use crate::games::leipzig::data::{CrtResult, Hex, Hexside, Side, Terrain};
use crate::games::leipzig::state::{Attack, Leipzig, Pending, Status, UnitId, What};
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

    fn leader_bonus(&self, units: &[UnitId], defense: bool) -> u32 {
        units
            .iter()
            .filter_map(|&u| match self.units[u as usize].what {
                What::Leader(n) => self
                    .sc
                    .leader(self.units[u as usize].side, n)
                    .map(|l| if defense { l.defense } else { l.offense } as u32),
                _ => None,
            })
            .sum()
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

    /// Whether the phasing side may examine every counter on `h` (Reconnaissance).
    fn target_known(&self, h: Hex) -> bool {
        let me = Viewer::Seat(super::seat_of(self.side));
        self.at(h).all(|u| self.seen_by(u as usize, me))
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
    fn attacked_at_auto(&self, h: Hex) -> bool {
        self.attacks.iter().filter(|a| a.targets.contains(&h)).any(|a| {
            let (att, _) = self.attack_strength(&a.units, a.supply.is_some(), a.sortie);
            let (d, _) =
                self.defense_strength(&a.targets, a.targets.iter().all(|&t| self.defender_could_supply(t)), a.river);
            Self::percent(att, d) >= self.sc.charts.crt.auto as u32
        })
    }

    /// Where a counter under attack may retreat before combat: its full Movement Allowance, never
    /// across an unbridged river, into mountains, through Enemy units or Enemy zones (which do
    /// not reach into friendly-occupied hexes here), and not when surrounded, dispersed, or (not
    /// cavalry) attacked at 500% (Combat, case J).
    pub fn retreat_before_options(&self, s: &Situation, u: UnitId) -> Vec<Hex> {
        let unit = &self.units[u as usize];
        let Some(h) = self.hex_of(u) else { return Vec::new() };
        if unit.side == self.side || unit.dispersed.is_some() || unit.stays || !self.attacked_hexes().contains(&h) {
            return Vec::new();
        }
        if !self.is_cavalry(u) && self.attacked_at_auto(h) {
            return Vec::new();
        }
        let side = unit.side;
        let b = &self.sc.board;
        let open = |from: Hex, n: Hex| {
            !s.enemy_on(side, n)
                && !(b.terrain(n) == Terrain::Mountain)
                && b.side(from, n) != Hexside::River
                && (s.enemy_zoc(side, n) == Zoc::None || s.side[n.0 as usize] == Some(side))
                && (self.austria_open() || !b.austria[n.0 as usize])
        };
        let ma = self.movement(u) as usize;
        // The hexes exactly `ma` away are the last layer (`h` alone for 0), in the map's order.
        let mut last = self.layers_to(h, ma, open, |_| 0).2;
        last.sort_unstable();
        last
    }

    /// Breadth-first layers from `from` up to `max` steps through `open` steps: each hex's
    /// distance and the fewest `weight` hexes (Enemy-controlled ones) on a shortest way there.
    pub fn layers(
        &self,
        from: Hex,
        max: usize,
        open: impl Fn(Hex, Hex) -> bool,
        weight: impl Fn(Hex) -> u16,
    ) -> (Vec<u16>, Vec<u16>) {
        let (dist, cost, _) = self.layers_to(from, max, open, weight);
        (dist, cost)
    }

    /// `layers`, and the last layer (the hexes `max` steps away; `from` alone when `max` is 0).
    fn layers_to(
        &self,
        from: Hex,
        max: usize,
        open: impl Fn(Hex, Hex) -> bool,
        weight: impl Fn(Hex) -> u16,
    ) -> (Vec<u16>, Vec<u16>, Vec<Hex>) {
        let b = &self.sc.board;
        let mut dist = vec![u16::MAX; b.len()];
        let mut cost = vec![u16::MAX; b.len()];
        dist[from.0 as usize] = 0;
        cost[from.0 as usize] = 0;
        let mut frontier = vec![from];
        for d in 1..=max {
            let mut next = Vec::new();
            for &h in &frontier {
                for (_, n) in b.neighbours(h) {
                    let ni = n.0 as usize;
                    if !open(h, n) || (dist[ni] != u16::MAX && dist[ni] < d as u16) {
                        continue;
                    }
                    let c = cost[h.0 as usize] + weight(n);
                    if dist[ni] == u16::MAX {
                        dist[ni] = d as u16;
                        next.push(n);
                    }
                    cost[ni] = cost[ni].min(c);
                }
            }
            frontier = next;
        }
        (dist, cost, frontier)
    }

    pub fn apply_retreat_before(&mut self, u: UnitId, to: Hex, ev: &mut Vec<Event>) {
        let from = self.hex_of(u).expect("on the map");
        // Chosen on the zones the defender could see; a hidden zone on the way bars it.
        if !self.retreat_before_options(&Situation::of(self), u).contains(&to) {
            self.units[u as usize].stays = true;
            ev.push(Event::RetreatBarred { unit: u, to });
            return;
        }
        self.units[u as usize].hex = Some(to);
        ev.push(Event::RetreatedBefore { unit: u, from, to });
        self.disperse(u, ev);
        self.update_owners(ev);
    }

    /// The attacked hexes whose defender still has to allocate supply, and what he may use.
    pub fn next_defense(&self) -> Option<(Hex, Vec<UnitId>)> {
        let b = &self.sc.board;
        self.attacked_hexes()
            .into_iter()
            .filter(|h| !self.defended.iter().any(|(d, _)| d == h))
            .filter(|&h| self.side_at(h) == Some(self.side.other()) && !b.is_fortress(h))
            .map(|h| (h, supply_near(self, self.side.other(), h)))
            .find(|(_, s)| !s.is_empty())
    }

    pub fn apply_defend_supply(&mut self, hex: Hex, supply: Option<UnitId>, ev: &mut Vec<Event>) {
        if let Some(s) = supply {
            self.units[s as usize].used.combat = true;
        }
        self.defended.push((hex, supply));
        ev.push(Event::DefenderSupply { hex, supply });
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
            rule: crate::games::leipzig::actions::rule::CRT.into(),
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

    /// Scatters a counter: broken down to its smallest formation, each piece retreating its full
    /// Movement Allowance to a hex with no other unit (Combat, case K).
    pub fn scatter(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        let Some(from) = self.hex_of(u) else { return };
        let mut pieces = vec![u];
        while let Some(i) =
            pieces.iter().position(|&p| self.is_combat(p) && self.ty(p).is_some_and(|t| t.breaks_into.is_some()))
        {
            let p = pieces.remove(i);
            let into = self.split(p, 0);
            ev.push(Event::BrokeDown { unit: p, into: into.clone() });
            pieces.extend(into);
        }
        for p in pieces {
            self.disperse(p, ev);
            self.pending.push(Pending::Scatter { unit: p, from });
        }
    }

    /// Where a retreating stack (`hexes` hexes) or a scattered counter (its full allowance, to an
    /// empty hex) may go: never across an unbridged river, into mountains, onto Enemy units or
    /// into a closed Austria, and never into a hex twice; through the fewest Enemy-controlled hexes
    /// (preference A); towards its own edge where such a way is open (preference B).
    pub fn retreat_options(&self, s: &Situation, side: Side, from: Hex, hexes: u8, scatter: bool) -> Vec<Hex> {
        self.retreats(s, side, from, hexes, scatter, self.austria_open())
    }

    /// Whether a retreat or scatter that finds no way out finds one only through a closed
    /// Austria. The scenarios' "Units which are forced to enter Austria due to retreating are
    /// eliminated" is read so: Austria stays closed to a retreat as to any move ("No units may
    /// enter Austria"), and a stack is *forced* into it only when every other way is barred;
    /// then it is eliminated, and the log says why (Scenarios 1, 2 and 7; the campaign before
    /// the intervention).
    pub fn forced_into_austria(&self, s: &Situation, side: Side, from: Hex, hexes: u8, scatter: bool) -> bool {
        !self.austria_open() && !self.retreats(s, side, from, hexes, scatter, true).is_empty()
    }

    /// Retreats with Austria open or closed. A friendly-occupied hex in an Enemy zone counts as
    /// Enemy-controlled (preference A): the exemption "Enemy Zones of Control do not extend into
    /// Friendly occupied hexes" is written for retreat *before* combat only (Combat, case J).
    fn retreats(&self, s: &Situation, side: Side, from: Hex, hexes: u8, scatter: bool, austria: bool) -> Vec<Hex> {
        let b = &self.sc.board;
        let open = |a: Hex, n: Hex| {
            !s.enemy_on(side, n)
                && b.terrain(n) != Terrain::Mountain
                && b.side(a, n) != Hexside::River
                && (austria || !b.austria[n.0 as usize])
        };
        let weight = |n: Hex| u16::from(s.enemy_zoc(side, n) != Zoc::None);
        let (dist, cost) = self.layers(from, hexes as usize, open, weight);
        let mut ends: Vec<Hex> = (0..b.len())
            .filter(|&i| dist[i] == hexes as u16 && (!scatter || s.side[i].is_none()))
            .map(|i| Hex(i as u16))
            .collect();
        let Some(least) = ends.iter().map(|h| cost[h.0 as usize]).min() else { return ends };
        ends.retain(|h| cost[h.0 as usize] == least);
        let here = b.edge_distance(from, side);
        if ends.iter().any(|&h| b.edge_distance(h, side) < here) {
            ends.retain(|&h| b.edge_distance(h, side) < here);
        }
        ends
    }

    /// The pending retreat's options, or None when nothing is pending.
    pub fn pending_options(&self, s: &Situation) -> Option<Vec<Hex>> {
        match self.pending.first()? {
            Pending::Retreat { units, from, hexes } => {
                let side = self.units[units[0] as usize].side;
                Some(self.retreat_options(s, side, *from, *hexes, false))
            }
            Pending::Scatter { unit, from } => {
                let side = self.units[*unit as usize].side;
                Some(self.retreat_options(s, side, *from, self.movement(*unit), true))
            }
            Pending::Advance { .. } | Pending::Lose { .. } => Some(Vec::new()),
        }
    }

    pub fn pending_side(&self) -> Option<Side> {
        Some(match self.pending.first()? {
            Pending::Advance { .. } | Pending::Lose { attack: Some(_), .. } => self.side,
            Pending::Lose { attack: None, .. } => Side::French,
            Pending::Retreat { units, .. } => self.units[units[0] as usize].side,
            Pending::Scatter { unit, .. } => self.units[*unit as usize].side,
        })
    }

    pub fn apply_retreat(&mut self, chosen: Hex, ev: &mut Vec<Event>) {
        // Chosen on the zones the retreating side could see: where hidden zones make another way
        // cross fewer of them (preference A), the stack goes the nearest such way.
        let real = self.pending_options(&Situation::of(self)).unwrap_or_default();
        let mut to = chosen;
        if !real.contains(&chosen)
            && let Some(&best) = real.iter().min_by_key(|&&h| (self.sc.board.distance(h, chosen), h.0))
        {
            to = best;
            let from = match &self.pending[0] {
                Pending::Retreat { from, .. } | Pending::Scatter { from, .. } => *from,
                _ => chosen,
            };
            ev.push(Event::RetreatRedirected { from, chosen, to });
        }
        match self.pending.remove(0) {
            Pending::Retreat { units, from, .. } => {
                let alive: Vec<UnitId> = units.into_iter().filter(|&u| self.hex_of(u) == Some(from)).collect();
                for &u in &alive {
                    self.units[u as usize].hex = Some(to);
                }
                ev.push(Event::Retreated { units: alive, from, to });
            }
            Pending::Scatter { unit, from } => {
                self.units[unit as usize].hex = Some(to);
                ev.push(Event::Scattered { unit, from, to });
            }
            Pending::Advance { .. } | Pending::Lose { .. } => unreachable!("not a retreat"),
        }
        self.update_owners(ev);
    }

    /// A pending retreat with nowhere to go: the units are eliminated instead (Retreat Order of
    /// Preference, C).
    pub fn settle_pending(&mut self, ev: &mut Vec<Event>) {
        loop {
            // Nothing pending (after most actions): no map to read.
            if self.pending.is_empty() {
                return;
            }
            let s = Situation::of(self);
            let Some(opts) = self.pending_options(&s) else { return };
            match &self.pending[0] {
                Pending::Advance { attack, into } => {
                    if self.side_at(*into) == Some(self.side.other()) || self.advancers(*attack).is_empty() {
                        self.pending.remove(0);
                        continue;
                    }
                    return;
                }
                Pending::Lose { attack, divisions } => {
                    if *divisions == 0 || self.loss_candidates(*attack).is_empty() {
                        self.pending.remove(0);
                        continue;
                    }
                    return;
                }
                p => {
                    let units = match p {
                        Pending::Retreat { units, .. } => units.clone(),
                        Pending::Scatter { unit, .. } => vec![*unit],
                        _ => unreachable!("matched above"),
                    };
                    let alive: Vec<UnitId> = units.into_iter().filter(|&u| self.units[u as usize].on_map()).collect();
                    if alive.is_empty() {
                        self.pending.remove(0);
                        continue;
                    }
                    if opts.is_empty() {
                        let side = self.units[alive[0] as usize].side;
                        let austria = match &self.pending[0] {
                            Pending::Retreat { from, hexes, .. } => {
                                self.forced_into_austria(&s, side, *from, *hexes, false)
                            }
                            Pending::Scatter { unit, from } => {
                                self.forced_into_austria(&s, side, *from, self.movement(*unit), true)
                            }
                            _ => false,
                        };
                        self.pending.remove(0);
                        let why = if austria { Loss::Austria } else { Loss::NoRetreat };
                        for u in alive {
                            self.lose(u, why, ev);
                        }
                        continue;
                    }
                    return;
                }
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

    /// The supply units that keep each stack together this turn, stack by stack: one already
    /// used up (for combat, a march, or chosen for another stack) where there is one, else the
    /// only one near it. Returns them, or the first choice the player has to make: the stack's
    /// hex and the supply units he may use up for it (Supply, C).
    pub fn stack_supply(&self) -> Result<Vec<UnitId>, (Hex, Vec<UnitId>)> {
        let s = Situation::of(self);
        let mut used: Vec<UnitId> = Vec::new();
        for h in super::zoc::stacks_needing_supply(self, &s, self.side) {
            let near = supply_near(self, self.side, h);
            if near.iter().any(|&u| self.units[u as usize].used.any() || used.contains(&u)) {
                continue;
            }
            match near.len() {
                0 => {}
                1 => used.push(near[0]),
                _ => return Err((h, near)),
            }
        }
        Ok(used)
    }

    /// The Combat Phase's end: one supply unit used up for each stack (or group of stacks) it
    /// keeps together, the others used for combat or a march, the depots replaced by a supply
    /// unit (Supply, C). Every choice of the player is made before (`Action::UseSupply`).
    /// The defender's supply units allocated to a defence go too: "one supply unit may support
    /// as many combats, defense or offense … remove at end of Combat Phase" (Supply, C i), so a
    /// unit that supported a defence does not supply the next enemy Combat Phase as well.
    pub fn consume_supply(&mut self, ev: &mut Vec<Event>) {
        for u in self.stack_supply().expect("every choice made before the supply is used up") {
            self.units[u as usize].used.stacking = true;
        }
        let defender = self.side.other();
        let used: Vec<UnitId> = self
            .on_map(self.side)
            .filter(|&u| self.units[u as usize].used.any())
            .chain(self.on_map(defender).filter(|&u| self.units[u as usize].used.combat))
            .collect();
        for u in used {
            self.consume(u, ev);
        }
    }

    fn consume(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        let at = self.hex_of(u);
        let side = self.units[u as usize].side;
        self.units[u as usize].status = Status::Gone(crate::games::leipzig::state::Gone::Consumed);
        ev.push(Event::SupplyUsed { unit: u });
        if self.kind(u) == Some(crate::games::leipzig::data::Kind::Depot) {
            let supply = (self.supply_available(side) > 0).then(|| {
                let t = self
                    .sc
                    .types
                    .iter()
                    .position(|t| t.kind == crate::games::leipzig::data::Kind::Supply)
                    .expect("a supply type") as u8;
                let id = self.add_unit(side, What::Type(t), Status::OnMap);
                self.units[id as usize].hex = at;
                id
            });
            ev.push(Event::DepotReplaced { depot: u, supply });
        }
    }

    /// The side last to occupy each victory city (How to Win).
    pub fn update_owners(&mut self, ev: &mut Vec<Event>) {
        // Who stands on each city, found in one pass over the counters (after every move).
        let mut hexes: Vec<Hex> = self.sc.city_hexes.iter().flatten().copied().collect();
        hexes.sort_unstable();
        hexes.dedup();
        let held = self.sides_at(&hexes);
        let sc = self.sc.clone();
        for (i, ((city, _), h)) in sc.victory.cities.iter().zip(&sc.city_hexes).enumerate() {
            let Some(h) = h else { continue };
            if let Some(side) = hexes.binary_search(h).ok().and_then(|k| held[k])
                && self.owners[i] != side
            {
                self.owners[i] = side;
                ev.push(Event::CityTaken { city: city.clone(), side });
                if city == "Berlin" && side == Side::French && self.berlin_taken.is_none() {
                    self.berlin_taken = Some(self.turn);
                }
            }
        }
    }
}
