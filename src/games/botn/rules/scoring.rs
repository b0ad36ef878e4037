//! "End of the game", "Scoring - Compare Army Strength", "Conditions to win the game" and
//! "Alternative conditions to win": each revealed mission is fulfilled or failed by the combat
//! values of the French army on it, its supporters and its opponents (the players choosing where an
//! army may count for two), and the return game with its grey cannon.

use super::*;

impl Botn {
    /// The army on each revealed mission field, if it is French.
    fn mission_armies(&self) -> Vec<ArmyId> {
        self.revealed_mission_fields()
            .iter()
            .filter_map(|&(_, f)| self.army_at(f))
            .filter(|&a| self.army_side(a) == Side::French)
            .collect()
    }

    /// The mission armies `army` may count for: an Allied army for each one it touches; a French
    /// army for each one it touches when an Allied army touches both (official FAQ).
    pub fn mission_options(&self, army: ArmyId) -> Vec<ArmyId> {
        let missions = self.mission_armies();
        if missions.contains(&army) || self.armies[army as usize].at.is_none() {
            return Vec::new();
        }
        let touching = self.enemies_touching(army);
        match self.army_side(army) {
            Side::Allied => missions.into_iter().filter(|m| touching.contains(m)).collect(),
            Side::French => {
                let Some(at) = self.armies[army as usize].at else { return Vec::new() };
                missions
                    .into_iter()
                    .filter(|&m| {
                        let m_at = self.armies[m as usize].at.expect("on its field");
                        self.sc.graph.adjacent(at, m_at)
                            && touching.iter().any(|&c| self.enemies_touching(c).contains(&m))
                    })
                    .collect()
            }
        }
    }

    /// Scoring begins: unambiguous armies are counted at once, Napoléon's choices come first, then
    /// Schwarzenberg's.
    pub(super) fn begin_scoring(&mut self, events: &mut Vec<Event>) {
        self.assigned = vec![None; self.armies.len()];
        self.score_choices.clear();
        for side in [Side::French, Side::Allied] {
            for army in 0..self.armies.len() as ArmyId {
                if self.army_side(army) != side {
                    continue;
                }
                let options = self.mission_options(army);
                match options.as_slice() {
                    [] => {}
                    [one] => {
                        self.assigned[army as usize] = Some(*one);
                        events.push(Event::Assigned { army, mission_army: *one, chosen: false });
                    }
                    _ => self.score_choices.push(ScoreChoice { army, options }),
                }
            }
        }
        if self.score_choices.is_empty() {
            self.score(events);
        } else {
            self.step = Step::Scoring;
        }
    }

    /// Compares the combat values mission by mission and moves the cannons on the victory point bar.
    fn score(&mut self, events: &mut Vec<Event>) {
        self.results.clear();
        for (mission, field) in self.revealed_mission_fields() {
            let army = self.army_at(field).filter(|&a| self.army_side(a) == Side::French);
            let counted = |side: Side| -> Vec<ArmyId> {
                (0..self.armies.len() as ArmyId)
                    .filter(|&a| self.army_side(a) == side && army.is_some() && self.assigned[a as usize] == army)
                    .collect()
            };
            let (support, opponents) = (counted(Side::French), counted(Side::Allied));
            let french: i16 = army.iter().chain(&support).map(|&a| self.combat_value(a)).sum();
            let allied: i16 = opponents.iter().map(|&a| self.combat_value(a)).sum();
            // Without a French army on the field the mission is lost ("also applies if there is
            // no French Army at all on the mission field"); a tie goes to Napoléon.
            let fulfilled = army.is_some() && french >= allied;
            let def = &self.sc.missions[mission as usize].def;
            let max = self.sc.victory_points;
            if fulfilled {
                self.vp[0] = self.vp[0].saturating_add(def.french).min(max);
            } else {
                self.vp[1] = self.vp[1].saturating_add(def.allied).min(max);
            }
            let result = MissionResult { mission, army, support, opponents, french, allied, fulfilled };
            events.push(Event::MissionScored(result.clone()));
            self.results.push(result);
        }
        events.push(Event::FinalScore { french: self.vp[0], allied: self.vp[1] });
        self.step = Step::GameOver;
    }

    /// Alternative conditions to win, after the return game: the side of this game whose player
    /// scored more as Napoléon (this game's Allied player was Napoléon in the first); None on a tie.
    pub fn match_winner(&self) -> Option<Option<Side>> {
        let first = self.grey_cannon?;
        if !self.is_over() {
            return None;
        }
        let now = self.vp[Side::French.index()];
        Some(match now.cmp(&first) {
            std::cmp::Ordering::Greater => Some(Side::French),
            std::cmp::Ordering::Less => Some(Side::Allied),
            std::cmp::Ordering::Equal => None,
        })
    }

    /// The army whose count is being chosen: each mission army it may count for.
    pub(super) fn legal_assign(&self, out: &mut Vec<Action>) {
        let c = &self.score_choices[0];
        out.extend(c.options.iter().map(|&m| Action::AssignToMission { army: c.army, mission_army: m }));
    }

    pub(super) fn check_assign(&self, army: ArmyId, mission_army: ArmyId) -> Result<(), BotnError> {
        if self.step != Step::Scoring {
            return Err(self.wrong_step("assigning an army at the final scoring"));
        }
        let c = &self.score_choices[0];
        if c.army != army || !c.options.contains(&mission_army) {
            return Err(BotnError::new(
                rule::SCORING,
                format!("{army} cannot count for the army on that mission field", army = self.army_label(army)),
            ));
        }
        Ok(())
    }

    pub(super) fn apply_assign(&mut self, army: ArmyId, mission_army: ArmyId, events: &mut Vec<Event>) -> bool {
        self.score_choices.remove(0);
        self.assigned[army as usize] = Some(mission_army);
        events.push(Event::Assigned { army, mission_army, chosen: true });
        if self.score_choices.is_empty() {
            self.score(events);
            return true;
        }
        false
    }

    /// The return game's grey cannon is set before anything else is done.
    pub(super) fn check_grey_cannon(&self, french_points: u8) -> Result<(), BotnError> {
        let fresh = self.step == Step::MissionDraft && self.drafted.is_empty() && self.draft_pair.is_empty();
        if !fresh || self.grey_cannon.is_some() || french_points > self.sc.victory_points {
            return Err(BotnError::new(
                rule::ALTERNATIVE,
                format!(
                    "the grey cannon is set only before the return game begins, to at most {max} points",
                    max = self.sc.victory_points
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn apply_grey_cannon(&mut self, french_points: u8, events: &mut Vec<Event>) -> bool {
        self.grey_cannon = Some(french_points);
        events.push(Event::GreyCannonSet { french_points });
        false
    }
}
