//! The computer opponent in the window, for any game: when its seat is to decide, it waits a
//! moment (so the person at the table can follow each move), picks from the legal actions on
//! what its seat may see and sends the choice as a `Request`, exactly as a click would; the rules
//! check it like any other.

use super::TableGame;
use super::session::Session;
use crate::engine::plugin::{Request, TableRes};
use crate::engine::rng::TableRng;
use crate::engine::table::Act;
use bevy::prelude::*;
use bevy::window::RequestRedraw;

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

// A Bevy system takes what it reads as arguments.
#[allow(clippy::too_many_arguments)]
pub fn computer_moves<G: TableGame>(
    time: Res<Time>,
    table: Res<TableRes<G>>,
    session: Res<Session>,
    mut requests: MessageWriter<Request<G>>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut waited: Local<f32>,
    mut rng: Local<Option<TableRng>>,
    remote: Option<Res<super::remote::Remote>>,
    settling: Res<crate::engine::plugin::Settling>,
) {
    // At a host's table the computer waits for the host's answer to its last action; and
    // anywhere it waits while a roll is acted out, so its next move follows the result on screen.
    if remote.is_some_and(|r| r.in_flight.is_some()) || settling.active {
        return;
    }
    let game = &table.0.game;
    let Some(seat) = game.active_seat() else { return };
    let Some(level) = session.computer_at(seat) else {
        *waited = 0.0;
        return;
    };
    if session.resume_offer {
        return;
    }
    if !paced(&time, &mut waited, session.pace * game.pause_factor(), &mut redraw) {
        return;
    }
    let mut legal = Vec::new();
    game.legal_actions(table.0.mode, &mut legal);
    if legal.is_empty() {
        return;
    }
    // Its own chooser RNG: the table's RNG is the game's chance and must not be touched.
    let rng = rng.get_or_insert_with(|| TableRng::from_seed(table.0.seed ^ 0xc0ff_ee00));
    let action = game.computer_choice(seat, &legal, level, rng);
    let level = G::LEVELS.get(level).copied().unwrap_or("?");
    info!("computer ({level}) at seat {}: {}", seat.0, game.action_label(&action));
    requests.write(Request::Act { seat, act: Act::Game(action) });
}
