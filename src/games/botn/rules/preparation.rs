//! Preparation (rulebook "Preparation"): the table set up, and Napoléon's missions drafted — one
//! mission card per district dealt, then twice a second card from a district of his choice, of
//! which he keeps one.

use super::*;

/// Sets the table up as the rulebook's Preparation section says.
pub fn setup(sc: Arc<Scenario>, seed: u64) -> (Botn, Vec<Event>) {
    let mut rng = TableRng::from_seed(seed);
    let mut events = Vec::new();
    // Mission cards shuffled by district; Napoléon receives one from each.
    let mut mission_piles = Vec::new();
    let mut missions = Vec::new();
    for d in District::ALL {
        let mut pile: Vec<MissionId> =
            sc.missions.iter().enumerate().filter(|(_, m)| m.def.district == d).map(|(i, _)| i as MissionId).collect();
        rng.shuffle(&mut pile);
        missions.push(pile.pop().expect("each district has missions (checked on load)"));
        mission_piles.push(pile);
    }
    events.push(Event::MissionsDealt { count: missions.len() as u8 });
    // Action cards shuffled, 4 to each player, 4 face up, the rest the blind pile.
    let mut pile: Vec<CardId> = (0..sc.action_cards.len() as CardId).collect();
    rng.shuffle(&mut pile);
    let mut hands: [Vec<HandCard>; 2] = [Vec::new(), Vec::new()];
    for hand in hands.iter_mut() {
        for _ in 0..START_HAND {
            hand.push(HandCard::Action(pile.pop().expect("deck size checked on load")));
        }
    }
    let face_up = (0..FACE_UP).filter_map(|_| pile.pop()).collect();
    let mut markers = Vec::new();
    let mut armies = Vec::new();
    for (i, a) in sc.armies.iter().enumerate() {
        for _ in 0..a.def.markers {
            markers.push(MarkerState { army: i as ArmyId, at: None, removed: false });
        }
        armies.push(ArmyState {
            card_played: false,
            at: None,
            strength: a.def.strength as i8,
            flipped: false,
            chosen_unit: None,
            eliminated: false,
            chips: 0,
        });
    }
    let game = Botn {
        rng,
        step: Step::MissionDraft,
        active: Side::French, // Napoléon is starting player.
        turn: 1,
        actions_left: ACTIONS_PER_TURN,
        had_first_turn: [false; 2],
        army_card_this_turn: false,
        time: 0, // the pocket watch, directly in front of 14.10.
        vp: [0; 2],
        armies,
        markers,
        hands,
        scout_supply: sc.scout_cards,
        minus_one_supply: sc.minus_one_chips,
        draw_pile: pile,
        face_up,
        discard: Vec::new(),
        out_of_game: Vec::new(),
        mission_piles,
        missions,
        revealed: 0,
        reveals_due: 0,
        placing: Vec::new(),
        draft_pair: Vec::new(),
        drafted: Vec::new(),
        pending_units: Vec::new(),
        fights_done: 0,
        damage: Vec::new(),
        hits: Vec::new(),
        score_choices: Vec::new(),
        assigned: Vec::new(),
        results: Vec::new(),
        stale_row_turns: 0,
        took_face_up: false,
        grey_cannon: None,
        sc,
    };
    (game, events)
}

impl Botn {
    /// The draft: a district to take a second card from, then the card kept of the pair.
    pub(super) fn legal_draft(&self, out: &mut Vec<Action>) {
        if self.draft_pair.is_empty() {
            for d in District::ALL {
                if !self.drafted.contains(&d) && !self.mission_piles[district_index(d)].is_empty() {
                    out.push(Action::DraftDistrict(d));
                }
            }
        } else {
            out.extend(self.draft_pair.iter().map(|&m| Action::KeepMission(m)));
        }
    }

    pub(super) fn check_draft_district(&self, d: District) -> Result<(), BotnError> {
        if self.step != Step::MissionDraft || !self.draft_pair.is_empty() {
            return Err(self.wrong_step("choosing a district"));
        }
        if self.drafted.contains(&d) || self.mission_piles[district_index(d)].is_empty() {
            return Err(BotnError::new(
                rule::PREPARATION,
                format!("district {d:?} has already given a second card or has none left"),
            ));
        }
        Ok(())
    }

    pub(super) fn check_keep_mission(&self, m: MissionId) -> Result<(), BotnError> {
        if self.step != Step::MissionDraft || self.draft_pair.is_empty() {
            return Err(self.wrong_step("keeping a mission card"));
        }
        if !self.draft_pair.contains(&m) {
            return Err(BotnError::new(
                rule::PREPARATION,
                "that mission card is not one of the pair being chosen from",
            ));
        }
        Ok(())
    }

    pub(super) fn apply_draft_district(&mut self, d: District, events: &mut Vec<Event>) -> bool {
        let pile = &mut self.mission_piles[district_index(d)];
        let second = pile.pop().expect("checked non-empty");
        let first_i = self
            .missions
            .iter()
            .position(|&m| self.sc.missions[m as usize].def.district == d)
            .expect("one per district");
        let first = self.missions.remove(first_i);
        self.draft_pair = vec![first, second];
        self.drafted.push(d);
        events.push(Event::SecondMission { district: d });
        true // a card drawn
    }

    pub(super) fn apply_keep_mission(&mut self, m: MissionId, events: &mut Vec<Event>) -> bool {
        let district = self.sc.missions[m as usize].def.district;
        self.missions.push(m);
        self.draft_pair.clear();
        events.push(Event::MissionKept { district });
        let piles_left = District::ALL
            .iter()
            .filter(|d| !self.drafted.contains(d) && !self.mission_piles[district_index(**d)].is_empty())
            .count();
        if self.drafted.len() == 2 || piles_left == 0 {
            // The left-over mission cards are removed from the game; play begins.
            self.mission_piles.iter_mut().for_each(Vec::clear);
            self.step = Step::Actions;
            events.push(Event::TurnBegan { side: Side::French, turn: 1 });
            return true;
        }
        false
    }
}
