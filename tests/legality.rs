//! Legality both ways, as a property over many random games of every game: every listed action
//! is accepted, and every accepted action is listed. Candidates are the listed actions mutated
//! (each number in them changed: another piece, another place, an id out of range), the actions
//! listed earlier in the same game (another kind of action, from another step), and every listed
//! action from another seat. After every refusal the table is untouched.
mod common;
use grognard::engine::conformance::mutated;
use grognard::engine::rng::TableRng;
use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::SeatId;
use grognard::engine::table::{Act, Table};
use std::collections::HashSet;

/// How many random games each property plays (`GROGNARD_CASES` overrides it).
/// Writes a case count straight to stderr, past the test harness's capture, so CI's log shows
/// how many games a property covered.
fn report(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn cases(default: u64) -> u64 {
    std::env::var("GROGNARD_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Counts of what one property run checked.
#[derive(Default, Debug)]
struct Counts {
    games: u64,
    positions: u64,
    candidates: u64,
    refused: u64,
}

/// Plays `games` random games from `new_table(seed)`, checking both directions of legality at
/// every decision, for games with `seats` seats.
fn both_ways<G: Game>(games: u64, new_table: impl Fn(u64) -> Table<G>, seats: u8) -> Counts
where
    G::Action: std::hash::Hash + Eq,
{
    both_ways_sampled(games, new_table, seats, usize::MAX)
}

/// As `both_ways`, checking at most `listed_checks` listed actions a position (drawn at random):
/// a hex game lists thousands of moves at every position.
fn both_ways_sampled<G: Game>(
    games: u64,
    new_table: impl Fn(u64) -> Table<G>,
    seats: u8,
    listed_checks: usize,
) -> Counts
where
    G::Action: std::hash::Hash + Eq,
{
    let mut n = Counts::default();
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut t = new_table(seed);
        let mut rng = TableRng::from_seed(seed ^ 0x1e6a1);
        let mut history: Vec<G::Action> = Vec::new();
        let mut known: HashSet<G::Action> = HashSet::new();
        n.games += 1;
        while !t.game.is_over() && t.records.len() < 20_000 {
            t.game.legal_actions(t.mode, &mut legal);
            let seat = t.game.active_seat().expect("a game not over has a deciding seat");
            assert!(!legal.is_empty(), "seed {seed}: dead end");
            n.positions += 1;
            let listed: HashSet<&G::Action> = legal.iter().collect();
            let sample: Vec<&G::Action> = if legal.len() <= listed_checks {
                legal.iter().collect()
            } else {
                (0..listed_checks).map(|_| &legal[rng.below(legal.len())]).collect()
            };
            for a in sample {
                assert!(t.game.check(t.mode, seat, a).is_ok(), "seed {seed}: listed but refused: {a:?}");
                if known.insert(a.clone()) {
                    history.push(a.clone());
                }
            }
            // Candidates: a few listed actions mutated, a sample of earlier actions, other seats.
            let mut candidates: Vec<(SeatId, G::Action)> = Vec::new();
            for _ in 0..2 {
                let a = &legal[rng.below(legal.len())];
                candidates.extend(mutated(a).into_iter().map(|m| (seat, m)));
            }
            for _ in 0..4.min(history.len()) {
                candidates.push((seat, history[rng.below(history.len())].clone()));
            }
            for other in (0..seats).map(SeatId).chain([SeatId(255)]).filter(|s| *s != seat) {
                candidates.push((other, legal[rng.below(legal.len())].clone()));
            }
            // A refused submission leaves the table as it was (checked at every fourth position).
            let mut untouched_checked = n.positions % 4 != 0;
            for (s, c) in candidates {
                n.candidates += 1;
                let accepted = t.game.check(t.mode, s, &c).is_ok();
                let is_listed = s == seat && listed.contains(&c);
                assert_eq!(
                    accepted,
                    is_listed,
                    "seed {seed}, seat {s:?}, step of {:?}: {c:?} is {} but {} listed",
                    t.records.len(),
                    if accepted { "accepted" } else { "refused" },
                    if is_listed { "is" } else { "not" },
                );
                if !accepted {
                    n.refused += 1;
                    if !untouched_checked {
                        untouched_checked = true;
                        let before = (t.digest(), t.records.len(), t.entries.len());
                        assert!(t.submit(s, Act::Game(c.clone())).is_err());
                        assert_eq!((t.digest(), t.records.len(), t.entries.len()), before, "{c:?} changed the table");
                    }
                }
            }
            let a = legal[rng.below(legal.len())].clone();
            t.submit(seat, Act::Game(a)).expect("a listed action applies");
        }
        assert!(t.game.is_over(), "seed {seed}: no end");
    }
    n
}

#[test]
fn battle_of_the_nations_every_listed_action_is_accepted_and_every_accepted_one_listed() {
    // Random play does not depend on the advanced game's terrain values, so each variant plays
    // its own seeds: 1,000 different games in all.
    for (variant, first_seed) in [("beginner.ron", 0), ("advanced.ron", 1_000_000)] {
        let path = common::scenario_path().with_file_name(variant);
        let sc = std::sync::Arc::new(grognard::games::botn::Scenario::load(&path).unwrap());
        let new_table = |seed| grognard::games::botn::table_on(sc.clone(), first_seed + seed, Mode::Enforced);
        let n = both_ways(cases(500), new_table, 2);
        report(format_args!("legality both ways, Battle of the Nations {variant}: {n:?}"));
        assert!(n.games >= 1 && n.refused > 0);
    }
}

#[test]
fn victory_and_glory_every_listed_action_is_accepted_and_every_accepted_one_listed() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory/napoleon.ron");
    let sc = std::sync::Arc::new(grognard::games::vg::VgScenario::load(&path).unwrap());
    for solo in [None, Some(grognard::games::vg::Player::France), Some(grognard::games::vg::Player::Britain)] {
        let n = both_ways(cases(340), |seed| grognard::games::vg::table_on(sc.clone(), seed, solo), 2);
        report(format_args!("legality both ways, Victory & Glory (solo {solo:?}): {n:?}"));
        assert!(n.games >= 1 && n.refused > 0);
    }
}

#[test]
fn leipzig_every_listed_action_is_accepted_and_every_accepted_one_listed() {
    // A spring scenario (reconnaissance, the Saxon garrison), a summer one and the campaign.
    for (file, games) in [("1-historical-situation.ron", 6), ("5-historical-summer.ron", 3), ("8-the-campaign.ron", 3)]
    {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/leipzig-1813").join(file);
        let sc = std::sync::Arc::new(grognard::games::leipzig::LzScenario::load(&path).unwrap());
        let n = both_ways_sampled(cases(games), |seed| grognard::games::leipzig::table_on(sc.clone(), seed), 2, 24);
        report(format_args!("legality both ways, Leipzig {file}: {n:?}"));
        assert!(n.games >= 1 && n.refused > 0);
    }
}

#[test]
fn austerlitz_every_listed_action_is_accepted_and_every_accepted_one_listed() {
    for (file, games) in [("1-historical.ron", 6), ("2-game-sectors.ron", 4)] {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz").join(file);
        let sc = std::sync::Arc::new(grognard::games::austerlitz::AzScenario::load(&path).unwrap());
        let n = both_ways_sampled(cases(games), |seed| grognard::games::austerlitz::table_on(sc.clone(), seed), 2, 24);
        report(format_args!("legality both ways, Austerlitz {file}: {n:?}"));
        assert!(n.games >= 1 && n.refused > 0);
    }
}

/// Issue 63: the rules' invariants, written once (`engine::conformance`) and run over every game
/// the registry lists and every scenario it ships, naming no game: a fifth game is held to them
/// by being registered. Random games and games of the computer's first level; a short run here,
/// `GROGNARD_CASES=N` for N games of each.
#[test]
fn every_registered_game_keeps_the_rules_invariants_on_every_shipped_scenario() {
    use grognard::engine::conformance::Options;
    let games = cases(1);
    for entry in grognard::registry::GAMES {
        let scenarios = grognard::engine::entry::scenarios_beside(&entry.default_scenario(), entry.id()).unwrap();
        assert!(!scenarios.is_empty(), "{}: no scenario", entry.id());
        let mut finished = 0;
        for (k, file) in scenarios.iter().enumerate() {
            for player in ["random", "beginner"] {
                let options = Options { games, player: player.into(), listed_checks: 24, max_actions: 4_000 };
                let n = entry.conformance(file, 7_000 + k as u64 * 100, &options).unwrap_or_else(|e| panic!("{e}"));
                report(format_args!("invariants, {} {} ({player}): {n:?}", entry.id(), file.display()));
                assert!(n.positions > 0 && n.refused > 0 && n.views > 0, "{n:?}");
                finished += n.finished;
            }
        }
        assert!(finished > 0, "{}: no game played to its end, whose invariants went unchecked", entry.id());
    }
}
