//! Helpers shared by the integration tests.
#![allow(dead_code)]

use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::SeatId;
use grognard::engine::table::{Act, Table};
use grognard::games::botn::data::District;
use grognard::games::botn::{self, Action, Botn};
use std::path::PathBuf;

pub const FRENCH: SeatId = SeatId(0);
pub const ALLIED: SeatId = SeatId(1);

pub fn scenario_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-of-the-nations/beginner.ron")
}

pub fn new_table(seed: u64) -> Table<Botn> {
    botn::new_table(&scenario_path(), seed, Mode::Enforced).expect("the shipped scenario loads")
}

/// Preparation done: second cards from North and South, the first of each pair kept.
pub fn after_draft(seed: u64) -> Table<Botn> {
    let mut t = new_table(seed);
    for d in [District::North, District::South] {
        t.submit(FRENCH, Act::Game(Action::DraftDistrict(d))).unwrap();
        let keep = t.game.draft_pair[0];
        t.submit(FRENCH, Act::Game(Action::KeepMission(keep))).unwrap();
    }
    t
}

pub fn army(t: &Table<Botn>, name: &str) -> u8 {
    t.game.sc.army_id(name).unwrap_or_else(|| panic!("no army {name}")) as u8
}

pub fn field(t: &Table<Botn>, name: &str) -> grognard::engine::geometry::SpaceId {
    t.game.sc.field_id(name).unwrap_or_else(|| panic!("no field {name}"))
}

pub fn legal(t: &Table<Botn>) -> Vec<Action> {
    let mut v = Vec::new();
    t.game.legal_actions(t.mode, &mut v);
    v
}

/// Plays `n` random legal actions (or until the game ends).
pub fn play_random(t: &mut Table<Botn>, n: usize, seed: u64) {
    let mut rng = grognard::engine::rng::TableRng::from_seed(seed);
    for _ in 0..n {
        if t.game.is_over() {
            break;
        }
        let l = legal(t);
        let seat = t.game.active_seat().unwrap();
        let a = l[rng.below(l.len())].clone();
        t.submit(seat, Act::Game(a)).unwrap();
    }
}
