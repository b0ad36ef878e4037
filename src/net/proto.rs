//! The messages between the host and a connection, as JSON text frames.

use serde::{Deserialize, Serialize};

/// From a connection to the host.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToHost {
    /// Take a seat (by number) or, with none, watch. A seat comes with its token, 64 hex digits
    /// of its own choosing kept to come back with (a dropped connection, a turn days later); a
    /// private table's open seat is taken only with its invitation `code`, and a private table
    /// is watched only with one. The first seat at a new name opens the table: private unless
    /// `public`. `since`: the last log index this connection's owner has seen; the first update
    /// carries the log from there.
    Join {
        seat: Option<u8>,
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        since: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        public: bool,
        /// The scenario a table this seat opens is played on, as the host names it
        /// (`GAME/FILE`, `grognard tables` lists them; none: the host's first). Joining a table
        /// on another scenario is refused.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scenario: Option<String>,
        /// A seat's notification address: a webhook the host posts to each time the decision
        /// passes to this seat (a Discord or Slack incoming webhook, or any address taking
        /// JSON); an empty one takes it away; none leaves it as it was. The seat's secret.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        notify: Option<String>,
        /// The clock of a table this seat opens: `live:MINUTES[+SECONDS]` or
        /// `days:DAYS[+RESERVE]` (none: no clock).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<String>,
    },
    /// This seat's standing orders, replacing those it left before: for each kind of question
    /// the other seat's play asks it, an answer the host gives on its behalf (the game's own
    /// rule, or `computer:LEVEL`). The seat's secret; sent once the table has started.
    Orders { orders: crate::engine::orders::Orders },
    /// The other seat is out of time: the game is this seat's (the table is over).
    Claim,
    /// The other seat is out of time: the host plays for it (the computer at `beginner`, on
    /// that seat's view) until the decision leaves it.
    Skip,
    /// The seat's value for the dice (64 hex digits), sent once its welcome has brought the
    /// host's commitment: the host commits to its secret before it sees any seat's value.
    Value { value: String },
    /// A game action (the game's own JSON), numbered 1, 2, 3… on each connection, for the log
    /// index `at` it was chosen at (an action sent again after a reconnection is refused, not
    /// taken twice).
    Submit { seq: u64, at: u64, action: serde_json::Value },
    /// A spectator's line in the spectators' chat (the players never see it).
    Chat { text: String },
    /// The host's public tables and whose turn it is at each (answered on any address): the
    /// first `LIST_PAGE` in the order of their names (issue 63: the whole list was megabytes).
    List,
    /// The next page of the list: the public tables named after `after`, as `List` answers.
    ListAfter { after: String },
    /// The tables these seats sit at, private ones included, each shown only to the holder of
    /// its seat's token (answered on any address, as `Tables`).
    Mine { seats: Vec<MySeat> },
    /// `List`, asked by another host sharing the store: this host's own tables only.
    ListHere,
    /// `ListAfter`, asked by another host sharing the store: this host's own tables only.
    ListHereAfter { after: String },
    /// `Mine`, asked by another host sharing the store: this host's own tables only.
    MineHere { seats: Vec<MySeat> },
}

/// A seat a player holds: the table, the seat and its token, as `Mine` asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MySeat {
    pub table: String,
    pub seat: u8,
    pub token: String,
}

/// From the host to a connection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToSeat {
    /// The table's seats and the host's commitment to its secret (sent before the host takes
    /// any seat's value: a seat keeps it and checks the finished save against it); the
    /// spectators' delay; for the seat that opened a private table, the invitation codes to hand
    /// out.
    Welcome {
        seat: Option<u8>,
        seats: Vec<String>,
        commitment: String,
        /// The content hash of the scenario the host plays (a window checks its own file is it).
        scenario_hash: String,
        /// The table's game and scenario, as the host names them (an older host: empty).
        #[serde(default)]
        game: String,
        #[serde(default)]
        scenario: String,
        delay: Delay,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        invitations: Option<Invitations>,
    },
    Update(Update),
    /// An action or a message refused: why (the rule, where the rules refused it); nothing changed.
    Refused {
        seq: Option<u64>,
        rule: Option<String>,
        message: String,
    },
    /// A line of the spectators' chat.
    Chat {
        from: String,
        text: String,
    },
    Tables(Vec<TableInfo>),
    /// A word from the host to this seat alone (its notification address failed).
    Notice {
        text: String,
    },
    /// This seat's standing orders as the host keeps them (to this seat alone, after it left
    /// them and when it comes back).
    Orders {
        orders: crate::engine::orders::Orders,
    },
    /// The game is over: its whole save (every action, the seats' values and the host's
    /// revealed secret) for `grognard verify`.
    Finished {
        save: String,
    },
}

/// What one viewer is sent after each accepted action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Update {
    /// Accepted actions so far (for a spectator behind a delay: those it may see so far).
    pub index: u64,
    /// The viewer's observation (`Game::observe`), as the game writes it.
    pub view: serde_json::Value,
    pub active: Option<u8>,
    /// The legal actions, when the decision is this viewer's.
    pub legal: Vec<serde_json::Value>,
    pub over: bool,
    /// What happened since the viewer's last update, as that viewer may read it
    /// (`Game::entry_text`): the public form of the other seats' actions.
    pub log: Vec<LogLine>,
    /// The log below replaces the whole log so far (a broadcast feed after an undo at the
    /// table it shows).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub restart: bool,
    /// The table's clock (none: it has none; a spectator behind a delay is not shown it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Box<crate::net::clock::ClockView>>,
    /// For stream overlays (a broadcast feed): the table in a few public words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
}

/// The public table in a few words, for a stream overlay or a chat bot: the game, the turn,
/// phase and score line, whose turn it is, the last roll and the last lines of the log.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub game: String,
    pub scenario: String,
    /// The turn, the phase and the score, as the window's status line says them.
    pub status: String,
    /// The score, the part of the status line that counts points.
    pub score: Option<String>,
    /// Whose decision it is (a seat's name), none when the game is over.
    pub turn_of: Option<String>,
    /// The last roll of the dice in words, with its modifiers.
    pub last_roll: Option<String>,
    /// The same roll whole: who, what for, the dice, each modifier, the table read, the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<Box<crate::engine::roll::Roll>>,
    /// The last lines of the log, oldest first.
    pub captions: Vec<String>,
    pub over: bool,
    /// How far behind the table this feed is kept.
    pub delay: Delay,
    /// Each seat's chance to win, in seat order (0 to 1), from the game's evaluation of what a
    /// spectator sees (none where the game has no evaluation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance: Option<Vec<f32>>,
}

/// A line of the log: the index of the action it came from, and its words; a roll of the dice
/// also as the engine's roll entry, so a window throws it and an overlay reads it whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogLine {
    pub index: u64,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<crate::engine::roll::Roll>,
}

/// How far behind the players the spectators are kept: an action reaches them once `actions`
/// more have been taken and `seconds` have passed since it was (0 and 0: at once; the end of the
/// game releases the action count).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delay {
    pub actions: u64,
    pub seconds: u64,
}

/// The most tables one answer to `List` holds; a shorter page is the last.
pub const LIST_PAGE: usize = 200;

/// A public table of the host, as `List` answers (a private table is never listed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableInfo {
    pub name: String,
    /// The table's game, its scenario as the host names it and the scenario's own title (an
    /// older host: empty).
    #[serde(default)]
    pub game: String,
    #[serde(default)]
    pub scenario: String,
    #[serde(default)]
    pub title: String,
    pub seats: Vec<String>,
    /// The seats that have not joined yet (the table starts when none is left).
    pub open_seats: Vec<u8>,
    pub active: Option<u8>,
    pub index: u64,
    pub over: bool,
    /// The table's clock as it stands (none: it has none, or the host keeps spectators behind).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<crate::net::clock::ClockView>,
}

impl TableInfo {
    /// Seat `k`'s name at this table.
    pub fn seat_name(&self, k: u8) -> String {
        self.seats.get(k as usize).cloned().unwrap_or_else(|| format!("seat {k}"))
    }

    /// Where the table stands, in words: over, the seats it waits for, or whose turn it is.
    pub fn state(&self) -> String {
        if self.over {
            "over".to_string()
        } else if !self.open_seats.is_empty() {
            let open: Vec<String> = self.open_seats.iter().map(|&k| self.seat_name(k)).collect();
            format!("waiting for {} to join", open.join(", "))
        } else {
            self.active.map_or("—".to_string(), |k| format!("{} to play", self.seat_name(k)))
        }
    }

    /// Where the table stands for `seat`: over, its turn or the other's, and its time left.
    pub fn state_for(&self, seat: u8) -> String {
        let mut s = if self.over {
            "over".to_string()
        } else if self.active == Some(seat) {
            format!("your turn (action {})", self.index)
        } else if !self.open_seats.is_empty() {
            "waiting for a seat to join".to_string()
        } else {
            format!("waiting for the other side (action {})", self.index)
        };
        if let Some(c) = &self.clock
            && !self.over
            && let Some(&ms) = c.left_ms.get(seat as usize)
        {
            s.push_str(&format!(", {} left", crate::net::clock::words(ms)));
        }
        s
    }
}

/// A private table's invitation codes, given to the seat that opened it to hand out: one per seat
/// (a seat is taken only with its own) and one for spectators.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invitations {
    pub seats: Vec<String>,
    pub watch: String,
}
