//! Victory & Glory in the registry: validate, replay, simulate and the window.

use super::ai::VgPlayer;
use super::{Action, Player, VgScenario, data, load_save, play_game, save_of, table_on};
use crate::engine::autoplay::{journal_autoplay, report, simulate};
use crate::engine::save::{SaveFile, looks_like_save};
use crate::registry::{GameEntry, SimOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
#[cfg(feature = "gui")]
use {super::Vg, super::rules, crate::engine::rules::Mode, crate::engine::seats::Viewer};

/// The registry's handle on Victory & Glory.
pub struct Entry;

/// A side named on the command line: france or britain.
pub fn side_named(name: &str) -> Option<Player> {
    match name.to_ascii_lowercase().as_str() {
        "france" | "french" => Some(Player::France),
        "britain" | "british" => Some(Player::Britain),
        _ => None,
    }
}

impl GameEntry for Entry {
    fn id(&self) -> &'static str {
        data::GAME_ID
    }

    fn name(&self) -> &'static str {
        "Victory & Glory: Napoleon"
    }

    fn default_scenario(&self) -> PathBuf {
        crate::registry::scenarios_root().join(data::GAME_ID).join("napoleon.ron")
    }

    fn validate(&self, f: &Path, text: &str) -> Result<String, String> {
        if looks_like_save(text) {
            let save = SaveFile::<Action>::read(f).map_err(|e| e.to_string())?;
            let table = load_save(&save, f).map_err(|e| format!("{}:1:1: {e}", f.display()))?;
            return Ok(format!("save of {} actions, digest {}", table.records.len(), table.digest()));
        }
        if text.contains("game:") {
            // Loaded as play loads it; then played, so what validate accepts can be played.
            let sc = Arc::new(VgScenario::load(f).map_err(|e| e.to_string())?);
            playtest_on(sc.clone(), f, 1, 2)?;
            return Ok(format!(
                "scenario \"{}\", {} nations, {} units, {} cards",
                sc.name,
                sc.nations.len(),
                sc.units.len(),
                sc.cards.len()
            ));
        }
        crate::registry::validate_part(self, f)
    }

    fn playtest(&self, scenario: &Path, seed: u64, games: u64) -> Result<(), String> {
        playtest_on(Arc::new(VgScenario::load(scenario).map_err(|e| e.to_string())?), scenario, seed, games)
    }

    fn replay(&self, path: &Path) -> Result<String, String> {
        crate::engine::save::replay_file(path, load_save).map(|t| t.digest())
    }

    fn verify(&self, path: &Path) -> Result<String, String> {
        crate::net::hosted::verify_file(path, |p, seed| super::new_table(p, seed, None).map_err(|e| e.to_string()))
    }

    fn host_tables(&self, scenario: &Path) -> Result<crate::net::host::Tables, String> {
        crate::net::host::tables_of(scenario, |p, seed| super::new_table(p, seed, None).map_err(|e| e.to_string()))
    }

    fn seat_save(&self, path: &Path, seat: &str) -> Result<String, String> {
        crate::engine::save::seat_save_file(path, seat, load_save)
    }

    fn simulate(&self, path: &Path, o: &SimOptions) -> i32 {
        // Who plays each side: random, a computer level, or the solo AI of section XV for one
        // side (`--player france=solo`), which sets the table for the solo game.
        let named = |p: &str| {
            <VgPlayer as clap::ValueEnum>::from_str(p, true)
                .map_err(|_| format!("`{p}`: expected random, beginner, normal, strong, expert or solo"))
        };
        let mut players = [VgPlayer::Random; 2];
        let parsed = (|| -> Result<(), String> {
            if let Some(p) = &o.players {
                players = [named(p)?; 2];
            }
            for (seat, p) in &o.seats {
                let side = side_named(seat).ok_or_else(|| format!("--player {seat}=…: expected france or britain"))?;
                players[side.index()] = named(p)?;
            }
            if players == [VgPlayer::Solo; 2] {
                return Err("the solo AI plays one side only (--player france=solo)".into());
            }
            Ok(())
        })();
        if let Err(e) = parsed {
            eprintln!("{e}");
            return 2;
        }
        let solo = Player::BOTH.into_iter().find(|p| players[p.index()] == VgPlayer::Solo);
        let run = VgScenario::load(path).map_err(|e| e.to_string()).and_then(|sc| {
            let sc = Arc::new(sc);
            simulate(
                o.games,
                o.seed,
                o.save_dir.as_deref().map(|d| (d, "vg")),
                |game_seed| super::play_between(sc.clone(), game_seed, players, 20_000),
                |game_seed| table_on(sc.clone(), game_seed, None),
                save_of,
                |game| game.vp,
            )
        });
        report(o.games, run, |run| {
            serde_json::json!({"france": players[0].label(), "britain": players[1].label(),
                "solo": solo.map(|p| p.name()), "france_wins": run.wins[0],
                "britain_wins": run.wins[1], "ties": run.wins[2]})
        })
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &["france", "britain"]
    }

    fn baseline(&self) -> &'static str {
        "solo"
    }

    fn match_of(&self, scenario: &Path, players: &[&str]) -> Result<crate::engine::ladder::MatchGame, String> {
        let named = |p: &str| {
            <VgPlayer as clap::ValueEnum>::from_str(p, true).map_err(|_| format!("`{p}`: not a player of this game"))
        };
        let players = [named(players[0])?, named(players[1])?];
        let sc = Arc::new(VgScenario::load(scenario).map_err(|e| e.to_string())?);
        Ok(Box::new(move |s| {
            let table = super::play_between(sc.clone(), s, players, 20_000)?;
            Ok(crate::engine::rules::Game::winner(&table.game).map(|w| w.0 as usize))
        }))
    }

    fn autoplay(&self, scenario: &Path, journal: &Path, seed: u64, max: u64, delay_ms: u64) -> i32 {
        let new = || Ok(table_on(Arc::new(VgScenario::load(scenario)?), seed, None));
        journal_autoplay(new, save_of, journal, seed, max, delay_ms)
    }

    #[cfg(feature = "gui")]
    fn report(&self, save: &Path, out: &Path, pictures: bool) -> Result<std::path::PathBuf, String> {
        crate::table::report::write::<crate::games::vg::Vg>(save, out, pictures)
    }

    #[cfg(feature = "gui")]
    fn open_window(&self, file: &Path, o: &crate::registry::WindowOptions) -> i32 {
        // Flags of other games are refused, never ignored.
        if o.sandbox {
            eprintln!("--sandbox: Victory & Glory has no sandbox mode");
            return 2;
        }
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
                <Vg as crate::table::TableGame>::load(file, seed, Mode::Enforced)
            } else {
                super::new_table(file, seed, ai.filter(|_| level == 0)).map_err(|e| e.to_string())
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
            },
        )
    }
}

/// `games` random games on a loaded scenario (the file it came from names the errors), each to its
/// end within `MAX_PLAYTEST_ACTIONS`.
fn playtest_on(sc: Arc<VgScenario>, file: &Path, seed: u64, games: u64) -> Result<(), String> {
    for g in 0..games {
        play_game(sc.clone(), seed.wrapping_add(g), None, crate::registry::MAX_PLAYTEST_ACTIONS)
            .map_err(|e| format!("{}:1:1: a random game cannot be played to its end: {e}", file.display()))?;
    }
    Ok(())
}
