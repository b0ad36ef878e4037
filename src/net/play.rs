//! A hosted table behind one face for every game: actions and views as JSON, so the host and its
//! clients need not know which game a table holds.

use super::hosted::{FairRecord, Hosted};
use super::proto::Update;
use crate::engine::rules::Game;
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::table::{Act, TableError};

/// What the host asks of a table, whatever its game.
pub trait HostedGame: Send {
    fn seat_names(&self) -> Vec<String>;
    /// Checks and applies a seat's action (the game's action as JSON): a refusal names its rule.
    fn submit_json(&mut self, seat: u8, action: &serde_json::Value) -> Result<(), Refusal>;
    /// What `viewer` is sent after each accepted action: its observation (the one gate), whose
    /// decision it is, and the legal actions when the decision is its own.
    fn update(&self, viewer: Viewer) -> Update;
    fn record(&self) -> FairRecord;
    fn digest(&self) -> String;
    fn is_over(&self) -> bool;
}

/// Why an action was refused: the rule where the rules refused it, and in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub rule: Option<String>,
    pub message: String,
}

impl<G: Game> HostedGame for Hosted<G> {
    fn seat_names(&self) -> Vec<String> {
        self.table.game.seat_names().iter().map(|s| s.to_string()).collect()
    }

    fn submit_json(&mut self, seat: u8, action: &serde_json::Value) -> Result<(), Refusal> {
        let action: G::Action = serde_json::from_value(action.clone())
            .map_err(|e| Refusal { rule: None, message: format!("not an action of this game: {e}") })?;
        self.submit(SeatId(seat), Act::Game(action))
            .map(|_| ())
            .map_err(|e: TableError<G::Error>| Refusal { rule: e.rule().map(str::to_string), message: e.to_string() })
    }

    fn update(&self, viewer: Viewer) -> Update {
        let game = &self.table.game;
        let active = game.active_seat();
        let mut legal = Vec::new();
        if active.is_some() && viewer == Viewer::Seat(active.expect("checked")) {
            let mut list = Vec::new();
            game.legal_actions(self.table.mode, &mut list);
            legal = list.iter().map(|a| serde_json::to_value(a).expect("an action is plain data")).collect();
        }
        Update {
            index: self.links.len() as u64,
            view: serde_json::to_value(game.observe(viewer)).expect("a view is plain data"),
            active: active.map(|s| s.0),
            legal,
            over: game.is_over(),
        }
    }

    fn record(&self) -> FairRecord {
        Hosted::record(self)
    }

    fn digest(&self) -> String {
        self.table.digest()
    }

    fn is_over(&self) -> bool {
        self.table.game.is_over()
    }
}

/// A rule's name for a refusal that is not the rules' (the host's own checks).
pub fn host_refusal(message: impl Into<String>) -> Refusal {
    Refusal { rule: None, message: message.into() }
}
