//! What the window's eyes see of the table, worked out once when the table or the eyes change
//! rather than in every frame of every panel: the view through the `Eyes` (`Game::observe`, the
//! one gate for hidden information) and, when the decision is the session's own seat's, its legal
//! orders; at a sandbox table, the pieces a hand may move. The Orders panel and the digit keys
//! read the orders from here, the By hand panel the pieces.

use super::TableGame;
use super::session::Session;
use crate::engine::plugin::{Eyes, TableRes, TableVersion};
use crate::engine::rules::{Game, Mode};
use crate::engine::sandbox::HandPiece;
use crate::engine::seats::Viewer;
use bevy::prelude::*;

/// The eyes' view of the table and the legal orders of the session's seat, as of the table's
/// last change.
#[derive(Resource)]
pub struct Seen<G: Game> {
    /// Whose eyes the view is through.
    pub eyes: Viewer,
    /// The view (None until the first update).
    pub view: Option<G::View>,
    /// The legal orders when the decision is the session's seat's (empty otherwise).
    pub legal: Vec<G::Action>,
    /// Whether the rules are enforced or the table is a sandbox.
    pub mode: Mode,
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
            legal: Vec::new(),
            mode: Mode::Enforced,
            pieces: Vec::new(),
            places: Vec::new().into(),
        }
    }
}

/// Works `Seen` out again when the table, its version, the eyes or the session's seat changed.
pub fn see<G: TableGame>(
    table: Res<TableRes<G>>,
    version: Res<TableVersion>,
    eyes: Res<Eyes>,
    session: Res<Session>,
    mut seen: ResMut<Seen<G>>,
    mut seat_seen: Local<Option<Option<crate::engine::seats::SeatId>>>,
    mut places_of: Local<String>,
) {
    let seat = session.seat();
    let fresh = seen.view.is_none() || *seat_seen != Some(seat);
    if !fresh && !table.is_changed() && !version.is_changed() && !eyes.is_changed() {
        return;
    }
    *seat_seen = Some(seat);
    let game = &table.0.game;
    let mut legal = Vec::new();
    if seat.is_some() && game.active_seat() == seat {
        game.legal_actions(table.0.mode, &mut legal);
    }
    let view = game.observe(eyes.0);
    let sandbox = table.0.mode == Mode::Sandbox;
    let pieces = if sandbox { G::hand_pieces(&view) } else { Vec::new() };
    // The places change only with the scenario (a new game in the window may bring another).
    if sandbox && (seen.places.is_empty() || *places_of != game.scenario().hash) {
        seen.places = game.hand_places().into();
        *places_of = game.scenario().hash;
    }
    let places = seen.places.clone();
    *seen = Seen { eyes: eyes.0, view: Some(view), legal, mode: table.0.mode, pieces, places };
}
