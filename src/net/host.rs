//! The host: keeps every table (its state, its log as a chain, its dice secret), checks each
//! submitted action with the rules and sends each connection only what its seat may see — its
//! observation, the log in its words, and the legal actions when the decision is its own.
//! Connections are WebSocket (tokio-tungstenite) at `ws://HOST:PORT/TABLE`; a table is opened by
//! the first connection to its name and starts once every seat has joined with its value for the
//! dice. With a data folder every table's log is appended there and synced before anyone hears
//! of an action, so a host killed at any moment comes back with every accepted action.
//! Spectators read a copy of the table kept behind the players by the host's delay. Several
//! hosts may share one store (PostgreSQL, `pgstore`): each serves the tables it holds the lease
//! of, relays a seat to the host holding its table, takes over the tables of a host that stopped
//! renewing its leases, and puts its public tables' spectator streams on NATS (`bus`).

use super::chain::{self, Hash, Link};
use super::clock::{Clock, ClockRule, ClockView};
use super::fair;
use super::hosted::FairRecord;
use super::limits::{self, Closer, Limits, Outbox, Reason};
use super::notify::{Address, Notice, Notifier, NotifyConfig};
use super::play::{HostedGame, Refusal, host_refusal};
use super::proto::{Delay, Invitations, MySeat, TableInfo, ToHost, ToSeat};
use super::store::{Store, Whereabouts};
use crate::engine::seats::{SeatId, Viewer};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, mpsc, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::protocol::frame::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// The largest frame a connection may send (an action is a few hundred bytes).
pub const MAX_FRAME: usize = 64 * 1024;
/// The most tables one host keeps.
pub const MAX_TABLES: usize = 10_000;
/// The threads `grognard host` gives the tables' work (their rules and their disk): as many
/// tables may wait on a slow disk at once before the others wait too.
pub const TABLE_THREADS: usize = 16;
/// The most actions the host plays for a seat out of time in one skip (a turn of any game is
/// far fewer).
pub const MAX_SKIPPED: usize = 2_000;
/// The most seats one `Mine` question asks about.
pub const MAX_MINE: usize = 100;
/// The longest line of the spectators' chat, in characters.
pub const MAX_CHAT: usize = 500;
/// The most tables of stopped hosts one host takes over in one sweep (a second): the hosts left
/// share a dead host's tables out between them.
pub const TAKEN_PER_SWEEP: usize = 256;

/// Makes a table once every seat has sent its value: (table id, secret, values in seat order).
pub type MakeTable = Arc<dyn Fn(&str, Hash, Vec<Hash>) -> Result<Box<dyn HostedGame>, String> + Send + Sync>;

/// One scenario the host serves: its game, its name, its seats and how to set a table up on it.
#[derive(Clone)]
pub struct Tables {
    /// The game's id (`battle-of-the-nations`).
    pub game: String,
    /// What a seat names to open a table on it: the game's id and the file's stem
    /// (`leipzig-1813/1-historical-situation`).
    pub scenario: String,
    /// The scenario's own name, for the lobby.
    pub title: String,
    pub seats: Vec<String>,
    /// The scenario's content hash: a table's log on disk names it, and is not reopened on another.
    pub scenario_hash: String,
    pub make: MakeTable,
}

/// What `grognard host` needs for a game's scenario, from the game's own way of setting a table up
/// on a scenario file with a seed.
pub fn tables_of<G: crate::engine::kit::Kit>(
    scenario: &Path,
    load: impl Fn(&Path, u64) -> Result<crate::engine::table::Table<G>, String> + Send + Sync + 'static,
) -> Result<Tables, String> {
    let first = load(scenario, 0)?;
    let seats = first.game.seat_names().iter().map(|s| s.to_string()).collect();
    let sc = first.game.scenario();
    let p = scenario.to_path_buf();
    let make: MakeTable = Arc::new(move |id, secret, values| {
        let table = |seed| load(&p, seed).expect("it loaded when the host started");
        Ok(Box::new(super::hosted::Hosted::start(id, secret, values, table)) as Box<dyn HostedGame>)
    });
    Ok(Tables {
        game: G::ID.to_string(),
        scenario: scenario_key(G::ID, scenario),
        title: sc.name,
        seats,
        scenario_hash: sc.hash,
        make,
    })
}

/// How a seat names a scenario to a host: the game's id and the file's stem.
pub fn scenario_key(game: &str, file: &Path) -> String {
    format!("{game}/{}", file.file_stem().map(|s| s.to_string_lossy()).unwrap_or_default())
}

/// The shipped scenario file a host's name for a scenario points to (`GAME/FILE` under the
/// scenarios folder), where the name is one a host could give: two parts of letters, digits, `-`
/// and `_` (a name from a stranger's host never leads out of the scenarios folder).
pub fn scenario_file(key: &str) -> Option<std::path::PathBuf> {
    let (game, stem) = key.split_once('/')?;
    let plain = |s: &str| {
        !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    (plain(game) && plain(stem))
        .then(|| crate::engine::scenario::scenarios_root().join(game).join(format!("{stem}.ron")))
}

/// Every scenario one host serves; the first is the default, where a seat opening a table names
/// none.
#[derive(Clone)]
pub struct Catalogue {
    scenarios: Vec<Arc<Tables>>,
}

impl From<Tables> for Catalogue {
    fn from(t: Tables) -> Catalogue {
        Catalogue { scenarios: vec![Arc::new(t)] }
    }
}

impl Catalogue {
    /// The scenarios, the default first; two with one name are one too many.
    pub fn new(scenarios: Vec<Tables>) -> Result<Catalogue, String> {
        if scenarios.is_empty() {
            return Err("a host serves at least one scenario".into());
        }
        let mut names = std::collections::BTreeSet::new();
        for t in &scenarios {
            if !names.insert(t.scenario.clone()) {
                return Err(format!("the scenario `{}` is named twice", t.scenario));
            }
        }
        Ok(Catalogue { scenarios: scenarios.into_iter().map(Arc::new).collect() })
    }

    pub fn scenarios(&self) -> impl Iterator<Item = &Tables> {
        self.scenarios.iter().map(|t| &**t)
    }

    /// The scenario a seat names (none: the default), or why there is none of that name.
    fn find(&self, name: Option<&str>) -> Result<Arc<Tables>, String> {
        let Some(name) = name else { return Ok(self.scenarios[0].clone()) };
        self.scenarios.iter().find(|t| t.scenario == name).cloned().ok_or_else(|| {
            let some: Vec<&str> = self.scenarios.iter().take(20).map(|t| t.scenario.as_str()).collect();
            let name: String = name.chars().take(80).collect();
            format!("this host serves no scenario `{name}` (it serves {})", some.join(", "))
        })
    }

    /// The scenario a kept table was opened on, by its content hash.
    fn by_hash(&self, hash: &str) -> Option<Arc<Tables>> {
        self.scenarios.iter().find(|t| t.scenario_hash == hash).cloned()
    }
}

/// A line of a table's log on disk (JSON, one per line, appended and synced).
#[derive(Clone, Debug, Serialize, Deserialize)]
enum DiskLine {
    Open {
        scenario_hash: String,
        /// The scenario's name on the host that opened it (an older host served one scenario).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scenario: Option<String>,
        #[serde(with = "chain::hex32")]
        secret: Hash,
        /// A private table's invitation codes and the seat that opened it (none: a public table,
        /// or one an older host opened, when every table was listed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        private: Option<Private>,
        /// The table's clock (none: it has none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<ClockRule>,
        /// The address that opened it, counted against that address's tables after a restart
        /// too (none: an older host's line).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<std::net::IpAddr>,
    },
    /// The host was away `ms` while the seat to decide had its time running: excused from it
    /// (issue 63, item 5), written when the host came back.
    Excused { ms: u64, unix_ms: u64 },
    /// A seat taken with the token its owner chose (an older host's line brings the seat's value).
    Seat {
        seat: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<String>,
        #[serde(with = "chain::hex32")]
        token: Hash,
    },
    /// A seat's value for the dice, sent after its welcome brought the host's commitment.
    Value {
        seat: u8,
        #[serde(with = "chain::hex32")]
        value: Hash,
        /// When (the last value starts the game, and its clock).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unix_ms: Option<u64>,
    },
    /// A seat's standing orders, replacing its earlier ones (its secret, as the whole log is).
    Orders { seat: u8, orders: crate::engine::orders::Orders },
    /// The game claimed by `seat`, the other seat being out of time: the table is over.
    Claimed { seat: u8, unix_ms: u64 },
    /// The host played for `seat`, out of time, until the decision left it (the actions follow
    /// as accepted lines): another seat asked it to.
    Skipped { seat: u8, by: u8, unix_ms: u64 },
    /// A seat's notification address, left or changed when it joined (none: taken away).
    Notify {
        seat: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
    },
    /// An accepted action, as an older host wrote it (without when it was accepted).
    Action(Link),
    /// An accepted action and when, in milliseconds since 1970: a restarted host keeps its
    /// spectators exactly as far behind as before (issue 30, item 11).
    Accepted { link: Link, unix_ms: u64 },
}

/// A private table: the seat that opened it (its welcome carries the codes) and the codes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Private {
    creator: u8,
    seats: Vec<String>,
    watch: String,
}

impl Private {
    fn new(creator: u8, seats: usize) -> Private {
        // 96 bits each: short enough to paste into a message, far beyond guessing.
        let code = || chain::to_hex(&fresh_secret()[..12]);
        Private { creator, seats: (0..seats).map(|_| code()).collect(), watch: code() }
    }

    fn invitations(&self) -> Invitations {
        Invitations { seats: self.seats.clone(), watch: self.watch.clone() }
    }

    /// Whether `code` lets its holder watch: the spectators' code or any seat's.
    fn lets_watch(&self, code: Option<&str>) -> bool {
        code.is_some_and(|c| self.watch == c || self.seats.iter().any(|s| s == c))
    }
}

impl HostTable {
    /// Whether `code` lets its holder watch this table: any table may be watched but a private
    /// one, which takes one of its invitation codes or a seat's token (a seat's own broadcast
    /// window watches with it).
    fn lets_watch(&self, code: Option<&str>) -> bool {
        let Some(p) = &self.private else { return true };
        p.lets_watch(code) || code.and_then(chain::from_hex).is_some_and(|c| self.tokens.contains(&Some(c)))
    }
}

struct Conn {
    id: u64,
    seat: Option<u8>,
    tx: Outbox,
    /// The log index this connection had seen when it joined.
    since: u64,
    /// The log index its last update reached (None: it has had none yet).
    sent: Option<u64>,
}

/// What the table list and the expiry sweep read of a table, kept beside it so that neither
/// waits for a table busy with its disk.
struct Listing {
    public: bool,
    /// The address that opened it (none for a table reopened from its log) and when it was opened
    /// or reopened: a table not started within `Limits::unstarted_expiry` goes.
    opened_by: Option<std::net::IpAddr>,
    opened_at: Instant,
    started: bool,
    info: TableInfo,
    /// The table's clock and who claimed the game, for the list to show as it stands.
    clock: Option<(Clock, Option<u8>)>,
    /// When its last move was made (or the game started), in milliseconds since 1970: a table
    /// left long without one lapses (`lapses_after`).
    moved_ms: Option<u64>,
}

/// How long a started table may go without a move before it lapses and leaves the host with its
/// log (issue 63): a finished game a week after its end (its save stays in the data folder); a
/// live clock's game a day; a turn-based clock's a seat's whole time and a week more (long after
/// the other seat could have claimed it); a game without a clock 30 days.
pub fn lapses_after(clock: Option<&ClockRule>, over: bool) -> Duration {
    const DAY: Duration = Duration::from_secs(24 * 3600);
    match clock {
        _ if over => 7 * DAY,
        None => 30 * DAY,
        Some(r) if r.kind == super::clock::ClockKind::Live => DAY,
        Some(r) => Duration::from_millis(r.start_ms.max(0) as u64) + 7 * DAY,
    }
}

struct HostTable {
    id: String,
    /// The scenario it is played on.
    scenario: Arc<Tables>,
    secret: Hash,
    commitment: Hash,
    values: Vec<Option<Hash>>,
    tokens: Vec<Option<Hash>>,
    game: Option<Box<dyn HostedGame>>,
    /// The spectators' copy, behind the players by the delay (None: no delay, they read `game`).
    behind: Option<Box<dyn HostedGame>>,
    /// When each action was accepted (for a delay in seconds; read back from the log after a
    /// restart).
    accepted: Vec<SystemTime>,
    conns: Vec<Conn>,
    /// Where its log is kept (None: a host that keeps nothing, or a table gone).
    store: Option<Arc<dyn Store>>,
    private: Option<Private>,
    /// Each seat's notification address, and what went wrong with it that its seat has not
    /// heard yet.
    notify: Vec<Option<Address>>,
    notify_failed: Vec<Option<String>>,
    /// The seat last told that the decision is its own (a post goes once per turn).
    told: Option<u8>,
    /// Each seat's standing orders.
    orders: Vec<crate::engine::orders::Orders>,
    /// The table's clock (none: it has none), and the seat that claimed the game.
    clock: Option<Clock>,
    claimed: Option<u8>,
    /// The seat last seen out of time, at which action (each time is told once).
    out_told: Option<(u8, u64)>,
    /// When the game started (every seat's value in), in milliseconds since 1970.
    started_ms: Option<u64>,
    /// Taken off the host (it expired): a join that found it a moment before is refused.
    gone: bool,
    /// How far its spectators' stream has gone on the bus, and whether its end has.
    published: Option<u64>,
    published_over: bool,
    listing: Arc<Mutex<Listing>>,
    /// The host's count of changes to what the list shows (`Host::list_changed`).
    list_changed: Arc<std::sync::atomic::AtomicU64>,
}

/// One table of the host: its own lock (a slow disk or a flood at one table holds up no other),
/// and what the list shows of it.
struct Entry {
    table: Arc<Mutex<HostTable>>,
    listing: Arc<Mutex<Listing>>,
}

impl HostTable {
    /// The seat to decide now: none once the game is over or claimed.
    fn to_decide(&self) -> Option<u8> {
        if self.claimed.is_some() {
            return None;
        }
        self.game.as_ref().filter(|g| !g.is_over()).and_then(|g| g.active())
    }

    /// The clock follows the decision: the seat whose turn it is now spends its time (nobody's
    /// once the game is over or claimed).
    fn pass_clock(&mut self, now_ms: u64) {
        let active = self.to_decide();
        if let Some(c) = &mut self.clock {
            c.pass(active, now_ms);
        }
    }

    /// The clock as every seat sees it at `now_ms`.
    fn clock_view(&self, now_ms: u64) -> Option<ClockView> {
        self.clock.as_ref().map(|c| c.view(now_ms, self.claimed))
    }

    /// The seat whose time has run out at `now_ms`, and the action the table is at.
    fn out_of_time(&self, now_ms: u64) -> Option<(u8, u64)> {
        let late = self.clock.as_ref()?.out_of_time(now_ms)?;
        Some((late, self.game.as_ref().map_or(0, |g| g.index())))
    }

    /// The game claimed by `seat`: the table takes no more actions, its secret is revealed.
    fn claim(&mut self, seat: u8) {
        self.claimed = Some(seat);
        for g in [&mut self.game, &mut self.behind].into_iter().flatten() {
            g.claim(seat);
        }
    }

    /// Whether the table takes no more actions: its game over, or claimed.
    fn ended(&self) -> bool {
        self.claimed.is_some() || self.game.as_ref().is_some_and(|g| g.is_over())
    }

    /// Whether `g`, the table's game or the copy kept behind for its spectators, reads as over:
    /// its game over, or the game claimed (which ends every copy at once).
    fn over_in(&self, g: &dyn HostedGame) -> bool {
        self.claimed.is_some() || g.is_over()
    }

    /// What a connection at `seat` reads: a seat the table itself; a spectator the delayed copy,
    /// or the table itself when there is no delay.
    fn source(&self, seat: Option<u8>) -> Option<&dyn HostedGame> {
        match seat {
            Some(_) => self.game.as_deref(),
            None => self.behind.as_deref().or(self.game.as_deref()),
        }
    }

    /// The line kept in the table's log, on stable storage, before anything it says is told.
    fn append(&mut self, line: &DiskLine) -> Result<(), String> {
        let Some(store) = &self.store else { return Ok(()) };
        store.append(&self.id, &serde_json::to_string(line).expect("plain data"))
    }

    /// Brings what the list shows up to date: what a spectator sees, never ahead of the host's
    /// delay (issue 30, item 7).
    fn relist(&self) {
        // Only a public table is on the list's pages: a private one's moves leave them as written.
        if self.private.is_none() {
            self.list_changed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        let seen = self.source(None);
        let info = TableInfo {
            name: self.id.clone(),
            game: self.scenario.game.clone(),
            scenario: self.scenario.scenario.clone(),
            title: self.scenario.title.clone(),
            seats: self.scenario.seats.clone(),
            open_seats: (0..self.tokens.len() as u8).filter(|&k| self.tokens[k as usize].is_none()).collect(),
            active: seen.and_then(|g| g.active()),
            index: seen.map_or(0, |g| g.index()),
            over: seen.is_some_and(|g| self.over_in(g)),
            clock: None,
        };
        let mut l = self.listing.lock().expect("not poisoned");
        l.started = self.game.is_some();
        l.info = info;
        l.clock = self.clock.clone().map(|c| (c, self.claimed));
        l.moved_ms = self.accepted.last().map(|t| unix_ms(*t)).max(self.started_ms);
    }
}

/// Every table of one host, on every scenario it serves.
pub struct Host {
    catalogue: Catalogue,
    delay: Delay,
    /// The folder of the host's data: its store and the finished games' saves.
    data: Option<PathBuf>,
    store: Option<Arc<dyn Store>>,
    /// The tables by name. Held only to find, add or remove a table, never while one is at work.
    tables: Mutex<BTreeMap<String, Entry>>,
    next_conn: std::sync::atomic::AtomicU64,
    limits: Limits,
    /// Posts to the seats' notification addresses.
    notifier: std::sync::RwLock<Notifier>,
    /// The time of day: the system's, or one the tests drive across simulated days.
    time: std::sync::RwLock<Now>,
    /// Tables of a shared store this host took and could not reopen (a scenario it does not
    /// serve): given back, and not taken again by its sweeps.
    unservable: Mutex<Vec<String>>,
    /// Where its public tables' spectator streams go for the edges (none: no bus).
    publisher: std::sync::OnceLock<super::bus::Publisher>,
    /// Serves spectators of public tables other hosts hold from the bus, as an edge does.
    edge: std::sync::OnceLock<Arc<super::edge::Edge>>,
    /// What each address holds now: its connections and their unread bytes (issue 63).
    addresses: Mutex<HashMap<std::net::IpAddr, AddressUse>>,
    /// The pages of the list as last written, each kept a second: a list asked for again and
    /// again costs one page shared by every queue (issue 63: each answer was a copy of it all).
    pages: Mutex<HashMap<String, Page>>,
    /// Changes to what the list shows (a table opened, gone or moved on): a page written before
    /// the last is written again.
    list_changed: Arc<std::sync::atomic::AtomicU64>,
    /// Pages of the list written so far (how the tests see that a repeated list costs nothing).
    pages_written: std::sync::atomic::AtomicU64,
}

/// A page of the list as written: when, after which change, and its text.
struct Page {
    at: Instant,
    changes: u64,
    text: tokio_tungstenite::tungstenite::Utf8Bytes,
}

/// What one address holds of a host now.
struct AddressUse {
    connections: usize,
    bytes: Arc<std::sync::atomic::AtomicUsize>,
}

/// An address as the host counts it: IPv4 as it is (an IPv4-mapped IPv6 address as its IPv4),
/// IPv6 by its /64, the block one subscriber is given.
pub fn address_key(ip: std::net::IpAddr) -> std::net::IpAddr {
    match ip {
        std::net::IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => std::net::IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                std::net::IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
        v4 => v4,
    }
}

/// One connection's place among its address's: given back when the connection ends.
struct AddressSlot {
    host: Arc<Host>,
    key: std::net::IpAddr,
    bytes: Arc<std::sync::atomic::AtomicUsize>,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut all = self.host.addresses.lock().expect("not poisoned");
        if let Some(u) = all.get_mut(&self.key) {
            u.connections -= 1;
            if u.connections == 0 {
                all.remove(&self.key);
            }
        }
    }
}

/// How long a page of the list is answered as it was written.
const PAGE_KEPT: Duration = Duration::from_secs(1);

/// Where a seat joining a table is served, when several hosts share the store.
pub enum Served {
    /// Here: the table is this host's (or nowhere yet: the seat opens it here).
    Here,
    /// Through the host holding the table, at this address.
    Through(String),
    /// Nowhere just now, and why (its host's lease has not run out yet, the store is out of reach).
    NotNow(String),
}

/// Where a host reads the time of day.
pub type Now = Arc<dyn Fn() -> SystemTime + Send + Sync>;

fn unix_ms_now(host: &Host) -> u64 {
    unix_ms(host.now())
}

/// What a connection has done so far: the seat it joined (`Some(None)`: watching) at which table,
/// and its last action's number.
#[derive(Default)]
struct Session {
    joined: Option<Option<u8>>,
    table: Option<Arc<Mutex<HostTable>>>,
    seq: u64,
    conn: u64,
    /// The address the connection comes from.
    from: Option<std::net::IpAddr>,
}

/// A seat, its table, and the table locked.
type Held<'a> = (u8, &'a Arc<Mutex<HostTable>>, std::sync::MutexGuard<'a, HostTable>);

/// The seat this connection holds and its table, locked; or why it may not act there (`none`:
/// what only a seat does; or its seat came back on another connection).
fn my_seat<'a>(s: &'a Session, none: &str) -> Result<Held<'a>, String> {
    let (Some(Some(me)), Some(table)) = (s.joined, &s.table) else { return Err(none.to_string()) };
    let guard = table.lock().expect("not poisoned");
    if !guard.conns.iter().any(|c| c.id == s.conn) {
        return Err("this seat came back on another connection: this one may no longer act".into());
    }
    Ok((me, table, guard))
}

/// Tells seat `k` why its notification failed: now if it is here, else when it comes back.
fn tell_failed(t: &mut HostTable, k: u8, why: String) {
    let here: Vec<&Conn> = t.conns.iter().filter(|c| c.seat == Some(k)).collect();
    if here.is_empty() {
        t.notify_failed[k as usize] = Some(why);
    } else {
        for c in here {
            let _ = c.tx.send(ToSeat::Notice { text: why.clone() });
        }
    }
}

fn refused(seq: Option<u64>, r: Refusal) -> ToSeat {
    ToSeat::Refused { seq, rule: r.rule, message: r.message }
}

pub(crate) fn fresh_secret() -> Hash {
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).expect("the system's randomness");
    secret
}

fn viewer(seat: Option<u8>) -> Viewer {
    seat.map_or(Viewer::Spectator, |k| Viewer::Seat(SeatId(k)))
}

fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// What a seat's join says: the seat (none: watch), its token, what it has seen, the invitation
/// code it brings, and whether a table it opens is public.
struct Join {
    seat: Option<u8>,
    /// The scenario a table it opens is played on (none: the host's default).
    scenario: Option<String>,
    /// The seat's notification address (none: as it was; empty: taken away).
    notify: Option<String>,
    token: Option<String>,
    since: u64,
    code: Option<String>,
    public: bool,
    /// The clock of a table it opens.
    clock: Option<ClockRule>,
}

impl Host {
    /// A host keeping its tables in memory only.
    pub fn new(catalogue: impl Into<Catalogue>) -> Arc<Host> {
        Arc::new(Self::with(catalogue.into(), Delay::default(), None))
    }

    /// A host keeping its tables in memory only, with these limits on its connections.
    pub fn with_limits(catalogue: impl Into<Catalogue>, limits: Limits) -> Arc<Host> {
        Arc::new(Host { limits, ..Self::with(catalogue.into(), Delay::default(), None) })
    }

    fn with(catalogue: Catalogue, delay: Delay, data: Option<PathBuf>) -> Host {
        Host {
            catalogue,
            delay,
            data,
            store: None,
            tables: Mutex::new(BTreeMap::new()),
            next_conn: Default::default(),
            limits: Limits::for_this_process(),
            notifier: std::sync::RwLock::new(Notifier::new(NotifyConfig::default())),
            time: std::sync::RwLock::new(Arc::new(SystemTime::now)),
            unservable: Mutex::new(Vec::new()),
            publisher: std::sync::OnceLock::new(),
            edge: std::sync::OnceLock::new(),
            addresses: Mutex::new(HashMap::new()),
            pages: Mutex::new(HashMap::new()),
            list_changed: Default::default(),
            pages_written: Default::default(),
        }
    }

    /// A place for one more connection from `ip`, or none when its address has
    /// `Limits::connections_per_address` already.
    fn admit(self: &Arc<Self>, ip: std::net::IpAddr) -> Option<AddressSlot> {
        let key = address_key(ip);
        let mut all = self.addresses.lock().expect("not poisoned");
        let u = all.entry(key).or_insert_with(|| AddressUse { connections: 0, bytes: Default::default() });
        if u.connections >= self.limits.connections_per_address.max(1) {
            return None;
        }
        u.connections += 1;
        Some(AddressSlot { host: self.clone(), key, bytes: u.bytes.clone() })
    }

    /// Puts every public table's spectator stream on the bus through `p` from now on, and serves
    /// the spectators of public tables other hosts hold from it through `edge`.
    pub fn on_bus(&self, p: super::bus::Publisher, edge: Arc<super::edge::Edge>) {
        let _ = self.publisher.set(p);
        let _ = self.edge.set(edge);
    }

    /// What an edge starting to watch public table `id` is sent: the stream so far, as this
    /// host's spectators see it; none when this host does not hold the table or it is private.
    pub fn catchup(&self, id: &str) -> Option<Vec<u8>> {
        let table = self.table(id)?;
        let t = table.lock().expect("not poisoned");
        if t.private.is_some() || t.gone {
            return None;
        }
        let seen = t.source(None);
        let catchup = super::bus::Catchup {
            head: self.head(&t),
            update: seen.map(|g| self.update_for(&t, g, None, 0)),
            finished: seen.filter(|g| t.over_in(*g)).map(|g| g.save_text()),
        };
        Some(serde_json::to_vec(&catchup).expect("plain data"))
    }

    fn head(&self, t: &HostTable) -> super::bus::Head {
        super::bus::Head {
            seats: t.scenario.seats.clone(),
            commitment: chain::to_hex(&t.commitment),
            scenario_hash: t.scenario.scenario_hash.clone(),
            game: t.scenario.game.clone(),
            scenario: t.scenario.scenario.clone(),
            delay: self.delay,
        }
    }

    /// What a connection at `seat` (none: a spectator) who has seen `since` actions is sent of
    /// `g`, the copy it reads: on the bus, what the host's own spectators are sent.
    fn update_for(&self, t: &HostTable, g: &dyn HostedGame, seat: Option<u8>, since: u64) -> super::proto::Update {
        let mut update = g.update(viewer(seat), since);
        // The clock runs on the table itself: a spectator kept behind is not shown it.
        if seat.is_some() || self.delay == Delay::default() {
            update.clock = t.clock_view(unix_ms_now(self)).map(Box::new);
        }
        if t.claimed.is_some() {
            update.over = true;
            update.legal.clear();
        }
        update
    }

    /// Puts what a public table's spectators have not been shown on the bus (the host's delay
    /// kept: the same copy its own spectators read).
    fn publish(&self, t: &mut HostTable) {
        let Some(bus) = self.publisher.get() else { return };
        let Some(g) = t.source(None).filter(|_| t.private.is_none()) else { return };
        let over = t.over_in(g);
        if t.published == Some(g.index()) && t.published_over == over {
            return;
        }
        let from = t.published.filter(|&p| p <= g.index()).unwrap_or(0);
        let update = self.update_for(t, g, None, from);
        let index = update.index;
        bus.publish(&t.id, &super::bus::OnBus::Update { from, update: Box::new(update) });
        if over && !t.published_over {
            bus.publish(&t.id, &super::bus::OnBus::Finished { save: g.save_text() });
        }
        t.published = Some(index);
        t.published_over = over;
    }

    /// Reads the time of day from `now` (the tests' clock, driven across simulated days).
    pub fn set_time(&self, now: Now) {
        *self.time.write().expect("not poisoned") = now;
    }

    fn now(&self) -> SystemTime {
        (self.time.read().expect("not poisoned"))()
    }

    /// Posts notifications as `config` says (the host's public address for the links, whether
    /// addresses on this machine or network may be posted to, the back-off).
    pub fn notify_with(&self, config: NotifyConfig) {
        *self.notifier.write().expect("not poisoned") = Notifier::new(config);
    }

    /// Tells the seat whose decision it now is, once per turn, at its notification address (off
    /// this thread; a failure is told to its seat, now if it is here, else when it comes back).
    fn announce_turn(&self, table: &Arc<Mutex<HostTable>>, t: &mut HostTable) {
        let active = t.to_decide();
        if active == t.told {
            return;
        }
        t.told = active;
        let Some(k) = active else { return };
        let Some(address) = t.notify[k as usize].clone() else { return };
        let notifier = self.notifier.read().expect("not poisoned").clone();
        let notice = Notice {
            table: t.id.clone(),
            game: t.scenario.game.clone(),
            scenario: t.scenario.scenario.clone(),
            title: t.scenario.title.clone(),
            seat: k,
            seat_name: t.scenario.seats[k as usize].clone(),
            index: t.game.as_ref().map_or(0, |g| g.index()),
            link: notifier.link().map(|l| format!("{}/{}", l.trim_end_matches('/'), t.id)),
        };
        let weak = Arc::downgrade(table);
        // The callback runs on the post's own thread, after every try: it takes the table's lock
        // there. A post refused at once is told here, under the lock this thread already holds
        // (issue 63: the refusal once ran the callback here, which locked the table again).
        let posted = notifier.post(
            &address,
            &notice,
            Box::new(move |why| {
                let Some(table) = weak.upgrade() else { return };
                tell_failed(&mut table.lock().expect("not poisoned"), k, why);
            }),
        );
        if let Err(why) = posted {
            tell_failed(t, k, why);
        }
    }

    /// A host keeping its tables in `data` (made if missing: `grognard.sqlite`, and the finished
    /// games' saves), every table kept there reopened as it was, the logs of an older host moved
    /// in; spectators kept `delay` behind. What could not be reopened is named.
    pub fn open(
        catalogue: impl Into<Catalogue>,
        delay: Delay,
        data: Option<&Path>,
    ) -> Result<(Arc<Host>, Vec<String>), String> {
        Self::open_with_limits(catalogue, delay, data, Limits::for_this_process())
    }

    /// `open`, with these limits on its connections and tables.
    pub fn open_with_limits(
        catalogue: impl Into<Catalogue>,
        delay: Delay,
        data: Option<&Path>,
        limits: Limits,
    ) -> Result<(Arc<Host>, Vec<String>), String> {
        Self::open_at(catalogue, delay, data, limits, None)
    }

    /// `open_with_limits`, reading the time of day from `now` from the start (the tests' clock:
    /// a host reopened after a simulated downtime).
    pub fn open_at(
        catalogue: impl Into<Catalogue>,
        delay: Delay,
        data: Option<&Path>,
        limits: Limits,
        now: Option<Now>,
    ) -> Result<(Arc<Host>, Vec<String>), String> {
        let mut problems = Vec::new();
        let store: Option<Arc<dyn Store>> = match data {
            Some(dir) => {
                let (store, moved) = super::store::SqliteStore::open_in(dir)?;
                problems.extend(moved);
                Some(Arc::new(store))
            }
            None => None,
        };
        let (host, more) = Self::open_on_at(catalogue, delay, data, store, limits, now)?;
        problems.extend(more);
        Ok((host, problems))
    }

    /// A host keeping its tables in `store` (one of its own, or one shared with other hosts:
    /// then it serves the tables it holds the lease of) and its finished games' saves in `data`;
    /// the tables it serves from the start reopened. What could not be reopened is named.
    pub fn open_on(
        catalogue: impl Into<Catalogue>,
        delay: Delay,
        data: Option<&Path>,
        store: Option<Arc<dyn Store>>,
        limits: Limits,
    ) -> Result<(Arc<Host>, Vec<String>), String> {
        Self::open_on_at(catalogue, delay, data, store, limits, None)
    }

    fn open_on_at(
        catalogue: impl Into<Catalogue>,
        delay: Delay,
        data: Option<&Path>,
        store: Option<Arc<dyn Store>>,
        limits: Limits,
        now: Option<Now>,
    ) -> Result<(Arc<Host>, Vec<String>), String> {
        let mut host = Host { limits, ..Self::with(catalogue.into(), delay, data.map(Path::to_path_buf)) };
        if let Some(now) = now {
            host.time = std::sync::RwLock::new(now);
        }
        host.store = store.clone();
        let mut problems = Vec::new();
        if let Some(store) = store {
            for (id, lines) in store.load()? {
                if let Err(e) = host.adopt(&id, &lines) {
                    problems.push(e);
                }
            }
            // This run is alive from here: a run after it excuses nothing before now again.
            store.mark_alive(unix_ms_now(&host));
        }
        Ok((Arc::new(host), problems))
    }

    /// Whether other hosts share this host's store (each table served by the one holding it).
    pub fn is_shared(&self) -> bool {
        self.store.as_ref().is_some_and(|s| s.shared())
    }

    /// A table of the store, reopened from its lines and served here (unless it is already);
    /// otherwise what went wrong, naming it, and a shared store's table given back.
    fn adopt(&self, id: &str, lines: &[String]) -> Result<(), String> {
        let store = self.store.as_ref().expect("a table adopted from the store");
        let reopened = table_name(id)
            .ok_or_else(|| "not a table's name".to_string())
            .and_then(|name| self.reopen(&name, lines).map(|t| (name, t)));
        match reopened {
            Ok((name, t)) => {
                // A table taken twice at once (two seats asking for it) is served once.
                self.tables.lock().expect("not poisoned").entry(name).or_insert_with(|| self.entry(t));
                self.list_changed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Ok(())
            }
            Err(e) => {
                if store.shared() {
                    store.release(id);
                    self.unservable.lock().expect("not poisoned").push(id.to_string());
                }
                Err(format!("{}, table {id}: {e}", store.place()))
            }
        }
    }

    /// Where a seat joining table `id` is served: here, or through the host holding it. A table
    /// whose host stopped renewing its lease is taken over here, its log replayed.
    pub fn locate(&self, id: &str) -> Served {
        let Some(store) = self.store.as_ref().filter(|s| s.shared()) else { return Served::Here };
        // A table changing hands as it is asked for is asked for again.
        for _ in 0..3 {
            if self.table(id).is_some() {
                return Served::Here;
            }
            match store.locate(id) {
                Err(e) => return Served::NotNow(format!("the host cannot reach its store: {e}")),
                Ok(Whereabouts::Nowhere) => return Served::Here,
                Ok(Whereabouts::Owner(address)) => return Served::Through(address),
                Ok(Whereabouts::Here | Whereabouts::Free) => match store.take(id) {
                    Err(e) => return Served::NotNow(format!("the host cannot reach its store: {e}")),
                    Ok(None) => continue,
                    Ok(Some(lines)) => {
                        return match self.adopt(id, &lines) {
                            Ok(()) => Served::Here,
                            Err(e) => Served::NotNow(e),
                        };
                    }
                },
            }
        }
        Served::NotNow(format!("the table `{id}` is changing hosts: come back in a moment"))
    }

    /// What a host sharing its store does every moment: renews its leases, lets go of a table it
    /// no longer holds, and takes over the tables of a host that stopped renewing its own.
    fn sweep(&self) {
        let Some(store) = self.store.as_ref().filter(|s| s.shared()) else { return };
        let started = Instant::now();
        match store.renew() {
            Ok(held) => {
                let held: std::collections::HashSet<String> = held.into_iter().collect();
                // Only tables served here since before the renewal: one opened or taken over
                // meanwhile is held, though the renewal did not see it.
                let lost: Vec<Arc<Mutex<HostTable>>> = {
                    let tables = self.tables.lock().expect("not poisoned");
                    tables
                        .iter()
                        .filter(|(id, e)| {
                            !held.contains(*id) && e.listing.lock().expect("not poisoned").opened_at < started
                        })
                        .map(|(_, e)| e.table.clone())
                        .collect()
                };
                for table in lost {
                    let mut t = table.lock().expect("not poisoned");
                    if !t.gone {
                        self.lost(&mut t);
                    }
                }
            }
            Err(e) => eprintln!("the leases could not be renewed: {e}"),
        }
        let except = self.unservable.lock().expect("not poisoned").clone();
        match store.take_free(TAKEN_PER_SWEEP, &except) {
            Ok(found) => {
                // Replaying many tables takes a while: this host's own leases are renewed
                // meanwhile, or the other hosts would take them as it works.
                let every = store.lease().unwrap_or(Duration::from_secs(4)) / 4;
                let mut renewed = Instant::now();
                for (id, lines) in found {
                    if let Err(e) = self.adopt(&id, &lines) {
                        eprintln!("not taken over: {e}");
                    }
                    if renewed.elapsed() >= every {
                        let _ = store.renew();
                        renewed = Instant::now();
                    }
                }
            }
            Err(e) => eprintln!("the tables of stopped hosts could not be looked for: {e}"),
        }
    }

    /// Takes a table this host no longer holds off it (another host took it after this one's
    /// lease ran out): every connection is told to come back, to be served by its new host.
    fn lost(&self, t: &mut HostTable) {
        t.gone = true;
        t.game = None;
        t.behind = None;
        t.store = None;
        for c in t.conns.drain(..) {
            c.tx.close(limits::TABLE_MOVED);
        }
        let mut tables = self.tables.lock().expect("not poisoned");
        if tables.get(&t.id).is_some_and(|e| Arc::ptr_eq(&e.listing, &t.listing)) {
            tables.remove(&t.id);
            self.list_changed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    fn entry(&self, t: HostTable) -> Entry {
        t.relist();
        let listing = t.listing.clone();
        Entry { table: Arc::new(Mutex::new(t)), listing }
    }

    /// A table from its kept log, every line replayed as it was accepted.
    fn reopen(&self, id: &str, kept: &[String]) -> Result<HostTable, String> {
        let mut lines = Vec::with_capacity(kept.len());
        for (n, line) in kept.iter().enumerate() {
            lines.push(serde_json::from_str::<DiskLine>(line).map_err(|e| format!("line {}: {e}", n + 1))?);
        }
        let mut it = lines.into_iter();
        let Some(DiskLine::Open { scenario_hash, scenario, secret, private, clock, by }) = it.next() else {
            return Err("line 1: the table's opening line is missing".into());
        };
        let Some(tables) = self.catalogue.by_hash(&scenario_hash) else {
            let name = scenario.map_or(String::new(), |s| format!(" ({s})"));
            return Err(format!(
                "this table was played on a scenario{name} this host does not serve, or not as it is now (its hash differs)"
            ));
        };
        if private.as_ref().is_some_and(|p| p.seats.len() != tables.seats.len()) {
            return Err("line 1: the invitation codes are not one per seat".into());
        }
        let mut t = self.blank(id, tables, secret, self.store.clone(), private, clock);
        t.listing.lock().expect("not poisoned").opened_by = by;
        let seats = t.values.len();
        let seat_of = |seat: u8| (seat as usize) < seats;
        for (n, line) in it.enumerate() {
            let at = |e: String| format!("line {}: {e}", n + 2);
            let (link, when) = match line {
                DiskLine::Open { .. } => return Err(at("a second opening line".into())),
                DiskLine::Seat { seat, value, token } => {
                    if !seat_of(seat) {
                        return Err(at(format!("there is no seat {seat}")));
                    }
                    t.tokens[seat as usize] = Some(token);
                    if let Some(v) = value {
                        t.values[seat as usize] =
                            Some(chain::from_hex(&v).ok_or_else(|| at("a value not 64 hex digits".into()))?);
                    }
                    self.start_if_ready(&mut t).map_err(at)?;
                    continue;
                }
                DiskLine::Notify { seat, url } => {
                    if !seat_of(seat) {
                        return Err(at(format!("there is no seat {seat}")));
                    }
                    // An address that was taken once is kept as its seat left it.
                    t.notify[seat as usize] = url.and_then(|u| super::notify::address(&u).ok());
                    continue;
                }
                DiskLine::Value { seat, value, unix_ms } => {
                    if !seat_of(seat) || t.tokens[seat as usize].is_none() {
                        return Err(at(format!("a value for seat {seat}, which nobody took")));
                    }
                    t.values[seat as usize] = Some(value);
                    if self.start_if_ready(&mut t).map_err(at)? {
                        let now = unix_ms.unwrap_or_else(|| unix_ms_now(self));
                        t.started_ms = Some(now);
                        t.pass_clock(now);
                    }
                    continue;
                }
                DiskLine::Excused { ms, .. } => {
                    if let Some(c) = &mut t.clock {
                        c.excuse(ms);
                    }
                    continue;
                }
                DiskLine::Claimed { seat, unix_ms } => {
                    if !seat_of(seat) {
                        return Err(at(format!("there is no seat {seat}")));
                    }
                    t.claim(seat);
                    t.pass_clock(unix_ms);
                    continue;
                }
                // The actions the host played follow as accepted lines.
                DiskLine::Skipped { .. } => continue,
                DiskLine::Orders { seat, orders } => {
                    if !seat_of(seat) {
                        return Err(at(format!("there is no seat {seat}")));
                    }
                    t.orders[seat as usize] = orders;
                    continue;
                }
                // An older host's line: counted as accepted when the host came back.
                DiskLine::Action(link) => (link, self.now()),
                DiskLine::Accepted { link, unix_ms } => (link, SystemTime::UNIX_EPOCH + Duration::from_millis(unix_ms)),
            };
            let g = t.game.as_mut().ok_or_else(|| at("an action before every seat joined".into()))?;
            g.replay_link(&link).map_err(at)?;
            t.accepted.push(when);
            t.pass_clock(unix_ms(when));
        }
        // The time the host was away is not the seat's to pay (issue 63, item 5): from the last
        // moment the run before this one was alive, kept in the log for the runs after.
        let now = unix_ms_now(self);
        if let (Some(down_from), Some(clock)) = (self.store.as_ref().and_then(|s| s.last_alive(id)), &mut t.clock)
            && t.claimed.is_none()
        {
            let excused = clock.excuse_downtime(down_from, now);
            if excused > 0 {
                t.append(&DiskLine::Excused { ms: excused, unix_ms: now }).map_err(|e| format!("its log: {e}"))?;
            }
        }
        // A seat out of time before the host stopped was told then.
        t.out_told = t.out_of_time(now);
        self.release(&mut t, self.now());
        self.keep_save(&t);
        // Whoever was to play was told before the host stopped; the bus was told what its
        // spectators see (an edge that saw otherwise asks again).
        t.told = t.to_decide();
        t.published = t.source(None).map(|g| g.index());
        t.published_over = t.ended();
        Ok(t)
    }

    /// A finished game's whole save, written beside its log (before anyone hears of the end, so
    /// a restart never finds an ended game without it).
    fn keep_save(&self, t: &HostTable) {
        let (Some(dir), Some(g)) = (&self.data, &t.game) else { return };
        let path = dir.join(format!("{}.save.ron", t.id));
        if t.ended() && !path.exists() {
            // It holds the secret and every seat's value, as the log does: its owner's only.
            let _ = crate::engine::scenario::write_private(&path, &g.save_text());
        }
    }

    fn blank(
        &self,
        id: &str,
        scenario: Arc<Tables>,
        secret: Hash,
        store: Option<Arc<dyn Store>>,
        private: Option<Private>,
        clock: Option<ClockRule>,
    ) -> HostTable {
        let seats = scenario.seats.len();
        let listing = Listing {
            public: private.is_none(),
            opened_by: None,
            opened_at: Instant::now(),
            started: false,
            clock: None,
            moved_ms: None,
            info: TableInfo {
                name: id.to_string(),
                game: String::new(),
                scenario: String::new(),
                title: String::new(),
                seats: Vec::new(),
                open_seats: Vec::new(),
                active: None,
                index: 0,
                over: false,
                clock: None,
            },
        };
        HostTable {
            id: id.to_string(),
            scenario,
            secret,
            commitment: fair::commitment(id, &secret),
            values: vec![None; seats],
            tokens: vec![None; seats],
            game: None,
            behind: None,
            accepted: Vec::new(),
            conns: Vec::new(),
            store,
            private,
            notify: vec![None; seats],
            notify_failed: vec![None; seats],
            told: None,
            orders: vec![Default::default(); seats],
            clock: clock.map(|r| Clock::new(r, seats)),
            claimed: None,
            out_told: None,
            started_ms: None,
            gone: false,
            published: None,
            published_over: false,
            listing: Arc::new(Mutex::new(listing)),
            list_changed: self.list_changed.clone(),
        }
    }

    /// Sets the game up once every seat has its value (and the spectators' copy, with a delay).
    fn start_if_ready(&self, t: &mut HostTable) -> Result<bool, String> {
        if t.game.is_some() || t.values.iter().any(Option::is_none) {
            return Ok(false);
        }
        let values: Vec<Hash> = t.values.iter().map(|v| v.expect("all")).collect();
        t.game = Some((t.scenario.make)(&t.id, t.secret, values.clone())?);
        if self.delay != Delay::default() {
            t.behind = Some((t.scenario.make)(&t.id, t.secret, values)?);
        }
        Ok(true)
    }

    /// Moves the spectators' copy forward to what the delay lets them see at `now`; whether it moved.
    fn release(&self, t: &mut HostTable, now: SystemTime) -> bool {
        let ended = t.ended();
        let (Some(g), Some(b)) = (&t.game, &mut t.behind) else { return false };
        let total = g.index();
        let mut moved = false;
        while b.index() < total {
            let i = b.index() as usize;
            let count_ok = ended || total - (i as u64 + 1) >= self.delay.actions;
            let waited = now.duration_since(t.accepted[i]).unwrap_or(Duration::ZERO);
            if !(count_ok && waited >= Duration::from_secs(self.delay.seconds)) {
                break;
            }
            b.replay_link(&g.links()[i]).expect("the spectators' copy follows the same chain");
            moved = true;
        }
        moved
    }

    fn table(&self, id: &str) -> Option<Arc<Mutex<HostTable>>> {
        self.tables.lock().expect("not poisoned").get(id).map(|e| e.table.clone())
    }

    /// A finished or running table's record (the secret in it only once the game is over).
    pub fn record(&self, table: &str) -> Option<FairRecord> {
        self.table(table)?.lock().expect("not poisoned").game.as_ref().map(|g| g.record())
    }

    pub fn digest(&self, table: &str) -> Option<String> {
        self.table(table)?.lock().expect("not poisoned").game.as_ref().map(|g| g.digest())
    }

    /// The action the computer at `level` would take for `seat` at table `id`, deciding on that
    /// seat's view: how the tests play a seat through its connection as a person would.
    #[doc(hidden)]
    pub fn computer_choice(&self, id: &str, seat: u8, level: &str) -> Result<serde_json::Value, String> {
        let t = self.table(id).ok_or_else(|| format!("no table {id}"))?;
        let t = t.lock().expect("not poisoned");
        t.game.as_ref().ok_or("not started")?.computer_json(seat, level)
    }

    /// Holds table `id` busy for `d`, as a slow disk holds it while an action is synced: what
    /// the tests use to show that every other table goes on meanwhile. Whether the table exists.
    #[doc(hidden)]
    pub fn occupy(&self, id: &str, d: Duration) -> bool {
        let Some(t) = self.table(id) else { return false };
        let _held = t.lock().expect("not poisoned");
        std::thread::sleep(d);
        true
    }

    /// What the list shows of a table now: its clock as it stands (none for a host that keeps
    /// spectators behind: the list is what a spectator may see).
    fn listed(&self, l: &Listing) -> TableInfo {
        let now = unix_ms_now(self);
        let clock = l.clock.as_ref().filter(|_| self.delay == Delay::default());
        let clock = clock.map(|(c, claimed)| c.view(now, *claimed));
        TableInfo { clock, ..l.info.clone() }
    }

    /// The public tables: their seats, those still open, whose turn it is. A private table is
    /// never listed (issue 30, item 6).
    pub fn list(&self) -> Vec<TableInfo> {
        let tables = self.tables.lock().expect("not poisoned");
        tables
            .values()
            .filter_map(|e| {
                let l = e.listing.lock().expect("not poisoned");
                l.public.then(|| self.listed(&l))
            })
            .collect()
    }

    /// One page of the public tables: the first `LIST_PAGE` named after `after` (from the
    /// first: none), in the order of their names.
    pub fn list_page(&self, after: Option<&str>) -> Vec<TableInfo> {
        use std::ops::Bound;
        let tables = self.tables.lock().expect("not poisoned");
        let from = after.map_or(Bound::Unbounded, |a| Bound::Excluded(a.to_string()));
        tables
            .range((from, Bound::Unbounded))
            .filter_map(|(_, e)| {
                let l = e.listing.lock().expect("not poisoned");
                l.public.then(|| self.listed(&l))
            })
            .take(super::proto::LIST_PAGE)
            .collect()
    }

    /// The page of the list `key` as it was written within the last second, if nothing it
    /// shows has changed since.
    fn page_kept(&self, key: &str) -> Option<tokio_tungstenite::tungstenite::Utf8Bytes> {
        let changes = self.list_changed.load(std::sync::atomic::Ordering::Relaxed);
        let pages = self.pages.lock().expect("not poisoned");
        pages.get(key).filter(|p| p.at.elapsed() < PAGE_KEPT && p.changes == changes).map(|p| p.text.clone())
    }

    /// Keeps a page of the list as written after change `changes`, for a second at most (pages
    /// older than that go).
    fn keep_page(&self, key: String, changes: u64, text: tokio_tungstenite::tungstenite::Utf8Bytes) {
        self.pages_written.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut pages = self.pages.lock().expect("not poisoned");
        pages.retain(|_, p| p.at.elapsed() < PAGE_KEPT);
        // A stranger asking for pages after a thousand made-up names keeps at most so many.
        if pages.len() < 1024 {
            pages.insert(key, Page { at: Instant::now(), changes, text });
        }
    }

    /// How many pages of the list this host has written (a page asked for again is not).
    #[doc(hidden)]
    pub fn pages_written(&self) -> u64 {
        self.pages_written.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Every table's name, private ones included (for the host's operator, never sent).
    pub fn table_names(&self) -> Vec<String> {
        self.tables.lock().expect("not poisoned").keys().cloned().collect()
    }

    /// The tables of `seats` whose token is right, private ones included (at most
    /// `MAX_MINE`, the rest unread).
    pub fn mine(&self, seats: &[MySeat]) -> Vec<TableInfo> {
        seats
            .iter()
            .take(MAX_MINE)
            .filter_map(|m| {
                let token = chain::from_hex(&m.token)?;
                let entry = self.table(&m.table)?;
                let t = entry.lock().expect("not poisoned");
                (t.tokens.get(m.seat as usize).copied().flatten() == Some(token))
                    .then(|| self.listed(&t.listing.lock().expect("not poisoned")))
            })
            .collect()
    }

    fn new_table(
        &self,
        id: &str,
        scenario: Arc<Tables>,
        private: Option<Private>,
        clock: Option<ClockRule>,
        by: Option<std::net::IpAddr>,
    ) -> Result<HostTable, String> {
        let secret = fresh_secret();
        let open = DiskLine::Open {
            scenario_hash: scenario.scenario_hash.clone(),
            scenario: Some(scenario.scenario.clone()),
            secret,
            private: private.clone(),
            clock,
            by,
        };
        if let Some(store) = &self.store {
            // The opening line holds the host's secret: kept before any seat is welcomed.
            store
                .open(id, &serde_json::to_string(&open).expect("plain data"))
                .map_err(|e| format!("the table's log: {e}"))?;
        }
        let t = self.blank(id, scenario, secret, self.store.clone(), private, clock);
        t.listing.lock().expect("not poisoned").opened_by = by;
        Ok(t)
    }

    /// The table `id`, opened for `j`'s seat when there is none yet (within the host's limits);
    /// whether it was opened now. Refusals change nothing.
    fn find_or_open(
        &self,
        id: &str,
        scenario: Arc<Tables>,
        j: &Join,
        s: &Session,
    ) -> Result<(Arc<Mutex<HostTable>>, bool), String> {
        if let Some(t) = self.table(id) {
            return Ok((t, false));
        }
        // Only a seat opens a table: a stray connection leaves nothing behind.
        let Some(creator) = j.seat else {
            return Err(format!("there is no table `{id}`: a seat joining opens it"));
        };
        if j.since > 0 {
            return Err(format!("you cannot have seen action {}: the log you may see holds 0", j.since));
        }
        {
            let tables = self.tables.lock().expect("not poisoned");
            if tables.len() >= MAX_TABLES {
                return Err(format!("this host keeps {MAX_TABLES} tables already"));
            }
            // One address may keep only so many tables waiting for their other seats, and only
            // so many not over, started or not (issue 63: one client sitting at both seats filled
            // the host): room stays for everyone else.
            let from = s.from.map(address_key);
            let (mut waiting, mut playing) = (0, 0);
            for e in tables.values() {
                let l = e.listing.lock().expect("not poisoned");
                if from.is_some() && l.opened_by.map(address_key) == from && !l.info.over {
                    playing += 1;
                    waiting += usize::from(!l.started);
                }
            }
            if waiting >= self.limits.unstarted_per_address {
                return Err(format!(
                    "this address has opened {waiting} tables that have not started: let one start or expire first"
                ));
            }
            if playing >= self.limits.tables_per_address {
                return Err(format!(
                    "this address has opened {playing} tables that are not over: finish one, or let one lapse, first"
                ));
            }
        }
        // The log is made and synced with no lock held; two seats opening the same name at once
        // meet at the file (made only once) or at the insertion below.
        let private = (!j.public).then(|| Private::new(creator, scenario.seats.len()));
        let t = self
            .new_table(id, scenario, private, j.clock, s.from)
            .map_err(|e| format!("the table could not be opened: {e}"))?;
        let mut tables = self.tables.lock().expect("not poisoned");
        if tables.contains_key(id) {
            return Err(format!("the table `{id}` was opened by another seat a moment ago: join it"));
        }
        let entry = self.entry(t);
        let table = entry.table.clone();
        tables.insert(id.to_string(), entry);
        self.list_changed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok((table, true))
    }

    fn join(&self, id: &str, j: Join, tx: &Sender, s: &mut Session) {
        let refuse = |m: &str| {
            let _ = tx.send(refused(None, host_refusal(m)));
        };
        if s.joined.is_some() {
            return refuse("this connection has joined already");
        }
        // A private table tells a stranger nothing (issue 63: a wrong code was told its scenario
        // and which seats were taken): only an invitation code or a seat's token lets a join on.
        let existing = self.table(id).map(|t| {
            let t = t.lock().expect("not poisoned");
            let token = j.token.as_deref().and_then(chain::from_hex);
            let stranger = !t.lets_watch(j.code.as_deref()) && !token.is_some_and(|c| t.tokens.contains(&Some(c)));
            (t.scenario.clone(), stranger)
        });
        if existing.as_ref().is_some_and(|(_, stranger)| *stranger) {
            return refuse(&format!("the table `{id}` is private: it is joined only with its invitation code"));
        }
        let existing = existing.map(|(scenario, _)| scenario);
        let scenario = match (existing, j.scenario.as_deref()) {
            (Some(have), Some(asked)) if have.scenario != asked => {
                return refuse(&format!(
                    "the table `{id}` plays {}, not {}",
                    have.scenario,
                    asked.chars().take(80).collect::<String>()
                ));
            }
            (Some(have), _) => have,
            (None, asked) => match self.catalogue.find(asked) {
                Ok(t) => t,
                Err(e) => return refuse(&e),
            },
        };
        let seats = scenario.seats.len();
        if let Some(k) = j.seat
            && k as usize >= seats
        {
            return refuse(&format!("there is no seat {k} (seats 0 to {})", seats - 1));
        }
        // A token that is not 64 hex digits counts as none.
        let token = j.token.as_deref().and_then(chain::from_hex);
        if j.seat.is_some() && token.is_none() {
            return refuse("a seat joins with its token: 64 hex digits of its own choosing, kept to come back with");
        }
        // A notification address is checked before anything changes.
        let address = match j.notify.as_deref() {
            None => None,
            Some(_) if j.seat.is_none() => return refuse("a spectator leaves no notification address"),
            Some("") => Some(None),
            Some(url) => match self.notifier.read().expect("not poisoned").check(url) {
                Ok(a) => Some(Some(a)),
                Err(e) => return refuse(&e),
            },
        };
        let (table, opened) = match self.find_or_open(id, scenario, &j, s) {
            Ok(t) => t,
            Err(e) => return refuse(&e),
        };
        let mut guard = table.lock().expect("not poisoned");
        let t = &mut *guard;
        if t.gone {
            return refuse(&format!("the table `{id}` expired a moment ago"));
        }
        let seen = t.source(j.seat).map_or(0, |g| g.index());
        if j.since > seen {
            return refuse(&format!("you cannot have seen action {}: the log you may see holds {seen}", j.since));
        }
        match (j.seat, token) {
            (Some(k), Some(token)) => {
                let k = k as usize;
                match t.tokens[k] {
                    Some(held) if held == token => {
                        // The seat's owner, back: its old connection (if the host has not seen it
                        // drop yet) loses the seat.
                        t.conns.retain(|c| c.seat != j.seat);
                    }
                    Some(_) => {
                        return refuse(&format!(
                            "seat {k} ({}) is taken: come back with its token",
                            t.scenario.seats[k]
                        ));
                    }
                    None => {
                        // A private table's seat is taken only with its own code (issue 30, item
                        // 6); the seat that opens the table takes its own without one.
                        if let Some(p) = &t.private
                            && !opened
                            && j.code.as_deref() != Some(p.seats[k].as_str())
                        {
                            return refuse(&format!(
                                "the table `{id}` is private: seat {k} ({}) is taken only with its invitation code",
                                t.scenario.seats[k]
                            ));
                        }
                        if let Err(e) = t.append(&DiskLine::Seat { seat: k as u8, value: None, token }) {
                            return refuse(&format!("the host could not write its log: {e}"));
                        }
                        t.tokens[k] = Some(token);
                    }
                }
            }
            _ => {
                if !t.lets_watch(j.code.as_deref()) {
                    return refuse(&format!("the table `{id}` is private: watch it with its invitation code"));
                }
            }
        }
        if let (Some(k), Some(address)) = (j.seat, address)
            && t.notify[k as usize] != address
        {
            let url = address.as_ref().map(|a| a.url.clone());
            if let Err(e) = t.append(&DiskLine::Notify { seat: k, url }) {
                return refuse(&format!("the host could not write its log: {e}"));
            }
            t.notify[k as usize] = address;
        }
        s.joined = Some(j.seat);
        s.table = Some(table.clone());
        t.conns.push(Conn { id: s.conn, seat: j.seat, tx: tx.clone(), since: j.since, sent: None });
        // The commitment goes out before the host takes this seat's value (issue 30, item 14).
        let invitations = t.private.as_ref().filter(|p| j.seat == Some(p.creator)).map(Private::invitations);
        let _ = tx.send(self.head(t).welcome(j.seat, invitations));
        if let Some(why) = j.seat.and_then(|k| t.notify_failed[k as usize].take()) {
            let _ = tx.send(ToSeat::Notice { text: why });
        }
        if let Some(orders) = j.seat.map(|k| &t.orders[k as usize]).filter(|o| !o.is_empty()) {
            let _ = tx.send(ToSeat::Orders { orders: orders.clone() });
        }
        t.relist();
        self.send_update(t, s.conn);
    }

    /// A seat's value for the dice, taken once; the table starts when every seat has sent its own.
    fn value(&self, value: String, tx: &Sender, s: &Session) {
        let refuse = |m: &str| {
            let _ = tx.send(refused(None, host_refusal(m)));
        };
        let (Some(Some(k)), Some(table)) = (s.joined, &s.table) else {
            return refuse("a seat sends its value once it has joined (and read the host's commitment)");
        };
        let Some(value) = chain::from_hex(&value) else {
            return refuse("a seat's value for the dice is 64 hex digits");
        };
        let mut guard = table.lock().expect("not poisoned");
        let t = &mut *guard;
        if !t.conns.iter().any(|c| c.id == s.conn) {
            return refuse("this seat came back on another connection: this one may no longer act");
        }
        match t.values[k as usize] {
            // Sent again after a reconnection: already taken.
            Some(held) if held == value => return,
            Some(_) => return refuse(&format!("seat {k}'s value is recorded already: it does not change")),
            None => {}
        }
        let now = unix_ms_now(self);
        if let Err(e) = t.append(&DiskLine::Value { seat: k, value, unix_ms: Some(now) }) {
            return refuse(&format!("the host could not write its log: {e}"));
        }
        t.values[k as usize] = Some(value);
        match self.start_if_ready(t) {
            Ok(true) => {
                t.started_ms = Some(now);
                t.pass_clock(now);
                self.after_actions(table, t);
            }
            Ok(false) => {}
            Err(e) => refuse(&format!("the table could not be set up: {e}")),
        }
    }

    fn submit(&self, m: (u64, u64, serde_json::Value), tx: &Sender, s: &mut Session) {
        let (seq, at, action) = m;
        let refuse = |m: &str| {
            let _ = tx.send(refused(Some(seq), host_refusal(m)));
        };
        let (seat, table) = match (s.joined, &s.table) {
            (Some(Some(k)), Some(t)) => (k, t.clone()),
            (Some(None), _) => return refuse("a spectator does not act"),
            _ => return refuse("join a seat first"),
        };
        if seq != s.seq + 1 {
            return refuse(&format!("action number {seq} out of order: the next is {}", s.seq + 1));
        }
        s.seq = seq;
        let mut guard = table.lock().expect("not poisoned");
        let t = &mut *guard;
        if !t.conns.iter().any(|c| c.id == s.conn) {
            return refuse("this seat came back on another connection: this one may no longer act");
        }
        if let Some(c) = t.claimed {
            return refuse(&format!("the game is over: seat {c} claimed it, the other seat out of time"));
        }
        let Some(g) = t.game.as_mut() else { return refuse("the table waits for every seat's value for the dice") };
        if at != g.index() {
            return refuse(&format!("chosen at action {at}, but the table is at action {}", g.index()));
        }
        match g.submit_json(seat, &action) {
            Ok(link) => {
                if let Err(e) = self.keep_accepted(t, link) {
                    return refuse(&e);
                }
                self.after_actions(&table, t);
            }
            Err(r) => {
                let _ = tx.send(refused(Some(seq), r));
            }
        }
    }

    /// A seat's answer to the other seat being out of time: the game claimed (the table is
    /// over), or the host to play for the late seat until the decision leaves it (the computer at
    /// `beginner`, deciding on that seat's view; its actions are logged as that seat's). Refused,
    /// changing nothing, unless the other seat's time has run out.
    fn out_of_time(&self, claim: bool, tx: &Sender, s: &Session) {
        let refuse = |m: &str| {
            let _ = tx.send(refused(None, host_refusal(m)));
        };
        let (me, table, mut guard) =
            match my_seat(s, "only a seat at the table claims the game or skips the other seat") {
                Ok(held) => held,
                Err(e) => return refuse(&e),
            };
        let t = &mut *guard;
        if t.ended() {
            return refuse("the game is over");
        }
        let now = unix_ms_now(self);
        let Some(clock) = &t.clock else { return refuse("this table has no clock: nobody runs out of time") };
        let late = match clock.out_of_time(now) {
            Some(late) if late != me => late,
            Some(_) => return refuse("your own time has run out: the other seat may claim the game or skip you"),
            None => {
                let left = clock.view(now, None).running.map(|k| (k, clock.left(k, now)));
                let words = left.map_or(String::new(), |(k, ms)| {
                    format!(": {} has {} left", t.scenario.seats[k as usize], super::clock::words(ms))
                });
                return refuse(&format!("nobody is out of time{words}"));
            }
        };
        let line = if claim {
            DiskLine::Claimed { seat: me, unix_ms: now }
        } else {
            DiskLine::Skipped { seat: late, by: me, unix_ms: now }
        };
        if let Err(e) = t.append(&line) {
            return refuse(&format!("the host could not write its log: {e}"));
        }
        if claim {
            t.claim(me);
            t.pass_clock(now);
            self.keep_save(t);
            self.release(t, self.now());
        } else {
            let mut played = 0;
            while let Some(g) = t.game.as_mut()
                && !g.is_over()
                && g.active() == Some(late)
                && played < MAX_SKIPPED
            {
                let link = match g.computer_json(late, "beginner").and_then(|a| {
                    g.submit_json(late, &a)
                        .map_err(|r| format!("the rules refused the computer's choice: {}", r.message))
                }) {
                    Ok(link) => link,
                    Err(e) => return refuse(&format!("the host could not play for seat {late}: {e}")),
                };
                if let Err(e) = self.keep_accepted(t, link) {
                    return refuse(&e);
                }
                played += 1;
            }
            return self.after_actions(table, t);
        }
        t.relist();
        self.resend(t);
    }

    /// A seat's standing orders, checked against its game and kept (its secret: told back to
    /// it alone); a question waiting for it that they answer is answered at once.
    fn standing_orders(&self, orders: crate::engine::orders::Orders, tx: &Sender, s: &Session) {
        let refuse = |m: &str| {
            let _ = tx.send(refused(None, host_refusal(m)));
        };
        let (me, table, mut guard) = match my_seat(s, "only a seat at the table leaves standing orders") {
            Ok(held) => held,
            Err(e) => return refuse(&e),
        };
        let t = &mut *guard;
        let Some(g) = &t.game else { return refuse("standing orders are left once the table has started") };
        if let Err(e) = g.check_orders(&orders) {
            return refuse(&e);
        }
        if let Err(e) = t.append(&DiskLine::Orders { seat: me, orders: orders.clone() }) {
            return refuse(&format!("the host could not write its log: {e}"));
        }
        t.orders[me as usize] = orders.clone();
        let _ = tx.send(ToSeat::Orders { orders });
        self.after_actions(table, t);
    }

    /// Answers, on each seat's behalf, the questions its standing orders cover, one after
    /// another, each logged as that seat's action; an order that no longer fits (no answer, or
    /// one the rules refuse) leaves the question waiting. How many were answered; an error when
    /// an answer could not be kept (the table is closed then).
    fn answer_standing(&self, t: &mut HostTable) -> Result<usize, String> {
        let mut answered = 0;
        while answered < MAX_SKIPPED && t.claimed.is_none() {
            let Some(g) = t.game.as_mut().filter(|g| !g.is_over()) else { break };
            let Some((seat, kind)) = g.question() else { break };
            let Some(answer) = t.orders[seat as usize].get(kind) else { break };
            let Some(link) = g.standing_json(seat, answer).and_then(|a| g.submit_json(seat, &a).ok()) else { break };
            self.keep_accepted(t, link)?;
            answered += 1;
        }
        Ok(answered)
    }

    /// Keeps an action the rules accepted in the table's log, on stable storage, before anyone
    /// hears of it, with when it was accepted, and moves the clock on. Not kept on disk, so not
    /// accepted: nobody hears of it, and the host stops serving the table rather than forget an
    /// action after a restart.
    fn keep_accepted(&self, t: &mut HostTable, link: Link) -> Result<(), String> {
        let now = self.now();
        if let Err(e) = t.append(&DiskLine::Accepted { link, unix_ms: unix_ms(now) }) {
            if t.store.as_ref().is_some_and(|s| s.shared() && !s.still_holds(&t.id)) {
                self.lost(t);
                return Err("this table is now served by another host: come back to be served there".into());
            }
            t.game = None;
            return Err(format!("the host could not write its log ({e}): the table is closed"));
        }
        t.accepted.push(now);
        t.pass_clock(unix_ms(now));
        Ok(())
    }

    /// What follows accepted actions: the standing orders answered, the finished save kept,
    /// the spectators' copy moved on, the list, every connection and the seat to play told.
    fn after_actions(&self, table: &Arc<Mutex<HostTable>>, t: &mut HostTable) {
        if let Err(e) = self.answer_standing(t) {
            for c in &t.conns {
                let _ = c.tx.send(refused(None, host_refusal(e.clone())));
            }
            return;
        }
        self.keep_save(t);
        self.release(t, self.now());
        t.relist();
        self.broadcast(t);
        self.announce_turn(table, t);
    }

    /// Tells every connection of a table whose clock has just run out (called every second).
    fn clocks(&self) {
        let now = unix_ms_now(self);
        // The listings tell whose time runs and whose has run out, in one pass: the sweep waits
        // for no table busy with its disk, and locks only the few it has news for.
        let mut running = false;
        let late: Vec<Arc<Mutex<HostTable>>> = {
            let tables = self.tables.lock().expect("not poisoned");
            tables
                .values()
                .filter(|e| {
                    let l = e.listing.lock().expect("not poisoned");
                    let Some((c, None)) = &l.clock else { return false };
                    running |= c.is_running();
                    c.out_of_time(now).is_some()
                })
                .map(|e| e.table.clone())
                .collect()
        };
        // While some seat's time runs, the store hears every second that the host is alive (no
        // lock held): the next run excuses the seats for the time after the last mark (issue 63,
        // item 5).
        if let Some(store) = self.store.as_ref().filter(|_| running) {
            store.mark_alive(now);
        }
        for table in late {
            let mut t = table.lock().expect("not poisoned");
            let late = t.out_of_time(now);
            if t.ended() || late.is_none() || late == t.out_told {
                continue;
            }
            t.out_told = late;
            t.relist();
            self.resend(&mut t);
        }
    }

    /// Sends every connection of the table its update, new actions or not (the clock changed).
    fn resend(&self, t: &mut HostTable) {
        let ids: Vec<u64> = t.conns.iter().map(|c| c.id).collect();
        for id in ids {
            self.send_update(t, id);
        }
    }

    fn chat(&self, text: String, tx: &Sender, s: &Session) {
        let refuse = |m: &str| {
            let _ = tx.send(refused(None, host_refusal(m)));
        };
        let table = match (s.joined, &s.table) {
            (Some(None), Some(t)) => t,
            (Some(Some(_)), _) => {
                return refuse("the chat is the spectators' own: the players neither read nor write it");
            }
            _ => return refuse("join as a spectator first"),
        };
        let text: String = text.chars().filter(|c| !c.is_control()).take(MAX_CHAT).collect();
        if text.trim().is_empty() {
            return refuse("an empty line");
        }
        let t = table.lock().expect("not poisoned");
        let from = format!("spectator {}", s.conn);
        for c in t.conns.iter().filter(|c| c.seat.is_none()) {
            let _ = c.tx.send(ToSeat::Chat { from: from.clone(), text: text.clone() });
        }
    }

    /// What one message of a connection asks of its table (run off the connections' thread: it
    /// may wait for its table's disk).
    fn handle(&self, id: &str, message: ToHost, tx: &Sender, s: &mut Session) {
        match message {
            ToHost::Join { seat, token, since, code, public, scenario, notify, clock } => {
                let clock = match clock.as_deref().map(ClockRule::parse).transpose() {
                    Ok(c) => c,
                    Err(e) => return tx.send(refused(None, host_refusal(e))).unwrap_or(()),
                };
                self.join(id, Join { seat, scenario, token, since, code, public, notify, clock }, tx, s)
            }
            ToHost::Orders { orders } => self.standing_orders(orders, tx, s),
            ToHost::Claim => self.out_of_time(true, tx, s),
            ToHost::Skip => self.out_of_time(false, tx, s),
            ToHost::Value { value } => self.value(value, tx, s),
            ToHost::Submit { seq, at, action } => self.submit((seq, at, action), tx, s),
            ToHost::Chat { text } => self.chat(text, tx, s),
            ToHost::List
            | ToHost::ListAfter { .. }
            | ToHost::Mine { .. }
            | ToHost::ListHere
            | ToHost::ListHereAfter { .. }
            | ToHost::MineHere { .. } => {
                unreachable!("answered on any address, by the connection")
            }
        }
    }

    fn all_tables(&self) -> Vec<Arc<Mutex<HostTable>>> {
        self.tables.lock().expect("not poisoned").values().map(|e| e.table.clone()).collect()
    }

    /// Sends every spectator what the delay now lets it see (called on a timer).
    fn tick(&self, now: SystemTime) {
        for table in self.all_tables() {
            let mut t = table.lock().expect("not poisoned");
            if self.release(&mut t, now) {
                t.relist();
                self.broadcast(&mut t);
            }
        }
    }

    /// Removes the tables that have waited `Limits::unstarted_expiry` for their other seats, and
    /// the started ones left without a move for longer than `lapses_after` says, with their logs;
    /// a seat still connected to one is told and closed.
    fn expire(&self, now: Instant) {
        let expiry = self.limits.unstarted_expiry;
        let now_ms = unix_ms_now(self);
        // Each table going: its name, the table, and what its seats are told.
        type Going = (String, Arc<Mutex<HostTable>>, (String, Reason));
        let gone: Vec<Going> = {
            let mut tables = self.tables.lock().expect("not poisoned");
            let ids: Vec<(String, (String, Reason))> = tables
                .iter()
                .filter_map(|(id, e)| {
                    let l = e.listing.lock().expect("not poisoned");
                    if !l.started {
                        return (now.duration_since(l.opened_at) >= expiry).then(|| {
                            let why = format!(
                                "the table `{id}` expired: its other seats did not join within {} s",
                                expiry.as_secs()
                            );
                            (id.clone(), (why, limits::EXPIRED))
                        });
                    }
                    let moved = l.moved_ms?;
                    let after = lapses_after(l.clock.as_ref().map(|(c, _)| &c.rule), l.info.over);
                    (now_ms.saturating_sub(moved) >= after.as_millis() as u64).then(|| {
                        let days = after.as_secs() / 86_400;
                        let hours = after.as_secs() / 3600;
                        let span = match days {
                            0 => format!("{hours} hours"),
                            1 => "a day".to_string(),
                            d => format!("{d} days"),
                        };
                        let what = if l.info.over { "finished" } else { "without a move" };
                        (id.clone(), (format!("the table `{id}` lapsed: {what} for {span}"), limits::LAPSED))
                    })
                })
                .collect();
            if !ids.is_empty() {
                self.list_changed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            ids.into_iter().map(|(id, why)| (id.clone(), tables.remove(&id).expect("listed").table, why)).collect()
        };
        for (id, table, (why, reason)) in gone {
            let mut t = table.lock().expect("not poisoned");
            t.gone = true;
            for c in &t.conns {
                let _ = c.tx.send(refused(None, host_refusal(why.clone())));
                c.tx.close(reason);
            }
            if let Some(store) = t.store.take() {
                store.forget(&id);
            }
        }
    }

    fn send_update(&self, t: &mut HostTable, conn: u64) {
        let Some(c) = t.conns.iter().position(|c| c.id == conn) else { return };
        let Some(g) = t.source(t.conns[c].seat) else { return };
        let update = self.update_for(t, g, t.conns[c].seat, t.conns[c].sent.unwrap_or(t.conns[c].since));
        let over = t.over_in(g).then(|| g.save_text());
        let c = &mut t.conns[c];
        c.sent = Some(update.index);
        let _ = c.tx.send(ToSeat::Update(update));
        if let Some(save) = over {
            let _ = c.tx.send(ToSeat::Finished { save });
        }
    }

    /// Each connection of the table gets its own viewer's update, if it has something new, and the
    /// bus what spectators see.
    fn broadcast(&self, t: &mut HostTable) {
        self.publish(t);
        let ids: Vec<u64> = t.conns.iter().map(|c| c.id).collect();
        for id in ids {
            let c = t.conns.iter().find(|c| c.id == id).expect("listed");
            if t.source(c.seat).is_some_and(|g| c.sent.is_none_or(|sent| g.index() > sent)) {
                self.send_update(t, id);
            }
        }
    }

    fn leave(&self, s: &Session) {
        if let Some(t) = &s.table {
            t.lock().expect("not poisoned").conns.retain(|c| c.id != s.conn);
        }
    }
}

type Sender = Outbox;

/// Serves connections for ever, and releases delayed actions to spectators. At most
/// `Limits::connections` are served at once (the rest wait in the listener's queue); a failed
/// accept (the process out of open files, a connection reset before it was taken) is waited out,
/// a little longer each time it fails again, and never ends the host.
pub async fn serve(listener: TcpListener, host: Arc<Host>) {
    if host.delay.seconds > 0 {
        let h = host.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_millis(250));
            loop {
                every.tick().await;
                let h = h.clone();
                let _ = tokio::task::spawn_blocking(move || h.tick(h.now())).await;
            }
        });
    }
    {
        // A seat out of time is told within a second.
        let h = host.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(1));
            loop {
                every.tick().await;
                let h = h.clone();
                let _ = tokio::task::spawn_blocking(move || h.clocks()).await;
            }
        });
    }
    {
        // Tables left waiting for their other seats go after the stated time.
        let h = host.clone();
        let every = (host.limits.unstarted_expiry / 8).clamp(Duration::from_millis(10), Duration::from_secs(60));
        tokio::spawn(async move {
            let mut every = tokio::time::interval(every);
            loop {
                every.tick().await;
                let h = h.clone();
                let _ = tokio::task::spawn_blocking(move || h.expire(Instant::now())).await;
            }
        });
    }
    if let Some(lease) = host.store.as_ref().and_then(|s| s.lease()) {
        // Several hosts share the store: leases renewed well before they run out, and the
        // tables of a host that stopped renewing taken over.
        // On a thread of its own: a renewal never queues behind the tables' work.
        let h = Arc::downgrade(&host);
        let every = (lease / 4).clamp(Duration::from_millis(100), Duration::from_secs(1));
        std::thread::spawn(move || {
            while let Some(h) = h.upgrade() {
                let started = Instant::now();
                h.sweep();
                drop(h);
                std::thread::sleep(every.saturating_sub(started.elapsed()));
            }
        });
    }
    let served = Arc::new(Semaphore::new(host.limits.connections.max(1)));
    let mut pause = ACCEPT_PAUSE;
    loop {
        let permit = served.clone().acquire_owned().await.expect("the semaphore is never closed");
        match listener.accept().await {
            Ok((stream, from)) => {
                pause = ACCEPT_PAUSE;
                // One address holds only so many connections: the next is told so and closed at
                // once, before its handshake, and takes no slot (issue 63, item 4). Behind a proxy
                // on this machine the address is known only from the handshake's header.
                let proxied = host.limits.behind_proxy && from.ip().is_loopback();
                let slot = if proxied { None } else { host.admit(from.ip()) };
                if !proxied && slot.is_none() {
                    let most = host.limits.connections_per_address;
                    let body = format!("this address has {most} connections to this host already\n");
                    let answer = format!(
                        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = stream.try_write(answer.as_bytes());
                    drop(permit);
                    continue;
                }
                let host = host.clone();
                tokio::spawn(async move {
                    connection(stream, from.ip(), slot, host).await;
                    drop(permit);
                });
            }
            Err(e) => {
                eprintln!("a connection could not be accepted ({e}); trying again in {} ms", pause.as_millis());
                drop(permit);
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(1));
            }
        }
    }
}

/// What the other live hosts sharing the store answer to `question` (a list of their own
/// tables), each asked at once and given two seconds; a host that does not answer is left out.
async fn every_host(host: &Arc<Host>, question: ToHost) -> Vec<TableInfo> {
    let h = host.clone();
    let peers = tokio::task::spawn_blocking(move || h.store.as_ref().map(|s| s.peers()))
        .await
        .ok()
        .flatten()
        .and_then(Result::ok)
        .unwrap_or_default();
    let asked = peers.iter().map(|p| {
        let question = &question;
        async move {
            tokio::time::timeout(Duration::from_secs(2), super::client::Client::tables(p, question))
                .await
                .ok()
                .and_then(Result::ok)
                .unwrap_or_default()
        }
    });
    futures_util::future::join_all(asked).await.into_iter().flatten().collect()
}

/// Tables in the order of their names, each once (a table changing hosts as it was asked about
/// is named by both).
fn one_each(mut list: Vec<TableInfo>) -> Vec<TableInfo> {
    list.sort_by(|a, b| a.name.cmp(&b.name));
    list.dedup_by(|a, b| a.name == b.name);
    list
}

/// The first wait after a failed accept (doubled up to a second while it keeps failing).
const ACCEPT_PAUSE: Duration = Duration::from_millis(10);

pub(crate) fn table_name(path: &str) -> Option<String> {
    let name = path.trim_start_matches('/');
    (!name.is_empty() && name.len() <= 64 && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
        .then(|| name.to_string())
}

/// A connection's WebSocket handshake, within `Limits::handshake`: the socket, the address's
/// path (the table's name) and the client's address a proxy put in `X-Forwarded-For` (its last
/// entry, the one the proxy itself appended); none when it failed or took too long.
pub(crate) async fn accept(
    stream: TcpStream,
    limits: Limits,
) -> Option<(tokio_tungstenite::WebSocketStream<TcpStream>, String, Option<std::net::IpAddr>)> {
    // Small frames, each awaited by a player: sent at once, not held for more to follow.
    let _ = stream.set_nodelay(true);
    let mut path = String::new();
    let mut forwarded = None;
    let config = WebSocketConfig::default().max_message_size(Some(MAX_FRAME)).max_frame_size(Some(MAX_FRAME));
    // The handshake's only business here is the address's path (the table's name); the
    // library's callback type fixes its error type.
    #[allow(clippy::result_large_err)]
    let callback = |req: &Request, resp: Response| {
        path = req.uri().path().to_string();
        forwarded = req
            .headers()
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .next_back()
            .and_then(|a| a.trim().parse().ok());
        Ok(resp)
    };
    let handshake = tokio_tungstenite::accept_hdr_async_with_config(stream, callback, Some(config));
    let Ok(Ok(ws)) = tokio::time::timeout(limits.handshake, handshake).await else { return None };
    Some((ws, path, forwarded))
}

async fn connection(stream: TcpStream, from: std::net::IpAddr, slot: Option<AddressSlot>, host: Arc<Host>) {
    let limits = host.limits;
    let Some((ws, path, forwarded)) = accept(stream, limits).await else { return };
    // Behind a proxy: the player's address, as the proxy names it, counted now.
    let (from, slot) = match slot {
        Some(slot) => (from, slot),
        None => {
            let player = forwarded.unwrap_or(from);
            let Some(slot) = host.admit(player) else {
                let mut ws = ws;
                let most = host.limits.connections_per_address;
                let text = format!("this address has {most} connections to this host already");
                let frame = CloseFrame { code: CloseCode::Policy, reason: text.into() };
                let _ = tokio::time::timeout(limits.write, ws.close(Some(frame))).await;
                return;
            };
            (player, slot)
        }
    };
    let (sink, mut incoming) = ws.split();
    let budget = limits::Budget::new(&limits, Some(slot.bytes.clone()));
    let (tx, rx, mut closing) = Outbox::new(limits.queue, budget);
    let (ping, pings) = mpsc::channel::<()>(1);
    let writer = tokio::spawn(write_to(sink, rx, pings, closing.clone(), tx.closer(), limits));
    let id = table_name(&path);
    let mut session = Session {
        conn: host.next_conn.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
        from: Some(from),
        ..Default::default()
    };
    let mut allowance = limits::Allowance::new(&limits);
    // Silences in a row of a joined connection: it is pinged after the first and the second.
    let mut silences = 0;
    // Refusals already weighed against the connection's allowance.
    let mut weighed = 0;
    // A connection that joins nothing goes when its time is up, whatever it asks meanwhile:
    // listing the tables again and again does not keep it (issue 63, item 4).
    let unjoined_until = Instant::now() + limits.unjoined;
    loop {
        // A connection past its allowance of refusals waits before it is read again.
        while weighed < tx.refusals() {
            weighed += 1;
            let wait = allowance.take(Instant::now());
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
        }
        let wait = if session.joined.is_some() {
            limits.ping
        } else {
            unjoined_until.saturating_duration_since(Instant::now())
        };
        let next = tokio::select! {
            _ = closing.changed() => break,
            next = tokio::time::timeout(wait, incoming.next()) => next,
        };
        let msg = match next {
            Err(_) if session.joined.is_some() && silences < 2 => {
                silences += 1;
                let _ = ping.try_send(());
                continue;
            }
            Err(_) => {
                tx.close(if session.joined.is_some() { limits::NO_ANSWER } else { limits::NOTHING_JOINED });
                break;
            }
            Ok(None) => break,
            Ok(Some(Err(e))) => {
                // A frame too big, text that is not UTF-8, a broken frame: said, then closed with
                // its code, never a bare reset.
                use tokio_tungstenite::tungstenite::Error;
                let reason = match e {
                    Error::Capacity(_) => limits::TOO_BIG,
                    Error::Utf8(_) => limits::NOT_UTF8,
                    Error::Protocol(_) => limits::PROTOCOL,
                    _ => break,
                };
                let _ = tx.send(refused(None, host_refusal(reason.text)));
                tx.close(reason);
                break;
            }
            Ok(Some(Ok(msg))) => msg,
        };
        silences = 0;
        let text = match msg {
            Message::Text(t) => t.to_string(),
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
            _ => {
                let _ = tx.send(refused(None, host_refusal("the host reads text frames of JSON")));
                continue;
            }
        };
        let message = match serde_json::from_str::<ToHost>(&text) {
            Ok(m) => m,
            Err(e) => {
                let _ = tx.send(refused(None, host_refusal(format!("not a message: {e}"))));
                continue;
            }
        };
        match message {
            ToHost::List | ToHost::ListHere | ToHost::ListAfter { .. } | ToHost::ListHereAfter { .. } => {
                let (after, everywhere) = match message {
                    ToHost::List => (None, true),
                    ToHost::ListHere => (None, false),
                    ToHost::ListAfter { after } => (Some(after), true),
                    ToHost::ListHereAfter { after } => (Some(after), false),
                    _ => unreachable!("a question of the list"),
                };
                let everywhere = everywhere && host.is_shared();
                // The same page asked for within a second is the same bytes, shared.
                let key = format!(
                    "{}{}",
                    if everywhere { "*" } else { "" },
                    after.as_ref().map_or(String::new(), |a| format!(">{a}"))
                );
                let page = match host.page_kept(&key) {
                    Some(page) => page,
                    None => {
                        let changes = host.list_changed.load(std::sync::atomic::Ordering::Relaxed);
                        let mut list = host.list_page(after.as_deref());
                        if everywhere {
                            let question = match after.clone() {
                                None => ToHost::ListHere,
                                Some(after) => ToHost::ListHereAfter { after },
                            };
                            list.extend(every_host(&host, question).await);
                        }
                        let mut list = one_each(list);
                        list.truncate(super::proto::LIST_PAGE);
                        let text: tokio_tungstenite::tungstenite::Utf8Bytes =
                            serde_json::to_string(&ToSeat::Tables(list)).expect("plain data").into();
                        host.keep_page(key, changes, text.clone());
                        text
                    }
                };
                let _ = tx.send_shared(page);
                continue;
            }
            ToHost::Mine { ref seats } | ToHost::MineHere { ref seats } => {
                let everywhere = matches!(message, ToHost::Mine { .. }) && host.is_shared();
                let seats = seats.clone();
                let (h, asked) = (host.clone(), seats.clone());
                let mut mine = tokio::task::spawn_blocking(move || h.mine(&asked)).await.unwrap_or_default();
                if everywhere {
                    let seats: Vec<MySeat> = seats.into_iter().take(MAX_MINE).collect();
                    mine.extend(every_host(&host, ToHost::MineHere { seats }).await);
                }
                let _ = tx.send(ToSeat::Tables(one_each(mine)));
                continue;
            }
            _ => {}
        }
        let Some(id) = &id else {
            let m = "the address names no table: ws://HOST:PORT/TABLE (letters, digits, - and _)";
            let _ = tx.send(refused(None, host_refusal(m)));
            continue;
        };
        // Several hosts share the store: a table another host holds is served through it.
        if session.joined.is_none() && matches!(message, ToHost::Join { .. }) && host.is_shared() {
            let (h, i) = (host.clone(), id.clone());
            match tokio::task::spawn_blocking(move || h.locate(&i)).await {
                Ok(Served::Here) => {}
                Ok(Served::Through(owner)) => {
                    // A spectator of a public table: from the bus, as an edge serves it, never
                    // touching the table's host (one with a private table's code goes through).
                    let public_spectator = matches!(message, ToHost::Join { seat: None, code: None, .. });
                    match host.edge.get().filter(|_| public_spectator) {
                        Some(edge) => {
                            let line = super::edge::Line {
                                incoming: &mut incoming,
                                tx: &tx,
                                closing: &mut closing,
                                ping: &ping,
                            };
                            super::edge::serve_spectator(edge, Some(id), Some(message), line).await;
                        }
                        None => {
                            let line = super::edge::Line {
                                incoming: &mut incoming,
                                tx: &tx,
                                closing: &mut closing,
                                ping: &ping,
                            };
                            through(&owner, id, text, line, limits).await
                        }
                    }
                    break;
                }
                Ok(Served::NotNow(why)) => {
                    let _ = tx.send(refused(None, host_refusal(why)));
                    tx.close(limits::TRY_AGAIN);
                    break;
                }
                Err(_) => break,
            }
        }
        // The table's work (its rules, its disk) runs off the connections' thread, under the
        // table's own lock: one busy table holds up no other connection (issue 30, item 5).
        let work = {
            let (host, tx, id, mut s) = (host.clone(), tx.clone(), id.clone(), std::mem::take(&mut session));
            tokio::task::spawn_blocking(move || {
                host.handle(&id, message, &tx, &mut s);
                s
            })
        };
        match work.await {
            Ok(s) => session = s,
            Err(_) => break,
        }
    }
    host.leave(&session);
    drop(tx);
    let _ = writer.await;
}

pub(crate) type Sink = futures_util::stream::SplitSink<tokio_tungstenite::WebSocketStream<TcpStream>, Message>;

fn frame_text(f: limits::Frame) -> Message {
    Message::Text(f.text())
}
pub(crate) type Incoming = futures_util::stream::SplitStream<tokio_tungstenite::WebSocketStream<TcpStream>>;

/// Serves a connection through `owner`, the host holding its table: its join and every message
/// after it go there, every message from there comes back, until either side ends (a host that
/// goes away tells the connection to come back: the table is taken over within a lease).
async fn through(owner: &str, id: &str, join: String, line: super::edge::Line<'_>, limits: Limits) {
    let super::edge::Line { incoming, tx, closing, ping } = line;
    let url = format!("{}/{id}", owner.trim_end_matches('/'));
    let config = WebSocketConfig::default().max_message_size(Some(MAX_FRAME)).max_frame_size(Some(MAX_FRAME));
    let connect = tokio_tungstenite::connect_async_with_config(url, Some(config), true);
    let Ok(Ok((upstream, _))) = tokio::time::timeout(limits.handshake, connect).await else {
        let _ = tx.send(refused(None, host_refusal(limits::TRY_AGAIN.text)));
        tx.close(limits::TRY_AGAIN);
        return;
    };
    let (mut up, mut down) = upstream.split();
    if up.send(Message::text(join)).await.is_err() {
        tx.close(limits::OWNER_GONE);
        return;
    }
    // The seat is pinged here as a host's own connection is (the host it is relayed to hears
    // this host answer its pings): one gone without a word is closed after two silences.
    let (mut heard, mut silences) = (Instant::now(), 0);
    loop {
        tokio::select! {
            _ = closing.changed() => break,
            _ = tokio::time::sleep_until((heard + limits.ping).into()) => {
                if silences == 2 {
                    tx.close(limits::NO_ANSWER);
                    break;
                }
                silences += 1;
                heard = Instant::now();
                let _ = ping.try_send(());
            }
            m = incoming.next() => {
                (heard, silences) = (Instant::now(), 0);
                match m {
                    Some(Ok(Message::Text(t))) => {
                        if up.send(Message::Text(t)).await.is_err() {
                            tx.close(limits::OWNER_GONE);
                            break;
                        }
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                    _ => break,
                }
            }
            m = down.next() => match m {
                Some(Ok(Message::Text(t))) => match serde_json::from_str::<ToSeat>(&t) {
                    Ok(m) => {
                        let _ = tx.send(m);
                    }
                    Err(_) => {
                        tx.close(limits::OWNER_GONE);
                        break;
                    }
                },
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                _ => {
                    tx.close(limits::OWNER_GONE);
                    break;
                }
            },
        }
    }
    let _ = up.close().await;
}

/// Writes a connection's messages and pings until its queue ends or it is closed (then with a
/// close frame that says why). A message that cannot be written within `Limits::write` closes
/// the connection: its reader does not read.
pub(crate) async fn write_to(
    mut sink: Sink,
    mut rx: mpsc::Receiver<limits::Frame>,
    mut pings: mpsc::Receiver<()>,
    mut closing: watch::Receiver<Option<Reason>>,
    close: Closer,
    limits: Limits,
) {
    loop {
        let frame = tokio::select! {
            biased;
            _ = closing.changed() => None,
            m = rx.recv() => match m {
                Some(m) => Some(frame_text(m)),
                None => break,
            },
            Some(()) = pings.recv() => Some(Message::Ping(Vec::new().into())),
        };
        let Some(frame) = frame else {
            let reason = *closing.borrow();
            if let Some(reason) = reason {
                // What was queued before the closing (a refusal that says why) goes first.
                while let Some(m) = reason.after_the_queue().then(|| rx.try_recv().ok()).flatten() {
                    if !matches!(tokio::time::timeout(limits.write, sink.send(frame_text(m))).await, Ok(Ok(()))) {
                        return;
                    }
                }
                let frame = CloseFrame { code: CloseCode::from(reason.code), reason: reason.text.into() };
                let _ = tokio::time::timeout(limits.write, sink.send(Message::Close(Some(frame)))).await;
            }
            return;
        };
        match tokio::time::timeout(limits.write, sink.send(frame)).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return,
            Err(_) => {
                close.close(limits::NOT_READING);
                return;
            }
        }
    }
    let _ = tokio::time::timeout(limits.write, sink.close()).await;
}
