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

#[test]
fn the_vg_mirror_identifies_only_the_units_its_eyes_may_see() {
    use bevy::prelude::*;
    use bevy::state::app::StatesPlugin;
    use grognard::engine::plugin::{Eyes, TableRes};
    use grognard::engine::seats::SeatId;
    use grognard::games::vg::plugin::{UnitAt, UnitPiece, VgPlugin};
    use grognard::games::vg::state::Loc;
    let mut table = vg::table_on(scenario(), 5, None);
    let mut rng = TableRng::from_seed(5);
    for _ in 0..120 {
        let Some(seat) = table.game.active_seat() else { break };
        let mut legal = Vec::new();
        table.game.legal_actions(table.mode, &mut legal);
        let a = legal[rng.below(legal.len())].clone();
        table.submit(seat, Act::Game(a)).expect("a legal action");
    }
    // Units face down somewhere, so the test has something hidden to check.
    assert!(
        table
            .game
            .observe(Viewer::Spectator)
            .units
            .iter()
            .any(|(_, f)| matches!(f, vg::observe::UnitFace::Hidden { .. }))
    );
    let game = table.game.clone();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, VgPlugin)).insert_resource(TableRes(table));
    for viewer in [Viewer::Spectator, Viewer::Seat(SeatId(0)), Viewer::Seat(SeatId(1))] {
        app.world_mut().resource_mut::<Eyes>().0 = viewer;
        app.update();
        let world = app.world_mut();
        let units: Vec<(u16, UnitAt)> =
            world.query::<(&UnitPiece, &UnitAt)>().iter(world).map(|(u, at)| (u.0 as u16, *at)).collect();
        assert_eq!(units.len(), game.units.len());
        for (u, at) in units {
            let u = u as usize;
            // Where the mirror names a unit, it is that unit and the viewer may see it.
            if at.1 {
                assert_eq!(at.0, game.units[u], "unit {u} for {viewer:?}");
                assert!(game.unit_seen_by(u as _, viewer), "unit {u} shown to {viewer:?}");
            } else {
                assert!(!game.unit_seen_by(u as _, viewer) || game.units[u] == Loc::Pool);
            }
        }
        // The mirror holds as many units at each place as the table.
        let view = game.observe(viewer);
        assert_eq!(view.units.len(), game.units.iter().filter(|l| **l != Loc::Pool).count());
    }
}
