//! The command line: validate, replay, simulate, and the journal surviving a killed process.
mod common;
use common::*;
use grognard::games::botn;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn grognard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grognard"))
}

#[test]
fn validate_accepts_the_shipped_data_and_names_errors() {
    let dir = scenario_path().parent().unwrap().to_path_buf();
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    let out = grognard().arg("validate").args(&files).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    // A broken file: exit 1 and file:line:column: message.
    let tmp = tempfile::tempdir().unwrap();
    for f in &files {
        std::fs::copy(f, tmp.path().join(f.file_name().unwrap())).unwrap();
    }
    let armies = tmp.path().join("armies.ron");
    let text =
        std::fs::read_to_string(&armies).unwrap().replacen("strength: 2, markers: 3", "strength: two, markers: 3", 1);
    std::fs::write(&armies, &text).unwrap();
    let out = grognard().arg("validate").arg(&armies).arg(tmp.path().join("beginner.ron")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().position(|l| l.contains("strength: two")).unwrap() + 1;
    assert!(stdout.contains(&format!("armies.ron:{line}:")), "{stdout}");
}

#[test]
fn replay_prints_the_digest_and_names_the_first_bad_action() {
    let tmp = tempfile::tempdir().unwrap();
    let mut t = new_table(31);
    play_random(&mut t, 40, 31);
    let path = tmp.path().join("s.ron");
    botn::save_of(&t).write(&path).unwrap();
    let out = grognard().arg("replay").arg(&path).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("digest {}", t.digest()));
    let mut save = botn::save_of(&t);
    save.log.truncate(5);
    save.log.push(grognard::engine::table::Record {
        seat: ALLIED,
        act: grognard::engine::table::Act::Game(botn::Action::Pass),
    });
    save.write(&path).unwrap();
    let out = grognard().arg("replay").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("action 6 of the log"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn simulate_plays_complete_games_and_their_saves_replay() {
    let tmp = tempfile::tempdir().unwrap();
    // Random against random, the computer against itself (`ai` is normal), and hard against random.
    for (french, allied) in [("random", "random"), ("ai", "ai"), ("hard", "random")] {
        let out = grognard()
            .args([
                "simulate",
                scenario_path().to_str().unwrap(),
                "--games",
                "4",
                "--seed",
                "7",
                "--player",
                &format!("french={french}"),
                "--player",
                &format!("allied={allied}"),
                "--save-dir",
            ])
            .arg(tmp.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 5);
        let summary = &lines[4];
        assert_eq!(summary["games"], 4);
        assert_eq!(summary["errors"], 0);
        assert_eq!(summary["french_wins"].as_u64().unwrap() + summary["allied_wins"].as_u64().unwrap(), 4);
        assert!(summary["games_per_sec"].as_f64().unwrap() > 0.0);
        assert!(summary["actions_per_sec"].as_f64().unwrap() > 0.0, "actions a second beside games a second");
        for game in &lines[..4] {
            let seed = game["seed"].as_u64().unwrap();
            assert!(game["winner"].is_string());
            let save = tmp.path().join(format!("game-{seed}.ron"));
            let out = grognard().arg("replay").arg(&save).output().unwrap();
            assert_eq!(
                String::from_utf8_lossy(&out.stdout).trim(),
                format!("digest {}", game["digest"].as_str().unwrap())
            );
        }
    }
}

#[test]
fn a_reader_that_stops_early_ends_simulate_quietly() {
    // `grognard simulate … | head -1`: the reader takes one line and closes the pipe.
    let mut child = grognard()
        .args(["simulate", scenario_path().to_str().unwrap(), "--games", "400", "--seed", "3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.contains("\"seed\""), "{first}");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}: {stderr}", out.status);
    assert!(stderr.is_empty(), "nothing written on a closed pipe's account: {stderr}");
}

#[test]
fn the_journal_survives_a_killed_process() {
    let tmp = tempfile::tempdir().unwrap();
    let journal = tmp.path().join("journal.ron");
    let mut child = grognard()
        .args(["autoplay", scenario_path().to_str().unwrap(), "--seed", "5", "--delay-ms", "5", "--journal"])
        .arg(&journal)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut last = None;
    for line in lines.by_ref() {
        let line = line.unwrap();
        let mut words = line.split_whitespace();
        assert_eq!(words.next(), Some("applied"));
        let n: usize = words.next().unwrap().parse().unwrap();
        let digest = words.nth(1).unwrap().to_string();
        last = Some((n, digest));
        if n == 25 {
            break;
        }
    }
    child.kill().unwrap(); // SIGKILL: no chance to flush or clean up
    child.wait().unwrap();
    let (n, digest) = last.unwrap();
    let save = grognard::engine::journal::Journal::read::<botn::Action>(&journal).unwrap();
    assert!(save.log.len() >= n, "the journal lost applied actions: {} < {n}", save.log.len());
    let mut upto = save.clone();
    upto.log.truncate(n);
    assert_eq!(botn::load_save(&upto, &journal).unwrap().digest(), digest);
}

#[test]
fn victory_and_glory_simulate_validate_and_replay() {
    // Victory & Glory from the command line: random games and solo AI games end, their saves
    // replay to the same digest, and the scenario validates.
    let tmp = tempfile::tempdir().unwrap();
    let scenario = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory/napoleon.ron");
    let out = grognard().arg("validate").arg(&scenario).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("11 nations, 89 units, 157 cards"));
    for solo in [None, Some("france"), Some("britain")] {
        let mut cmd = grognard();
        cmd.arg("simulate").arg(&scenario).args(["--games", "3", "--seed", "4", "--save-dir"]).arg(tmp.path());
        if let Some(s) = solo {
            cmd.args(["--player", &format!("{s}=solo")]);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines[3]["errors"], 0);
        for game in &lines[..3] {
            let save = tmp.path().join(format!("vg-{}.ron", game["seed"]));
            let out = grognard().arg("replay").arg(&save).output().unwrap();
            assert_eq!(
                String::from_utf8_lossy(&out.stdout).trim(),
                format!("digest {}", game["digest"].as_str().unwrap())
            );
        }
    }
}

#[test]
fn the_command_line_refuses_flags_that_do_not_apply() {
    let tmp = tempfile::tempdir().unwrap();
    // A save carries its own seed and mode.
    let mut t = new_table(33);
    play_random(&mut t, 10, 33);
    let save = tmp.path().join("s.ron");
    botn::save_of(&t).write(&save).unwrap();
    for flag in [&["--seed", "5"][..], &["--sandbox"][..]] {
        let out = grognard().arg("play").arg(&save).args(flag).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("a save carries its own seed and mode"), "{flag:?}");
    }
    // Caps on the number of games, lower when each is written to a file.
    let out = grognard()
        .args(["simulate", scenario_path().to_str().unwrap(), "--games", "10001", "--save-dir"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 10000 with --save-dir"));
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1, "nothing written");
    // Victory & Glory has no `hard` (its levels are beginner, normal, strong, expert and solo).
    let vg = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory/napoleon.ron");
    let out = grognard().args(["simulate", vg.to_str().unwrap(), "--players", "hard"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    // A close-up needs a point of the table and a distance, within bounds.
    for look in ["1,2", "1,2,0", "500,0,10", "a,b,c"] {
        let out =
            grognard().args(["screenshot", vg.to_str().unwrap(), "--out", "x.png", "--look", look]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{look}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("X,Z,DISTANCE"), "{look}");
    }
}

#[cfg(feature = "gui")]
#[test]
fn victory_and_glory_refuses_the_levels_it_does_not_have() {
    // (`--sandbox` it has, as every game does now: tests/sandbox.rs.)
    let vg = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory/napoleon.ron");
    let out = grognard().arg("play").arg(&vg).args(["--level", "hard"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected solo, beginner, normal, strong or expert"));
}
