//! A host for strangers (issue 30): private tables taken only with their invitation codes and
//! never listed (item 6), the host's commitment sent before it takes any seat's value (item 14),
//! tables that do not wait for one another (item 5), and the spectators' delay kept across a
//! restart (item 11).

mod common;
use common::{next_refusal, next_update};
use grognard::net::chain::{self, Hash};
use grognard::net::client::{Client, Sit};
use grognard::net::host::{Host, serve};
use grognard::net::proto::{Delay, MySeat, ToHost, ToSeat, Update};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// A host of Battle of the Nations' beginner scenario on a free loopback port: its ws://HOST:PORT
/// and the host.
async fn serving(delay: Delay, data: Option<&Path>) -> (String, Arc<Host>) {
    let path = common::scenario_path();
    let (game, _) = grognard::registry::open(&path).unwrap();
    let (h, problems) = Host::open(game.host_tables(&path).unwrap(), delay, data).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("ws://{}", listener.local_addr().unwrap());
    tokio::spawn(serve(listener, h.clone()));
    (base, h)
}

fn seat(k: u8, token: Hash, value: Hash, code: Option<String>) -> Sit {
    Sit { seat: Some(k), token: Some(token), value: Some(value), code, ..Sit::default() }
}

/// Both seats of a public table, and their first updates.
async fn both_public(url: &str) -> ([Client; 2], [Update; 2]) {
    let mut a = Client::join(url, Some(0), Some([1; 32])).await.unwrap();
    let mut b = Client::join(url, Some(1), Some([2; 32])).await.unwrap();
    let first = [next_update(&mut a).await, next_update(&mut b).await];
    ([a, b], first)
}

/// Plays `n` actions (whoever is active chooses its first legal action), reading both seats'
/// updates; the index reached.
async fn play(seats: &mut [Client; 2], mut last: [Update; 2], n: usize) -> [Update; 2] {
    for _ in 0..n {
        let k = (0..2).find(|&k| last[k].active == Some(k as u8)).expect("a seat decides");
        let u = &last[k];
        seats[k].submit(u.index, u.legal[0].clone()).await.unwrap();
        last = [next_update(&mut seats[0]).await, next_update(&mut seats[1]).await];
    }
    last
}

/// Item 6: a table is private unless its opener says otherwise. The opener alone is given a code
/// per seat and one for spectators; a seat is taken only with its own code, watching takes one,
/// and the list shows only public tables (a seat asks after its own with its token).
#[test]
fn a_private_table_is_taken_only_with_its_invitation_code_and_never_listed() {
    runtime().block_on(async {
        let (base, _h) = serving(Delay::default(), None).await;
        let url = format!("{base}/private-game");
        let mut opener = Client::sit(&url, &seat(0, [1; 32], [11; 32], None)).await.unwrap();
        let Some(ToSeat::Welcome { invitations: Some(inv), .. }) = opener.recv().await else {
            panic!("the opener of a private table is given its codes")
        };
        assert_eq!(inv.seats.len(), 2);
        assert!(Client::list(&base).await.unwrap().is_empty(), "a private table is not listed");
        // A stranger at the open seat: no code, a wrong one, the spectators' one.
        for code in [None, Some("00".repeat(12)), Some(inv.watch.clone())] {
            let e = Client::sit(&url, &seat(1, [2; 32], [22; 32], code)).await.err().expect("refused");
            assert!(e.contains("private") && e.contains("only with its invitation code"), "{e}");
        }
        let e = Client::sit(&url, &Sit::default()).await.err().expect("watching takes a code");
        assert!(e.contains("private"), "{e}");
        // Issue 63: a stranger is told nothing more of a private table, neither its scenario (asked
        // for another) nor which seats are taken.
        let other =
            Sit { scenario: Some("leipzig-1813/1-historical-situation".into()), ..seat(1, [2; 32], [22; 32], None) };
        let e = Client::sit(&url, &other).await.err().expect("refused");
        assert!(!e.contains("battle-of-the-nations") && !e.contains("plays"), "{e}");
        let e = Client::sit(&url, &seat(0, [4; 32], [44; 32], Some("00".repeat(12)))).await.err().expect("refused");
        assert!(e.contains("only with its invitation code") && !e.contains("taken"), "{e}");
        let mut watcher = Client::sit(&url, &Sit { code: Some(inv.watch.clone()), ..Sit::default() }).await.unwrap();
        // The invited player, with their seat's code; their welcome carries no codes.
        let mut guest = Client::sit(&url, &seat(1, [2; 32], [22; 32], Some(inv.seats[1].clone()))).await.unwrap();
        let Some(ToSeat::Welcome { invitations, .. }) = guest.recv().await else { panic!("a welcome") };
        assert!(invitations.is_none(), "only the opener is given the codes");
        let u = next_update(&mut guest).await;
        assert!(u.active.is_some(), "the table started");
        assert_eq!(next_update(&mut watcher).await.index, 0);
        // The seat's code is spent: with it nobody else takes the seat.
        let e = Client::sit(&url, &seat(1, [3; 32], [33; 32], Some(inv.seats[1].clone()))).await.err().unwrap();
        assert!(e.contains("taken"), "{e}");
        // Still unlisted; each seat finds it with its token, nobody else.
        assert!(Client::list(&base).await.unwrap().is_empty());
        let ask = |token: Hash| vec![MySeat { table: "private-game".into(), seat: 1, token: chain::to_hex(&token) }];
        let mine = Client::mine(&base, ask([2; 32])).await.unwrap();
        assert_eq!(mine.len(), 1);
        assert!(mine[0].open_seats.is_empty());
        assert!(Client::mine(&base, ask([9; 32])).await.unwrap().is_empty());
        // A table its opener makes public is listed, and its seats are anyone's.
        let _open = both_public(&format!("{base}/open-game")).await;
        let names: Vec<String> = Client::list(&base).await.unwrap().into_iter().map(|t| t.name).collect();
        assert_eq!(names, ["open-game"]);
    });
}

/// Item 14: a seat is welcomed with the host's commitment before it sends its value; the table
/// starts only once every value is in, each value is taken once, and the game's record holds the
/// commitment the welcomes brought and the values as sent.
#[test]
fn the_host_commits_to_its_secret_before_it_takes_any_seats_value() {
    runtime().block_on(async {
        let (base, h) = serving(Delay::default(), None).await;
        let url = format!("{base}/committed");
        // A value from a connection that has not joined: refused.
        let mut early = Client::rejoin(&format!("{base}/elsewhere"), None, None, 0).await.unwrap();
        early.send(&ToHost::Value { value: chain::to_hex(&[5; 32]) }).await.unwrap();
        assert!(next_refusal(&mut early).await.contains("there is no table"));
        assert!(next_refusal(&mut early).await.contains("once it has joined"));
        // Both seats join without their values: each is welcomed with the commitment at once.
        let mut a = Client::rejoin(&url, Some(0), Some(&chain::to_hex(&[1; 32])), 0).await.unwrap();
        let Some(ToSeat::Welcome { commitment, invitations: Some(inv), .. }) = a.recv().await else { panic!() };
        let mut b = Client::sit(
            &url,
            &Sit { seat: Some(1), token: Some([2; 32]), code: Some(inv.seats[1].clone()), ..Sit::default() },
        )
        .await
        .unwrap();
        let Some(ToSeat::Welcome { commitment: seen_by_b, .. }) = b.recv().await else { panic!() };
        assert_eq!(seen_by_b, commitment);
        assert!(h.record("committed").is_none(), "no game before the values");
        // Now the values: the game starts.
        a.send(&ToHost::Value { value: chain::to_hex(&[11; 32]) }).await.unwrap();
        b.send(&ToHost::Value { value: chain::to_hex(&[22; 32]) }).await.unwrap();
        let u = next_update(&mut a).await;
        assert!(u.active.is_some());
        let rec = h.record("committed").unwrap();
        assert_eq!(chain::to_hex(&rec.commitment), commitment);
        assert_eq!(rec.contributions, [chain::to_hex(&[11; 32]), chain::to_hex(&[22; 32])]);
        // The same value again is nothing new; another is refused and changes nothing.
        b.send(&ToHost::Value { value: chain::to_hex(&[22; 32]) }).await.unwrap();
        b.send(&ToHost::Value { value: chain::to_hex(&[33; 32]) }).await.unwrap();
        assert!(next_refusal(&mut b).await.contains("recorded already"));
        assert_eq!(h.record("committed").unwrap().contributions, rec.contributions);
        // A client checks the finished save against its welcome's commitment and its value.
        let save = grognard::net::hosted::HostedSave {
            format: grognard::net::hosted::HOSTED_SAVE_FORMAT,
            game: "botn".into(),
            scenario: grognard::engine::save::ScenarioRef {
                path: common::scenario_path(),
                hash: String::new(),
                name: String::new(),
            },
            fair: grognard::net::hosted::FairRecord { commitment: [7; 32], ..rec.clone() },
        };
        let text = ron::to_string(&save).unwrap();
        let kept = chain::from_hex(&commitment).unwrap();
        let e = grognard::net::hosted::check_save_text(&text, Some(&kept), None).unwrap_err();
        assert!(e.contains("changed its secret"), "{e}");
        let honest = ron::to_string(&grognard::net::hosted::HostedSave { fair: rec.clone(), ..save.clone() }).unwrap();
        assert!(grognard::net::hosted::check_save_text(&honest, Some(&kept), Some((1, [22; 32]))).is_ok());
        let e = grognard::net::hosted::check_save_text(&honest, Some(&kept), Some((1, [23; 32]))).unwrap_err();
        assert!(e.contains("seat 1's value"), "{e}");
    });
}

/// Item 5: every table has its own lock. While one table is held busy (as a slow disk holds it
/// during a sync), another plays on and the list answers; the busy table's own action is taken
/// once it is free. With one lock over every table, the quiet table waited for the busy one.
#[test]
fn one_busy_table_holds_up_no_other() {
    runtime().block_on(async {
        let (base, h) = serving(Delay::default(), None).await;
        let (mut busy, busy_last) = both_public(&format!("{base}/busy")).await;
        let (mut quiet, quiet_last) = both_public(&format!("{base}/quiet")).await;
        let hold = {
            let h = h.clone();
            tokio::task::spawn_blocking(move || h.occupy("busy", Duration::from_secs(3)))
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        // The busy table's active seat acts: its answer waits for the table.
        let k = (0..2).find(|&k| busy_last[k].active == Some(k as u8)).unwrap();
        busy[k].submit(busy_last[k].index, busy_last[k].legal[0].clone()).await.unwrap();
        // Meanwhile the quiet table plays ten actions and the list answers.
        let last = play(&mut quiet, quiet_last, 10).await;
        assert_eq!(last[0].index, 10);
        assert_eq!(Client::list(&base).await.unwrap().len(), 2);
        assert!(!hold.is_finished(), "the quiet table was kept waiting for the busy one");
        assert!(hold.await.unwrap());
        assert_eq!(next_update(&mut busy[k]).await.index, 1, "the busy table's action taken once it was free");
    });
}

/// Item 11: each action's acceptance time is kept in the log, so a restarted host keeps its
/// spectators exactly as far behind as before: what they had seen stays seen (a spectator comes
/// back at its index), and what was still held back is released on time.
#[test]
fn the_spectators_delay_holds_across_a_restart() {
    let data = std::env::temp_dir().join(format!("grognard-delay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let delay = Delay { actions: 0, seconds: 2 };
    runtime().block_on(async {
        let (base, _h) = serving(delay, Some(&data)).await;
        let (mut seats, last) = both_public(&format!("{base}/slow")).await;
        let last = play(&mut seats, last, 4).await;
        // Past the delay, the four are the spectators'; two more are not yet.
        tokio::time::sleep(Duration::from_millis(2300)).await;
        let last = play(&mut seats, last, 2).await;
        assert_eq!(last[0].index, 6);
        // The host restarts on its folder.
        let (base, _h) = serving(delay, Some(&data)).await;
        let url = format!("{base}/slow");
        let e = Client::sit(&url, &Sit { since: 5, ..Sit::default() }).await.err().expect("5 was never released");
        assert!(e.contains("cannot have seen action 5: the log you may see holds 4"), "{e}");
        let mut back = Client::sit(&url, &Sit { since: 4, ..Sit::default() }).await.unwrap();
        assert_eq!(next_update(&mut back).await.index, 4);
        let mut seen = 4;
        while seen < 6 {
            let u = next_update(&mut back).await;
            assert!(u.log.iter().all(|l| l.index >= 4), "nothing sent twice");
            seen = u.index;
        }
    });
    let _ = std::fs::remove_dir_all(&data);
}
