//! The ladder of computer levels (`grognard ladder`): each level against the one below it, and
//! `strong` against the baseline (`beginner`; Victory & Glory's `solo`), each on both sides, over
//! seeded games played on every core. A level is judged on each side, because the games are not
//! even: the side a level plays changes its chance more than the level does. Beside each rung, the
//! lower level plays itself on the same seeds (`mirror_rate`): what the side wins alone, so that a
//! rung shows what the upper level adds.

use crate::registry::GameEntry;
use std::path::Path;

/// Games won by the first seat, the second seat, and neither (a draw).
pub type Wins = [u64; 3];

/// How long each search decision of a seat took, in milliseconds, over the games of a match.
pub type Times = Vec<(crate::engine::seats::SeatId, f32)>;

/// Plays games `seed..seed + games` with `play` (a game's seed → its winner's seat index, None for
/// a draw) on every core of the machine; the same counts whatever the number of cores.
pub fn play_many(
    games: u64,
    seed: u64,
    play: impl Fn(u64) -> Result<Option<usize>, String> + Sync,
) -> Result<(Wins, Times), String> {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(games.max(1) as usize);
    let results: Vec<Result<(Wins, Times), String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let play = &play;
                scope.spawn(move || {
                    let mut wins = [0u64; 3];
                    crate::engine::search::take_decision_times();
                    for g in (t as u64..games).step_by(threads) {
                        wins[play(seed.wrapping_add(g))?.unwrap_or(2).min(2)] += 1;
                    }
                    Ok((wins, crate::engine::search::take_decision_times()))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a game panicked".into()))).collect()
    });
    let (mut wins, mut times) = ([0u64; 3], Vec::new());
    for r in results {
        let (w, t) = r?;
        (0..3).for_each(|k| wins[k] += w[k]);
        times.extend(t);
    }
    Ok((wins, times))
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

/// Plays the ladder of `game` on `scenario`, `games` games a pairing and side, printing one JSON
/// line a rung and a summary; `only` keeps the pairings whose upper level it names. The exit
/// code: 1 where a game failed.
pub fn run(game: &dyn GameEntry, scenario: &Path, games: u64, seed: u64, only: Option<&str>) -> i32 {
    let seats = game.seat_names();
    let mut rungs = Vec::new();
    for (upper, lower) in pairings(game.levels(), game.baseline()) {
        if only.is_some_and(|o| o != upper) {
            continue;
        }
        // The lower level against itself, once for both sides.
        let mirror = match game.play_match(scenario, &vec![lower.as_str(); seats.len()], games, seed) {
            Ok((w, _)) => w,
            Err(e) => {
                eprintln!("{lower} against {lower}: {e}");
                return 1;
            }
        };
        let share = |wins: &Wins, s: usize| {
            ((wins[s] as f64 + 0.5 * wins[2] as f64) / games.max(1) as f64 * 1000.0).round() / 1000.0
        };
        for s in 0..seats.len() {
            let mut players = vec![lower.as_str(); seats.len()];
            players[s] = upper.as_str();
            let start = std::time::Instant::now();
            let (wins, times) = match game.play_match(scenario, &players, games, seed) {
                Ok(w) => w,
                Err(e) => {
                    eprintln!("{upper} against {lower}: {e}");
                    return 1;
                }
            };
            let other = 1 - s.min(1);
            let mut mine: Vec<f32> = times.iter().filter(|(seat, _)| seat.0 as usize == s).map(|t| t.1).collect();
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
            println!("{line}");
            rungs.push(rung);
        }
    }
    let worst = rungs.iter().map(|r| r.rate).fold(f64::INFINITY, f64::min);
    println!(
        "{}",
        serde_json::json!({"game": game.id(), "games": games, "seed": seed, "rungs": rungs.len(),
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
        let (wins, times) = play_many(37, 3, play).unwrap();
        assert!(times.is_empty(), "no search, no decision times");
        let mut one = [0u64; 3];
        for s in 3..40u64 {
            one[play(s).unwrap().unwrap_or(2)] += 1;
        }
        assert_eq!(wins, one);
        assert_eq!(wins.iter().sum::<u64>(), 37);
    }
}
