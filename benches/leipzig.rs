//! Leipzig 1813's benchmarks: the legal destinations of one counter, replaying a complete
//! campaign (scenario 8) log, and complete random games of scenarios 1 and 8.
//! Run with `cargo bench --no-default-features --bench leipzig`.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use grognard::engine::rules::Game;
use grognard::games::leipzig::ai::LzPlayer;
use grognard::games::leipzig::rules::zoc::Situation;
use grognard::games::leipzig::state::March;
use grognard::games::leipzig::{self, LzScenario};
use std::path::Path;
use std::sync::Arc;

fn scenario(file: &str) -> Arc<LzScenario> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/leipzig-1813").join(file);
    Arc::new(LzScenario::load(&path).expect("scenario loads"))
}

fn benches(c: &mut Criterion) {
    let spring = scenario("1-historical-situation.ron");
    let campaign = scenario("8-the-campaign.ron");
    let game = leipzig::play_game(campaign.clone(), 7, [LzPlayer::Random; 2], 60_000).expect("a complete game");
    let log = game.records.clone();
    println!("reference campaign game: {} actions", log.len());
    let careful = leipzig::play_game(campaign.clone(), 7, [LzPlayer::Beginner; 2], 60_000).expect("a complete game");
    let careful_log = careful.records.clone();
    println!("reference campaign game of the computer players: {} actions", careful_log.len());
    c.bench_function("Leipzig: replay a complete scenario 8 log (computer players)", |b| {
        b.iter_batched(
            || leipzig::table_on(campaign.clone(), 7),
            |mut t| {
                t.replay(careful_log.iter().cloned()).unwrap();
                t
            },
            BatchSize::SmallInput,
        )
    });
    c.bench_function("Leipzig: replay a complete scenario 8 log (random players)", |b| {
        b.iter_batched(
            || leipzig::table_on(campaign.clone(), 7),
            |mut t| {
                t.replay(log.iter().cloned()).unwrap();
                t
            },
            BatchSize::SmallInput,
        )
    });
    // A position of the reference game's French Movement Phase with many counters on the map;
    // its infantry division (2-5) that reaches the most hexes on a triple march.
    let mut t = leipzig::table_on(campaign.clone(), 7);
    let mut mid = None;
    for r in &log {
        if t.game.step == grognard::games::leipzig::state::Step::Move && t.game.turn >= 5 && !t.game.moved_any {
            mid = Some(t.game.clone());
            break;
        }
        t.submit(r.seat, r.act.clone()).unwrap();
    }
    let mid = mid.expect("a movement phase on turn 5");
    let s = Situation::of(&mid);
    let unit = mid
        .on_map(mid.side)
        .filter(|&u| mid.can_move(u))
        .max_by_key(|&u| mid.all_destinations(&s, u, March::Triple).len())
        .expect("a counter that moves");
    println!(
        "position: turn {}, {} counters on the map, the counter reaches {} hexes",
        mid.turn,
        mid.units.iter().filter(|u| u.on_map()).count(),
        mid.all_destinations(&s, unit, March::Triple).len()
    );
    c.bench_function("Leipzig: legal destinations of one counter (every march)", |b| {
        b.iter(|| mid.all_destinations(&s, unit, March::Triple))
    });
    c.bench_function("Leipzig: legal destinations of one counter (its allowance)", |b| {
        b.iter(|| mid.all_destinations(&s, unit, March::Normal))
    });
    c.bench_function("Leipzig: the map's zones, occupants and supply (once a decision)", |b| {
        b.iter(|| Situation::of(&mid))
    });
    let mut legal = Vec::new();
    c.bench_function("Leipzig: every legal action of that Movement Phase", |b| {
        b.iter(|| {
            mid.legal_actions(grognard::engine::rules::Mode::Enforced, &mut legal);
            legal.len()
        })
    });
    let mut g = c.benchmark_group("Leipzig complete games");
    g.sample_size(10);
    g.bench_function("scenario 1, random players", |b| {
        b.iter(|| leipzig::play_game(spring.clone(), 11, [LzPlayer::Random; 2], 60_000).unwrap())
    });
    g.bench_function("scenario 8, random players", |b| {
        b.iter(|| leipzig::play_game(campaign.clone(), 11, [LzPlayer::Random; 2], 60_000).unwrap())
    });
    g.finish();
}

criterion_group!(leipzig_benches, benches);
criterion_main!(leipzig_benches);
