//! Action 1, Lay out an Army Card, and "Place armies": an army card puts the army's troop markers on its
//! free villages (scout cards paying for missing markers); an army down to its last marker is
//! placed on that field, clearing it, with the cascade and the choice when two armies' last
//! markers share a field; in the advanced game ("Place an army") the owner names an army's unit.

use super::*;

/// Every choice of `k` items of `items`, in order.
fn combinations<T: Copy>(items: &[T], k: usize) -> Vec<Vec<T>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, first);
            all.push(rest);
        }
    }
    all
}

impl Botn {
    /// The free villages of an army card (those not holding an army); an army has at most 20.
    pub fn free_villages(&self, army: ArmyId) -> smallvec::SmallVec<[SpaceId; 8]> {
        self.sc.armies[army as usize].villages.iter().copied().filter(|&v| self.army_at(v).is_none()).collect()
    }

    /// The date an army's card waits for, while the time indicator has not passed it.
    fn too_early(&self, army: ArmyId) -> Option<u8> {
        self.sc.armies[army as usize].date_index.filter(|&d| self.time <= d)
    }

    pub(super) fn check_army_card(&self, army: ArmyId, skip: &[SpaceId]) -> Result<(), BotnError> {
        let def = &self.sc.armies.get(army as usize).ok_or_else(no_such_thing)?.def;
        // The name only for a refusal: the legal list checks every choice of villages.
        let name = || def.name.clone();
        if def.side != self.active {
            return Err(no_such_thing());
        }
        let state = &self.armies[army as usize];
        if state.card_played {
            return Err(BotnError::new(
                rule::ARMY_CARD,
                format!("the army card of {army} has already been laid out", army = name()),
            ));
        }
        if let Some(d) = self.too_early(army) {
            return Err(BotnError::new(
                rule::ARMY_CARD,
                format!(
                    "the army card of {army} may be laid out only after the time indicator has passed {date}",
                    army = name(),
                    date = self.sc.time[d as usize].label
                ),
            ));
        }
        let free = self.free_villages(army);
        if free.is_empty() {
            return Err(BotnError::new(
                rule::ARMY_CARD,
                format!("every village of {army}'s card holds an army: no marker can be placed", army = name()),
            ));
        }
        // The villages left out are named in the card's order (one choice, one listed action).
        let mut last = None;
        for s in skip {
            let pos = free.iter().position(|f| f == s);
            if pos.is_none() || pos <= last {
                return Err(BotnError::new(
                    rule::ARMY_CARD,
                    format!(
                        "{field} is not a free village of {army}'s army card, or is named twice or out of the card's order",
                        army = name(),
                        field = self.field_label(*s)
                    ),
                ));
            }
            last = pos;
        }
        let have = self.supply_count(army);
        let missing = free.len().saturating_sub(have);
        let scouts = self.scouts_in_hand(self.active);
        if skip.len() != missing || missing > scouts {
            return Err(BotnError::new(
                rule::ARMY_CARD,
                format!(
                    "{army} needs {needed} markers but has {have}; leave out {missing} villages with scout cards (you hold {scouts})",
                    army = name(),
                    needed = free.len()
                ),
            ));
        }
        Ok(())
    }

    /// 1. The army cards that may be laid out now, with every choice of villages left out.
    pub(super) fn push_army_cards(&self, holders: &super::movement_card::Holders, out: &mut Vec<Action>) {
        let side = self.active;
        let scouts = self.scouts_in_hand(side);
        let mut free: smallvec::SmallVec<[SpaceId; 8]> = smallvec::SmallVec::new();
        let (held, supply) = (holders.held(), &holders.supply);
        for (i, a) in self.sc.armies.iter().enumerate() {
            let army = i as ArmyId;
            if a.def.side != side || self.armies[i].card_played || self.too_early(army).is_some() {
                continue;
            }
            // `free_villages`, read from the fields' holders.
            free.clear();
            free.extend(a.villages.iter().copied().filter(|&v| held.army_on(v).is_none()));
            let missing = free.len().saturating_sub(supply[i] as usize);
            if free.is_empty() || missing > scouts {
                continue;
            }
            // With missing markers the player chooses which villages to leave out: every choice
            // of `missing` villages among the free ones, in the card's order, is listed (at most
            // 4 choose 2): each is what `check_army_card` accepts.
            if missing == 0 {
                // The usual case, without making the list of one empty choice.
                out.push(Action::LayOutArmyCard { army, skip: Vec::new() });
                continue;
            }
            for skip in combinations(&free, missing) {
                out.push(Action::LayOutArmyCard { army, skip });
            }
        }
    }

    pub(super) fn apply_army_card(&mut self, army: ArmyId, skip: &[SpaceId], events: &mut Vec<Event>) -> bool {
        let mut commit = false;
        for _ in skip {
            commit |= self.play_scout(events);
        }
        let free = self.free_villages(army);
        let supply = self.markers_in_supply(army);
        let fields: Vec<SpaceId> = free.into_iter().filter(|f| !skip.contains(f)).collect();
        for (&m, &f) in supply.iter().zip(&fields) {
            self.markers[m as usize].at = Some(f);
        }
        self.armies[army as usize].card_played = true;
        self.army_card_this_turn = true;
        events.push(Event::ArmyCardLaidOut { army, fields, scouts: skip.len() as u8 });
        commit | self.place_armies(events)
    }

    /// Place armies: every army down to one marker becomes the army on that field, clearing it;
    /// repeated until none is left (the cascade may place the other side's armies too).
    /// When two armies have their last marker on the same field, only one may be placed there
    /// ("Only one Army may be placed on each field"): the active player, who checks the cascade,
    /// chooses which (`Step::PlaceArmy`); the other's last marker is cleared with the field.
    pub(super) fn place_armies(&mut self, events: &mut Vec<Event>) -> bool {
        let mut commit = false;
        loop {
            let due = self.armies_due();
            let Some(&(army, field)) = due.first() else { break };
            let rivals = due.iter().filter(|(_, f)| *f == field).map(|(a, _)| *a);
            if rivals.clone().count() > 1 {
                self.placing = rivals.collect();
                self.step = Step::PlaceArmy;
                return true;
            }
            commit |= self.place_army(army, field, events);
        }
        if !self.pending_units.is_empty() {
            self.step = Step::ChooseUnit;
        }
        commit
    }

    /// Armies down to their last marker on the board, with its field, in army order.
    fn armies_due(&self) -> smallvec::SmallVec<[(ArmyId, SpaceId); 8]> {
        // Each army's markers on the board and the field of its last one, read in one pass (on
        // the stack: army numbers stay below 128, and this is asked after most actions).
        let mut on_board = [(0u8, None); 128];
        for m in &self.markers {
            if let Some(at) = m.at {
                let (n, field) = &mut on_board[m.army as usize];
                *n += 1;
                *field = Some(at);
            }
        }
        let waiting =
            |(a, s): (usize, &ArmyState)| s.card_played && s.at.is_none() && !s.eliminated && on_board[a].0 == 1;
        let due = self.armies.iter().enumerate().filter(|&x| waiting(x));
        due.map(|(a, _)| (a as ArmyId, on_board[a].1.expect("one marker"))).collect()
    }

    /// Exchanges `army`'s last marker on `field` for the army: the field is cleared, points, a
    /// scout card and time for an own army; armies left with no marker go out of play.
    fn place_army(&mut self, army: ArmyId, field: SpaceId, events: &mut Vec<Event>) -> bool {
        let mut commit = false;
        let cleared: Vec<MarkerId> = self.markers_at(field).collect();
        for &m in &cleared {
            let ms = &mut self.markers[m as usize];
            ms.at = None;
            ms.removed = true;
        }
        self.armies[army as usize].at = Some(field);
        let side = self.army_side(army);
        let own = side == self.active;
        let mut scout = false;
        if own {
            self.vp[side.index()] = (self.vp[side.index()] + 1).min(self.sc.victory_points);
            if self.scout_supply > 0 {
                self.scout_supply -= 1;
                self.hands[side.index()].push(HandCard::Scout);
                scout = true;
            }
        }
        events.push(Event::ArmyPlaced { army, field, cleared: cleared.len() as u8, own, scout });
        if own {
            commit |= self.advance_time(1, events);
        }
        if self.sc.armies[army as usize].def.unit == UnitType::All {
            self.pending_units.push(army);
        }
        // An army whose last markers were all cleared away can never be placed: out of play.
        for a in 0..self.armies.len() as ArmyId {
            let s = &self.armies[a as usize];
            if s.card_played && s.at.is_none() && !s.eliminated && self.markers_on_board(a).count() == 0 {
                self.armies[a as usize].eliminated = true;
                events.push(Event::ArmyLost { army: a });
            }
        }
        commit
    }

    /// Two armies' last markers share a field: which one is placed.
    pub(super) fn legal_place_army(&self, out: &mut Vec<Action>) {
        out.extend(self.placing.iter().map(|&army| Action::PlaceArmy { army }));
    }

    pub(super) fn check_place_army(&self, army: ArmyId) -> Result<(), BotnError> {
        if self.step != Step::PlaceArmy {
            return Err(self.wrong_step("choosing the army placed"));
        }
        if !self.placing.contains(&army) {
            return Err(BotnError::new(
                rule::ONE_ARMY,
                format!(
                    "{army} is not one of the armies whose last marker shares the field",
                    army = self.army_label(army)
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn apply_place_army(&mut self, army: ArmyId, events: &mut Vec<Event>) -> bool {
        let (_, field) = self.markers_on_board(army).next().expect("checked: down to one marker");
        self.placing.clear();
        self.step = Step::Actions;
        let mut commit = self.place_army(army, field, events);
        commit |= self.place_armies(events);
        if self.step == Step::Actions {
            commit |= self.after_action(events);
        }
        commit
    }

    /// Advanced game, "Place an army": the unit type of an army that may be any.
    pub(super) fn legal_choose_unit(&self, out: &mut Vec<Action>) {
        let army = self.pending_units[0];
        for unit in [UnitType::Infantry, UnitType::Cavalry, UnitType::Artillery] {
            out.push(Action::ChooseUnit { army, unit });
        }
    }

    pub(super) fn check_choose_unit(&self, army: ArmyId, unit: UnitType) -> Result<(), BotnError> {
        if self.step != Step::ChooseUnit {
            return Err(self.wrong_step("choosing a unit type"));
        }
        if self.pending_units.first() != Some(&army) || unit == UnitType::All {
            return Err(BotnError::new(
                rule::FURTHER,
                format!(
                    "{army} is not waiting for its unit type, or {unit} is not a unit type",
                    army = self.army_label(army),
                    unit = unit.name()
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn apply_choose_unit(&mut self, army: ArmyId, unit: UnitType, events: &mut Vec<Event>) -> bool {
        self.armies[army as usize].chosen_unit = Some(unit);
        self.pending_units.remove(0);
        events.push(Event::UnitChosen { army, unit });
        if self.pending_units.is_empty() {
            self.step = Step::Actions;
            return self.after_action(events);
        }
        false
    }
}

impl Botn {
    /// A position a sandbox takes back to the rules: only one army on each field.
    pub(super) fn refuse_shared_fields(&self) -> Result<(), BotnError> {
        let mut seen = std::collections::HashSet::new();
        for a in self.armies.iter().filter(|a| !a.eliminated) {
            if let Some(f) = a.at
                && !seen.insert(f)
            {
                return Err(BotnError::new(rule::ONE_ARMY, format!("two armies stand on {}", self.sc.field_name(f))));
            }
        }
        Ok(())
    }
}
