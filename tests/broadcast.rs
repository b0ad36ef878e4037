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
use bevy::window::RequestRedraw;
use grognard::engine::entry::StreamOptions;
use grognard::engine::plugin::TableRes;
use grognard::engine::rng::TableRng;
use grognard::engine::rules::Game;
use grognard::engine::seats::{SeatId, Viewer};
use grognard::engine::table::{Act, Table};
use grognard::games::{austerlitz, botn, leipzig, vg};
use grognard::net::client::Client;
use grognard::net::proto::{Delay, ToSeat, Update};
use grognard::table::TableGame;
use grognard::table::broadcast::{Broadcaster, Director, DirectorMode, HOLD_SECONDS, Shot, StreamSettings};
use grognard::table::camera::{HomeView, OrbitCamera};
use grognard::table::glide::Target;
use grognard::table::modes::{BroadcastWindowPlugin, StreamPlugin};
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
        .insert_resource(StreamSettings(stream))
        .add_plugins(StreamPlugin::<G>::default());
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
        // Each seat's chance to win, from the evaluation of the spectator's table.
        let c = s.chance.as_ref().expect("every game evaluates a position");
        assert!(c.len() == 2 && c.iter().all(|p| (0.0..=1.0).contains(p)), "{c:?}");
        assert!((c[0] + c[1] - 1.0).abs() < 0.011, "{c:?}");
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
        .insert_resource(StreamSettings(stream))
        .add_plugins(StreamPlugin::<botn::Botn>::default());
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

// ---- The director camera, its systems over pieces of our own ----

/// The director's systems over a Battle of the Nations table, with pieces of our own: the app,
/// and the pieces (each with its place and face).
fn directed(mode: DirectorMode) -> (App, Vec<Entity>) {
    let path =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-of-the-nations/beginner.ron");
    let table = botn::new_table(&path, 1, grognard::engine::rules::Mode::Enforced).unwrap();
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_message::<RequestRedraw>()
        .init_resource::<HomeView>()
        .init_resource::<Assets<StandardMaterial>>()
        .insert_resource(TableRes(table))
        .insert_resource(Director::new(mode))
        .init_resource::<grognard::engine::plugin::Settling>()
        .init_resource::<ButtonInput<KeyCode>>()
        // The rules' plugin works out what the eyes see (`engine::seen`), which the director reads.
        .add_plugins((
            grognard::engine::plugin::EnginePlugin::<botn::Botn>::default(),
            grognard::engine::seen::SeenPlugin::<botn::Botn>::default(),
        ))
        .add_plugins(BroadcastWindowPlugin::<botn::Botn>::default());
    let face = app.world_mut().resource_mut::<Assets<StandardMaterial>>().add(StandardMaterial::default());
    let pieces = (0..6)
        .map(|i| {
            let at = Transform::from_xyz(i as f32 * 3.0 - 8.0, 0.1, 0.0);
            app.world_mut().spawn((at, GlobalTransform::from(at), Target(at), MeshMaterial3d(face.clone()))).id()
        })
        .collect();
    app.world_mut().spawn(OrbitCamera::default());
    app.update();
    app.update();
    (app, pieces)
}

fn send(app: &mut App, e: Entity, to: Vec3) {
    app.world_mut().entity_mut(e).insert(Target(Transform::from_translation(to)));
}

fn shots(app: &App) -> Vec<Shot> {
    app.world().resource::<Director>().shots.clone()
}

#[test]
fn the_director_frames_a_move_a_loss_a_reveal_and_a_card_drawn_but_not_a_relayout() {
    let (mut app, p) = directed(DirectorMode::Auto);
    assert!(shots(&app).is_empty(), "the table set out is no action");
    // A move: from where the piece was to where it goes, both in the frame.
    send(&mut app, p[0], Vec3::new(4.0, 0.1, 6.0));
    app.update();
    let s = *shots(&app).last().expect("a move is framed");
    assert_eq!(s.focus, Vec3::new(-2.0, 0.0, 3.0));
    // A loss: the piece leaves the table; where it stood is framed.
    send(&mut app, p[1], Vec3::new(0.0, -5.0, 0.0));
    app.update();
    assert_eq!(shots(&app).last().unwrap().focus, Vec3::new(-5.0, 0.0, 0.0));
    // A reveal: the piece turned over in place (another face).
    let other = app.world_mut().resource_mut::<Assets<StandardMaterial>>().add(StandardMaterial::default());
    app.world_mut().entity_mut(p[2]).insert(MeshMaterial3d(other));
    app.update();
    assert_eq!(shots(&app).last().unwrap().focus, Vec3::new(-2.0, 0.0, 0.0));
    // A card drawn: from the pile to the hand, far apart: framed from further away.
    send(&mut app, p[3], Vec3::new(1.0, 0.1, 18.0));
    app.update();
    let far = *shots(&app).last().unwrap();
    assert!(far.distance > s.distance, "a longer way, a wider frame");
    // A relayout sets every place again, unchanged: nothing to frame.
    let n = shots(&app).len();
    for &e in &p {
        let at = app.world().get::<Target>(e).unwrap().0;
        app.world_mut().entity_mut(e).insert(Target(at));
    }
    app.update();
    assert_eq!(shots(&app).len(), n);
    // The camera glides towards the last framing.
    let before = *app.world_mut().query::<&OrbitCamera>().single(app.world()).unwrap();
    app.update();
    let after = *app.world_mut().query::<&OrbitCamera>().single(app.world()).unwrap();
    assert!(after.focus.distance(far.focus) < before.focus.distance(far.focus) || before.focus == far.focus);
}

#[test]
fn the_director_frames_a_move_on_the_field_not_the_card_played_for_it_beside_it() {
    // A card played from the hand and a marker moved by it, in one action: the move is framed
    // (a card and the time track lie beside the field of play, `Aside`); a card alone is framed.
    let (mut app, p) = directed(DirectorMode::Auto);
    let card_at = Transform::from_xyz(1.0, 0.1, 18.0);
    let card = app
        .world_mut()
        .spawn((card_at, GlobalTransform::from(card_at), Target(card_at), grognard::engine::plugin::Aside))
        .id();
    app.update();
    send(&mut app, card, Vec3::new(14.0, 0.1, -3.8));
    send(&mut app, p[0], Vec3::new(4.0, 0.1, 6.0));
    app.update();
    assert_eq!(shots(&app).last().expect("framed").focus, Vec3::new(-2.0, 0.0, 3.0), "the marker's way only");
    send(&mut app, card, Vec3::new(1.0, 0.1, 18.0));
    app.update();
    assert_eq!(shots(&app).last().unwrap().focus, Vec3::new(7.5, 0.0, 7.1), "the card's way, when alone");
}

#[test]
fn the_director_goes_back_to_the_overview_when_the_turn_passes_and_frames_the_tray_while_a_roll_is_thrown() {
    let (mut app, p) = directed(DirectorMode::Auto);
    send(&mut app, p[0], Vec3::new(4.0, 0.1, 6.0));
    app.update();
    assert!(app.world().resource::<Director>().goal.is_some());
    // The turn passes (the active seat changes): after the hold, the overview.
    {
        let mut t = app.world_mut().resource_mut::<TableRes<botn::Botn>>();
        let seat = t.0.game.active_seat().unwrap();
        let mut legal = Vec::new();
        t.0.game.legal_actions(t.0.mode, &mut legal);
        while t.0.game.active_seat() == Some(seat) {
            t.0.game.legal_actions(t.0.mode, &mut legal);
            let a = legal[0].clone();
            t.0.submit(seat, grognard::engine::table::Act::Game(a)).unwrap();
        }
    }
    app.update();
    // The camera far from the overview, so that one frame's glide cannot reach it.
    let mut q = app.world_mut().query::<&mut OrbitCamera>();
    q.single_mut(app.world_mut()).unwrap().focus = Vec3::new(30.0, 0.0, 30.0);
    app.world_mut().resource_mut::<Director>().shot_at = -HOLD_SECONDS;
    app.update();
    let home = app.world().resource::<HomeView>().view;
    assert_eq!(app.world().resource::<Director>().goal, Some(home), "back to the overview");
    // A roll thrown (its result held until the dice rest): the tray is framed, once.
    app.world_mut().resource_mut::<grognard::engine::plugin::Settling>().active = true;
    let n = shots(&app).len();
    app.update();
    let tray = grognard::table::dice::TRAY;
    assert_eq!(shots(&app).len(), n + 1);
    assert_eq!(shots(&app).last().unwrap().focus, Vec3::new(tray.x, 0.0, tray.z), "the tray while the dice roll");
    app.update();
    assert_eq!(shots(&app).len(), n + 1, "framed once for the roll");
    // The dice rest and the result shows on the table: it is framed.
    app.world_mut().resource_mut::<grognard::engine::plugin::Settling>().active = false;
    send(&mut app, p[1], Vec3::new(0.0, -5.0, 0.0));
    app.update();
    assert_eq!(shots(&app).last().unwrap().focus, Vec3::new(-5.0, 0.0, 0.0), "then the result");
}

#[test]
fn the_director_follows_one_seat_or_keeps_its_hands_off() {
    let (mut app, p) = directed(DirectorMode::Follow(SeatId(1)));
    // The first seat (0) is to act in Battle of the Nations: its action is not framed.
    send(&mut app, p[0], Vec3::new(4.0, 0.1, 6.0));
    app.update();
    assert!(shots(&app).is_empty());
    let (mut app, p) = directed(DirectorMode::Follow(SeatId(0)));
    send(&mut app, p[0], Vec3::new(4.0, 0.1, 6.0));
    app.update();
    assert_eq!(shots(&app).len(), 1);
    let (mut app, p) = directed(DirectorMode::Fixed);
    send(&mut app, p[0], Vec3::new(4.0, 0.1, 6.0));
    app.update();
    assert!(shots(&app).is_empty() && app.world().resource::<Director>().goal.is_none());
}
