//! Made for streaming (issue 14), the feed's side, without drawing: a window playing a table here
//! feeds the broadcast (its window and stream tools) the spectator's table and log — never the
//! player's own view, whatever seat the player's window looks through — behind the streamer's
//! delay, with a summary for stream overlays read off the spectator's table. Every game, over a
//! real WebSocket on this machine.
#![cfg(feature = "gui")]
#[path = "common/browser.rs"]
mod browser;
mod common;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use grognard::engine::plugin::TableRes;
use grognard::engine::rng::TableRng;
use grognard::engine::rules::Game;
use grognard::engine::seats::{SeatId, Viewer};
use grognard::engine::table::{Act, Table};
use grognard::games::{austerlitz, botn, leipzig, vg};
use grognard::net::client::Client;
use grognard::net::proto::{Delay, ToSeat, Update};
use grognard::registry::StreamOptions;
use grognard::table::TableGame;
use grognard::table::broadcast::{Broadcaster, feed_table};
use grognard::table::session::Session;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

fn scenario(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(path)
}

/// Everything a connection to the feed received, gathered on a thread of its own.
fn listen(url: String) -> Arc<Mutex<Vec<ToSeat>>> {
    let got = Arc::new(Mutex::new(Vec::new()));
    let out = got.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            // A stream tool need not say anything; the window's client says it joins, which the
            // feed ignores.
            let mut c = Client::rejoin(&url, None, None, 0).await.unwrap();
            while let Some(m) = c.recv().await {
                out.lock().unwrap().push(m);
            }
        })
    });
    got
}

fn updates(got: &Arc<Mutex<Vec<ToSeat>>>) -> Vec<Update> {
    got.lock()
        .unwrap()
        .iter()
        .filter_map(|m| match m {
            ToSeat::Update(u) => Some(u.clone()),
            _ => None,
        })
        .collect()
}

fn wait_for(got: &Arc<Mutex<Vec<ToSeat>>>, done: impl Fn(&[Update]) -> bool) {
    let start = std::time::Instant::now();
    while !done(&updates(got)) {
        assert!(start.elapsed().as_secs() < 20, "the feed never sent it: {:?}", updates(got).len());
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Plays `actions` random actions of `table` in a window that looks through seat 0's eyes and
/// feeds the broadcast `delay` actions behind; checks every frame against the spectator's table
/// at its index.
fn check_feed<G: TableGame>(table: Table<G>, plugin: impl Plugin, actions: usize, delay: u64) -> usize {
    let stream =
        StreamOptions { feed: Some("127.0.0.1:0".into()), delay: Delay { actions: delay, seconds: 0 }, ..default() };
    let b = Broadcaster::start(&table, &stream, false).unwrap();
    let got = listen(b.url());
    let mut app = App::new();
    let mut session =
        Session::new(table.game.seat_names().len(), std::env::temp_dir().join("grognard-broadcast-j.ron"));
    session.viewer = Viewer::Seat(SeatId(0));
    session.hotseat = false;
    let spectator = |t: &Table<G>| serde_json::to_value(t.game.observe(Viewer::Spectator)).unwrap();
    let mut expected = vec![spectator(&table)];
    // Each action's lines in a spectator's words as they read when it was taken (a counter
    // revealed later keeps its blank name in the lines written before).
    let mut words: Vec<String> = Vec::new();
    let mut differs = 0;
    app.add_plugins((MinimalPlugins, StatesPlugin, plugin))
        .insert_resource(TableRes(table))
        .insert_resource(session)
        .insert_resource(b)
        .add_systems(Update, feed_table::<G>);
    app.update();
    wait_for(&got, |u| !u.is_empty());
    let mut rng = TableRng::from_seed(7);
    let mut legal = Vec::new();
    for _ in 0..actions {
        let mut t = app.world_mut().resource_mut::<TableRes<G>>();
        if t.0.game.is_over() {
            break;
        }
        let seat = t.0.game.active_seat().unwrap();
        t.0.game.legal_actions(t.0.mode, &mut legal);
        let a = legal[rng.below(legal.len())].clone();
        t.0.submit(seat, Act::Game(a)).unwrap();
        let i = t.0.records.len() - 1;
        words.extend(t.0.entries_of(i).iter().map(|e| t.0.game.entry_text(e, Viewer::Spectator)));
        let seen = spectator(&t.0);
        differs += (serde_json::to_value(t.0.game.observe(Viewer::Seat(SeatId(0)))).unwrap() != seen) as usize;
        expected.push(seen);
        app.update();
    }
    let last = expected.len() as u64 - 1;
    let over = app.world().resource::<TableRes<G>>().0.game.is_over();
    // Nothing reaches the feed before `delay` more actions are taken (the end releases all).
    let released = if over { last } else { last.saturating_sub(delay) };
    wait_for(&got, |u| u.last().is_some_and(|u| u.index >= released));
    std::thread::sleep(std::time::Duration::from_millis(200));
    let frames = updates(&got);
    assert_eq!(frames.last().unwrap().index, released, "released exactly up to {delay} behind");
    let t = &app.world().resource::<TableRes<G>>().0;
    let names = t.game.seat_names();
    for u in &frames {
        assert_eq!(u.view, expected[u.index as usize], "frame {}: the spectator's view, not the player's", u.index);
        assert!(u.legal.is_empty(), "no legal actions on a broadcast");
        let s = u.summary.as_ref().expect("a summary for stream tools");
        assert_eq!(s.delay.actions, delay);
        assert!(s.captions.len() <= 3 && !s.status.is_empty());
        if !s.over {
            assert!(s.turn_of.as_deref().is_some_and(|n| names.contains(&n)), "{:?}", s.turn_of);
        }
    }
    // The log, in a spectator's words, whole and in order up to the last frame released.
    let lines: Vec<String> = frames.iter().flat_map(|u| u.log.iter().map(|l| l.text.clone())).collect();
    let count: usize = (0..released as usize).map(|i| t.entries_of(i).len()).sum();
    assert_eq!(lines, words[..count]);
    assert!(differs > 0 || G::ID == "austerlitz", "the player's eyes saw something the broadcast did not");
    frames.len()
}

#[test]
fn the_feed_of_battle_of_the_nations_is_the_spectators_table_never_the_players_hand() {
    let sc = Arc::new(botn::Scenario::load(&common::scenario_path()).unwrap());
    let n =
        check_feed(botn::table_on(sc, 3, grognard::engine::rules::Mode::Enforced), botn::plugin::BotnPlugin, 400, 0);
    assert!(n > 10);
}

#[test]
fn the_feed_of_victory_and_glory_is_the_spectators_table_behind_its_delay() {
    let sc = Arc::new(vg::VgScenario::load(&scenario("victory-and-glory/napoleon.ron")).unwrap());
    check_feed(vg::table_on(sc, 4, None), vg::plugin::VgPlugin, 120, 3);
}

#[test]
fn the_feed_of_leipzig_shows_the_allied_blanks_and_nothing_under_them() {
    let sc = Arc::new(leipzig::LzScenario::load(&scenario("leipzig-1813/1-historical-situation.ron")).unwrap());
    check_feed(leipzig::table_on(sc, 5), leipzig::plugin::LzPlugin, 150, 2);
}

#[test]
fn the_feed_of_austerlitz_is_the_public_board() {
    let sc = Arc::new(austerlitz::AzScenario::load(&scenario("austerlitz/1-historical.ron")).unwrap());
    check_feed(austerlitz::table_on(sc, 6), austerlitz::plugin::AzPlugin, 120, 1);
}

/// A window's systems on a new Battle of the Nations table, feeding the broadcast: the app, the
/// feed's address and what a connection to it receives.
fn botn_feeding(seed: u64) -> (App, String, Arc<Mutex<Vec<ToSeat>>>) {
    let sc = Arc::new(botn::Scenario::load(&common::scenario_path()).unwrap());
    let table = botn::table_on(sc, seed, grognard::engine::rules::Mode::Enforced);
    let stream = StreamOptions { feed: Some("127.0.0.1:0".into()), ..default() };
    let b = Broadcaster::start(&table, &stream, false).unwrap();
    let url = b.url();
    let got = listen(url.clone());
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, botn::plugin::BotnPlugin))
        .insert_resource(TableRes(table))
        .insert_resource(Session::new(2, std::env::temp_dir().join(format!("grognard-broadcast-{seed}.ron"))))
        .insert_resource(b)
        .add_systems(Update, feed_table::<botn::Botn>);
    app.update();
    (app, url, got)
}

#[test]
fn an_undo_at_the_table_takes_the_action_back_from_the_feed_too() {
    let (mut app, _, got) = botn_feeding(8);
    let mut legal = Vec::new();
    let mut step = |app: &mut App| {
        let mut t = app.world_mut().resource_mut::<TableRes<botn::Botn>>();
        let seat = t.0.game.active_seat().unwrap();
        t.0.game.legal_actions(t.0.mode, &mut legal);
        let a = legal[0].clone();
        t.0.submit(seat, Act::Game(a)).unwrap();
        app.update();
    };
    step(&mut app);
    step(&mut app);
    wait_for(&got, |u| u.last().is_some_and(|u| u.index == 2));
    app.world_mut().resource_mut::<TableRes<botn::Botn>>().0.undo().unwrap();
    app.update();
    wait_for(&got, |u| u.last().is_some_and(|u| u.restart && u.index < 2));
    let t = &app.world().resource::<TableRes<botn::Botn>>().0;
    let last = updates(&got).pop().unwrap();
    assert_eq!(last.index, t.records.len() as u64);
    let want: Vec<String> = (0..t.records.len())
        .flat_map(|i| t.entries_of(i).iter().map(|e| t.game.entry_text(e, Viewer::Spectator)))
        .collect();
    let lines: Vec<String> = last.log.iter().map(|l| l.text.clone()).collect();
    assert_eq!(lines, want, "the whole log again, without what was taken back");
}

#[test]
fn the_example_overlay_page_in_a_real_browser_shows_the_score_and_the_last_move() {
    let (mut app, url, got) = botn_feeding(9);
    let mut rng = TableRng::from_seed(11);
    let mut legal = Vec::new();
    // Until someone has scored and a few moves were made.
    for _ in 0..2000 {
        let mut t = app.world_mut().resource_mut::<TableRes<botn::Botn>>();
        if t.0.game.is_over() || (t.0.records.len() > 20 && t.0.game.vp != [0, 0]) {
            break;
        }
        let seat = t.0.game.active_seat().unwrap();
        t.0.game.legal_actions(t.0.mode, &mut legal);
        let a = legal[rng.below(legal.len())].clone();
        t.0.submit(seat, Act::Game(a)).unwrap();
        app.update();
    }
    let n = app.world().resource::<TableRes<botn::Botn>>().0.records.len() as u64;
    wait_for(&got, |u| u.last().is_some_and(|u| u.index == n));
    let summary = updates(&got).pop().unwrap().summary.unwrap();
    let score = summary.score.clone().expect("a score");
    let last_move = summary.captions.last().cloned().expect("a last move");
    let page = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/stream/overlay.html");
    let browser = browser::Browser::open(&format!("file://{}?feed={url}", page.display()));
    let shown = browser.wait_for("document.getElementById('score').textContent", |v| v.as_str() == Some(&score));
    assert_eq!(shown.as_str(), Some(score.as_str()));
    let caption = browser
        .wait_for("Array.from(document.querySelectorAll('#captions div')).map(d => d.textContent).pop() || ''", |v| {
            v.as_str() == Some(&last_move)
        });
    assert_eq!(caption.as_str(), Some(last_move.as_str()));
    let turn =
        browser.wait_for("document.getElementById('turn').textContent", |v| v.as_str().is_some_and(|s| !s.is_empty()));
    assert!(turn.as_str().unwrap().ends_with("to play") || turn.as_str() == Some("Game over"), "{turn}");
}
