//! Austerlitz whole games: both scenarios played to their end by random and computer players and
//! replayed through a save to the same digest; the computer against a random opponent; the
//! shipped files valid through the command line; a broken one named by file and line.
use grognard::engine::rules::Game;
use grognard::engine::seats::SeatId;
use grognard::games::austerlitz::ai::AzPlayer;
use grognard::games::austerlitz::{self, AzScenario};
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz")
}

fn scenarios() -> Vec<PathBuf> {
    vec![dir().join("1-historical.ron"), dir().join("2-game-sectors.ron")]
}

#[test]
fn both_scenarios_play_to_their_end_and_a_save_replays_to_the_same_digest() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, f) in scenarios().iter().enumerate() {
        let sc = Arc::new(AzScenario::load(f).unwrap());
        for (j, players) in [[AzPlayer::Random; 2], [AzPlayer::Beginner; 2]].into_iter().enumerate() {
            let seed = 10 + (i * 2 + j) as u64;
            let t = austerlitz::play_game(sc.clone(), seed, players, 40_000).unwrap();
            assert!(t.game.is_over(), "{}", sc.name);
            assert!(t.game.turn <= t.game.sc.tables.victory.last_turn);
            let save = tmp.path().join(format!("s{i}{j}.ron"));
            austerlitz::save_of(&t).write(&save).unwrap();
            let loaded = austerlitz::load_save(&grognard::engine::save::SaveFile::read(&save).unwrap(), &save).unwrap();
            assert_eq!(loaded.digest(), t.digest(), "{}", sc.name);
        }
    }
}

#[test]
fn the_computer_beats_a_random_opponent_on_either_side() {
    let sc = Arc::new(AzScenario::load(&dir().join("1-historical.ron")).unwrap());
    for (seat, players) in [(0, [AzPlayer::Beginner, AzPlayer::Random]), (1, [AzPlayer::Random, AzPlayer::Beginner])] {
        let wins = (0..4)
            .filter(|&s| {
                let t = austerlitz::play_game(sc.clone(), s, players, 40_000).unwrap();
                t.game.winner() == Some(SeatId(seat))
            })
            .count();
        assert!(wins >= 3, "seat {seat}: {wins} of 4");
    }
}

#[test]
fn validate_accepts_the_shipped_files_and_simulate_replays_every_game() {
    let files: Vec<PathBuf> = std::fs::read_dir(dir()).unwrap().map(|e| e.unwrap().path()).collect();
    let out = Command::new(env!("CARGO_BIN_EXE_grognard")).arg("validate").args(&files).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("reconstructed"), "{said}");
    let out = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .arg("simulate")
        .arg(dir().join("1-historical.ron"))
        .args(["--games", "2", "--player", "allied=beginner"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let last = String::from_utf8_lossy(&out.stdout).lines().last().unwrap().to_string();
    assert!(last.contains("\"errors\":0") && last.contains("\"games\":2"), "{last}");
}

#[test]
fn a_broken_board_is_refused_with_its_file_line_and_field() {
    let tmp = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(dir()).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, tmp.path().join(p.file_name().unwrap())).unwrap();
    }
    let board = tmp.path().join("board.ron");
    let text = std::fs::read_to_string(&board).unwrap();
    // A road that jumps from (12, 14) to (14, 15).
    let broken = text.replacen("(12, 14), (13, 15)", "(12, 14), (14, 15)", 1);
    assert_ne!(broken, text);
    std::fs::write(&board, &broken).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .arg("validate")
        .arg(tmp.path().join("1-historical.ron"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    let line = broken.lines().position(|l| l.contains("(12, 14), (14, 15)")).unwrap() + 1;
    assert!(said.contains(&format!("board.ron:{line}:")) && said.contains("field `road`"), "{said}");
}

#[test]
fn a_unit_of_an_unknown_command_is_refused_with_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(dir()).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, tmp.path().join(p.file_name().unwrap())).unwrap();
    }
    let oob = tmp.path().join("order-of-battle.ron");
    let text = std::fs::read_to_string(&oob).unwrap();
    let broken = text.replacen("command: \"Kienmayer\"", "command: \"Kinmayer\"", 1);
    std::fs::write(&oob, &broken).unwrap();
    let err = AzScenario::load(&tmp.path().join("1-historical.ron")).unwrap_err();
    let line = broken.lines().position(|l| l.contains("Kinmayer")).unwrap() + 1;
    assert_eq!(err.line, line, "{err}");
    assert!(err.message.contains("no command named \"Kinmayer\""), "{err}");
}

/// Movement: a move's check keeps the unit's search and `apply` walks the path from it. Along
/// random battles, every move applied from what its check kept ends exactly as the same move
/// with the search made again.
#[test]
fn a_move_applied_from_its_checks_search_ends_as_one_searched_again() {
    use grognard::engine::rules::Mode;
    use grognard::engine::table::Act;
    use grognard::games::austerlitz::Action;
    let sc = Arc::new(AzScenario::load(&scenarios()[0]).unwrap());
    let mut moves = 0;
    for seed in [3, 4] {
        let played = austerlitz::play_game(sc.clone(), seed, [AzPlayer::Random; 2], 40_000).unwrap();
        let mut t = austerlitz::table_on(sc.clone(), seed);
        for r in &played.records {
            if let Act::Game(a @ Action::Move { unit, to, facing }) = &r.act {
                let kept = t.game.check_keeping(Mode::Enforced, r.seat, a).expect("a move of the log is legal");
                assert!(kept.is_some(), "the check of {a:?} kept its search");
                let (mut from_check, mut searched) = (t.game.clone(), t.game.clone());
                let (mut e1, mut e2) = (Vec::new(), Vec::new());
                from_check.apply_move(*unit as usize, *to, *facing, kept, &mut e1);
                searched.apply_move(*unit as usize, *to, *facing, None, &mut e2);
                assert_eq!(ron::to_string(&from_check).unwrap(), ron::to_string(&searched).unwrap());
                assert_eq!(ron::to_string(&e1).unwrap(), ron::to_string(&e2).unwrap());
                moves += 1;
            }
            t.submit(r.seat, r.act.clone()).unwrap();
        }
    }
    assert!(moves > 100, "{moves} moves compared");
}

/// The random player draws a unit and then one of its moves (not the whole list): along random
/// battles, each of its draws is an action of the legal list, and it draws moves and other
/// actions alike.
#[test]
fn the_random_player_draws_only_listed_actions() {
    use grognard::engine::rng::TableRng;
    use grognard::games::austerlitz::Action;
    let sc = Arc::new(AzScenario::load(&scenarios()[0]).unwrap());
    let played = austerlitz::play_game(sc.clone(), 11, [AzPlayer::Random; 2], 40_000).unwrap();
    let mut t = austerlitz::table_on(sc.clone(), 11);
    let mut rng = TableRng::from_seed(5);
    let (mut moves, mut others) = (0, 0);
    let mut legal = Vec::new();
    for r in played.records.iter().take(400) {
        t.game.legal(&mut legal);
        for _ in 0..3 {
            let a = austerlitz::ai::random_action(&t.game, &mut rng).expect("an action while the battle goes on");
            assert!(legal.contains(&a), "{a:?} drawn, not listed");
            if matches!(a, Action::Move { .. }) { moves += 1 } else { others += 1 }
        }
        t.submit(r.seat, r.act.clone()).unwrap();
    }
    assert!(moves > 100 && others > 100, "{moves} moves, {others} other actions drawn");
}

/// The search's playouts play the beginner on a few units' moves at a time
/// (`ai::beginner_sampled`): along battles of the beginner against a random player, each of its
/// choices is an action of the legal list, it moves units and does the rest alike, and where it
/// ends a step of moves the beginner given the whole list ends it too (no unit left a move it
/// would have made).
#[test]
fn the_playouts_beginner_chooses_listed_actions_and_ends_a_step_only_as_the_beginner_would() {
    use grognard::engine::rng::TableRng;
    use grognard::engine::seats::Viewer;
    use grognard::games::austerlitz::Action;
    use grognard::games::austerlitz::ai::{beginner_sampled, choose};
    use grognard::games::austerlitz::observe::AzView;
    let sc = Arc::new(AzScenario::load(&scenarios()[0]).unwrap());
    let (mut moves, mut others, mut ends) = (0, 0, 0);
    for (seed, players) in [(21, [AzPlayer::Beginner, AzPlayer::Random]), (22, [AzPlayer::Random, AzPlayer::Beginner])]
    {
        let played = austerlitz::play_game(sc.clone(), seed, players, 40_000).unwrap();
        let mut t = austerlitz::table_on(sc.clone(), seed);
        let mut rng = TableRng::from_seed(seed);
        let mut legal = Vec::new();
        for r in played.records.iter().take(600) {
            t.game.legal(&mut legal);
            let a = beginner_sampled(&t.game, &mut rng).expect("an action while the battle goes on");
            assert!(legal.contains(&a), "{a:?} chosen, not listed");
            match a {
                Action::Move { .. } => moves += 1,
                Action::EndMovement | Action::EndArtillery => {
                    let whole = choose(&AzView::of(&t.game, Viewer::Spectator), &legal, AzPlayer::Beginner, &mut rng);
                    assert_eq!(whole, a, "the playout ended a step where the beginner moves on");
                    ends += 1;
                }
                _ => others += 1,
            }
            t.submit(r.seat, r.act.clone()).unwrap();
        }
    }
    assert!(moves > 100 && others > 100 && ends > 5, "{moves} moves, {others} other actions, {ends} ends");
}
