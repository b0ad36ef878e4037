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
    table: Table<G>,
    seed: u64,
    max_actions: usize,
    mut choose: impl FnMut(&G, &[G::Action], SeatId) -> G::Action,
) -> Result<Table<G>, String> {
    let mode = table.mode;
    let mut legal = Vec::new();
    play_drawing(table, seed, max_actions, |game, seat| {
        game.legal_actions(mode, &mut legal);
        (!legal.is_empty()).then(|| choose(game, &legal, seat))
    })
}

/// Plays `table` to its end with the actions `draw` gives for the state and the deciding seat:
/// one of the legal actions, drawn however the player likes (a random player may draw one
/// without listing them all), or none where it found none. A dead end, a refused action or a
/// game longer than `max_actions` is an error naming the seed. Nothing is undone on the way,
/// so the table is played without undo (`Table::without_undo`), and comes back so.
pub fn play_drawing<G: Game>(
    table: Table<G>,
    seed: u64,
    max_actions: usize,
    mut draw: impl FnMut(&G, SeatId) -> Option<G::Action>,
) -> Result<Table<G>, String> {
    let mut table = table.without_undo();
    while !table.game.is_over() {
        if table.records.len() >= max_actions {
            return Err(format!("seed {seed}: no end after {max_actions} actions"));
        }
        let Some(seat) = table.game.active_seat() else { break };
        let Some(action) = draw(&table.game, seat) else {
            let who = table.game.seat_names()[seat.0 as usize];
            return Err(format!("seed {seed}: dead end, no legal action for {who}"));
        };
        table
            .submit(seat, Act::Game(action.clone()))
            .map_err(|e| format!("seed {seed}: listed action {action:?} refused: {e}"))?;
    }
    Ok(table)
}

/// glibc's malloc keeps what a game frees for the next instead of handing the top of its heap back
/// to the system each time it is freed and asking for it again: each game builds and drops its
/// table, its log and its digest, and the pages given back and faulted in again cost
/// Battle of the Nations' `simulate` about a tenth of its time (`__brk` and `munmap` in its
/// profile). Fixed thresholds replace glibc's moving ones: blocks up to 32 MiB from the heap, and up
/// to 64 MiB free at its top kept.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets tunables of the allocator.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
        libc::mallopt(libc::M_TOP_PAD, 1 << 20);
    }
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

    /// Actions a second over the whole run (each game's replay check included), to the unit.
    pub fn actions_per_sec(&self) -> f64 {
        (self.actions as f64 / self.seconds.max(1e-9)).round()
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
    keep_freed_memory();
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
                let mut again = fresh(game_seed).without_undo();
                again.reserve(table.records.len(), table.entries.len());
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

/// Ends a `simulate` command for any game: a run that could not start (a scenario that does not
/// load, a save folder that cannot be made) is printed with exit code 1; otherwise the summary
/// line, the game's own `fields` plus the counts every game reports, and exit code 1 when a game
/// failed.
pub fn report(
    games: u64,
    run: Result<Simulation, String>,
    fields: impl FnOnce(&Simulation) -> serde_json::Value,
) -> i32 {
    let run = match run {
        Ok(run) => run,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let mut line = fields(&run);
    line["games"] = games.into();
    line["actions"] = run.actions.into();
    line["errors"] = run.errors.into();
    line["games_per_sec"] = run.games_per_sec(games).into();
    line["actions_per_sec"] = run.actions_per_sec().into();
    println!("{line}");
    if run.errors > 0 { 1 } else { 0 }
}

/// The hidden `autoplay` command (tests of the journal): random legal actions on the table `new`
/// sets up, each appended to a journal at `journal_path` (headed by `save_of` the new table) and
/// printed as `applied N digest D`.
pub fn journal_autoplay<G: Game>(
    new: impl FnOnce() -> Result<Table<G>, crate::engine::scenario::DataError>,
    save_of: impl FnOnce(&Table<G>) -> SaveFile<G::Action>,
    journal_path: &Path,
    seed: u64,
    max: u64,
    delay_ms: u64,
) -> i32 {
    use crate::engine::journal::{Journal, JournalLine};
    use crate::engine::table::Record;
    let mut table = match new() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let mut journal = match Journal::create(journal_path, &save_of(&table)) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("{}: {e}", journal_path.display());
            return 1;
        }
    };
    let mut chooser = crate::engine::rng::TableRng::from_seed(seed);
    let mut legal = Vec::new();
    let mut applied = 0;
    while applied < max && !table.game.is_over() {
        table.game.legal_actions(table.mode, &mut legal);
        let Some(seat) = table.game.active_seat() else { break };
        // One legal action at random; a single one is taken without drawing, as the players do.
        let action = if legal.len() == 1 { legal[0].clone() } else { legal[chooser.below(legal.len())].clone() };
        let act = Act::Game(action);
        if let Err(e) = table.submit(seat, act.clone()) {
            eprintln!("a listed action was refused: {e}");
            return 1;
        }
        if let Err(e) = journal.append(&JournalLine::Applied(Record { seat, act })) {
            eprintln!("{}: {e}", journal_path.display());
            return 1;
        }
        applied += 1;
        println!("applied {applied} digest {}", table.digest());
        if delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        }
    }
    0
}
