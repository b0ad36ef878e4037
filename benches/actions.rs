//! Benchmarks: applying actions to a table, replaying a whole game's log, and the computer's
//! decision at each strength.
//! Run with `cargo bench --no-default-features`.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use grognard::engine::rules::{Game, Mode};
use grognard::engine::table::Act;
use grognard::games::botn::play_game;
use grognard::games::botn::{self, Scenario, ai, ai::Player};
use std::path::Path;
use std::sync::Arc;

fn scenario() -> Arc<Scenario> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-of-the-nations/beginner.ron");
    Arc::new(Scenario::load(&path).expect("scenario loads"))
}

fn benches(c: &mut Criterion) {
    let sc = scenario();
    let game = play_game(sc.clone(), 7, [Player::Random; 2], 5000).expect("a complete game");
    let log = game.records.clone();
    println!("reference game: {} actions", log.len());

    c.bench_function("apply one action (check + apply, legal list)", |b| {
        b.iter_batched(
            || botn::table_on(sc.clone(), 7, Mode::Enforced),
            |mut t| {
                // The first 20 actions of the reference game, each listed, checked and applied.
                let mut legal = Vec::new();
                for r in log.iter().take(20) {
                    t.game.legal_actions(t.mode, &mut legal);
                    t.submit(r.seat, r.act.clone()).unwrap();
                }
                t
            },
            BatchSize::SmallInput,
        )
    });
    c.bench_function("replay a complete game log", |b| {
        b.iter_batched(
            || botn::table_on(sc.clone(), 7, Mode::Enforced),
            |mut t| {
                t.replay(log.iter().cloned()).unwrap();
                t
            },
            BatchSize::SmallInput,
        )
    });
    // The digest `simulate` takes twice a game (the game's and its replay's): RON text, SHA-256.
    c.bench_function("digest of a finished game's table", |b| b.iter(|| game.digest()));
    c.bench_function("complete random game", |b| {
        b.iter(|| play_game(sc.clone(), 11, [Player::Random; 2], 5000).unwrap())
    });
    // The computer's decision in the middle of a game (the busiest position of the reference game:
    // the most legal actions), at each strength.
    let mut t = botn::table_on(sc.clone(), 7, Mode::Enforced);
    let mut busiest = (0, t.game.clone());
    let mut legal = Vec::new();
    for r in &log {
        t.game.legal_actions(t.mode, &mut legal);
        if legal.len() > busiest.0 {
            busiest = (legal.len(), t.game.clone());
        }
        t.submit(r.seat, r.act.clone()).unwrap();
    }
    println!("busiest position: {} legal actions", busiest.0);
    let mid = busiest.1;
    mid.legal_actions(Mode::Enforced, &mut legal);
    for level in Player::COMPUTER {
        c.bench_function(&format!("computer decision ({}), busiest position", level.label()), |b| {
            let mut rng = grognard::engine::rng::TableRng::from_seed(1);
            let seat = grognard::engine::seats::Viewer::Seat(mid.active_seat().unwrap());
            b.iter(|| ai::choose(|| mid.observe(seat), &legal, level, &mut rng))
        });
    }
    // Victory & Glory: a complete game, random against random and the solo AI against random.
    let vg_sc = Arc::new(
        grognard::games::vg::VgScenario::load(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory/napoleon.ron"),
        )
        .expect("scenario loads"),
    );
    c.bench_function("Victory & Glory: complete random game", |b| {
        b.iter(|| grognard::games::vg::play_game(vg_sc.clone(), 3, None, 20_000).unwrap())
    });
    let vg_game = grognard::games::vg::play_game(vg_sc.clone(), 3, None, 20_000).unwrap();
    c.bench_function("Victory & Glory: digest of a finished game's table", |b| b.iter(|| vg_game.digest()));
    c.bench_function("Victory & Glory: complete solo game (AI France, random Britain)", |b| {
        b.iter(|| {
            grognard::games::vg::play_game(vg_sc.clone(), 3, Some(grognard::games::vg::Player::France), 20_000).unwrap()
        })
    });
    c.bench_function("roll 10 dice", |b| {
        b.iter_batched(
            || botn::table_on(sc.clone(), 7, Mode::Enforced),
            |mut t| t.submit(grognard::engine::seats::SeatId(0), Act::RollDice(10)).unwrap(),
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(actions, benches);
criterion_main!(actions);
