//! Spectators through NATS (issue 33): a host puts its public table's delayed stream on a
//! nats-server the test starts on loopback; two edges serve the spectators from it. Every
//! spectator, whichever edge it came through and whenever it came, sees exactly what the host's
//! own spectators see, the whole log once, and the finished save; the chat reaches the spectators
//! of the other edge; nothing of a seat's own goes on the bus. Meanwhile the seats' latency at the
//! host is measured.
//!
//! `GROGNARD_EDGE_SPECTATORS=2000` puts that many spectators on the table (40 by default) and
//! prints the figures the README gives.

mod common;
use common::services::{Killing, Nats};
use futures_util::StreamExt;
use grognard::net::bus::OnBus;
use grognard::net::client::Client;
use grognard::net::proto::ToSeat;
use grognard::net::sim::pick;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

fn scenario() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-of-the-nations/beginner.ron")
}

/// What a spectator saw: the view at each index, the log's action indices (each once), the chat,
/// the finished save.
#[derive(Default)]
struct Watched {
    views: BTreeMap<u64, serde_json::Value>,
    logged: Vec<u64>,
    chat: Vec<String>,
    save: Option<String>,
    commitment: Option<String>,
}

/// A spectator at `url` until the game's save comes (and, with `say`, one line of chat once it
/// has seen the game start).
async fn spectator(url: String, say: Option<String>, hear: bool, welcomed: Arc<AtomicUsize>) -> Watched {
    let mut c = Client::join(&url, None, None).await.unwrap_or_else(|e| panic!("{url}: {e}"));
    let mut w = Watched::default();
    let mut said = false;
    while let Some(m) = c.recv().await {
        match m {
            ToSeat::Welcome { commitment, .. } => {
                w.commitment = Some(commitment);
                welcomed.fetch_add(1, Ordering::Relaxed);
            }
            ToSeat::Update(u) => {
                assert!(u.legal.is_empty(), "a spectator is offered nothing");
                w.logged.extend(u.log.iter().map(|l| l.index));
                w.views.insert(u.index, u.view);
                if let Some(text) = say.as_ref().filter(|_| !said && u.index > 0) {
                    c.chat(text).await.unwrap();
                    said = true;
                }
            }
            ToSeat::Chat { text, .. } => w.chat.push(text),
            ToSeat::Finished { save } => {
                w.save = Some(save);
                if !hear || !w.chat.is_empty() {
                    return w;
                }
            }
            ToSeat::Refused { message, .. } => panic!("{url}: {message}"),
            _ => {}
        }
        if hear && w.save.is_some() && !w.chat.is_empty() {
            return w;
        }
    }
    panic!("{url}: closed before the game's end");
}

#[test]
fn spectators_through_two_edges_see_what_the_host_shows_and_nothing_else() {
    grognard::net::limits::raise_open_file_limit();
    let many: usize = std::env::var("GROGNARD_EDGE_SPECTATORS").ok().and_then(|n| n.parse().ok()).unwrap_or(40);
    let nats = Nats::start();
    let file = scenario();
    let (host, at) =
        common::grognard_host(&["--port", "0", "--delay-actions", "2", "--nats", &nats.url(), file.to_str().unwrap()]);
    let host_url = format!("ws://{at}");
    let (edge_a, a) = common::grognard_edge(&nats.url());
    let (edge_b, b) = common::grognard_edge(&nats.url());
    let servers = Killing(vec![Some(host), Some(edge_a), Some(edge_b)]);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (seats, mut latencies, watched, direct, bus) = runtime.block_on(async {
        // Everything on the bus, read raw.
        let raw = async_nats::connect(nats.url()).await.unwrap();
        let mut everything = raw.subscribe("grognard.>").await.unwrap();
        let bus = tokio::spawn(async move {
            let mut seen = Vec::new();
            while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(5), everything.next()).await {
                seen.push((m.subject.to_string(), m.payload.to_vec()));
            }
            seen
        });
        let table = "final";
        let mut seat0 = Client::join(&format!("{host_url}/{table}"), Some(0), Some([1; 32])).await.unwrap();
        // The host's own spectator, and the edges' (half on each, on a thread of their own: the
        // crowd's work does not hold up the seats' clients), all in before the game starts.
        let welcomed = Arc::new(AtomicUsize::new(0));
        let direct = tokio::spawn(spectator(format!("{host_url}/{table}"), None, false, welcomed.clone()));
        let crowd = {
            let (a, b, welcomed) = (a.clone(), b.clone(), welcomed.clone());
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
                runtime.block_on(async {
                    let mut watchers = Vec::new();
                    for k in 0..many {
                        let edge = if k % 2 == 0 { &a } else { &b };
                        let say = (k == 0).then(|| "hello from edge a".to_string());
                        let url = format!("{edge}/{table}");
                        watchers.push(tokio::spawn(spectator(url, say, k == 1, welcomed.clone())));
                    }
                    let mut watched = Vec::new();
                    for w in watchers {
                        let w = tokio::time::timeout(Duration::from_secs(300), w).await;
                        watched.push(w.expect("every spectator finishes").unwrap());
                    }
                    watched
                })
            })
        };
        let started = Instant::now();
        while welcomed.load(Ordering::Relaxed) < many + 1 {
            assert!(started.elapsed() < Duration::from_secs(120), "the spectators were welcomed");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let mut seat1 = Client::join(&format!("{host_url}/{table}"), Some(1), Some([2; 32])).await.unwrap();
        let mut latencies = Vec::new();
        let mut late = None;
        let mut saves = Vec::new();
        let mut sent: Option<(Instant, u64)> = None;
        'game: loop {
            for (me, c) in [(0u8, &mut seat0), (1u8, &mut seat1)] {
                while let Ok(Some(m)) = tokio::time::timeout(Duration::from_millis(1), c.recv()).await {
                    match m {
                        ToSeat::Update(u) => {
                            if let Some((at, index)) = sent.filter(|(_, i)| u.index > *i) {
                                latencies.push(at.elapsed());
                                let _ = index;
                                sent = None;
                            }
                            // A spectator who comes late, half-way through, to edge b.
                            if u.index >= 20 && late.is_none() {
                                let url = format!("{b}/{table}");
                                late = Some(tokio::spawn(spectator(url, None, false, welcomed.clone())));
                            }
                            if u.active == Some(me) && !u.over {
                                let k = pick(7, me, u.index, u.legal.len());
                                sent = Some((Instant::now(), u.index));
                                c.submit(u.index, u.legal[k].clone()).await.unwrap();
                            }
                        }
                        ToSeat::Finished { save } => {
                            saves.push(save);
                            if saves.len() == 2 {
                                break 'game;
                            }
                        }
                        ToSeat::Refused { message, .. } => panic!("seat {me}: {message}"),
                        _ => {}
                    }
                }
            }
        }
        let mut watched = tokio::task::spawn_blocking(move || crowd.join().unwrap()).await.unwrap();
        watched.push(late.expect("a spectator came late").await.unwrap());
        let direct = direct.await.unwrap();
        (saves, latencies, watched, direct, bus.await.unwrap())
    });
    drop(servers);
    assert_eq!(seats[0], seats[1]);
    let length = *direct.views.keys().max().unwrap();
    assert!(length > 20, "a whole game ({length} actions)");
    for (k, w) in watched.iter().enumerate() {
        assert_eq!(w.save.as_ref(), Some(&seats[0]), "spectator {k}: the finished save");
        assert_eq!(w.commitment, direct.commitment, "spectator {k}: the host's commitment");
        // The whole log, each action's lines once, in order.
        let mut actions: Vec<u64> = w.logged.clone();
        actions.dedup();
        assert_eq!(actions, (0..length).collect::<Vec<u64>>(), "spectator {k}: every action once, in order");
        // The same view as the host's own spectator at every index both saw.
        for (index, view) in &w.views {
            if let Some(v) = direct.views.get(index) {
                assert_eq!(v, view, "spectator {k}: the view after action {index}");
            }
        }
        assert_eq!(w.views.get(&length), direct.views.get(&length), "spectator {k}: the final view");
    }
    // The chat said through edge a reached a spectator of edge b.
    assert_eq!(watched[1].chat, vec!["hello from edge a".to_string()]);
    // On the bus: the tables' spectator streams, the catch-up questions and answers, the chat;
    // never a seat's frame (a legal action offered), never ahead of the host's delay.
    let subjects: BTreeSet<String> =
        bus.iter().map(|(s, _)| s.split('.').take(2).collect::<Vec<_>>().join(".")).collect();
    for s in &subjects {
        assert!(
            ["grognard.table", "grognard.catchup", "grognard.chat", "_INBOX"].iter().any(|k| s.starts_with(k)),
            "{s}"
        );
    }
    let mut published = 0;
    for (subject, payload) in &bus {
        if subject.starts_with("grognard.table.") {
            published += 1;
            if let OnBus::Update { update, .. } = serde_json::from_slice::<OnBus>(payload).unwrap() {
                assert!(update.legal.is_empty());
                assert!(
                    direct.views.get(&update.index).is_none_or(|v| *v == update.view),
                    "the host's spectators' view"
                );
            }
        }
    }
    assert!(published >= length as usize / 2, "the stream went on the bus ({published} messages)");
    latencies.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    eprintln!(
        "{} spectators through 2 edges (and 1 at the host), {length} actions: every spectator saw the game whole; \
         the seats' latency at the host: median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        watched.len(),
        ms(latencies[latencies.len() / 2]),
        ms(latencies[latencies.len() * 99 / 100]),
        ms(*latencies.last().unwrap()),
    );
}
