//! Leipzig 1813's page of registration: its scenario, its players by name, how a table starts
//! and how its computer plays a game (`engine::kit`).

use super::ai::LzPlayer;
use super::{Leipzig, LzScenario, play_game, table_on};
use crate::engine::kit::Kit;
use crate::engine::rules::Mode;
use crate::engine::scenario::DataError;
use crate::engine::table::Table;
use std::path::Path;
use std::sync::Arc;

/// The most actions one game may take (a random campaign game is far below it).
pub const MAX_ACTIONS: usize = 60_000;

impl Kit for Leipzig {
    type Scenario = LzScenario;
    type Player = LzPlayer;
    const NAME: &'static str = "Leipzig 1813";
    const DEFAULT_SCENARIO: &'static str = "1-historical-situation.ron";
    const SEATS: &'static [&'static str] = &["french", "allied"];
    const MAX_ACTIONS: usize = MAX_ACTIONS;
    const SAVE_NAME: &'static str = "leipzig";
    const JOURNAL: &'static str = "leipzig-journal.ron";
    const RANDOM: LzPlayer = LzPlayer::Random;
    const QUESTIONS: &'static [crate::engine::orders::QuestionKind] = super::rules::QUESTIONS;

    fn question(&self) -> Option<(crate::engine::seats::SeatId, &'static str)> {
        self.question_asked()
    }

    fn standing_answer(
        &self,
        seat: crate::engine::seats::SeatId,
        answer: &str,
        legal: &[super::Action],
    ) -> Option<super::Action> {
        self.standing_answer_of(seat, answer, legal)
    }

    fn seat_named(name: &str) -> Option<usize> {
        super::text::side_named(name).map(|s| s.index())
    }

    fn player_named(name: &str) -> Option<LzPlayer> {
        LzPlayer::named(name)
    }

    fn player_label(p: LzPlayer) -> &'static str {
        p.label()
    }

    fn load_scenario(path: &Path) -> Result<LzScenario, DataError> {
        LzScenario::load(path)
    }

    fn scenario_hash(sc: &LzScenario) -> String {
        sc.hash.clone()
    }

    fn describe(sc: &LzScenario) -> String {
        format!(
            "scenario \"{}\", turns {} to {}, {} hexes, {} deployment groups, {} reinforcement rows",
            sc.name,
            sc.first_turn,
            sc.last_turn,
            sc.board.len(),
            sc.groups.len(),
            sc.reinforcements.len()
        )
    }

    fn table_on(sc: Arc<LzScenario>, seed: u64, mode: Mode) -> Table<Leipzig> {
        table_on(sc, seed).with_mode(mode)
    }

    fn play_game(sc: Arc<LzScenario>, seed: u64, players: [LzPlayer; 2], max: usize) -> Result<Table<Leipzig>, String> {
        play_game(sc, seed, players, max)
    }

    fn final_score(&self) -> serde_json::Value {
        self.final_vp.unwrap_or([0, 0]).into()
    }

    fn choose(
        &self,
        seat: crate::engine::seats::SeatId,
        legal: &[Self::Action],
        player: LzPlayer,
        rng: &mut crate::engine::rng::TableRng,
    ) -> Self::Action {
        super::ai::choose(
            || crate::engine::rules::Game::observe(self, crate::engine::seats::Viewer::Seat(seat)),
            legal,
            player,
            rng,
        )
    }
}
