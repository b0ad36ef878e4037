//! Whole games headless, for any game: a chooser picks each action from the legal list until the
//! game ends (`play_out`), and `simulate` plays many, replays each from its log on a fresh table
//! to compare the digest, prints one JSON line per game and counts the results.

use crate::engine::rules::Game;
use crate::engine::save::SaveFile;
use crate::engine::seats::SeatId;
use crate::engine::table::{Act, Table};
use std::path::Path;

/// Plays `table` to its end with actions from `choose`, which is given the state, the current
/// legal list (never empty) and the deciding seat. A dead end, a refused listed action or a game
/// longer than `max_actions` is an error naming the seed.
pub fn play_out<G: Game>(
    mut table: Table<G>,
    seed: u64,
    max_actions: usize,
    mut choose: impl FnMut(&G, &[G::Action], SeatId) -> G::Action,
) -> Result<Table<G>, String> {
    let mut legal = Vec::new();
    while !table.game.is_over() {
        if table.records.len() >= max_actions {
            return Err(format!("seed {seed}: no end after {max_actions} actions"));
        }
        table.game.legal_actions(table.mode, &mut legal);
        let Some(seat) = table.game.active_seat() else { break };
        if legal.is_empty() {
            let who = table.game.seat_names()[seat.0 as usize];
            return Err(format!("seed {seed}: dead end, no legal action for {who}"));
        }
        let action = choose(&table.game, &legal, seat);
        table
            .submit(seat, Act::Game(action.clone()))
            .map_err(|e| format!("seed {seed}: listed action {action:?} refused: {e}"))?;
    }
    Ok(table)
}

/// What a run of `simulate` counted; `wins[2]` is games without a winner.
#[derive(Debug, Default)]
pub struct Simulation {
    pub actions: u64,
    pub errors: u64,
    pub wins: [u64; 3],
    pub seconds: f64,
}

impl Simulation {
    pub fn games_per_sec(&self, games: u64) -> f64 {
        (games as f64 / self.seconds.max(1e-9) * 10.0).round() / 10.0
    }
}

/// Plays `games` games from seed `seed` on: `play` plays one, `fresh` sets up a new table for the
/// replay check, `save_of` makes the save written as `<save_dir>/<prefix>-<seed>.ron`, `vp` gives
/// the victory points shown on each game's line. Only a save folder that cannot be made stops it.
pub fn simulate<G: Game, V: serde::Serialize>(
    games: u64,
    seed: u64,
    save_dir: Option<(&Path, &str)>,
    play: impl Fn(u64) -> Result<Table<G>, String>,
    fresh: impl Fn(u64) -> Table<G>,
    save_of: impl Fn(&Table<G>) -> SaveFile<G::Action>,
    vp: impl Fn(&G) -> V,
) -> Result<Simulation, String> {
    if let Some((dir, _)) = save_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut run = Simulation::default();
    let start = std::time::Instant::now();
    for g in 0..games {
        let game_seed = seed.wrapping_add(g);
        match play(game_seed) {
            Ok(table) => {
                run.actions += table.records.len() as u64;
                let winner = table.game.winner();
                run.wins[winner.map(|s| s.0 as usize).unwrap_or(2)] += 1;
                // Every game is replayed from its log on a fresh table: the digest must match.
                let digest = table.digest();
                let mut again = fresh(game_seed);
                let replayed = again.replay(table.records.iter().cloned()).map(|_| again.digest());
                if replayed.as_ref().ok() != Some(&digest) {
                    run.errors += 1;
                    println!("{}", serde_json::json!({"seed": game_seed, "error": "the replay gives another digest"}));
                }
                let winner = winner.map(|s| table.game.seat_names()[s.0 as usize]);
                println!(
                    "{}",
                    serde_json::json!({"seed": game_seed, "actions": table.records.len(), "winner": winner,
                        "vp": vp(&table.game), "digest": digest})
                );
                if let Some((dir, prefix)) = save_dir {
                    let file = dir.join(format!("{prefix}-{game_seed}.ron"));
                    if let Err(e) = save_of(&table).write(&file) {
                        eprintln!("{}: {e}", file.display());
                        run.errors += 1;
                    }
                }
            }
            Err(e) => {
                run.errors += 1;
                println!("{}", serde_json::json!({"seed": game_seed, "error": e}));
            }
        }
    }
    run.seconds = start.elapsed().as_secs_f64();
    Ok(run)
}
