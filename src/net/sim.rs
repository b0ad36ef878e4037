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

/// What a seat that played to the end saw: its actions, the game's length and the finished save.
pub struct Played {
    pub acted: u64,
    pub index: u64,
    pub save: String,
}

/// Plays `me`'s random legal actions on `c` until the host sends the finished save.
pub async fn random_seat(mut c: Client, me: u8, seed: u64) -> Result<Played, String> {
    let mut acted = 0;
    let mut index = 0;
    while let Some(m) = c.recv().await {
        match m {
            ToSeat::Update(u) => {
                index = u.index;
                if u.active == Some(me) && !u.over {
                    if u.legal.is_empty() {
                        return Err(format!("seat {me}: its decision, but no legal action was sent"));
                    }
                    let k = pick(seed, me, u.index, u.legal.len());
                    c.submit(u.index, u.legal[k].clone()).await?;
                    acted += 1;
                }
            }
            ToSeat::Finished { save } => {
                c.check_save(Some(me), &save).map_err(|e| format!("seat {me}: {e}"))?;
                return Ok(Played { acted, index, save });
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
pub async fn play_table(url: &str, seed: u64) -> Result<Played, String> {
    let part = |what: &[u8], k: u8| chain::hash_parts(&[what, &seed.to_le_bytes(), &[k]]);
    let sit = |k: u8, code: Option<String>| Sit {
        seat: Some(k),
        token: Some(part(b"simulate token", k)),
        value: Some(part(b"simulate", k)),
        code,
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
    let mut out = None;
    for t in tasks {
        let played = t.await.map_err(|e| e.to_string())??;
        out.get_or_insert(played);
    }
    Ok(out.expect("at least one seat"))
}

/// The command: `games` games at `host` (ws://HOST:PORT), a JSON line each and a summary.
pub fn simulate_via(host: &str, games: u64, seed: u64, save_dir: Option<&Path>) -> i32 {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let start = std::time::Instant::now();
    // Table names of their own, so a second run never walks into a host's earlier tables.
    let run = chain::to_hex(&chain::hash_parts(&[
        &seed.to_le_bytes(),
        format!("{:?}", std::time::SystemTime::now()).as_bytes(),
    ]));
    let mut actions = 0;
    for g in 0..games {
        let table = format!("sim-{seed}-{g}-{}", &run[..8]);
        let url = format!("{}/{table}", host.trim_end_matches('/'));
        let played = match runtime.block_on(play_table(&url, seed.wrapping_add(g))) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                return 1;
            }
        };
        actions += played.index;
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
                    return 1;
                }
            }
            line["save"] = serde_json::Value::String(path.display().to_string());
        }
        println!("{line}");
    }
    let seconds = start.elapsed().as_secs_f64();
    println!("{}", serde_json::json!({ "games": games, "actions": actions, "seconds": seconds }));
    0
}
