//! Turns days apart (issue 32): one host serving every shipped scenario, a word to a seat when
//! the decision passes to it (posted to a receiver on loopback), clocks and standing orders.

mod common;

use common::next_update;
use grognard::net::client::{Client, Sit, fresh};
use grognard::net::host::{Host, serve};
use grognard::net::notify::NotifyConfig;
use grognard::net::proto::{Delay, ToSeat};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// Every shipped scenario of every game, as `grognard host` with no scenario serves them.
fn everything() -> grognard::net::host::Catalogue {
    grognard::cli::catalogue(&[]).expect("the shipped scenarios load")
}

/// A seat's welcome (the game and scenario it names), or the refusal that came instead.
async fn welcome(c: &mut Client) -> Result<(String, String), String> {
    loop {
        match c.recv().await {
            Some(ToSeat::Welcome { game, scenario, .. }) => return Ok((game, scenario)),
            Some(ToSeat::Refused { message, .. }) => return Err(message),
            Some(_) => {}
            None => return Err("closed".into()),
        }
    }
}

fn sit(seat: u8, scenario: Option<&str>) -> Sit {
    Sit {
        seat: Some(seat),
        token: Some(fresh()),
        value: Some(fresh()),
        public: true,
        scenario: scenario.map(str::to_string),
        ..Sit::default()
    }
}

#[test]
fn one_host_serves_every_shipped_scenario_and_each_table_keeps_the_one_it_was_opened_on() {
    let catalogue = everything();
    let names: Vec<String> = catalogue.scenarios().map(|t| t.scenario.clone()).collect();
    // Every game's every scenario file: Battle of the Nations' two, Victory & Glory's one,
    // Leipzig's eight, Austerlitz' two; the program's default game and scenario first.
    assert_eq!(names.len(), 13, "{names:?}");
    assert_eq!(names[0], "battle-of-the-nations/beginner");
    for game in ["battle-of-the-nations", "victory-and-glory", "leipzig-1813", "austerlitz"] {
        assert!(names.iter().any(|n| n.starts_with(&format!("{game}/"))), "{game} in {names:?}");
    }
    let data = tempfile::tempdir().unwrap();
    let none = Delay::default();
    runtime().block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("ws://{}", listener.local_addr().unwrap());
        let (h, problems) = Host::open(catalogue.clone(), none, Some(data.path())).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        tokio::spawn(serve(listener, h));
        // A Leipzig table and an Austerlitz table on one host; one with no scenario named gets
        // the default.
        let mut lz = Client::sit(&format!("{base}/lz"), &sit(0, Some("leipzig-1813/3-wider-alliance"))).await.unwrap();
        assert_eq!(welcome(&mut lz).await.unwrap(), ("leipzig-1813".into(), "leipzig-1813/3-wider-alliance".into()));
        let mut az = Client::sit(&format!("{base}/az"), &sit(0, Some("austerlitz/1-historical"))).await.unwrap();
        assert_eq!(welcome(&mut az).await.unwrap().1, "austerlitz/1-historical");
        let mut plain = Client::sit(&format!("{base}/plain"), &sit(0, None)).await.unwrap();
        assert_eq!(welcome(&mut plain).await.unwrap().1, "battle-of-the-nations/beginner");
        // The other seat joins without naming one, or naming the table's own; naming another
        // is refused, as is a scenario the host does not serve.
        let mut lz1 = Client::sit(&format!("{base}/lz"), &sit(1, None)).await.unwrap();
        assert_eq!(welcome(&mut lz1).await.unwrap().1, "leipzig-1813/3-wider-alliance");
        let wrong = Client::sit(&format!("{base}/az"), &sit(1, Some("austerlitz/2-game-sectors"))).await.err().unwrap();
        assert!(wrong.contains("plays austerlitz/1-historical, not austerlitz/2-game-sectors"), "{wrong}");
        let unknown = Client::sit(&format!("{base}/x"), &sit(0, Some("chess/standard"))).await.err().unwrap();
        assert!(unknown.contains("serves no scenario `chess/standard`"), "{unknown}");
        // The list names each table's game and scenario.
        let list = Client::list(&base).await.unwrap();
        let lz_info = list.iter().find(|t| t.name == "lz").expect("listed");
        assert_eq!(
            (lz_info.game.as_str(), lz_info.scenario.as_str()),
            ("leipzig-1813", "leipzig-1813/3-wider-alliance")
        );
        assert!(lz_info.title.contains("Alliance"), "{}", lz_info.title);
        assert!(list.iter().all(|t| t.name != "x"), "a refused join opens no table");
    });
    // Restarted, the host reopens each table on its own scenario; a host that no longer serves
    // a table's scenario names the table it could not reopen.
    let (h, problems) = Host::open(catalogue, none, Some(data.path())).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let kept: Vec<(String, String)> = h.list().into_iter().map(|t| (t.name, t.scenario)).collect();
    assert!(kept.contains(&("lz".into(), "leipzig-1813/3-wider-alliance".into())), "{kept:?}");
    assert!(kept.contains(&("az".into(), "austerlitz/1-historical".into())), "{kept:?}");
    drop(h);
    let only_az =
        grognard::cli::catalogue(&[grognard::engine::scenario::scenarios_root().join("austerlitz/1-historical.ron")])
            .unwrap();
    let (h, problems) = Host::open(only_az, none, Some(data.path())).unwrap();
    assert_eq!(h.list().len(), 1, "the Austerlitz table alone");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems.iter().any(|p| p.contains("table lz") && p.contains("leipzig-1813/3-wider-alliance")),
        "{problems:?}"
    );
}

/// A web server on loopback that keeps every request's body and answers with `status`.
async fn receiver(status: u16) -> (String, Arc<Mutex<Vec<serde_json::Value>>>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook/secret-path", listener.local_addr().unwrap());
    let got = Arc::new(Mutex::new(Vec::new()));
    let kept = got.clone();
    tokio::spawn(async move {
        loop {
            let (mut s, _) = listener.accept().await.unwrap();
            let kept = kept.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                let body = loop {
                    let n = s.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    let text = String::from_utf8_lossy(&buf).to_string();
                    let Some(end) = text.find("\r\n\r\n") else { continue };
                    let length: usize = text[..end]
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string())
                        })
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0);
                    if buf.len() >= end + 4 + length {
                        break buf[end + 4..end + 4 + length].to_vec();
                    }
                };
                kept.lock().unwrap().push(serde_json::from_slice(&body).expect("a JSON body"));
                let answer = format!("HTTP/1.1 {status} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                let _ = s.write_all(answer.as_bytes()).await;
            });
        }
    });
    (url, got)
}

/// Battle of the Nations' beginner game, whose decision passes from seat to seat often.
fn botn() -> grognard::net::host::Catalogue {
    let file = grognard::engine::scenario::scenarios_root().join("battle-of-the-nations/beginner.ron");
    grognard::cli::catalogue(&[file]).unwrap()
}

/// A host of Battle of the Nations on loopback, posting to local addresses with short pauses.
async fn notifying_host(backoff_ms: u64) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("ws://{}", listener.local_addr().unwrap());
    let h = Host::new(botn());
    h.notify_with(NotifyConfig {
        allow_local: true,
        backoff: vec![Duration::from_millis(backoff_ms); 2],
        timeout: Duration::from_secs(5),
        link: Some(base.clone()),
    });
    tokio::spawn(serve(listener, h));
    base
}

/// Waits until `got` holds `n` bodies (a post runs on its own thread).
async fn bodies(got: &Arc<Mutex<Vec<serde_json::Value>>>, n: usize) -> Vec<serde_json::Value> {
    for _ in 0..500 {
        if got.lock().unwrap().len() >= n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    got.lock().unwrap().clone()
}

#[test]
fn a_seat_is_posted_to_once_each_time_the_decision_passes_to_it_and_its_address_stays_its_own() {
    runtime().block_on(async {
        let (hook, got) = receiver(200).await;
        let base = notifying_host(10).await;
        let url = format!("{base}/friday");
        let mut seats = Vec::new();
        for k in 0..2u8 {
            let mut c = Client::sit(&url, &Sit { notify: Some(hook.clone()), ..sit(k, None) }).await.unwrap();
            welcome(&mut c).await.unwrap();
            seats.push(c);
        }
        // Both seats read every update; the active one plays; whenever the decision passes to
        // a seat, one post to it is due.
        let mut due = Vec::new();
        let mut active = None;
        let mut index = 0;
        while index < 80 {
            let mut acted = false;
            for (k, c) in seats.iter_mut().enumerate() {
                let u = next_update(c).await;
                assert!(!serde_json::to_string(&u).unwrap().contains("secret-path"), "a seat's address is its own");
                if k == 0 && u.active != active && !u.over {
                    active = u.active;
                    due.extend(u.active.map(|s| (s as u64, u.index)));
                }
                if u.active == Some(k as u8) && !u.over {
                    c.submit(u.index, u.legal[(u.index as usize * 5) % u.legal.len()].clone()).await.unwrap();
                    acted = true;
                }
            }
            if !acted {
                break;
            }
            index += 1;
        }
        assert!(due.len() >= 4, "the decision passed {} times in {index} actions: too few", due.len());
        let mut posted: Vec<(u64, u64)> = bodies(&got, due.len())
            .await
            .iter()
            .map(|b| (b["notice"]["seat"].as_u64().unwrap(), b["notice"]["index"].as_u64().unwrap()))
            .collect();
        posted.sort_by_key(|p| p.1);
        assert_eq!(posted, due, "one post per turn, to the seat whose turn it is");
        let first = &got.lock().unwrap()[0];
        assert_eq!(first["notice"]["table"], "friday");
        assert_eq!(first["notice"]["game"], "battle-of-the-nations");
        assert_eq!(first["notice"]["link"], format!("{base}/friday"));
        assert!(first["text"].as_str().unwrap().contains("to play"));
    });
}

#[test]
fn a_failing_address_is_tried_again_then_told_to_its_seat_and_never_holds_up_the_table() {
    runtime().block_on(async {
        let (hook, got) = receiver(500).await;
        let base = notifying_host(20).await;
        let url = format!("{base}/saturday");
        let mut first = Client::sit(&url, &sit(0, None)).await.unwrap();
        welcome(&mut first).await.unwrap();
        let second_sit = Sit { notify: Some(hook.clone()), ..sit(1, None) };
        let mut second = Client::sit(&url, &second_sit).await.unwrap();
        welcome(&mut second).await.unwrap();
        let token = second.token().unwrap();
        // Whoever moves first, play until the decision is the second seat's, then leave.
        let mut u = next_update(&mut first).await;
        drop(second);
        while u.active != Some(1) {
            first.submit(u.index, u.legal[0].clone()).await.unwrap();
            u = next_update(&mut first).await;
        }
        // The first try and two more, each answered 500; the table went on meanwhile.
        assert_eq!(bodies(&got, 3).await.len(), 3);
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(got.lock().unwrap().len(), 3, "no fourth try");
        // Back, the seat hears why, and plays.
        let mut back = Client::rejoin(&url, Some(1), Some(&token), 0).await.unwrap();
        let mut told = None;
        loop {
            match back.recv().await.expect("open") {
                ToSeat::Notice { text } => told = Some(text),
                ToSeat::Update(v) if v.active == Some(1) => {
                    back.submit(v.index, v.legal[0].clone()).await.unwrap();
                    assert_eq!(next_update(&mut back).await.index, v.index + 1, "the seat plays on");
                    break;
                }
                ToSeat::Refused { message, .. } => panic!("{message}"),
                _ => {}
            }
        }
        let told = told.expect("the seat was told");
        assert!(told.contains("failed 3 times") && told.contains("500"), "{told}");
    });
}

#[test]
fn a_webhook_answering_with_a_redirect_has_not_taken_the_post() {
    // Issue 63, item 6: a redirect is never followed, so a 3xx answer delivered nothing: it is
    // tried again like any failure, then told to the seat.
    runtime().block_on(async {
        let (hook, got) = receiver(302).await;
        let base = notifying_host(20).await;
        let url = format!("{base}/redirected");
        let mut first = Client::sit(&url, &Sit { notify: Some(hook.clone()), ..sit(0, None) }).await.unwrap();
        welcome(&mut first).await.unwrap();
        let mut second = Client::sit(&url, &Sit { notify: Some(hook.clone()), ..sit(1, None) }).await.unwrap();
        welcome(&mut second).await.unwrap();
        // The seat to play first is posted to: three tries, each answered 302, then told.
        let u = next_update(&mut first).await;
        let seat = u.active.unwrap();
        assert_eq!(bodies(&got, 3).await.len(), 3);
        let c = if seat == 0 { &mut first } else { &mut second };
        let told = loop {
            let m = tokio::time::timeout(Duration::from_secs(10), c.recv()).await.expect("told").expect("open");
            if let ToSeat::Notice { text } = m {
                break text;
            }
        };
        assert!(told.contains("failed 3 times") && told.contains("302"), "{told}");
    });
}

/// A web server on loopback that takes every connection and never answers (a slow webhook).
async fn silent_receiver() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/slow", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((s, _)) = listener.accept().await {
            held.push(s);
        }
    });
    url
}

/// Plays both seats of table `url`, each leaving its address, until `actions` were taken: how
/// many times the decision passed to a seat (a post due each time).
async fn play_table(url: String, addresses: [String; 2], actions: u64) -> usize {
    let mut seats = Vec::new();
    for (k, hook) in addresses.into_iter().enumerate() {
        let mut c = Client::sit(&url, &Sit { notify: Some(hook), ..sit(k as u8, None) }).await.unwrap();
        welcome(&mut c).await.unwrap();
        seats.push(c);
    }
    let (mut passed, mut active) = (0, None);
    loop {
        let mut acted = false;
        for (k, c) in seats.iter_mut().enumerate() {
            let u = next_update(c).await;
            if k == 0 && u.active != active && !u.over {
                active = u.active;
                passed += 1;
            }
            if u.active == Some(k as u8) && !u.over && u.index < actions {
                c.submit(u.index, u.legal[(u.index as usize * 7) % u.legal.len()].clone()).await.unwrap();
                acted = true;
            }
        }
        if !acted {
            return passed;
        }
    }
}

#[test]
fn thousands_of_failing_and_slow_webhooks_across_hundreds_of_tables_freeze_no_table() {
    // Issue 63, item 1: past 64 posts under way (or a post that failed at once) the host called
    // the failure's callback on the thread holding the table, which locked it again: the table
    // froze for good, and the host after it. A frozen table's thread never ends, and a runtime
    // waits for its threads as it is dropped: the runtime is left behind, and the outcome
    // asserted after.
    let rt = runtime();
    let outcome: Result<(), String> = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("ws://{}", listener.local_addr().unwrap());
        // Forty tables open at once from this one address.
        let limits = grognard::net::limits::Limits { unstarted_per_address: 1000, ..Default::default() };
        let h = Host::with_limits(botn(), limits);
        h.notify_with(NotifyConfig {
            allow_local: true,
            backoff: vec![Duration::from_millis(200); 2],
            timeout: Duration::from_secs(2),
            link: None,
        });
        tokio::spawn(serve(listener, h));
        let hooks = [
            silent_receiver().await,
            "http://127.0.0.1:9/closed".to_string(),
            "http://no-such-host.invalid/hook".to_string(),
        ];
        const TABLES: usize = 240;
        const AT_ONCE: usize = 40;
        let mut passed = 0;
        for wave in 0..TABLES / AT_ONCE {
            let plays = (0..AT_ONCE).map(|i| {
                let n = wave * AT_ONCE + i;
                let addresses = [hooks[n % 3].clone(), hooks[(n + 1) % 3].clone()];
                play_table(format!("{base}/hooked-{n}"), addresses, 30)
            });
            let Ok(done) = tokio::time::timeout(Duration::from_secs(60), futures_util::future::join_all(plays)).await
            else {
                return Err(format!("a table of wave {wave} froze"));
            };
            passed += done.iter().sum::<usize>();
        }
        if passed < 1000 {
            return Err(format!("only {passed} posts were due: too few to fill the host's 64"));
        }
        // The host still opens tables and answers.
        let fresh_table = play_table(format!("{base}/after"), [hooks[1].clone(), hooks[2].clone()], 4);
        if tokio::time::timeout(Duration::from_secs(10), fresh_table).await.is_err() {
            return Err("a new table froze".into());
        }
        let listed = Client::list(&base).await?.len();
        if listed != TABLES + 1 {
            return Err(format!("{listed} tables listed"));
        }
        Ok(())
    });
    if outcome.is_err() {
        std::mem::forget(rt);
    }
    outcome.unwrap();
}

#[test]
fn a_host_on_the_internet_takes_no_address_of_its_own_network_and_a_spectator_leaves_none() {
    runtime().block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("ws://{}", listener.local_addr().unwrap());
        tokio::spawn(serve(listener, Host::new(everything())));
        for (address, why) in [
            ("http://127.0.0.1:9/x", "public addresses"),
            ("http://[::1]:9/x", "public addresses"),
            ("http://10.0.0.7/x", "public addresses"),
            ("ftp://example.org/x", "begins with https://"),
            ("https://user:pw@example.org/x", "user name or password"),
        ] {
            let asked = Sit { notify: Some(address.to_string()), ..sit(0, None) };
            let refusal = Client::sit(&format!("{base}/t"), &asked).await.err().expect("refused");
            assert!(refusal.contains(why), "{address}: {refusal}");
        }
        assert!(Client::list(&base).await.unwrap().is_empty(), "a refused join opens no table");
        let mut c = Client::sit(&format!("{base}/t"), &sit(0, None)).await.unwrap();
        welcome(&mut c).await.unwrap();
        let watcher = Sit { seat: None, notify: Some("https://example.org/x".into()), ..Sit::default() };
        let refusal = Client::sit(&format!("{base}/t"), &watcher).await.err().expect("refused");
        assert!(refusal.contains("a spectator leaves no notification address"), "{refusal}");
    });
}

/// A time of day the test moves on by hand: milliseconds since 1970.
fn test_time(start_ms: u64) -> (Arc<std::sync::atomic::AtomicU64>, grognard::net::host::Now) {
    let ms = Arc::new(std::sync::atomic::AtomicU64::new(start_ms));
    let read = ms.clone();
    let now: grognard::net::host::Now =
        Arc::new(move || std::time::UNIX_EPOCH + Duration::from_millis(read.load(std::sync::atomic::Ordering::SeqCst)));
    (ms, now)
}

const DAY: u64 = 24 * 3_600_000;

/// Plays the active seat's first legal action at each update until the decision is `until`'s;
/// the last update each seat read.
async fn play_until(seats: &mut [Client; 2], until: u8) -> grognard::net::proto::Update {
    loop {
        let mut last = None;
        for (k, c) in seats.iter_mut().enumerate() {
            let u = next_update(c).await;
            if u.active == Some(k as u8) && u.active != Some(until) {
                c.submit(u.index, u.legal[0].clone()).await.unwrap();
            }
            last = Some(u);
        }
        let u = last.unwrap();
        if u.active == Some(until) {
            return u;
        }
    }
}

/// The next update of `c` whose clock says `what`.
async fn clock_update(
    c: &mut Client,
    what: impl Fn(&grognard::net::clock::ClockView) -> bool,
) -> grognard::net::proto::Update {
    loop {
        let u = tokio::time::timeout(Duration::from_secs(10), next_update(c)).await.expect("an update within 10 s");
        if u.clock.as_ref().is_some_and(|c| what(c)) {
            return u;
        }
    }
}

#[test]
fn a_turn_based_clock_runs_for_the_seat_to_play_and_a_seat_out_of_time_is_skipped_then_claimed() {
    let data = tempfile::tempdir().unwrap();
    let (ms, now) = test_time(1_800_000_000_000);
    let catalogue = botn();
    runtime().block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/by-post", listener.local_addr().unwrap());
        let (h, _) = Host::open(catalogue.clone(), Delay::default(), Some(data.path())).unwrap();
        h.set_time(now.clone());
        tokio::spawn(serve(listener, h.clone()));
        // A bad clock is refused; one day a move with two in reserve: three days each.
        let bad = Client::sit(&url, &Sit { clock: Some("days:0".into()), ..sit(0, None) }).await.err().unwrap();
        assert!(bad.contains("1 to 30 days"), "{bad}");
        let mut a = Client::sit(&url, &Sit { clock: Some("days:1+2".into()), ..sit(0, None) }).await.unwrap();
        welcome(&mut a).await.unwrap();
        let mut b = Client::sit(&url, &sit(1, None)).await.unwrap();
        welcome(&mut b).await.unwrap();
        let mut seats = [a, b];
        let ups = [next_update(&mut seats[0]).await, next_update(&mut seats[1]).await];
        let first = ups[0].active.unwrap();
        let u = ups[first as usize].clone();
        let c = u.clock.clone().expect("every seat sees the clock");
        assert_eq!(c.left_ms, vec![3 * DAY as i64, 3 * DAY as i64]);
        assert_eq!(c.running, Some(first), "the seat to play spends its time");
        assert_eq!(ups[1 - first as usize].clock, u.clock, "both seats see the same clock");
        let other = 1 - first;
        // Nobody is out of time: neither seat may claim.
        seats[other as usize].claim().await.unwrap();
        let refusal = common::next_refusal(&mut seats[other as usize]).await;
        assert!(refusal.contains("nobody is out of time") && refusal.contains("3 d 0 h left"), "{refusal}");
        // The first seat thinks for two days, then plays its turn: a day comes back.
        ms.fetch_add(2 * DAY, std::sync::atomic::Ordering::SeqCst);
        let k = first as usize;
        seats[k].submit(u.index, u.legal[0].clone()).await.unwrap();
        let u = play_until(&mut seats, other).await;
        let c = u.clock.unwrap();
        assert_eq!(c.left_ms[k], 2 * DAY as i64, "three days, less two, plus one");
        assert_eq!(c.running, Some(other));
        // The other seat is away for four days: out of time, every seat is told.
        ms.fetch_add(4 * DAY, std::sync::atomic::Ordering::SeqCst);
        let told = clock_update(&mut seats[k], |c| c.out_of_time == Some(other)).await;
        assert_eq!(told.clock.unwrap().left_ms[other as usize], -(DAY as i64));
        // The waiting seat has the host play the late seat's turn: the decision comes back.
        seats[k].skip().await.unwrap();
        let back = clock_update(&mut seats[k], |c| c.running == Some(first)).await;
        assert_eq!(back.active, Some(first));
        assert!(back.index > u.index, "the host played for the late seat");
        // Its move gave it a day: it stands at zero, out of time again at its next turn.
        assert_eq!(back.clock.as_ref().unwrap().left_ms[other as usize], 0);
        // The first seat plays its turn at once (back to its three days); the late seat is out
        // again as soon as the decision is its own, and the game is claimed.
        let (mut v, mut sent) = (back, None);
        while v.active != Some(other) {
            if v.active == Some(first) && sent.is_none_or(|s| v.index > s) {
                seats[k].submit(v.index, v.legal[0].clone()).await.unwrap();
                sent = Some(v.index);
            }
            v = next_update(&mut seats[k]).await;
        }
        assert_eq!(v.clock.unwrap().out_of_time, Some(other));
        seats[k].claim().await.unwrap();
        let over = clock_update(&mut seats[k], |c| c.claimed_by == Some(first)).await;
        assert!(over.over && over.legal.is_empty(), "a claimed game is over");
        let info = Client::list(&url.replace("/by-post", "")).await.unwrap();
        assert!(info[0].over && info[0].clock.as_ref().unwrap().claimed_by == Some(first), "{info:?}");
        // The game ends where it was claimed: the host reveals its secret, and every roll so far
        // verifies against the commitment each seat was welcomed with.
        let save = loop {
            match seats[k].recv().await.expect("open") {
                ToSeat::Finished { save } => break save,
                ToSeat::Refused { message, .. } => panic!("{message}"),
                _ => {}
            }
        };
        seats[k].check_save(None, &save).unwrap();
        let kept: grognard::net::hosted::HostedSave = ron::from_str(&save).unwrap();
        assert_eq!(kept.fair.claimed_by, Some(first));
        // Issue 63: the save names its scenario by game and file, not by the host's own path.
        assert_eq!(kept.scenario.path, std::path::Path::new("battle-of-the-nations/beginner.ron"));
        let saved = data.path().join("handed-out.save.ron");
        std::fs::write(&saved, &save).unwrap();
        let verified = grognard::net::hosted::verify_file(&saved, |p, seed| {
            grognard::engine::kit::new_table::<grognard::games::botn::Botn>(p, seed).map_err(|e| e.to_string())
        });
        assert!(verified.as_ref().is_ok_and(|v| v.starts_with("verified")), "{verified:?}");
        let file = grognard::engine::scenario::scenarios_root().join("battle-of-the-nations/beginner.ron");
        let table = grognard::net::hosted::verify(&kept.fair, |seed| {
            grognard::engine::kit::new_table::<grognard::games::botn::Botn>(&file, seed).unwrap()
        })
        .unwrap();
        assert!(!grognard::engine::rules::Game::is_over(&table.game), "claimed before the rules' end");
        // Without the claim on the record the same save is a game cut short.
        let unclaimed = grognard::net::hosted::FairRecord { claimed_by: None, ..kept.fair.clone() };
        let cut = grognard::net::hosted::verify(&unclaimed, |seed| {
            grognard::engine::kit::new_table::<grognard::games::botn::Botn>(&file, seed).unwrap()
        });
        assert!(cut.err().unwrap().contains("cut short"));
    });
    // Restarted, the host keeps the clock and the claim.
    let (h, problems) = Host::open(catalogue, Delay::default(), Some(data.path())).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    h.set_time(now);
    let info = h.list();
    let c = info[0].clock.as_ref().unwrap();
    assert!(info[0].over);
    let mut left = c.left_ms.clone();
    left.sort();
    assert_eq!(left, vec![0, 3 * DAY as i64], "{c:?}");
    assert_eq!(c.running, None, "nobody's time runs in a claimed game");
    assert_eq!(c.rule, grognard::net::clock::ClockRule::turns(1, 2));
}

/// What a seat keeps between two days: its token, and the last action it saw.
struct Kept {
    token: String,
    since: u64,
}

/// Standing orders for every question Leipzig asks.
fn leipzig_orders() -> grognard::engine::orders::Orders {
    [
        ("retreat-before-combat", "retreat-from:300"),
        ("defence-supply", "supply"),
        ("retreat", "computer:beginner"),
        ("scatter", "computer:beginner"),
        ("rebellion-losses", "computer:beginner"),
    ]
    .iter()
    .map(|(k, a)| (k.to_string(), a.to_string()))
    .collect()
}

/// A host started afresh on its data folder, as after a restart, serving on `port`: its runtime
/// (dropping it stops the host) and the host.
fn host_for_a_day(
    catalogue: &grognard::net::host::Catalogue,
    data: &std::path::Path,
    now: &grognard::net::host::Now,
    port: u16,
) -> (tokio::runtime::Runtime, Arc<Host>) {
    let (h, problems) = Host::open(catalogue.clone(), Delay::default(), Some(data)).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    h.set_time(now.clone());
    h.notify_with(NotifyConfig {
        allow_local: true,
        backoff: vec![Duration::from_millis(10); 2],
        timeout: Duration::from_secs(5),
        link: Some(format!("ws://127.0.0.1:{port}")),
    });
    let rt = runtime();
    let listener = rt.block_on(tokio::net::TcpListener::bind(("127.0.0.1", port))).unwrap();
    rt.spawn(serve(listener, h.clone()));
    (rt, h)
}

#[test]
fn leipzig_by_post_over_simulated_days_a_word_each_turn_standing_orders_and_the_host_restarted_every_day() {
    let data = tempfile::tempdir().unwrap();
    let (ms, now) = test_time(1_800_000_000_000);
    let lz = grognard::engine::scenario::scenarios_root().join("leipzig-1813/1-historical-situation.ron");
    let catalogue = grognard::cli::catalogue(&[lz]).unwrap();
    // The seats' webhook receiver runs for the whole test on a thread of its own.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        runtime().block_on(async {
            tx.send(receiver(200).await).unwrap();
            std::future::pending::<()>().await
        })
    });
    let (hook, got) = rx.recv().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("ws://127.0.0.1:{port}/by-post");
    // Day 0: the French open a table with a clock (two days a move, three in reserve), the
    // Allies join; each leaves an address and standing orders, and both go.
    let mut kept: Vec<Kept> = Vec::new();
    let (rt, h) = host_for_a_day(&catalogue, data.path(), &now, port);
    rt.block_on(async {
        let mut seats = Vec::new();
        for k in 0..2u8 {
            let asked = Sit {
                notify: Some(format!("{hook}/{k}")),
                clock: (k == 0).then(|| "days:2+3".to_string()),
                ..sit(k, None)
            };
            let mut c = Client::sit(&url, &asked).await.unwrap();
            welcome(&mut c).await.unwrap();
            seats.push(c);
        }
        for c in seats.iter_mut() {
            let u = next_update(c).await;
            assert!(u.active.is_some() && u.clock.is_some());
            c.orders(leipzig_orders()).await.unwrap();
            loop {
                match c.recv().await.unwrap() {
                    ToSeat::Orders { orders } => break assert_eq!(orders, leipzig_orders()),
                    ToSeat::Refused { message, .. } => panic!("{message}"),
                    _ => {}
                }
            }
            kept.push(Kept { token: c.token().unwrap(), since: u.index });
        }
    });
    drop((rt, h));
    let mut answered_for_the_absent = 0;
    let mut days = 0;
    let mut turns_of = [0; 2];
    while days < 24 && !(answered_for_the_absent > 0 && days >= 4) {
        days += 1;
        ms.fetch_add(DAY, std::sync::atomic::Ordering::SeqCst);
        // Whose turn it is, as the word posted to that seat says: the newest post.
        let posts = bodies(&got, 1).await_blocking();
        let newest = posts.iter().max_by_key(|b| b["notice"]["index"].as_u64().unwrap()).unwrap().clone();
        let me = newest["notice"]["seat"].as_u64().unwrap() as u8;
        let other = 1 - me;
        turns_of[me as usize] += 1;
        let posted = posts.len();
        let (rt, h) = host_for_a_day(&catalogue, data.path(), &now, port);
        let ended = rt.block_on(async {
            let listed = &h.list()[0];
            assert_eq!(listed.active, Some(me), "day {days}: the word went to the seat whose turn it is");
            assert_eq!(listed.index, newest["notice"]["index"].as_u64().unwrap());
            // A spectator looks in: the table as it stands, no legal actions, no orders.
            let mut watcher = Client::sit(&url, &Sit::default()).await.unwrap();
            welcome(&mut watcher).await.unwrap();
            let seen = next_update(&mut watcher).await;
            assert!(seen.legal.is_empty() && seen.index == listed.index);
            // The seat comes back with its token, and plays until the decision leaves it.
            let k = &mut kept[me as usize];
            let mut c = Client::rejoin(&url, Some(me), Some(&k.token), k.since).await.unwrap();
            let start = listed.index;
            let ended = loop {
                match c.recv().await.expect("open") {
                    ToSeat::Orders { orders } => assert_eq!(orders, leipzig_orders(), "its own orders, back"),
                    ToSeat::Update(u) => {
                        k.since = u.index;
                        assert!(u.clock.as_ref().unwrap().left_ms[me as usize] > 0, "within its time");
                        if u.over {
                            break true;
                        }
                        if u.active != Some(me) {
                            break false;
                        }
                        let action = h.computer_choice("by-post", me, "beginner").unwrap();
                        c.submit(u.index, action).await.unwrap();
                    }
                    ToSeat::Refused { message, .. } => panic!("{message}"),
                    _ => {}
                }
            };
            // What the absent seat's standing orders answered meanwhile, logged as its own.
            let links = h.record("by-post").unwrap().links;
            answered_for_the_absent += links[start as usize..].iter().filter(|l| l.seat.0 == other).count();
            ended
        });
        drop((rt, h));
        if ended {
            break;
        }
        // The decision passed: a word went to the other seat.
        let posts = bodies(&got, posted + 1).await_blocking();
        assert!(posts.len() > posted, "day {days}: no word posted for the next turn");
    }
    assert!(answered_for_the_absent > 0, "no question was answered by standing orders in {days} days");
    assert!(turns_of[0] >= 2 && turns_of[1] >= 2, "each side played on its days: {turns_of:?}");
}

/// Waits for a future on a runtime of its own (the receiver's bodies between two days).
trait Blocking: std::future::Future + Sized {
    fn await_blocking(self) -> Self::Output {
        runtime().block_on(self)
    }
}

impl<F: std::future::Future> Blocking for F {}

#[test]
fn grognard_host_with_no_scenario_serves_every_game_and_grognard_tables_shows_each_tables_scenario_and_clock() {
    let data = tempfile::tempdir().unwrap();
    let (mut child, at) =
        common::grognard_host(&["--port".as_ref(), "0".as_ref(), "--data".as_ref(), data.path().as_os_str()]);
    runtime().block_on(async {
        let asked = Sit { clock: Some("days:2+5".into()), ..sit(0, Some("leipzig-1813/5-historical-summer")) };
        let mut c = Client::sit(&format!("ws://{at}/summer"), &asked).await.unwrap();
        assert_eq!(welcome(&mut c).await.unwrap().1, "leipzig-1813/5-historical-summer");
        let listed = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
            .args(["tables", &format!("ws://{at}")])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&listed.stdout);
        let line = text.lines().find(|l| l.starts_with("summer\t")).unwrap_or_else(|| panic!("{text}"));
        for part in ["leipzig-1813/5-historical-summer", "waiting for Allied to join", "2 days a move, 5 in reserve"] {
            assert!(line.contains(part), "{part} in {line}");
        }
        // The seat's own tables, as this machine keeps their tokens (as a window writes them).
        let home = tempfile::tempdir().unwrap();
        let key = serde_json::json!({"token": c.token().unwrap(), "value": "00", "url": format!("ws://{at}/summer")});
        std::fs::write(home.path().join("seat-summer-0.json"), key.to_string()).unwrap();
        let mine = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
            .args(["tables", &format!("ws://{at}"), "--mine"])
            .env("GROGNARD_HOME", home.path())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&mine.stdout);
        assert_eq!(
            text.trim(),
            "summer\tleipzig-1813/5-historical-summer\tFrench\twaiting for a seat to join, 7 d 0 h left",
            "{text}{}",
            String::from_utf8_lossy(&mine.stderr)
        );
    });
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Issue 63, item 5: a clock is reckoned from the actions' times, so the minutes the host was
/// down counted as the seat's thinking (live:1, host down 60 s: the seat at −7 s and the game
/// claimed). The seat to move is charged only the time the host was there to take its move.
#[test]
fn the_time_a_host_was_down_is_not_charged_to_the_seat_to_move() {
    let data = tempfile::tempdir().unwrap();
    let (ms, now) = test_time(1_800_000_000_000);
    let catalogue = botn();
    let rt = runtime();
    let first = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/live", listener.local_addr().unwrap());
        let limits = grognard::net::limits::Limits::default();
        let (h, _) =
            Host::open_at(catalogue.clone(), Delay::default(), Some(data.path()), limits, Some(now.clone())).unwrap();
        tokio::spawn(serve(listener, h));
        let mut a = Client::sit(&url, &Sit { clock: Some("live:1".into()), ..sit(0, None) }).await.unwrap();
        welcome(&mut a).await.unwrap();
        let mut b = Client::sit(&url, &sit(1, None)).await.unwrap();
        welcome(&mut b).await.unwrap();
        let u = next_update(&mut a).await;
        let first = u.active.unwrap();
        assert_eq!(u.clock.unwrap().left_ms[first as usize], 60_000);
        // The seat thinks 10 s while the host is there (it marks itself alive every second) ...
        ms.fetch_add(10_000, std::sync::atomic::Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(1500)).await;
        first
    });
    // ... then the host is down for a minute.
    drop(rt);
    ms.fetch_add(60_000, std::sync::atomic::Ordering::SeqCst);
    let limits = grognard::net::limits::Limits::default();
    let (h, problems) =
        Host::open_at(catalogue.clone(), Delay::default(), Some(data.path()), limits, Some(now.clone())).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let c = h.list()[0].clock.clone().unwrap();
    assert_eq!(c.running, Some(first));
    assert_eq!(c.left_ms[first as usize], 50_000, "only the 10 s the host was there count");
    assert_eq!(c.out_of_time, None);
    // Opened again at once, the downtime stays excused, once.
    drop(h);
    let (h, _) = Host::open_at(catalogue, Delay::default(), Some(data.path()), limits, Some(now)).unwrap();
    assert_eq!(h.list()[0].clock.clone().unwrap().left_ms[first as usize], 50_000);
}

/// Issue 63, item 3: a started table left without a move lapses and leaves the host with its
/// log, so that abandoned tables never fill it: a live clock's after a day, a turn-based clock's
/// after a seat's whole time and a week more, one without a clock after 30 days, a finished one a
/// week after its end. A seat still there is told why.
#[test]
fn a_table_left_without_a_move_lapses_after_the_time_its_clock_says() {
    use grognard::net::clock::ClockRule;
    use grognard::net::host::lapses_after;
    const DAY: Duration = Duration::from_secs(24 * 3600);
    assert_eq!(lapses_after(Some(&ClockRule::live(30, 10)), false), DAY);
    assert_eq!(lapses_after(Some(&ClockRule::turns(2, 5)), false), 14 * DAY);
    assert_eq!(lapses_after(None, false), 30 * DAY);
    assert_eq!(lapses_after(Some(&ClockRule::live(30, 10)), true), 7 * DAY);
    let (ms, now) = test_time(1_800_000_000_000);
    runtime().block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("ws://{}", listener.local_addr().unwrap());
        // The sweep runs every 100 ms (an eighth of the time an unstarted table waits).
        let limits =
            grognard::net::limits::Limits { unstarted_expiry: Duration::from_millis(800), ..Default::default() };
        let h = Host::with_limits(botn(), limits);
        h.set_time(now);
        tokio::spawn(serve(listener, h));
        let mut kept = Vec::new();
        for (name, clock) in [("live", Some("live:30+10")), ("days", Some("days:2+5")), ("none", None)] {
            let url = format!("{base}/{name}");
            let mut a = Client::sit(&url, &Sit { clock: clock.map(str::to_string), ..sit(0, None) }).await.unwrap();
            welcome(&mut a).await.unwrap();
            let mut b = Client::sit(&url, &sit(1, None)).await.unwrap();
            welcome(&mut b).await.unwrap();
            next_update(&mut a).await;
            next_update(&mut b).await;
            kept.push((a, b));
        }
        let names = || async {
            tokio::time::sleep(Duration::from_millis(400)).await;
            Client::list(&base).await.unwrap().into_iter().map(|t| t.name).collect::<Vec<_>>()
        };
        assert_eq!(names().await, ["days", "live", "none"]);
        let step = |d: Duration| ms.fetch_add(d.as_millis() as u64, std::sync::atomic::Ordering::SeqCst);
        step(DAY - Duration::from_secs(60));
        assert_eq!(names().await, ["days", "live", "none"], "a day less a minute: all there");
        step(Duration::from_secs(120));
        assert_eq!(names().await, ["days", "none"]);
        let told = common::next_refusal(&mut kept[0].0).await;
        assert!(told.contains("lapsed: without a move for a day"), "{told}");
        step(13 * DAY);
        assert_eq!(names().await, ["none"]);
        step(16 * DAY);
        assert_eq!(names().await, Vec::<String>::new());
    });
}
