//! Austerlitz's page of registration: its scenario, its players by name, how a table starts and
//! how its computer plays a game (`engine::kit`).

use super::ai::AzPlayer;
use super::{Austerlitz, AzScenario, play_game, table_on};
use crate::engine::kit::Kit;
use crate::engine::rules::Mode;
use crate::engine::scenario::DataError;
use crate::engine::table::Table;
use std::path::Path;
use std::sync::Arc;

/// The most actions one game may take (a random game is far below it).
pub const MAX_ACTIONS: usize = 40_000;

impl Kit for Austerlitz {
    type Scenario = AzScenario;
    type Player = AzPlayer;
    const NAME: &'static str = "Austerlitz";
    const DEFAULT_SCENARIO: &'static str = "1-historical.ron";
    const SEATS: &'static [&'static str] = &["french", "allied"];
    const MAX_ACTIONS: usize = MAX_ACTIONS;
    const SAVE_NAME: &'static str = "austerlitz";
    const JOURNAL: &'static str = "austerlitz-journal.ron";
    const RANDOM: AzPlayer = AzPlayer::Random;
    const QUESTIONS: &'static [crate::engine::orders::QuestionKind] = super::rules::QUESTIONS;

    fn seat_named(name: &str) -> Option<usize> {
        match name.to_ascii_lowercase().as_str() {
            "french" => Some(0),
            "allied" | "allies" => Some(1),
            _ => None,
        }
    }

    fn player_named(name: &str) -> Option<AzPlayer> {
        AzPlayer::named(name)
    }

    fn player_label(p: AzPlayer) -> &'static str {
        p.label()
    }

    fn load_scenario(path: &Path) -> Result<AzScenario, DataError> {
        AzScenario::load(path)
    }

    fn scenario_hash(sc: &AzScenario) -> String {
        sc.hash.clone()
    }

    fn describe(sc: &AzScenario) -> String {
        let reconstructed = sc.provenance().iter().filter(|(_, p)| p.is_reconstructed()).count();
        format!(
            "scenario \"{}\", a {}×{} board, {} commands, {} units, {} tables of which {reconstructed} reconstructed",
            sc.name,
            sc.board.grid.width,
            sc.board.grid.height,
            sc.commands.len(),
            sc.units.len(),
            sc.provenance().len()
        )
    }

    fn table_on(sc: Arc<AzScenario>, seed: u64, mode: Mode) -> Table<Austerlitz> {
        table_on(sc, seed).with_mode(mode)
    }

    fn play_game(
        sc: Arc<AzScenario>,
        seed: u64,
        players: [AzPlayer; 2],
        max: usize,
    ) -> Result<Table<Austerlitz>, String> {
        play_game(sc, seed, players, max)
    }

    fn final_score(&self) -> serde_json::Value {
        self.final_points.unwrap_or_else(|| self.points()).into()
    }

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

    fn choose(
        &self,
        seat: crate::engine::seats::SeatId,
        legal: &[Self::Action],
        player: AzPlayer,
        rng: &mut crate::engine::rng::TableRng,
    ) -> Self::Action {
        super::ai::choose(
            &crate::engine::rules::Game::observe(self, crate::engine::seats::Viewer::Seat(seat)),
            legal,
            player,
            rng,
        )
    }
}
