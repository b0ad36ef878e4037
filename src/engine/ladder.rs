//! The ladder of computer levels (`grognard ladder`): each level against the one below it, and
//! `strong` against the baseline (`beginner`; Victory & Glory's `solo`), each on both sides, over
//! seeded games played on every core. A level is judged on each side, because the games are not
//! even: the side a level plays changes its chance more than the level does. Beside each rung, the
//! lower level plays itself on the same seeds (`mirror_rate`): what the side wins alone, so that a
//! rung shows what the upper level adds. A long ladder keeps each finished game in a record
//! (`--record FILE`, one JSON line a game) and, run again, plays only the games the record lacks:
//! the 100-game rungs of the slower games take longer than one sitting.

use crate::engine::entry::GameEntry;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

/// Games won by the first seat, the second seat, and neither (a draw).
pub type Wins = [u64; 3];

/// One finished game of a match, as the record keeps it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Played {
    /// The scenario's file name.
    pub scenario: String,
    /// The players by seat, by the names `simulate --player` takes.
    pub players: Vec<String>,
    pub seed: u64,
    /// The winner's seat index; None for a draw.
    pub winner: Option<usize>,
    /// How long each search decision took, in milliseconds of one core, by seat index.
    pub ms: Vec<Vec<f32>>,
    /// Whether `ms` is the deciding thread's processor time; false (and in records written
    /// before it was) the wall clock, which counts the time the ladder waited behind other work.
    #[serde(default)]
    pub cpu: bool,
}

/// Plays the games of `seeds` with `play` on `threads` threads, calling `done` as each ends; the
/// games in seed order. A game follows its seed alone, so the outcomes are the same whatever the
/// number of threads.
pub fn play_many(
    seeds: &[u64],
    threads: usize,
    seats: usize,
    play: &(dyn Fn(u64) -> Result<Option<usize>, String> + Sync),
    done: &(dyn Fn(&Played) + Sync),
) -> Result<Vec<Played>, String> {
    let threads = threads.clamp(1, seeds.len().max(1));
    let results: Vec<Result<Vec<Played>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    crate::engine::search::take_decision_times();
                    for &seed in seeds.iter().skip(t).step_by(threads) {
                        let winner = play(seed)?;
                        let mut ms = vec![Vec::new(); seats];
                        for (seat, t) in crate::engine::search::take_decision_times() {
                            if let Some(m) = ms.get_mut(seat.0 as usize) {
                                m.push((t * 10.0).round() / 10.0);
                            }
                        }
                        let cpu = crate::engine::search::decisions_timed_by_processor();
                        let game = Played { scenario: String::new(), players: Vec::new(), seed, winner, ms, cpu };
                        done(&game);
                        out.push(game);
                    }
                    Ok(out)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a game panicked".into()))).collect()
    });
    let mut all = Vec::new();
    for r in results {
        all.extend(r?);
    }
    all.sort_by_key(|g| g.seed);
    Ok(all)
}

/// The games each seat won over `played`, and the draws.
pub fn wins(played: &[Played]) -> Wins {
    let mut w = [0u64; 3];
    for g in played {
        w[g.winner.unwrap_or(2).min(2)] += 1;
    }
    w
}

/// Plays `games` games from seed `seed` on, `players[i]` at seat `i`, on every core: the games
/// each seat won and the draws.
pub fn match_wins(
    game: &dyn GameEntry,
    scenario: &Path,
    players: &[&str],
    games: u64,
    seed: u64,
) -> Result<Wins, String> {
    Record::none().games(game, scenario, players, games, seed, cores()).map(|(played, _)| wins(&played))
}

/// The cores of this machine.
pub fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// The finished games a ladder keeps: read from its file, each new one appended as it ends.
pub struct Record {
    file: Option<std::sync::Mutex<std::fs::File>>,
    games: HashMap<(String, Vec<String>, u64), Played>,
}

impl Record {
    /// No file: every game is played.
    pub fn none() -> Record {
        Record { file: None, games: HashMap::new() }
    }

    /// The record at `path`, made if missing; a line that does not read names the file and line.
    pub fn open(path: &Path) -> Result<Record, String> {
        let mut games = HashMap::new();
        if path.exists() {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let g: Played = serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
                games.insert((g.scenario.clone(), g.players.clone(), g.seed), g);
            }
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Record { file: Some(std::sync::Mutex::new(file)), games })
    }

    /// The games of `players` on `scenario` from seed `seed`, `games` of them: those the record
    /// holds, the others played (on `threads` threads) and appended; and how many were recorded.
    pub fn games(
        &self,
        game: &dyn GameEntry,
        scenario: &Path,
        players: &[&str],
        games: u64,
        seed: u64,
        threads: usize,
    ) -> Result<(Vec<Played>, usize), String> {
        let name = scenario.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let names: Vec<String> = players.iter().map(|p| p.to_string()).collect();
        let key = |s: u64| (name.clone(), names.clone(), s);
        let seeds: Vec<u64> = (0..games).map(|g| seed.wrapping_add(g)).collect();
        let mut out: Vec<Played> = seeds.iter().filter_map(|&s| self.games.get(&key(s)).cloned()).collect();
        let recorded = out.len();
        let missing: Vec<u64> = seeds.iter().copied().filter(|&s| !self.games.contains_key(&key(s))).collect();
        if !missing.is_empty() {
            let play = game.match_of(scenario, players)?;
            let label = |g: &Played| Played { scenario: name.clone(), players: names.clone(), ..g.clone() };
            let append = |g: &Played| {
                if let Some(file) = &self.file {
                    let line = serde_json::to_string(&label(g)).unwrap_or_default();
                    // One line a write, so that a record cut off mid-game keeps every game before.
                    let mut f = file.lock().unwrap_or_else(|p| p.into_inner());
                    if let Err(e) = writeln!(f, "{line}").and_then(|_| f.flush()) {
                        eprintln!("the ladder's record: {e}");
                    }
                }
            };
            out.extend(play_many(&missing, threads, players.len(), &play, &append)?.iter().map(label));
        }
        out.sort_by_key(|g| g.seed);
        Ok((out, recorded))
    }
}

/// One rung: `upper` at seat `seat` against `lower` at the other seat.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Rung {
    pub upper: String,
    pub lower: String,
    pub seat: String,
    pub upper_wins: u64,
    pub lower_wins: u64,
    pub draws: u64,
    /// The upper level's share of the games, draws counted half.
    pub rate: f64,
    /// The same side's share when the lower level plays both seats (same seeds): what the side
    /// is worth by itself, against which `rate` shows what the upper level adds.
    pub mirror_rate: f64,
    /// The upper level's decisions where it searched: the median and the longest, in
    /// milliseconds of one core (None for a level that does not search).
    pub decision_ms_median: Option<f64>,
    pub decision_ms_max: Option<f64>,
}

/// The pairings a ladder plays, (upper, lower): each level against the one below, then `strong`
/// against the baseline where that is not already a rung.
pub fn pairings(levels: &[&str], baseline: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = levels.windows(2).map(|w| (w[1].to_string(), w[0].to_string())).collect();
    if levels.contains(&"strong") && !out.iter().any(|(u, l)| u == "strong" && l == baseline) {
        out.push(("strong".into(), baseline.into()));
    }
    out
}

/// Which part of the ladder a run plays, and how.
#[derive(Clone, Debug, Default)]
pub struct LadderOptions {
    pub games: u64,
    pub seed: u64,
    /// Only the rungs whose upper level is this one.
    pub level: Option<String>,
    /// Only the rungs whose lower level is this one.
    pub against: Option<String>,
    /// Only the upper level at this seat (by the game's seat names).
    pub seat: Option<String>,
    /// Threads (default: every core).
    pub threads: Option<usize>,
}

/// Plays the ladder of `game` on `scenario` as `o` says, printing one JSON line a rung and a
/// summary, the games kept in (and read back from) `record`. The exit code: 1 where a game
/// failed, 2 where a seat is not the game's.
pub fn run(game: &dyn GameEntry, scenario: &Path, o: &LadderOptions, record: &Record) -> i32 {
    let seats = game.seat_names();
    if let Some(seat) = &o.seat
        && !seats.iter().any(|s| s.eq_ignore_ascii_case(seat))
    {
        eprintln!("--seat {seat}: the seats are {}", seats.join(", "));
        return 2;
    }
    let threads = o.threads.unwrap_or_else(cores);
    let mut rungs = Vec::new();
    for (upper, lower) in pairings(game.levels(), game.baseline()) {
        if o.level.as_ref().is_some_and(|l| *l != upper) || o.against.as_ref().is_some_and(|l| *l != lower) {
            continue;
        }
        // The lower level against itself, once for both sides.
        let mirror = match record.games(game, scenario, &vec![lower.as_str(); seats.len()], o.games, o.seed, threads) {
            Ok((g, _)) => wins(&g),
            Err(e) => {
                eprintln!("{lower} against {lower}: {e}");
                return 1;
            }
        };
        let share = |wins: &Wins, s: usize| {
            ((wins[s] as f64 + 0.5 * wins[2] as f64) / o.games.max(1) as f64 * 1000.0).round() / 1000.0
        };
        for s in 0..seats.len() {
            if o.seat.as_ref().is_some_and(|seat| !seats[s].eq_ignore_ascii_case(seat)) {
                continue;
            }
            let mut players = vec![lower.as_str(); seats.len()];
            players[s] = upper.as_str();
            let start = std::time::Instant::now();
            let (played, recorded) = match record.games(game, scenario, &players, o.games, o.seed, threads) {
                Ok(w) => w,
                Err(e) => {
                    eprintln!("{upper} against {lower}: {e}");
                    return 1;
                }
            };
            let wins = wins(&played);
            let other = 1 - s.min(1);
            let mut mine: Vec<f32> = played.iter().flat_map(|g| g.ms.get(s).into_iter().flatten().copied()).collect();
            mine.sort_by(f32::total_cmp);
            let round = |x: f32| (x as f64 * 10.0).round() / 10.0;
            let rung = Rung {
                upper: upper.clone(),
                lower: lower.clone(),
                seat: seats[s].to_string(),
                upper_wins: wins[s],
                lower_wins: wins[other],
                draws: wins[2],
                rate: share(&wins, s),
                mirror_rate: share(&mirror, s),
                decision_ms_median: mine.get(mine.len() / 2).copied().map(round),
                decision_ms_max: mine.last().copied().map(round),
            };
            let mut line = serde_json::to_value(&rung).unwrap_or_default();
            line["seconds"] = ((start.elapsed().as_secs_f64() * 10.0).round() / 10.0).into();
            if recorded > 0 {
                line["from_record"] = recorded.into();
            }
            println!("{line}");
            rungs.push(rung);
        }
    }
    let worst = rungs.iter().map(|r| r.rate).fold(f64::INFINITY, f64::min);
    println!(
        "{}",
        serde_json::json!({"game": game.id(), "games": o.games, "seed": o.seed, "rungs": rungs.len(),
            "lowest_rate": if rungs.is_empty() { serde_json::Value::Null } else { worst.into() }})
    );
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_pairs_each_level_with_the_one_below_and_strong_with_the_baseline() {
        let levels = ["beginner", "normal", "strong", "expert"];
        let p = pairings(&levels, "beginner");
        let names: Vec<(&str, &str)> = p.iter().map(|(u, l)| (u.as_str(), l.as_str())).collect();
        assert_eq!(names, [("normal", "beginner"), ("strong", "normal"), ("expert", "strong"), ("strong", "beginner")]);
        let p = pairings(&levels, "solo");
        assert_eq!(p.last().map(|(u, l)| (u.as_str(), l.as_str())), Some(("strong", "solo")));
    }

    #[test]
    fn games_played_on_several_cores_count_as_on_one() {
        // Seed parity decides the winner, a multiple of five is a draw.
        let play = |s: u64| Ok(if s.is_multiple_of(5) { None } else { Some((s % 2) as usize) });
        let seeds: Vec<u64> = (3..40).collect();
        let many = play_many(&seeds, 3, 2, &play, &|_| {}).unwrap();
        let one = play_many(&seeds, 1, 2, &play, &|_| {}).unwrap();
        assert_eq!(many, one, "the same games in the same order");
        assert!(many.iter().all(|g| g.ms.iter().all(Vec::is_empty)), "no search, no decision times");
        let mut by_hand = [0u64; 3];
        for s in 3..40u64 {
            by_hand[play(s).unwrap().unwrap_or(2)] += 1;
        }
        assert_eq!(wins(&many), by_hand);
        assert_eq!(wins(&many).iter().sum::<u64>(), 37);
    }
}
