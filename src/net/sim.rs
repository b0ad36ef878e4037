//! `grognard simulate --via`: whole games played through a host, each seat on its own connection
//! choosing random legal actions from what the host sends it; the finished saves written and
//! verified. The seats' choices are a function of the seed and the log index only, so a game
//! interrupted by a host's restart goes on as it would have gone.

use super::chain;
use super::client::{Client, Sit};
use super::proto::ToSeat;
use crate::engine::rng::TableRng;
use std::path::Path;

/// A seat's random choice among `n` legal actions at log index `index`.
pub fn pick(seed: u64, seat: u8, index: u64, n: usize) -> usize {
    let h = chain::hash_parts(&[&seed.to_le_bytes(), &[seat], &index.to_le_bytes()]);
    TableRng::from_seed(u64::from_le_bytes(h[..8].try_into().expect("8 bytes"))).below(n)
}

/// What a seat that played to the end saw: its actions, the game's length, the finished save and
/// how long each of its actions took to come back as an update.
pub struct Played {
    pub acted: u64,
    pub index: u64,
    pub save: String,
    pub latencies: Vec<std::time::Duration>,
}

/// Plays `me`'s random legal actions on `c` until the host sends the finished save.
pub async fn random_seat(mut c: Client, me: u8, seed: u64) -> Result<Played, String> {
    let mut acted = 0;
    let mut index = 0;
    let mut latencies = Vec::new();
    let mut sent: Option<(u64, std::time::Instant)> = None;
    while let Some(m) = c.recv().await {
        match m {
            ToSeat::Update(u) => {
                index = u.index;
                if let Some((_, when)) = sent.take_if(|(at, _)| u.index > *at) {
                    latencies.push(when.elapsed());
                }
                if u.active == Some(me) && !u.over {
                    if u.legal.is_empty() {
                        return Err(format!("seat {me}: its decision, but no legal action was sent"));
                    }
                    let k = pick(seed, me, u.index, u.legal.len());
                    sent = Some((u.index, std::time::Instant::now()));
                    c.submit(u.index, u.legal[k].clone()).await?;
                    acted += 1;
                }
            }
            ToSeat::Finished { save } => {
                c.check_save(Some(me), &save).map_err(|e| format!("seat {me}: {e}"))?;
                return Ok(Played { acted, index, save, latencies });
            }
            ToSeat::Refused { message, .. } => return Err(format!("seat {me}: refused: {message}")),
            _ => {}
        }
    }
    Err(format!("seat {me}: the host closed the connection before the end"))
}

/// Opens table `url` as a private table and sits every seat at it with its invitation code (the
/// seats' tokens and values from the seed), plays the game out, and checks each seat's finished
/// save against the commitment its welcome brought and the value it sent.
pub async fn play_table(url: &str, scenario: &str, seed: u64) -> Result<Played, String> {
    let part = |what: &[u8], k: u8| chain::hash_parts(&[what, &seed.to_le_bytes(), &[k]]);
    let sit = |k: u8, code: Option<String>| Sit {
        seat: Some(k),
        token: Some(part(b"simulate token", k)),
        value: Some(part(b"simulate", k)),
        code,
        scenario: Some(scenario.to_string()),
        ..Sit::default()
    };
    let mut first = Client::sit(url, &sit(0, None)).await.map_err(|e| format!("{url}: {e}"))?;
    let (seats, invitations) = match first.recv().await {
        Some(ToSeat::Welcome { seats, invitations, .. }) => (seats.len() as u8, invitations),
        _ => return Err(format!("{url}: the host sent no welcome")),
    };
    let invitations = invitations.ok_or_else(|| format!("{url}: a private table's opener was given no codes"))?;
    let mut seated = vec![first];
    for k in 1..seats {
        let code = invitations.seats.get(k as usize).cloned();
        seated.push(Client::sit(url, &sit(k, code)).await.map_err(|e| format!("{url}: {e}"))?);
    }
    let tasks: Vec<_> = seated.into_iter().zip(0..).map(|(c, k)| tokio::spawn(random_seat(c, k, seed))).collect();
    let mut out: Option<Played> = None;
    for t in tasks {
        let played = t.await.map_err(|e| e.to_string())??;
        match &mut out {
            None => out = Some(played),
            Some(o) => o.latencies.extend(played.latencies),
        }
    }
    Ok(out.expect("at least one seat"))
}

/// The command: `games` games of `scenario` (as the host names it) at `host` (ws://HOST:PORT or
/// wss://), `at_once` of them at a time,
/// a JSON line each and a summary: actions per second, each action's round trip (a seat's submit
/// to its own update: median and 99th percentile) and the games that failed, each named.
pub fn simulate_via(host: &str, scenario: &str, games: u64, seed: u64, save_dir: Option<&Path>, at_once: usize) -> i32 {
    // Two connections a table: as many as the system allows.
    crate::net::limits::raise_open_file_limit();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let start = std::time::Instant::now();
    // Table names of their own, so a second run never walks into a host's earlier tables.
    let run = chain::to_hex(&chain::hash_parts(&[
        &seed.to_le_bytes(),
        format!("{:?}", std::time::SystemTime::now()).as_bytes(),
    ]));
    let tables: Vec<String> = (0..games).map(|g| format!("sim-{seed}-{g}-{}", &run[..8])).collect();
    let results = runtime.block_on(async {
        let gate = std::sync::Arc::new(tokio::sync::Semaphore::new(at_once.max(1)));
        let mut running = Vec::new();
        for (g, table) in tables.iter().enumerate() {
            let permit = gate.clone().acquire_owned().await.expect("never closed");
            let url = format!("{}/{table}", host.trim_end_matches('/'));
            let game_seed = seed.wrapping_add(g as u64);
            let scenario = scenario.to_string();
            running.push(tokio::spawn(async move {
                let played = play_table(&url, &scenario, game_seed).await;
                drop(permit);
                played
            }));
        }
        let mut out = Vec::new();
        for r in running {
            out.push(r.await.unwrap_or_else(|e| Err(e.to_string())));
        }
        out
    });
    let seconds = start.elapsed().as_secs_f64();
    let (mut actions, mut errors, mut latencies) = (0, 0u64, Vec::new());
    for (g, (table, played)) in tables.iter().zip(results).enumerate() {
        let played = match played {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{table}: {e}");
                errors += 1;
                continue;
            }
        };
        actions += played.index;
        latencies.extend(played.latencies);
        let mut line = serde_json::json!({ "game": g, "table": table, "actions": played.index });
        if let Some(dir) = save_dir {
            let path = dir.join(format!("{table}.save.ron"));
            if let Err(e) = std::fs::create_dir_all(dir).and_then(|_| std::fs::write(&path, &played.save)) {
                eprintln!("{}: {e}", path.display());
                return 1;
            }
            match crate::registry::open(&path).and_then(|(game, _)| game.verify(&path)) {
                Ok(v) => line["verified"] = serde_json::Value::String(v),
                Err(e) => {
                    eprintln!("{e}");
                    errors += 1;
                }
            }
            line["save"] = serde_json::Value::String(path.display().to_string());
        }
        println!("{line}");
    }
    latencies.sort();
    let ms = |q: f64| {
        latencies.get(((latencies.len() as f64 - 1.0) * q).round() as usize).map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    println!(
        "{}",
        serde_json::json!({
            "games": games,
            "at_once": at_once,
            "actions": actions,
            "seconds": seconds,
            "actions_per_second": actions as f64 / seconds.max(1e-9),
            "round_trip_ms": { "p50": ms(0.5), "p99": ms(0.99) },
            "errors": errors,
        })
    );
    i32::from(errors > 0)
}
