//! Leipzig 1813 whole games: every scenario played to its end and replayed to the same digest,
//! through a save file and through the command line; the computer's strength against a random
//! opponent; the shipped files valid; a broken one named by file and line.
use grognard::engine::rules::Game;
use grognard::games::leipzig::ai::LzPlayer;
use grognard::games::leipzig::{self, LzScenario};
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/leipzig-1813")
}

fn scenarios() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    out.sort();
    out
}

#[test]
fn all_eight_scenarios_play_to_their_end_and_a_save_replays_to_the_same_digest() {
    let files = scenarios();
    assert_eq!(files.len(), 8, "scenarios 1 to 8");
    let tmp = tempfile::tempdir().unwrap();
    for (i, f) in files.iter().enumerate() {
        let sc = Arc::new(LzScenario::load(f).unwrap());
        assert_eq!(sc.number as usize, i + 1);
        let t = leipzig::play_game(sc.clone(), 100 + i as u64, [LzPlayer::Random; 2], 60_000).unwrap();
        assert!(t.game.is_over());
        assert_eq!(t.game.turn, sc.last_turn, "{}: the game ends after its last turn", sc.name);
        let save = tmp.path().join(format!("s{i}.ron"));
        leipzig::save_of(&t).write(&save).unwrap();
        let loaded = leipzig::load_save(&grognard::engine::save::SaveFile::read(&save).unwrap(), &save).unwrap();
        assert_eq!(loaded.digest(), t.digest(), "{}", sc.name);
    }
}

#[test]
fn the_beginner_beats_a_random_opponent_on_either_side() {
    let sc = Arc::new(LzScenario::load(&dir().join("7-no-austrian-involvement.ron")).unwrap());
    let french = leipzig::play_game(sc.clone(), 5, [LzPlayer::Beginner, LzPlayer::Random], 60_000).unwrap();
    assert_eq!(french.game.winner(), Some(grognard::engine::seats::SeatId(0)), "{:?}", french.game.final_vp);
    let allied = leipzig::play_game(sc, 6, [LzPlayer::Random, LzPlayer::Beginner], 60_000).unwrap();
    assert_eq!(allied.game.winner(), Some(grognard::engine::seats::SeatId(1)), "{:?}", allied.game.final_vp);
}

#[test]
fn validate_accepts_the_shipped_files_and_simulate_replays_every_game() {
    let files: Vec<PathBuf> = std::fs::read_dir(dir()).unwrap().map(|e| e.unwrap().path()).collect();
    let out = Command::new(env!("CARGO_BIN_EXE_grognard")).arg("validate").args(&files).output().unwrap();
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let out = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["simulate"])
        .arg(dir().join("8-the-campaign.ron"))
        .args(["--games", "2", "--player", "allied=beginner"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let last = String::from_utf8_lossy(&out.stdout).lines().last().unwrap().to_string();
    assert!(last.contains("\"errors\":0") && last.contains("\"games\":2"), "{last}");
}

#[test]
fn a_broken_map_is_refused_with_its_file_line_and_field() {
    let tmp = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(dir()).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, tmp.path().join(p.file_name().unwrap())).unwrap();
    }
    let board = tmp.path().join("board.ron");
    let text = std::fs::read_to_string(&board).unwrap();
    // A river hexside between two hexes that do not touch.
    let broken = text.replacen("\"1010/1111\"", "\"1010/1515\"", 1);
    assert_ne!(broken, text);
    std::fs::write(&board, &broken).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .arg("validate")
        .arg(tmp.path().join("1-historical-situation.ron"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    let line = broken.lines().position(|l| l.contains("1010/1515")).unwrap() + 1;
    assert!(said.contains(&format!("board.ron:{line}:")) && said.contains("not adjacent"), "{said}");
}

#[test]
fn seat_save_on_the_command_line_hides_the_allied_blanks_from_the_french() {
    let tmp = tempfile::tempdir().unwrap();
    let mut t = leipzig::new_table(&dir().join("1-historical-situation.ron"), 3).unwrap();
    t.submit(grognard::engine::seats::SeatId(1), grognard::engine::table::Act::Game(leipzig::Action::DeployRest))
        .unwrap();
    let save = tmp.path().join("game.ron");
    leipzig::save_of(&t).write(&save).unwrap();
    let run = |seat: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_grognard"))
            .args(["seat-save"])
            .arg(&save)
            .args(["--seat", seat])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    assert!(run("french").contains("Blank") && run("spectator").contains("Blank"));
    assert!(!run("allied").contains("Blank"));
    let out = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["seat-save"])
        .arg(&save)
        .args(["--seat", "prussia"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected french, allied or spectator"));
}

/// Movement: a move's check keeps the map as the mover sees it and the counter's search, and
/// `apply` walks the way from them. Along random games of scenario 1, every move applied from
/// what its check kept ends exactly as the same move with the search made again.
#[test]
fn a_move_applied_from_its_checks_search_ends_as_one_searched_again() {
    use grognard::engine::rules::Mode;
    use grognard::engine::table::Act;
    use grognard::games::leipzig::actions::Action;
    let sc = Arc::new(LzScenario::load(&scenarios()[0]).unwrap());
    let mut moves = 0;
    for seed in [3, 4] {
        let played = leipzig::play_game(sc.clone(), seed, [LzPlayer::Random; 2], 60_000).unwrap();
        let mut t = leipzig::table_on(sc.clone(), seed);
        for r in &played.records {
            if let Act::Game(a @ Action::Move { unit, to, march, supply }) = &r.act {
                let kept = t.game.check_keeping(Mode::Enforced, r.seat, a).expect("a move of the log is legal");
                assert!(kept.is_some(), "the check of {:?} kept its search", r.act);
                let (mut from_check, mut searched) = (t.game.clone(), t.game.clone());
                let (mut e1, mut e2) = (Vec::new(), Vec::new());
                from_check.apply_move(*unit, *to, *march, *supply, kept, &mut e1);
                searched.apply_move(*unit, *to, *march, *supply, None, &mut e2);
                assert_eq!(ron::to_string(&from_check).unwrap(), ron::to_string(&searched).unwrap());
                assert_eq!(ron::to_string(&e1).unwrap(), ron::to_string(&e2).unwrap());
                moves += 1;
            }
            t.submit(r.seat, r.act.clone()).unwrap();
        }
    }
    assert!(moves > 100, "{moves} moves compared");
}

/// Zones of Control, Supply and Stacking: the map of a decision is made from a kept map of an
/// earlier one (the hexes a counter left or entered, and their neighbours, worked out again).
/// At every decision of whole random games (the campaign: combats, breakdowns, the armistice,
/// the Austrian intervention), for every viewer, it is the map built whole from the counters.
#[test]
fn zoc_every_map_made_from_an_earlier_one_is_the_map_built_whole() {
    use grognard::engine::seats::{SeatId, Viewer};
    use grognard::games::leipzig::rules::zoc::Situation;
    let viewers = [None, Some(Viewer::Seat(SeatId(0))), Some(Viewer::Seat(SeatId(1))), Some(Viewer::Spectator)];
    let mut compared = 0;
    for (file, seed) in [("8-the-campaign.ron", 3), ("1-historical-situation.ron", 4)] {
        let sc = Arc::new(LzScenario::load(&dir().join(file)).unwrap());
        let played = leipzig::play_game(sc.clone(), seed, [LzPlayer::Random; 2], 60_000).unwrap();
        let mut t = leipzig::table_on(sc, seed);
        for r in &played.records {
            for v in viewers {
                let shared = match v {
                    None => Situation::of(&t.game),
                    Some(v) => Situation::seen_from(&t.game, v),
                };
                assert!(*shared == Situation::built(&t.game, v), "{file}: the map for {v:?} before {:?}", r.act);
                compared += 1;
            }
            t.submit(r.seat, r.act.clone()).unwrap();
        }
    }
    assert!(compared > 8_000, "{compared} maps compared");
}

/// The search's playouts find the beginner's choice without listing every move
/// (`ai::beginner_fast`): along whole games of the beginner against a random player, on both
/// sides, at every decision it is the choice the beginner makes from the whole legal list.
#[test]
fn the_beginners_choice_found_without_the_whole_list_is_the_one_made_from_it() {
    use grognard::engine::rules::Mode;
    use grognard::games::leipzig::actions::Action;
    use grognard::games::leipzig::ai::{beginner, beginner_fast};
    let (mut decisions, mut moves) = (0, 0);
    for (file, seed) in [(0, 11), (6, 12), (7, 13)] {
        let sc = Arc::new(LzScenario::load(&scenarios()[file]).unwrap());
        for players in [[LzPlayer::Beginner, LzPlayer::Random], [LzPlayer::Random, LzPlayer::Beginner]] {
            let played = leipzig::play_game(sc.clone(), seed, players, 60_000).unwrap();
            let mut t = leipzig::table_on(sc.clone(), seed);
            let mut legal = Vec::new();
            for r in &played.records {
                t.game.legal_actions(Mode::Enforced, &mut legal);
                if !legal.is_empty() {
                    let whole = beginner(&t.game, &legal);
                    let fast = beginner_fast(&t.game).expect("a decision").pick;
                    assert_eq!(fast, whole, "{} turn {} step {:?}", sc.name, t.game.turn, t.game.step);
                    decisions += 1;
                    moves += matches!(whole, Action::Move { .. }) as usize;
                }
                t.submit(r.seat, r.act.clone()).unwrap();
            }
        }
    }
    assert!(decisions > 2000 && moves > 500, "{decisions} decisions, {moves} moves compared");
}
