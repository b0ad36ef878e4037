//! "Time bar and scoring", the fights of 16.10. and 18.10.: when the time indicator reaches a
//! fight date, every placed army touching an enemy deals one point; the defender allocates a
//! point that could strike several of his armies; losses flip an army, then cost "-1" chips.

use super::*;

impl Botn {
    /// The label of the next fight date if the time indicator has reached or passed it.
    pub(super) fn fight_due(&self) -> Option<String> {
        let (i, space) = self.sc.time.iter().enumerate().filter(|(_, t)| t.fight).nth(self.fights_done as usize)?;
        (self.time as usize >= i).then(|| space.label.clone())
    }

    /// Every placed army touching an enemy deals one point: straight to the enemy when it touches
    /// one, held as a `Hit` for the defender to allocate when it touches several.
    pub(super) fn begin_fight(&mut self, date: String, events: &mut Vec<Event>) {
        self.damage = vec![0; self.armies.len()];
        self.hits.clear();
        let involved = (0..self.armies.len() as ArmyId).filter(|&a| !self.enemies_touching(a).is_empty()).count();
        events.push(Event::FightBegan { date, armies: involved as u8 });
        for attacker in 0..self.armies.len() as ArmyId {
            let targets = self.enemies_touching(attacker);
            match targets.as_slice() {
                [] => {}
                [target] => {
                    self.damage[*target as usize] += 1;
                    events.push(Event::Hit { attacker, target: *target, chosen: false });
                }
                _ => self.hits.push(Hit { attacker, targets }),
            }
        }
    }

    /// Losses are taken together once every hit is allocated: the first point flips the army, each
    /// further point is a "-1" chip; below strength one the army leaves the board.
    pub(super) fn resolve_fight(&mut self, events: &mut Vec<Event>) {
        for army in 0..self.armies.len() as ArmyId {
            let points = self.damage[army as usize];
            if points == 0 {
                continue;
            }
            let st = &mut self.armies[army as usize];
            st.strength -= points as i8;
            for _ in 0..points {
                if !st.flipped {
                    st.flipped = true;
                } else {
                    // The separate chips, then the "-1" backs of the army's own troop markers.
                    st.chips += 1;
                    self.minus_one_supply = self.minus_one_supply.saturating_sub(1);
                }
            }
            let (strength, flipped, chips) = (st.strength, st.flipped, st.chips);
            events.push(Event::ArmyDamaged { army, points, strength, flipped, chips });
            if strength < 1 {
                let st = &mut self.armies[army as usize];
                let field = st.at.take().expect("only placed armies fight");
                st.eliminated = true;
                self.minus_one_supply = (self.minus_one_supply + st.chips).min(self.sc.minus_one_chips);
                events.push(Event::ArmyRemoved { army, field });
            }
        }
        self.damage.clear();
        events.push(Event::FightEnded);
    }

    /// The hit being allocated: each army it may strike.
    pub(super) fn legal_hits(&self, out: &mut Vec<Action>) {
        let hit = &self.hits[0];
        out.extend(hit.targets.iter().map(|&target| Action::AllocateHit { attacker: hit.attacker, target }));
    }

    pub(super) fn check_allocate_hit(&self, attacker: ArmyId, target: ArmyId) -> Result<(), BotnError> {
        if self.step != Step::Fight {
            return Err(self.wrong_step("allocating a fight's damage"));
        }
        let hit = &self.hits[0];
        if hit.attacker != attacker || !hit.targets.contains(&target) {
            return Err(BotnError::new(
                rule::FIGHT,
                format!(
                    "{attacker}'s point of damage is not the one being allocated, or {target} does not touch it",
                    attacker = self.army_label(attacker),
                    target = self.army_label(target)
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn apply_allocate_hit(&mut self, attacker: ArmyId, target: ArmyId, events: &mut Vec<Event>) -> bool {
        self.hits.remove(0);
        self.damage[target as usize] += 1;
        events.push(Event::Hit { attacker, target, chosen: true });
        if !self.hits.is_empty() {
            return false;
        }
        self.resolve_fight(events);
        self.step = Step::Actions;
        self.finish_turn(events)
    }
}

impl Botn {
    /// A sandbox going back to the rules: no fight or choice of unit under way (the armies they
    /// name may have been moved by hand since).
    pub(super) fn refuse_half_fought(&self) -> Result<(), BotnError> {
        if !self.hits.is_empty() || !self.pending_units.is_empty() {
            return Err(BotnError::new(
                rule::FIGHT,
                "a fight or a choice of unit is under way: finish it before the rules take over again",
            ));
        }
        Ok(())
    }
}
