//! The broadcast feed (`grognard play … --feed PORT`, and the source of the broadcast window): a
//! read-only WebSocket endpoint that serves the public form of a table — the spectator's view, the
//! log in a spectator's words and a summary for stream overlays — behind a delay of N actions or
//! M seconds held here, so that nothing reaches it early. It speaks the host's protocol to a
//! spectator (a `Welcome`, then `Update`s), so the broadcast window watches it as it watches a
//! host, and a stream tool reads the same JSON. Whatever a connection sends is ignored.

use super::proto::{Delay, LogLine, ToSeat, Update};
use futures_util::{SinkExt, StreamExt};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

/// What every connection is told first.
#[derive(Clone, Debug)]
pub struct FeedInfo {
    pub seats: Vec<String>,
    pub scenario_hash: String,
    pub delay: Delay,
}

/// A running feed: where it listens, and the way in for the table's updates.
pub struct Feed {
    pub addr: SocketAddr,
    tx: mpsc::UnboundedSender<Update>,
}

impl Feed {
    /// Listens on `address` (`127.0.0.1:7814`; port 0 for any free one) on a thread of its own.
    pub fn start(address: &str, info: FeedInfo) -> Result<Feed, String> {
        let listener = std::net::TcpListener::bind(address).map_err(|e| format!("--feed {address}: {e}"))?;
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let (tx, rx) = mpsc::unbounded_channel();
        std::thread::Builder::new()
            .name("broadcast feed".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
                runtime.block_on(run(listener, info, rx));
            })
            .map_err(|e| e.to_string())?;
        Ok(Feed { addr, tx })
    }

    /// The spectator's update after a change of the table, in order. `restart`: its log is the
    /// whole log (a new table, or one taken back by an undo).
    pub fn send(&self, update: Update) {
        let _ = self.tx.send(update);
    }

    /// The address a window or a stream tool opens.
    pub fn url(&self) -> String {
        format!("ws://{}/broadcast", self.addr)
    }
}

/// What the feed holds: the updates not yet released, and what has been.
struct State {
    info: FeedInfo,
    pending: VecDeque<(Instant, Update)>,
    /// The released log and the last released update (its view and summary).
    log: Vec<LogLine>,
    last: Option<Update>,
    clients: Vec<mpsc::UnboundedSender<String>>,
}

impl State {
    fn new(info: FeedInfo) -> State {
        State { info, pending: VecDeque::new(), log: Vec::new(), last: None, clients: Vec::new() }
    }

    /// An update from the table: one that takes the table back drops what it undid, released or
    /// not (a restart replaces the released log when it is released in turn).
    fn take(&mut self, u: Update, now: Instant) {
        if u.restart {
            self.pending.retain(|(_, p)| p.index < u.index && !p.restart);
        }
        self.pending.push_back((now, u));
    }

    /// Releases every update old enough: `actions` more taken since (the end of the game, or the
    /// table as it was set out, needs no count) and `seconds` passed. The messages to send, and
    /// when to look again.
    fn release(&mut self, now: Instant) -> (Vec<String>, Option<Instant>) {
        let delay = self.info.delay;
        let newest = self.pending.back().map(|(_, u)| u.index).unwrap_or(0);
        let over = self.pending.back().is_some_and(|(_, u)| u.over);
        let mut out = Vec::new();
        while let Some((t, u)) = self.pending.front() {
            let counted = over || u.index == 0 || newest >= u.index + delay.actions;
            let due = *t + Duration::from_secs(delay.seconds);
            if !counted {
                return (out, None);
            }
            if now < due {
                return (out, Some(due));
            }
            let (_, u) = self.pending.pop_front().expect("a front");
            if u.restart {
                self.log = u.log.clone();
            } else {
                self.log.extend(u.log.iter().cloned());
            }
            out.push(serde_json::to_string(&ToSeat::Update(u.clone())).expect("plain data"));
            self.last = Some(u);
        }
        (out, None)
    }

    /// What a new connection is sent: the welcome, and the table as released so far with its
    /// whole log.
    fn greeting(&self) -> Vec<String> {
        let welcome = ToSeat::Welcome {
            seat: None,
            seats: self.info.seats.clone(),
            commitment: String::new(),
            scenario_hash: self.info.scenario_hash.clone(),
            // The summary in each update names the game and the scenario in words.
            game: String::new(),
            scenario: String::new(),
            delay: self.info.delay,
            invitations: None,
        };
        let mut out = vec![serde_json::to_string(&welcome).expect("plain data")];
        if let Some(last) = &self.last {
            let whole = Update { log: self.log.clone(), restart: true, ..last.clone() };
            out.push(serde_json::to_string(&ToSeat::Update(whole)).expect("plain data"));
        }
        out
    }

    fn broadcast(&mut self, messages: &[String]) {
        self.clients.retain(|c| messages.iter().all(|m| c.send(m.clone()).is_ok()));
    }
}

async fn run(listener: std::net::TcpListener, info: FeedInfo, mut rx: mpsc::UnboundedReceiver<Update>) {
    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else { return };
    let state = Arc::new(Mutex::new(State::new(info)));
    let accepting = state.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(connection(stream, accepting.clone()));
        }
    });
    let mut wake: Option<Instant> = None;
    loop {
        let sleep = async {
            match wake {
                Some(t) => tokio::time::sleep_until(t.into()).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            u = rx.recv() => match u {
                Some(u) => state.lock().expect("not poisoned").take(u, Instant::now()),
                // The window closed: the feed ends with it.
                None => return,
            },
            _ = sleep => {}
        }
        let mut s = state.lock().expect("not poisoned");
        let (out, next) = s.release(Instant::now());
        s.broadcast(&out);
        wake = next;
    }
}

async fn connection(stream: tokio::net::TcpStream, state: Arc<Mutex<State>>) {
    let _ = stream.set_nodelay(true);
    let Ok(ws) = tokio_tungstenite::accept_async(stream).await else { return };
    let (mut sink, mut incoming) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    {
        let mut s = state.lock().expect("not poisoned");
        for m in s.greeting() {
            let _ = tx.send(m);
        }
        s.clients.push(tx);
    }
    let writer = tokio::spawn(async move {
        while let Some(text) = rx.recv().await {
            if sink.send(Message::text(text)).await.is_err() {
                break;
            }
        }
    });
    // Read-only: what a connection says is read and dropped, until it closes.
    while let Some(Ok(m)) = incoming.next().await {
        if let Message::Close(_) = m {
            break;
        }
    }
    writer.abort();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(index: u64, lines: &[&str]) -> Update {
        Update {
            index,
            view: serde_json::json!({ "at": index }),
            active: Some(0),
            legal: Vec::new(),
            over: false,
            log: lines
                .iter()
                .map(|t| LogLine { index: index.saturating_sub(1), text: t.to_string(), roll: None })
                .collect(),
            restart: false,
            clock: None,
            summary: None,
        }
    }

    fn info(actions: u64, seconds: u64) -> FeedInfo {
        FeedInfo { seats: vec!["A".into(), "B".into()], scenario_hash: "h".into(), delay: Delay { actions, seconds } }
    }

    fn released(out: &[String]) -> Vec<u64> {
        out.iter()
            .map(|m| match serde_json::from_str::<ToSeat>(m).unwrap() {
                ToSeat::Update(u) => u.index,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn an_action_is_released_only_once_n_more_are_taken_and_the_end_releases_the_rest() {
        let mut s = State::new(info(2, 0));
        let t = Instant::now();
        s.take(update(0, &[]), t);
        assert_eq!(released(&s.release(t).0), vec![0], "the table as set out at once");
        s.take(update(1, &["one"]), t);
        s.take(update(2, &["two"]), t);
        assert!(s.release(t).0.is_empty(), "two behind: nothing yet");
        s.take(update(3, &["three"]), t);
        assert_eq!(released(&s.release(t).0), vec![1]);
        let mut end = update(4, &["four"]);
        end.over = true;
        s.take(end, t);
        assert_eq!(released(&s.release(t).0), vec![2, 3, 4]);
        let texts: Vec<&str> = s.log.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["one", "two", "three", "four"]);
    }

    #[test]
    fn a_delay_in_seconds_holds_each_action_that_long() {
        let mut s = State::new(info(0, 30));
        let t = Instant::now();
        s.take(update(1, &["one"]), t);
        let (out, next) = s.release(t + Duration::from_secs(29));
        assert!(out.is_empty());
        assert_eq!(next, Some(t + Duration::from_secs(30)));
        assert_eq!(released(&s.release(t + Duration::from_secs(30)).0), vec![1]);
    }

    #[test]
    fn an_undo_before_release_is_never_seen_and_after_release_replaces_the_log() {
        let mut s = State::new(info(1, 0));
        let t = Instant::now();
        s.take(update(1, &["one"]), t);
        s.take(update(2, &["two (taken back)"]), t);
        assert_eq!(released(&s.release(t).0), vec![1]);
        // Action 2 is undone before anyone saw it, and another is taken.
        let mut back = update(1, &["one"]);
        back.restart = true;
        s.take(back, t);
        s.take(update(2, &["two"]), t);
        s.take(update(3, &["three"]), t);
        s.release(t);
        let texts: Vec<&str> = s.log.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["one", "two"], "what was taken back never reached the feed");
        let greeting = s.greeting();
        assert_eq!(greeting.len(), 2);
        assert!(greeting[0].contains("Welcome") && greeting[1].contains("\"restart\":true"));
    }
}
