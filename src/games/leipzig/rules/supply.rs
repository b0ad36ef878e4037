//! Supply: which units are in supply (stacked with or next to a supply unit; in a fortress), the
//! supply units an attack and a defence spend, and their consumption.

use super::zoc::Situation;
use crate::games::leipzig::actions::Event;
use crate::games::leipzig::actions::{Action, LzError, rule};
use crate::games::leipzig::data::{Hex, Kind, Side};
use crate::games::leipzig::state::Step;
use crate::games::leipzig::state::{Leipzig, Status, UnitId, What};

/// The supply units of `side` stacked with or adjacent to `h`, in id order.
pub fn supply_near(g: &Leipzig, side: Side, h: Hex) -> Vec<UnitId> {
    let b = &g.sc.board;
    g.on_map(side)
        .filter(|&u| g.is_supply(u))
        .filter(|&u| g.units[u as usize].hex.is_some_and(|s| s == h || b.adjacent(s, h)))
        .collect()
}

/// Hexes of `side` holding a stack that needs a supply unit to stay stacked.
pub fn stacks_needing_supply(g: &Leipzig, s: &Situation, side: Side) -> Vec<Hex> {
    let b = &g.sc.board;
    (0..b.len() as u16)
        .map(Hex)
        .filter(|&h| s.side[h.0 as usize] == Some(side) && s.combat[h.0 as usize] > 1)
        .filter(|&h| !(b.is_fortress(h) && s.divisions[h.0 as usize] <= g.sc.charts.terrain.fortress_capacity as u16))
        .collect()
}

/// The stacks that only supply unit `u` supports (it may not leave them unsupported).
pub fn only_support(g: &Leipzig, s: &Situation, u: UnitId) -> Vec<Hex> {
    let side = g.units[u as usize].side;
    let Some(at) = g.hex_of(u) else { return Vec::new() };
    let b = &g.sc.board;
    stacks_needing_supply(g, s, side)
        .into_iter()
        .filter(|&h| h == at || b.adjacent(h, at))
        .filter(|&h| supply_near(g, side, h).iter().all(|&x| x == u))
        .collect()
}

/// The kind of supply a unit is (for choosing which one a stack uses up).
pub fn supply_rank(g: &Leipzig, u: UnitId) -> u8 {
    match g.kind(u) {
        Some(Kind::Supply) => 0,
        _ => 1,
    }
}

impl Leipzig {
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

    /// The supply units that keep each stack together this turn, stack by stack: one already
    /// used up (for combat, a march, or chosen for another stack) where there is one, else the
    /// only one near it. Returns them, or the first choice the player has to make: the stack's
    /// hex and the supply units he may use up for it (Supply, C).
    pub fn stack_supply(&self) -> Result<Vec<UnitId>, (Hex, Vec<UnitId>)> {
        let s = Situation::of(self);
        let mut used: Vec<UnitId> = Vec::new();
        for h in stacks_needing_supply(self, &s, self.side) {
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

    /// Supply units in play (on the map) of a side.
    pub fn supply_in_play(&self, side: Side) -> usize {
        self.on_map(side).filter(|&u| self.kind(u) == Some(Kind::Supply)).count()
    }

    /// Supply units a side may still bring into play (ten in each colour, less those lost in combat).
    pub fn supply_available(&self, side: Side) -> usize {
        (self.sc.supply_units as usize)
            .saturating_sub(self.supply_lost[side.index()] as usize + self.supply_in_play(side))
    }
}

// The legal listing and the refusals of this chapter.
impl Leipzig {
    /// The defender's supply for the next attacked hex: none, or one of the supply units that
    /// may give it.
    pub(super) fn list_defend_supply(&self, out: &mut Vec<Action>) {
        if let Some((hex, supplies)) = self.next_defense() {
            out.push(Action::DefendSupply { hex, supply: None });
            out.extend(supplies.into_iter().map(|s| Action::DefendSupply { hex, supply: Some(s) }));
        }
    }

    /// The supply units a stack that used supply may give up.
    pub(super) fn list_consume(&self, out: &mut Vec<Action>) {
        if let Err((_, near)) = self.stack_supply() {
            out.extend(near.into_iter().map(|unit| Action::UseSupply { unit }));
        }
    }

    pub(super) fn refuse_use_supply(&self) -> LzError {
        match self.stack_supply() {
            Err((h, _)) if self.step == Step::Consume => LzError::new(
                rule::SUPPLY,
                format!("the stack on {} uses up one of the supply units on or next to it", self.sc.board.label(h)),
            ),
            _ => self.not_now("choosing a supply unit"),
        }
    }
}

// A standing order's answer (issue 32), on the defender's view.
impl Leipzig {
    /// `supply`: the first supply unit that may give the next attacked hex its supply (none
    /// where none may); `none`: no supply unit.
    pub(super) fn defence_supply_answer(&self, name: &str, legal: &[Action]) -> Option<Action> {
        let none = || legal.iter().find(|a| matches!(a, Action::DefendSupply { supply: None, .. })).cloned();
        match name {
            "supply" => {
                legal.iter().find(|a| matches!(a, Action::DefendSupply { supply: Some(_), .. })).cloned().or_else(none)
            }
            "none" => none(),
            _ => None,
        }
    }
}
