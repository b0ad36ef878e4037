//! A game's page of registration (`Kit`): its scenario, its players, how a table starts and how
//! its computer plays. The registry's entry for every game is written once from it
//! (`registered::Registered<G>`); a fifth game writes its rules, its view and its `Kit`.

use crate::engine::rules::{Game, Mode};
use crate::engine::save::{LoadError, SaveFile};
use crate::engine::scenario::DataError;
use crate::engine::table::Table;
use std::path::Path;
use std::sync::Arc;

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
    /// How a table starts on a scenario, enforced or a sandbox.
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
    /// The kinds of question this game asks a seat during the other's turn, which standing
    /// orders answer (`engine::orders`; none: it asks none).
    const QUESTIONS: &'static [crate::engine::orders::QuestionKind] = &[];

    /// The question the decision now is: the seat asked and the kind (none: the decision is the
    /// seat's own turn's, or the game asks no questions).
    fn question(&self) -> Option<(crate::engine::seats::SeatId, &'static str)> {
        None
    }

    /// A standing order's answer of the game's own (`QUESTIONS`) to the question now asked of
    /// `seat`, decided on that seat's view alone: the action, or none where the order no longer
    /// fits (the question waits for the seat).
    fn standing_answer(
        &self,
        _seat: crate::engine::seats::SeatId,
        _answer: &str,
        _legal: &[Self::Action],
    ) -> Option<Self::Action> {
        None
    }

    /// The computer's choice for `seat` as `player` among `legal`, decided on that seat's view
    /// alone: what the host plays for a seat out of time or as a seat's standing orders say.
    fn choose(
        &self,
        seat: crate::engine::seats::SeatId,
        legal: &[Self::Action],
        player: Self::Player,
        rng: &mut crate::engine::rng::TableRng,
    ) -> Self::Action;
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
pub fn playtest_on<G: Kit>(sc: Arc<G::Scenario>, file: &Path, seed: u64, games: u64) -> Result<(), String> {
    for g in 0..games {
        G::play_game(sc.clone(), seed.wrapping_add(g), [G::RANDOM; 2], G::PLAYTEST_ACTIONS)
            .map_err(|e| format!("{}:1:1: a random game cannot be played to its end: {e}", file.display()))?;
    }
    Ok(())
}
