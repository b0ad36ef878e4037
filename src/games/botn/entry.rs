//! Battle of the Nations in the registry: validate, replay, simulate and the window.

use super::ai::Player;
use super::{Action, Botn, Scenario, ai, data, load_save, save_of, table_on};
use crate::engine::autoplay::{journal_autoplay, play_out, report, simulate};
use crate::engine::rng::TableRng;
use crate::engine::rules::{Game, Mode};
use crate::engine::save::{SaveFile, looks_like_save};
#[cfg(feature = "gui")]
use crate::engine::seats::SeatId;
use crate::engine::seats::Viewer;
use crate::engine::table::Table;
use crate::registry::{GameEntry, SimOptions};
use clap::ValueEnum;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The registry's handle on Battle of the Nations.
pub struct Entry;

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

/// A seat named on the command line: french (Napoléon) or allied (Schwarzenberg).
pub fn seat_named(name: &str) -> Option<usize> {
    match name.to_ascii_lowercase().as_str() {
        "french" | "france" | "napoleon" | "napoléon" => Some(0),
        "allied" | "allies" | "schwarzenberg" => Some(1),
        _ => None,
    }
}

fn player_named(name: &str) -> Result<Player, String> {
    Player::from_str(name, true).map_err(|_| format!("`{name}`: expected random, easy, normal (or ai) or hard"))
}

impl GameEntry for Entry {
    fn id(&self) -> &'static str {
        data::GAME_ID
    }

    fn name(&self) -> &'static str {
        "Battle of the Nations 1813"
    }

    fn default_scenario(&self) -> PathBuf {
        data::default_scenario_path()
    }

    fn validate(&self, f: &Path, text: &str) -> Result<String, String> {
        if looks_like_save(text) {
            let save = SaveFile::<Action>::read(f).map_err(|e| e.to_string())?;
            let table = load_save(&save, f).map_err(|e| format!("{}:1:1: {e}", f.display()))?;
            return Ok(format!("save of {} actions, digest {}", table.records.len(), table.digest()));
        }
        if text.contains("game:") {
            // Loaded as play loads it; then played, so what validate accepts can be played.
            let sc = Arc::new(Scenario::load(f).map_err(|e| e.to_string())?);
            playtest_on(sc.clone(), f, 1, 2)?;
            return Ok(format!("scenario \"{}\", {} fields, {} armies", sc.name, sc.fields.len(), sc.armies.len()));
        }
        crate::registry::validate_part(self, f)
    }

    fn playtest(&self, scenario: &Path, seed: u64, games: u64) -> Result<(), String> {
        playtest_on(Arc::new(Scenario::load(scenario).map_err(|e| e.to_string())?), scenario, seed, games)
    }

    fn replay(&self, path: &Path) -> Result<String, String> {
        crate::engine::save::replay_file(path, load_save).map(|t| t.digest())
    }

    fn verify(&self, path: &Path) -> Result<String, String> {
        crate::net::hosted::verify_file(path, |p, seed| {
            super::new_table(p, seed, crate::engine::rules::Mode::Enforced).map_err(|e| e.to_string())
        })
    }

    fn host_tables(&self, scenario: &Path) -> Result<crate::net::host::Tables, String> {
        crate::net::host::tables_of(scenario, |p, seed| {
            super::new_table(p, seed, crate::engine::rules::Mode::Enforced).map_err(|e| e.to_string())
        })
    }

    fn seat_save(&self, path: &Path, seat: &str) -> Result<String, String> {
        crate::engine::save::seat_save_file(path, seat, load_save)
    }

    fn simulate(&self, path: &Path, o: &SimOptions) -> i32 {
        let mut players = [Player::Random; 2];
        let parsed = (|| -> Result<(), String> {
            if let Some(p) = &o.players {
                players = [player_named(p)?; 2];
            }
            for (seat, p) in &o.seats {
                let i = seat_named(seat).ok_or_else(|| format!("--player {seat}=…: expected french or allied"))?;
                players[i] = player_named(p)?;
            }
            Ok(())
        })();
        if let Err(e) = parsed {
            eprintln!("{e}");
            return 2;
        }
        let run = Scenario::load(path).map_err(|e| e.to_string()).and_then(|sc| {
            let sc = Arc::new(sc);
            simulate(
                o.games,
                o.seed,
                o.save_dir.as_deref().map(|d| (d, "game")),
                |game_seed| play_game(sc.clone(), game_seed, players, 5000),
                |game_seed| table_on(sc.clone(), game_seed, Mode::Enforced),
                save_of,
                |game| game.vp,
            )
        });
        report(o.games, run, |run| {
            serde_json::json!({"french": players[0].label(), "allied": players[1].label(),
                "french_wins": run.wins[0], "allied_wins": run.wins[1]})
        })
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &["french", "allied"]
    }

    fn match_of(&self, scenario: &Path, players: &[&str]) -> Result<crate::engine::ladder::MatchGame, String> {
        let players = [player_named(players[0])?, player_named(players[1])?];
        let sc = Arc::new(Scenario::load(scenario).map_err(|e| e.to_string())?);
        Ok(Box::new(move |s| Ok(play_game(sc.clone(), s, players, 5000)?.game.winner().map(|w| w.0 as usize))))
    }

    fn autoplay(&self, scenario: &Path, journal: &Path, seed: u64, max: u64, delay_ms: u64) -> i32 {
        let new = || Ok(table_on(Arc::new(Scenario::load(scenario)?), seed, Mode::Enforced));
        journal_autoplay(new, save_of, journal, seed, max, delay_ms)
    }

    #[cfg(feature = "gui")]
    fn report(&self, save: &Path, out: &Path, pictures: bool) -> Result<std::path::PathBuf, String> {
        crate::table::report::write::<crate::games::botn::Botn>(save, out, pictures)
    }

    #[cfg(feature = "gui")]
    fn open_window(&self, file: &Path, o: &crate::registry::WindowOptions) -> i32 {
        let level = match o.level.as_deref().map(player_named).transpose() {
            Ok(l) => l.unwrap_or(Player::Normal),
            Err(e) => {
                eprintln!("--level {e}");
                return 2;
            }
        };
        let computers = match o.computer.as_deref() {
            None => [None, None],
            Some("both") => [Some(level), Some(level)],
            Some(seat) => match seat_named(seat) {
                Some(0) => [Some(level), None],
                Some(_) => [None, Some(level)],
                None => {
                    eprintln!("--computer {seat}: expected french, allied or both");
                    return 2;
                }
            },
        };
        let level = Player::COMPUTER.iter().position(|p| *p == level).unwrap_or(1);
        let computers = computers.iter().map(|c| c.map(|_| level)).collect();
        let screenshot = match &o.screenshot {
            None => None,
            Some((out, seat)) => match seat.as_str() {
                "spectator" => Some((out.clone(), Viewer::Spectator)),
                name => match seat_named(name) {
                    Some(s) => Some((out.clone(), Viewer::Seat(SeatId(s as u8)))),
                    None => {
                        eprintln!("--seat {name}: expected french, allied or spectator");
                        return 2;
                    }
                },
            },
        };
        let seed = o.seed.unwrap_or_else(crate::table::app::clock_seed);
        let mode = if o.sandbox { Mode::Sandbox } else { Mode::Enforced };
        match <Botn as crate::table::TableGame>::load(file, seed, mode) {
            Ok(table) => crate::table::app::run(
                table,
                crate::table::WindowSetup {
                    screenshot,
                    computers,
                    pace: o.pace,
                    journal_name: "journal.ron",
                    ui_scale: o.ui_scale,
                    look: o.look,
                    remote: o.remote.clone(),
                    stream: o.stream.clone(),
                    learn: o.learn,
                },
            ),
            Err(e) => {
                eprintln!("{e}");
                1
            }
        }
    }
}

/// `games` random games on a loaded scenario (the file it came from names the errors), each to its
/// end within `MAX_PLAYTEST_ACTIONS`.
fn playtest_on(sc: Arc<Scenario>, file: &Path, seed: u64, games: u64) -> Result<(), String> {
    for g in 0..games {
        play_game(sc.clone(), seed.wrapping_add(g), [Player::Random; 2], crate::registry::MAX_PLAYTEST_ACTIONS)
            .map_err(|e| format!("{}:1:1: a random game cannot be played to its end: {e}", file.display()))?;
    }
    Ok(())
}
