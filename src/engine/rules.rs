//! The calls every game exposes to the engine (as in OpenSpiel): the legal actions of the current
//! decision point, a check that names the broken rule, and an apply that cannot fail after it.

use crate::engine::rng::TableRng;
use crate::engine::seats::SeatId;
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;

/// Enforced: only the rules' legal actions are accepted. Sandbox: any piece may also be moved,
/// flipped or drawn by hand; every such move is logged and saved like any action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Mode {
    #[default]
    Enforced,
    Sandbox,
}

/// A rules error that can name the rulebook section it enforces.
pub trait NamesRule: std::error::Error {
    /// The rulebook's own heading for the rule, e.g. "3. Play a Movement Card".
    fn rule(&self) -> &'static str;
}

/// A game's rules over its own state. The state holds the table's seeded RNG, so `apply` is a
/// pure function of state and action: that is what makes replays and digests reproducible.
pub trait Game: Clone + Debug + Serialize + Send + Sync + 'static {
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    type Event: Clone + Debug + Serialize + DeserializeOwned + Send + Sync + 'static;
    type Error: NamesRule + Clone + Send + Sync + 'static;

    /// The names of the seats, in seat order.
    fn seat_names(&self) -> &'static [&'static str];
    /// The seat that must decide now (None when the game is over).
    fn active_seat(&self) -> Option<SeatId>;
    /// Every legal action of the current decision point, for the prompt, the highlighted
    /// destinations, the AI, the fuzzer and the validator alike.
    fn legal_actions(&self, mode: Mode, out: &mut Vec<Self::Action>);
    /// Whether `seat` may take `action` now; on error nothing has changed.
    fn check(&self, mode: Mode, seat: SeatId, action: &Self::Action) -> Result<(), Self::Error>;
    /// Carries out a checked action. Returns true when it is a commit point (a draw, a reveal, a
    /// shuffle, the hand-over to the other seat): undo never goes back across one.
    fn apply(&mut self, seat: SeatId, action: &Self::Action, events: &mut Vec<Self::Event>) -> bool;
    fn rng(&mut self) -> &mut TableRng;
    fn is_over(&self) -> bool;
    fn winner(&self) -> Option<SeatId>;
}
