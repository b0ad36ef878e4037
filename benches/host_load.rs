//! The host under load (issue 13, issue 30), `grognard host` in its own process:
//! - continuous: 200 tables of Battle of the Nations kept going for a fixed time by random
//!   players, each seat on its own connection (a finished table replaced by a new one): actions
//!   per second, the latency from one seat's submit to the other seat's update (median, 99th
//!   percentile), the host's memory per table;
//! - at once: `grognard simulate --via --at-once` over 1,000 tables at the same time: errors,
//!   actions per second, each action's round trip, the host's peak memory and CPU;
//! - flood: a quiet table's round trips alone, while one connection floods the host with refused
//!   actions, and while 20 other tables play as fast as they can.
//!
//! `cargo bench --no-default-features --bench host_load` (GROGNARD_LOAD_TABLES, _SECONDS,
//! _AT_ONCE to change; GROGNARD_LOAD_PART=continuous, at-once or flood for one part).

#[path = "../tests/common/mod.rs"]
mod common;

use grognard::net::chain;
use grognard::net::client::Client;
use grognard::net::proto::{ToHost, ToSeat};
use grognard::net::sim::{pick, play_table, random_seat};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap_or("VmRSS: 0 kB");
    line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// When each (table, index) action was submitted, and the latencies measured.
#[derive(Default)]
struct Clock {
    submitted: HashMap<(String, u64), Instant>,
    latencies: Vec<Duration>,
    actions: u64,
}

async fn seat(url: String, table: String, me: u8, seed: u64, clock: Arc<Mutex<Clock>>, until: Instant) -> bool {
    let value = chain::hash_parts(&[table.as_bytes(), &[me]]);
    let Ok(mut c) = Client::join(&url, Some(me), Some(value)).await else { return false };
    // At the end of the run every seat stops, whatever it was waiting for.
    while let Ok(Some(m)) = tokio::time::timeout_at(until.into(), c.recv()).await {
        match m {
            ToSeat::Update(u) => {
                {
                    let mut k = clock.lock().unwrap();
                    if u.index > 0
                        && let Some(t) = k.submitted.remove(&(table.clone(), u.index - 1))
                    {
                        k.latencies.push(t.elapsed());
                    }
                }
                if Instant::now() >= until {
                    return false;
                }
                if u.active == Some(me) && !u.over {
                    let i = pick(seed, me, u.index, u.legal.len());
                    clock.lock().unwrap().submitted.insert((table.clone(), u.index), Instant::now());
                    clock.lock().unwrap().actions += 1;
                    if c.submit(u.index, u.legal[i].clone()).await.is_err() {
                        return false;
                    }
                }
            }
            ToSeat::Finished { .. } => return true,
            ToSeat::Refused { message, .. } => panic!("{table}: {message}"),
            _ => {}
        }
    }
    false
}

/// Keeps one table slot busy until `until`: a game, then the next.
async fn slot(base: String, n: usize, clock: Arc<Mutex<Clock>>, until: Instant) -> u64 {
    let mut games = 0;
    while Instant::now() < until {
        let table = format!("load-{n}-{games}");
        let url = format!("{base}/{table}");
        let a = tokio::spawn(seat(url.clone(), table.clone(), 0, n as u64, clock.clone(), until));
        tokio::time::sleep(Duration::from_millis(5)).await;
        let b = tokio::spawn(seat(url, table, 1, n as u64, clock.clone(), until));
        let (a, b) = (a.await.unwrap(), b.await.unwrap());
        games += (a && b) as u64;
    }
    games
}

fn main() {
    let part = std::env::var("GROGNARD_LOAD_PART").unwrap_or_default();
    if part.is_empty() || part == "continuous" {
        continuous();
    }
    if part.is_empty() || part == "at-once" {
        at_once();
    }
    if part.is_empty() || part == "flood" {
        flood();
    }
}

fn scenario() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-of-the-nations/beginner.ron")
}

/// `grognard host`'s arguments for a load from one address: every table opened from loopback,
/// many at once.
fn many_tables() -> [std::ffi::OsString; 9] {
    [
        "--port".into(),
        "0".into(),
        "--unstarted-per-address".into(),
        "10000".into(),
        "--tables-per-address".into(),
        "10000".into(),
        "--connections-per-address".into(),
        "100000".into(),
        scenario().into_os_string(),
    ]
}

/// The host's CPU time so far (user and system), in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |r| r.1);
    let f: Vec<f64> = rest.split_whitespace().map(|x| x.parse().unwrap_or(0.0)).collect();
    (f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0)) / 100.0
}

/// `simulate --via --at-once N` over N tables at once.
fn at_once() {
    let n = env("GROGNARD_LOAD_AT_ONCE", 1000);
    let args = [
        "--port".into(),
        "0".into(),
        "--unstarted-per-address".into(),
        n.to_string().into(),
        "--tables-per-address".into(),
        n.to_string().into(),
        "--connections-per-address".into(),
        "100000".into(),
        scenario().into_os_string(),
    ];
    let (mut host, at) = common::grognard_host(&args);
    let idle = rss_kib(host.id());
    let cpu0 = cpu_seconds(host.id());
    let mut sim = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["simulate", "--via", &format!("ws://{at}"), "--games", &n.to_string(), "--at-once", &n.to_string()])
        .arg(scenario())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut peak = idle;
    while sim.try_wait().unwrap().is_none() {
        peak = peak.max(rss_kib(host.id()));
        std::thread::sleep(Duration::from_millis(250));
    }
    let out = sim.wait_with_output().unwrap();
    let cpu = cpu_seconds(host.id()) - cpu0;
    let held = rss_kib(host.id());
    host.kill().unwrap();
    host.wait().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let summary: serde_json::Value = serde_json::from_str(text.lines().last().unwrap_or("{}")).unwrap_or_default();
    let seconds = summary["seconds"].as_f64().unwrap_or(0.0);
    println!(
        "at once: {n} tables of Battle of the Nations through `simulate --via --at-once {n}`: {} errors, {} actions in {seconds:.1} s ({:.0} actions/s)",
        summary["errors"],
        summary["actions"],
        summary["actions_per_second"].as_f64().unwrap_or(0.0)
    );
    println!(
        "a seat's submit → its own update: median {:.1} ms, p99 {:.1} ms",
        summary["round_trip_ms"]["p50"].as_f64().unwrap_or(0.0),
        summary["round_trip_ms"]["p99"].as_f64().unwrap_or(0.0)
    );
    println!(
        "host: {:.1} s of CPU ({:.2} cores); memory {idle} KiB idle, {peak} KiB peak, {held} KiB holding the {n} finished tables",
        cpu,
        cpu / seconds.max(1e-9)
    );
}

/// A quiet table's round trips: `games` games played one after another on public tables.
async fn quiet_round_trips(base: &str, name: &str, games: u64) -> Vec<Duration> {
    let mut out = Vec::new();
    for g in 0..games {
        let url = format!("{base}/{name}-{g}");
        let a = Client::join(&url, Some(0), Some([1; 32])).await.unwrap();
        let b = Client::join(&url, Some(1), Some([2; 32])).await.unwrap();
        let (a, b) = tokio::join!(random_seat(a, 0, g), random_seat(b, 1, g));
        out.extend(a.unwrap().latencies);
        out.extend(b.unwrap().latencies);
    }
    out.sort();
    out
}

fn quantiles(d: &[Duration]) -> String {
    let at = |q: f64| d.get(((d.len() as f64 - 1.0) * q) as usize).copied().unwrap_or_default().as_secs_f64() * 1e3;
    format!("median {:.2} ms, p99 {:.2} ms ({} actions)", at(0.5), at(0.99), d.len())
}

/// One connection sending refused actions as fast as it can write (and reading what it is sent,
/// so that it is not closed for falling behind): how many it sent and how many refusals came back.
async fn refused_flood(url: String, stop: Arc<std::sync::atomic::AtomicBool>) -> (u64, u64) {
    use futures_util::{SinkExt, StreamExt};
    use std::sync::atomic::Ordering;
    use tokio_tungstenite::tungstenite::Message;
    let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let (mut sink, mut stream) = ws.split();
    let join = ToHost::Join {
        seat: Some(0),
        token: Some(chain::to_hex(&[7; 32])),
        since: 0,
        code: None,
        public: true,
        scenario: None,
        notify: None,
        clock: None,
    };
    sink.send(Message::text(serde_json::to_string(&join).unwrap())).await.unwrap();
    let refusals = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let counted = refusals.clone();
    let reader = tokio::spawn(async move {
        while let Some(Ok(m)) = stream.next().await {
            if let Message::Text(t) = m
                && t.contains("Refused")
            {
                counted.fetch_add(1, Ordering::Relaxed);
            }
        }
    });
    let mut seq = 0;
    while !stop.load(Ordering::Relaxed) {
        seq += 1;
        let submit = ToHost::Submit { seq, at: 0, action: serde_json::json!("Pass") };
        if sink.send(Message::text(serde_json::to_string(&submit).unwrap())).await.is_err() {
            break;
        }
        // A write that finds room never waits: let the quiet table's seats run on this thread.
        tokio::task::yield_now().await;
    }
    // The host reads a flooding connection at its allowance's pace: what it has not read yet
    // is dropped with the connection.
    reader.abort();
    (seq, refusals.load(Ordering::Relaxed))
}

/// A quiet table alone, beside a flood of refused actions, and beside 20 tables played as fast as
/// they go.
fn flood() {
    let (mut host, at) = common::grognard_host(&many_tables());
    let base = format!("ws://{at}");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let alone = quiet_round_trips(&base, "alone", 10).await;
        println!("flood: a quiet table alone: {}", quantiles(&alone));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flooder = tokio::spawn(refused_flood(format!("{base}/flood"), stop.clone()));
        let beside = quiet_round_trips(&base, "beside-refusals", 10).await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let (sent, refused) = flooder.await.unwrap();
        println!(
            "flood: the same beside a connection sending refused actions as fast as it can ({sent} written, {refused} refused: the host reads it at its allowance's pace): {}",
            quantiles(&beside)
        );
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let busy: Vec<_> = (0..20)
            .map(|n| {
                let (base, stop) = (base.clone(), stop.clone());
                tokio::spawn(async move {
                    let mut actions = 0;
                    let mut g = 0;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        let played = play_table(&format!("{base}/busy-{n}-{g}"), "battle-of-the-nations/beginner", g).await.unwrap();
                        actions += played.index;
                        g += 1;
                    }
                    actions
                })
            })
            .collect();
        let start = Instant::now();
        let beside = quiet_round_trips(&base, "beside-busy", 10).await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut actions = 0;
        for b in busy {
            actions += b.await.unwrap();
        }
        println!(
            "flood: the same beside 20 tables played as fast as they go ({:.0} actions/s among them): {}",
            actions as f64 / start.elapsed().as_secs_f64(),
            quantiles(&beside)
        );
    });
    host.kill().unwrap();
    host.wait().unwrap();
}

/// The continuous run.
fn continuous() {
    let tables = env("GROGNARD_LOAD_TABLES", 200) as usize;
    let seconds = env("GROGNARD_LOAD_SECONDS", 20);
    let (mut host, at) = common::grognard_host(&many_tables());
    let base = format!("ws://{at}");
    let idle = rss_kib(host.id());
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let clock = Arc::new(Mutex::new(Clock::default()));
    let start = Instant::now();
    let until = start + Duration::from_secs(seconds);
    let mut peak = idle;
    let games: u64 = runtime.block_on(async {
        let slots: Vec<_> = (0..tables).map(|n| tokio::spawn(slot(base.clone(), n, clock.clone(), until))).collect();
        while Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(500)).await;
            peak = peak.max(rss_kib(host.id()));
        }
        let mut games = 0;
        for s in slots {
            games += s.await.unwrap();
        }
        games
    });
    let elapsed = start.elapsed().as_secs_f64();
    let listed = runtime.block_on(Client::list(&base)).unwrap_or_default().len();
    let held = rss_kib(host.id());
    host.kill().unwrap();
    host.wait().unwrap();
    let mut k = clock.lock().unwrap();
    k.latencies.sort();
    let at = |q: f64| k.latencies.get(((k.latencies.len() as f64 - 1.0) * q) as usize).copied().unwrap_or_default();
    println!(
        "host load: {tables} tables of Battle of the Nations, random players, {elapsed:.1} s: {} actions ({:.0} actions/s), {games} games finished",
        k.actions,
        k.actions as f64 / elapsed
    );
    println!(
        "submit → other seat's update: median {:.2} ms, p99 {:.2} ms ({} samples)",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        k.latencies.len()
    );
    println!(
        "host memory: {} KiB idle, {} KiB peak, {} KiB holding {listed} tables: {:.0} KiB per table",
        idle,
        peak,
        held,
        (held.saturating_sub(idle)) as f64 / listed.max(1) as f64
    );
}
