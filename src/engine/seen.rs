//! What the window's eyes see of the table, worked out once when the table or the eyes change
//! rather than in every frame of every panel: the view through the `Eyes` (`Game::observe`, the
//! one gate for hidden information), a whole table drawn from that view alone
//! (`Game::from_view`, as a window seated at a host's table draws one), the log in the eyes'
//! words, and, when the decision is the eyes' own seat's, its legal orders; at a sandbox
//! table, the pieces a hand may move. The presentation systems (the panels, the entity mirror,
//! the labels, the broadcast's overlay) read the table only from here: what they are given holds
//! nothing the eyes may not see. Only the appliers (the rules' requests, the computer, the
//! journal, the host's connection) hold the table itself.

use crate::engine::log::{Entry, Span};
use crate::engine::plugin::{Eyes, Request, TableRes, TableVersion};
use crate::engine::rng::TableRng;
use crate::engine::roll::Roll;
use crate::engine::rules::{Game, Mode};
use crate::engine::sandbox::HandPiece;
use crate::engine::seats::Viewer;
use bevy::prelude::*;

/// Keeps `Seen<G>` worked out: once before the first frame, then in `TableSet::See` of every frame
/// (it does nothing unless the table or the eyes changed). A game's rules plugin adds it beside
/// the `EnginePlugin`.
pub struct SeenPlugin<G>(std::marker::PhantomData<G>);

impl<G> Default for SeenPlugin<G> {
    fn default() -> Self {
        Self(std::marker::PhantomData)
    }
}

impl<G: Game> Plugin for SeenPlugin<G> {
    fn build(&self, app: &mut App) {
        app.init_resource::<Seen<G>>()
            .add_systems(PreStartup, see::<G>)
            .add_systems(Update, see::<G>.in_set(crate::engine::plugin::TableSet::See));
    }
}

/// One line of the log as the eyes may read it.
#[derive(Clone, Debug)]
pub struct Line<G: Game> {
    /// Its words (`Game::log_spans`).
    pub spans: Vec<Span>,
    /// The roll it records, if it is one (every roll is public).
    pub roll: Option<Roll>,
    /// Its event, where the eyes may know it (`Game::event_seen`).
    pub event: Option<G::Event>,
}

impl<G: Game> Line<G> {
    /// The line's words as plain text.
    pub fn text(&self) -> String {
        self.spans
            .iter()
            .map(|s| match s {
                Span::Text(t) | Span::Link(t, _) => t.as_str(),
            })
            .collect()
    }
}

/// The eyes' view of the table, the table drawn from it, the log in their words and the legal
/// orders of the eyes' seat, as of the table's last change.
#[derive(Resource)]
pub struct Seen<G: Game> {
    /// Whose eyes the view is through.
    pub eyes: Viewer,
    /// The view (None until the first update).
    pub view: Option<G::View>,
    /// A whole table consistent with the view: what it hides dealt from a fixed seed, and no
    /// future for the dice. The panels ask it their questions (`game()`).
    pub table: Option<G>,
    /// The legal orders when the decision is the eyes' seat's (empty otherwise: a spectator, the
    /// other seat, a table under the hot-seat's cover).
    pub legal: Vec<G::Action>,
    /// Whether the rules are enforced or the table is a sandbox.
    pub mode: Mode,
    /// Whether the last order may be taken back.
    pub can_undo: bool,
    /// The log, a line an entry, in the eyes' words.
    pub log: Vec<Line<G>>,
    /// Orders taken so far (the log's records): the dice tray and the hint count the table's
    /// moments by it.
    pub moves: usize,
    /// A number drawn from the table's seed that tells nothing of its future: what the dice
    /// tray's tumbles and the hint's search are seeded from, the same at every screen.
    pub salt: u64,
    /// A sandbox table's pieces as the view shows them (`Game::hand_pieces`; empty when the
    /// rules are enforced).
    pub pieces: Vec<HandPiece>,
    /// The places a piece may lie on (`Game::hand_places`), listed once for the scenario.
    pub places: std::sync::Arc<[String]>,
}

impl<G: Game> Default for Seen<G> {
    fn default() -> Self {
        Seen {
            eyes: Viewer::Spectator,
            view: None,
            table: None,
            legal: Vec::new(),
            mode: Mode::Enforced,
            can_undo: false,
            log: Vec::new(),
            moves: 0,
            salt: 0,
            pieces: Vec::new(),
            places: Vec::new().into(),
        }
    }
}

impl<G: Game> Seen<G> {
    /// The table as the eyes see it (None before the first update).
    pub fn game(&self) -> Option<&G> {
        self.table.as_ref()
    }

    /// The last roll in the log.
    pub fn last_roll(&self) -> Option<&Roll> {
        self.log.iter().rev().find_map(|l| l.roll.as_ref())
    }
}

/// The log's lines for `entries` through `eyes`.
fn lines<G: Game>(game: &G, entries: &[Entry<G::Event>], eyes: Viewer) -> impl Iterator<Item = Line<G>> {
    entries.iter().map(move |e| Line {
        spans: game.log_spans(e, eyes),
        roll: e.roll().cloned(),
        event: match e {
            Entry::Game { event, .. } => game.event_seen(event, eyes),
            Entry::Roll(_) | Entry::Hand { .. } => None,
        },
    })
}

/// Works `Seen` out again when the table, its version or the eyes changed.
pub fn see<G: Game>(
    table: Option<Res<TableRes<G>>>,
    version: Res<TableVersion>,
    eyes: Res<Eyes>,
    mut requests: MessageReader<Request<G>>,
    mut seen: ResMut<Seen<G>>,
    mut places_of: Local<String>,
) {
    let Some(table) = table else { return };
    // An order taken back or a table replaced: the log is worded again from its start (an undo
    // and a new order in one frame leave it as long as it was).
    let rewrite = requests.read().any(|r| matches!(r, Request::Undo | Request::Replace(_)));
    let fresh = seen.view.is_none();
    if !fresh && !rewrite && !table.is_changed() && !version.is_changed() && !eyes.is_changed() {
        return;
    }
    let seat = match eyes.0 {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    let t = &table.0;
    let game = &t.game;
    let mut legal = Vec::new();
    if seat.is_some() && game.active_seat() == seat {
        game.legal_actions(t.mode, &mut legal);
    }
    let view = game.observe(eyes.0);
    let drawn = G::from_view(&view, &mut TableRng::from_seed(0));
    let sandbox = t.mode == Mode::Sandbox;
    let pieces = if sandbox { G::hand_pieces(&view) } else { Vec::new() };
    // The places change only with the scenario (a new game in the window may bring another).
    if sandbox && (seen.places.is_empty() || *places_of != game.scenario().hash) {
        seen.places = game.hand_places().into();
        *places_of = game.scenario().hash;
    }
    // The log: only the entries new since the last time are worded, unless the eyes changed or
    // the log went back.
    let mut log = std::mem::take(&mut seen.log);
    if rewrite || fresh || seen.eyes != eyes.0 || log.len() > t.entries.len() {
        log.clear();
    }
    log.extend(lines(game, &t.entries[log.len()..], eyes.0));
    let s = &mut *seen;
    s.eyes = eyes.0;
    s.view = Some(view);
    s.table = Some(drawn);
    s.legal = legal;
    s.mode = t.mode;
    s.can_undo = t.can_undo();
    s.log = log;
    s.moves = t.records.len();
    s.salt = crate::engine::rng::salt(t.seed);
    s.pieces = pieces;
}
