//! Leipzig 1813 (SPI's *Leipzig: The Battle of Nations*): data, state, the rules by rulebook
//! chapter in `rules/`, what each viewer may see in `observe`, the computer players in `ai`, the
//! page of registration in `kit`, the words in `text`, and behind `gui` the window's map, counters
//! and panels in `view/`.

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

pub use actions::{Action, Event, LzError};
pub use data::{LzScenario, Side};
pub use observe::LzView;
pub use state::Leipzig;

use crate::engine::rules::{Game, Mode};
use crate::engine::save::{LoadError, SaveFile};
use crate::engine::scenario::DataError;
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::table::{Entry as LogEntry, Table};
use ai::LzPlayer;
use std::path::Path;
use std::sync::Arc;

/// A new table on a scenario file.
pub fn new_table(path: &Path, seed: u64) -> Result<Table<Leipzig>, DataError> {
    Ok(table_on(Arc::new(LzScenario::load(path)?), seed))
}

pub fn table_on(sc: Arc<LzScenario>, seed: u64) -> Table<Leipzig> {
    let (game, events) = rules::setup(sc, seed);
    let mut t = Table::new(game, seed, Mode::Enforced);
    t.entries.extend(events.into_iter().map(|event| LogEntry::Game { seat: SeatId(1), event }));
    t
}

pub fn save_of(table: &Table<Leipzig>) -> SaveFile<Action> {
    crate::engine::save::save_of(table)
}

/// Replays a save on the scenario it names (`engine::kit::load_save`).
pub fn load_save(save: &SaveFile<Action>, save_path: &Path) -> Result<Table<Leipzig>, LoadError> {
    crate::engine::kit::load_save::<Leipzig>(save, save_path)
}

/// One complete game, each side played by `players[side]`, each deciding on its own view. The
/// random player draws a counter and then its destination (see `ai::random_action`); the
/// computer chooses from the whole legal list. A dead end, a refused action or a game longer
/// than `max_actions` is an error naming the seed.
pub fn play_game(
    sc: Arc<LzScenario>,
    seed: u64,
    players: [LzPlayer; 2],
    max_actions: usize,
) -> Result<Table<Leipzig>, String> {
    let mut chooser = crate::engine::rng::TableRng::from_seed(seed ^ 0x1e19_2161_3a11);
    let mut legal = Vec::new();
    crate::engine::autoplay::play_drawing(table_on(sc, seed), seed, max_actions, |g: &Leipzig, seat| {
        match players[seat.0 as usize] {
            LzPlayer::Random => ai::random_action(g, &mut chooser),
            player => {
                g.legal(None, &mut legal);
                (!legal.is_empty()).then(|| ai::choose(|| g.observe(Viewer::Seat(seat)), &legal, player, &mut chooser))
            }
        }
    })
}
