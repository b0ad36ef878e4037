//! Saves for the pickup test (`scripts/pickup-test.py`): each game at a moment when its pieces
//! stand on the table and the first seat may move them — Battle of the Nations with armies laid
//! out on both sides, Leipzig 1813 and Austerlitz at the start of the first Movement step after
//! both sides set up (each side's whole set-up taken at once).
//!
//! `cargo run --example pickup_saves -- OUT_DIR` writes OUT_DIR/{botn,leipzig,austerlitz}.ron.

use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::SeatId;
use grognard::engine::table::{Act, Table};
use std::path::{Path, PathBuf};

fn scenario(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(rel)
}

/// Plays `t` on, each seat taking `prefer` where it is listed and else the first legal action,
/// until `done` says so (at most `limit` actions).
fn play_until<G: Game>(t: &mut Table<G>, prefer: impl Fn(&G::Action) -> bool, done: impl Fn(&G) -> bool, limit: usize) {
    for _ in 0..limit {
        if done(&t.game) {
            return;
        }
        let Some(seat) = t.game.active_seat() else { break };
        let mut legal = Vec::new();
        t.game.legal_actions(t.mode, &mut legal);
        let Some(a) = legal.iter().find(|a| prefer(a)).or(legal.first()).cloned() else { break };
        t.submit(seat, Act::Game(a)).expect("a listed action is accepted");
    }
    assert!(done(&t.game), "the moment for the pickup test was not reached");
}

fn main() {
    let out = PathBuf::from(std::env::args().nth(1).expect("OUT_DIR"));
    std::fs::create_dir_all(&out).unwrap();

    // Battle of the Nations: the missions drafted, Marmont laid out by the French and Langeron
    // by the Allies; the French to act.
    use grognard::games::botn::{self, Action as B, data::District};
    let mut t = botn::new_table(&scenario("battle-of-the-nations/beginner.ron"), 3, Mode::Enforced).unwrap();
    let s = SeatId(0);
    for d in [District::North, District::South] {
        t.submit(s, Act::Game(B::DraftDistrict(d))).unwrap();
        let k = t.game.draft_pair[0];
        t.submit(s, Act::Game(B::KeepMission(k))).unwrap();
    }
    let marmont = t.game.sc.army_id("Marmont").unwrap() as u8;
    t.submit(s, Act::Game(B::LayOutArmyCard { army: marmont, skip: vec![] })).unwrap();
    for _ in 0..4 {
        t.submit(s, Act::Game(B::DrawBlind)).unwrap();
    }
    let langeron = t.game.sc.army_id("Langeron").unwrap() as u8;
    t.submit(SeatId(1), Act::Game(B::LayOutArmyCard { army: langeron, skip: vec![] })).unwrap();
    botn::save_of(&t).write(&out.join("botn.ron")).unwrap();

    // Leipzig 1813, scenario 1: both sides deployed, the French Movement Phase.
    use grognard::games::leipzig::{self, Action as L, state::Step};
    let mut t = leipzig::new_table(&scenario("leipzig-1813/1-historical-situation.ron"), 5).unwrap();
    play_until(&mut t, |a| matches!(a, L::DeployRest), |g| g.step == Step::Move, 200);
    leipzig::save_of(&t).write(&out.join("leipzig.ron")).unwrap();

    // Austerlitz: both sides set up at their historical places, the Allies' step 2 (movement).
    use grognard::games::austerlitz::{self, actions::Action as A, state::Step as AStep};
    let mut t = austerlitz::new_table(&scenario("austerlitz/1-historical.ron"), 3).unwrap();
    play_until(&mut t, |a| matches!(a, A::DeployRest | A::EndFire), |g| g.step == AStep::Move, 200);
    austerlitz::save_of(&t).write(&out.join("austerlitz.ron")).unwrap();
    println!("{}", out.display());
}
