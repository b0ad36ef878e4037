//! What a seat may see of a Battle of the Nations table: the one gate for hidden information.
//! The panels, the entity mirror and the computer players read the game only through a
//! `BotnView`; a computer player that looks ahead fills in what it cannot see by sampling it
//! (`BotnView::sample`), never by reading the real table.

use super::data::{District, Scenario, Side};
use super::state::{
    ArmyId, ArmyState, Botn, CardId, HandCard, Hit, MarkerState, MissionId, MissionResult, ScoreChoice, Step, seat_of,
};
use crate::engine::rng::TableRng;
use crate::engine::rules::Shared;
use crate::engine::seats::{SeatId, Viewer, Visibility};
use serde::Serialize;

/// The table as one viewer may see it. Public state as it is; a hand card, a mission card or a
/// drafted pair is `None` where the viewer may not see its face; the draw pile and the districts'
/// mission piles are counts (their order and contents are nobody's to see).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct BotnView {
    #[serde(skip)]
    pub sc: Shared<Scenario>,
    pub viewer: Viewer,
    pub step: Step,
    pub active: Side,
    pub turn: u16,
    pub actions_left: u8,
    pub had_first_turn: [bool; 2],
    pub army_card_this_turn: bool,
    pub time: u8,
    pub vp: [u8; 2],
    pub armies: Vec<ArmyState>,
    pub markers: Vec<MarkerState>,
    pub hands: [Vec<Option<HandCard>>; 2],
    pub scout_supply: u8,
    pub minus_one_supply: u8,
    pub draw_pile: usize,
    pub face_up: Vec<CardId>,
    pub discard: Vec<CardId>,
    pub out_of_game: Vec<CardId>,
    pub mission_piles: Vec<usize>,
    /// Napoléon's missions: the first `revealed` face up, in the order he revealed them.
    pub missions: Vec<Option<MissionId>>,
    pub revealed: u8,
    pub reveals_due: u8,
    pub draft_pair: Vec<Option<MissionId>>,
    pub drafted: Vec<District>,
    pub placing: Vec<ArmyId>,
    pub pending_units: Vec<ArmyId>,
    pub fights_done: u8,
    pub damage: Vec<u8>,
    pub hits: Vec<Hit>,
    pub score_choices: Vec<ScoreChoice>,
    pub assigned: Vec<Option<ArmyId>>,
    pub results: Vec<MissionResult>,
    pub stale_row_turns: u8,
    pub took_face_up: bool,
    pub grey_cannon: Option<u8>,
}

impl Botn {
    /// What `viewer` may see (`Game::observe`): the gate every reader of the table goes through.
    pub(super) fn view_for(&self, viewer: Viewer) -> BotnView {
        // The drafted pair is Napoléon's.
        let napoleon = Visibility::Owner(seat_of(Side::French)).visible_to(viewer);
        BotnView {
            sc: Shared(self.sc.clone()),
            viewer,
            step: self.step,
            active: self.active,
            turn: self.turn,
            actions_left: self.actions_left,
            had_first_turn: self.had_first_turn,
            army_card_this_turn: self.army_card_this_turn,
            time: self.time,
            vp: self.vp,
            armies: self.armies.clone(),
            markers: self.markers.clone(),
            hands: [self.hand_as_seen(Side::French, viewer), self.hand_as_seen(Side::Allied, viewer)],
            scout_supply: self.scout_supply,
            minus_one_supply: self.minus_one_supply,
            draw_pile: self.draw_pile.len(),
            face_up: self.face_up.clone(),
            discard: self.discard.clone(),
            out_of_game: self.out_of_game.clone(),
            mission_piles: self.mission_piles.iter().map(Vec::len).collect(),
            missions: self.missions_as_seen(viewer),
            revealed: self.revealed,
            reveals_due: self.reveals_due,
            draft_pair: self.draft_pair.iter().map(|m| napoleon.then_some(*m)).collect(),
            drafted: self.drafted.clone(),
            placing: self.placing.clone(),
            pending_units: self.pending_units.clone(),
            fights_done: self.fights_done,
            damage: self.damage.clone(),
            hits: self.hits.clone(),
            score_choices: self.score_choices.clone(),
            assigned: self.assigned.clone(),
            results: self.results.clone(),
            stale_row_turns: self.stale_row_turns,
            took_face_up: self.took_face_up,
            grey_cannon: self.grey_cannon,
        }
    }
}

impl BotnView {
    /// The side whose eyes these are (None for a spectator).
    pub fn side(&self) -> Option<Side> {
        match self.viewer {
            Viewer::Seat(s) => Some(super::state::side_of(s)),
            Viewer::Spectator => None,
        }
    }

    /// The seat whose eyes these are (None for a spectator).
    pub fn seat(&self) -> Option<SeatId> {
        match self.viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }

    /// A whole table consistent with this view: every card, scout and mission the viewer cannot
    /// see is dealt at random from those it cannot place, and the table's future chance is a fresh
    /// seed. A computer player looks ahead on such samples, never on the real table.
    pub fn sample(&self, rng: &mut TableRng) -> Botn {
        let sc = &self.sc;
        // Action cards whose place the viewer does not know.
        let mut known = vec![false; sc.action_cards.len()];
        for &c in self.face_up.iter().chain(&self.discard).chain(&self.out_of_game) {
            known[c as usize] = true;
        }
        for c in self.hands.iter().flatten().flatten() {
            if let HandCard::Action(id) = c {
                known[*id as usize] = true;
            }
        }
        let mut cards: Vec<CardId> = (0..sc.action_cards.len() as CardId).filter(|&c| !known[c as usize]).collect();
        rng.shuffle(&mut cards);
        let seen_scouts = self.hands.iter().flatten().filter(|c| **c == Some(HandCard::Scout)).count();
        let mut scouts = (sc.scout_cards as usize).saturating_sub(self.scout_supply as usize + seen_scouts);
        let mut hidden_slots: usize = self.hands.iter().flatten().filter(|c| c.is_none()).count();
        let mut hands: [Vec<HandCard>; 2] = [Vec::new(), Vec::new()];
        for (side, hand) in self.hands.iter().enumerate() {
            for c in hand {
                let card = match c {
                    Some(c) => *c,
                    None => {
                        // A hidden card is a scout with the odds of the scouts still unplaced.
                        let scout = scouts > 0 && rng.below(hidden_slots) < scouts;
                        hidden_slots -= 1;
                        if scout {
                            scouts -= 1;
                            HandCard::Scout
                        } else {
                            HandCard::Action(cards.pop().unwrap_or(0))
                        }
                    }
                };
                hands[side].push(card);
            }
        }
        let draw_pile: Vec<CardId> = cards.iter().copied().take(self.draw_pile).collect();
        // Mission cards the viewer has not seen, dealt to the hidden places.
        let mut seen_missions = vec![false; sc.missions.len()];
        for m in self.missions.iter().chain(&self.draft_pair).flatten() {
            seen_missions[*m as usize] = true;
        }
        for r in &self.results {
            seen_missions[r.mission as usize] = true;
        }
        let mut unseen: Vec<MissionId> =
            (0..sc.missions.len() as MissionId).filter(|&m| !seen_missions[m as usize]).collect();
        rng.shuffle(&mut unseen);
        let mut deal = |m: &Option<MissionId>| m.unwrap_or_else(|| unseen.pop().unwrap_or(0));
        let missions = self.missions.iter().map(&mut deal).collect();
        let draft_pair = self.draft_pair.iter().map(&mut deal).collect();
        let mission_piles = self.mission_piles.iter().map(|&n| (0..n).map(|_| deal(&None)).collect()).collect();
        Botn {
            sc: sc.0.clone(),
            rng: TableRng::from_seed(rng.below(u32::MAX as usize) as u64),
            step: self.step,
            active: self.active,
            turn: self.turn,
            actions_left: self.actions_left,
            had_first_turn: self.had_first_turn,
            army_card_this_turn: self.army_card_this_turn,
            time: self.time,
            vp: self.vp,
            armies: self.armies.clone(),
            markers: self.markers.clone(),
            hands,
            scout_supply: self.scout_supply,
            minus_one_supply: self.minus_one_supply,
            draw_pile,
            face_up: self.face_up.clone(),
            discard: self.discard.clone(),
            out_of_game: self.out_of_game.clone(),
            mission_piles,
            missions,
            revealed: self.revealed,
            reveals_due: self.reveals_due,
            draft_pair,
            drafted: self.drafted.clone(),
            placing: self.placing.clone(),
            pending_units: self.pending_units.clone(),
            fights_done: self.fights_done,
            damage: self.damage.clone(),
            hits: self.hits.clone(),
            score_choices: self.score_choices.clone(),
            assigned: self.assigned.clone(),
            results: self.results.clone(),
            stale_row_turns: self.stale_row_turns,
            took_face_up: self.took_face_up,
            grey_cannon: self.grey_cannon,
        }
    }
}
