//! Victory & Glory's page of registration: its scenario, its players by name (the solo AI of
//! section XV beside the levels), how a table starts, how its computer plays a game, and its own
//! window opening, where the computer is the solo AI by default (`engine::kit`).

use super::ai::VgPlayer;
use super::{Player, Vg, VgScenario, play_between, table_on};
use crate::engine::kit::Kit;
use crate::engine::rules::Mode;
use crate::engine::scenario::DataError;
use crate::engine::table::Table;
use std::path::Path;
use std::sync::Arc;
#[cfg(feature = "gui")]
use {super::rules, crate::engine::seats::Viewer};

/// A side named on the command line: france or britain.
pub fn side_named(name: &str) -> Option<Player> {
    match name.to_ascii_lowercase().as_str() {
        "france" | "french" => Some(Player::France),
        "britain" | "british" => Some(Player::Britain),
        _ => None,
    }
}

impl Kit for Vg {
    type Scenario = VgScenario;
    type Player = VgPlayer;
    const NAME: &'static str = "Victory & Glory: Napoleon";
    const DEFAULT_SCENARIO: &'static str = "napoleon.ron";
    const SEATS: &'static [&'static str] = &["france", "britain"];
    const MAX_ACTIONS: usize = 20_000;
    const PLAYTEST_ACTIONS: usize = crate::engine::entry::MAX_PLAYTEST_ACTIONS;
    const SAVE_NAME: &'static str = "vg";
    const JOURNAL: &'static str = "vg-journal.ron";
    const RANDOM: VgPlayer = VgPlayer::Random;
    const QUESTIONS: &'static [crate::engine::orders::QuestionKind] = super::rules::QUESTIONS;
    const BASELINE: &'static str = "solo";
    const PLAYERS: &'static str = "random, beginner, normal, strong, expert and solo (the solo AI of section XV)";

    fn seat_named(name: &str) -> Option<usize> {
        side_named(name).map(|p| p.index())
    }

    fn player_named(name: &str) -> Option<VgPlayer> {
        <VgPlayer as clap::ValueEnum>::from_str(name, true).ok()
    }

    fn player_label(p: VgPlayer) -> &'static str {
        p.label()
    }

    fn players_allowed(players: &[VgPlayer; 2]) -> Result<(), String> {
        if *players == [VgPlayer::Solo; 2] {
            return Err("the solo AI plays one side only (--player france=solo)".into());
        }
        Ok(())
    }

    fn load_scenario(path: &Path) -> Result<VgScenario, DataError> {
        VgScenario::load(path)
    }

    fn scenario_hash(sc: &VgScenario) -> String {
        sc.hash.clone()
    }

    fn describe(sc: &VgScenario) -> String {
        format!(
            "scenario \"{}\", {} nations, {} units, {} cards",
            sc.name,
            sc.nations.len(),
            sc.units.len(),
            sc.cards.len()
        )
    }

    /// A table of two; the solo option is the log's first action, which a solo game's players
    /// (`play_game`) or the window take.
    fn table_on(sc: Arc<VgScenario>, seed: u64, mode: Mode) -> Table<Vg> {
        table_on(sc, seed, None).with_mode(mode)
    }

    fn play_game(sc: Arc<VgScenario>, seed: u64, players: [VgPlayer; 2], max: usize) -> Result<Table<Vg>, String> {
        play_between(sc, seed, players, max)
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
        player: VgPlayer,
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

/// The window as the command line asks: the computer is the solo AI of section XV (the default)
/// on the side `--computer` names, or a level at a table of two; a solo save keeps its AI.
#[cfg(feature = "gui")]
pub fn open_window(file: &Path, o: &crate::engine::entry::WindowOptions) -> i32 {
    let mode = if o.sandbox { Mode::Sandbox } else { Mode::Enforced };
    // The computer is the solo AI of section XV (the default), or a level at a table of two.
    let levels = <crate::games::vg::Vg as crate::table::TableGame>::LEVELS;
    let level = match o.level.as_deref() {
        None | Some("solo") => 0,
        Some(l) => match levels.iter().position(|x| x.eq_ignore_ascii_case(l)) {
            Some(k) => k,
            None => {
                eprintln!("--level {l}: expected solo, beginner, normal, strong or expert");
                return 2;
            }
        },
    };
    let ai = match o.computer.as_deref() {
        None => None,
        Some(seat) => match side_named(seat) {
            Some(side) => Some(side),
            None => {
                eprintln!("--computer {seat}: expected france or britain (the solo AI's side)");
                return 2;
            }
        },
    };
    let screenshot = match &o.screenshot {
        None => None,
        Some((out, seat)) => match seat.as_str() {
            "spectator" => Some((out.clone(), Viewer::Spectator)),
            name => match side_named(name).or_else(|| (name == "allied").then_some(Player::Britain)) {
                Some(p) => Some((out.clone(), Viewer::Seat(rules::seat_of(p)))),
                None => {
                    eprintln!("--seat {name}: expected france, britain or spectator");
                    return 2;
                }
            },
        },
    };
    let seed = o.seed.unwrap_or_else(crate::table::app::clock_seed);
    let table = match crate::engine::scenario::read_text(file).map_err(|e| e.to_string()).and_then(|text| {
        if crate::engine::save::looks_like_save(&text) {
            <Vg as crate::table::TableGame>::load(file, seed, mode)
        } else {
            super::new_table(file, seed, ai.filter(|_| level == 0))
                .map(|t| t.with_mode(mode))
                .map_err(|e| e.to_string())
        }
    }) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    // A solo save keeps its AI on the same side.
    let (ai, level) = match table.game.solo {
        Some(side) => (Some(side), 0),
        None => (ai, level),
    };
    let computers = Player::BOTH.iter().map(|&p| (Some(p) == ai).then_some(level)).collect();
    crate::table::app::run(
        table,
        crate::table::WindowSetup {
            screenshot,
            computers,
            pace: o.pace,
            journal_name: "vg-journal.ron",
            ui_scale: o.ui_scale,
            look: o.look,
            remote: o.remote.clone(),
            stream: o.stream.clone(),
            learn: o.learn,
            questions: <Vg as Kit>::QUESTIONS,
        },
    )
}
