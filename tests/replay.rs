//! Made for streaming (issue 14), after the game: the replay timeline (a save stepped through,
//! jumps to turns, fights and reveals, the table as it stood at each point, seen as a spectator
//! unless the game is over), the after-action report of every game, and which journal is offered
//! for resuming when the window opens.
#![cfg(feature = "gui")]
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use grognard::engine::journal::Journal;
use grognard::engine::plugin::{Outcome, Request, TableRes};
use grognard::engine::save::SaveFile;
use grognard::engine::seats::SeatId;
use grognard::engine::table::Act;
use grognard::games::botn::{self, Botn};
use grognard::table::replay::{MarkKind, Replay};
use grognard::table::session::Session;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scenario(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(path)
}

/// A complete random game of `scenario`, saved into `dir`: the save's path.
fn simulated(scenario: &Path, dir: &Path) -> PathBuf {
    let out = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["simulate", "--games", "1", "--seed", "3", "--save-dir"])
        .arg(dir)
        .arg(scenario)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "ron"))
        .unwrap()
}

#[test]
fn the_replay_timeline_shows_the_table_as_it_stood_and_jumps_to_turns_and_fights() {
    let tmp = tempfile::tempdir().unwrap();
    let path = simulated(&scenario("battle-of-the-nations/beginner.ron"), tmp.path());
    let save = SaveFile::<botn::Action>::read(&path).unwrap();
    let (mut r, start) = Replay::<Botn>::open(save.clone(), &path).unwrap();
    assert_eq!(r.len, save.log.len());
    assert!(r.over, "a finished game: every seat may be looked through");
    assert_eq!(start.records.len(), 0, "the timeline opens at the start");
    let turns: Vec<usize> = r.marks.iter().filter(|m| m.kind == MarkKind::Turn).map(|m| m.index).collect();
    let fights = r.marks.iter().filter(|m| m.kind == MarkKind::Fight).count();
    assert!(turns.len() >= 3 && fights >= 1, "{:?}", r.marks);
    // Each point is the table as it stood: the save cut there and replayed.
    for n in [0, 1, turns[1], r.len / 2, r.len] {
        let mut part = save.clone();
        part.log.truncate(n);
        let direct = botn::load_save(&part, &path).unwrap();
        assert_eq!(r.cut(n).unwrap().digest(), direct.digest(), "the table after {n} actions");
    }
    // A new turn begins where its mark says: its standing and its status line name it.
    let t = r.cut(turns[0]).unwrap();
    let standing = <Botn as grognard::table::TableGame>::standing(&t.game);
    assert_eq!(standing.turn, Some(("Turn", 2)));
    assert!(<Botn as grognard::table::TableGame>::status(&t.game).starts_with("Turn 2 · "));
    // Jumps go from mark to mark, forward and back.
    r.at = 0;
    assert_eq!(r.next(Some(MarkKind::Turn), true), Some(turns[0]));
    r.at = turns[1];
    assert_eq!(r.next(Some(MarkKind::Turn), false), Some(turns[0]));
    assert_eq!(r.next(Some(MarkKind::Turn), true), turns.get(2).copied());

    // In the window: the table follows the timeline, and what is asked of it is refused.
    let mut app = App::new();
    let (r, start) = Replay::<Botn>::open(save, &path).unwrap();
    app.add_plugins((MinimalPlugins, StatesPlugin, botn::plugin::BotnPlugin))
        .insert_resource(TableRes(start))
        .insert_resource(Session::new(2, tmp.path().join("j.ron")))
        .insert_resource(r)
        .add_plugins(grognard::table::modes::ReplayPlugin::<Botn>::default());
    app.update();
    app.world_mut().resource_mut::<Replay<Botn>>().at = 10;
    app.update();
    let want = app.world().resource::<Replay<Botn>>().cut(10).unwrap().digest();
    assert_eq!(app.world().resource::<TableRes<Botn>>().0.digest(), want);
    app.world_mut().write_message(Request::<Botn>::Act { seat: SeatId(0), act: Act::RollDice(2) });
    app.update();
    let msgs = app.world().resource::<Messages<Outcome>>();
    let out: Vec<Outcome> = msgs.get_cursor().read(msgs).cloned().collect();
    assert!(out.iter().any(|o| !o.accepted && o.message.contains("replay")), "{out:?}");
    assert_eq!(app.world().resource::<TableRes<Botn>>().0.digest(), want, "the table untouched");
}

#[test]
fn the_report_of_a_game_of_each_game_tells_its_result_score_fights_and_every_turn() {
    let tmp = tempfile::tempdir().unwrap();
    for (k, file) in [
        "battle-of-the-nations/beginner.ron",
        "victory-and-glory/napoleon.ron",
        "leipzig-1813/1-historical-situation.ron",
        "austerlitz/1-historical.ron",
    ]
    .iter()
    .enumerate()
    {
        let dir = tmp.path().join(format!("g{k}"));
        std::fs::create_dir_all(&dir).unwrap();
        let save = simulated(&scenario(file), &dir);
        let out = dir.join("report");
        let run = Command::new(env!("CARGO_BIN_EXE_grognard"))
            .args(["report", "--no-pictures", "--out"])
            .arg(&out)
            .arg(&save)
            .output()
            .unwrap();
        assert!(run.status.success(), "{file}: {}", String::from_utf8_lossy(&run.stderr));
        let html = std::fs::read_to_string(out.join("report.html")).unwrap();
        assert!(html.contains("class=\"result\"") && (html.contains(" won.") || html.contains("ended")), "{file}");
        assert!(html.contains("<h2>The score</h2>") && html.contains("<polyline"), "{file}: the score chart");
        let turns = html.matches("<section class=\"turn\">").count();
        assert!(turns >= 3, "{file}: {turns} turns");
        // The chance to win over the game, from the evaluation, and its three turning points.
        assert!(html.contains("<h2>The chance to win</h2>"), "{file}: the chance chart");
        let points =
            html.split("<ol class=\"turning\">").nth(1).expect("the turning points").split("</ol>").next().unwrap();
        assert_eq!(points.matches("<li>").count(), 3, "{file}: three turning points");
        assert!(points.contains("'s chance") && points.contains("% → "), "{file}: {points}");
        if k < 2 {
            // The games whose strong level searches say what it would have played instead.
            assert!(points.contains("strong would have played"), "{file}: {points}");
        }
        // Every action is in the log, numbered from 1.
        let actions = match k {
            0 => SaveFile::<botn::Action>::read(&save).unwrap().log.len(),
            1 => SaveFile::<grognard::games::vg::Action>::read(&save).unwrap().log.len(),
            2 => SaveFile::<grognard::games::leipzig::Action>::read(&save).unwrap().log.len(),
            _ => SaveFile::<grognard::games::austerlitz::Action>::read(&save).unwrap().log.len(),
        };
        let numbers: Vec<usize> =
            html.split("<li value=\"").skip(1).map(|r| r.split('"').next().unwrap().parse().unwrap()).collect();
        assert_eq!(numbers, (1..=actions).collect::<Vec<_>>(), "{file}: one line per action, numbered from 1");
        // Every action says what it did (a V&G player ending his commitment said nothing once).
        assert!(!html.contains("</small> </li>"), "{file}: an action without words");
        // The sections are named in the game's own word.
        let word = if k == 1 { "Round" } else { "Turn" };
        assert!(html.contains(&format!("<h2>{word} 2</h2>")), "{file}: sections named {word}");
        assert!(!html.contains(&format!("<h2>{word} 0</h2>")), "{file}: a set-up is before the first turn");
    }
}

#[test]
fn the_report_draws_the_table_at_each_turns_end_under_the_software_renderer() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = simulated(&scenario("battle-of-the-nations/beginner.ron"), tmp.path());
    // The first turns only, to keep the pictures few.
    let mut save = SaveFile::<botn::Action>::read(&whole).unwrap();
    let path = whole.with_file_name("short.ron");
    let (r, _) = Replay::<Botn>::open(save.clone(), &whole).unwrap();
    let second = r.marks.iter().filter(|m| m.kind == MarkKind::Turn).nth(1).unwrap().index;
    save.log.truncate(second + 1);
    std::fs::write(&path, save.to_ron()).unwrap();
    let out = tmp.path().join("report");
    let run = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["report", "--out"])
        .arg(&out)
        .arg(&path)
        .env_remove("DISPLAY")
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let pictures: Vec<&str> = html.split("<img src=\"").skip(1).map(|rest| rest.split('"').next().unwrap()).collect();
    assert_eq!(pictures.len(), 3, "one picture per turn: {pictures:?}");
    for p in pictures {
        let png = std::fs::read(out.join(p)).unwrap();
        assert!(png.starts_with(b"\x89PNG") && png.len() > 50_000, "{p}: a drawn table");
    }
}

#[test]
fn only_an_unfinished_game_in_the_journal_is_offered_for_resuming() {
    // The journal keeps a finished game until the next one starts: opening the window then offers
    // no "unfinished game" (it once did); a game cut short is offered, and a journal of another
    // game is not.
    let tmp = tempfile::tempdir().unwrap();
    let whole = simulated(&scenario("battle-of-the-nations/beginner.ron"), tmp.path());
    let save = SaveFile::<botn::Action>::read(&whole).unwrap();
    let journal = tmp.path().join("journal.ron");
    Journal::create(&journal, &save).unwrap();
    assert!(grognard::table::app::resumable::<Botn>(&journal).is_none(), "a finished game");
    let mut cut = save.clone();
    cut.log.truncate(save.log.len() / 2);
    Journal::create(&journal, &cut).unwrap();
    let offered = grognard::table::app::resumable::<Botn>(&journal).expect("an unfinished game");
    assert_eq!(offered.log, cut.log);
    assert!(grognard::table::app::resumable::<grognard::games::vg::Vg>(&journal).is_none(), "another game's");
}

/// Plays `actions` random legal actions of `G`'s default scenario, checking at every step that the
/// status line words the standing (its turn and its score) that the broadcast, the feed and the
/// report read in numbers.
fn status_words_standing<G: grognard::table::TableGame>(actions: usize) -> usize {
    use grognard::engine::rules::Mode;
    let file = grognard::engine::scenario::scenarios_root().join(G::ID).join(G::DEFAULT_SCENARIO);
    let mut t = G::new_table(&file, 7, Mode::Enforced).unwrap();
    let mut rng = grognard::engine::rng::TableRng::from_seed(7);
    let mut turns = std::collections::BTreeSet::new();
    for _ in 0..actions {
        let standing = t.game.standing();
        let status = t.game.status();
        let score = standing.score.as_ref().expect("every game keeps a score");
        assert!(status.contains(&score.to_string()), "{status} / {score}");
        let (word, n) = standing.turn.expect("every game counts its turns");
        assert!(status.contains(&format!("{word} {n}")), "{status} / {word} {n}");
        turns.insert(n);
        let Some(seat) = t.game.active_seat() else { break };
        let mut legal = Vec::new();
        t.game.legal_actions(Mode::Enforced, &mut legal);
        let a = legal[rng.below(legal.len())].clone();
        t.submit(seat, Act::Game(a)).unwrap();
    }
    turns.len()
}

#[test]
fn every_games_status_line_words_the_standing_the_broadcast_and_the_report_read() {
    assert!(status_words_standing::<Botn>(400) >= 2);
    assert!(status_words_standing::<grognard::games::vg::Vg>(400) >= 2);
    assert!(status_words_standing::<grognard::games::leipzig::Leipzig>(300) >= 1);
    assert!(status_words_standing::<grognard::games::austerlitz::Austerlitz>(300) >= 1);
}
