//! Battle of the Nations' page of registration: its scenario, its players by name, how a table
//! starts and how its computer plays a game (`engine::kit`).

use super::ai::{self, Player};
use super::{Botn, Scenario, table_on};
use crate::engine::autoplay::play_out;
use crate::engine::kit::Kit;
use crate::engine::rng::TableRng;
use crate::engine::rules::{Game, Mode};
use crate::engine::scenario::DataError;
use crate::engine::seats::Viewer;
use crate::engine::table::Table;
use clap::ValueEnum;
use std::path::Path;
use std::sync::Arc;

/// One complete game between two players of the given kind; the decision RNG is separate from
/// the table's, so the table's chance depends only on its own seed and the actions.
pub fn play_game(
    sc: Arc<Scenario>,
    seed: u64,
    players: [Player; 2],
    max_actions: usize,
) -> Result<Table<Botn>, String> {
    let mut chooser = TableRng::from_seed(seed ^ 0x9e37_79b9_7f4a_7c15);
    play_out(table_on(sc, seed, Mode::Enforced), seed, max_actions, |game, legal, seat| {
        ai::choose(|| game.observe(Viewer::Seat(seat)), legal, players[seat.0 as usize], &mut chooser)
    })
}

impl Kit for Botn {
    type Scenario = Scenario;
    type Player = Player;
    const NAME: &'static str = "Battle of the Nations 1813";
    const DEFAULT_SCENARIO: &'static str = super::data::DEFAULT_SCENARIO;
    const SEATS: &'static [&'static str] = &["french", "allied"];
    const MAX_ACTIONS: usize = 5000;
    const PLAYTEST_ACTIONS: usize = crate::engine::entry::MAX_PLAYTEST_ACTIONS;
    const SAVE_NAME: &'static str = "game";
    const JOURNAL: &'static str = "journal.ron";
    const RANDOM: Player = Player::Random;
    const QUESTIONS: &'static [crate::engine::orders::QuestionKind] = super::rules::QUESTIONS;
    const PLAYERS: &'static str = "random, beginner (or easy), normal (or ai), strong (or hard) and expert";

    /// French (Napoléon) or allied (Schwarzenberg).
    fn seat_named(name: &str) -> Option<usize> {
        match name.to_ascii_lowercase().as_str() {
            "french" | "france" | "napoleon" | "napoléon" => Some(0),
            "allied" | "allies" | "schwarzenberg" => Some(1),
            _ => None,
        }
    }

    fn player_named(name: &str) -> Option<Player> {
        Player::from_str(name, true).ok()
    }

    fn player_label(p: Player) -> &'static str {
        p.label()
    }

    fn load_scenario(path: &Path) -> Result<Scenario, DataError> {
        Scenario::load(path)
    }

    fn scenario_hash(sc: &Scenario) -> String {
        sc.hash.clone()
    }

    fn describe(sc: &Scenario) -> String {
        format!("scenario \"{}\", {} fields, {} armies", sc.name, sc.fields.len(), sc.armies.len())
    }

    fn table_on(sc: Arc<Scenario>, seed: u64, mode: Mode) -> Table<Botn> {
        table_on(sc, seed, mode)
    }

    fn play_game(sc: Arc<Scenario>, seed: u64, players: [Player; 2], max: usize) -> Result<Table<Botn>, String> {
        play_game(sc, seed, players, max)
    }

    fn final_score(&self) -> serde_json::Value {
        self.vp.into()
    }

    fn question(&self) -> Option<(crate::engine::seats::SeatId, &'static str)> {
        self.question_asked()
    }

    fn choose(
        &self,
        seat: crate::engine::seats::SeatId,
        legal: &[Self::Action],
        player: Player,
        rng: &mut crate::engine::rng::TableRng,
    ) -> Self::Action {
        ai::choose(|| self.observe(Viewer::Seat(seat)), legal, player, rng)
    }
}
