//! Spectators beyond one machine (issue 33): the host holding a public table publishes what its
//! spectators may see — the stream kept behind the players by the host's delay, and nothing of
//! any seat's own — on the NATS subject `grognard.table.TABLE`, and answers a request on
//! `grognard.catchup.TABLE` with everything so far, for an edge that starts watching the table
//! (core NATS keeps nothing: the table's host is the memory). Edges (`grognard edge`,
//! `net::edge`) serve the spectators from the bus, so that a thousand spectators never touch the
//! table's host. The dice secret never goes on the bus: the finished save carries it only once
//! the game is over, when every spectator is sent it anyway.
//!
//! Anyone who may publish on the bus could otherwise speak for a host (issue 63): with a key in
//! `GROGNARD_BUS_KEY` (the same on every host and edge) each message carries an HMAC-SHA-256 of
//! its subject and body, and what does not carry the right one is dropped. Without a key the bus
//! must be a private network's; an edge still mends itself from the table's host after garbage.

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

/// The key every host and edge shares, from `GROGNARD_BUS_KEY` (none: messages go unsigned).
fn key() -> Option<&'static [u8]> {
    static KEY: std::sync::OnceLock<Option<Vec<u8>>> = std::sync::OnceLock::new();
    KEY.get_or_init(|| std::env::var("GROGNARD_BUS_KEY").ok().filter(|k| !k.is_empty()).map(String::into_bytes))
        .as_deref()
}

/// The HMAC of `subject` and `body` under `key`, in hex.
fn mac(key: &[u8], subject: &str, body: &[u8]) -> String {
    use hmac::Mac;
    let mut m = hmac::Hmac::<sha2::Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    m.update(subject.as_bytes());
    m.update(&[0]);
    m.update(body);
    super::chain::to_hex(&m.finalize().into_bytes())
}

/// A message for `subject` as it goes on the bus: signed where there is a key.
pub fn seal(subject: &str, body: Vec<u8>) -> bytes::Bytes {
    seal_with(key(), subject, body)
}

/// What came on the bus for `subject`, its signature checked where there is a key: the body, or
/// none for a message nobody holding the key sent.
pub fn open<'a>(subject: &str, payload: &'a [u8]) -> Option<&'a [u8]> {
    open_with(key(), subject, payload)
}

fn seal_with(key: Option<&[u8]>, subject: &str, body: Vec<u8>) -> bytes::Bytes {
    match key {
        None => body.into(),
        Some(k) => {
            let mut out = mac(k, subject, &body).into_bytes();
            out.extend_from_slice(&body);
            out.into()
        }
    }
}

fn open_with<'a>(key: Option<&[u8]>, subject: &str, payload: &'a [u8]) -> Option<&'a [u8]> {
    let Some(k) = key else { return Some(payload) };
    let (sig, body) = payload.split_at_checked(64)?;
    use hmac::Mac;
    let mut m = hmac::Hmac::<sha2::Sha256>::new_from_slice(k).expect("HMAC takes a key of any length");
    m.update(subject.as_bytes());
    m.update(&[0]);
    m.update(body);
    let sig = super::chain::from_hex(std::str::from_utf8(sig).ok()?)?;
    // Compared in constant time.
    m.verify_slice(&sig).ok()?;
    Some(body)
}

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
        let subject = format!("{TABLE}{table}");
        let payload = seal(&subject, serde_json::to_vec(m).expect("plain data"));
        let _ = self.tx.try_send((subject, payload));
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
            let subject = format!("{CATCHUP}{id}");
            if let Ok(Some(answer)) = tokio::task::spawn_blocking(move || catchup(&id)).await {
                let _ = client.publish(reply, seal(&subject, answer)).await;
            }
        }
    });
    Ok(Publisher { tx })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_a_key_only_what_a_holder_of_it_signed_for_that_subject_is_read() {
        let key = Some(&b"a shared secret"[..]);
        let sealed = seal_with(key, "grognard.table.t", b"{\"x\":1}".to_vec());
        assert_eq!(open_with(key, "grognard.table.t", &sealed), Some(&b"{\"x\":1}"[..]));
        // Another table's subject, another key, a forged or altered body, garbage: dropped.
        assert_eq!(open_with(key, "grognard.table.u", &sealed), None);
        assert_eq!(open_with(Some(b"another"), "grognard.table.t", &sealed), None);
        let mut altered = sealed.to_vec();
        *altered.last_mut().unwrap() = b'2';
        assert_eq!(open_with(key, "grognard.table.t", &altered), None);
        assert_eq!(open_with(key, "grognard.table.t", b"{\"x\":1}"), None);
        assert_eq!(open_with(key, "grognard.table.t", b""), None);
        // Without a key a message is its body.
        assert_eq!(open_with(None, "grognard.table.t", b"{}"), Some(&b"{}"[..]));
    }
}
