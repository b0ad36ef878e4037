//! Victory & Glory: Napoleon: data, state, the rules by rulebook section in `rules/`, what each
//! viewer may see in `observe`, the solo AI of section XV in `ai`, the miniatures battle sheet of
//! section XVI in `miniatures`, the headless Bevy plugin in `plugin`, its page of registration in
//! `kit`, the table, save and load helpers here, and behind `gui` the window's map and panels in
//! `view/`.

pub mod actions;
pub mod ai;
pub mod data;
pub mod kit;
pub mod miniatures;
pub mod observe;
pub mod plugin;
pub mod rules;
pub mod state;
pub mod text;
#[cfg(feature = "gui")]
pub mod view;

pub use actions::{Action, VgError};
pub use data::{Player, VgScenario};
pub use observe::VgView;
pub use state::Vg;

use crate::engine::rules::Game;
use crate::engine::rules::Mode;
use crate::engine::save::{LoadError, SaveFile};
use crate::engine::scenario::DataError;
use crate::engine::seats::SeatId;
use crate::engine::table::{Act, Entry as LogEntry, Table};
use std::path::Path;
use std::sync::Arc;

/// A new table on a scenario file; `solo` names the AI's side.
pub fn new_table(path: &Path, seed: u64, solo: Option<Player>) -> Result<Table<Vg>, DataError> {
    let sc = Arc::new(VgScenario::load(path)?);
    Ok(table_on(sc, seed, solo))
}

pub fn table_on(sc: Arc<VgScenario>, seed: u64, solo: Option<Player>) -> Table<Vg> {
    let (game, events) = rules::setup(sc, seed);
    let mut t = Table::new(game, seed, Mode::Enforced);
    t.entries.extend(events.into_iter().map(|event| LogEntry::Game { seat: SeatId(0), event }));
    if let Some(ai) = solo {
        // The solo option is the log's first action, so saves and replays carry it.
        let seat = t.game.active_seat().expect("a new game has a seat to play");
        t.submit(seat, Act::Game(Action::SoloSetup { ai })).expect("a new game accepts the solo option");
    }
    t
}

pub fn save_of(table: &Table<Vg>) -> SaveFile<Action> {
    crate::engine::save::save_of(table)
}

/// Replays a save on the scenario it names (`engine::kit::load_save`).
pub fn load_save(save: &SaveFile<Action>, save_path: &Path) -> Result<Table<Vg>, LoadError> {
    crate::engine::kit::load_save::<Vg>(save, save_path)
}

/// One complete game: the solo AI decides for its side (if any), a random player for the other.
pub fn play_game(
    sc: Arc<VgScenario>,
    seed: u64,
    solo: Option<Player>,
    max_actions: usize,
) -> Result<Table<Vg>, String> {
    use ai::VgPlayer;
    let mut players = [VgPlayer::Random; 2];
    if let Some(p) = solo {
        players[p.index()] = VgPlayer::Solo;
    }
    play_between(sc, seed, players, max_actions)
}

/// One complete game between two players (France's, Britain's); a `solo` player sets the table
/// for the solo game on its side (the other may not be `solo` too).
pub fn play_between(
    sc: Arc<VgScenario>,
    seed: u64,
    players: [ai::VgPlayer; 2],
    max_actions: usize,
) -> Result<Table<Vg>, String> {
    let solo = Player::BOTH.into_iter().find(|p| players[p.index()] == ai::VgPlayer::Solo);
    let mut chooser = crate::engine::rng::TableRng::from_seed(seed ^ 0x005e_ed0f_9a11);
    crate::engine::autoplay::play_out(table_on(sc, seed, solo), seed, max_actions, |game, legal, seat| {
        let who = players[rules::player_of(seat).index()];
        ai::choose(|| game.observe(crate::engine::seats::Viewer::Seat(seat)), legal, who, &mut chooser)
    })
}
