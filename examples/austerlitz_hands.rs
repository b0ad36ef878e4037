//! The hands of a person playing the French at Austerlitz through the window's Orders list (see
//! `scripts/window-game.py`): reads the window's autosave journal and prints what to
//! click — `order K N LABEL` (the K-th of the N buttons of the Orders list), `wait` when the
//! table waits for the other seat, `over` when the battle is over. What to do is the computer's
//! choice on the French view among what the Orders list offers (a person using only the list:
//! set-up, guns' shots, attacks and charges, squares, reactions, retreats, the ends of steps).
//! `cargo run --example austerlitz_hands -- JOURNAL [LABEL...]` (labels: orders the window did
//! not take twice, left aside).

use grognard::engine::journal::Journal;
use grognard::engine::rng::TableRng;
use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::{SeatId, Viewer};
use grognard::games::austerlitz::actions::Action;
use grognard::games::austerlitz::ai::{AzPlayer, choose};
use grognard::games::austerlitz::{self, Side};
use std::path::PathBuf;

/// What the window's Orders list shows (the rest is made on the table by dragging).
fn in_orders(a: &Action) -> bool {
    !matches!(a, Action::Move { .. } | Action::Deploy { .. } | Action::PlaceCommand { .. } | Action::MoveCommand { .. })
}

fn main() {
    let path = PathBuf::from(std::env::args().nth(1).expect("the journal's path"));
    let save = Journal::read::<Action>(&path).unwrap_or_else(|e| panic!("{e}"));
    let table = austerlitz::load_save(&save, &path).unwrap_or_else(|e| panic!("{e}"));
    let g = &table.game;
    if g.is_over() {
        println!("over");
        return;
    }
    if g.deciding() != Some(Side::French) {
        println!("wait");
        return;
    }
    let mut legal = Vec::new();
    g.legal_actions(Mode::Enforced, &mut legal);
    let orders: Vec<Action> = legal.into_iter().filter(in_orders).collect();
    let skip: Vec<String> = std::env::args().skip(2).collect();
    let mut reach: Vec<Action> = orders.iter().filter(|a| !skip.contains(&g.action_label(a))).cloned().collect();
    if reach.is_empty() {
        reach = orders.clone();
    }
    let mut rng = TableRng::from_seed(table.records.len() as u64);
    let a = choose(&g.observe(Viewer::Seat(SeatId(0))), &reach, AzPlayer::Beginner, &mut rng);
    let k = orders.iter().position(|x| *x == a).expect("listed");
    println!("order {k} {} {}", orders.len(), g.action_label(&a));
}
