//! The computer opponent in the window, for any game: when its seat is to decide, it waits a
//! moment (so the person at the table can follow each move), picks from the legal actions on
//! what its seat may see and sends the choice as a `Request`, exactly as a click would; the rules
//! check it like any other. It decides on a thread of its own (a search may think for seconds):
//! the window keeps drawing and says who is thinking (`Thinking`).

use super::TableGame;
use super::session::Session;
use crate::engine::plugin::{Request, TableRes};
use crate::engine::rng::TableRng;
use crate::engine::seats::SeatId;
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

/// Who is thinking, shown by the panels while a computer decides ("France (strong)").
#[derive(Resource, Default)]
pub struct Thinking(pub Option<String>);

/// A decision on its way: where it was asked (the seat, the length of the log) and where it
/// comes back, with the chooser's random stream.
pub struct Decision<G: TableGame> {
    seat: SeatId,
    at: usize,
    level: usize,
    answer: std::sync::mpsc::Receiver<(G::Action, TableRng)>,
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
    mut thinking: ResMut<Thinking>,
    mut decision: Local<Option<Decision<G>>>,
) {
    if let Some(d) = decision.as_ref() {
        redraw.write(RequestRedraw);
        let (action, back) = match d.answer.try_recv() {
            Ok(answer) => answer,
            Err(std::sync::mpsc::TryRecvError::Empty) => return,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                error!("the computer's decision was lost");
                *decision = None;
                thinking.0 = None;
                return;
            }
        };
        let d = decision.take().expect("a decision in progress");
        *rng = Some(back);
        thinking.0 = None;
        // The table moved on while it thought (an undo, a load, a new game): the answer is
        // dropped and the computer asked again if it is still its turn.
        let game = &table.0.game;
        if table.0.records.len() != d.at || game.active_seat() != Some(d.seat) || session.computer_at(d.seat).is_none()
        {
            return;
        }
        let level = G::LEVELS.get(d.level).copied().unwrap_or("?");
        info!("computer ({level}) at seat {}: {}", d.seat.0, game.action_label(&action));
        requests.write(Request::Act { seat: d.seat, act: Act::Game(action) });
        return;
    }
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
    // Its own chooser RNG: the table's RNG is the game's chance and must not be touched. It
    // travels with the decision and comes back with the answer.
    let mut chooser = rng.take().unwrap_or_else(|| TableRng::from_seed(table.0.seed ^ 0xc0ff_ee00));
    let (tx, answer) = std::sync::mpsc::channel();
    let position = game.clone();
    // The longest the level may make the person wait: 3 s up to `strong`, 10 s at `expert`.
    let cap = if G::LEVELS.get(level) == Some(&"expert") { 10_000 } else { 3_000 };
    std::thread::spawn(move || {
        crate::engine::search::cap_this_thread(Some(cap));
        let action = position.computer_choice(seat, &legal, level, &mut chooser);
        let _ = tx.send((action, chooser));
    });
    let name = game.seat_names().get(seat.0 as usize).copied().unwrap_or("the computer");
    thinking.0 = Some(format!("{name} ({}) is thinking…", G::LEVELS.get(level).copied().unwrap_or("?")));
    *decision = Some(Decision { seat, at: table.0.records.len(), level, answer });
}
