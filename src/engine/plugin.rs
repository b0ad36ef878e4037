//! The engine as a Bevy plugin: actions arrive as `Request` messages from any source (pointer,
//! egui, AI, replay, the menus' new game and load), one system applies them to the table resource
//! in the `TableSet::Apply` set, writes the journal, reports each result as an `Outcome` message
//! for the panels and sends every new log entry as a `Logged` message for views, dice and sounds.

use crate::engine::journal::{Journal, JournalLine};
use crate::engine::rules::Game;
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::table::{Act, Entry, Record, Table};
use bevy::prelude::*;
use std::marker::PhantomData;

/// The table of game `G` (one per app).
#[derive(Resource)]
pub struct TableRes<G: Game>(pub Table<G>);

/// The autosave journal, when the app keeps one: the open journal, and where a new table's
/// journal is started (none in screenshot mode).
#[derive(Resource, Default)]
pub struct JournalRes {
    pub journal: Option<Journal>,
    pub path: Option<std::path::PathBuf>,
}

impl JournalRes {
    /// Starts a fresh journal at `path` holding this table's log so far.
    pub fn start<G: Game>(&mut self, table: &Table<G>) {
        let Some(path) = &self.path else { return };
        self.journal = match Journal::create(path, &crate::engine::save::save_of(table)) {
            Ok(j) => Some(j),
            Err(e) => {
                error!("cannot write the journal {}: {e}", path.display());
                None
            }
        };
    }
}

/// A seat, or the menu, asks for something.
#[derive(Message, Clone, Debug)]
pub enum Request<G: Game> {
    Act {
        seat: SeatId,
        act: Act<G::Action>,
    },
    Undo,
    /// A new table in place of this one (a new game, a load, a resume); its journal starts afresh.
    Replace(Box<Table<G>>),
}

/// A line the rules added to the log, as it happens (after an applied action or a new table).
#[derive(Message, Clone, Debug)]
pub struct Logged<G: Game>(pub Entry<G::Event>);

/// The answer to a request, for the prompt bar and the log.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Outcome {
    pub accepted: bool,
    /// Why a request was refused, with its rule, in words for the player.
    pub message: String,
}

/// A piece beside the field of play — a card, a track's marker — that an action touches in
/// passing (the card played, the time advanced): the broadcast's director frames it only when
/// nothing on the field of play moved, so a move is framed on the map and not out to the hand.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Aside;

/// Whose eyes the entity mirror draws the table through: it is built from `Game::observe` of
/// this viewer, so no entity carries what that viewer may not see.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Eyes(pub Viewer);

impl Default for Eyes {
    fn default() -> Self {
        Eyes(Viewer::Spectator)
    }
}

/// Present when the table is a host's (a window seated with `--join`): requests are sent to the
/// host (`table::remote`) instead of applied here, and the table changes with the host's updates.
#[derive(Resource, Default)]
pub struct HostsTable;

/// The window acting out a roll: while dice tumble in the tray the result waits, so the
/// entity mirror (`TableSet::Sync`) keeps the table as it was until they come to rest, the
/// computer waits, and the log shows the entries before `log_from`. Headless, nothing sets it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settling {
    pub active: bool,
    pub log_from: Option<usize>,
}

/// Whether no roll is being acted out (the entity mirror may follow the table).
pub fn settled(s: Res<Settling>) -> bool {
    !s.active
}

/// Bumped whenever the table changes, so presentation systems redraw only then.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableVersion(pub u64);

/// The ordered chain every frame: apply the rules, then mirror the table into entities, then draw.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableSet {
    Apply,
    Sync,
    Present,
}

/// What a system mirroring the table into entities has to do this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncNeed {
    /// Nothing changed since the last sync.
    Nothing,
    /// The table changed: update the entities' components.
    Update,
    /// A table on another scenario (a new game or a load): despawn and spawn again.
    Respawn,
}

/// Decides a sync from the scenario's identity (its `Arc` pointer), whether the table resource
/// changed and the table version; `last` is the system's memory of the previous sync.
pub fn sync_need<S>(
    scenario: &std::sync::Arc<S>,
    changed: bool,
    version: &TableVersion,
    last: &mut Option<(u64, usize)>,
) -> SyncNeed {
    let identity = std::sync::Arc::as_ptr(scenario) as *const () as usize;
    let fresh = last.is_none_or(|(_, id)| id != identity);
    if !fresh && !changed && last.is_some_and(|(v, _)| v == version.0) {
        return SyncNeed::Nothing;
    }
    *last = Some((version.0, identity));
    if fresh { SyncNeed::Respawn } else { SyncNeed::Update }
}

pub struct EnginePlugin<G: Game>(PhantomData<G>);

impl<G: Game> Default for EnginePlugin<G> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<G: Game> Plugin for EnginePlugin<G> {
    fn build(&self, app: &mut App) {
        app.add_message::<Request<G>>()
            .add_message::<Outcome>()
            .add_message::<Logged<G>>()
            .init_resource::<JournalRes>()
            .init_resource::<TableVersion>()
            .init_resource::<Eyes>()
            .init_resource::<Settling>()
            .configure_sets(Update, (TableSet::Apply, TableSet::Sync, TableSet::Present).chain())
            .configure_sets(Update, TableSet::Sync.run_if(settled))
            .add_systems(Update, apply_requests::<G>.in_set(TableSet::Apply));
    }
}

fn apply_requests<G: Game>(
    mut requests: MessageReader<Request<G>>,
    mut outcomes: MessageWriter<Outcome>,
    mut logged: MessageWriter<Logged<G>>,
    table: Option<ResMut<TableRes<G>>>,
    mut journal: ResMut<JournalRes>,
    mut version: ResMut<TableVersion>,
    hosted: Option<Res<HostsTable>>,
) {
    let Some(mut table) = table else {
        requests.clear();
        return;
    };
    if hosted.is_some() {
        // A host's table: the host decides, `table::remote` sends the requests there.
        requests.clear();
        return;
    }
    for request in requests.read() {
        let before = table.0.entries.len();
        let result = match request.clone() {
            Request::Act { seat, act } => {
                table.0.submit(seat, act.clone()).map(|_| Some(JournalLine::Applied(Record { seat, act })))
            }
            Request::Undo => table.0.undo().map(|_| Some(JournalLine::Undo)),
            Request::Replace(new) => {
                table.0 = *new;
                journal.start(&table.0);
                Ok(None)
            }
        };
        match result {
            Ok(line) => {
                version.0 += 1;
                if let Some(line) = &line
                    && let Some(j) = journal.journal.as_mut()
                    && let Err(e) = j.append(line)
                {
                    error!("could not write the journal {}: {e}", j.path().display());
                }
                let from = if line.is_none() { table.0.entries.len() } else { before };
                for entry in table.0.entries.iter().skip(from) {
                    logged.write(Logged(entry.clone()));
                }
                outcomes.write(Outcome { accepted: true, message: String::new() });
            }
            Err(e) => {
                outcomes.write(Outcome { accepted: false, message: e.to_string() });
            }
        }
    }
}
