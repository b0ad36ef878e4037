//! The one registry entry every game gets from its `Kit` (`Registered<G>`): validate, playtest,
//! replay, verify, the host's tables, seat saves, simulate, the ladder, autoplay, the report and
//! the window's opening, written here once for any game, as `Hosted<G>` is for the host. It sits
//! above the engine, the network and the window, which it joins; none of them reads it.

use crate::engine::autoplay::{journal_autoplay, report, simulate};
use crate::engine::entry::{GameEntry, SimOptions};
use crate::engine::kit::{Kit, load_save, new_table, player_named, playtest_on};
use crate::engine::rules::Mode;
use crate::engine::save::{SaveFile, looks_like_save};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What the registry needs of a game besides its `Kit`: its window (`TableGame`), where there is
/// a window.
#[cfg(feature = "gui")]
pub trait Windowed: crate::table::TableGame {}
#[cfg(feature = "gui")]
impl<T: crate::table::TableGame> Windowed for T {}
/// What the registry needs of a game besides its `Kit`: nothing, where there is no window.
#[cfg(not(feature = "gui"))]
pub trait Windowed {}
#[cfg(not(feature = "gui"))]
impl<T> Windowed for T {}

/// The registry's handle on a game: its `Kit`, as every command and the window use it.
pub struct Registered<G>(std::marker::PhantomData<fn() -> G>);

impl<G> Registered<G> {
    pub const ENTRY: Registered<G> = Registered(std::marker::PhantomData);
}

impl<G: Kit + Windowed> GameEntry for Registered<G> {
    fn id(&self) -> &'static str {
        G::ID
    }

    fn name(&self) -> &'static str {
        G::NAME
    }

    fn default_scenario(&self) -> PathBuf {
        crate::engine::scenario::scenarios_root().join(G::ID).join(G::DEFAULT_SCENARIO)
    }

    fn validate(&self, f: &Path, text: &str) -> Result<String, String> {
        if looks_like_save(text) {
            let save = SaveFile::<G::Action>::read(f).map_err(|e| e.to_string())?;
            let table = load_save::<G>(&save, f).map_err(|e| format!("{}:1:1: {e}", f.display()))?;
            return Ok(format!("save of {} actions, digest {}", table.records.len(), table.digest()));
        }
        if text.contains("game:") {
            // Loaded as play loads it; then played, so what validate accepts can be played.
            let sc = Arc::new(G::load_scenario(f).map_err(|e| e.to_string())?);
            playtest_on::<G>(sc.clone(), f, 1, 2)?;
            return Ok(G::describe(&sc));
        }
        crate::engine::entry::validate_part(self, f)
    }

    fn playtest(&self, scenario: &Path, seed: u64, games: u64) -> Result<(), String> {
        playtest_on::<G>(Arc::new(G::load_scenario(scenario).map_err(|e| e.to_string())?), scenario, seed, games)
    }

    fn replay(&self, path: &Path) -> Result<String, String> {
        crate::engine::save::replay_file(path, load_save::<G>).map(|t| t.digest())
    }

    fn verify(&self, path: &Path) -> Result<String, String> {
        crate::net::hosted::verify_file(path, |p, seed| new_table::<G>(p, seed).map_err(|e| e.to_string()))
    }

    fn host_tables(&self, scenario: &Path) -> Result<crate::net::host::Tables, String> {
        crate::net::host::tables_of(scenario, |p, seed| new_table::<G>(p, seed).map_err(|e| e.to_string()))
    }

    fn seat_save(&self, path: &Path, seat: &str) -> Result<String, String> {
        crate::engine::save::seat_save_file(path, seat, load_save::<G>)
    }

    fn simulate(&self, path: &Path, o: &SimOptions) -> i32 {
        let players = match self.players_of(o) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        };
        let run = G::load_scenario(path).map_err(|e| e.to_string()).and_then(|sc| {
            let sc = Arc::new(sc);
            simulate(
                o.games,
                o.seed,
                o.save_dir.as_deref().map(|d| (d, G::SAVE_NAME)),
                |game_seed| G::play_game(sc.clone(), game_seed, players, G::MAX_ACTIONS),
                |game_seed| G::table_on(sc.clone(), game_seed, Mode::Enforced),
                |t| crate::engine::save::save_of(t),
                |game| game.final_score(),
            )
        });
        report(o.games, run, |run| {
            let mut line = serde_json::json!({ "draws": run.wins[2] });
            for (s, seat) in G::SEATS.iter().enumerate() {
                line[*seat] = G::player_label(players[s]).into();
                line[format!("{seat}_wins")] = run.wins[s].into();
            }
            line
        })
    }

    fn seat_names(&self) -> &'static [&'static str] {
        G::SEATS
    }

    fn conformance(
        &self,
        scenario: &Path,
        seed: u64,
        options: &crate::engine::conformance::Options,
    ) -> Result<crate::engine::conformance::Report, String> {
        crate::engine::conformance::check::<G>(scenario, seed, options)
    }

    fn levels(&self) -> &'static [&'static str] {
        G::LADDER
    }

    fn baseline(&self) -> &'static str {
        G::BASELINE
    }

    fn match_of(&self, scenario: &Path, players: &[&str]) -> Result<crate::engine::entry::MatchGame, String> {
        let players = [player_named::<G>(players[0])?, player_named::<G>(players[1])?];
        G::players_allowed(&players)?;
        let sc = Arc::new(G::load_scenario(scenario).map_err(|e| e.to_string())?);
        Ok(Box::new(move |s| {
            Ok(G::play_game(sc.clone(), s, players, G::MAX_ACTIONS)?.game.winner().map(|w| w.0 as usize))
        }))
    }

    fn autoplay(&self, scenario: &Path, journal: &Path, seed: u64, max: u64, delay_ms: u64) -> i32 {
        let new = || Ok(G::table_on(Arc::new(G::load_scenario(scenario)?), seed, Mode::Enforced));
        journal_autoplay(new, |t| crate::engine::save::save_of(t), journal, seed, max, delay_ms)
    }

    #[cfg(feature = "gui")]
    fn report(&self, save: &Path, out: &Path, pictures: bool) -> Result<PathBuf, String> {
        crate::table::report::write::<G>(save, out, pictures)
    }

    #[cfg(feature = "gui")]
    fn open_window(&self, file: &Path, o: &crate::engine::entry::WindowOptions) -> i32 {
        match <G as crate::table::TableGame>::OWN_WINDOW {
            Some(own) => own(file, o),
            None => crate::table::app::open_window::<G>(file, o),
        }
    }
}

impl<G: Kit> Registered<G> {
    /// Who plays each seat in `simulate`: `--players` for all, then `--player SEAT=…` by seat.
    fn players_of(&self, o: &SimOptions) -> Result<[G::Player; 2], String> {
        let mut players = [G::RANDOM; 2];
        if let Some(p) = &o.players {
            players = [player_named::<G>(p)?; 2];
        }
        for (seat, p) in &o.seats {
            let s =
                G::seat_named(seat).ok_or_else(|| format!("--player {seat}=…: expected {}", G::SEATS.join(" or ")))?;
            players[s] = player_named::<G>(p)?;
        }
        G::players_allowed(&players)?;
        Ok(players)
    }
}
