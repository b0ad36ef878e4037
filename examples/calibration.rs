//! How far the chance to win the game shows (the Hint, the report, the broadcast) can be trusted:
//! plays seeded games of the beginner against itself and, every few actions, prints the
//! evaluation's chance for the first seat as a spectator would see it (averaged over deals of
//! what is hidden) beside how the game ended. `scripts/calibration.py` fits each game's
//! `Searched::CALIBRATION` on these lines and measures it on games it was not fitted on.
//!
//! Usage: `cargo run --release --no-default-features --example calibration -- GAME GAMES [SEED]
//! [SCENARIO]` (GAME: botn, vg, leipzig, austerlitz; Leipzig plays scenarios 1, 5, 7 and 8 in
//! turn unless a SCENARIO file is named). Prints `game seed action chance result` lines
//! (result: 1 the first seat won, 0 it lost, 0.5 a draw).

use grognard::engine::rng::TableRng;
use grognard::engine::search::{Searched, estimate};
use grognard::engine::seats::{SeatId, Viewer};
use grognard::engine::table::Table;
use grognard::games::{austerlitz, botn, leipzig, vg};
use std::path::PathBuf;
use std::sync::Arc;

/// Every how many actions a position is measured.
const EVERY: usize = 8;

fn scenario(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(rel)
}

/// The measured positions of one played game, replayed from its log on a fresh table.
fn measure<G: Searched>(name: &str, seed: u64, played: &Table<G>, mut fresh: Table<G>) {
    let result = match played.game.winner() {
        Some(SeatId(0)) => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    let mut rng = TableRng::from_seed(seed ^ 0xca11);
    for (i, r) in played.records.iter().enumerate() {
        if i % EVERY == 0 {
            let chance = estimate::<G>(&fresh.game.observe(Viewer::Spectator), SeatId(0), 8, &mut rng);
            println!("{name} {seed} {i} {chance:.4} {result}");
        }
        fresh.submit(r.seat, r.act.clone()).expect("the log replays");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().map(String::as_str).unwrap_or("botn");
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let first: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let named = args.get(3).map(PathBuf::from);
    for seed in first..first + games {
        match game {
            "botn" => {
                let sc = Arc::new(botn::Scenario::load(&scenario("battle-of-the-nations/beginner.ron")).unwrap());
                let players = [botn::ai::Player::Beginner; 2];
                let t = botn::play_game(sc.clone(), seed, players, 100_000).unwrap();
                measure(game, seed, &t, botn::table_on(sc, seed, grognard::engine::rules::Mode::Enforced));
            }
            "vg" => {
                let sc = Arc::new(vg::VgScenario::load(&scenario("victory-and-glory/napoleon.ron")).unwrap());
                let players = [vg::ai::VgPlayer::Beginner; 2];
                let t = vg::play_between(sc.clone(), seed, players, 100_000).unwrap();
                measure(game, seed, &t, vg::table_on(sc, seed, None));
            }
            "leipzig" => {
                // Four scenarios in turn: one calibration serves them all.
                let file =
                    ["1-historical-situation", "5-historical-summer", "7-no-austrian-involvement", "8-the-campaign"]
                        [seed as usize % 4];
                let path = named.clone().unwrap_or_else(|| scenario(&format!("leipzig-1813/{file}.ron")));
                let sc = Arc::new(leipzig::LzScenario::load(&path).unwrap());
                let players = [leipzig::ai::LzPlayer::Beginner; 2];
                let t = leipzig::play_game(sc.clone(), seed, players, 100_000).unwrap();
                measure(game, seed, &t, leipzig::table_on(sc, seed));
            }
            "austerlitz" => {
                let sc = Arc::new(austerlitz::AzScenario::load(&scenario("austerlitz/1-historical.ron")).unwrap());
                let players = [austerlitz::ai::AzPlayer::Beginner; 2];
                let t = austerlitz::play_game(sc.clone(), seed, players, 100_000).unwrap();
                measure(game, seed, &t, austerlitz::table_on(sc, seed));
            }
            other => {
                eprintln!("no game {other}: botn, vg, leipzig or austerlitz");
                std::process::exit(2);
            }
        }
    }
}
