//! Play across machines (issue 13), on loopback: a whole game through a host, each seat on its
//! own connection and a spectator on a third, verified afterwards from the host's record; hostile
//! messages refused with a reason while the table stays untouched.

use grognard::engine::rng::TableRng;
use grognard::engine::rules::Game;
use grognard::engine::table::Table;
use grognard::games::austerlitz::{self, Austerlitz, AzScenario};
use grognard::net::client::Client;
use grognard::net::host::{Host, MakeTable, Tables, serve};
use grognard::net::hosted::{Hosted, verify};
use grognard::net::proto::ToSeat;
use std::path::PathBuf;
use std::sync::Arc;

fn austerlitz_table(seed: u64) -> Table<Austerlitz> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz/1-historical.ron");
    austerlitz::table_on(Arc::new(AzScenario::load(&p).expect("loads")), seed)
}

fn tables() -> Tables {
    let make: MakeTable =
        Arc::new(|id, secret, values| Ok(Box::new(Hosted::start(id, secret, values, austerlitz_table)) as _));
    let scenario_hash = austerlitz_table(0).game.scenario().hash;
    Tables { seats: vec!["French".into(), "Allied".into()], scenario_hash, make }
}

fn host() -> Arc<Host> {
    Host::new(tables())
}

/// A host serving on a free loopback port: the address of its table `table`, and the host.
async fn serving(table: &str) -> (String, Arc<Host>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/{table}", listener.local_addr().unwrap());
    let h = host();
    tokio::spawn(serve(listener, h.clone()));
    (url, h)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// A seat that plays random legal actions whenever the decision is its own, until the end.
async fn random_seat(mut c: Client, me: u8, seed: u64) -> u64 {
    let mut rng = TableRng::from_seed(seed);
    let mut acted = 0;
    while let Some(m) = c.recv().await {
        match m {
            ToSeat::Update(u) if u.over => return acted,
            ToSeat::Update(u) if u.active == Some(me) => {
                assert!(!u.legal.is_empty(), "the active seat is sent its legal actions");
                c.submit(u.index, u.legal[rng.below(u.legal.len())].clone()).await.unwrap();
                acted += 1;
            }
            ToSeat::Update(u) => assert!(u.legal.is_empty(), "a seat not deciding is sent no legal actions"),
            ToSeat::Refused { message, .. } => panic!("a legal action refused: {message}"),
            _ => {}
        }
    }
    panic!("the host closed the connection before the end");
}

#[test]
fn a_whole_game_through_the_host_each_seat_on_its_connection_verifies_afterwards() {
    runtime().block_on(async {
        let (url, h) = serving("battle-1").await;
        let mut watcher = Client::join(&url, None, None).await.unwrap();
        let french = Client::join(&url, Some(0), Some([1; 32])).await.unwrap();
        let allied = Client::join(&url, Some(1), Some([2; 32])).await.unwrap();
        let (a, b) = tokio::join!(random_seat(french, 0, 1), random_seat(allied, 1, 2));
        assert!(a > 0 && b > 0);
        // The spectator saw the same end, and was never offered an action.
        let mut last = None;
        while let Some(m) = watcher.recv().await {
            if let ToSeat::Update(u) = m {
                assert!(u.legal.is_empty());
                if u.over {
                    last = Some(u);
                    break;
                }
            }
        }
        assert!(last.is_some(), "the spectator saw the game end");
        let rec = h.record("battle-1").expect("the table");
        assert!(rec.secret.is_some(), "revealed at the end");
        let table = verify(&rec, austerlitz_table).expect("verifies");
        assert_eq!(Some(table.digest()), h.digest("battle-1"));
    });
}

#[test]
fn hostile_messages_are_refused_with_a_reason_and_the_table_is_untouched() {
    runtime().block_on(async {
        let (url, h) = serving("t2").await;
        let mut french = Client::join(&url, Some(0), Some([1; 32])).await.unwrap();
        let mut allied = Client::join(&url, Some(1), Some([2; 32])).await.unwrap();
        let next_refusal = async |c: &mut Client| loop {
            match c.recv().await.expect("open") {
                ToSeat::Refused { rule, message, .. } => return (rule, message),
                _ => continue,
            }
        };
        // A seat taken twice, a malformed frame, a spectator acting, an action out of order.
        let mut thief = Client::join(&url, Some(0), Some([3; 32])).await.unwrap();
        assert!(next_refusal(&mut thief).await.1.contains("taken"));
        thief.send_text("{not json".into()).await.unwrap();
        assert!(next_refusal(&mut thief).await.1.contains("not a message"));
        let mut watcher = Client::join(&url, None, None).await.unwrap();
        watcher.submit(0, serde_json::json!("EndFire")).await.unwrap();
        assert!(next_refusal(&mut watcher).await.1.contains("spectator"));
        let before = h.digest("t2").unwrap();
        // The Allies set up first: the French may not act, and the rules say why.
        french.submit(0, serde_json::json!("DeployRest")).await.unwrap();
        let (rule, message) = next_refusal(&mut french).await;
        assert!(rule.is_some(), "names its rule: {message}");
        french
            .send_text(
                serde_json::to_string(&grognard::net::proto::ToHost::Submit {
                    seq: 7,
                    at: 0,
                    action: serde_json::json!("DeployRest"),
                })
                .unwrap(),
            )
            .await
            .unwrap();
        assert!(next_refusal(&mut french).await.1.contains("out of order"));
        // Not an action of this game.
        allied.submit(0, serde_json::json!({"Charge": 3})).await.unwrap();
        assert!(next_refusal(&mut allied).await.1.contains("not an action"));
        assert_eq!(h.digest("t2").unwrap(), before, "the table untouched");
        // A frame over the limit closes that connection, and the host serves the others.
        thief.send_text("x".repeat(200_000)).await.ok();
        allied.submit(0, serde_json::json!("DeployRest")).await.unwrap();
        loop {
            match allied.recv().await.expect("open") {
                ToSeat::Update(u) if u.index == 1 => break,
                ToSeat::Refused { message, .. } => panic!("{message}"),
                _ => {}
            }
        }
    });
}

#[test]
fn grognard_host_serves_a_scenario_on_the_command_line() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["host", "--port", "0"])
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-of-the-nations/beginner.ron"))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let at = line.split("ws://").nth(1).and_then(|s| s.split('/').next()).expect("the address").to_string();
    let url = format!("ws://{at}/evening");
    let played = runtime().block_on(async {
        let mut a = Client::join(&url, Some(0), Some([1; 32])).await.unwrap();
        let _b = Client::join(&url, Some(1), Some([2; 32])).await.unwrap();
        // The first update that offers this seat a decision, or the other's: the table started.
        loop {
            match a.recv().await.expect("open") {
                ToSeat::Update(u) => return u.active.is_some(),
                ToSeat::Refused { message, .. } => panic!("{message}"),
                ToSeat::Welcome { seats, .. } => assert_eq!(seats.len(), 2),
                _ => {}
            }
        }
    });
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(played);
}
