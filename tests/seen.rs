//! What the window's eyes see (`table::seen::Seen`): the session seat's legal orders, worked out
//! when the table or the eyes change, as the Orders panel and the digit keys read them.
#![cfg(feature = "gui")]
use bevy::prelude::*;
use grognard::engine::plugin::{Eyes, Request, TableRes};
use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::{SeatId, Viewer};
use grognard::engine::table::Act;
use grognard::games::botn::{self, Botn};
use grognard::table::seen::{Seen, see};
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
        .init_resource::<Seen<Botn>>()
        .add_systems(Update, see::<Botn>.after(grognard::engine::plugin::TableSet::Apply));
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
        .init_resource::<Seen<Leipzig>>()
        .add_systems(Update, see::<Leipzig>.after(grognard::engine::plugin::TableSet::Apply));
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
