//! A bounded load run of the host (issue 13): `grognard host` in its own process, and 200 tables
//! of Battle of the Nations kept going for a fixed time by random players, each seat on its own
//! connection (a finished table is replaced by a new one). Prints the actions per second, the
//! latency from one seat's submit to the other seat's update (median, 99th percentile) and the
//! host's memory per table.
//!
//! `cargo bench --no-default-features --bench host_load` (GROGNARD_LOAD_TABLES, _SECONDS to change).

#[path = "../tests/common/mod.rs"]
mod common;

use grognard::net::chain;
use grognard::net::client::Client;
use grognard::net::proto::ToSeat;
use grognard::net::sim::pick;
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
    let tables = env("GROGNARD_LOAD_TABLES", 200) as usize;
    let seconds = env("GROGNARD_LOAD_SECONDS", 20);
    let scenario =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-of-the-nations/beginner.ron");
    let (mut host, at) = common::grognard_host(&["--port".into(), "0".into(), scenario.into_os_string()]);
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
