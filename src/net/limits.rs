//! What keeps a public host up whatever strangers do (issue 30): a cap on the connections served
//! at once below the process's limit of open files, deadlines for a handshake, for a connection
//! that joins nothing and for a joined one that stops answering pings, and a bounded queue of
//! messages to each connection, whose reader is closed with a reason once it falls too far
//! behind instead of holding the host's memory; and (issue 63) what one address may hold: its
//! connections, its unread bytes, its tables.

use super::proto::ToSeat;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// The host's limits on each connection and on all of them.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The most connections served at once; the rest wait in the listener's queue until one
    /// ends. Kept under the process's limit of open files (`Limits::for_this_process`).
    pub connections: usize,
    /// How long a connection has to finish its WebSocket handshake.
    pub handshake: Duration,
    /// How long a connection that has joined no table may stay silent (listing the tables
    /// counts as speaking).
    pub unjoined: Duration,
    /// How long a joined connection may stay silent before it is pinged; three silences in a
    /// row (two pings unanswered) close it.
    pub ping: Duration,
    /// How many messages may wait for a connection that reads slowly ...
    pub queue: usize,
    /// ... and how many bytes of them (issue 63: one message may be large, a list of tables).
    pub queue_bytes: usize,
    /// How many bytes may wait, unread, for all the connections of one address together.
    pub address_bytes: usize,
    /// The most connections one address may have at once (IPv6: one /64); the next is refused at
    /// once, before its handshake, so that one address never holds every slot.
    pub connections_per_address: usize,
    /// The most tables not over that one address may have opened, started or not (issue 63: a
    /// client sitting at both seats started ten thousand).
    pub tables_per_address: usize,
    /// The host sits behind a proxy on this machine: a connection from the loopback address is
    /// counted at the address its `X-Forwarded-For` header names (the proxy's last entry), so
    /// that the limits per address hold for each player, not for the proxy.
    pub behind_proxy: bool,
    /// How long one message may take to be written to a connection.
    pub write: Duration,
    /// How many tables not yet started (a seat still empty) one address may have opened.
    pub unstarted_per_address: usize,
    /// How long a table may wait for its other seats: then it goes, with its log.
    pub unstarted_expiry: Duration,
    /// Refusals a connection may have at once before it is slowed down ...
    pub refusals_burst: u32,
    /// ... to this many a second.
    pub refusals_per_second: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections: 512,
            handshake: Duration::from_secs(10),
            unjoined: Duration::from_secs(60),
            ping: Duration::from_secs(30),
            queue: 256,
            queue_bytes: 4 << 20,
            address_bytes: 16 << 20,
            connections_per_address: 128,
            tables_per_address: 256,
            behind_proxy: false,
            write: Duration::from_secs(30),
            unstarted_per_address: 8,
            unstarted_expiry: Duration::from_secs(24 * 3600),
            refusals_burst: 50,
            refusals_per_second: 10,
        }
    }
}

impl Limits {
    /// The default limits, with the connections capped at half of this process's limit of open
    /// files: the other half is for the tables' logs, the listener and what the host reads.
    pub fn for_this_process() -> Limits {
        Limits { connections: (open_file_limit() / 2).clamp(8, 100_000), ..Limits::default() }.per_address_within()
    }

    /// One address held to at most a quarter of the connections: three quarters stay for others
    /// whatever one stranger does (issue 63: 128 connections of one address held a host of 256
    /// open files).
    pub fn per_address_within(self) -> Limits {
        let most = (self.connections / 4).max(1);
        Limits { connections_per_address: self.connections_per_address.min(most), ..self }
    }
}

/// The process's limit of open files (its soft limit), 1,024 where it cannot be read.
pub fn open_file_limit() -> usize {
    #[cfg(unix)]
    {
        let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: getrlimit writes into the struct it is given.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) } == 0 {
            return usize::try_from(r.rlim_cur).unwrap_or(usize::MAX);
        }
    }
    1024
}

/// Raises this process's soft limit of open files to its hard limit, as servers do: a host serves
/// as many connections as the system lets it.
pub fn raise_open_file_limit() {
    #[cfg(unix)]
    {
        let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: getrlimit and setrlimit read and write the struct they are given.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) == 0 && r.rlim_cur < r.rlim_max {
                r.rlim_cur = r.rlim_max;
                libc::setrlimit(libc::RLIMIT_NOFILE, &r);
            }
        }
    }
}

/// Why the host closed a connection, sent in its close frame: the code (RFC 6455) and the words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reason {
    pub code: u16,
    pub text: &'static str,
}

impl Reason {
    /// Whether what was queued before the closing (the refusal that says why) is written before
    /// the close frame: yes for a broken frame, no for a connection that does not read (1008).
    pub fn after_the_queue(self) -> bool {
        self.code != 1008
    }
}

/// A connection that fell this far behind is closed.
pub const TOO_FAR_BEHIND: Reason = Reason {
    code: 1008,
    text: "too far behind: the host keeps only so many unread messages and bytes for a connection and its address",
};
/// A joined connection that answered no ping.
pub const NO_ANSWER: Reason = Reason { code: 1008, text: "no answer to the host's pings" };
/// A connection that joined no table and said nothing.
pub const NOTHING_JOINED: Reason = Reason { code: 1008, text: "no table joined in time" };
/// A connection that took too long to read a message.
pub const NOT_READING: Reason = Reason { code: 1008, text: "the connection did not read what the host sent" };
/// A table whose other seats did not join in time.
pub const EXPIRED: Reason = Reason { code: 1008, text: "the table expired before its other seats joined" };
/// A started table left without a move for longer than the host keeps one (`host::lapses_after`).
/// (A normal closure, 1000: the refusal that says why is written before it.)
pub const LAPSED: Reason =
    Reason { code: 1000, text: "the table lapsed: no move for longer than the host keeps a table" };
/// A table another host serves now (this host's lease on it lapsed): come back, to be served there.
pub const TABLE_MOVED: Reason =
    Reason { code: 1012, text: "this table is now served by another host: come back to be served there" };
/// The host serving a table through this one closed the connection or went away: come back.
pub const OWNER_GONE: Reason =
    Reason { code: 1012, text: "the host serving this table went away or closed the connection: come back" };
/// The host holding a table does not answer yet: its lease runs out within seconds.
pub const TRY_AGAIN: Reason =
    Reason { code: 1013, text: "the host serving this table does not answer: come back in a few seconds" };
/// A frame or message over the host's limit (`host::MAX_FRAME`), whatever its header claims.
pub const TOO_BIG: Reason = Reason { code: 1009, text: "a frame or message over 64 KiB" };
/// A text frame that is not UTF-8.
pub const NOT_UTF8: Reason = Reason { code: 1007, text: "a text frame that is not UTF-8" };
/// Anything else the WebSocket protocol does not allow.
pub const PROTOCOL: Reason = Reason { code: 1002, text: "a frame the WebSocket protocol does not allow" };

/// A connection's allowance of refusals: a burst, then so many a second (a token bucket). A
/// connection past it is made to wait before its next message is read, so that a flood of
/// refused actions costs the host no more than a player's pace.
pub struct Allowance {
    tokens: f64,
    at: std::time::Instant,
    burst: f64,
    rate: f64,
}

impl Allowance {
    pub fn new(limits: &Limits) -> Allowance {
        let burst = f64::from(limits.refusals_burst.max(1));
        Allowance {
            tokens: burst,
            at: std::time::Instant::now(),
            burst,
            rate: f64::from(limits.refusals_per_second.max(1)),
        }
    }

    /// Takes one refusal from the allowance at `now`: how long to wait before reading on.
    pub fn take(&mut self, now: std::time::Instant) -> Duration {
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        self.tokens -= 1.0;
        if self.tokens >= 0.0 { Duration::ZERO } else { Duration::from_secs_f64(-self.tokens / self.rate) }
    }
}

/// A connection's queue of messages, bounded in messages (`Limits::queue`) and in bytes, its own
/// (`Limits::queue_bytes`) and its address's (`Limits::address_bytes`): a message that finds it
/// full closes the connection with `TOO_FAR_BEHIND` instead of waiting in memory.
#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::Sender<Frame>,
    close: Closer,
    /// Refusals sent so far.
    refused: Arc<std::sync::atomic::AtomicU64>,
    budget: Arc<Budget>,
}

/// What the messages queued for one connection weigh, and what its address's weigh together.
pub struct Budget {
    mine: AtomicUsize,
    most: usize,
    address: Option<(Arc<AtomicUsize>, usize)>,
}

impl Budget {
    /// A connection's budget under `limits`; `address`: what its address's connections hold
    /// together (none: counted alone).
    pub fn new(limits: &Limits, address: Option<Arc<AtomicUsize>>) -> Arc<Budget> {
        Arc::new(Budget {
            mine: AtomicUsize::new(0),
            most: limits.queue_bytes.max(1),
            address: address.map(|a| (a, limits.address_bytes.max(1))),
        })
    }

    /// Takes `n` bytes, or none when the connection or its address would hold more than it may.
    fn take(&self, n: usize) -> bool {
        let mine = self.mine.fetch_add(n, Ordering::SeqCst) + n;
        let theirs = self.address.as_ref().map(|(a, most)| (a.fetch_add(n, Ordering::SeqCst) + n, *most));
        if mine > self.most || theirs.is_some_and(|(held, most)| held > most) {
            self.give(n);
            return false;
        }
        true
    }

    fn give(&self, n: usize) {
        self.mine.fetch_sub(n, Ordering::SeqCst);
        if let Some((a, _)) = &self.address {
            a.fetch_sub(n, Ordering::SeqCst);
        }
    }

    /// The bytes queued for this connection and not yet written.
    pub fn held(&self) -> usize {
        self.mine.load(Ordering::SeqCst)
    }
}

/// One message queued for a connection, written once as JSON: its own, or one written once for
/// many (an edge's update for thousands of spectators, the same page of the list for everyone
/// asking within a second), whose bytes all its queues share. Its weight goes back to the
/// connection's budget when it is written or dropped.
pub struct Frame {
    text: tokio_tungstenite::tungstenite::Utf8Bytes,
    budget: Arc<Budget>,
}

impl Frame {
    /// The frame's text (the bytes shared, not copied).
    pub fn text(&self) -> tokio_tungstenite::tungstenite::Utf8Bytes {
        self.text.clone()
    }
}

impl Drop for Frame {
    fn drop(&mut self) {
        self.budget.give(self.text.len());
    }
}

/// What closes a connection with a reason, without holding its queue open (the writer's).
#[derive(Clone)]
pub struct Closer(Arc<watch::Sender<Option<Reason>>>);

impl Closer {
    /// Closes the connection with `reason` (the first reason stays).
    pub fn close(&self, reason: Reason) {
        self.0.send_if_modified(|r| r.is_none() && r.replace(reason).is_none());
    }
}

impl Outbox {
    /// A queue of `capacity` messages within `budget`: the outbox, what reads it, and what learns
    /// of a closing.
    pub fn new(
        capacity: usize,
        budget: Arc<Budget>,
    ) -> (Outbox, mpsc::Receiver<Frame>, watch::Receiver<Option<Reason>>) {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        let (close, closing) = watch::channel(None);
        (Outbox { tx, close: Closer(Arc::new(close)), refused: Default::default(), budget }, rx, closing)
    }

    /// Queues `m`; a full queue closes the connection (an error: the message is dropped).
    pub fn send(&self, m: ToSeat) -> Result<(), Reason> {
        if matches!(m, ToSeat::Refused { .. }) {
            self.refused.fetch_add(1, Ordering::Relaxed);
        }
        self.queue(serde_json::to_string(&m).expect("a message is plain data").into())
    }

    /// Queues a frame written once for many connections, as `send` does.
    pub fn send_shared(&self, text: tokio_tungstenite::tungstenite::Utf8Bytes) -> Result<(), Reason> {
        self.queue(text)
    }

    fn queue(&self, text: tokio_tungstenite::tungstenite::Utf8Bytes) -> Result<(), Reason> {
        if !self.budget.take(text.len()) {
            self.close(TOO_FAR_BEHIND);
            return Err(TOO_FAR_BEHIND);
        }
        let frame = Frame { text, budget: self.budget.clone() };
        match self.tx.try_send(frame) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.close(TOO_FAR_BEHIND);
                Err(TOO_FAR_BEHIND)
            }
            Err(mpsc::error::TrySendError::Closed(_)) => Err(NOT_READING),
        }
    }

    /// Closes the connection with `reason` (the first reason stays).
    pub fn close(&self, reason: Reason) {
        self.close.close(reason);
    }

    /// How many refusals this connection has been sent.
    pub fn refusals(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// What closes this connection without holding its queue open.
    pub fn closer(&self) -> Closer {
        self.close.clone()
    }

    /// The bytes queued for this connection and not yet written.
    pub fn held(&self) -> usize {
        self.budget.held()
    }
}

/// Before a process starts its threads: at most two malloc heaps where the C library is glibc
/// (its `M_ARENA_MAX`, what `MALLOC_ARENA_MAX=2` does). glibc gives each thread that allocates at
/// once a heap of its own, up to eight a core, and each keeps what it freed: the window's painting,
/// the host's tables at work on several threads.
pub fn fewer_heaps() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tunable of the allocator; called before the threads start.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 63, item 2: a queue bounded in messages alone held 256 copies of a 2.5 MB list.
    /// Bytes are bounded too, the connection's own and its address's together; what was written
    /// (or dropped) is given back.
    #[test]
    fn a_queue_holds_only_so_many_bytes_of_its_own_and_of_its_address() {
        let limits = Limits { queue: 256, queue_bytes: 100_000, address_bytes: 140_000, ..Limits::default() };
        let page: tokio_tungstenite::tungstenite::Utf8Bytes = "x".repeat(30_000).into();
        let (a, mut a_rx, a_closing) = Outbox::new(limits.queue, Budget::new(&limits, None));
        for _ in 0..3 {
            a.send_shared(page.clone()).unwrap();
        }
        assert_eq!(a.held(), 90_000);
        assert_eq!(a.send_shared(page.clone()), Err(TOO_FAR_BEHIND), "a fourth page is over 100,000 bytes");
        assert_eq!(*a_closing.borrow(), Some(TOO_FAR_BEHIND));
        // What the writer takes is given back.
        drop(a_rx.try_recv().unwrap());
        assert_eq!(a.held(), 60_000);
        // Two connections of one address: 140,000 bytes between them.
        let address = Arc::new(AtomicUsize::new(0));
        let (b, _b_rx, _) = Outbox::new(limits.queue, Budget::new(&limits, Some(address.clone())));
        let (c, mut c_rx, c_closing) = Outbox::new(limits.queue, Budget::new(&limits, Some(address.clone())));
        for _ in 0..3 {
            b.send_shared(page.clone()).unwrap();
        }
        c.send_shared(page.clone()).unwrap();
        assert_eq!(address.load(Ordering::SeqCst), 120_000);
        assert_eq!(c.send_shared(page.clone()), Err(TOO_FAR_BEHIND), "the address would hold 150,000");
        assert_eq!(*c_closing.borrow(), Some(TOO_FAR_BEHIND));
        drop(c_rx.try_recv().unwrap());
        assert_eq!(address.load(Ordering::SeqCst), 90_000);
        // A refused frame took nothing.
        assert_eq!(c.held(), 0);
    }
}
