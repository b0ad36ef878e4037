//! A connection to a host, shared by the window, `simulate --via` and the tests: join a seat
//! (or watch), come back to it with its token, read what the host sends, submit actions
//! numbered in order.

use super::chain::{self, Hash};
use super::proto::{MySeat, TableInfo, ToHost, ToSeat};
use futures_util::{SinkExt, StreamExt};
use std::collections::VecDeque;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    seq: u64,
    /// What came before `recv` was asked (the welcome `sit` waited for).
    pending: VecDeque<ToSeat>,
    token: Option<Hash>,
    /// The host's commitment to its secret, from the welcome: the finished save must hold it.
    commitment: Option<Hash>,
    value: Option<Hash>,
}

/// How a connection sits at a table.
#[derive(Clone, Debug, Default)]
pub struct Sit {
    /// The seat to take (none: watch).
    pub seat: Option<u8>,
    /// The seat's token: 64 hex digits its owner chose, kept to come back with.
    pub token: Option<Hash>,
    /// The seat's value for the dice, sent once the welcome has brought the host's commitment
    /// (none: sent on an earlier connection).
    pub value: Option<Hash>,
    /// A private table's invitation code.
    pub code: Option<String>,
    /// A table this seat opens is listed and open to anyone.
    pub public: bool,
    /// The scenario a table this seat opens is played on, as the host names it (none: the
    /// host's first).
    pub scenario: Option<String>,
    /// The seat's notification address (none: as it was; empty: none any more).
    pub notify: Option<String>,
    /// The clock of a table this seat opens (`live:30+10`, `days:2+5`; none: no clock).
    pub clock: Option<String>,
    /// The last log index seen.
    pub since: u64,
}

/// A fresh token or value from the system's randomness.
pub fn fresh() -> Hash {
    let mut h = [0u8; 32];
    getrandom::fill(&mut h).expect("the system's randomness");
    h
}

impl Client {
    async fn connect(url: &str) -> Result<Client, String> {
        // Nagle's algorithm off: an action is one small frame, and the other seat waits for it.
        let (ws, _) =
            tokio_tungstenite::connect_async_with_config(url, None, true).await.map_err(|e| format!("{url}: {e}"))?;
        Ok(Client { ws, seq: 0, pending: VecDeque::new(), token: None, commitment: None, value: None })
    }

    /// Connects to `ws://HOST:PORT/TABLE` (or `wss://`) and sits as `sit` says: waits for the
    /// welcome (the host's commitment), then sends the seat's value. The welcome is the first
    /// message `recv` gives; a refusal is the error.
    pub async fn sit(url: &str, sit: &Sit) -> Result<Client, String> {
        let mut c = Self::connect(url).await?;
        c.token = sit.token;
        c.value = sit.value;
        c.send(&ToHost::Join {
            seat: sit.seat,
            token: sit.token.map(|t| chain::to_hex(&t)),
            since: sit.since,
            code: sit.code.clone(),
            public: sit.public,
            scenario: sit.scenario.clone(),
            notify: sit.notify.clone(),
            clock: sit.clock.clone(),
        })
        .await?;
        loop {
            match c.next().await {
                Some(w @ ToSeat::Welcome { .. }) => {
                    let ToSeat::Welcome { commitment, .. } = &w else { unreachable!() };
                    c.commitment = chain::from_hex(commitment);
                    c.pending.push_back(w);
                    break;
                }
                Some(ToSeat::Refused { message, .. }) => return Err(message),
                Some(other) => c.pending.push_back(other),
                None => return Err(format!("{url}: the host closed the connection")),
            }
        }
        if let (Some(_), Some(v)) = (sit.seat, sit.value) {
            c.send(&ToHost::Value { value: chain::to_hex(&v) }).await?;
        }
        Ok(c)
    }

    /// Takes a seat at a public table (opening it if it is new) with a fresh token and this
    /// value for the dice, or with no seat watches it: the quick way of tests on loopback.
    pub async fn join(url: &str, seat: Option<u8>, value: Option<Hash>) -> Result<Client, String> {
        let token = seat.map(|_| fresh());
        Self::sit(url, &Sit { seat, token, value, public: true, ..Sit::default() }).await
    }

    /// Sends a join and nothing else, without waiting: a seat coming back with `token` (or, with
    /// no seat, a spectator), having seen the log up to `since`.
    pub async fn rejoin(url: &str, seat: Option<u8>, token: Option<&str>, since: u64) -> Result<Client, String> {
        let mut c = Self::connect(url).await?;
        c.token = token.and_then(chain::from_hex);
        c.send(&ToHost::Join {
            seat,
            token: token.map(str::to_string),
            since,
            code: None,
            public: false,
            scenario: None,
            notify: None,
            clock: None,
        })
        .await?;
        Ok(c)
    }

    /// The seat's token, in hex.
    pub fn token(&self) -> Option<String> {
        self.token.map(|t| chain::to_hex(&t))
    }

    /// The host's commitment, as its welcome said.
    pub fn commitment(&self) -> Option<Hash> {
        self.commitment
    }

    /// Checks a finished game's save against what this seat was told and gave: the commitment
    /// in its welcome, and its own value at its place (issue 30, item 13). The host could
    /// otherwise change its secret after seeing every seat's value.
    pub fn check_save(&self, seat: Option<u8>, save: &str) -> Result<(), String> {
        super::hosted::check_save_text(save, self.commitment.as_ref(), seat.zip(self.value))
    }

    /// The host's public tables and whose turn it is at each: every page of the list, asked
    /// for one after another on one connection.
    pub async fn list(url: &str) -> Result<Vec<TableInfo>, String> {
        let mut c = Self::connect(url).await?;
        let mut all: Vec<TableInfo> = Vec::new();
        let mut question = ToHost::List;
        loop {
            let page = c.answer(url, &question).await?;
            let full = page.len() >= super::proto::LIST_PAGE;
            all.extend(page);
            match all.last() {
                Some(last) if full => question = ToHost::ListAfter { after: last.name.clone() },
                _ => return Ok(all),
            }
        }
    }

    /// The first page of the host's public tables (at most `LIST_PAGE`), or the page after the
    /// table named `after`.
    pub async fn list_page(url: &str, after: Option<&str>) -> Result<Vec<TableInfo>, String> {
        let question = after.map_or(ToHost::List, |a| ToHost::ListAfter { after: a.to_string() });
        Self::tables(url, &question).await
    }

    /// The tables at host `url` (ws://HOST:PORT) these seats sit at, private ones included.
    pub async fn mine(url: &str, seats: Vec<MySeat>) -> Result<Vec<TableInfo>, String> {
        Self::tables(url, &ToHost::Mine { seats }).await
    }

    /// Asks host `url` a question it answers with `Tables`.
    pub(crate) async fn tables(url: &str, question: &ToHost) -> Result<Vec<TableInfo>, String> {
        Self::connect(url).await?.answer(url, question).await
    }

    /// Asks `question` on this connection and waits for its `Tables`.
    async fn answer(&mut self, url: &str, question: &ToHost) -> Result<Vec<TableInfo>, String> {
        let c = self;
        c.send(question).await?;
        loop {
            match c.recv().await {
                Some(ToSeat::Tables(t)) => return Ok(t),
                Some(ToSeat::Refused { message, .. }) => return Err(message),
                Some(_) => continue,
                None => return Err(format!("{url}: the host closed the connection")),
            }
        }
    }

    pub async fn send(&mut self, m: &ToHost) -> Result<(), String> {
        self.send_text(serde_json::to_string(m).expect("a message is plain data")).await
    }

    /// Any text, as a (possibly hostile) client would send it.
    pub async fn send_text(&mut self, text: String) -> Result<(), String> {
        self.ws.send(Message::text(text)).await.map_err(|e| e.to_string())
    }

    /// Submits a game action (the game's JSON) chosen at log index `at`, with the next number.
    pub async fn submit(&mut self, at: u64, action: serde_json::Value) -> Result<u64, String> {
        self.seq += 1;
        self.send(&ToHost::Submit { seq: self.seq, at, action }).await?;
        Ok(self.seq)
    }

    /// Leaves standing orders (replacing the seat's earlier ones).
    pub async fn orders(&mut self, orders: crate::engine::orders::Orders) -> Result<(), String> {
        self.send(&ToHost::Orders { orders }).await
    }

    /// Claims the game, the other seat being out of time.
    pub async fn claim(&mut self) -> Result<(), String> {
        self.send(&ToHost::Claim).await
    }

    /// Has the host play for the other seat, out of time, until the decision leaves it.
    pub async fn skip(&mut self) -> Result<(), String> {
        self.send(&ToHost::Skip).await
    }

    /// A line in the spectators' chat.
    pub async fn chat(&mut self, text: &str) -> Result<(), String> {
        self.send(&ToHost::Chat { text: text.to_string() }).await
    }

    /// The next message from the host (None when the connection is closed).
    pub async fn recv(&mut self) -> Option<ToSeat> {
        if let Some(m) = self.pending.pop_front() {
            return Some(m);
        }
        self.next().await
    }

    async fn next(&mut self) -> Option<ToSeat> {
        while let Some(Ok(m)) = self.ws.next().await {
            if let Message::Text(t) = m {
                return serde_json::from_str(&t).ok();
            }
        }
        None
    }
}

/// The seats this machine keeps a token for (the window writes each beside its journal,
/// `seat-….json`): each table's address, the seat and its token, in order.
pub fn kept_seats() -> Vec<(String, u8, String)> {
    #[derive(serde::Deserialize)]
    struct Kept {
        token: Option<String>,
        #[serde(default)]
        url: Option<String>,
    }
    let dir = crate::engine::journal::default_journal_path().with_file_name("");
    let mut seats: Vec<(String, u8, String)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            let seat = name.strip_prefix("seat-")?.strip_suffix(".json")?.rsplit('-').next()?.parse().ok()?;
            let key: Kept = serde_json::from_str(&std::fs::read_to_string(&p).ok()?).ok()?;
            Some((key.url?, seat, key.token?))
        })
        .collect();
    seats.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    seats
}
