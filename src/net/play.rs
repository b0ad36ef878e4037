//! A hosted table behind one face for every game: actions and views as JSON, so the host and its
//! clients need not know which game a table holds.

use super::chain::Link;
use super::hosted::{FairRecord, Hosted};
use super::proto::{LogLine, Update};
use crate::engine::kit::Kit;
use crate::engine::orders::Orders;
use crate::engine::rules::Game;
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::table::{Act, Refused, Table};

/// What the host asks of a table, whatever its game.
pub trait HostedGame: Send {
    fn seat_names(&self) -> Vec<String>;
    /// Checks and applies a seat's action (the game's action as JSON): its link in the chain, or
    /// a refusal naming its rule (nothing changed).
    fn submit_json(&mut self, seat: u8, action: &serde_json::Value) -> Result<Link, Refusal>;
    /// Applies a link read back from the host's log (a restart, the spectators' delayed copy):
    /// an error when the rules refuse it or its hash does not follow the chain.
    fn replay_link(&mut self, link: &Link) -> Result<(), String>;
    /// Accepted actions so far.
    fn index(&self) -> u64;
    fn links(&self) -> &[Link];
    fn active(&self) -> Option<u8>;
    /// What `viewer` is sent: its observation (the one gate), whose decision it is, the legal
    /// actions when the decision is its own, and the log since action `since` in its words.
    fn update(&self, viewer: Viewer, since: u64) -> Update;
    fn record(&self) -> FairRecord;
    /// The finished game's save, as RON (the host's secret in it only once the game is over).
    fn save_text(&self) -> String;
    fn digest(&self) -> String;
    fn is_over(&self) -> bool;
    /// The action the computer at `level` (a player's name: `beginner`, `strong`…) would take
    /// for `seat`, decided on that seat's view alone, as the game's JSON; an error when the
    /// decision is not that seat's or the level is not the game's.
    fn computer_json(&self, seat: u8, level: &str) -> Result<serde_json::Value, String>;
    /// The game claimed by `seat`, the other out of time: it ends here, its secret revealed in
    /// its record and save.
    fn claim(&mut self, seat: u8);
    /// The question the decision now is (`Kit::question`): the seat asked, and its kind.
    fn question(&self) -> Option<(u8, &'static str)>;
    /// Checks a seat's standing orders against the game's questions and levels.
    fn check_orders(&self, orders: &Orders) -> Result<(), String>;
    /// The action a standing order's answer gives to the question now asked of `seat` (the
    /// computer at a level, or the game's own rule), decided on that seat's view; none where it
    /// no longer fits.
    fn standing_json(&self, seat: u8, answer: &str) -> Option<serde_json::Value>;
}

/// Why an action was refused: the rule where the rules refused it, and in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub rule: Option<String>,
    pub message: String,
}

impl<G: Kit> HostedGame for Hosted<G> {
    fn seat_names(&self) -> Vec<String> {
        self.table.game.seat_names().iter().map(|s| s.to_string()).collect()
    }

    fn submit_json(&mut self, seat: u8, action: &serde_json::Value) -> Result<Link, Refusal> {
        let action: G::Action = serde_json::from_value(action.clone())
            .map_err(|e| Refusal { rule: None, message: format!("not an action of this game: {e}") })?;
        self.submit(SeatId(seat), Act::Game(action))
            .cloned()
            .map_err(|e: Refused<G>| Refusal { rule: e.rule().map(str::to_string), message: e.to_string() })
    }

    fn replay_link(&mut self, link: &Link) -> Result<(), String> {
        Hosted::replay_link(self, link)
    }

    fn index(&self) -> u64 {
        self.links.len() as u64
    }

    fn links(&self) -> &[Link] {
        &self.links
    }

    fn active(&self) -> Option<u8> {
        self.table.game.active_seat().map(|s| s.0)
    }

    fn update(&self, viewer: Viewer, since: u64) -> Update {
        update_of(self, viewer, since)
    }

    fn record(&self) -> FairRecord {
        Hosted::record(self)
    }

    fn save_text(&self) -> String {
        ron::ser::to_string_pretty(&self.save(), ron::ser::PrettyConfig::new().depth_limit(3)).expect("plain data")
    }

    fn digest(&self) -> String {
        self.table.digest()
    }

    fn is_over(&self) -> bool {
        self.table.game.is_over()
    }

    fn computer_json(&self, seat: u8, level: &str) -> Result<serde_json::Value, String> {
        let game = &self.table.game;
        if game.active_seat() != Some(SeatId(seat)) {
            return Err(format!("the decision is not seat {seat}'s"));
        }
        let player = crate::engine::kit::player_named::<G>(level)?;
        let mut legal = Vec::new();
        game.legal_actions(self.table.mode, &mut legal);
        if legal.is_empty() {
            return Err("no legal action".into());
        }
        // Its own stream, from the chain's head: the same position, the same choice.
        let head = self.links.last().map_or([0; 32], |l| l.hash);
        let mut rng =
            crate::engine::rng::TableRng::from_seed(u64::from_le_bytes(head[..8].try_into().expect("8 bytes")));
        let action = <G as Kit>::choose(game, SeatId(seat), &legal, player, &mut rng);
        Ok(serde_json::to_value(action).expect("an action is plain data"))
    }

    fn question(&self) -> Option<(u8, &'static str)> {
        self.table.game.question().map(|(s, k)| (s.0, k))
    }

    fn claim(&mut self, seat: u8) {
        self.claimed = Some(seat);
    }

    fn check_orders(&self, orders: &Orders) -> Result<(), String> {
        crate::engine::orders::check(orders, G::QUESTIONS, G::LADDER)
    }

    fn standing_json(&self, seat: u8, answer: &str) -> Option<serde_json::Value> {
        if let ("computer", Some(level)) = crate::engine::orders::split(answer) {
            return self.computer_json(seat, level).ok();
        }
        let mut legal = Vec::new();
        self.table.game.legal_actions(self.table.mode, &mut legal);
        let action = self.table.game.standing_answer(SeatId(seat), answer, &legal)?;
        Some(serde_json::to_value(action).expect("an action is plain data"))
    }
}

/// `viewer`'s update from a hosted table: everything in it passes through `observe` and
/// `entry_text`, the rules' gate for what that viewer may see.
pub fn update_of<G: Game>(h: &Hosted<G>, viewer: Viewer, since: u64) -> Update {
    table_update(&h.table, viewer, since)
}

/// `viewer`'s update from a table: its observation, whose decision it is, the legal actions when
/// the decision is the viewer's, and the log from action `since` in the viewer's words.
pub fn table_update<G: Game>(table: &Table<G>, viewer: Viewer, since: u64) -> Update {
    let game = &table.game;
    let active = game.active_seat();
    let mut legal = Vec::new();
    if active.is_some() && viewer == Viewer::Seat(active.expect("checked")) {
        let mut list = Vec::new();
        game.legal_actions(table.mode, &mut list);
        legal = list.iter().map(|a| serde_json::to_value(a).expect("an action is plain data")).collect();
    }
    let index = table.records.len();
    let log = (since as usize..index)
        .flat_map(|i| {
            let text = move |e: &crate::engine::table::Entry<G::Event>| LogLine {
                index: i as u64,
                text: game.entry_text(e, viewer),
                roll: e.roll().cloned(),
            };
            table.entries_of(i).iter().map(text)
        })
        .collect();
    Update {
        index: index as u64,
        view: serde_json::to_value(game.observe(viewer)).expect("a view is plain data"),
        active: active.map(|s| s.0),
        legal,
        over: game.is_over(),
        log,
        restart: false,
        clock: None,
        summary: None,
    }
}

/// A refusal by the host itself (not the rules).
pub fn host_refusal(message: impl Into<String>) -> Refusal {
    Refusal { rule: None, message: message.into() }
}
