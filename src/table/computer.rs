//! The computer opponent in the window: when its seat is to decide, it waits a moment (so the
//! person at the table can follow each move), picks from the legal actions and sends the choice
//! as a `Request`, exactly as a click would; the rules check it like any other.

use super::session::Session;
use crate::engine::plugin::{Request, TableRes, TableSet};
use crate::engine::rng::TableRng;
use crate::engine::rules::Game;
use crate::engine::table::Act;
use crate::games::botn::state::Step;
use crate::games::botn::{Botn, ai};
use bevy::prelude::*;
use bevy::window::RequestRedraw;

pub struct ComputerPlugin;

impl Plugin for ComputerPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, computer_moves.before(TableSet::Apply));
    }
}

/// Whether a computer seat that has waited `pace` seconds may move now (then the wait starts
/// again). While it waits, frames keep coming: the window is reactive and would sleep.
pub fn paced(time: &Time, waited: &mut f32, pace: f32, redraw: &mut MessageWriter<RequestRedraw>) -> bool {
    redraw.write(RequestRedraw);
    *waited += time.delta_secs().min(0.1);
    if *waited < pace {
        return false;
    }
    *waited = 0.0;
    true
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
    let game = &table.0.game;
    let Some(seat) = game.active_seat() else { return };
    let Some(level) = session.computer_at(seat) else {
        *waited = 0.0;
        return;
    };
    if session.resume_offer.is_some() {
        return;
    }
    // A fight's allocation or a scoring choice gets a longer look before the computer decides.
    let decisive = matches!(game.step, Step::Fight | Step::Scoring);
    if !paced(&time, &mut waited, session.pace * if decisive { 4.0 } else { 1.0 }, &mut redraw) {
        return;
    }
    let mut legal = Vec::new();
    game.legal_actions(table.0.mode, &mut legal);
    if legal.is_empty() {
        return;
    }
    // Its own chooser RNG: the table's RNG is the game's chance and must not be touched.
    let rng = rng.get_or_insert_with(|| TableRng::from_seed(table.0.seed ^ 0xc0ff_ee00));
    // The computer decides on what its seat may see.
    let action = ai::choose(|| game.observe(crate::engine::seats::Viewer::Seat(seat)), &legal, level, rng);
    info!("computer ({}) at {:?}: {}", level.label(), game.step, crate::games::botn::text::action_label(game, &action));
    requests.write(Request::Act { seat, act: Act::Game(action) });
}
