//! A connection to a host, shared by the window, `simulate --via` and the tests: join a seat
//! (or watch), come back to it with its token, read what the host sends, submit actions
//! numbered in order.

use super::chain::{self, Hash};
use super::proto::{TableInfo, ToHost, ToSeat};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    seq: u64,
}

impl Client {
    async fn connect(url: &str) -> Result<Client, String> {
        // Nagle's algorithm off: an action is one small frame, and the other seat waits for it.
        let (ws, _) =
            tokio_tungstenite::connect_async_with_config(url, None, true).await.map_err(|e| format!("{url}: {e}"))?;
        Ok(Client { ws, seq: 0 })
    }

    /// Connects to `ws://HOST:PORT/TABLE` and joins a seat with its value for the dice (or, with
    /// no seat, watches).
    pub async fn join(url: &str, seat: Option<u8>, value: Option<Hash>) -> Result<Client, String> {
        let mut c = Self::connect(url).await?;
        c.send(&ToHost::Join { seat, value: value.map(|v| chain::to_hex(&v)), token: None, since: 0 }).await?;
        Ok(c)
    }

    /// Comes back to a seat with the token the host gave it (or, with no seat, watches again),
    /// having seen the log up to `since`.
    pub async fn rejoin(url: &str, seat: Option<u8>, token: Option<&str>, since: u64) -> Result<Client, String> {
        let mut c = Self::connect(url).await?;
        c.send(&ToHost::Join { seat, value: None, token: token.map(str::to_string), since }).await?;
        Ok(c)
    }

    /// The host's tables and whose turn it is at each.
    pub async fn list(url: &str) -> Result<Vec<TableInfo>, String> {
        let mut c = Self::connect(url).await?;
        c.send(&ToHost::List).await?;
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

    /// A line in the spectators' chat.
    pub async fn chat(&mut self, text: &str) -> Result<(), String> {
        self.send(&ToHost::Chat { text: text.to_string() }).await
    }

    /// The next message from the host (None when the connection is closed).
    pub async fn recv(&mut self) -> Option<ToSeat> {
        while let Some(Ok(m)) = self.ws.next().await {
            if let Message::Text(t) = m {
                return serde_json::from_str(&t).ok();
            }
        }
        None
    }
}
