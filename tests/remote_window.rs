//! Play across machines (issue 13), the window's side, without drawing: a window seated at a
//! host's table sends its seat's actions to the host, and its table becomes what the host sends
//! (rebuilt from that seat's view alone, so it shows exactly that view); what a host's table
//! cannot do (undo, the tray's dice) is refused with the reason.
#![cfg(feature = "gui")]
mod common;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use grognard::engine::plugin::{Outcome, Request, TableRes};
use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::{SeatId, Viewer};
use grognard::engine::table::Act;
use grognard::games::botn::{self, Botn};
use grognard::net::client::{Client, Sit};
use grognard::net::host::{Host, serve};
use grognard::net::proto::ToSeat;
use grognard::table::modes::RemoteSeatPlugin;
use grognard::table::remote::Remote;
use grognard::table::session::Session;

/// Runs the app's frames until `done` holds (at most 20 s).
fn until(app: &mut App, done: impl Fn(&mut App) -> bool) {
    let start = std::time::Instant::now();
    while !done(app) {
        assert!(start.elapsed().as_secs() < 20, "the host's answer never came");
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

fn outcomes(app: &App) -> Vec<Outcome> {
    let msgs = app.world().resource::<Messages<Outcome>>();
    msgs.get_cursor().read(msgs).cloned().collect()
}

#[test]
fn a_window_at_a_hosts_table_sends_its_actions_there_and_shows_what_the_host_sends() {
    let scenario = common::scenario_path();
    let tables = grognard::registry::open(&scenario).unwrap().0.host_tables(&scenario).unwrap();
    // The host and the other seat, on their own thread.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let url = format!("ws://{}/window", listener.local_addr().unwrap());
    let host = Host::new(tables);
    let h = host.clone();
    let other_url = url.clone();
    // The window opens the table, private: the Allies join with the code it was given.
    let (code_tx, code_rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        runtime.block_on(async move {
            tokio::spawn(serve(listener, h));
            let code = tokio::task::spawn_blocking(move || code_rx.recv().unwrap()).await.unwrap();
            let sit =
                Sit { seat: Some(1), token: Some([2; 32]), value: Some([22; 32]), code: Some(code), ..Sit::default() };
            let mut allied = Client::sit(&other_url, &sit).await.unwrap();
            while let Some(m) = allied.recv().await {
                if let ToSeat::Finished { .. } = m {
                    break;
                }
            }
        })
    });
    let mut app = App::new();
    let local = botn::new_table(&scenario, 1, Mode::Enforced).unwrap();
    let home = std::env::temp_dir().join(format!("grognard-window-{}", std::process::id()));
    // SAFETY: set before any thread of this test reads the environment.
    unsafe { std::env::set_var("GROGNARD_HOME", &home) };
    app.add_plugins((MinimalPlugins, StatesPlugin, botn::plugin::BotnPlugin))
        .insert_resource(TableRes(local))
        .insert_resource(Session::new(2, home.join("journal.ron")))
        .insert_resource(Remote::new(&url, Some(0), None, false))
        .add_plugins(RemoteSeatPlugin::<Botn>::default());
    // The opener's window is given the codes to hand out (the Host's table panel shows them).
    until(&mut app, |app| app.world().resource::<Remote>().invitations.is_some());
    let codes = app.world().resource::<Remote>().invitations.clone().unwrap();
    assert_eq!(codes.seats.len(), 2);
    assert!(host.list().is_empty(), "a private table is not listed");
    code_tx.send(codes.seats[1].clone()).unwrap();
    // The table starts when the Allies join; the window then shows the host's table.
    until(&mut app, |app| !app.world().resource::<Remote>().waiting);
    let french = Viewer::Seat(SeatId(0));
    let host_view = |index: u64| {
        let rec = host.record("window").unwrap();
        assert_eq!(rec.links.len() as u64, index);
        host.digest("window").unwrap()
    };
    host_view(0);
    let shown = |app: &App| app.world().resource::<TableRes<Botn>>().0.game.observe(french);
    let first = shown(&app);
    assert_eq!(first.hands[0].iter().filter(|c| c.is_some()).count(), first.hands[0].len(), "its own hand");
    assert!(first.hands[1].iter().all(Option::is_none), "not the other's");
    // An action taken in the window reaches the host, and comes back as the table.
    let mut legal = Vec::new();
    app.world().resource::<TableRes<Botn>>().0.game.legal_actions(Mode::Enforced, &mut legal);
    app.world_mut().write_message(Request::<Botn>::Act { seat: SeatId(0), act: Act::Game(legal[0].clone()) });
    until(&mut app, |app| app.world().resource::<Remote>().index == 1);
    host_view(1);
    assert_ne!(shown(&app), first, "the window's table follows the host's");
    assert!(!app.world().resource::<Remote>().log.is_empty(), "the log in the seat's words");
    // Undo and the tray's dice are refused, naming why; the host's table is untouched.
    app.world_mut().write_message(Request::<Botn>::Undo);
    app.world_mut().write_message(Request::<Botn>::Act { seat: SeatId(0), act: Act::RollDice(2) });
    app.update();
    let said: Vec<String> = outcomes(&app).into_iter().filter(|o| !o.accepted).map(|o| o.message).collect();
    assert!(said.iter().any(|m| m.contains("no undo")), "{said:?}");
    assert!(said.iter().any(|m| m.contains("dice")), "{said:?}");
    host_view(1);
    // The next action the host takes is accepted in the window, as at a local table (a refusal
    // shown before, "the table waits for every seat to join", once stayed after the game began).
    app.world().resource::<TableRes<Botn>>().0.game.legal_actions(Mode::Enforced, &mut legal);
    app.world_mut().write_message(Request::<Botn>::Act { seat: SeatId(0), act: Act::Game(legal[0].clone()) });
    until(&mut app, |app| app.world().resource::<Remote>().index == 2);
    assert!(outcomes(&app).iter().any(|o| o.accepted), "accepted: {:?}", outcomes(&app));
    let _ = std::fs::remove_dir_all(&home);
}
