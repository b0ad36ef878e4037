//! Spectators beyond one machine (issue 33): the host holding a public table publishes what its
//! spectators may see — the stream kept behind the players by the host's delay, and nothing of
//! any seat's own — on the NATS subject `grognard.table.TABLE`, and answers a request on
//! `grognard.catchup.TABLE` with everything so far, for an edge that starts watching the table
//! (core NATS keeps nothing: the table's host is the memory). Edges (`grognard edge`,
//! `net::edge`) serve the spectators from the bus, so that a thousand spectators never touch the
//! table's host. The dice secret never goes on the bus: the finished save carries it only once
//! the game is over, when every spectator is sent it anyway.

use super::proto::{Delay, Update};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tokio::sync::mpsc;

/// The subject of a table's public stream (the table's name follows).
pub const TABLE: &str = "grognard.table.";
/// The subject a newcomer asks a table's host for the stream so far on.
pub const CATCHUP: &str = "grognard.catchup.";
/// The subject of a table's spectators' chat, shared by every edge serving it.
pub const CHAT: &str = "grognard.chat.";
/// The most messages waiting to go on the bus; beyond, they are dropped and the edges, finding a
/// gap, ask for the stream again.
const QUEUE: usize = 65_536;

/// What a table's host publishes for its spectators.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum OnBus {
    /// What the spectators see next: the update from action `from` to `update.index`.
    Update { from: u64, update: Box<Update> },
    /// The game is over: its finished save.
    Finished { save: String },
}

/// What a spectator's welcome says of a table.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Head {
    pub seats: Vec<String>,
    pub commitment: String,
    pub scenario_hash: String,
    pub game: String,
    pub scenario: String,
    pub delay: Delay,
}

impl Head {
    /// The welcome of a connection at `seat` (none: a spectator), with a private table's codes
    /// for the seat that opened it.
    pub fn welcome(self, seat: Option<u8>, invitations: Option<super::proto::Invitations>) -> super::proto::ToSeat {
        super::proto::ToSeat::Welcome {
            seat,
            seats: self.seats,
            commitment: self.commitment,
            scenario_hash: self.scenario_hash,
            game: self.game,
            scenario: self.scenario,
            delay: self.delay,
            invitations,
        }
    }
}

/// A table's stream so far, for a newcomer: its head, the spectators' update from the first action
/// (none before the game starts), and the finished save once it is over.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Catchup {
    pub head: Head,
    pub update: Option<Update>,
    pub finished: Option<String>,
}

/// A line of the spectators' chat on the bus.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChatLine {
    pub from: String,
    pub text: String,
}

/// How a host answers a catch-up request for a table: the answer's bytes, none when it does not
/// hold the table (or it is private).
pub type Catchups = Arc<dyn Fn(&str) -> Option<Vec<u8>> + Send + Sync>;

/// How a host's tables put their stream on the bus, from the threads they work on (the NATS
/// client writes it from the connections' thread).
#[derive(Clone)]
pub struct Publisher {
    tx: mpsc::Sender<(String, bytes::Bytes)>,
}

impl Publisher {
    /// Publishes `m` for table `table`'s spectators (dropped if the bus is this far behind).
    pub fn publish(&self, table: &str, m: &OnBus) {
        let payload = serde_json::to_vec(m).expect("plain data");
        let _ = self.tx.try_send((format!("{TABLE}{table}"), payload.into()));
    }
}

/// Connects a host to the NATS server at `url`: its tables publish their streams through the
/// returned publisher, and it answers the catch-up requests for the tables it holds with
/// `catchup` (run off the connections' thread: it locks the table).
pub async fn connect_host(url: &str, catchup: Catchups) -> Result<Publisher, String> {
    let client = async_nats::connect(url).await.map_err(|e| format!("NATS at {url}: {e}"))?;
    let (tx, mut rx) = mpsc::channel::<(String, bytes::Bytes)>(QUEUE);
    let out = client.clone();
    tokio::spawn(async move {
        while let Some((subject, payload)) = rx.recv().await {
            let _ = out.publish(subject, payload).await;
        }
    });
    let mut requests = client.subscribe(format!("{CATCHUP}*")).await.map_err(|e| format!("NATS at {url}: {e}"))?;
    tokio::spawn(async move {
        use futures_util::StreamExt;
        while let Some(m) = requests.next().await {
            let Some(reply) = m.reply else { continue };
            let id = m.subject.as_str().trim_start_matches(CATCHUP).to_string();
            let catchup = catchup.clone();
            // Only the host holding the table answers; the others stay silent.
            if let Ok(Some(answer)) = tokio::task::spawn_blocking(move || catchup(&id)).await {
                let _ = client.publish(reply, answer.into()).await;
            }
        }
    });
    Ok(Publisher { tx })
}
