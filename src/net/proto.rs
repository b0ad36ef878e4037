//! The messages between the host and a connection, as JSON text frames.

use serde::{Deserialize, Serialize};

/// From a connection to the host.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToHost {
    /// Take a seat (by number) or, with none, watch; `value` is the seat's contribution to the
    /// dice (64 hex digits), sent after the host's commitment is known.
    Join { seat: Option<u8>, value: Option<String> },
    /// A game action (the game's own JSON), numbered 1, 2, 3… on each connection.
    Submit { seq: u64, action: serde_json::Value },
}

/// From the host to a connection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToSeat {
    /// The table's seats and the host's commitment to its secret (published before any seat's value).
    Welcome {
        seat: Option<u8>,
        seats: Vec<String>,
        commitment: String,
    },
    Update(Update),
    /// An action or a message refused: why (the rule, where the rules refused it); nothing changed.
    Refused {
        seq: Option<u64>,
        rule: Option<String>,
        message: String,
    },
}

/// What one viewer is sent after each accepted action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Update {
    /// Accepted actions so far.
    pub index: u64,
    /// The viewer's observation (`Game::observe`), as the game writes it.
    pub view: serde_json::Value,
    pub active: Option<u8>,
    /// The legal actions, when the decision is this viewer's.
    pub legal: Vec<serde_json::Value>,
    pub over: bool,
}
