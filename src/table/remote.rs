//! The window seated at a host's table (`grognard play FILE --join ws://HOST:PORT/TABLE`): its
//! actions go to the host, and what the host sends becomes the table on screen — a table rebuilt
//! from this seat's view alone (`Game::rebuilt_from_view`), drawn through the same gate, so the window
//! holds nothing its seat may not see. A thread keeps the connection (and comes back to the seat
//! with its token after a drop), waking the window when something arrives.

use super::TableGame;
pub use super::session::MyTable;
use crate::engine::plugin::{Outcome, Request, TableRes, TableVersion};
use crate::engine::rng::TableRng;
use crate::engine::table::Act;
use crate::net::chain;
use crate::net::client::{Client, Sit};
use crate::net::proto::{Delay, Invitations, MySeat, ToSeat};
use bevy::prelude::*;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::Duration;

/// What the window asks of its connection.
enum Outgoing {
    Act {
        at: u64,
        action: serde_json::Value,
    },
    Chat(String),
    /// Any other message for the host (standing orders, a claim, a skip).
    Host(crate::net::proto::ToHost),
}

/// What the connection tells the window.
enum Incoming {
    Message(Box<ToSeat>),
    Connected(bool),
    Failed(String),
}

/// The host's table this window sits at.
#[derive(Resource)]
pub struct Remote {
    pub url: String,
    /// The seat taken (None: watching).
    pub seat: Option<u8>,
    /// Accepted actions the window has seen.
    pub index: u64,
    /// The log in this seat's words, as the host sent it.
    pub log: Vec<String>,
    /// The last roll the host told of, in this seat's words and whole.
    pub last_roll: Option<(String, crate::engine::roll::Roll)>,
    /// The spectators' chat (spectators only): who, and what.
    pub chat: Vec<(String, String)>,
    pub chat_line: String,
    pub delay: Delay,
    pub connected: bool,
    /// The table has not started: a seat has not joined yet.
    pub waiting: bool,
    /// Whether the host runs on this machine (so whoever plays here could read its memory).
    pub host_is_here: bool,
    pub problem: Option<String>,
    /// Where the finished game's whole save was written.
    pub finished: Option<PathBuf>,
    /// A private table's invitation code this window came with (a seat's or the spectators').
    pub code: Option<String>,
    /// A table this seat opens is public.
    pub public: bool,
    /// The scenario a table this seat opens is played on, as the host names it.
    pub scenario: Option<String>,
    /// The seat's notification address, and the clock of a table it opens.
    pub notify: Option<String>,
    pub clock: Option<String>,
    /// The table's clock as the host last told it, and when this window heard it.
    pub clock_view: Option<(crate::net::clock::ClockView, std::time::Instant)>,
    /// This seat's standing orders, as the host keeps them, and the game's questions.
    pub orders: crate::engine::orders::Orders,
    pub questions: &'static [crate::engine::orders::QuestionKind],
    /// The orders as the panel edits them, before they are sent.
    pub orders_draft: Option<crate::engine::orders::Orders>,
    /// The codes to hand out, for the seat that opened a private table.
    pub invitations: Option<Invitations>,
    /// This seat's key (none: watching).
    key: Option<SeatKey>,
    /// The index an action was sent at, until the host's answer comes (the computer waits).
    pub in_flight: Option<u64>,
    /// What the host sent and the window has not taken in yet: behind an update whose dice are
    /// being thrown (`thrown`), which shows once they rest.
    backlog: std::collections::VecDeque<Incoming>,
    thrown: bool,
    outbox: tokio::sync::mpsc::UnboundedSender<Outgoing>,
    outbox_rx: Mutex<Option<tokio::sync::mpsc::UnboundedReceiver<Outgoing>>>,
    inbox: Mutex<mpsc::Receiver<Incoming>>,
    inbox_tx: mpsc::Sender<Incoming>,
}

/// What a seat keeps to come back to its table and to check the host's record: its token and
/// its value for the dice (both its own choice, written before the first join), the invitation
/// code it came with, the commitment the host's first welcome brought, and for the seat that
/// opened a private table the codes to hand out.
#[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
struct SeatKey {
    token: Option<String>,
    value: String,
    #[serde(default)]
    url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    commitment: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    invitations: Option<Invitations>,
}

impl SeatKey {
    /// This seat's key at `url`: the one kept, or a fresh one written down before it is used
    /// (a window that stops mid-join still comes back with it).
    fn kept_or_new(url: &str, seat: u8) -> SeatKey {
        let mut key = read_key(url, seat).unwrap_or_default();
        let mut changed = false;
        if key.token.as_deref().and_then(chain::from_hex).is_none() {
            key.token = Some(chain::to_hex(&crate::net::client::fresh()));
            changed = true;
        }
        if chain::from_hex(&key.value).is_none() {
            key.value = chain::to_hex(&crate::net::client::fresh());
            changed = true;
        }
        if key.url.is_none() {
            key.url = Some(url.to_string());
            changed = true;
        }
        if changed {
            write_key(url, seat, &key);
        }
        key
    }
}

/// Asks each host this machine holds seats at for its tables (on a thread of its own) and fills
/// `out` with this machine's seats and whose turn it is at each.
pub fn refresh_my_tables(out: std::sync::Arc<Mutex<Vec<MyTable>>>) {
    std::thread::spawn(move || {
        let seats = crate::net::client::kept_seats();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        let mut found = Vec::new();
        for (url, seat, token) in seats {
            let (base, table) = url.rsplit_once('/').unwrap_or((&url, ""));
            // Each seat asks with its token: a private table is shown to its seats only.
            let mine = MySeat { table: table.to_string(), seat, token };
            let (state, found_at) = match runtime.block_on(Client::mine(base, vec![mine])) {
                Err(e) => (format!("no answer: {e}"), None),
                Ok(list) => match list.into_iter().find(|t| t.name == table) {
                    None => ("not at that host (or not with this seat's token)".to_string(), None),
                    Some(t) => (t.state_for(seat), Some(t)),
                },
            };
            let scenario = found_at.as_ref().map_or(String::new(), |t| t.scenario.clone());
            let seat_name = found_at.and_then(|t| t.seats.get(seat as usize).cloned()).unwrap_or_default();
            found.push(MyTable { url: url.clone(), seat, scenario, seat_name, state });
        }
        *out.lock().expect("not poisoned") = found;
    });
}

/// Asks the host at `base` (ws://HOST:PORT) for its public tables, on a thread of its own.
pub fn refresh_public_tables(
    base: String,
    out: std::sync::Arc<Mutex<Result<Vec<crate::net::proto::TableInfo>, String>>>,
) {
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        *out.lock().expect("not poisoned") = runtime.block_on(Client::list(&base));
    });
}

/// Opens another window of this program: seated at a host's table, or a host of its own.
pub fn spawn(args: &[String]) -> Result<(), String> {
    spawn_with_code(args, None)
}

/// `spawn`, handing the new window an invitation code through its environment.
pub fn spawn_with_code(args: &[String], code: Option<String>) -> Result<(), String> {
    spawn_with(args, code, None)
}

/// `spawn`, handing the new window an invitation code and a notification address through its
/// environment (out of the list of processes other users may read).
pub fn spawn_with(args: &[String], code: Option<String>, notify: Option<String>) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut command = std::process::Command::new(exe);
    command.args(args).env_remove("GROGNARD_CODE").env_remove("GROGNARD_NOTIFY");
    if let Some(code) = code {
        command.env("GROGNARD_CODE", code);
    }
    if let Some(notify) = notify {
        command.env("GROGNARD_NOTIFY", notify);
    }
    command.spawn().map(|_| ()).map_err(|e| e.to_string())
}

/// Where a seat's key is kept: beside the journal, one file per table and seat.
fn key_path(url: &str, seat: u8) -> PathBuf {
    let name: String = url.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    crate::engine::journal::default_journal_path().with_file_name(format!("seat-{name}-{seat}.json"))
}

fn read_key(url: &str, seat: u8) -> Option<SeatKey> {
    serde_json::from_str(&std::fs::read_to_string(key_path(url, seat)).ok()?).ok()
}

fn write_key(url: &str, seat: u8, key: &SeatKey) {
    let path = key_path(url, seat);
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = std::fs::write(path, serde_json::to_string(key).expect("plain data"));
}

impl Remote {
    pub fn new(url: &str, seat: Option<u8>, code: Option<String>, public: bool) -> Remote {
        let (outbox, outbox_rx) = tokio::sync::mpsc::unbounded_channel();
        let (inbox_tx, inbox) = mpsc::channel();
        let here = url
            .trim_start_matches("wss://")
            .trim_start_matches("ws://")
            .split(['/', ':'])
            .next()
            .is_some_and(|h| h == "127.0.0.1" || h == "localhost" || h == "[::1]");
        Remote {
            url: url.to_string(),
            seat,
            index: 0,
            log: Vec::new(),
            last_roll: None,
            chat: Vec::new(),
            chat_line: String::new(),
            delay: Delay::default(),
            connected: false,
            waiting: true,
            host_is_here: here,
            problem: None,
            finished: None,
            invitations: seat.and_then(|k| read_key(url, k)).and_then(|k| k.invitations),
            key: seat.map(|k| {
                let mut key = SeatKey::kept_or_new(url, k);
                if code.is_some() && key.code != code {
                    key.code = code.clone();
                    write_key(url, k, &key);
                }
                key
            }),
            code,
            public,
            scenario: None,
            notify: None,
            clock: None,
            clock_view: None,
            orders: Default::default(),
            questions: &[],
            orders_draft: None,
            in_flight: None,
            backlog: std::collections::VecDeque::new(),
            thrown: false,
            outbox,
            outbox_rx: Mutex::new(Some(outbox_rx)),
            inbox: Mutex::new(inbox),
            inbox_tx,
        }
    }

    /// What lets a window of this machine watch this table: the seat's token, or the code this
    /// window came with.
    pub fn watch_code(&self) -> Option<String> {
        self.key.as_ref().and_then(|k| k.token.clone()).or(self.code.clone())
    }

    /// Sends this seat's action, chosen at the table the window shows.
    pub fn act(&mut self, action: serde_json::Value) {
        self.in_flight = Some(self.index);
        let _ = self.outbox.send(Outgoing::Act { at: self.index, action });
    }

    /// Sends the host anything else this seat asks: a claim, a skip, standing orders.
    pub fn tell_host(&mut self, m: crate::net::proto::ToHost) {
        let _ = self.outbox.send(Outgoing::Host(m));
    }

    /// The table's clock in words, each seat's time left as of now (the running seat's counted
    /// down since the host told it), and who is out of time or claimed the game.
    pub fn clock_words(&self, seats: &[&str]) -> Option<String> {
        let (c, heard) = self.clock_view.as_ref()?;
        let since = heard.elapsed().as_millis() as i64;
        let name = |k: u8| seats.get(k as usize).copied().unwrap_or("?");
        let each: Vec<String> = c
            .left_ms
            .iter()
            .enumerate()
            .map(|(k, &ms)| {
                let running = c.running == Some(k as u8);
                let ms = if running { ms - since } else { ms };
                format!("{} {}{}", name(k as u8), crate::net::clock::words(ms), if running { " ▸" } else { "" })
            })
            .collect();
        let mut s = format!("Clock ({}): {}", c.rule.words(), each.join(" · "));
        if let Some(k) = c.claimed_by {
            s.push_str(&format!(" — claimed by {}", name(k)));
        } else if let Some(k) = c.out_of_time {
            s.push_str(&format!(" — {} is out of time", name(k)));
        }
        Some(s)
    }

    /// Whether the other seat is out of time and this one may claim the game or skip it.
    pub fn may_claim(&self) -> bool {
        let Some((c, _)) = &self.clock_view else { return false };
        c.claimed_by.is_none() && self.seat.is_some() && c.out_of_time.is_some_and(|k| Some(k) != self.seat)
    }

    pub fn say(&mut self) {
        let text = std::mem::take(&mut self.chat_line);
        if !text.trim().is_empty() {
            let _ = self.outbox.send(Outgoing::Chat(text));
        }
    }

    /// The line the window shows about its table.
    pub fn status(&self, seats: &[&str]) -> String {
        let who = match self.seat {
            Some(k) => format!("{} at", seats.get(k as usize).copied().unwrap_or("?")),
            None => "Watching".to_string(),
        };
        let mut s = format!("{who} {}", self.url);
        if !self.connected {
            s.push_str(" — connecting…");
        } else if self.waiting {
            s.push_str(" — waiting for every seat to join");
        }
        if self.seat.is_none() && self.delay != Delay::default() {
            s.push_str(&format!(
                " — {} actions and {} min behind the players",
                self.delay.actions,
                self.delay.seconds / 60
            ));
        }
        s
    }
}

/// Starts the connection's thread (once the window's event loop can be woken).
pub fn connect(remote: Res<Remote>, proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>) {
    let Some(outbox) = remote.outbox_rx.lock().expect("not poisoned").take() else { return };
    let wake: Box<dyn Fn() + Send> = match proxy {
        Some(p) => {
            let p = (**p).clone();
            Box::new(move || {
                let _ = p.send_event(bevy::winit::WinitUserEvent::WakeUp);
            })
        }
        None => Box::new(|| {}),
    };
    let seat = Seated {
        url: remote.url.clone(),
        seat: remote.seat,
        key: remote.key.clone(),
        code: remote.code.clone(),
        public: remote.public,
        scenario: remote.scenario.clone(),
        notify: remote.notify.clone(),
        clock: remote.clock.clone(),
    };
    let tx = remote.inbox_tx.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        runtime.block_on(keep_connected(seat, tx, outbox, wake));
    });
}

/// Where the connection sits: the table, the seat and its key, the code it came with.
struct Seated {
    url: String,
    seat: Option<u8>,
    key: Option<SeatKey>,
    code: Option<String>,
    public: bool,
    scenario: Option<String>,
    notify: Option<String>,
    clock: Option<String>,
}

/// Joins (or comes back to) the seat and relays messages both ways until the window closes;
/// after a drop it comes back with the seat's token and the last index it saw. The commitment
/// of the first welcome is kept with the seat's key, and the finished save is checked against it
/// and the seat's own value (issue 30, item 13).
async fn keep_connected(
    mut at: Seated,
    tx: mpsc::Sender<Incoming>,
    mut outbox: tokio::sync::mpsc::UnboundedReceiver<Outgoing>,
    wake: Box<dyn Fn() + Send>,
) {
    let tell = |m: Incoming| {
        let _ = tx.send(m);
        wake();
    };
    let url = at.url.clone();
    let mut since = 0;
    // A spectator checks the commitment of its own first welcome.
    let mut watched_commitment = None;
    loop {
        let sit = Sit {
            seat: at.seat,
            token: at.key.as_ref().and_then(|k| k.token.as_deref().and_then(chain::from_hex)),
            value: at.key.as_ref().and_then(|k| chain::from_hex(&k.value)),
            code: at.key.as_ref().and_then(|k| k.code.clone()).or(at.code.clone()),
            public: at.public,
            scenario: at.scenario.clone(),
            notify: at.notify.clone(),
            clock: at.clock.clone(),
            since,
        };
        let mut c = match Client::sit(&url, &sit).await {
            Ok(c) => c,
            Err(e) => {
                tell(Incoming::Failed(e));
                tokio::time::sleep(Duration::from_secs(2)).await;
                continue;
            }
        };
        tell(Incoming::Connected(true));
        loop {
            tokio::select! {
                m = c.recv() => match m {
                    Some(m) => {
                        if let ToSeat::Welcome { commitment, invitations, .. } = &m {
                            match (&mut at.key, at.seat) {
                                (Some(key), Some(k)) => {
                                    match &key.commitment {
                                        None => key.commitment = Some(commitment.clone()),
                                        Some(kept) if kept != commitment => tell(Incoming::Failed(
                                            "the host's commitment is not the one it first sent: its dice cannot be trusted"
                                                .into(),
                                        )),
                                        Some(_) => {}
                                    }
                                    if invitations.is_some() {
                                        key.invitations = invitations.clone();
                                    }
                                    write_key(&url, k, key);
                                }
                                _ => {
                                    watched_commitment.get_or_insert_with(|| commitment.clone());
                                }
                            }
                        }
                        if let ToSeat::Update(u) = &m {
                            since = u.index;
                        }
                        if let ToSeat::Finished { save } = &m {
                            let kept = at.key.as_ref().map_or(watched_commitment.as_ref(), |k| k.commitment.as_ref());
                            let value = at.key.as_ref().and_then(|k| chain::from_hex(&k.value));
                            if let Err(e) = check_finished(save, kept, at.seat.zip(value)) {
                                tell(Incoming::Failed(e));
                            }
                        }
                        tell(Incoming::Message(Box::new(m)));
                    }
                    None => break,
                },
                o = outbox.recv() => match o {
                    Some(Outgoing::Act { at, action }) => {
                        let _ = c.submit(at, action).await;
                    }
                    Some(Outgoing::Chat(text)) => {
                        let _ = c.chat(&text).await;
                    }
                    Some(Outgoing::Host(m)) => {
                        let _ = c.send(&m).await;
                    }
                    // The window has closed.
                    None => return,
                },
            }
        }
        tell(Incoming::Connected(false));
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// A finished game's save checked against what this window kept: the commitment of its first
/// welcome and the seat's own value.
fn check_finished(
    save: &str,
    commitment: Option<&String>,
    seat_value: Option<(u8, chain::Hash)>,
) -> Result<(), String> {
    let commitment = commitment.and_then(|c| chain::from_hex(c));
    crate::net::hosted::check_save_text(save, commitment.as_ref(), seat_value)
        .map_err(|e| format!("The host's record does not hold: {e}"))
}

/// Sends this seat's requests to the host; what a host's table cannot do is refused here.
pub fn send<G: TableGame>(
    mut requests: MessageReader<Request<G>>,
    remote: Option<ResMut<Remote>>,
    mut outcomes: MessageWriter<Outcome>,
) {
    let Some(mut remote) = remote else { return };
    for request in requests.read() {
        let refusal = match request {
            Request::Act { act: Act::Game(a), .. } => {
                remote.act(serde_json::to_value(a).expect("an action is plain data"));
                continue;
            }
            Request::Act { act: Act::RollDice(_), .. } => "the tray's dice are not rolled at a host's table",
            Request::Act { act: Act::Hand(_), .. } => "no moves by hand at a host's table: its rules are enforced",
            Request::Undo => "no undo at a host's table: an action sent is the host's",
            Request::Replace(_) => "this window sits at a host's table: open another window for another game",
            // Written here, from this seat's view (`engine::plugin`).
            Request::Restart | Request::Save(_) | Request::SaveView { .. } => continue,
        };
        outcomes.write(Outcome { accepted: false, message: refusal.to_string() });
    }
}

/// Takes in what the host sent: each update becomes the table on screen (rebuilt from the view
/// alone), a refusal a notice, the finished game's save a file.
#[allow(clippy::too_many_arguments)]
pub fn receive<G: TableGame>(
    remote: Option<ResMut<Remote>>,
    table: Option<ResMut<TableRes<G>>>,
    mut notice: ResMut<crate::table::session::Notice>,
    mut version: ResMut<TableVersion>,
    mut outcomes: MessageWriter<Outcome>,
    mut logged: MessageWriter<crate::engine::plugin::Logged<G>>,
    mut rng: Local<Option<TableRng>>,
    (act_out, mut settling): (Option<Res<crate::engine::plugin::ActOutRolls>>, ResMut<crate::engine::plugin::Settling>),
) {
    let (Some(mut remote), Some(mut table)) = (remote, table) else { return };
    let rng = rng.get_or_insert_with(|| TableRng::from_seed(crate::table::app::clock_seed()));
    let incoming: Vec<Incoming> = remote.inbox.lock().expect("not poisoned").try_iter().collect();
    remote.backlog.extend(incoming);
    let act_out = act_out.is_some_and(|a| a.0);
    while let Some(m) = remote.backlog.pop_front() {
        if remote.thrown {
            // The update whose dice are in the tray: it shows once they rest.
            if settling.active {
                remote.backlog.push_front(m);
                return;
            }
            remote.thrown = false;
        } else if let Incoming::Message(msg) = &m
            && let ToSeat::Update(u) = &**msg
            // A log sent whole (joining, a restart) throws nothing.
            && !(u.restart || remote.log.is_empty())
            && act_out
            && u.log.iter().any(|l| l.roll.is_some())
        {
            // The rolls of actions taken since this window last heard are thrown in its tray,
            // whoever rolled, before the table shows what they decided.
            for roll in u.log.iter().filter_map(|l| l.roll.clone()) {
                logged.write(crate::engine::plugin::Logged(crate::engine::table::Entry::Roll(roll)));
            }
            settling.active = true;
            remote.thrown = true;
            remote.backlog.push_front(m);
            return;
        }
        match m {
            Incoming::Connected(c) => {
                // An action sent before a drop is either in the log the host sends on return, or
                // lost with the connection: either way nothing is awaited any more.
                remote.in_flight = None;
                remote.connected = c;
                remote.problem = None;
            }
            Incoming::Failed(e) => remote.problem = Some(e),
            Incoming::Message(m) => match *m {
                ToSeat::Welcome { delay, scenario_hash, scenario, invitations, .. } => {
                    remote.delay = delay;
                    if invitations.is_some() {
                        remote.invitations = invitations;
                    }
                    if scenario_hash != table.0.game.scenario().hash {
                        let plays = if scenario.is_empty() { String::new() } else { format!(" ({scenario})") };
                        remote.problem = Some(format!(
                            "the host's table plays another scenario{plays} than this file (its hash differs)"
                        ));
                    }
                }
                ToSeat::Update(u) => {
                    match table.0.game.rebuilt_from_view(&u.view, rng) {
                        Ok(g) => {
                            table.0.game = g;
                            version.0 += 1;
                        }
                        Err(e) => remote.problem = Some(format!("the host's table could not be read: {e}")),
                    }
                    remote.index = u.index;
                    remote.waiting = false;
                    remote.clock_view = u.clock.map(|c| (*c, std::time::Instant::now()));
                    // The host took this window's action (the table went past where it was sent):
                    // accepted, as a local table says it, so an old refusal no longer shows.
                    if remote.in_flight.is_some_and(|at| at < u.index) {
                        outcomes.write(Outcome { accepted: true, message: String::new() });
                    }
                    remote.in_flight = remote.in_flight.filter(|&at| at >= u.index);
                    if u.restart {
                        remote.log.clear();
                        remote.last_roll = None;
                    }
                    for l in u.log {
                        if let Some(roll) = l.roll {
                            remote.last_roll = Some((l.text.clone(), roll));
                        }
                        remote.log.push(l.text);
                    }
                }
                ToSeat::Refused { message, .. } => {
                    remote.in_flight = None;
                    outcomes.write(Outcome { accepted: false, message });
                }
                ToSeat::Chat { from, text } => remote.chat.push((from, text)),
                ToSeat::Finished { save } => {
                    let table_name = remote.url.rsplit('/').next().unwrap_or("table").to_string();
                    let path = crate::engine::journal::default_journal_path()
                        .with_file_name(format!("{table_name}.hosted-save.ron"));
                    match std::fs::write(&path, save) {
                        Ok(()) => {
                            notice.inform(format!(
                                "The game is over: its whole save is {} (grognard verify checks every roll)",
                                path.display()
                            ));
                            remote.finished = Some(path);
                        }
                        Err(e) => notice.refuse(format!("Could not write the finished save {}: {e}", path.display())),
                    }
                }
                ToSeat::Notice { text } => notice.refuse(text),
                ToSeat::Orders { orders } => remote.orders = orders,
                ToSeat::Tables(_) => {}
            },
        }
    }
}
