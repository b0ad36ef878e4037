//! What the window's eyes see (`engine::seen::Seen`): the eyes' seat's legal orders, a table drawn
//! from their view alone, the log in their words, worked out when the table or the eyes change,
//! as every presentation system reads them.
#![cfg(feature = "gui")]
use bevy::prelude::*;
use grognard::engine::plugin::{Eyes, Request, TableRes};
use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::{SeatId, Viewer};
use grognard::engine::seen::Seen;
use grognard::engine::table::Act;
use grognard::games::botn::{self, Botn};
use grognard::table::session::Session;

#[test]
fn the_seen_orders_are_the_legal_list_of_the_sessions_seat_and_follow_the_table() {
    let file = grognard::engine::scenario::scenarios_root().join("battle-of-the-nations/beginner.ron");
    let table = botn::new_table(&file, 3, Mode::Enforced).unwrap();
    let first = table.game.active_seat().unwrap();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin, botn::plugin::BotnPlugin))
        .insert_resource(TableRes(table))
        .insert_resource(Session::new(2, std::path::PathBuf::from("j.ron")))
        .insert_resource(Eyes(Viewer::Seat(first)))
        .init_resource::<Seen<Botn>>();
    app.world_mut().resource_mut::<Session>().viewer = Viewer::Seat(first);
    app.update();
    let legal = |app: &App| {
        let t = &app.world().resource::<TableRes<Botn>>().0;
        let mut l = Vec::new();
        t.game.legal_actions(t.mode, &mut l);
        l
    };
    let seen = app.world().resource::<Seen<Botn>>();
    assert_eq!(seen.legal, legal(&app));
    assert!(!seen.legal.is_empty());
    assert_eq!(seen.view, Some(app.world().resource::<TableRes<Botn>>().0.game.observe(Viewer::Seat(first))));
    // An order taken: the list follows the table.
    let a = seen.legal[0].clone();
    app.world_mut().write_message(Request::<Botn>::Act { seat: first, act: Act::Game(a) });
    app.update();
    let t = &app.world().resource::<TableRes<Botn>>().0;
    let mine = t.game.active_seat() == Some(first);
    let seen = app.world().resource::<Seen<Botn>>();
    assert_eq!(seen.legal, if mine { legal(&app) } else { Vec::new() });
    // The other seat's eyes: no orders while the decision is not theirs.
    let other = SeatId(1 - first.0);
    app.world_mut().resource_mut::<Session>().viewer = Viewer::Seat(other);
    app.world_mut().resource_mut::<Eyes>().0 = Viewer::Seat(other);
    app.update();
    let t = &app.world().resource::<TableRes<Botn>>().0;
    let theirs = t.game.active_seat() == Some(other);
    let seen = app.world().resource::<Seen<Botn>>();
    assert_eq!(seen.eyes, Viewer::Seat(other));
    assert_eq!(seen.legal.is_empty(), !theirs);
}

#[test]
fn a_sandbox_tables_seen_pieces_are_the_views_and_go_with_the_sandbox() {
    use grognard::engine::sandbox::HandMove;
    use grognard::games::leipzig::{self, Leipzig};
    let file = grognard::engine::scenario::scenarios_root().join("leipzig-1813/1-historical-situation.ron");
    let table = leipzig::new_table(&file, 3).unwrap().with_mode(Mode::Sandbox);
    let first = table.game.active_seat().unwrap();
    let mut app = App::new();
    // The French eyes while the Allies deploy: the Allied counters are blanks to them.
    let french = Viewer::Seat(leipzig::data::seat_of(leipzig::data::Side::French));
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin, leipzig::plugin::LzPlugin))
        .insert_resource(TableRes(table))
        .insert_resource(Session::new(2, std::path::PathBuf::from("j.ron")))
        .insert_resource(Eyes(french))
        .init_resource::<Seen<Leipzig>>();
    app.world_mut().resource_mut::<Session>().viewer = french;
    app.update();
    let seen = app.world().resource::<Seen<Leipzig>>();
    let t = &app.world().resource::<TableRes<Leipzig>>().0;
    assert_eq!(seen.mode, Mode::Sandbox);
    assert_eq!(seen.pieces, Leipzig::hand_pieces(&t.game.observe(french)));
    assert!(seen.pieces.iter().any(|p| p.name == "Allied counter"), "a blank stays a blank");
    assert_eq!(seen.places.len(), t.game.sc.board.len());
    // Back to the rules: no pieces for a hand.
    app.world_mut().write_message(Request::<Leipzig>::Act { seat: first, act: Act::Hand(HandMove::Enforce) });
    app.update();
    let seen = app.world().resource::<Seen<Leipzig>>();
    assert_eq!((seen.mode, seen.pieces.len()), (Mode::Enforced, 0));
}

/// A Battle of the Nations table some way into the game, each seat's hand dealt.
fn botn_played(seed: u64, steps: usize) -> grognard::engine::table::Table<Botn> {
    let file = grognard::engine::scenario::scenarios_root().join("battle-of-the-nations/beginner.ron");
    let mut t = botn::new_table(&file, seed, Mode::Enforced).unwrap();
    let mut rng = grognard::engine::rng::TableRng::from_seed(seed);
    for _ in 0..steps {
        let Some(seat) = t.game.active_seat() else { break };
        let mut legal = Vec::new();
        t.game.legal_actions(t.mode, &mut legal);
        let a = legal[rng.below(legal.len())].clone();
        t.submit(seat, Act::Game(a)).unwrap();
    }
    t
}

/// An app holding `table`, looked at through `eyes`, after one frame.
fn looking<G: grognard::table::TableGame>(
    table: grognard::engine::table::Table<G>,
    eyes: Viewer,
    plugin: impl Plugin,
) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin, plugin))
        .insert_resource(TableRes(table))
        .insert_resource(Eyes(eyes));
    app.update();
    app
}

#[test]
fn the_table_the_panels_read_is_drawn_from_the_eyes_view_alone() {
    // Two tables the French eyes cannot tell apart: the same position, the Allied hand dealt
    // otherwise. The panels are handed the same table for both.
    let french = Viewer::Seat(botn::state::seat_of(botn::Side::French));
    let a = botn_played(5, 30);
    let view = a.game.observe(french);
    let mut b = a.clone();
    b.game = Botn::from_view(&view, &mut grognard::engine::rng::TableRng::from_seed(99));
    let allied = botn::Side::Allied.index();
    assert_ne!(a.game.hands[allied], b.game.hands[allied], "the Allied hand dealt otherwise");
    assert_eq!(b.game.observe(french), view);
    let drawn = |t| {
        let app = looking(t, french, botn::plugin::BotnPlugin);
        let seen = app.world().resource::<Seen<Botn>>();
        assert_eq!(seen.game().map(|g| g.observe(french)), Some(view.clone()));
        serde_json::to_value(seen.game().unwrap()).unwrap()
    };
    assert_eq!(drawn(a.clone()), drawn(b), "what the panels read holds nothing the eyes may not see");
    // The Allied eyes see their own hand, and the table drawn for them holds it.
    let app = looking(a.clone(), Viewer::Seat(botn::state::seat_of(botn::Side::Allied)), botn::plugin::BotnPlugin);
    let seen = app.world().resource::<Seen<Botn>>();
    assert_eq!(seen.game().unwrap().hands[allied], a.game.hands[allied]);
}

#[test]
fn the_log_is_worded_through_the_eyes_as_it_grows_and_again_after_an_undo() {
    let french = Viewer::Seat(botn::state::seat_of(botn::Side::French));
    let t = botn_played(7, 12);
    let mut app = looking(t, french, botn::plugin::BotnPlugin);
    let words = |app: &App| -> (Vec<String>, Vec<String>) {
        let t = &app.world().resource::<TableRes<Botn>>().0;
        let seen = app.world().resource::<Seen<Botn>>();
        (seen.log.iter().map(|l| l.text()).collect(), t.entries.iter().map(|e| t.game.entry_text(e, french)).collect())
    };
    let (seen, truth) = words(&app);
    assert_eq!(seen, truth);
    // Orders taken one frame at a time: each new line worded once, the same words.
    let mut undone = false;
    for step in 0..40 {
        let t = &app.world().resource::<TableRes<Botn>>().0;
        let Some(seat) = t.game.active_seat() else { break };
        let request = if step % 7 == 6 && t.can_undo() {
            undone = true;
            Request::<Botn>::Undo
        } else {
            let mut legal = Vec::new();
            t.game.legal_actions(t.mode, &mut legal);
            Request::Act { seat, act: Act::Game(legal[step % legal.len()].clone()) }
        };
        app.world_mut().write_message(request);
        app.update();
        let (seen, truth) = words(&app);
        assert_eq!(seen, truth, "step {step}");
        let t = &app.world().resource::<TableRes<Botn>>().0;
        let seen = app.world().resource::<Seen<Botn>>();
        assert_eq!(seen.can_undo, t.can_undo());
        assert_eq!(seen.last_roll(), t.entries.iter().rev().find_map(|e| e.roll()));
    }
    assert!(undone, "an undo was among the orders");
}

#[test]
fn a_save_asked_of_the_menu_is_written_by_the_tables_holder() {
    use grognard::engine::plugin::{HostsTable, Outcome};
    let dir = std::env::temp_dir().join(format!("grognard-seen-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t = botn_played(11, 20);
    let digest = grognard::engine::digest::digest_of(&t.game);
    let mut app = looking(t, Viewer::Spectator, botn::plugin::BotnPlugin);
    let path = dir.join("saved.ron");
    app.world_mut().write_message(Request::<Botn>::Save(path.clone()));
    app.update();
    let outcomes: Vec<Outcome> = app.world_mut().resource_mut::<Messages<Outcome>>().drain().collect();
    assert_eq!(outcomes, vec![Outcome { accepted: true, message: format!("Saved to {}", path.display()) }]);
    let back = grognard::engine::save::replay_file(&path, grognard::engine::kit::load_save::<Botn>).unwrap();
    assert_eq!(grognard::engine::digest::digest_of(&back.game), digest);
    // At a host's table the window holds its seat's view: its save is that view and the log it read.
    app.insert_resource(HostsTable);
    let seat = Viewer::Seat(SeatId(0));
    let view_path = dir.join("view.ron");
    let log = vec!["a line the host sent".to_string()];
    app.world_mut().write_message(Request::<Botn>::SaveView { path: view_path.clone(), viewer: seat, log });
    app.update();
    let text = std::fs::read_to_string(&view_path).unwrap();
    assert!(text.contains("// a line the host sent"), "{text}");
    assert!(!text.contains("records"), "a seat's save holds no orders");
    // A save that cannot be written is refused, the table untouched.
    app.world_mut().resource_mut::<Messages<Outcome>>().clear();
    app.world_mut().write_message(Request::<Botn>::Save(dir.join("no-such-folder/x.ron")));
    app.update();
    let outcomes: Vec<Outcome> = app.world_mut().resource_mut::<Messages<Outcome>>().drain().collect();
    assert!(
        outcomes.len() == 1 && !outcomes[0].accepted && outcomes[0].message.starts_with("Could not save"),
        "{outcomes:?}"
    );
    assert_eq!(grognard::engine::digest::digest_of(&app.world().resource::<TableRes<Botn>>().0.game), digest);
    std::fs::remove_dir_all(&dir).ok();
}
