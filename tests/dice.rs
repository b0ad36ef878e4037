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
