//! A game's page of registration (`Kit`) and the one registry entry every game gets from it
//! (`Registered<G>`): validate, playtest, replay, verify, the host's tables, seat saves,
//! simulate, the ladder, autoplay, the report and the window's opening are written here once, for
//! any game, as `Hosted<G>` is for the host. A fifth game writes its rules, its view and its `Kit`.

use crate::engine::autoplay::{journal_autoplay, report, simulate};
use crate::engine::entry::{GameEntry, SimOptions};
use crate::engine::rules::{Game, Mode};
use crate::engine::save::{LoadError, SaveFile, looks_like_save};
use crate::engine::scenario::DataError;
use crate::engine::table::Table;
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

/// A game's page of registration: its scenario, its players by name, how a table starts and how
/// its computer plays a game. Everything else the program does with a game comes from this.
pub trait Kit: Game {
    /// The loaded scenario a table is set on.
    type Scenario: Send + Sync + 'static;
    /// Who may play a seat in `simulate` and the ladder: random, the computer levels, and any
    /// player of the game's own (Victory & Glory's solo AI).
    type Player: Copy + PartialEq + Send + Sync + 'static;

    const NAME: &'static str;
    /// The scenario `play` opens without one, in the game's scenario folder.
    const DEFAULT_SCENARIO: &'static str;
    /// The seats as the command line names them (`--player SEAT=…`), in seat order.
    const SEATS: &'static [&'static str];
    /// The most actions one game may take before it is an error.
    const MAX_ACTIONS: usize;
    /// The most actions of a random game that shows a scenario can be played (`validate`).
    const PLAYTEST_ACTIONS: usize = Self::MAX_ACTIONS;
    /// The start of the names `simulate --save-dir` gives its saves.
    const SAVE_NAME: &'static str;
    /// The window's journal, beside the saves.
    const JOURNAL: &'static str;
    /// The player of a random game (`validate`'s playtest).
    const RANDOM: Self::Player;
    /// The players the ladder measures, weakest first (the same names in every game).
    const LADDER: &'static [&'static str] = &["random", "beginner", "normal", "strong", "expert"];
    /// What the ladder measures `strong` against besides the level below it.
    const BASELINE: &'static str = "beginner";
    /// Whether the game has a sandbox (`--sandbox`: any piece moved by hand, the rules silent).
    const SANDBOX: bool = false;
    /// The players' names in words, for the error that names a player the game lacks.
    const PLAYERS: &'static str = "random, beginner, normal, strong and expert";

    /// A seat named on the command line (its name in `SEATS`, or one of the game's other names
    /// for it, any case).
    fn seat_named(name: &str) -> Option<usize> {
        Self::SEATS.iter().position(|s| s.eq_ignore_ascii_case(name))
    }
    /// A player named on the command line.
    fn player_named(name: &str) -> Option<Self::Player>;
    /// A player's name, as `simulate` prints it.
    fn player_label(player: Self::Player) -> &'static str;
    /// Players that may not sit together (Victory & Glory's solo AI plays one side only).
    fn players_allowed(_players: &[Self::Player; 2]) -> Result<(), String> {
        Ok(())
    }

    fn load_scenario(path: &Path) -> Result<Self::Scenario, DataError>;
    /// The scenario's content hash, which a save records and a load compares.
    fn scenario_hash(sc: &Self::Scenario) -> String;
    /// What `validate` says of a scenario it accepted.
    fn describe(sc: &Self::Scenario) -> String;
    /// How a table starts on a scenario (a game without a sandbox ignores `mode`).
    fn table_on(sc: Arc<Self::Scenario>, seed: u64, mode: Mode) -> Table<Self>;
    /// One complete game, `players[i]` at seat `i`, each deciding on its own view: how the
    /// computer plays. A dead end or a game longer than `max_actions` is an error naming the seed.
    fn play_game(
        sc: Arc<Self::Scenario>,
        seed: u64,
        players: [Self::Player; 2],
        max_actions: usize,
    ) -> Result<Table<Self>, String>;
    /// The score `simulate` prints for a finished game.
    fn final_score(&self) -> serde_json::Value;
}

/// A new table on a scenario file, enforced.
pub fn new_table<G: Kit>(path: &Path, seed: u64) -> Result<Table<G>, DataError> {
    Ok(G::table_on(Arc::new(G::load_scenario(path)?), seed, Mode::Enforced))
}

/// Replays a save on the scenario it names (see `engine::save::load_save`).
pub fn load_save<G: Kit>(save: &SaveFile<G::Action>, save_path: &Path) -> Result<Table<G>, LoadError> {
    crate::engine::save::load_save(
        save,
        save_path,
        &crate::engine::save::scenario_dirs(G::ID, save_path),
        |p| {
            let sc = G::load_scenario(p)?;
            let hash = G::scenario_hash(&sc);
            Ok((Arc::new(sc), hash))
        },
        |sc| G::table_on(sc, save.seed, save.mode),
    )
}

/// The player `name` names, or the error that lists the game's players.
pub fn player_named<G: Kit>(name: &str) -> Result<G::Player, String> {
    G::player_named(name).ok_or_else(|| format!("`{name}`: {}'s players are {}", G::NAME, G::PLAYERS))
}

/// `games` random games on a loaded scenario (the file it came from names the errors), each to
/// its end within `PLAYTEST_ACTIONS`.
fn playtest_on<G: Kit>(sc: Arc<G::Scenario>, file: &Path, seed: u64, games: u64) -> Result<(), String> {
    for g in 0..games {
        G::play_game(sc.clone(), seed.wrapping_add(g), [G::RANDOM; 2], G::PLAYTEST_ACTIONS)
            .map_err(|e| format!("{}:1:1: a random game cannot be played to its end: {e}", file.display()))?;
    }
    Ok(())
}

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

    fn levels(&self) -> &'static [&'static str] {
        G::LADDER
    }

    fn baseline(&self) -> &'static str {
        G::BASELINE
    }

    fn match_of(&self, scenario: &Path, players: &[&str]) -> Result<crate::engine::ladder::MatchGame, String> {
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
        <G as crate::table::TableGame>::open_window(file, o)
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
