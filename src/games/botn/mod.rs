//! Battle of the Nations 1813 (Clicker Spiele): a card-driven area game around Leipzig.
//! Data in `data`, state in `state`, the actions and their errors in `actions`, the rules in
//! `rules`, the headless Bevy plugin (states and entities) in `plugin`, log text in `text`.

pub mod actions;
pub mod ai;
pub mod data;
pub mod plugin;
pub mod rules;
pub mod state;
pub mod text;

pub use actions::{Action, BotnError, SandboxAction};
pub use data::{Scenario, Side};
pub use rules::{Event, setup};
pub use state::Botn;

use crate::engine::rules::Mode;
use crate::engine::save::{FORMAT_VERSION, SaveFile, ScenarioRef};
use crate::engine::scenario::DataError;
use crate::engine::table::Table;
use std::path::Path;
use std::sync::Arc;

/// A new table on a scenario file.
pub fn new_table(path: &Path, seed: u64, mode: Mode) -> Result<Table<Botn>, DataError> {
    let sc = Arc::new(Scenario::load(path)?);
    Ok(table_on(sc, seed, mode))
}

pub fn table_on(sc: Arc<Scenario>, seed: u64, mode: Mode) -> Table<Botn> {
    let (game, _setup_events) = setup(sc, seed);
    Table::new(game, seed, mode)
}

/// The save of a table (its scenario, seed, mode and log).
pub fn save_of(table: &Table<Botn>) -> SaveFile<Action> {
    let sc = &table.game.sc;
    SaveFile {
        format: FORMAT_VERSION,
        game: data::GAME_ID.to_string(),
        scenario: ScenarioRef { name: sc.name.clone(), path: sc.path.clone(), hash: sc.hash.clone() },
        seed: table.seed,
        mode: table.mode,
        log: table.records.clone(),
    }
}

/// Why a save could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    Data(DataError),
    /// A record of the log is illegal on this scenario: its index (from 0) and the reason.
    BadAction {
        index: usize,
        action: String,
        reason: String,
    },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Data(e) => write!(f, "{e}"),
            LoadError::BadAction { index, action, reason } => {
                write!(f, "action {} of the log ({action}) is illegal: {reason}", index + 1)
            }
        }
    }
}

/// Replays a save on the scenario it names. A relative scenario path is looked up from the
/// working directory, then next to the save.
pub fn load_save(save: &SaveFile<Action>, save_path: &Path) -> Result<Table<Botn>, LoadError> {
    let mut scenario = save.scenario.path.clone();
    if scenario.is_relative()
        && !scenario.exists()
        && let Some(dir) = save_path.parent()
    {
        scenario = dir.join(&save.scenario.path);
    }
    let sc = Arc::new(Scenario::load(&scenario).map_err(LoadError::Data)?);
    if sc.hash != save.scenario.hash {
        return Err(LoadError::Data(DataError::whole_file(
            save_path,
            format!(
                "field `scenario.hash`: the save was made on scenario data {} but {} now hashes to {}",
                save.scenario.hash,
                scenario.display(),
                sc.hash
            ),
        )));
    }
    let mut table = table_on(sc, save.seed, save.mode);
    table.replay(save.log.iter().cloned()).map_err(|(index, record, e)| LoadError::BadAction {
        index,
        action: format!("{:?}", record.act),
        reason: e.to_string(),
    })?;
    Ok(table)
}
