//! Austerlitz's benchmarks: one unit's legal moves with facings, replaying a complete battle's
//! log, and complete games of random and computer players.
//! Run with `cargo bench --no-default-features --bench austerlitz`.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use grognard::games::austerlitz::ai::AzPlayer;
use grognard::games::austerlitz::data::Kind;
use grognard::games::austerlitz::state::Step;
use grognard::games::austerlitz::{self, AzScenario};
use std::path::Path;
use std::sync::Arc;

fn benches(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz/1-historical.ron");
    let sc = Arc::new(AzScenario::load(&path).expect("scenario loads"));
    let game = austerlitz::play_game(sc.clone(), 7, [AzPlayer::Beginner; 2], 40_000).expect("a complete game");
    let log = game.records.clone();
    println!("reference battle (computer players): {} actions", log.len());
    c.bench_function("Austerlitz: replay a complete battle's log (computer players)", |b| {
        b.iter_batched(
            || austerlitz::table_on(sc.clone(), 7),
            |mut t| {
                t.replay(log.iter().cloned()).unwrap();
                t
            },
            BatchSize::SmallInput,
        )
    });
    // The French movement step of turn 3 of the reference battle: the infantry unit and the
    // cavalry unit with the most moves.
    let mut t = austerlitz::table_on(sc.clone(), 7);
    let mut mid = None;
    for r in &log {
        if t.game.step == Step::Move
            && t.game.turn >= 3
            && t.game.side == austerlitz::Side::French
            && t.game.pending.is_empty()
        {
            mid = Some(t.game.clone());
            break;
        }
        t.submit(r.seat, r.act.clone()).unwrap();
    }
    let mid = mid.expect("a French movement step");
    for (label, kinds) in [("infantry", [Kind::Line, Kind::Light]), ("cavalry", [Kind::HeavyCav, Kind::LightCav])] {
        let u = (0..mid.units.len())
            .filter(|&u| mid.side_of(u) == austerlitz::Side::French && kinds.contains(&mid.kind(u)))
            .max_by_key(|&u| mid.reach_searched(u).len())
            .expect("a unit");
        println!("{label}: {} (space, facing) destinations", mid.reach_searched(u).len());
        c.bench_function(&format!("Austerlitz: one {label} unit's legal moves with facings"), |b| {
            b.iter(|| mid.reach_searched(u))
        });
    }
    c.bench_function("Austerlitz: the whole legal list of a French movement step", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            mid.legal(&mut out);
            out
        })
    });
    c.bench_function("Austerlitz: a complete random battle", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            austerlitz::play_game(sc.clone(), seed, [AzPlayer::Random; 2], 40_000).unwrap()
        })
    });
}

criterion_group! {
    name = austerlitz;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(austerlitz);
