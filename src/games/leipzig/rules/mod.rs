//! Leipzig 1813's rules, one file per heading of the rulebook: `sequence` (Game Turn Sequence),
//! `deployment` (How to Use the Scenarios), `movement`, `forced_march`, `zoc` (Zones of Control),
//! `stacking` (Stacking and Unit Breakdown), `supply`, `combat` (with the CRT and its Auto column),
//! `retreat` (retreat before combat, the Retreat Order of Preference), `leaders`, `fortresses`
//! (Fortress and Siege), `reconnaissance`, `reinforcements`, `special` (the Special Game Rules and
//! Special Campaign-Game Rules) and `victory` (How to Win). Each chapter holds its legal listing,
//! its refusals' words and its apply; `sandbox` the moves by hand; here the dispatch.

pub mod combat;
pub mod deployment;
pub mod forced_march;
pub mod fortresses;
pub mod leaders;
pub mod movement;
pub mod reconnaissance;
pub mod reinforcements;
pub mod retreat;
pub mod sandbox;
pub mod sequence;
pub mod special;
pub mod stacking;
pub mod supply;
pub mod victory;
pub mod zoc;

pub use deployment::setup;
pub use sequence::QUESTIONS;

use super::actions::{Action, Event, LzError, rule};
use super::state::{Leipzig, Pending, Step, UnitId};
use crate::engine::rules::{Checked, Game, Mode};
use crate::engine::save::ScenarioRef;
use crate::engine::seats::{SeatId, Viewer};
use zoc::Situation;

pub use super::data::{seat_of, side_of};

/// What the check of a move hands to `apply`: the map as the mover sees it and its search.
pub type Kept = (std::rc::Rc<Situation>, movement::Reach);

/// What a list sets aside for its caller: the search of the one counter whose move a check
/// lists (for `apply`), or the counters whose moves a list without moves left out (for a random
/// player).
#[derive(Default)]
pub(super) struct Aside {
    pub(super) reach: Option<movement::Reach>,
    pub(super) movers: Vec<UnitId>,
}

/// What a check asks the list for (`legal`'s `like`): one kind of action, and its counter.
pub(super) struct Asked<'a> {
    pub(super) like: Option<&'a Action>,
    /// The counter the action names, if any.
    pub(super) only: Option<UnitId>,
}

impl<'a> Asked<'a> {
    fn of(like: Option<&'a Action>) -> Asked<'a> {
        let only = like.and_then(|a| match a {
            Action::Move { unit, .. }
            | Action::Exit { unit }
            | Action::Breakdown { unit }
            | Action::Deploy { unit, .. }
            | Action::Enter { unit, .. }
            | Action::RetreatBefore { unit, .. } => Some(*unit),
            _ => None,
        });
        Asked { like, only }
    }

    /// Whether actions like `a` are asked for.
    pub(super) fn wants(&self, a: &Action) -> bool {
        self.like.is_none_or(|l| std::mem::discriminant(l) == std::mem::discriminant(a))
    }
}

impl Leipzig {
    /// The legal actions now; with `like`, only those of the same kind and counter or hex (what a
    /// check needs, so checking an action costs one unit's search, not the whole list).
    pub fn legal(&self, like: Option<&Action>, out: &mut Vec<Action>) {
        self.legal_listing(like, out);
    }

    /// Every legal action but the moves of counters (cheap: no search of the map), on the map `s`
    /// as the deciding side sees it, and the counters whose moves were left out: a random player
    /// picks one of those or an action, and then one of the counter's destinations.
    pub fn legal_but_moves(&self, s: &Situation, out: &mut Vec<Action>) -> Vec<UnitId> {
        out.clear();
        let mut aside = Aside::default();
        self.list_on(s, None, false, out, &mut aside);
        aside.movers
    }

    /// The list (see `legal`), on the map as the deciding side sees it. The list for one
    /// counter's move gives back the map it was judged on and the counter's search.
    fn legal_listing(&self, like: Option<&Action>, out: &mut Vec<Action>) -> Option<Kept> {
        out.clear();
        // Choices are listed on what the deciding side may know (Reconnaissance).
        let s = Situation::as_seen_by(self, self.deciding()?);
        let mut aside = Aside::default();
        self.list_on(&s, like, true, out, &mut aside);
        aside.reach.map(|reach| (s, reach))
    }

    /// The list on the map `s` as the deciding side sees it; `moves` off leaves the counters'
    /// moves out and sets aside the counters that may move instead. Each step's list is its
    /// chapter's.
    fn list_on(&self, s: &Situation, like: Option<&Action>, moves: bool, out: &mut Vec<Action>, aside: &mut Aside) {
        if !self.pending.is_empty() {
            return self.list_pending(s, out);
        }
        let ask = Asked::of(like);
        match self.step {
            Step::Deploy(side) => self.list_deploy(side, &ask, out),
            Step::Enter => self.list_enter(out),
            Step::Move => self.list_move(s, &ask, moves, out, aside),
            Step::March => out.extend([Action::ContinueMarch, Action::HaltMarch]),
            Step::Build => self.list_build(s, out),
            Step::Declare => self.list_declare(s, &ask, out),
            Step::RetreatBefore => self.list_retreat_before(s, &ask, out),
            Step::DefendSupply => self.list_defend_supply(out),
            Step::Resolve => self.list_resolve(out),
            Step::Consume => self.list_consume(out),
            Step::Over => {}
        }
    }

    /// Why an action is not among the legal ones, in the rulebook's words: its chapter's.
    fn explain(&self, action: &Action) -> LzError {
        if !self.pending.is_empty() {
            return match action {
                Action::Retreat { .. } => self.refuse_retreat(),
                Action::AdvanceOne { .. } | Action::Remove { .. } => self.refuse_after_combat(action),
                _ => self.not_now("that"),
            };
        }
        match action {
            Action::Move { unit, to, march, .. } => self.refuse_move(*unit, *to, *march),
            Action::Declare { .. } => self.refuse_declare(),
            Action::Breakdown { .. } | Action::Build { .. } => self.refuse_breakdown(),
            Action::Overrun { .. } => self.refuse_overrun(),
            Action::Exit { .. } => self.refuse_exit(),
            Action::RetreatBefore { .. } => self.refuse_retreat_before(),
            Action::Deploy { .. } => self.refuse_deploy(),
            Action::Enter { .. } => self.refuse_enter(),
            Action::Armistice => self.refuse_armistice(),
            Action::EndMovement if self.step == Step::Move && self.armistice_stray().is_some() => {
                self.refuse_stray_end()
            }
            Action::UseSupply { .. } => self.refuse_use_supply(),
            Action::EndBuild if self.step == Step::Build && self.stack_to_combine().is_some() => {
                self.refuse_end_build()
            }
            Action::EndMovement => self.refuse_end_movement(),
            _ => self.not_now("that"),
        }
    }

    /// An action of another step: the Game Turn Sequence refuses it.
    pub(super) fn not_now(&self, what: &str) -> LzError {
        LzError::new(rule::SEQUENCE, format!("{what} is not possible now: {}", self.waiting_for()))
    }
}

impl Game for Leipzig {
    type Action = Action;
    type Event = Event;
    type Section = crate::games::leipzig::actions::LzSection;
    type View = super::observe::LzView;

    const ID: &'static str = super::data::GAME_ID;

    fn scenario(&self) -> ScenarioRef {
        ScenarioRef { name: self.sc.name.clone(), path: self.sc.path.clone(), hash: self.sc.hash.clone() }
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &["French", "Allied"]
    }

    fn active_seat(&self) -> Option<SeatId> {
        self.deciding().map(seat_of)
    }

    fn legal_actions(&self, _mode: Mode, out: &mut Vec<Action>) {
        self.legal(None, out);
    }

    fn check(&self, mode: Mode, seat: SeatId, action: &Action) -> Result<(), LzError> {
        self.check_keeping(mode, seat, action).map(|_| ())
    }

    /// A move's check keeps the map as the mover sees it and the counter's search: `apply` walks
    /// the way from them.
    type Found = Option<Kept>;

    fn check_keeping(&self, _mode: Mode, seat: SeatId, action: &Action) -> Result<Option<Kept>, LzError> {
        let Some(side) = self.deciding() else {
            return Err(LzError::new(rule::VICTORY, "the game is over"));
        };
        if seat_of(side) != seat {
            return Err(LzError::new(
                rule::SEQUENCE,
                format!("it is not your decision: the table waits for {}", self.waiting_for()),
            ));
        }
        // A move is judged on its own hex (`move_listed`: what the list would offer of it), any
        // other action against the list of its kind.
        if let Action::Move { unit, to, march, supply } = *action
            && self.step == Step::Move
            && self.pending.is_empty()
            && (unit as usize) < self.units.len()
        {
            let s = Situation::as_seen_by(self, side);
            return match self.move_listed(&s, unit, to, march, supply) {
                (true, Some(reach)) => Ok(Some((s, reach))),
                _ => Err(self.explain(action)),
            };
        }
        let mut list = Vec::new();
        let kept = self.legal_listing(Some(action), &mut list);
        if list.contains(action) { Ok(kept) } else { Err(self.explain(action)) }
    }

    fn apply(&mut self, _seat: SeatId, action: Checked<'_, Action, Option<Kept>>, ev: &mut Vec<Event>) -> bool {
        let rng_before = self.rng.clone();
        let before = self.deciding();
        let act = (*action).clone();
        let kept = action.found();
        match act {
            Action::Deploy { unit, hex } => self.apply_deploy(unit, hex, ev),
            Action::DeployRest => self.apply_deploy_rest(ev),
            Action::Enter { unit, hex } => self.apply_enter(unit, hex, ev),
            Action::Armistice => self.apply_armistice(ev),
            Action::Breakdown { unit } => {
                self.apply_breakdown(unit, ev);
            }
            Action::Build { units } => {
                self.apply_build(&units, ev);
            }
            Action::Move { unit, to, march, supply } => self.apply_move(unit, to, march, supply, kept, ev),
            Action::Exit { unit } => self.apply_exit(unit, ev),
            Action::Overrun { from, target } => self.apply_overrun(from, target, ev),
            Action::ContinueMarch => self.apply_march_choice(true, ev),
            Action::HaltMarch => self.apply_march_choice(false, ev),
            Action::EndMovement => {
                if self.recombinations().is_empty() {
                    self.end_movement(ev);
                } else {
                    // Said, so the action has its words: the recombinations are offered now.
                    ev.push(Event::PhaseBegins {
                        side: self.side,
                        step: "Recombination at the end of movement".into(),
                    });
                    self.step = Step::Build;
                }
            }
            Action::EndBuild => self.end_movement(ev),
            Action::Declare { from, units, target, supply } => self.apply_declare(from, &units, target, supply, ev),
            Action::EndDeclarations => {
                if self.attacks.is_empty() {
                    self.end_combat();
                } else {
                    ev.push(Event::PhaseBegins { side: self.side.other(), step: "Retreat before combat".into() });
                    self.step = Step::RetreatBefore;
                }
            }
            Action::RetreatBefore { unit, to } => self.apply_retreat_before(unit, to, ev),
            Action::EndRetreats => {
                ev.push(Event::RetreatsOver { side: self.side.other() });
                self.step = Step::DefendSupply;
            }
            Action::DefendSupply { hex, supply } => self.apply_defend_supply(hex, supply, ev),
            Action::Resolve { attack } => self.apply_resolve(attack as usize, ev),
            Action::Retreat { to } => self.apply_retreat(to, ev),
            Action::EnterRest => self.apply_enter_rest(ev),
            Action::Advance => self.apply_advance(None, ev),
            Action::AdvanceOne { unit } => self.apply_advance(Some(unit), ev),
            Action::StayPut => {
                if let Pending::Advance { into, .. } = self.pending.remove(0) {
                    ev.push(Event::NoAdvance { into });
                }
            }
            Action::Remove { unit } => self.apply_remove(unit, ev),
            Action::UseSupply { unit } => {
                self.units[unit as usize].used.stacking = true;
                ev.push(Event::KeepsStack { unit });
            }
        }
        self.advance(ev);
        self.rng != rng_before || self.deciding() != before || ev.iter().any(|e| matches!(e, Event::Revealed { .. }))
    }

    fn observe(&self, viewer: Viewer) -> Self::View {
        self.view_for(viewer)
    }

    fn from_view(view: &super::observe::LzView, rng: &mut crate::engine::rng::TableRng) -> Self {
        view.sample(rng)
    }

    fn rebuilt_from_view(
        &self,
        view: &serde_json::Value,
        rng: &mut crate::engine::rng::TableRng,
    ) -> Result<Self, String> {
        let view: super::observe::LzView = crate::engine::rules::view_from_json(self.sc.clone(), view)?;
        Ok(Self::from_view(&view, rng))
    }

    fn entry_text(&self, entry: &crate::engine::table::Entry<Event>, viewer: Viewer) -> String {
        match entry {
            crate::engine::table::Entry::Game { event, .. } => self.event_text(event, viewer),
            crate::engine::table::Entry::Roll(roll) => roll.line(self.seat_names()),
            crate::engine::table::Entry::Hand { seat, mv } => self.hand_text(*seat, mv, viewer),
        }
    }

    fn rng(&mut self) -> &mut crate::engine::rng::TableRng {
        &mut self.rng
    }

    fn into_roll(event: Event) -> Result<crate::engine::roll::Roll, Event> {
        match event {
            Event::Rolled(roll) => Ok(roll),
            other => Err(other),
        }
    }

    fn is_over(&self) -> bool {
        self.step == Step::Over
    }

    fn winner(&self) -> Option<SeatId> {
        self.winner.map(seat_of)
    }

    fn hand_pieces(view: &Self::View) -> Vec<crate::engine::sandbox::HandPiece> {
        Leipzig::hand_pieces_of(view)
    }

    fn hand_places(&self) -> Vec<String> {
        self.hand_places_of()
    }

    fn move_by_hand(&mut self, mv: &crate::engine::sandbox::HandMove) {
        self.move_by_hand_now(mv)
    }

    fn position_accepted(&self) -> Result<(), LzError> {
        self.position_accepted_now()
    }
}
