//! Leipzig 1813 in the registry: validate, replay, simulate and the window.

use super::ai::LzPlayer;
use super::text::side_named;
use super::{Action, LzScenario, load_save, play_game, save_of, table_on};
use crate::engine::autoplay::{journal_autoplay, report, simulate};
use crate::engine::rules::Game;
use crate::engine::save::{SaveFile, looks_like_save};
use crate::registry::{GameEntry, SimOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The registry's handle on Leipzig 1813.
pub struct Entry;

/// The most actions one game may take (a random campaign game is far below it).
pub const MAX_ACTIONS: usize = 60_000;

fn player_named(p: &str) -> Result<LzPlayer, String> {
    LzPlayer::named(p)
        .ok_or_else(|| format!("`{p}`: Leipzig's players are random, beginner, normal, strong and expert"))
}

impl GameEntry for Entry {
    fn id(&self) -> &'static str {
        super::data::GAME_ID
    }

    fn name(&self) -> &'static str {
        "Leipzig 1813"
    }

    fn default_scenario(&self) -> PathBuf {
        crate::registry::scenarios_root().join(super::data::GAME_ID).join("1-historical-situation.ron")
    }

    fn validate(&self, f: &Path, text: &str) -> Result<String, String> {
        if looks_like_save(text) {
            let save = SaveFile::<Action>::read(f).map_err(|e| e.to_string())?;
            let table = load_save(&save, f).map_err(|e| format!("{}:1:1: {e}", f.display()))?;
            return Ok(format!("save of {} actions, digest {}", table.records.len(), table.digest()));
        }
        if text.contains("game:") {
            let sc = Arc::new(LzScenario::load(f).map_err(|e| e.to_string())?);
            playtest_on(sc.clone(), f, 1, 2)?;
            return Ok(format!(
                "scenario \"{}\", turns {} to {}, {} hexes, {} deployment groups, {} reinforcement rows",
                sc.name,
                sc.first_turn,
                sc.last_turn,
                sc.board.len(),
                sc.groups.len(),
                sc.reinforcements.len()
            ));
        }
        crate::registry::validate_part(self, f)
    }

    fn playtest(&self, scenario: &Path, seed: u64, games: u64) -> Result<(), String> {
        playtest_on(Arc::new(LzScenario::load(scenario).map_err(|e| e.to_string())?), scenario, seed, games)
    }

    fn replay(&self, path: &Path) -> Result<String, String> {
        crate::engine::save::replay_file(path, load_save).map(|t| t.digest())
    }

    fn verify(&self, path: &Path) -> Result<String, String> {
        crate::net::hosted::verify_file(path, |p, seed| super::new_table(p, seed).map_err(|e| e.to_string()))
    }

    fn host_tables(&self, scenario: &Path) -> Result<crate::net::host::Tables, String> {
        crate::net::host::tables_of(scenario, |p, seed| super::new_table(p, seed).map_err(|e| e.to_string()))
    }

    fn seat_save(&self, path: &Path, seat: &str) -> Result<String, String> {
        crate::engine::save::seat_save_file(path, seat, load_save)
    }

    fn simulate(&self, path: &Path, o: &SimOptions) -> i32 {
        let mut players = [LzPlayer::Random; 2];
        let parsed = (|| -> Result<(), String> {
            if let Some(p) = &o.players {
                players = [player_named(p)?; 2];
            }
            for (seat, p) in &o.seats {
                let side = side_named(seat).ok_or_else(|| format!("--player {seat}=…: expected french or allied"))?;
                players[side.index()] = player_named(p)?;
            }
            Ok(())
        })();
        if let Err(e) = parsed {
            eprintln!("{e}");
            return 2;
        }
        let label = |p: LzPlayer| p.label();
        let run = LzScenario::load(path).map_err(|e| e.to_string()).and_then(|sc| {
            let sc = Arc::new(sc);
            simulate(
                o.games,
                o.seed,
                o.save_dir.as_deref().map(|d| (d, "leipzig")),
                |game_seed| play_game(sc.clone(), game_seed, players, MAX_ACTIONS),
                |game_seed| table_on(sc.clone(), game_seed),
                save_of,
                |game| game.final_vp.unwrap_or([0, 0]),
            )
        });
        report(o.games, run, |run| {
            serde_json::json!({"french": label(players[0]), "allied": label(players[1]),
                "french_wins": run.wins[0], "allied_wins": run.wins[1], "draws": run.wins[2]})
        })
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &["french", "allied"]
    }

    fn match_of(&self, scenario: &Path, players: &[&str]) -> Result<crate::engine::ladder::MatchGame, String> {
        let players = [player_named(players[0])?, player_named(players[1])?];
        let sc = Arc::new(LzScenario::load(scenario).map_err(|e| e.to_string())?);
        Ok(Box::new(move |s| Ok(play_game(sc.clone(), s, players, MAX_ACTIONS)?.game.winner().map(|w| w.0 as usize))))
    }

    fn autoplay(&self, scenario: &Path, journal: &Path, seed: u64, max: u64, delay_ms: u64) -> i32 {
        let new = || Ok(table_on(Arc::new(LzScenario::load(scenario)?), seed));
        journal_autoplay(new, save_of, journal, seed, max, delay_ms)
    }

    #[cfg(feature = "gui")]
    fn report(&self, save: &Path, out: &Path, pictures: bool) -> Result<std::path::PathBuf, String> {
        crate::table::report::write::<crate::games::leipzig::Leipzig>(save, out, pictures)
    }

    #[cfg(feature = "gui")]
    fn open_window(&self, file: &Path, o: &crate::registry::WindowOptions) -> i32 {
        super::view::open_window(file, o)
    }
}

/// `games` random games on a loaded scenario, each to its end.
fn playtest_on(sc: Arc<LzScenario>, file: &Path, seed: u64, games: u64) -> Result<(), String> {
    for g in 0..games {
        play_game(sc.clone(), seed.wrapping_add(g), [LzPlayer::Random; 2], MAX_ACTIONS)
            .map_err(|e| format!("{}:1:1: a random game cannot be played to its end: {e}", file.display()))?;
    }
    Ok(())
}
