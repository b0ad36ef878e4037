//! Retreats: retreat before combat (Combat, case J), the Retreat Order of Preference after combat,
//! and scattered counters.

use super::Asked;
use super::zoc::{Situation, Zoc};
use crate::games::leipzig::actions::{Action, LzError, rule};
use crate::games::leipzig::actions::{Event, Loss};
use crate::games::leipzig::data::{Hex, Hexside, Side, Terrain};
use crate::games::leipzig::state::{Leipzig, Pending, UnitId};

impl Leipzig {
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
}

// The legal listing and the refusals of this chapter.
impl Leipzig {
    /// The defender's retreats before combat (case J), counter by counter, and their end.
    pub(super) fn list_retreat_before(&self, s: &Situation, ask: &Asked, out: &mut Vec<Action>) {
        let defender = self.side.other();
        for u in self.on_map(defender).collect::<Vec<_>>() {
            if ask.only.is_some_and(|o| o != u) {
                continue;
            }
            for to in self.retreat_before_options(s, u) {
                out.push(Action::RetreatBefore { unit: u, to });
            }
        }
        out.push(Action::EndRetreats);
    }

    pub(super) fn refuse_retreat(&self) -> LzError {
        LzError::new(
            rule::RETREAT,
            "that hex is not a retreat the Retreat Order of Preference allows (fewest Enemy-controlled hexes, towards the own edge, the full distance, never across an unbridged river, into mountains or onto units)",
        )
    }

    pub(super) fn refuse_retreat_before(&self) -> LzError {
        LzError::new(
            rule::RETREAT_BEFORE,
            "that retreat before combat is not allowed: the full Movement Allowance, not across unbridged rivers, through Enemy units or zones or mountains, not when dispersed, surrounded or (not cavalry) attacked at 500%",
        )
    }
}

// A standing order's answer (issue 32), on the defender's view.
impl Leipzig {
    /// `stand`: the retreats end; `retreat-from:N`: the first counter attacked at N% or more
    /// that can retreat does, the retreats end when none is left. None where the odds on a
    /// counter cannot be seen (an attacker the defender sees only as a blank).
    pub(super) fn retreat_before_answer(&self, name: &str, n: Option<&str>, legal: &[Action]) -> Option<Action> {
        let end = legal.iter().find(|a| matches!(a, Action::EndRetreats)).cloned()?;
        let from: u32 = match (name, n) {
            ("stand", None) => return Some(end),
            ("retreat-from", Some(n)) => n.parse().ok()?,
            _ => return None,
        };
        for a in legal {
            let Action::RetreatBefore { unit, .. } = a else { continue };
            let hex = self.hex_of(*unit)?;
            if self.best_odds_on(hex)? >= from {
                return Some(a.clone());
            }
        }
        Some(end)
    }

    /// The best odds of the attacks declared on `h`, in percent; none when an attacker is a
    /// blank to the view it is read on.
    fn best_odds_on(&self, h: Hex) -> Option<u32> {
        let mut best = 0;
        for a in self.attacks.iter().filter(|a| a.targets.contains(&h)) {
            if a.units.iter().any(|&u| self.units[u as usize].what == crate::games::leipzig::state::What::Blank) {
                return None;
            }
            let (att, _) = self.attack_strength(&a.units, a.supply.is_some(), a.sortie);
            let (def, _) =
                self.defense_strength(&a.targets, a.targets.iter().all(|&t| self.defender_could_supply(t)), a.river);
            best = best.max(Self::percent(att, def.max(1)));
        }
        Some(best)
    }
}
