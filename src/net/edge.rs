//! An edge (`grognard edge`): serves spectators at ws://EDGE:PORT/TABLE from the bus (`net::bus`)
//! instead of the table's host, so that a streamed final's thousands of spectators never touch
//! it. Only spectators: a seat plays at a host. The first spectator of a table makes the edge
//! follow its subject and ask its host for the stream so far; every update then arrives once and
//! is written once for all of the table's spectators here. A gap in the stream (a message
//! dropped, the table taken over by another host) is mended by asking again. The chat of a
//! table's spectators goes through the bus to every edge serving it.

use super::bus::{CATCHUP, CHAT, Catchup, ChatLine, Head, OnBus, TABLE};
use super::limits::{self, Limits, Outbox};
use super::proto::{LogLine, ToHost, ToSeat, Update};
use futures_util::StreamExt;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore, mpsc};
use tokio_tungstenite::tungstenite::Message;

/// How long the edge waits for a table's host to answer for the stream so far.
const ASK: Duration = Duration::from_secs(2);

/// The edge: its bus, and the tables its spectators watch.
pub struct Edge {
    nats: async_nats::Client,
    tables: Mutex<HashMap<String, Arc<Watched>>>,
    next_conn: AtomicU64,
    limits: Limits,
    /// How this edge's spectators are named in the chat (spectator EDGE-N).
    tag: String,
}

/// One table followed for its spectators here.
struct Watched {
    seen: Mutex<Seen>,
    /// Stops following once its last spectator leaves.
    stop: Notify,
}

/// A table's stream as far as the edge has it, and its spectators here.
#[derive(Default)]
struct Seen {
    head: Option<Head>,
    /// Whether the stream so far has come (until then newcomers wait).
    ready: bool,
    index: u64,
    /// The latest update, its log taken out into `log`.
    last: Option<Update>,
    log: Vec<LogLine>,
    finished: Option<String>,
    watchers: Vec<Watcher>,
}

struct Watcher {
    id: u64,
    tx: Outbox,
    /// The actions it had seen when it came (it is sent the log from there).
    since: u64,
    welcomed: bool,
}

impl Seen {
    /// The update of a spectator who has seen `since` actions: the latest view and the log since.
    fn update_since(&self, since: u64) -> Option<Update> {
        let last = self.last.as_ref()?;
        Some(Update {
            index: self.index,
            log: self.log.iter().filter(|l| l.index >= since).cloned().collect(),
            ..last.clone()
        })
    }

    /// Sends a watcher its welcome and the stream so far, once the edge has it.
    fn welcome(&self, w: &mut Watcher) {
        let Some(head) = &self.head else { return };
        w.welcomed = true;
        let _ = w.tx.send(head.clone().welcome(None, None));
        if let Some(u) = self.update_since(w.since) {
            let _ = w.tx.send(ToSeat::Update(u));
        }
        if let Some(save) = &self.finished {
            let _ = w.tx.send(ToSeat::Finished { save: save.clone() });
        }
    }

    /// Takes the stream so far from a table's host, and brings every watcher to it.
    fn caught_up(&mut self, c: Catchup) {
        let before = self.index;
        let was_ready = self.ready;
        self.head = Some(c.head);
        self.index = c.update.as_ref().map_or(0, |u| u.index);
        self.log = c.update.as_ref().map(|u| u.log.clone()).unwrap_or_default();
        self.last = c.update.map(|u| Update { log: Vec::new(), ..u });
        self.finished = c.finished;
        self.ready = true;
        let mut watchers = std::mem::take(&mut self.watchers);
        for w in &mut watchers {
            if !w.welcomed {
                self.welcome(w);
            } else if was_ready && let Some(u) = self.update_since(before.min(self.index)) {
                // Mended after a gap: the log from where the watcher was.
                let _ = w.tx.send(ToSeat::Update(Update { restart: self.index < before, ..u }));
            }
        }
        self.watchers = watchers;
    }

    /// Takes the next part of the stream: whether it follows on from what the edge has (if not,
    /// the edge asks for the stream again).
    fn next(&mut self, from: u64, update: Update) -> bool {
        if !self.ready || update.index == self.index && from <= self.index {
            return true;
        }
        // An update behind what the edge has: either one it had already (after a catch-up), or
        // the edge was told of actions that never were (a message forged on an open bus, issue
        // 63): asked again, the table's host says which, and the edge follows it again.
        if update.index < self.index {
            return false;
        }
        if from > self.index {
            return false;
        }
        let fresh: Vec<LogLine> = update.log.iter().filter(|l| l.index >= self.index).cloned().collect();
        let out = Update { log: fresh.clone(), ..update.clone() };
        self.log.extend(fresh);
        self.index = update.index;
        self.last = Some(Update { log: Vec::new(), ..update });
        // Written once for every spectator here.
        let text = serde_json::to_string(&ToSeat::Update(out)).expect("plain data");
        let shared = tokio_tungstenite::tungstenite::Utf8Bytes::from(text);
        for w in self.watchers.iter().filter(|w| w.welcomed) {
            let _ = w.tx.send_shared(shared.clone());
        }
        true
    }
}

impl Edge {
    /// An edge on the NATS server at `url`.
    pub async fn connect(url: &str, limits: Limits) -> Result<Arc<Edge>, String> {
        let nats = async_nats::connect(url).await.map_err(|e| format!("NATS at {url}: {e}"))?;
        let tag = super::chain::to_hex(&super::host::fresh_secret()[..3]);
        Ok(Arc::new(Edge { nats, tables: Mutex::new(HashMap::new()), next_conn: AtomicU64::new(0), limits, tag }))
    }

    /// How many spectators the edge serves now, over every table.
    pub fn spectators(&self) -> usize {
        let tables = self.tables.lock().expect("not poisoned");
        tables.values().map(|w| w.seen.lock().expect("not poisoned").watchers.len()).sum()
    }

    /// A spectator comes to table `id` having seen `since` actions: welcomed at once if the edge
    /// follows the table already, else once its host has sent the stream so far.
    fn watch(self: &Arc<Edge>, id: &str, conn: u64, tx: Outbox, since: u64) {
        let mut tables = self.tables.lock().expect("not poisoned");
        let watched = tables.entry(id.to_string()).or_insert_with(|| {
            let w = Arc::new(Watched { seen: Mutex::new(Seen::default()), stop: Notify::new() });
            tokio::spawn(follow(self.clone(), id.to_string(), w.clone()));
            w
        });
        let mut seen = watched.seen.lock().expect("not poisoned");
        let mut w = Watcher { id: conn, tx, since, welcomed: false };
        if seen.ready {
            if since > seen.index {
                let m = format!("you cannot have seen action {since}: the log you may see holds {}", seen.index);
                let _ = w.tx.send(ToSeat::Refused { seq: None, rule: None, message: m });
                w.tx.close(limits::PROTOCOL);
                return;
            }
            seen.welcome(&mut w);
        }
        seen.watchers.push(w);
    }

    /// A spectator leaves; the table is no longer followed once nobody here watches it.
    fn leave(&self, id: &str, conn: u64) {
        let mut tables = self.tables.lock().expect("not poisoned");
        let Some(w) = tables.get(id).cloned() else { return };
        let mut seen = w.seen.lock().expect("not poisoned");
        seen.watchers.retain(|x| x.id != conn);
        if seen.watchers.is_empty() {
            tables.remove(id);
            w.stop.notify_one();
        }
    }

    /// Asks the table's host for the stream so far; whether it answered. Spectators still waiting
    /// for their welcome are told to come back when nobody answers.
    async fn ask(&self, id: &str, w: &Watched) -> bool {
        let subject = format!("{CATCHUP}{id}");
        let answer = tokio::time::timeout(ASK, self.nats.request(subject.clone(), bytes::Bytes::new())).await;
        let caught = match answer {
            Ok(Ok(m)) => super::bus::open(&subject, &m.payload).and_then(|b| serde_json::from_slice::<Catchup>(b).ok()),
            _ => None,
        };
        let mut seen = w.seen.lock().expect("not poisoned");
        match caught {
            Some(c) => {
                seen.caught_up(c);
                true
            }
            None => {
                let m = format!(
                    "no host holds a public table `{id}` now (a private table is watched at a host, with its code)"
                );
                seen.watchers.retain(|x| {
                    if !x.welcomed {
                        let _ = x.tx.send(ToSeat::Refused { seq: None, rule: None, message: m.clone() });
                        x.tx.close(limits::TRY_AGAIN);
                    }
                    x.welcomed
                });
                false
            }
        }
    }

    /// Publishes a spectator's line of chat for every edge serving the table.
    async fn chat(&self, id: &str, conn: u64, text: String) -> Result<(), String> {
        let text: String = text.chars().filter(|c| !c.is_control()).take(super::host::MAX_CHAT).collect();
        if text.trim().is_empty() {
            return Err("an empty line".into());
        }
        let line = ChatLine { from: format!("spectator {}-{conn}", self.tag), text };
        let subject = format!("{CHAT}{id}");
        let payload = super::bus::seal(&subject, serde_json::to_vec(&line).expect("plain data"));
        self.nats.publish(subject, payload).await.map_err(|e| e.to_string())
    }
}

/// Follows table `id` on the bus for as long as a spectator here watches it.
async fn follow(edge: Arc<Edge>, id: String, w: Arc<Watched>) {
    let (table_subject, chat_subject) = (format!("{TABLE}{id}"), format!("{CHAT}{id}"));
    let (Ok(mut stream), Ok(mut chat)) =
        (edge.nats.subscribe(table_subject.clone()).await, edge.nats.subscribe(chat_subject.clone()).await)
    else {
        let seen = w.seen.lock().expect("not poisoned");
        for x in &seen.watchers {
            x.tx.close(limits::TRY_AGAIN);
        }
        return;
    };
    // Subscribed first, then asked: nothing published between the two is missed.
    edge.ask(&id, &w).await;
    let mut again = tokio::time::interval(Duration::from_secs(1));
    loop {
        tokio::select! {
            _ = w.stop.notified() => break,
            m = stream.next() => {
                let Some(m) = m else { break };
                // Unsigned, forged or not JSON: not the host's, dropped.
                let Some(body) = super::bus::open(&table_subject, &m.payload) else { continue };
                let follows = match serde_json::from_slice::<OnBus>(body) {
                    Ok(OnBus::Update { from, update }) => w.seen.lock().expect("not poisoned").next(from, *update),
                    Ok(OnBus::Finished { save }) => {
                        let mut seen = w.seen.lock().expect("not poisoned");
                        seen.finished = Some(save.clone());
                        for x in seen.watchers.iter().filter(|x| x.welcomed) {
                            let _ = x.tx.send(ToSeat::Finished { save: save.clone() });
                        }
                        true
                    }
                    Err(_) => true,
                };
                if !follows {
                    edge.ask(&id, &w).await;
                }
            }
            m = chat.next() => {
                let Some(m) = m else { continue };
                let Some(line) = super::bus::open(&chat_subject, &m.payload).and_then(|b| serde_json::from_slice::<ChatLine>(b).ok())
                else {
                    continue;
                };
                let seen = w.seen.lock().expect("not poisoned");
                for x in seen.watchers.iter().filter(|x| x.welcomed) {
                    let _ = x.tx.send(ToSeat::Chat { from: line.from.clone(), text: line.text.clone() });
                }
            }
            _ = again.tick() => {
                // Nobody answered yet (the table's host changing): asked again every second.
                let waiting = !w.seen.lock().expect("not poisoned").ready;
                if waiting {
                    edge.ask(&id, &w).await;
                }
            }
        }
    }
    let _ = stream.unsubscribe().await;
    let _ = chat.unsubscribe().await;
}

/// Serves spectators for ever (at most `Limits::connections` at once, as a host does).
pub async fn serve(listener: TcpListener, edge: Arc<Edge>) {
    let served = Arc::new(Semaphore::new(edge.limits.connections.max(1)));
    loop {
        let permit = served.clone().acquire_owned().await.expect("the semaphore is never closed");
        match listener.accept().await {
            Ok((stream, _)) => {
                let edge = edge.clone();
                tokio::spawn(async move {
                    spectator(stream, edge).await;
                    drop(permit);
                });
            }
            Err(e) => {
                eprintln!("a connection could not be accepted ({e})");
                drop(permit);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// One spectator's connection: its join, then its chat, until it leaves.
async fn spectator(stream: TcpStream, edge: Arc<Edge>) {
    let limits = edge.limits;
    let Some((ws, path, _)) = super::host::accept(stream, limits).await else { return };
    let (sink, mut incoming) = ws.split();
    let (tx, rx, mut closing) = Outbox::new(limits.queue, super::limits::Budget::new(&limits, None));
    let (ping, pings) = mpsc::channel::<()>(1);
    let writer = tokio::spawn(super::host::write_to(sink, rx, pings, closing.clone(), tx.closer(), limits));
    let id = super::host::table_name(&path);
    serve_spectator(
        &edge,
        id.as_deref(),
        None,
        Line { incoming: &mut incoming, tx: &tx, closing: &mut closing, ping: &ping },
    )
    .await;
    drop(tx);
    let _ = writer.await;
}

/// A connection's reading half, its queue, what tells of its closing and what pings it: what a
/// host lends the edge to serve one of its own connections as a spectator from the bus.
pub(crate) struct Line<'a> {
    pub incoming: &'a mut super::host::Incoming,
    pub tx: &'a Outbox,
    pub closing: &'a mut tokio::sync::watch::Receiver<Option<limits::Reason>>,
    pub ping: &'a mpsc::Sender<()>,
}

/// Serves a connection to table `id` as a spectator from the bus: `first` (a message already
/// read: the join a host received), then whatever it sends, until it leaves.
pub(crate) async fn serve_spectator(edge: &Arc<Edge>, id: Option<&str>, first: Option<ToHost>, line: Line<'_>) {
    let Line { incoming, tx, closing, ping } = line;
    let limits = edge.limits;
    let conn = edge.next_conn.fetch_add(1, Ordering::Relaxed) + 1;
    let refuse = |m: &str| {
        let _ = tx.send(ToSeat::Refused { seq: None, rule: None, message: m.to_string() });
    };
    let mut joined: Option<String> = None;
    let mut silences = 0;
    let mut first = first;
    loop {
        let message = if let Some(m) = first.take() {
            m
        } else {
            let wait = if joined.is_some() { limits.ping } else { limits.unjoined };
            let next = tokio::select! {
                _ = closing.changed() => break,
                next = tokio::time::timeout(wait, incoming.next()) => next,
            };
            let text = match next {
                Err(_) if joined.is_some() && silences < 2 => {
                    silences += 1;
                    let _ = ping.try_send(());
                    continue;
                }
                Err(_) => {
                    tx.close(if joined.is_some() { limits::NO_ANSWER } else { limits::NOTHING_JOINED });
                    break;
                }
                Ok(Some(Ok(Message::Text(t)))) => t,
                Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => {
                    silences = 0;
                    continue;
                }
                Ok(_) => break,
            };
            silences = 0;
            match serde_json::from_str::<ToHost>(&text) {
                Ok(m) => m,
                Err(e) => {
                    refuse(&format!("not a message: {e}"));
                    continue;
                }
            }
        };
        match (message, &joined) {
            (ToHost::Join { seat: None, since, .. }, None) => {
                let Some(id) = id else {
                    refuse("the address names no table: ws://EDGE:PORT/TABLE (letters, digits, - and _)");
                    continue;
                };
                edge.watch(id, conn, tx.clone(), since);
                joined = Some(id.to_string());
            }
            (ToHost::Join { seat: Some(_), .. }, _) => {
                refuse("an edge serves spectators: a seat joins at a host");
            }
            (ToHost::Chat { text }, Some(id)) => {
                if let Err(e) = edge.chat(id, conn, text).await {
                    refuse(&e);
                }
            }
            (
                ToHost::List
                | ToHost::ListAfter { .. }
                | ToHost::Mine { .. }
                | ToHost::ListHere
                | ToHost::ListHereAfter { .. }
                | ToHost::MineHere { .. },
                _,
            ) => refuse("an edge serves spectators: ask a host for its tables"),
            (_, None) => refuse("join as a spectator first"),
            (_, Some(_)) => refuse("a spectator does not act"),
        }
    }
    if let Some(id) = &joined {
        edge.leave(id, conn);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(index: u64) -> Update {
        Update {
            index,
            view: serde_json::Value::Null,
            active: None,
            legal: Vec::new(),
            over: false,
            log: Vec::new(),
            restart: false,
            clock: None,
            summary: None,
        }
    }

    /// Issue 63: after one forged update (a million actions on an open bus) the edge dropped
    /// every real update of the table, each being "behind". Now an update behind what the edge
    /// has sends it back to the table's host for the stream, which sets it right.
    #[test]
    fn an_update_behind_what_the_edge_has_sends_it_back_to_the_host() {
        let mut seen = Seen { ready: true, index: 5, ..Seen::default() };
        assert!(seen.next(5, update(1_000_000)), "taken: it follows on");
        assert_eq!(seen.index, 1_000_000);
        assert!(!seen.next(5, update(6)), "the real next one: asked again");
        // The same index again is nothing new, and no question.
        let mut seen = Seen { ready: true, index: 6, ..Seen::default() };
        assert!(seen.next(6, update(6)));
        // A gap is asked about, as before.
        assert!(!seen.next(9, update(10)));
    }
}
