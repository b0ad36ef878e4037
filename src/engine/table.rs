//! A table: a game's state, the log of what was done to it, and undo back to the last commit
//! point. Every way of producing actions (pointer, egui, AI, replay) goes through `submit`.

use crate::engine::digest::digest_of;
use crate::engine::roll::Roll;
use crate::engine::rules::{Game, Mode, NamesRule, checked};
use crate::engine::sandbox::{HandMove, SANDBOX_RULE};
use crate::engine::seats::{SeatId, Viewer};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// What a seat asks of the table: a game action, or a roll of dice from the tray.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Act<A> {
    Game(A),
    /// Roll this many six-sided dice from the tray; values come from the table's RNG.
    RollDice(u8),
    /// A move by hand: a sandbox table only (`engine::sandbox`).
    Hand(HandMove),
}

/// One line of the action log, as saved and replayed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record<A> {
    pub seat: SeatId,
    pub act: Act<A>,
}

pub use crate::engine::log::Entry;

/// Why the table refused an action. It names the rule; the table is untouched.
#[derive(Clone, Debug, Error)]
pub enum TableError<E: NamesRule> {
    #[error("{0} (rule: {rule})", rule = .0.rule())]
    Rule(E),
    #[error("there is nothing to undo since the last commit point (a roll, a draw, a reveal or a hand-over)")]
    NothingToUndo,
    #[error("a roll must be of 1 to 20 dice, not {0}")]
    BadRoll(u8),
    #[error("only the seat whose decision it is may roll the dice")]
    NotYourRoll,
    /// A hand move refused: the table is not a sandbox, it is not this seat's decision, or the
    /// move does not fit the pieces (its words say which).
    #[error("{0} (rule: {SANDBOX_RULE})")]
    Hand(String),
}

impl<E: NamesRule> TableError<E> {
    /// The rulebook section the refusal cites, where there is one.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            TableError::Rule(e) => Some(e.rule()),
            TableError::Hand(_) => Some(SANDBOX_RULE),
            _ => None,
        }
    }
}

/// A refusal of game `G`'s table.
pub type Refused<G> = TableError<crate::engine::rules::RefusalOf<G>>;

/// Where a replay stopped: the index of the bad record, the record, and why it was refused.
pub type ReplayFailure<G> = (usize, Record<<G as Game>::Action>, Refused<G>);

#[derive(Clone, Debug)]
pub struct Table<G: Game> {
    pub game: G,
    /// The mode now (a sandbox table that went back to the rules is `Enforced`).
    pub mode: Mode,
    /// The mode the table began in: what a save keeps, so that its log replays.
    pub began: Mode,
    pub seed: u64,
    /// The effective log: undone actions are removed from it.
    pub records: Vec<Record<G::Action>>,
    /// The readable log; `entry_marks[i]` is where record `i`'s entries begin.
    pub entries: Vec<Entry<G::Event>>,
    entry_marks: Vec<usize>,
    /// The state at the last commit point and the number of records it includes. Taken at the
    /// first action (the state is the table's first until then), so that a table that never
    /// undoes never copies its state.
    checkpoint: Option<G>,
    checkpoint_len: usize,
    /// Whether undo is offered: a table played out headless (a computer's games, `simulate`'s
    /// replay check) never undoes, and a copy of the state at every commit point was a tenth of
    /// a Battle of the Nations game.
    undo: bool,
    scratch: Vec<G::Event>,
}

impl<G: Game> Table<G> {
    pub fn new(game: G, seed: u64, mode: Mode) -> Self {
        Self {
            checkpoint: None,
            game,
            mode,
            began: mode,
            seed,
            records: Vec::new(),
            entries: Vec::new(),
            entry_marks: Vec::new(),
            checkpoint_len: 0,
            undo: true,
            scratch: Vec::new(),
        }
    }

    /// The same table in `mode` from its beginning (a new table: its log, if any, replays the
    /// same in either mode).
    pub fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self.began = mode;
        self
    }

    /// Room for `records` more records and `entries` more log entries (a replay that knows how
    /// long the log it replays grew need not grow its own step by step).
    pub fn reserve(&mut self, records: usize, entries: usize) {
        self.records.reserve(records);
        self.entry_marks.reserve(records);
        self.entries.reserve(entries);
    }

    /// The same table with undo turned off from here on: no action can be taken back, and no
    /// copy of the state is kept at commit points.
    pub fn without_undo(mut self) -> Self {
        self.undo = false;
        self.checkpoint = None;
        self.checkpoint_len = self.records.len();
        self
    }

    /// Checks and applies one act. On error nothing changes.
    pub fn submit(&mut self, seat: SeatId, act: Act<G::Action>) -> Result<(), Refused<G>> {
        if self.undo && self.checkpoint.is_none() {
            self.checkpoint = Some(self.game.clone());
        }
        let commit = match &act {
            Act::Game(action) => {
                let action = checked(&self.game, self.mode, seat, action).map_err(TableError::Rule)?;
                self.entry_marks.push(self.entries.len());
                self.scratch.clear();
                let commit = self.game.apply(seat, action, &mut self.scratch);
                self.entries.extend(self.scratch.drain(..).map(|event| match G::into_roll(event) {
                    Ok(roll) => Entry::Roll(roll),
                    Err(event) => Entry::Game { seat, event },
                }));
                commit
            }
            &Act::RollDice(count) => {
                if !(1..=20).contains(&count) {
                    return Err(TableError::BadRoll(count));
                }
                if self.game.active_seat() != Some(seat) {
                    return Err(TableError::NotYourRoll);
                }
                self.entry_marks.push(self.entries.len());
                let rng = self.game.rng();
                let values = (0..count).map(|_| rng.d6()).collect();
                self.entries.push(Entry::Roll(Roll::free(seat, values)));
                true // a roll is never undone, so it can never be re-rolled
            }
            Act::Hand(mv) => {
                self.check_hand(seat, mv)?;
                self.entry_marks.push(self.entries.len());
                if *mv == HandMove::Enforce {
                    self.mode = Mode::Enforced;
                } else {
                    self.game.move_by_hand(mv);
                }
                self.entries.push(Entry::Hand { seat, mv: mv.clone() });
                // Back under the rules is never undone: undo replays from a state, not a mode.
                *mv == HandMove::Enforce
            }
        };
        self.records.push(Record { seat, act });
        if !self.undo {
            self.checkpoint_len = self.records.len();
        } else if commit {
            self.checkpoint = Some(self.game.clone());
            self.checkpoint_len = self.records.len();
        }
        Ok(())
    }

    /// Whether `seat` may make the hand move `mv` now: a sandbox table, that seat's decision, a
    /// move that fits the pieces as the seat sees them, and for `Enforce` a position the rules
    /// accept.
    pub fn check_hand(&self, seat: SeatId, mv: &HandMove) -> Result<(), Refused<G>> {
        if self.mode != Mode::Sandbox {
            return Err(TableError::Hand("moves by hand are for a sandbox table; the rules are enforced here".into()));
        }
        if self.game.active_seat() != Some(seat) {
            return Err(TableError::Hand("only the seat whose decision it is moves pieces by hand".into()));
        }
        if *mv == HandMove::Enforce {
            return self.game.position_accepted().map_err(TableError::Rule);
        }
        let pieces = G::hand_pieces(&self.game.observe(Viewer::Seat(seat)));
        crate::engine::sandbox::fits(mv, &pieces, self.game.hand_places().len()).map_err(TableError::Hand)
    }

    /// Whether there is an action since the last commit point to take back.
    pub fn can_undo(&self) -> bool {
        self.records.len() > self.checkpoint_len
    }

    /// Takes back the last action, never across a commit point. Replays the actions since the
    /// checkpoint instead of inverting them, so undo needs no per-action inverse.
    pub fn undo(&mut self) -> Result<Record<G::Action>, Refused<G>> {
        if !self.can_undo() {
            return Err(TableError::NothingToUndo);
        }
        let undone = self.records.pop().expect("checked above");
        let redo: Vec<_> = self.records.drain(self.checkpoint_len..).collect();
        let mark = self.entry_marks[self.checkpoint_len];
        self.entries.truncate(mark);
        self.entry_marks.truncate(self.checkpoint_len);
        self.game = self.checkpoint.clone().expect("an action since the last commit point took the checkpoint");
        for record in redo {
            self.submit(record.seat, record.act).expect("an action that applied once applies again");
        }
        Ok(undone)
    }

    /// The entries written by record `i` (none past the last).
    pub fn entries_of(&self, i: usize) -> &[Entry<G::Event>] {
        let Some(&start) = self.entry_marks.get(i) else { return &[] };
        let end = self.entry_marks.get(i + 1).copied().unwrap_or(self.entries.len());
        &self.entries[start..end]
    }

    /// The entries written by the last record.
    pub fn last_entries(&self) -> &[Entry<G::Event>] {
        match self.entry_marks.last() {
            Some(&mark) => &self.entries[mark..],
            None => &[],
        }
    }

    /// The digest of the table: its mode (a sandbox game never digests like an enforced one), its
    /// scenario's content hash (the beginner and advanced games never digest alike) and the game
    /// state, RNG included.
    pub fn digest(&self) -> String {
        digest_of(&(self.mode, self.game.scenario().hash, &self.game))
    }

    /// Re-applies a log onto this table; on the first bad record, returns its index and error.
    pub fn replay(&mut self, records: impl IntoIterator<Item = Record<G::Action>>) -> Result<(), ReplayFailure<G>> {
        let records = records.into_iter();
        self.records.reserve(records.size_hint().0);
        for (i, record) in records.enumerate() {
            if let Err(e) = self.submit(record.seat, record.act.clone()) {
                return Err((i, record, e));
            }
        }
        Ok(())
    }
}
