//! Stacking and Unit Breakdown: breaking down before movement, recombining, and which stacks may
//! end a Movement Phase.

use super::movement::combinations;
use super::zoc::Situation;
use crate::games::leipzig::actions::Event;
use crate::games::leipzig::actions::{Action, LzError, rule};
use crate::games::leipzig::data::{Hex, Kind, Side};
use crate::games::leipzig::state::Step;
use crate::games::leipzig::state::{Leipzig, March, Status, UnitId, What};

impl Leipzig {
    /// Whether `u` joining the counters on `h` would make exactly a set that builds up into a
    /// larger counter, each with a Movement Point left (Stacking, case B I).
    pub(super) fn buildable_with(&self, h: Hex, u: UnitId) -> bool {
        let Some(t) = self.ty(u) else { return false };
        let Some((_, n)) =
            self.sc.types.iter().find_map(|p| p.breaks_into.as_ref().filter(|(c, _)| *c == t.id).map(|x| (p, x.1)))
        else {
            return false;
        };
        let side = self.units[u as usize].side;
        let same: Vec<UnitId> = self.combat_at(h).collect();
        same.len() + 1 == n as usize
            && same.iter().all(|&x| {
                self.units[x as usize].what == self.units[u as usize].what
                    && self.units[x as usize].side == side
                    && self.movement(x) > self.units[x as usize].spent
            })
    }

    /// Breakdowns open to a counter now: before any movement, one MP a step (Stacking and Unit
    /// Breakdown; Supply, case E for a depot).
    pub fn can_break_down(&self, u: UnitId) -> bool {
        let Some(t) = self.ty(u) else { return false };
        let Some((_, n)) = &t.breaks_into else { return false };
        let unit = &self.units[u as usize];
        unit.on_map()
            && unit.side == self.side
            && !self.moved_any
            && !unit.moved
            && unit.dispersed.is_none()
            && !self.garrison_neutral(u)
            && t.movement > unit.spent
            && (t.kind != Kind::Depot || self.supply_available(unit.side) >= *n as usize)
    }

    pub fn apply_breakdown(&mut self, u: UnitId, ev: &mut Vec<Event>) -> Vec<UnitId> {
        let into = self.split(u, 1);
        ev.push(Event::BrokeDown { unit: u, into: into.clone() });
        into
    }

    /// Replaces a counter by the counters it breaks into, on its hex, `cost` MP spent.
    pub fn split(&mut self, u: UnitId, cost: u8) -> Vec<UnitId> {
        let t = self.ty(u).expect("a counter type").clone();
        let (child, n) = t.breaks_into.clone().expect("it breaks down");
        let child_t = self.sc.type_index(&child).expect("checked on load");
        let parent = self.units[u as usize].clone();
        self.units[u as usize].status = Status::Gone(crate::games::leipzig::state::Gone::Replaced);
        let mut out = Vec::new();
        for _ in 0..n {
            let id = self.add_unit(parent.side, What::Type(child_t), Status::OnMap);
            let c = &mut self.units[id as usize];
            c.hex = parent.hex;
            c.spent = parent.spent.saturating_add(cost);
            c.attacked = parent.attacked;
            c.dispersed = parent.dispersed;
            c.revealed = parent.revealed && parent.side == Side::French;
            c.gotha = parent.gotha;
            c.garrison = parent.garrison;
            c.austrian = parent.austrian;
            c.moved = parent.moved;
            out.push(id);
        }
        out
    }

    /// Every set of stacked counters that may be combined now, each with a Movement Point left:
    /// before any movement, or at the end of the Movement Phase (Stacking and Unit Breakdown).
    pub fn build_sets(&self) -> Vec<Vec<UnitId>> {
        if self.step != crate::games::leipzig::state::Step::Build && self.moved_any {
            return Vec::new();
        }
        self.recombinations()
    }

    /// Every set of stacked counters that could be combined once all movement has ceased:
    /// "they may be recombined at the end of a Movement Phase" (Stacking and Unit Breakdown),
    /// whatever has moved before.
    pub fn recombinations(&self) -> Vec<Vec<UnitId>> {
        let mut out = Vec::new();
        // The phasing side's counters grouped by hex (in id order within a hex), found once.
        let mut mine: Vec<(Hex, UnitId)> =
            self.on_map(self.side).filter_map(|u| self.units[u as usize].hex.map(|h| (h, u))).collect();
        mine.sort_unstable();
        let children = self.buildable_children();
        for group in mine.chunk_by(|a, b| a.0 == b.0) {
            let here: Vec<UnitId> = group.iter().map(|&(_, u)| u).collect();
            self.recombinations_of(&here, &children, &mut out);
        }
        out
    }

    /// The sets of the phasing side's counters on `h` that may be combined (see `recombinations`).
    fn recombinations_at(&self, h: Hex) -> Vec<Vec<UnitId>> {
        let here: Vec<UnitId> = self.at(h).filter(|&u| self.units[u as usize].side == self.side).collect();
        let mut out = Vec::new();
        self.recombinations_of(&here, &self.buildable_children(), &mut out);
        out
    }

    /// For each type that may be built up (not a depot), the type of its pieces and how many make it.
    fn buildable_children(&self) -> Vec<(u8, usize)> {
        self.sc
            .types
            .iter()
            .filter(|p| p.kind != Kind::Depot) // depots may not be built
            .filter_map(|p| {
                let (child, n) = p.breaks_into.as_ref()?;
                Some((self.sc.type_index(child)?, *n as usize))
            })
            .collect()
    }

    /// The sets among `here` (the phasing side's counters on one hex) that may be combined.
    fn recombinations_of(&self, here: &[UnitId], children: &[(u8, usize)], out: &mut Vec<Vec<UnitId>>) {
        for &(ci, n) in children {
            let ready: Vec<UnitId> = here
                .iter()
                .copied()
                .filter(|&u| {
                    let x = &self.units[u as usize];
                    x.what == What::Type(ci)
                        && x.dispersed.is_none()
                        && self.movement(u) > x.spent
                        && !self.garrison_neutral(u)
                })
                .collect();
            combinations(&ready, n, out);
        }
    }

    pub fn apply_build(&mut self, units: &[UnitId], ev: &mut Vec<Event>) -> UnitId {
        let child = self.ty(units[0]).expect("a type").id.clone();
        let parent = self
            .sc
            .types
            .iter()
            .position(|p| p.breaks_into.as_ref().is_some_and(|(c, _)| *c == child))
            .expect("buildable") as u8;
        let first = self.units[units[0] as usize].clone();
        let spent = units.iter().map(|&u| self.units[u as usize].spent).max().unwrap_or(0).saturating_add(1);
        for &u in units {
            self.units[u as usize].status = Status::Gone(crate::games::leipzig::state::Gone::Replaced);
        }
        let id = self.add_unit(first.side, What::Type(parent), Status::OnMap);
        let moved = units.iter().any(|&u| self.units[u as usize].moved);
        let attacked = units.iter().any(|&u| self.units[u as usize].attacked);
        let c = &mut self.units[id as usize];
        c.hex = first.hex;
        c.spent = spent;
        c.moved = moved;
        c.attacked = attacked;
        c.gotha = first.gotha;
        c.austrian = first.austrian;
        ev.push(Event::BuiltUp { from: units.to_vec(), into: id });
        id
    }

    /// Stacks of the phasing side that break the stacking rule and have a counter that could
    /// still move away (Stacking, case B): the Movement Phase may not end while one remains.
    pub fn unfixed_stack(&self) -> Option<Hex> {
        self.unfixed_stack_in(&Situation::as_seen_by(self, self.side))
    }

    /// `unfixed_stack` on the map as the phasing side sees it, already built.
    pub(super) fn unfixed_stack_in(&self, s: &Situation) -> Option<Hex> {
        // Only the hexes the phasing side's combat units stand on can hold such a stack: those,
        // in the map's order (the first found is the one named), rather than the whole map.
        let mut stacks: smallvec::SmallVec<[Hex; 64]> =
            self.on_map(self.side).filter(|&u| self.is_combat(u)).filter_map(|u| self.hex_of(u)).collect();
        stacks.sort_unstable();
        stacks.dedup();
        for h in stacks {
            let i = h.0 as usize;
            if s.side[i] != Some(self.side)
                || s.combat[i] < 2
                || s.stack_ok(self, self.side, h, s.combat[i], s.divisions[i])
                || self.combines_whole(h)
            {
                continue;
            }
            if self.combat_at(h).any(|u| !self.destinations(s, u, March::Normal).is_empty()) {
                return Some(h);
            }
        }
        None
    }

    /// Whether the combat units on `h` are, all of them, one of `sets`: combined at the end of
    /// the Movement Phase they make a single counter (Stacking, case B I).
    fn combines_whole(&self, h: Hex) -> bool {
        let here: Vec<UnitId> = self.combat_at(h).collect();
        self.recombinations_at(h).contains(&here)
    }

    /// A stack that may not stay as it is and is waiting to be combined: neither in supply nor in
    /// a fortress, its combat units a set that recombines (Stacking, case B: "a stack left
    /// neither recombined nor supplied is not legal").
    pub fn stack_to_combine(&self) -> Option<Hex> {
        // On what the phasing side knows, as `unfixed_stack`: a supply line may run past a blank.
        self.stack_to_combine_in(&Situation::as_seen_by(self, self.side))
    }

    /// `stack_to_combine` on the map as the phasing side sees it, already built.
    pub(super) fn stack_to_combine_in(&self, s: &Situation) -> Option<Hex> {
        (0..self.sc.board.len() as u16).map(Hex).find(|&h| {
            let i = h.0 as usize;
            s.side[i] == Some(self.side)
                && s.combat[i] > 1
                && !s.stack_ok(self, self.side, h, s.combat[i], s.divisions[i])
                && self.combines_whole(h)
        })
    }
}

// The legal listing and the refusals of this chapter.
impl Leipzig {
    /// The recombinations open at the end of the Movement Phase, and its end where no stack must
    /// combine.
    pub(super) fn list_build(&self, s: &Situation, out: &mut Vec<Action>) {
        out.extend(self.build_sets().into_iter().map(|units| Action::Build { units }));
        if self.stack_to_combine_in(s).is_none() {
            out.push(Action::EndBuild);
        }
    }

    pub(super) fn refuse_breakdown(&self) -> LzError {
        LzError::new(
            rule::STACKING,
            "units break down before any movement and recombine at the beginning or end of the Movement Phase, one Movement Point each, stacked together",
        )
    }

    /// Why the recombinations may not end: a stack out of supply and out of a fortress.
    pub(super) fn refuse_end_build(&self) -> LzError {
        LzError::new(
            rule::STACKING,
            format!(
                "the stack on {} is neither in supply nor in a fortress: combine it before the Movement Phase ends",
                self.sc.board.label(self.stack_to_combine().expect("checked"))
            ),
        )
    }

    /// Why the Movement Phase may not end: a stack that may not stay as it is.
    pub(super) fn refuse_end_movement(&self) -> LzError {
        match self.unfixed_stack() {
            Some(h) if self.step == Step::Move => LzError::new(
                rule::STACKING,
                format!(
                    "the stack on {} may not end the Movement Phase: move a unit off, bring a supply unit next to it, or combine it",
                    self.sc.board.label(h)
                ),
            ),
            _ => self.not_now("ending the Movement Phase"),
        }
    }
}

impl Leipzig {
    /// The stacks of a position a sandbox takes back to the rules: no hex shared by both sides,
    /// every stack within the limit (case B), but the phasing side's while its Movement Phase
    /// runs: it must set them right before the phase ends, as the rules already make it.
    pub(super) fn refuse_stacks(&self) -> Result<(), LzError> {
        let s = Situation::of(self);
        for h in (0..self.sc.board.len() as u16).map(Hex) {
            let mut sides = self.at(h).map(|u| self.units[u as usize].side);
            if let Some(first) = sides.next()
                && sides.any(|x| x != first)
            {
                return Err(LzError::new(
                    rule::STACKING,
                    format!("French and Allied counters share {}", self.hex_name(h)),
                ));
            }
            let i = h.0 as usize;
            let Some(side) = s.side[i] else { continue };
            let moving = side == self.side && matches!(self.step, Step::Move | Step::March | Step::Build);
            if !moving && !s.stack_ok(self, side, h, s.combat[i], s.divisions[i]) {
                return Err(LzError::new(
                    rule::STACKING,
                    format!("the stack on {} is over the limit", self.hex_name(h)),
                ));
            }
        }
        Ok(())
    }
}
