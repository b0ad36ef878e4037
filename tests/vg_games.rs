//! Victory & Glory: complete games between random players and the solo AI: every listed action is
//! accepted, every game ends after nine rounds, and the log replays to the same digest.
use grognard::engine::rng::TableRng;
use grognard::engine::rules::Game;
use grognard::engine::seats::Viewer;
use grognard::engine::table::{Act, Table};
use grognard::games::vg::ai::{VgPlayer, choose};
use grognard::games::vg::{self, Player, Vg, VgScenario};
use std::path::PathBuf;
use std::sync::Arc;

fn scenario() -> Arc<VgScenario> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory/napoleon.ron");
    Arc::new(VgScenario::load(&p).expect("the shipped scenario loads"))
}

fn play(sc: Arc<VgScenario>, seed: u64, solo: Option<Player>, players: [VgPlayer; 2]) -> Table<Vg> {
    let mut t = vg::table_on(sc, seed, solo);
    let mut rng = TableRng::from_seed(seed ^ 77);
    let mut legal = Vec::new();
    for _ in 0..5000 {
        if t.game.is_over() {
            break;
        }
        t.game.legal_actions(t.mode, &mut legal);
        assert!(!legal.is_empty(), "seed {seed}: dead end at {:?} {:?}", t.game.phase, t.game.pending.first());
        let seat = t.game.active_seat().unwrap();
        let a = choose(|| t.game.observe(Viewer::Seat(seat)), &legal, players[seat.0 as usize], &mut rng);
        if let Err(e) = t.submit(seat, Act::Game(a.clone())) {
            panic!("seed {seed}: listed action {a:?} refused: {e}");
        }
    }
    assert!(t.game.is_over(), "seed {seed}: no end");
    t
}

#[test]
fn random_and_solo_games_end_after_nine_rounds_and_replay() {
    let sc = scenario();
    for seed in 1..=12 {
        for (solo, players) in [
            (None, [VgPlayer::Random, VgPlayer::Random]),
            (Some(Player::France), [VgPlayer::Solo, VgPlayer::Random]),
            (Some(Player::Britain), [VgPlayer::Random, VgPlayer::Solo]),
        ] {
            let t = play(sc.clone(), seed, solo, players);
            assert_eq!((t.game.era, t.game.round), (2, 9));
            let mut again = vg::table_on(sc.clone(), seed, None);
            again.replay(t.records.iter().cloned()).expect("the log replays");
            assert_eq!(again.digest(), t.digest());
        }
    }
}
