//! Victory & Glory: Napoleon: data, state, rules, the solo AI of section XV, the miniatures
//! option of section XVI, and the table, save and load helpers.

pub mod actions;
pub mod ai;
pub mod data;
pub mod miniatures;
pub mod plugin;
pub mod rules;
pub mod state;
pub mod text;

pub use actions::{Action, VgError};
pub use data::{Player, VgScenario};
pub use state::Vg;

use crate::engine::rules::Game;
use crate::engine::rules::Mode;
use crate::engine::save::{SaveFile, ScenarioRef};
use crate::engine::scenario::DataError;
use crate::engine::seats::SeatId;
use crate::engine::table::{Act, Entry, Table};
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
    t.entries.extend(events.into_iter().map(|event| Entry::Game { seat: SeatId(0), event }));
    if let Some(ai) = solo {
        // The solo option is the log's first action, so saves and replays carry it.
        let seat = t.game.active_seat().expect("a new game has a seat to play");
        t.submit(seat, Act::Game(Action::SoloSetup { ai })).expect("a new game accepts the solo option");
    }
    t
}

pub fn save_of(table: &Table<Vg>) -> SaveFile<Action> {
    SaveFile {
        format: crate::engine::save::FORMAT_VERSION,
        game: data::GAME_ID.to_string(),
        scenario: ScenarioRef {
            name: table.game.sc.name.clone(),
            path: table.game.sc.path.clone(),
            hash: table.game.sc.hash.clone(),
        },
        seed: table.seed,
        mode: table.mode,
        log: table.records.clone(),
    }
}

/// Replays a save on the scenario it names (relative paths from the working directory, then next
/// to the save); a changed scenario or an illegal action is refused, naming it.
pub fn load_save(save: &SaveFile<Action>, save_path: &Path) -> Result<Table<Vg>, crate::games::botn::LoadError> {
    use crate::games::botn::LoadError;
    let mut scenario = save.scenario.path.clone();
    if scenario.is_relative()
        && !scenario.exists()
        && let Some(dir) = save_path.parent()
    {
        scenario = dir.join(&save.scenario.path);
    }
    let sc = Arc::new(VgScenario::load(&scenario).map_err(LoadError::Data)?);
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
    let mut table = table_on(sc, save.seed, None);
    table.replay(save.log.iter().cloned()).map_err(|(index, record, e)| LoadError::BadAction {
        index,
        action: format!("{:?}", record.act),
        reason: e.to_string(),
    })?;
    Ok(table)
}

/// One complete game; `players[seat]` decides for each seat (the solo AI side plays `Solo`).
pub fn play_game(
    sc: Arc<VgScenario>,
    seed: u64,
    solo: Option<Player>,
    max_actions: usize,
) -> Result<Table<Vg>, String> {
    use ai::VgPlayer;
    let mut table = table_on(sc, seed, solo);
    let mut chooser = crate::engine::rng::TableRng::from_seed(seed ^ 0x005e_ed0f_9a11);
    let mut legal = Vec::new();
    while !table.game.is_over() {
        if table.records.len() >= max_actions {
            return Err(format!("seed {seed}: no end after {max_actions} actions"));
        }
        table.game.legal_actions(table.mode, &mut legal);
        let Some(seat) = table.game.active_seat() else { break };
        if legal.is_empty() {
            return Err(format!("seed {seed}: dead end, no legal action at {:?}", table.game.phase));
        }
        let who = if solo.map(rules::seat_of) == Some(seat) { VgPlayer::Solo } else { VgPlayer::Random };
        let action = ai::choose(&table.game, &legal, who, &mut chooser);
        table
            .submit(seat, Act::Game(action.clone()))
            .map_err(|e| format!("seed {seed}: listed action {action:?} refused: {e}"))?;
    }
    Ok(table)
}
