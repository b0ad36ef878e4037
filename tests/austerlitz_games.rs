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
