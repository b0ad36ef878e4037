//! Austerlitz (*The Battle of the 3 Emperors*): data, state, the rules by rulebook chapter in
//! `rules/`, what each viewer may see in `observe`, the computer players in `ai`, its page of
//! registration in `kit`, the words in `text`, the entity mirror in `plugin`, and behind `gui` the
//! window's board, counters and panels in `view/`.

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

pub use actions::{Action, AzError, Event};
pub use data::{AzScenario, Side};
pub use observe::AzView;
pub use state::Austerlitz;

use crate::engine::rules::{Game, Mode};
use crate::engine::save::{LoadError, SaveFile};
use crate::engine::scenario::DataError;
use crate::engine::seats::Viewer;
use crate::engine::table::Table;
use ai::AzPlayer;
use std::path::Path;
use std::sync::Arc;

/// A new table on a scenario file.
pub fn new_table(path: &Path, seed: u64) -> Result<Table<Austerlitz>, DataError> {
    Ok(table_on(Arc::new(AzScenario::load(path)?), seed))
}

pub fn table_on(sc: Arc<AzScenario>, seed: u64) -> Table<Austerlitz> {
    Table::new(rules::setup(sc, seed), seed, Mode::Enforced)
}

pub fn save_of(table: &Table<Austerlitz>) -> SaveFile<Action> {
    crate::engine::save::save_of(table)
}

/// Replays a save on the scenario it names (`engine::kit::load_save`).
pub fn load_save(save: &SaveFile<Action>, save_path: &Path) -> Result<Table<Austerlitz>, LoadError> {
    crate::engine::kit::load_save::<Austerlitz>(save, save_path)
}

/// One complete game, each side played by `players[side]`, each deciding on its own view. The
/// random player draws a unit and then where it goes (see `ai::random_action`); the computer
/// chooses from the whole legal list. A dead end, a refused action or a game longer than
/// `max_actions` is an error naming the seed.
pub fn play_game(
    sc: Arc<AzScenario>,
    seed: u64,
    players: [AzPlayer; 2],
    max_actions: usize,
) -> Result<Table<Austerlitz>, String> {
    let mut chooser = crate::engine::rng::TableRng::from_seed(seed ^ 0xa05e_1805);
    let mut legal = Vec::new();
    crate::engine::autoplay::play_drawing(table_on(sc, seed), seed, max_actions, |g: &Austerlitz, seat| {
        match players[seat.0 as usize] {
            AzPlayer::Random => ai::random_action(g, &mut chooser),
            player => {
                g.legal(&mut legal);
                (!legal.is_empty()).then(|| ai::choose(&g.observe(Viewer::Seat(seat)), &legal, player, &mut chooser))
            }
        }
    })
}
