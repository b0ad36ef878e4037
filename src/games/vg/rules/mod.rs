//! The rules of Victory & Glory: Napoleon, one file per section of the rulebook: each file holds
//! the legal actions, the check and the apply of its section's decisions side by side — set-up
//! (V), rounds (VII), cards and their effects (VIII), allies (IX, X), where units stand (XI),
//! campaigns (VIII, XII), scoring and winning (XIII, XIV), the solo AI (XV) and the miniatures
//! option (XVI); `sandbox` the moves by hand. A card's effects become a queue of tasks; a task that needs somebody's choice
//! becomes a `Pending` decision, answered by an action. This file holds what the sections share
//! and the `Game` calls, which only dispatch: `legal_actions` by the open decision, `check` and
//! `apply` by the action.

mod allies;
mod campaigns;
mod cards;
mod rounds;
mod sandbox;
mod scoring;
mod setup;
mod solo;
mod tabletop;
mod units;

pub use setup::setup;
pub use tabletop::entry_words;

use super::actions::{Action, VgError, no_such_thing, rule};
use super::data::{Effect, NationId, NationKind, Player, UnitKind, VgScenario, Who};
use super::miniatures;
use super::state::*;
use crate::engine::rng::TableRng;
use crate::engine::rules::{Checked, Game, Mode};
use crate::engine::seats::SeatId;
use std::sync::Arc;

/// What happened, for the log: the rules record it as data and the view words it
/// (`Vg::event_text`); words built while the rules ran were a third of a game's time. Every event
/// is public: a draw says "a card", never which.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Event {
    SetUp {
        economy: [i16; 2],
        leadership: [i16; 2],
    },
    RoundBegan {
        round: u8,
        era: u8,
        first: Player,
    },
    NoCardLeft {
        player: Player,
    },
    RoundEnded {
        round: u8,
    },
    EraEnded {
        era: u8,
    },
    CardPlayed {
        player: Player,
        card: CardId,
        text: Text,
    },
    Economy {
        player: Player,
        change: i8,
        now: i16,
    },
    Leadership {
        player: Player,
        change: i8,
        now: i16,
    },
    Vp {
        player: Player,
        change: i8,
        now: i16,
    },
    InfluenceGained {
        player: Player,
        nation: NationId,
        count: i8,
    },
    InfluenceLost {
        player: Player,
        nation: NationId,
        count: u8,
    },
    InfluencePlaced {
        player: Player,
        nation: NationId,
    },
    InfluenceRemoved {
        owner: Player,
        nation: NationId,
    },
    NoRecruits {
        player: Player,
    },
    NoMajority {
        player: Player,
        nation: NationId,
    },
    /// `placed`: in front of that player, or (None) in the nation's holding area.
    Recruited {
        player: Player,
        nation: NationId,
        count: u8,
        placed: Option<Player>,
    },
    NoUnitToLose {
        player: Player,
    },
    Eliminated {
        unit: UnitId,
    },
    EnAvantNothing,
    AlreadyAllied {
        nation: NationId,
        player: Player,
    },
    Allied {
        nation: NationId,
        player: Player,
        switched: bool,
    },
    Defeated {
        nation: NationId,
    },
    CampaignPlayed {
        player: Player,
        card: CardId,
        campaign: CampaignId,
    },
    NoUnitForCampaign {
        player: Player,
        campaign: CampaignId,
    },
    Committed {
        player: Player,
        campaign: CampaignId,
    },
    CommitEnded {
        player: Player,
        campaign: CampaignId,
        committed: u8,
    },
    /// The units turned up on each side, and who the card goes in front of.
    Revealed {
        card: CardId,
        campaign: CampaignId,
        units: [Vec<UnitId>; 2],
        to: Player,
    },
    Resolved {
        card: CardId,
        campaign: CampaignId,
        strength: [i16; 2],
        by_tabletop: bool,
        winner: Option<Player>,
    },
    Majority {
        nation: NationId,
        player: Player,
        vp: i16,
    },
    EconomyScored {
        player: Player,
        economy: i16,
        units: i16,
        vp: i16,
    },
    VictoryPoints {
        vp: [i16; 2],
    },
    GameEnded {
        vp: [i16; 2],
    },
    SoloSetUp {
        ai: Player,
    },
    AiCannotFight {
        player: Player,
        card: CardId,
    },
    AiDraws {
        player: Player,
    },
    ToTabletop {
        card: CardId,
        campaign: CampaignId,
    },
    TabletopDisputed {
        player: Player,
        entry: TabletopEntry,
        other: TabletopEntry,
    },
    TabletopEntered {
        player: Player,
        entry: TabletopEntry,
    },
    TabletopAgreed {
        entry: TabletopEntry,
    },
}

pub fn seat_of(p: Player) -> SeatId {
    SeatId(p as u8)
}

pub fn player_of(seat: SeatId) -> Player {
    if seat.0 == 0 { Player::France } else { Player::Britain }
}

pub(super) fn who(w: Who, ctx: Player) -> Player {
    match w {
        Who::France => Player::France,
        Who::Britain => Player::Britain,
        Who::Player => ctx,
        Who::Opponent => ctx.other(),
    }
}

impl Vg {
    pub(super) fn take_card(&mut self, p: Player, card: CardId) {
        self.hands[p.index()].retain(|&c| c != card);
        self.in_front[p.index()].retain(|&c| c != card);
    }

    /// A sandbox going back to the rules: no card's effects half carried out and no decision
    /// waiting (the units they name may have been moved by hand since).
    pub(super) fn refuse_half_made(&self) -> Result<(), VgError> {
        if !self.pending.is_empty() || !self.tasks.is_empty() {
            return Err(VgError::new(
                rule::ROUNDS,
                "a card's effects or a decision are under way: finish them before the rules take over again",
            ));
        }
        Ok(())
    }

    /// The refusal of an action that does not answer the decision now open.
    pub(super) fn wrong_step(&self) -> VgError {
        let now = match self.pending.first() {
            Some(p) => format!("{p:?}").split([' ', '{']).next().unwrap_or("").to_string(),
            None => format!("{:?}", self.phase),
        };
        VgError::new(rule::ROUNDS, format!("that action is not possible now: {now}"))
    }

    /// A nation's name for a refusal (empty for an id out of bounds: the refusal says why).
    pub(super) fn nation_label(&self, n: NationId) -> &str {
        self.sc.nations.get(n as usize).map_or("", |x| x.name.as_str())
    }
}

impl Game for Vg {
    type Action = Action;
    type Event = Event;
    type Section = super::actions::VgSection;
    type View = super::observe::VgView;

    const ID: &'static str = super::data::GAME_ID;

    fn scenario(&self) -> crate::engine::save::ScenarioRef {
        crate::engine::save::ScenarioRef {
            name: self.sc.name.clone(),
            path: self.sc.path.clone(),
            hash: self.sc.hash.clone(),
        }
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &["France", "Britain"]
    }

    fn active_seat(&self) -> Option<SeatId> {
        if self.phase == Phase::GameOver {
            return None;
        }
        let p = match self.pending.first() {
            Some(Pending::Commit { player, .. })
            | Some(Pending::PlaceInfluence { player, .. })
            | Some(Pending::RecruitNation { player, .. })
            | Some(Pending::LoseUnit { player, .. })
            | Some(Pending::ChooseLoss { player, .. })
            | Some(Pending::AllianceAny { player })
            | Some(Pending::EnAvant { player }) => *player,
            // XV d: the player removes the AI's cubes.
            Some(Pending::RemoveInfluence { owner, .. }) => {
                if self.is_ai(*owner) {
                    owner.other()
                } else {
                    *owner
                }
            }
            Some(Pending::ResolveOrder { chooser }) => *chooser,
            Some(Pending::TabletopResult { .. }) => self.tabletop_seat().expect("a tabletop result waits"),
            None => self.turn,
        };
        Some(seat_of(p))
    }

    fn legal_actions(&self, _mode: Mode, out: &mut Vec<Action>) {
        out.clear();
        if self.phase == Phase::GameOver {
            return;
        }
        match self.pending.first() {
            None => self.legal_play(out),
            Some(Pending::Commit { player, campaign, committed }) => {
                self.legal_commit(*player, *campaign, *committed, out)
            }
            Some(Pending::PlaceInfluence { .. }) => self.legal_place_influence(out),
            Some(Pending::RemoveInfluence { owner, .. }) => self.legal_remove_influence(*owner, out),
            Some(Pending::RecruitNation { player, .. }) => self.legal_recruit(*player, out),
            Some(Pending::LoseUnit { player, .. }) => self.legal_lose_from(*player, out),
            Some(Pending::ChooseLoss { candidates, .. }) => out.extend(candidates.iter().map(|&u| Action::LoseUnit(u))),
            Some(Pending::AllianceAny { player }) => self.legal_alliance(*player, out),
            Some(Pending::EnAvant { .. }) | Some(Pending::ResolveOrder { .. }) => self.legal_resolve(out),
            Some(Pending::TabletopResult { campaign, .. }) => self.legal_tabletop_result(*campaign, out),
        }
    }

    type Found = ();

    fn check(&self, _mode: Mode, seat: SeatId, action: &Action) -> Result<(), VgError> {
        let Some(active) = self.active_seat() else { return Err(VgError::new(rule::ROUNDS, "the game is over")) };
        if seat != active {
            return Err(VgError::new(
                rule::ROUNDS,
                format!("it is {active}'s decision now", active = self.seat_names()[active.0 as usize]),
            ));
        }
        let p = player_of(seat);
        match action {
            Action::SoloSetup { .. } => self.check_solo_setup(),
            Action::PlayCard { card, text } => self.check_play_card(p, *card, *text),
            Action::PlayCampaign { card } => self.check_play_campaign(p, *card),
            Action::SoloGiveCampaign { card } => self.check_give_campaign(p, *card),
            Action::CommitUnit(u) => self.check_commit(*u),
            Action::EndCommit => self.check_end_commit(),
            Action::PlaceInfluence(n) => self.check_place_influence(*n),
            Action::RemoveInfluence(n) => self.check_remove_influence(*n),
            Action::RecruitFrom(n) => self.check_recruit(*n),
            Action::LoseFrom(g) => self.check_lose_from(*g),
            Action::LoseUnit(u) => self.check_choose_loss(*u),
            Action::Ally(n) => self.check_alliance(*n),
            Action::Resolve(c) => self.check_resolve(*c),
            Action::FightOnTable(c) => self.check_fight_on_table(*c),
            Action::TabletopResult { campaign, winner, lost } => self.check_tabletop_result(*campaign, *winner, *lost),
        }
    }

    fn apply(&mut self, seat: SeatId, action: Checked<'_, Action>, events: &mut Vec<Event>) -> bool {
        let action: &Action = &action;
        let before = self.active_seat();
        self.chance = false;
        let p = player_of(seat);
        match action {
            Action::SoloSetup { ai } => self.apply_solo_setup(*ai, events),
            Action::PlayCard { card, text } => self.apply_play_card(p, *card, *text, events),
            Action::PlayCampaign { card } => self.apply_play_campaign(p, *card, events),
            Action::SoloGiveCampaign { card } => self.apply_give_campaign(p, *card, events),
            Action::CommitUnit(u) => self.apply_commit(*u, events),
            Action::EndCommit => self.apply_end_commit(events),
            Action::PlaceInfluence(n) => self.apply_place_influence(p, *n, events),
            Action::RemoveInfluence(n) => self.apply_remove_influence(*n, events),
            Action::RecruitFrom(n) => self.apply_recruit(*n, events),
            Action::LoseFrom(g) => self.apply_lose_from(p, *g, events),
            Action::LoseUnit(u) => self.apply_choose_loss(*u, events),
            Action::Ally(n) => self.apply_alliance(p, *n, events),
            Action::Resolve(c) => self.apply_resolve(*c, events),
            Action::FightOnTable(c) => self.apply_fight_on_table(p, *c, events),
            Action::TabletopResult { campaign, winner, lost } => {
                self.apply_tabletop_result(p, *campaign, *winner, *lost, events)
            }
        }
        // The card's (or era end's) remaining tasks run until a decision is needed.
        self.advance(events);
        self.chance || self.active_seat() != before
    }

    fn observe(&self, viewer: crate::engine::seats::Viewer) -> Self::View {
        self.view_for(viewer)
    }

    fn from_view(view: &super::observe::VgView, rng: &mut crate::engine::rng::TableRng) -> Self {
        view.sample(rng)
    }

    fn rebuilt_from_view(
        &self,
        view: &serde_json::Value,
        rng: &mut crate::engine::rng::TableRng,
    ) -> Result<Self, String> {
        let view: super::observe::VgView = crate::engine::rules::view_from_json(self.sc.clone(), view)?;
        Ok(Self::from_view(&view, rng))
    }

    fn entry_text(&self, entry: &crate::engine::table::Entry<Event>, viewer: crate::engine::seats::Viewer) -> String {
        // Every event is public (a draw says "a card", never which): worded alike for every seat.
        match entry {
            crate::engine::table::Entry::Game { event, .. } => self.event_text(event),
            crate::engine::table::Entry::Roll(roll) => roll.line(self.seat_names()),
            crate::engine::table::Entry::Hand { seat, mv } => self.hand_text(*seat, mv, viewer),
        }
    }

    fn rng(&mut self) -> &mut TableRng {
        &mut self.rng
    }

    fn play_across_machines(&mut self) {
        self.across_machines = true;
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }

    fn winner(&self) -> Option<SeatId> {
        self.winning_seat()
    }

    fn hand_pieces(view: &Self::View) -> Vec<crate::engine::sandbox::HandPiece> {
        Vg::hand_pieces_of(view)
    }

    fn hand_places(&self) -> Vec<String> {
        self.hand_places_of()
    }

    fn move_by_hand(&mut self, mv: &crate::engine::sandbox::HandMove) {
        self.move_by_hand_now(mv)
    }

    fn position_accepted(&self) -> Result<(), VgError> {
        self.position_accepted_now()
    }
}

/// The questions the other player's play asks a seat, which its standing orders may answer
/// (issue 32): committing to a campaign (reinforcing it), the influence to place or remove, the
/// losses to take, the order of resolution and the rest, each answered by the computer at a
/// level of the seat's choosing.
pub const QUESTIONS: &[crate::engine::orders::QuestionKind] = &[
    question("commit", "reinforcing a campaign: which cards to commit (VIII)"),
    question("place-influence", "where to place influence"),
    question("remove-influence", "which influence to remove"),
    question("recruit-nation", "which nation to recruit"),
    question("lose-unit", "which unit is lost"),
    question("choose-loss", "which loss to take"),
    question("alliance", "the alliance to form"),
    question("en-avant", "En Avant!"),
    question("resolve-order", "the order the campaigns are resolved in"),
    question("tabletop-result", "the result of a battle fought with miniatures"),
];

const fn question(kind: &'static str, words: &'static str) -> crate::engine::orders::QuestionKind {
    crate::engine::orders::QuestionKind { kind, words, answers: &[] }
}

impl Vg {
    /// The question the decision now is: a decision waiting for the player whose turn it is
    /// not.
    pub fn question_asked(&self) -> Option<(SeatId, &'static str)> {
        let seat = self.active_seat()?;
        if seat == seat_of(self.turn) {
            return None;
        }
        let kind = match self.pending.first()? {
            Pending::Commit { .. } => "commit",
            Pending::PlaceInfluence { .. } => "place-influence",
            Pending::RemoveInfluence { .. } => "remove-influence",
            Pending::RecruitNation { .. } => "recruit-nation",
            Pending::LoseUnit { .. } => "lose-unit",
            Pending::ChooseLoss { .. } => "choose-loss",
            Pending::AllianceAny { .. } => "alliance",
            Pending::EnAvant { .. } => "en-avant",
            Pending::ResolveOrder { .. } => "resolve-order",
            Pending::TabletopResult { .. } => "tabletop-result",
        };
        Some((seat, kind))
    }
}
