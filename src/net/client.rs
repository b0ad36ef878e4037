//! A connection to a host, shared by the window and the tests: join a seat (or watch), read what
//! the host sends, submit actions numbered in order.

use super::chain::{self, Hash};
use super::proto::{ToHost, ToSeat};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    seq: u64,
}

impl Client {
    /// Connects to `ws://HOST:PORT/TABLE` and joins a seat with its value for the dice (or, with
    /// no seat, watches).
    pub async fn join(url: &str, seat: Option<u8>, value: Option<Hash>) -> Result<Client, String> {
        let (ws, _) = tokio_tungstenite::connect_async(url).await.map_err(|e| format!("{url}: {e}"))?;
        let mut c = Client { ws, seq: 0 };
        c.send(&ToHost::Join { seat, value: value.map(|v| chain::to_hex(&v)) }).await?;
        Ok(c)
    }

    pub async fn send(&mut self, m: &ToHost) -> Result<(), String> {
        self.send_text(serde_json::to_string(m).expect("a message is plain data")).await
    }

    /// Any text, as a (possibly hostile) client would send it.
    pub async fn send_text(&mut self, text: String) -> Result<(), String> {
        self.ws.send(Message::text(text)).await.map_err(|e| e.to_string())
    }

    /// Submits a game action (the game's JSON) with the next number.
    pub async fn submit(&mut self, action: serde_json::Value) -> Result<u64, String> {
        self.seq += 1;
        self.send(&ToHost::Submit { seq: self.seq, action }).await?;
        Ok(self.seq)
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
