//! Battle of the Nations 1813 (Clicker Spiele): a card-driven area game around Leipzig.
//! Data in `data`, state in `state`, the actions and their errors in `actions`, the rules by
//! rulebook chapter in `rules/`, what each viewer may see in `observe`, the computer players in
//! `ai`, the headless Bevy plugin (states and the entity mirror) in `plugin`, log text in `text`,
//! its page of registration in `kit`, and behind `gui` the window's board, pieces and panels in `view/`.

pub mod actions;
pub mod ai;
pub mod data;
pub mod kit;
pub mod observe;
pub mod plugin;
pub mod rules;
pub mod state;
pub mod text;
#[cfg(feature = "gui")]
pub mod view;

pub use actions::{Action, BotnError, SandboxAction};
pub use data::{Scenario, Side};
pub use kit::play_game;
pub use observe::BotnView;
pub use rules::{Event, setup};
pub use state::Botn;

use crate::engine::rules::Mode;
pub use crate::engine::save::LoadError;
use crate::engine::save::SaveFile;
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
    crate::engine::save::save_of(table)
}

/// Replays a save on the scenario it names (`engine::kit::load_save`).
pub fn load_save(save: &SaveFile<Action>, save_path: &Path) -> Result<Table<Botn>, LoadError> {
    crate::engine::kit::load_save::<Botn>(save, save_path)
}
