//! The physical dice land on the value the rules drew, for every face and many throws.
#![cfg(feature = "gui")]
use bevy::math::{Quat, Vec3};
use grognard::engine::rng::TableRng;
use grognard::table::dice::{
    DIE, STEPS_PER_SECOND, TRAY, TRAY_HALF, correction, face_normal, knocks, simulate_throw, up_face,
};

#[test]
fn every_face_lands_on_the_drawn_value() {
    for seed in 0..16u64 {
        let mut rng = TableRng::from_seed(seed);
        let tracks = simulate_throw(6, &mut rng);
        for (i, track) in tracks.iter().enumerate() {
            let (pos, body) = *track.last().unwrap();
            assert!(pos.y < 0.6, "die {i} came to rest on the tray (y = {})", pos.y);
            let landed = up_face(body);
            for wanted in 1..=6u8 {
                let shown = body * correction(wanted, landed);
                assert_eq!(up_face(shown), wanted, "seed {seed} die {i}: wanted {wanted}, landed {landed}");
                // The face is really flat on top, not balanced on an edge.
                assert!((shown * face_normal(wanted)).y > 0.95);
            }
            // No snap: the last recorded frames are at rest.
            let n = track.len();
            assert!(n > 20);
            assert!(track[n - 1].0.distance(track[n - 2].0) < 0.01);
        }
    }
}

#[test]
fn the_same_throw_twice_follows_the_same_path() {
    let a = simulate_throw(2, &mut TableRng::from_seed(99));
    let b = simulate_throw(2, &mut TableRng::from_seed(99));
    assert_eq!(a, b);
}

#[test]
fn a_die_is_heard_only_where_something_strikes_it() {
    // Free fall, a bounce at step 10 (the velocity turns upward), then free flight again.
    let (dt, g) = (1.0 / STEPS_PER_SECOND, 9.81 * 3.0);
    let (mut p, mut v) = (Vec3::new(0.0, 5.0, 0.0), Vec3::ZERO);
    let mut track = Vec::new();
    for i in 0..30 {
        track.push((p, Quat::IDENTITY));
        if i == 10 {
            v = -v * 0.5;
        }
        v.y -= g * dt;
        p += v * dt;
    }
    let heard = knocks(&track);
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert!((10..=12).contains(&heard[0].0), "{heard:?}");
    assert!(heard[0].1 > 0.0 && heard[0].1 <= 1.0);
    // Falling alone makes no sound.
    assert!(knocks(&track[..10].to_vec()).is_empty());
}

#[test]
fn a_thrown_die_is_heard_where_it_strikes_and_silent_once_at_rest() {
    for seed in 0..4u64 {
        let tracks = simulate_throw(2, &mut TableRng::from_seed(seed));
        for (i, track) in tracks.iter().enumerate() {
            let heard = knocks(track);
            assert!(!heard.is_empty(), "seed {seed}: a throw strikes the tray");
            for &(s, _) in &heard {
                // Each knock is where the die touches something: the felt, a wall or the other die.
                let p = track[s].0;
                let felt = p.y < TRAY.y + DIE * 0.9;
                let wall = (p.x - TRAY.x).abs() > TRAY_HALF - DIE * 0.9 || (p.z - TRAY.z).abs() > TRAY_HALF - DIE * 0.9;
                let other = tracks[1 - i].get(s).is_some_and(|q| q.0.distance(p) < DIE * 1.9);
                assert!(felt || wall || other, "seed {seed} die {i}: knock at step {s} in mid-air at {p}");
            }
            // Nothing is heard in the last steps, when it lies still.
            assert!(heard.iter().all(|&(s, _)| s + 15 < track.len()), "seed {seed}: {heard:?} of {}", track.len());
        }
    }
}

/// A window's table with the engine and the dice, no renderer: the app, and a counter of the
/// frames in which the entity mirror (`TableSet::Sync`) ran.
fn dice_app(quick: bool) -> bevy::app::App {
    use bevy::prelude::*;
    use grognard::engine::plugin::{EnginePlugin, TableRes, TableSet};
    let path =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-of-the-nations/beginner.ron");
    let table = grognard::games::botn::new_table(&path, 3, grognard::engine::rules::Mode::Enforced).unwrap();
    let session = grognard::table::session::Session::new(2, std::path::PathBuf::from("j.ron"));
    let prefs = grognard::table::session::Preferences { quick_dice: quick, ..Default::default() };
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), bevy::mesh::MeshPlugin))
        .init_asset::<StandardMaterial>()
        .add_message::<bevy::window::RequestRedraw>()
        .add_message::<grognard::table::sound::Cue>()
        .insert_resource(session)
        .insert_resource(prefs)
        .insert_resource(TableRes(table))
        .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(std::time::Duration::from_millis(50)))
        .init_resource::<Synced>()
        .add_plugins((
            EnginePlugin::<grognard::games::botn::Botn>::default(),
            grognard::engine::seen::SeenPlugin::<grognard::games::botn::Botn>::default(),
            grognard::table::dice::DicePlugin::<grognard::games::botn::Botn>::default(),
        ))
        .add_systems(Update, (|mut s: ResMut<Synced>| s.0 += 1).in_set(TableSet::Sync));
    app.update();
    app
}

#[derive(bevy::prelude::Resource, Default)]
struct Synced(u32);

fn roll(app: &mut bevy::app::App, dice: u8) {
    use grognard::engine::plugin::Request;
    use grognard::engine::rules::Game;
    let seat = app
        .world()
        .resource::<grognard::engine::plugin::TableRes<grognard::games::botn::Botn>>()
        .0
        .game
        .active_seat()
        .unwrap();
    app.world_mut().write_message(Request::<grognard::games::botn::Botn>::Act {
        seat,
        act: grognard::engine::table::Act::RollDice(dice),
    });
}

#[test]
fn a_roll_is_thrown_in_the_tray_and_the_table_shows_its_result_only_once_the_dice_rest() {
    use grognard::engine::plugin::Settling;
    use grognard::engine::plugin::{Outcome, TableRes};
    type Botn = grognard::games::botn::Botn;
    let mut app = dice_app(false);
    let entries = app.world().resource::<TableRes<Botn>>().0.entries.len();
    roll(&mut app, 2);
    roll(&mut app, 3);
    app.update();
    assert!(app.world().resource::<Settling>().active, "the result waits for the dice");
    // Applied (and journalled) at once, but the table shown is the one before the roll.
    assert_eq!(app.world().resource::<TableRes<Botn>>().0.entries.len(), entries, "the log holds the roll back");
    let outcomes: Vec<Outcome> =
        app.world_mut().resource_mut::<bevy::ecs::message::Messages<Outcome>>().drain().collect();
    assert!(outcomes[0].accepted);
    assert!(!outcomes[1].accepted && outcomes[1].message.contains("dice are rolling"), "{outcomes:?}");
    let synced = app.world().resource::<Synced>().0;
    let mut frames = 0;
    let mut dice_seen = 0;
    while app.world().resource::<Settling>().active {
        app.update();
        frames += 1;
        let n = app.world_mut().query::<&grognard::table::dice::RollingDie>().iter(app.world()).count();
        dice_seen = dice_seen.max(n);
        if app.world().resource::<Settling>().active {
            assert_eq!(app.world().resource::<Synced>().0, synced, "the mirror holds the table while the dice tumble");
        }
        assert!(frames < 2_000, "the dice come to rest");
    }
    assert_eq!(dice_seen, 2, "the roll's two dice thrown");
    assert!(frames > 20, "a throw takes its time: {frames} frames");
    app.update();
    assert!(app.world().resource::<Synced>().0 > synced, "then the table follows");
    assert_eq!(app.world().resource::<TableRes<Botn>>().0.entries.len(), entries + 1, "and its log");
    // The next roll, once the dice rest: three dice.
    roll(&mut app, 3);
    app.update();
    let mut most = 0;
    while app.world().resource::<Settling>().active {
        app.update();
        let n = app.world_mut().query::<&grognard::table::dice::RollingDie>().iter(app.world()).count();
        most = most.max(n);
    }
    assert_eq!(most, 3);
}

#[test]
fn quick_dice_show_the_result_at_once() {
    use grognard::engine::plugin::Settling;
    let mut app = dice_app(true);
    let synced = app.world().resource::<Synced>().0;
    roll(&mut app, 2);
    app.update();
    assert!(!app.world().resource::<Settling>().active);
    assert!(app.world().resource::<Synced>().0 > synced);
    let n = app.world_mut().query::<&grognard::table::dice::RollingDie>().iter(app.world()).count();
    assert_eq!(n, 0, "nothing thrown");
}
