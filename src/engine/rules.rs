//! The calls every game exposes to the engine (as in OpenSpiel): the legal actions of the current
//! decision point, a check that names the broken rule, and an apply that cannot fail after it.

use crate::engine::rng::TableRng;
use crate::engine::seats::{SeatId, Viewer};
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;

/// A game's scenario data shared by a table and the views of it: equal when it is the same data
/// (the same `Arc`), so a view compares by what it shows, never by the scenario's contents.
#[derive(Clone)]
pub struct Shared<T>(pub std::sync::Arc<T>);

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

thread_local! {
    /// The scenario a view or a state read from JSON is set on (`with_scenario`).
    static SCENARIO: std::cell::RefCell<Option<std::sync::Arc<dyn std::any::Any + Send + Sync>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `read` (a view or a state deserialized from what a host sent) on scenario `sc`: neither
/// carries its scenario, which the reader has loaded from the same file.
pub fn with_scenario<T: Send + Sync + 'static, R>(sc: std::sync::Arc<T>, read: impl FnOnce() -> R) -> R {
    let before = SCENARIO.with(|c| c.replace(Some(sc)));
    let out = read();
    SCENARIO.with(|c| *c.borrow_mut() = before);
    out
}

/// A view sent as JSON (by a host, a feed), read on scenario `sc`: what `Game::rebuilt_from_view`
/// deals the unseen of.
pub fn view_from_json<V: DeserializeOwned, T: Send + Sync + 'static>(
    sc: std::sync::Arc<T>,
    view: &serde_json::Value,
) -> Result<V, String> {
    with_scenario(sc, || <V as serde::Deserialize>::deserialize(view))
        .map_err(|e| format!("not a view of this game: {e}"))
}

/// The scenario of the read in progress (serde's default for a state's or a view's scenario).
/// Only `with_scenario` reads states and views, so it is always there.
pub fn scenario_from_context<T: Send + Sync + 'static>() -> std::sync::Arc<T> {
    let any = SCENARIO.with(|c| c.borrow().clone()).expect("states and views are read through with_scenario");
    any.downcast::<T>().unwrap_or_else(|_| panic!("with_scenario was given another game's scenario"))
}

/// A view's scenario, read from the context (see `with_scenario`).
impl<T: Send + Sync + 'static> Default for Shared<T> {
    fn default() -> Self {
        Shared(scenario_from_context())
    }
}

impl<T> Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Shared(..)")
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Enforced: only the rules' legal actions are accepted. Sandbox: any piece may also be moved,
/// flipped or taken off by hand (`engine::sandbox`); every such move is logged and saved like
/// any action, and the table may go back to Enforced.
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

/// A heading of a game's rulebook as a typed value: what a refusal names (see `sections!`).
pub trait Section: Copy + Debug + PartialEq + Send + Sync + 'static {
    /// The heading in the rulebook's own words.
    fn heading(self) -> &'static str;
}

/// A refusal: the rulebook section it enforces, as a typed value, and its words. The rules
/// error of every game (`Refusal<ItsSection>`); the table adds the section's
/// heading when it shows one (`TableError`).
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal<S> {
    pub section: S,
    /// Borrowed when the words are fixed: a refusal the legal list meets often costs nothing.
    pub words: std::borrow::Cow<'static, str>,
}

impl<S: Section> Refusal<S> {
    pub fn new(section: S, words: impl Into<std::borrow::Cow<'static, str>>) -> Self {
        Refusal { section, words: words.into() }
    }
}

impl<S: Section> std::fmt::Display for Refusal<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words)
    }
}

impl<S: Section> std::error::Error for Refusal<S> {}

impl<S: Section> NamesRule for Refusal<S> {
    fn rule(&self) -> &'static str {
        self.section.heading()
    }
}

/// Game `G`'s refusal.
pub type RefusalOf<G> = Refusal<<G as Game>::Section>;

/// Declares a game's rulebook sections: the enum, each variant's heading in the book's words,
/// and a module `rule` of constants by which the rules name them (`rule::COMBAT`).
#[macro_export]
macro_rules! sections {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $($konst:ident: $variant:ident = $heading:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name { $($variant),* }

        impl $crate::engine::rules::Section for $name {
            fn heading(self) -> &'static str {
                match self { $($name::$variant => $heading),* }
            }
        }

        /// The sections by the names the rules use.
        pub mod rule {
            $(pub const $konst: super::$name = super::$name::$variant;)*
        }
    };
}

/// An action that `check` accepted for its seat on the state it is applied to: the only thing
/// `apply` takes. It can only be made by `checked`, so an action read from a save, a network or
/// a click reaches the code that indexes with its ids only after the check validated them. It
/// carries what the check found (`Game::Found`: a unit's search, say) so that `apply` need not
/// find it again.
pub struct Checked<'a, A, F = ()> {
    action: &'a A,
    found: F,
}

impl<A, F> std::ops::Deref for Checked<'_, A, F> {
    type Target = A;
    fn deref(&self) -> &A {
        self.action
    }
}

impl<A, F> Checked<'_, A, F> {
    /// What the check found on the way to accepting the action.
    pub fn found(self) -> F {
        self.found
    }
}

/// Checks `action` for `seat`; on success, the proof that lets it be applied.
pub fn checked<'a, G: Game>(
    game: &G,
    mode: Mode,
    seat: SeatId,
    action: &'a G::Action,
) -> Result<Checked<'a, G::Action, G::Found>, RefusalOf<G>> {
    let found = game.check_keeping(mode, seat, action)?;
    Ok(Checked { action, found })
}

/// A game's rules over its own state. The state holds the table's seeded RNG, so `apply` is a
/// pure function of state and action: that is what makes replays and digests reproducible.
pub trait Game: Clone + Debug + Serialize + Send + Sync + 'static {
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    type Event: Clone + Debug + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// The rulebook's sections its refusals name: every game's error is a `Refusal` of them.
    type Section: Section;
    /// What one viewer may see of the table (see `observe`).
    type View: Clone + Debug + PartialEq + Serialize + Send + Sync + 'static;

    /// The id scenarios and saves carry in their `game` field.
    const ID: &'static str;

    /// The scenario this table is set on, as a save names it.
    fn scenario(&self) -> crate::engine::scenario::ScenarioRef;
    /// The names of the seats, in seat order.
    fn seat_names(&self) -> &'static [&'static str];
    /// The seat that must decide now (None when the game is over).
    fn active_seat(&self) -> Option<SeatId>;
    /// Every legal action of the current decision point, for the prompt, the highlighted
    /// destinations, the AI, the fuzzer and the validator alike.
    fn legal_actions(&self, mode: Mode, out: &mut Vec<Self::Action>);
    /// Whether `seat` may take `action` now; on error nothing has changed.
    fn check(&self, mode: Mode, seat: SeatId, action: &Self::Action) -> Result<(), Refusal<Self::Section>>;
    /// What a check may hand to `apply` so that it is not found twice (`()` where nothing is
    /// worth keeping).
    type Found: Default;
    /// `check`, keeping what it found for `apply` (see `Checked`); the same answer as `check`.
    fn check_keeping(
        &self,
        mode: Mode,
        seat: SeatId,
        action: &Self::Action,
    ) -> Result<Self::Found, Refusal<Self::Section>> {
        self.check(mode, seat, action).map(|()| Self::Found::default())
    }
    /// Carries out a checked action (see `checked`). Returns true when it is a commit point (a draw,
    /// a reveal, a shuffle, the hand-over to the other seat): undo never goes back across one.
    fn apply(
        &mut self,
        seat: SeatId,
        action: Checked<'_, Self::Action, Self::Found>,
        events: &mut Vec<Self::Event>,
    ) -> bool;
    /// What `viewer` may see: the public table and that seat's own secrets, nothing else. The one
    /// gate for hidden information: panels, the entity mirror, computer players and the network
    /// read the game through it.
    fn observe(&self, viewer: Viewer) -> Self::View;
    /// A line of the log in words as `viewer` may read it (a blind draw is "a card" to the other
    /// seat): what the host sends each connection of what happened, the public form of an action.
    fn entry_text(&self, entry: &crate::engine::log::Entry<Self::Event>, viewer: Viewer) -> String;
    /// A whole table consistent with `view`: the view's contents, everything it hides dealt at
    /// random from `rng`, and a fresh future for the dice. The search deals its determinizations
    /// with it, and the window draws the table its eyes see (`table::seen`) through it.
    fn from_view(view: &Self::View, rng: &mut TableRng) -> Self;
    /// A line of the log as `viewer` may read it, in pieces: the window's log makes the names
    /// it can find on the table links. The default: `entry_text`, all words.
    fn log_spans(
        &self,
        entry: &crate::engine::log::Entry<Self::Event>,
        viewer: Viewer,
    ) -> Vec<crate::engine::log::Span> {
        vec![crate::engine::log::Span::Text(self.entry_text(entry, viewer))]
    }
    /// A table consistent with `view` (what a host sent a viewer, as JSON): the view's contents,
    /// and whatever it hides dealt at random. A window seated at a host's table draws this, through
    /// the same gate, so it shows exactly the view. `self` gives the scenario (the same file).
    fn rebuilt_from_view(&self, view: &serde_json::Value, rng: &mut TableRng) -> Result<Self, String>;
    /// An event of the log as `viewer` may know it, for the window's panels to read (a blind
    /// draw's card only to its drawer); None where the viewer is given only its words. The
    /// default gives none.
    fn event_seen(&self, event: &Self::Event, viewer: Viewer) -> Option<Self::Event> {
        let _ = (event, viewer);
        None
    }
    fn rng(&mut self) -> &mut TableRng;
    /// A roll the rules made, as the engine's one roll entry (`Entry::Roll`); any other event
    /// comes back as it was. A game whose rules roll dice sends each roll as an event this
    /// turns into a `Roll`.
    fn into_roll(event: Self::Event) -> Result<crate::engine::roll::Roll, Self::Event> {
        Err(event)
    }
    /// The table is played across machines, each seat at its own screen (a host's table): a
    /// game whose rules ask the players to agree on something entered by hand (Victory &
    /// Glory's tabletop result) asks both seats. Called once, before the first action.
    fn play_across_machines(&mut self) {}
    fn is_over(&self) -> bool;
    fn winner(&self) -> Option<SeatId>;

    // The sandbox (`engine::sandbox`): what a hand may move where, the same four answers in every
    // game; the table checks and logs the moves.

    /// The pieces a hand may move, in a fixed order (a piece's index is its id in a `HandMove`),
    /// as `view` shows them: a counter the viewer may not identify is named as a blank.
    fn hand_pieces(view: &Self::View) -> Vec<crate::engine::sandbox::HandPiece>;
    /// The places a piece may lie on, by name, in a fixed order (the scenario's, nothing hidden).
    fn hand_places(&self) -> Vec<String>;
    /// Carries out a hand move the table found to fit the pieces and places (never `Enforce`).
    fn move_by_hand(&mut self, mv: &crate::engine::sandbox::HandMove);
    /// Whether the rules accept the position, so that a sandbox table may go back to them: the
    /// first rule it breaks.
    fn position_accepted(&self) -> Result<(), Refusal<Self::Section>>;
    /// A hand move in words as `viewer` may read it: a log line.
    fn hand_text(&self, seat: SeatId, mv: &crate::engine::sandbox::HandMove, viewer: Viewer) -> String {
        let who = self.seat_names().get(seat.0 as usize).copied().unwrap_or("?");
        crate::engine::sandbox::words(who, mv, &Self::hand_pieces(&self.observe(viewer)), &self.hand_places())
    }
}
