//! The computer opponent in the window: when its seat is to decide, it waits a moment (so the
//! person at the table can follow each move), picks from the legal actions and sends the choice
//! as a `Request`, exactly as a click would; the rules check it like any other.

use super::session::Session;
use crate::engine::plugin::{Request, TableRes, TableSet};
use crate::engine::rng::TableRng;
use crate::engine::rules::Game;
use crate::engine::table::Act;
use crate::games::botn::{Botn, ai};
use bevy::prelude::*;
use bevy::window::RequestRedraw;

/// Seconds between two computer moves.
const PAUSE: f32 = 0.7;

pub struct ComputerPlugin;

impl Plugin for ComputerPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, computer_moves.before(TableSet::Apply));
    }
}

fn computer_moves(
    time: Res<Time>,
    table: Res<TableRes<Botn>>,
    session: Res<Session>,
    mut requests: MessageWriter<Request<Botn>>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut waited: Local<f32>,
    mut rng: Local<Option<TableRng>>,
) {
    let Some((seat, level)) = session.computer else { return };
    let game = &table.0.game;
    if game.active_seat() != Some(seat) || session.resume_offer.is_some() {
        *waited = 0.0;
        return;
    }
    // Keep frames coming while the computer "thinks": the window is reactive and would sleep.
    redraw.write(RequestRedraw);
    *waited += time.delta_secs().min(0.1);
    if *waited < PAUSE {
        return;
    }
    *waited = 0.0;
    let mut legal = Vec::new();
    game.legal_actions(table.0.mode, &mut legal);
    if legal.is_empty() {
        return;
    }
    // Its own chooser RNG: the table's RNG is the game's chance and must not be touched.
    let rng = rng.get_or_insert_with(|| TableRng::from_seed(table.0.seed ^ 0xc0ff_ee00));
    let action = ai::choose(game, &legal, level, rng);
    requests.write(Request::Act { seat, act: Act::Game(action) });
}
