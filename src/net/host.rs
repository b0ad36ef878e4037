//! The host: keeps every table (its state, its log as a chain, its dice secret), checks each
//! submitted action with the rules and sends each connection only what its seat may see — its
//! observation, and the legal actions when the decision is its own. Connections are WebSocket
//! (tokio-tungstenite) at `ws://HOST:PORT/TABLE`; a table is opened by the first connection to
//! its name and starts once every seat has joined with its value for the dice.

use super::chain::{self, Hash};
use super::fair;
use super::hosted::FairRecord;
use super::play::{HostedGame, Refusal, host_refusal};
use super::proto::{ToHost, ToSeat};
use crate::engine::seats::{SeatId, Viewer};
use futures_util::{SinkExt, StreamExt};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// The largest frame a connection may send (an action is a few hundred bytes).
pub const MAX_FRAME: usize = 64 * 1024;

/// Makes a table once every seat has sent its value: (table id, secret, values in seat order).
pub type MakeTable = Arc<dyn Fn(&str, Hash, Vec<Hash>) -> Result<Box<dyn HostedGame>, String> + Send + Sync>;

/// What `grognard host` needs for a game's scenario: the seats' names and its `MakeTable`, from
/// the game's own way of setting a table up on a scenario file with a seed.
pub fn tables_of<G: crate::engine::rules::Game>(
    scenario: &std::path::Path,
    load: impl Fn(&std::path::Path, u64) -> Result<crate::engine::table::Table<G>, String> + Send + Sync + 'static,
) -> Result<(Vec<String>, MakeTable), String> {
    let first = load(scenario, 0)?;
    let seats = first.game.seat_names().iter().map(|s| s.to_string()).collect();
    let p = scenario.to_path_buf();
    let make: MakeTable = Arc::new(move |id, secret, values| {
        let table = |seed| load(&p, seed).expect("it loaded when the host started");
        Ok(Box::new(super::hosted::Hosted::start(id, secret, values, table)) as Box<dyn HostedGame>)
    });
    Ok((seats, make))
}

struct Conn {
    seat: Option<u8>,
    tx: mpsc::UnboundedSender<ToSeat>,
}

struct HostTable {
    secret: Hash,
    commitment: Hash,
    values: Vec<Option<Hash>>,
    game: Option<Box<dyn HostedGame>>,
    conns: Vec<Conn>,
}

/// Every table of one host, for one game and scenario.
pub struct Host {
    seats: Vec<String>,
    make: MakeTable,
    tables: Mutex<HashMap<String, HostTable>>,
}

/// What a connection has done so far: the seat it joined (`Some(None)`: watching) and its last
/// action's number.
#[derive(Default)]
struct Session {
    joined: Option<Option<u8>>,
    seq: u64,
}

fn refused(seq: Option<u64>, r: Refusal) -> ToSeat {
    ToSeat::Refused { seq, rule: r.rule, message: r.message }
}

fn fresh_secret() -> Hash {
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).expect("the system's randomness");
    secret
}

impl Host {
    pub fn new(seats: Vec<String>, make: MakeTable) -> Arc<Host> {
        Arc::new(Host { seats, make, tables: Mutex::new(HashMap::new()) })
    }

    /// A finished or running table's record (the secret in it only once the game is over).
    pub fn record(&self, table: &str) -> Option<FairRecord> {
        self.tables.lock().expect("not poisoned").get(table)?.game.as_ref().map(|g| g.record())
    }

    pub fn digest(&self, table: &str) -> Option<String> {
        self.tables.lock().expect("not poisoned").get(table)?.game.as_ref().map(|g| g.digest())
    }

    fn join(
        &self,
        id: &str,
        seat: Option<u8>,
        value: Option<String>,
        tx: &mpsc::UnboundedSender<ToSeat>,
        s: &mut Session,
    ) {
        let mut tables = self.tables.lock().expect("not poisoned");
        let seats = self.seats.len();
        let t = tables.entry(id.to_string()).or_insert_with(|| {
            let secret = fresh_secret();
            HostTable {
                secret,
                commitment: fair::commitment(id, &secret),
                values: vec![None; seats],
                game: None,
                conns: Vec::new(),
            }
        });
        let refuse = |m: &str| {
            let _ = tx.send(refused(None, host_refusal(m)));
        };
        if s.joined.is_some() {
            return refuse("this connection has joined already");
        }
        if let Some(k) = seat {
            if k as usize >= seats {
                return refuse(&format!("there is no seat {k} (seats 0 to {})", seats - 1));
            }
            if t.conns.iter().any(|c| c.seat == Some(k)) {
                return refuse(&format!("seat {k} ({}) is taken", self.seats[k as usize]));
            }
            if t.values[k as usize].is_none() {
                let Some(v) = value.as_deref().and_then(chain::from_hex) else {
                    return refuse("a seat joins with its value for the dice: 64 hex digits");
                };
                t.values[k as usize] = Some(v);
            }
        }
        s.joined = Some(seat);
        t.conns.push(Conn { seat, tx: tx.clone() });
        let _ = tx.send(ToSeat::Welcome { seat, seats: self.seats.clone(), commitment: chain::to_hex(&t.commitment) });
        if t.game.is_none() && t.values.iter().all(Option::is_some) {
            let values = t.values.iter().map(|v| v.expect("all")).collect();
            match (self.make)(id, t.secret, values) {
                Ok(g) => t.game = Some(g),
                Err(e) => return refuse(&format!("the table could not be set up: {e}")),
            }
            broadcast(t);
        } else if let Some(g) = &t.game {
            let _ = tx.send(ToSeat::Update(g.update(viewer(seat))));
        }
    }

    fn submit(
        &self,
        id: &str,
        seq: u64,
        action: serde_json::Value,
        tx: &mpsc::UnboundedSender<ToSeat>,
        s: &mut Session,
    ) {
        let refuse = |m: &str| {
            let _ = tx.send(refused(Some(seq), host_refusal(m)));
        };
        let seat = match s.joined {
            None => return refuse("join a seat first"),
            Some(None) => return refuse("a spectator does not act"),
            Some(Some(k)) => k,
        };
        if seq != s.seq + 1 {
            return refuse(&format!("action number {seq} out of order: the next is {}", s.seq + 1));
        }
        let mut tables = self.tables.lock().expect("not poisoned");
        let Some(t) = tables.get_mut(id) else { return refuse("no such table") };
        let Some(g) = t.game.as_mut() else { return refuse("the table waits for every seat to join") };
        match g.submit_json(seat, &action) {
            Ok(()) => {
                s.seq = seq;
                broadcast(t);
            }
            Err(r) => {
                s.seq = seq;
                let _ = tx.send(refused(Some(seq), r));
            }
        }
    }

    fn leave(&self, id: &str, tx: &mpsc::UnboundedSender<ToSeat>) {
        if let Some(t) = self.tables.lock().expect("not poisoned").get_mut(id) {
            t.conns.retain(|c| !c.tx.same_channel(tx));
        }
    }
}

fn viewer(seat: Option<u8>) -> Viewer {
    seat.map_or(Viewer::Spectator, |k| Viewer::Seat(SeatId(k)))
}

/// Each connection of the table gets its own viewer's update.
fn broadcast(t: &HostTable) {
    let Some(g) = &t.game else { return };
    for c in &t.conns {
        let _ = c.tx.send(ToSeat::Update(g.update(viewer(c.seat))));
    }
}

/// Serves connections until the listener fails.
pub async fn serve(listener: TcpListener, host: Arc<Host>) {
    while let Ok((stream, _)) = listener.accept().await {
        let host = host.clone();
        tokio::spawn(async move { connection(stream, host).await });
    }
}

fn table_name(path: &str) -> Option<String> {
    let name = path.trim_start_matches('/');
    (!name.is_empty() && name.len() <= 64 && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
        .then(|| name.to_string())
}

async fn connection(stream: TcpStream, host: Arc<Host>) {
    let mut path = String::new();
    let config = WebSocketConfig::default().max_message_size(Some(MAX_FRAME)).max_frame_size(Some(MAX_FRAME));
    // The handshake's only business here is the address's path (the table's name); the
    // library's callback type fixes its error type.
    #[allow(clippy::result_large_err)]
    let callback = |req: &Request, resp: Response| {
        path = req.uri().path().to_string();
        Ok(resp)
    };
    let Ok(ws) = tokio_tungstenite::accept_hdr_async_with_config(stream, callback, Some(config)).await else { return };
    let (mut sink, mut incoming) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<ToSeat>();
    let writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            let text = serde_json::to_string(&m).expect("a message is plain data");
            if sink.send(Message::text(text)).await.is_err() {
                break;
            }
        }
    });
    let Some(id) = table_name(&path) else {
        let _ = tx.send(refused(
            None,
            host_refusal("the address names no table: ws://HOST:PORT/TABLE (letters, digits, - and _)"),
        ));
        drop(tx);
        let _ = writer.await;
        return;
    };
    let mut session = Session::default();
    while let Some(Ok(msg)) = incoming.next().await {
        let text = match msg {
            Message::Text(t) => t.to_string(),
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
            _ => {
                let _ = tx.send(refused(None, host_refusal("the host reads text frames of JSON")));
                continue;
            }
        };
        match serde_json::from_str::<ToHost>(&text) {
            Ok(ToHost::Join { seat, value }) => host.join(&id, seat, value, &tx, &mut session),
            Ok(ToHost::Submit { seq, action }) => host.submit(&id, seq, action, &tx, &mut session),
            Err(e) => {
                let _ = tx.send(refused(None, host_refusal(format!("not a message: {e}"))));
            }
        }
    }
    host.leave(&id, &tx);
    drop(tx);
    let _ = writer.await;
}
