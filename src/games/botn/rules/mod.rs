//! The rules of Battle of the Nations 1813, one file per chapter of the rulebook: each file holds
//! the legal actions, the check and the apply of its chapter's actions side by side. This file
//! holds what they share — the log's events, the table's helpers — and the `Game` calls, which
//! only dispatch: `legal_actions` by the step of play, `check` and `apply` by the action.
//! `legal_actions` is the one list every caller uses; `check` names the broken rule; `apply`
//! changes the state only after `check` passed.

mod army_card;
mod draw;
mod fights;
mod movement_card;
mod preparation;
mod sandbox;
mod scoring;
mod scout_card;
mod terrain_card;
mod time;
mod turn;
mod wild_card;

pub use preparation::setup;

pub use super::actions::Event;
use super::actions::{Action, BotnError, SandboxAction, no_such_thing, not_in_hand, rule};
use super::data::{ActionCard, CardFace, District, Scenario, Side, Terrain, UnitType};
use super::state::*;
use super::text::Span as BotnSpan;
use crate::engine::geometry::SpaceId;
use crate::engine::log::Span;
use crate::engine::rng::TableRng;
use crate::engine::rules::{Checked, Game, Mode};
use crate::engine::seats::SeatId;
use std::sync::Arc;

pub const ACTIONS_PER_TURN: u8 = 5;
pub const HAND_LIMIT: usize = 8;
pub const FACE_UP: usize = 4;
pub const START_HAND: usize = 4;

pub(super) fn district_index(d: District) -> usize {
    District::ALL.iter().position(|x| *x == d).expect("listed")
}

impl Botn {
    pub(super) fn name_of(&self, f: SpaceId) -> String {
        self.sc.field_name(f).to_string()
    }

    /// A field's name for an error message, or nothing for an id that is not on the board.
    pub(super) fn field_label(&self, f: SpaceId) -> String {
        self.sc.fields.get(f.0 as usize).map(|x| x.name.clone()).unwrap_or_default()
    }

    /// An army's name for an error message, or nothing for an id that is not in the scenario: an
    /// error is built from unchecked input, so it must never index with it.
    pub(super) fn army_label(&self, army: ArmyId) -> String {
        self.sc.armies.get(army as usize).map(|x| x.def.name.clone()).unwrap_or_default()
    }

    pub(super) fn own_marker(&self, side: Side, marker: MarkerId) -> Result<(ArmyId, SpaceId), BotnError> {
        let m = self.markers.get(marker as usize).ok_or_else(no_such_thing)?;
        match m.at {
            Some(at) if self.army_side(m.army) == side => Ok((m.army, at)),
            _ => Err(BotnError::new(rule::PLAY, "that marker is not yours or is not on the board")),
        }
    }

    pub(super) fn hand_has(&self, side: Side, card: HandCard) -> bool {
        self.hands[side.index()].contains(&card)
    }

    pub(super) fn card(&self, card: CardId) -> Result<&ActionCard, BotnError> {
        self.sc.action_cards.get(card as usize).ok_or_else(no_such_thing)
    }

    /// The cards of `cards` with the same face as `card`, in their order.
    pub(super) fn same_face<'a>(
        &'a self,
        cards: impl Iterator<Item = CardId> + 'a,
        card: CardId,
    ) -> impl Iterator<Item = CardId> + 'a {
        let face = self.sc.faces.get(card as usize);
        cards.filter(move |&c| self.sc.faces.get(c as usize) == face)
    }

    pub(super) fn hand_ids(&self, side: Side) -> impl Iterator<Item = CardId> + '_ {
        self.hands[side.index()].iter().filter_map(|c| match *c {
            HandCard::Action(id) => Some(id),
            HandCard::Scout => None,
        })
    }

    /// Identical cards are one choice: the legal list names the first card of a face in the hand
    /// (and, for a wild card, the next identical one), and the check takes only those, so the
    /// list and the check agree on every action.
    pub(super) fn first_of_face(&self, side: Side, cards: &[CardId]) -> Result<(), BotnError> {
        if !self.same_face(self.hand_ids(side), cards[0]).take(cards.len()).eq(cards.iter().copied()) {
            let face = self.card(cards[0])?.title();
            return Err(BotnError::new(
                rule::IDENTICAL,
                format!(
                    "identical {face} cards are one choice: the first of them in the hand (or the row) is the one played"
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn take_from_hand(&mut self, side: Side, card: HandCard) {
        let hand = &mut self.hands[side.index()];
        let i = hand.iter().position(|c| *c == card).expect("checked in hand");
        hand.remove(i);
    }

    pub(super) fn play_card(&mut self, card: CardId, events: &mut Vec<Event>) {
        let side = self.active;
        self.take_from_hand(side, HandCard::Action(card));
        if self.sc.action_cards[card as usize] == ActionCard::Time {
            self.out_of_game.push(card); // "The played card leaves the game."
        } else {
            self.discard.push(card);
        }
        events.push(Event::CardPlayed { side, card });
    }

    /// The refusal of an action taken at the wrong step of play, naming the step.
    pub(super) fn wrong_step(&self, wanted: &'static str) -> BotnError {
        let now = match self.step {
            Step::PlaceArmy => "the active player chooses which army is placed on the shared field",
            Step::MissionDraft => "Napoléon is choosing his missions",
            Step::Actions => "the active player is taking actions",
            Step::ChooseUnit => "a placed army's unit type must be chosen first",
            Step::Discard => "the hand must be discarded down to 8 cards first",
            Step::Fight => "the fight's damage is being allocated",
            Step::Scoring => "the final scoring is being decided",
            Step::GameOver => "the game is over",
        };
        BotnError::new(rule::PLAY, format!("{wanted} is not possible now: {now}"))
    }
}

impl Game for Botn {
    type Action = Action;
    type Event = Event;
    type Section = super::actions::BotnSection;
    type View = super::observe::BotnView;

    const ID: &'static str = super::data::GAME_ID;

    fn scenario(&self) -> crate::engine::save::ScenarioRef {
        crate::engine::save::ScenarioRef {
            name: self.sc.name.clone(),
            path: self.sc.path.clone(),
            hash: self.sc.hash.clone(),
        }
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &["Napoléon (French)", "Schwarzenberg (Allied)"]
    }

    fn active_seat(&self) -> Option<SeatId> {
        if self.reveals_due > 0 {
            return Some(seat_of(Side::French));
        }
        match self.step {
            Step::GameOver => None,
            Step::MissionDraft => Some(seat_of(Side::French)),
            Step::ChooseUnit => self.pending_units.first().map(|&a| seat_of(self.army_side(a))),
            // The defender allocates the damage his armies take.
            Step::Fight => self.hits.first().map(|h| seat_of(self.army_side(h.attacker).other())),
            Step::Scoring => self.score_choices.first().map(|c| seat_of(self.army_side(c.army))),
            _ => Some(seat_of(self.active)),
        }
    }

    fn legal_actions(&self, _mode: Mode, out: &mut Vec<Action>) {
        out.clear();
        if self.reveals_due > 0 {
            return self.legal_reveals(out);
        }
        match self.step {
            Step::GameOver => {}
            Step::MissionDraft => self.legal_draft(out),
            Step::PlaceArmy => self.legal_place_army(out),
            Step::ChooseUnit => self.legal_choose_unit(out),
            Step::Discard => self.legal_discard(out),
            Step::Fight => self.legal_hits(out),
            Step::Scoring => self.legal_assign(out),
            Step::Actions => self.legal_turn(out),
        }
    }

    type Found = ();

    fn check(&self, mode: Mode, seat: SeatId, action: &Action) -> Result<(), BotnError> {
        // Only the seat whose decision it is acts, in the sandbox too.
        let Some(active_seat) = self.active_seat() else { return Err(BotnError::new(rule::END, "the game is over")) };
        if seat != active_seat {
            return Err(BotnError::new(
                rule::PLAY,
                format!("it is {active}'s decision now", active = self.seat_names()[active_seat.0 as usize]),
            ));
        }
        if let Action::Sandbox(s) = action {
            return self.check_sandbox(mode, s);
        }
        if let Some(verdict) = self.check_reveal(action) {
            return verdict;
        }
        match action {
            Action::Sandbox(_) | Action::RevealMission(_) => unreachable!("checked above"),
            Action::DraftDistrict(d) => self.check_draft_district(*d),
            Action::KeepMission(m) => self.check_keep_mission(*m),
            Action::PlaceArmy { army } => self.check_place_army(*army),
            Action::ChooseUnit { army, unit } => self.check_choose_unit(*army, *unit),
            Action::AllocateHit { attacker, target } => self.check_allocate_hit(*attacker, *target),
            Action::AssignToMission { army, mission_army } => self.check_assign(*army, *mission_army),
            Action::SetGreyCannon { french_points } => self.check_grey_cannon(*french_points),
            Action::Discard(card) => self.check_discard(*card),
            _ => {
                self.check_turn_action(action)?;
                match action {
                    Action::LayOutArmyCard { army, skip } => self.check_army_card(*army, skip),
                    Action::PlayTerrainCard { card, marker } => self.check_terrain_card(*card, *marker),
                    Action::PlayMovementCard { card, marker, to } => self.check_movement_card(*card, *marker, *to),
                    Action::JumpOverArmy { cards, marker, over, to } => self.check_jump(cards, *marker, *over, *to),
                    Action::PlayScoutCard { marker } => self.check_scout_card(*marker),
                    Action::PlayWildCard { cards, marker, to } => self.check_wild_card(cards, *marker, *to),
                    Action::PlayTimeCard { card } => self.check_time_card(*card),
                    Action::DrawFaceUp { card } => self.check_draw_face_up(*card),
                    Action::DrawBlind => self.check_draw_blind(),
                    Action::Pass => self.check_pass(),
                    Action::SwapFaceUp => self.check_swap_face_up(),
                    _ => unreachable!("the decisions outside a turn's actions are matched above"),
                }
            }
        }
    }

    fn apply(&mut self, seat: SeatId, action: Checked<'_, Action>, events: &mut Vec<Event>) -> bool {
        let action: &Action = &action;
        match action {
            Action::Sandbox(s) => self.apply_sandbox(s, seat, events),
            Action::DraftDistrict(d) => self.apply_draft_district(*d, events),
            Action::KeepMission(m) => self.apply_keep_mission(*m, events),
            Action::RevealMission(m) => self.apply_reveal(*m, events),
            Action::PlaceArmy { army } => self.apply_place_army(*army, events),
            Action::ChooseUnit { army, unit } => self.apply_choose_unit(*army, *unit, events),
            Action::Discard(card) => self.apply_discard(*card, events),
            Action::AllocateHit { attacker, target } => self.apply_allocate_hit(*attacker, *target, events),
            Action::AssignToMission { army, mission_army } => self.apply_assign(*army, *mission_army, events),
            Action::SetGreyCannon { french_points } => self.apply_grey_cannon(*french_points, events),
            Action::SwapFaceUp => self.apply_swap_face_up(events),
            _ => self.apply_turn_action(action, events),
        }
    }

    fn observe(&self, viewer: crate::engine::seats::Viewer) -> Self::View {
        self.view_for(viewer)
    }

    fn from_view(view: &super::observe::BotnView, rng: &mut crate::engine::rng::TableRng) -> Self {
        view.sample(rng)
    }

    fn rebuilt_from_view(
        &self,
        view: &serde_json::Value,
        rng: &mut crate::engine::rng::TableRng,
    ) -> Result<Self, String> {
        let view: super::observe::BotnView = crate::engine::rules::view_from_json(self.sc.clone(), view)?;
        Ok(Self::from_view(&view, rng))
    }

    /// The fights' events, public by rule (the Fight of 16.10. and 18.10.): the window's summary of the last fight
    /// reads them. Every other event is given to the panels in words only.
    fn event_seen(&self, event: &Event, _viewer: crate::engine::seats::Viewer) -> Option<Event> {
        matches!(
            event,
            Event::FightBegan { .. } | Event::ArmyDamaged { .. } | Event::ArmyRemoved { .. } | Event::FightEnded
        )
        .then(|| event.clone())
    }

    /// The log's names of fields and armies are links to them on the table.
    fn log_spans(&self, entry: &crate::engine::table::Entry<Event>, viewer: crate::engine::seats::Viewer) -> Vec<Span> {
        super::text::entry_spans(self, entry, viewer)
            .into_iter()
            .map(|s| match s {
                BotnSpan::Text(t) => Span::Text(t),
                BotnSpan::Field(f) => {
                    let f = crate::engine::geometry::SpaceId(f);
                    Span::Link(self.sc.field_name(f).to_string(), Some(f))
                }
                BotnSpan::Army(a) => {
                    let at = self.armies[a as usize].at.or_else(|| self.markers_on_board(a).next().map(|(_, f)| f));
                    Span::Link(self.army_name(a).to_string(), at)
                }
            })
            .collect()
    }

    fn entry_text(&self, entry: &crate::engine::table::Entry<Event>, viewer: crate::engine::seats::Viewer) -> String {
        use super::text::Span;
        super::text::entry_spans(self, entry, viewer)
            .into_iter()
            .map(|s| match s {
                Span::Text(t) => t,
                Span::Field(f) => self.sc.field_name(crate::engine::geometry::SpaceId(f)).to_string(),
                Span::Army(a) => self.army_name(a).to_string(),
            })
            .collect()
    }

    fn rng(&mut self) -> &mut TableRng {
        &mut self.rng
    }

    fn is_over(&self) -> bool {
        self.step == Step::GameOver
    }

    fn winner(&self) -> Option<SeatId> {
        if !self.is_over() {
            return None;
        }
        // "Napoléon wins the game if he has more points than Schwarzenberg."
        Some(if self.vp[Side::French.index()] > self.vp[Side::Allied.index()] {
            seat_of(Side::French)
        } else {
            seat_of(Side::Allied)
        })
    }

    fn hand_pieces(view: &Self::View) -> Vec<crate::engine::sandbox::HandPiece> {
        Botn::hand_pieces_of(view)
    }

    fn hand_places(&self) -> Vec<String> {
        self.hand_places_of()
    }

    fn move_by_hand(&mut self, mv: &crate::engine::sandbox::HandMove) {
        self.move_by_hand_now(mv)
    }

    fn position_accepted(&self) -> Result<(), BotnError> {
        self.position_accepted_now()
    }
}

/// The questions the other player's play asks a seat, which its standing orders may answer
/// (issue 32), each by the computer at a level of the seat's choosing: which army takes a fight's
/// damage, a final scoring's choice, the unit type of a commander placed, a mission revealed.
pub const QUESTIONS: &[crate::engine::orders::QuestionKind] = &[
    crate::engine::orders::QuestionKind {
        kind: "fight-damage",
        words: "which of your armies takes a fight's damage",
        answers: &[],
    },
    crate::engine::orders::QuestionKind { kind: "scoring", words: "a choice of the final scoring", answers: &[] },
    crate::engine::orders::QuestionKind {
        kind: "choose-unit",
        words: "the unit type of Napoléon or Schwarzenberg, placed",
        answers: &[],
    },
    crate::engine::orders::QuestionKind { kind: "reveal", words: "a mission card to reveal", answers: &[] },
];

impl Botn {
    /// The question the decision now is: a decision waiting for the player whose turn it is
    /// not (the preparation's draft is Napoléon's own).
    pub fn question_asked(&self) -> Option<(SeatId, &'static str)> {
        let seat = self.active_seat()?;
        if seat == seat_of(self.active) || self.step == Step::MissionDraft {
            return None;
        }
        let kind = if self.reveals_due > 0 {
            "reveal"
        } else {
            match self.step {
                Step::Fight => "fight-damage",
                Step::Scoring => "scoring",
                Step::ChooseUnit => "choose-unit",
                _ => return None,
            }
        };
        Some((seat, kind))
    }
}
