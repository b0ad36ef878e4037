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
    /// This table as it is, its journal started afresh (the resume offer declined).
    Restart,
    /// The table written to a save file: the menu asks, the system that holds the table writes.
    Save(std::path::PathBuf),
    /// What `viewer` sees of the table written to a seat's save, with the log as that seat read
    /// it (at a host's table, where the window holds only its seat's view).
    SaveView {
        path: std::path::PathBuf,
        viewer: crate::engine::seats::Viewer,
        log: Vec<String>,
    },
}

impl<G: Game> Request<G> {
    /// Whether the request leaves the table as it is (a save, a fresh journal): carried out
    /// wherever the window's table is, a host's or a replay's too.
    pub fn keeps_table(&self) -> bool {
        matches!(self, Request::Restart | Request::Save(_) | Request::SaveView { .. })
    }
}

/// Carries out a request that writes a file or the journal and leaves the table as it is; None
/// for a request that changes the table.
fn keep_request<G: Game>(table: &Table<G>, journal: &mut JournalRes, request: &Request<G>) -> Option<Outcome> {
    let written = |path: &std::path::Path, done: std::io::Result<()>, what: &str| match done {
        Ok(()) => Outcome { accepted: true, message: format!("{what} to {}", path.display()) },
        Err(e) => Outcome { accepted: false, message: format!("Could not save {}: {e}", path.display()) },
    };
    match request {
        Request::Act { .. } | Request::Undo | Request::Replace(_) => None,
        Request::Restart => {
            journal.start(table);
            Some(Outcome { accepted: true, message: String::new() })
        }
        Request::Save(path) => Some(written(path, crate::engine::save::save_of(table).write(path), "Saved")),
        Request::SaveView { path, viewer, log } => {
            let mut text = crate::engine::save::seat_save_of(table, *viewer);
            text.push_str("\n// The log, as this seat read it:\n");
            for line in log {
                text.push_str(&format!("// {line}\n"));
            }
            Some(written(path, std::fs::write(path, text), "Your view saved"))
        }
    }
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

/// The window acting out a roll: while dice tumble in the tray the result waits. The table
/// resource keeps the table as it was before the action that rolled (its result is `Held`),
/// so the entity mirror, every panel and the log show it until the dice come to rest, and the
/// computer waits. The dice set it off when they rest. Headless, nothing sets it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settling {
    pub active: bool,
}

/// Whether the window acts out the rolls the rules make (View → Dice → thrown): an action that
/// rolls is applied and journalled at once, but shown only once its dice rest. Absent headless.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActOutRolls(pub bool);

/// The table after an action whose dice are being thrown, and its log entries other than the
/// rolls (sent once it shows).
#[derive(Resource)]
pub struct Held<G: Game> {
    pub table: Option<Table<G>>,
    pub entries: Vec<Entry<G::Event>>,
}

impl<G: Game> Default for Held<G> {
    fn default() -> Self {
        Held { table: None, entries: Vec::new() }
    }
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
    /// What the eyes see is worked out (`engine::seen`), once the window has settled its eyes.
    See,
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
            .init_resource::<Held<G>>()
            .configure_sets(Update, (TableSet::Apply, TableSet::See, TableSet::Sync, TableSet::Present).chain())
            .configure_sets(Update, TableSet::Sync.run_if(settled))
            .add_systems(Update, (release_held::<G>, apply_requests::<G>).chain().in_set(TableSet::Apply));
    }
}

/// Once the dice of a held action rest, the table shows its result.
fn release_held<G: Game>(
    mut held: ResMut<Held<G>>,
    settling: Res<Settling>,
    table: Option<ResMut<TableRes<G>>>,
    mut version: ResMut<TableVersion>,
    mut logged: MessageWriter<Logged<G>>,
) {
    if settling.active || held.table.is_none() {
        return;
    }
    let after = held.table.take().expect("checked");
    if let Some(mut table) = table {
        table.0 = after;
        version.0 += 1;
        for e in held.entries.drain(..) {
            logged.write(Logged(e));
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn apply_requests<G: Game>(
    mut requests: MessageReader<Request<G>>,
    mut outcomes: MessageWriter<Outcome>,
    mut logged: MessageWriter<Logged<G>>,
    table: Option<ResMut<TableRes<G>>>,
    mut journal: ResMut<JournalRes>,
    mut version: ResMut<TableVersion>,
    hosted: Option<Res<HostsTable>>,
    (act_out, mut held, mut settling): (Option<Res<ActOutRolls>>, ResMut<Held<G>>, ResMut<Settling>),
) {
    let Some(mut table) = table else {
        requests.clear();
        return;
    };
    let act_out = act_out.is_some_and(|a| a.0);
    for request in requests.read() {
        // While dice roll, the table whose result they show.
        if let Some(outcome) = keep_request(held.table.as_ref().unwrap_or(&table.0), &mut journal, request) {
            outcomes.write(outcome);
            continue;
        }
        if hosted.is_some() {
            // A host's table: the host decides, `table::remote` sends the requests there.
            continue;
        }
        if held.table.is_some() {
            if let Request::Replace(_) = request {
                *held = Held::default();
                settling.active = false;
            } else {
                outcomes.write(Outcome {
                    accepted: false,
                    message: "the dice are rolling: the table shows their result once they rest".into(),
                });
                continue;
            }
        }
        let before = table.0.entries.len();
        // Kept while the window acts out rolls: an action that rolls is shown from it until its
        // dice rest.
        let snapshot = (act_out && matches!(request, Request::Act { .. })).then(|| table.0.clone());
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
            // Carried out above, by `keep_request`.
            Request::Restart | Request::Save(_) | Request::SaveView { .. } => continue,
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
                let new: Vec<Entry<G::Event>> = table.0.entries.iter().skip(from).cloned().collect();
                if let Some(old) = snapshot.filter(|_| new.iter().any(|e| e.roll().is_some())) {
                    // The rolls go to the dice now; the table and the rest of its log once they rest.
                    let after = std::mem::replace(&mut table.0, old);
                    let (rolls, rest): (Vec<_>, Vec<_>) = new.into_iter().partition(|e| e.roll().is_some());
                    for r in rolls {
                        logged.write(Logged(r));
                    }
                    *held = Held { table: Some(after), entries: rest };
                    settling.active = true;
                } else {
                    for entry in new {
                        logged.write(Logged(entry));
                    }
                }
                outcomes.write(Outcome { accepted: true, message: String::new() });
            }
            Err(e) => {
                outcomes.write(Outcome { accepted: false, message: e.to_string() });
            }
        }
    }
}
