//! Saves, replays, the autosave journal, undo, and the errors for malformed files.
mod common;
use common::*;
use grognard::engine::journal::{Journal, JournalLine};
use grognard::engine::rules::Mode;
use grognard::engine::save::SaveFile;
use grognard::engine::table::{Act, Record};
use grognard::games::botn::{self, Action, Scenario};
use std::path::Path;

#[test]
fn a_save_round_trips_to_the_same_digest() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = new_table(21);
    play_random(&mut t, 60, 21);
    t.submit(FRENCH, Act::RollDice(3)).unwrap();
    let path = dir.path().join("game.ron");
    botn::save_of(&t).write(&path).unwrap();
    let save = SaveFile::<Action>::read(&path).unwrap();
    assert_eq!(save.seed, 21);
    assert_eq!(save.format, grognard::engine::save::FORMAT_VERSION);
    assert_eq!(save.scenario.hash, t.game.sc.hash);
    let loaded = botn::load_save(&save, &path).unwrap();
    assert_eq!(loaded.digest(), t.digest());
    assert_eq!(loaded.records, t.records);
}

#[test]
fn replaying_a_log_twice_gives_the_same_digest() {
    let mut t = new_table(22);
    play_random(&mut t, 200, 22);
    let save = botn::save_of(&t);
    let a = botn::load_save(&save, Path::new("x.ron")).unwrap().digest();
    let b = botn::load_save(&save, Path::new("x.ron")).unwrap().digest();
    assert_eq!(a, b);
    assert_eq!(a, t.digest());
}

#[test]
fn a_bad_action_in_a_log_is_named() {
    let mut t = new_table(23);
    play_random(&mut t, 10, 23);
    let mut save = botn::save_of(&t);
    save.log.insert(3, Record { seat: ALLIED, act: Act::Game(Action::DrawBlind) });
    let err = botn::load_save(&save, Path::new("x.ron")).expect_err("refused").to_string();
    assert!(err.starts_with("action 4 of the log (Game(DrawBlind)) is illegal"), "{err}");
}

/// A table played headless (`simulate`, the computer's games) is played without undo: nothing
/// can be taken back, and the game plays and digests exactly as with undo.
#[test]
fn a_table_without_undo_takes_nothing_back_and_plays_the_same() {
    let mut with = after_draft(24);
    let mut without = after_draft(24).without_undo();
    let marmont = army(&with, "Marmont");
    for t in [&mut with, &mut without] {
        t.submit(FRENCH, Act::Game(Action::LayOutArmyCard { army: marmont, skip: vec![] })).unwrap();
    }
    assert!(with.can_undo());
    assert!(!without.can_undo());
    assert!(matches!(without.undo(), Err(grognard::engine::table::TableError::NothingToUndo)));
    assert_eq!(without.digest(), with.digest());
    assert_eq!(without.records, with.records);
}

#[test]
fn undo_goes_back_to_the_last_commit_point_and_never_rerolls() {
    let mut t = after_draft(24);
    let marmont = army(&t, "Marmont");
    let start = t.digest();
    t.submit(FRENCH, Act::Game(Action::LayOutArmyCard { army: marmont, skip: vec![] })).unwrap();
    assert!(t.can_undo());
    t.undo().unwrap();
    assert_eq!(t.digest(), start, "undo restores the table exactly");
    t.submit(FRENCH, Act::Game(Action::LayOutArmyCard { army: marmont, skip: vec![] })).unwrap();
    t.submit(FRENCH, Act::RollDice(2)).unwrap();
    let rolled = t.entries.last().cloned();
    assert!(!t.can_undo(), "a roll is a commit point");
    assert!(t.undo().is_err());
    assert_eq!(t.entries.last().cloned(), rolled);
    // A blind draw is a commit point too; a face-up draw is not.
    let fu = t.game.face_up[0];
    t.submit(FRENCH, Act::Game(Action::DrawFaceUp { card: fu })).unwrap();
    assert!(t.can_undo());
    t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap();
    assert!(!t.can_undo());
}

#[test]
fn dice_rolls_come_from_the_seeded_table_rng() {
    let mut a = new_table(25);
    let mut b = new_table(25);
    a.submit(FRENCH, Act::RollDice(6)).unwrap();
    b.submit(FRENCH, Act::RollDice(6)).unwrap();
    assert_eq!(a.entries, b.entries);
    let grognard::engine::table::Entry::Roll(roll) = &a.entries[0] else { panic!() };
    let values = &roll.dice;
    assert_eq!(values.len(), 6);
    assert!(values.iter().all(|v| (1..=6).contains(v)));
    assert!(a.submit(FRENCH, Act::RollDice(0)).is_err());
    // Only the seat whose decision it is rolls: not the other seat, not a seat that does not exist.
    let before = a.digest();
    for seat in [ALLIED, grognard::engine::seats::SeatId(255)] {
        let err = a.submit(seat, Act::RollDice(2)).unwrap_err();
        assert!(err.to_string().contains("only the seat whose decision it is"), "{err}");
    }
    assert_eq!(a.digest(), before);
}

#[test]
fn the_journal_reads_back_with_undos_and_a_torn_last_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.ron");
    let mut t = new_table(26);
    let mut j = Journal::create(&path, &botn::save_of(&t)).unwrap();
    let mut rng = grognard::engine::rng::TableRng::from_seed(26);
    for _ in 0..15 {
        let l = legal(&t);
        let seat = grognard::engine::rules::Game::active_seat(&t.game).unwrap();
        let act = Act::Game(l[rng.below(l.len())].clone());
        t.submit(seat, act.clone()).unwrap();
        j.append(&JournalLine::Applied(Record { seat, act })).unwrap();
    }
    if t.can_undo() {
        t.undo().unwrap();
        j.append::<Action>(&JournalLine::Undo).unwrap();
    }
    drop(j);
    // A kill in the middle of a write leaves half a line.
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("Applied((seat:(0),act:Game(Dr");
    std::fs::write(&path, text).unwrap();
    let save = Journal::read::<Action>(&path).unwrap();
    assert_eq!(save.log, t.records);
    assert_eq!(botn::load_save(&save, &path).unwrap().digest(), t.digest());
}

fn broken_scenario(edit: impl Fn(&str, &str) -> String, file: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let src = scenario_path().parent().unwrap().to_path_buf();
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&p).unwrap();
        let text = if name == file { edit(&name, &text) } else { text };
        std::fs::write(dir.path().join(&name), text).unwrap();
    }
    let path = dir.path().join("beginner.ron");
    (dir, path)
}

#[test]
fn a_malformed_scenario_names_file_line_and_field() {
    // A missing field.
    let (_d, path) = broken_scenario(|_, t| t.replacen("terrain: River, ", "", 1), "board.ron");
    let err = Scenario::load(&path).unwrap_err();
    assert!(err.file.ends_with("board.ron"), "{err}");
    assert!(err.message.contains("terrain"), "{err}");
    let line = std::fs::read_to_string(&err.file).unwrap().lines().nth(err.line - 1).unwrap().to_string();
    // The edit took the terrain from the first river field, Möckern: its entry's line is named.
    assert!(line.contains("name: \"Möckern\""), "{err} -> {line}");
    // A reference to a field that does not exist.
    let (_d, path) =
        broken_scenario(|_, t| t.replace("\"Plaußig\", \"Seehausen\"", "\"Plaussig\", \"Seehausen\""), "armies.ron");
    let err = Scenario::load(&path).unwrap_err();
    assert!(err.file.ends_with("armies.ron"));
    assert!(err.message.contains("villages") && err.message.contains("Plaussig"), "{err}");
    let line = std::fs::read_to_string(&err.file).unwrap().lines().nth(err.line - 1).unwrap().to_string();
    assert!(line.contains("Platow"), "{err} -> {line}");
    // A syntax error.
    let (_d, path) = broken_scenario(|_, t| t.replacen("(label: \"14.10.\"", "(label \"14.10.\"", 1), "tracks.ron");
    let err = Scenario::load(&path).unwrap_err();
    assert!(err.file.ends_with("tracks.ron"));
    let text = std::fs::read_to_string(&err.file).unwrap();
    let expected = text.lines().position(|l| l.contains("(label \"14.10.\"")).unwrap() + 1;
    assert_eq!(err.line, expected, "{err}");
    assert!(err.to_string().contains(&format!("tracks.ron:{expected}:")), "{err}");
}

#[test]
fn a_changed_scenario_is_seen_on_the_next_start() {
    // The data is read at start: an edit shows without a rebuild.
    let (_d, path) = broken_scenario(
        |_, t| {
            t.replace(
                "(card: 4,  name: \"Yorck\",         side: Allied, unit: Infantry,  strength: 4",
                "(card: 4,  name: \"Yorck\",         side: Allied, unit: Infantry,  strength: 5",
            )
        },
        "armies.ron",
    );
    let t = botn::new_table(&path, 1, Mode::Enforced).unwrap();
    assert_eq!(t.game.armies[t.game.sc.army_id("Yorck").unwrap()].strength, 5);
    assert_ne!(t.game.sc.hash, new_table(1).game.sc.hash, "a save on the old data would be refused");
}

#[test]
fn a_malformed_save_names_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.ron");
    let mut text = botn::save_of(&new_table(27)).to_ron();
    text = text.replacen("seed: 27", "seed: \"x\"", 1);
    std::fs::write(&path, &text).unwrap();
    let err = SaveFile::<Action>::read(&path).unwrap_err();
    let line = text.lines().nth(err.line - 1).unwrap();
    assert!(line.contains("seed"), "{err}");
}

#[test]
fn sandbox_moves_by_hand_are_logged_saved_and_replayed() {
    use grognard::games::botn::SandboxAction;
    let mut t = botn::new_table(&scenario_path(), 28, Mode::Sandbox).unwrap();
    let yorck = army(&t, "Yorck");
    let moeckern = field(&t, "Möckern");
    let by_hand = |s: SandboxAction| Act::Game(Action::Sandbox(s));
    // Any piece, any field, even during Napoléon's mission draft — by the seat whose decision it
    // is, as every action.
    let refused = t.submit(ALLIED, by_hand(SandboxAction::MoveMarker { marker: 0, to: Some(moeckern) }));
    assert!(refused.unwrap_err().to_string().contains("decision"), "only the deciding seat acts");
    t.submit(FRENCH, by_hand(SandboxAction::MoveMarker { marker: 0, to: Some(moeckern) })).unwrap();
    t.submit(FRENCH, by_hand(SandboxAction::MoveArmy { army: yorck, to: Some(moeckern) })).unwrap();
    t.submit(FRENCH, by_hand(SandboxAction::FlipArmy { army: yorck })).unwrap();
    t.submit(FRENCH, by_hand(SandboxAction::DrawBlind)).unwrap();
    t.submit(FRENCH, by_hand(SandboxAction::MoveTime { to: 9 })).unwrap();
    assert_eq!(t.game.markers[0].at, Some(moeckern));
    assert_eq!(t.game.armies[yorck as usize].at, Some(moeckern));
    assert!(t.game.armies[yorck as usize].flipped);
    assert_eq!(t.game.armies[yorck as usize].strength, 3, "the pale back shows one point less");
    assert_eq!(t.game.hands[0].len(), 5);
    assert_eq!(t.game.time_label(), "16.10.");
    assert_eq!(t.entries.len(), 6, "every move by hand is in the log (a draw also logs the card drawn)");
    // Saved with its mode, replayed to the same table.
    let save = botn::save_of(&t);
    assert_eq!(save.mode, Mode::Sandbox);
    assert_eq!(botn::load_save(&save, Path::new("x.ron")).unwrap().digest(), t.digest());
    // The mode is part of the digest: a sandbox table never digests like the enforced one.
    assert_ne!(botn::new_table(&scenario_path(), 28, Mode::Sandbox).unwrap().digest(), new_table(28).digest());
    // The same moves are refused in a ruled game.
    let mut enforced = new_table(28);
    let err = enforced.submit(FRENCH, by_hand(SandboxAction::FlipArmy { army: yorck })).unwrap_err();
    assert_eq!(err.rule(), Some("Grognard: enforced mode"));
}

/// Every state of a game, as a table digests it (mode, scenario hash, state), written by the
/// digest's own writer and by ron: the same text at every action of the game.
fn same_text_at_every_action<G: grognard::engine::rules::Game>(
    played: &grognard::engine::table::Table<G>,
    mut fresh: grognard::engine::table::Table<G>,
) -> usize {
    let text = |t: &grognard::engine::table::Table<G>| {
        let digested = (t.mode, t.game.scenario().hash, &t.game);
        (grognard::engine::digest::ron_text(&digested), ron::to_string(&digested).unwrap())
    };
    let mut states = 0;
    for r in played.records.iter().cloned() {
        let (ours, rons) = text(&fresh);
        assert_eq!(ours, rons, "after {states} actions");
        fresh.submit(r.seat, r.act).unwrap();
        states += 1;
    }
    let (ours, rons) = text(&fresh);
    assert_eq!(ours, rons, "at the end");
    states
}

/// Saves and `simulate` compare digests, the SHA-256 of a table's RON text: the digest writes
/// that text itself (faster than ron), so it must write exactly ron's, in every game.
#[test]
fn the_digest_reads_the_same_text_as_ron_in_every_state_of_every_game() {
    use grognard::games::{austerlitz, leipzig, vg};
    use std::sync::Arc;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let sc = Arc::new(Scenario::load(&scenario_path()).unwrap());
    let game = botn::play_game(sc.clone(), 5, [botn::ai::Player::Random; 2], 5000).unwrap();
    assert!(same_text_at_every_action(&game, botn::table_on(sc, 5, Mode::Enforced)) > 50);

    let sc = Arc::new(vg::VgScenario::load(&root.join("victory-and-glory/napoleon.ron")).unwrap());
    // A solo game (the solo AI's state too); its log holds the solo option, so it replays onto
    // a table without it.
    let game = vg::play_game(sc.clone(), 5, Some(vg::Player::France), 20_000).unwrap();
    assert!(same_text_at_every_action(&game, vg::table_on(sc, 5, None)) > 100);

    let sc = Arc::new(leipzig::LzScenario::load(&root.join("leipzig-1813/1-historical-situation.ron")).unwrap());
    let players = [leipzig::ai::LzPlayer::Random; 2];
    let game = leipzig::play_game(sc.clone(), 5, players, 20_000).unwrap();
    assert!(same_text_at_every_action(&game, leipzig::table_on(sc, 5)) > 100);

    let sc = Arc::new(austerlitz::AzScenario::load(&root.join("austerlitz/1-historical.ron")).unwrap());
    let players = [austerlitz::ai::AzPlayer::Random; 2];
    let game = austerlitz::play_game(sc.clone(), 5, players, 20_000).unwrap();
    assert!(same_text_at_every_action(&game, austerlitz::table_on(sc, 5)) > 100);
}
