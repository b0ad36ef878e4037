//! Leipzig 1813's rules, one file per heading of the rulebook: `sequence` (Game Turn Sequence),
//! `deployment` (How to Use the Scenarios), `movement`, `forced_march`, `zoc` (Zones of Control),
//! `stacking` (Stacking and Unit Breakdown), `supply`, `combat` (with the CRT and its Auto column),
//! `retreat` (retreat before combat, the Retreat Order of Preference), `leaders`, `fortresses`
//! (Fortress and Siege), `reconnaissance`, `reinforcements`, `special` (the Special Game Rules and
//! Special Campaign-Game Rules) and `victory` (How to Win). Each chapter holds its legal listing,
//! its refusals' words and its apply; here the dispatch.

pub mod combat;
pub mod deployment;
pub mod forced_march;
pub mod fortresses;
pub mod leaders;
pub mod movement;
pub mod reconnaissance;
pub mod reinforcements;
pub mod retreat;
pub mod sequence;
pub mod special;
pub mod stacking;
pub mod supply;
pub mod victory;
pub mod zoc;

pub use deployment::setup;

use super::actions::{Action, Event, LzError, rule};
use super::data::{Hex, Side};
use super::state::{Leipzig, March, Pending, Step, UnitId};
use crate::engine::rules::{Checked, Game, Mode};
use crate::engine::save::ScenarioRef;
use crate::engine::seats::{SeatId, Viewer};
use zoc::Situation;

pub fn seat_of(side: Side) -> SeatId {
    SeatId(side.index() as u8)
}

pub fn side_of(seat: SeatId) -> Side {
    if seat.0 == 0 { Side::French } else { Side::Allied }
}

/// What the check of a move hands to `apply`: the map as the mover sees it and its search.
pub type Kept = (std::rc::Rc<Situation>, movement::Reach);

/// What a list sets aside for its caller: the search of the one counter whose move a check
/// lists (for `apply`), or the counters whose moves a list without moves left out (for a random
/// player).
#[derive(Default)]
struct Aside {
    reach: Option<movement::Reach>,
    movers: Vec<UnitId>,
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
    pub(super) fn legal_listing(&self, like: Option<&Action>, out: &mut Vec<Action>) -> Option<Kept> {
        out.clear();
        // Choices are listed on what the deciding side may know (Reconnaissance).
        let s = Situation::as_seen_by(self, self.deciding()?);
        let mut aside = Aside::default();
        self.list_on(&s, like, true, out, &mut aside);
        aside.reach.map(|reach| (s, reach))
    }

    /// The list on the map `s` as the deciding side sees it; `moves` off leaves the counters'
    /// moves out and sets aside the counters that may move instead.
    fn list_on(
        &self,
        s: &Situation,
        like: Option<&Action>,
        moves: bool,
        out: &mut Vec<Action>,
        aside: &mut Aside,
    ) {
        if !self.pending.is_empty() {
            match &self.pending[0] {
                Pending::Advance { attack, .. } => {
                    out.push(Action::Advance);
                    out.extend(self.advancers(*attack).into_iter().map(|unit| Action::AdvanceOne { unit }));
                    out.push(Action::StayPut);
                }
                Pending::Lose { attack, .. } => {
                    out.extend(self.loss_candidates(*attack).into_iter().map(|unit| Action::Remove { unit }));
                }
                _ => {
                    for to in self.pending_options(s).unwrap_or_default() {
                        out.push(Action::Retreat { to });
                    }
                }
            }
            return;
        }
        let unit_of = |a: &Action| match a {
            Action::Move { unit, .. }
            | Action::Exit { unit }
            | Action::Breakdown { unit }
            | Action::Deploy { unit, .. }
            | Action::Enter { unit, .. }
            | Action::RetreatBefore { unit, .. } => Some(*unit),
            _ => None,
        };
        let only = like.and_then(unit_of);
        let kind = like.map(std::mem::discriminant);
        let wants = |a: &Action| kind.is_none_or(|k| k == std::mem::discriminant(a));
        match self.step {
            Step::Deploy(side) => {
                if wants(&Action::Deploy { unit: 0, hex: Hex(0) }) {
                    let mut list = Vec::new();
                    self.deploy_actions(side, only, &mut list);
                    out.extend(list.into_iter().map(|(unit, hex)| Action::Deploy { unit, hex }));
                }
                out.push(Action::DeployRest);
            }
            Step::Enter => {
                if self.can_armistice() {
                    out.push(Action::Armistice);
                }
                if let Some(u) = self.arriving().next() {
                    for hex in self.entry_hexes(u) {
                        out.push(Action::Enter { unit: u, hex });
                    }
                    out.push(Action::EnterRest);
                }
            }
            Step::Move => {
                if self.can_armistice() {
                    out.push(Action::Armistice);
                }
                let units: Vec<UnitId> = match only {
                    Some(u) if (u as usize) < self.units.len() => vec![u],
                    Some(_) => Vec::new(),
                    None => self.on_map(self.side).collect(),
                };
                if wants(&Action::Breakdown { unit: 0 }) {
                    out.extend(
                        units.iter().filter(|&&u| self.can_break_down(u)).map(|&unit| Action::Breakdown { unit }),
                    );
                }
                if wants(&Action::Build { units: Vec::new() }) && !self.moved_any {
                    out.extend(self.build_sets().into_iter().map(|units| Action::Build { units }));
                }
                if moves && wants(&Action::Move { unit: 0, to: Hex(0), march: March::Normal, supply: None }) {
                    for &u in &units {
                        if !self.can_move(u) {
                            continue;
                        }
                        let free = self.free_march(u);
                        let supplies: Vec<Option<UnitId>> =
                            std::iter::once(None).chain(self.march_supplies(u).into_iter().map(Some)).collect();
                        let upto = match like {
                            Some(Action::Move { march, .. }) => *march,
                            _ => March::Triple,
                        };
                        // A check keeps the search of the counter asked of (see `reach_kept`).
                        let Some((reach, destinations)) = self.destinations_searched(s, u, upto, like.is_some(), None)
                        else {
                            continue;
                        };
                        for (to, _, march) in destinations {
                            if march == March::Normal || free {
                                out.push(Action::Move { unit: u, to, march, supply: None });
                            } else {
                                for &supply in &supplies {
                                    out.push(Action::Move { unit: u, to, march, supply });
                                }
                            }
                        }
                        if like.is_some() {
                            aside.reach = Some(reach);
                        }
                    }
                } else if !moves {
                    aside.movers.extend(units.iter().copied().filter(|&u| self.can_move(u)));
                }
                if wants(&Action::Exit { unit: 0 }) {
                    out.extend(units.iter().filter(|&&u| self.can_exit(s, u)).map(|&unit| Action::Exit { unit }));
                }
                if wants(&Action::Overrun { from: Hex(0), target: Hex(0) }) {
                    let mut froms: Vec<Hex> = self
                        .on_map(self.side)
                        .filter(|&u| self.attack_ready(u))
                        .filter_map(|u| self.hex_of(u))
                        .collect();
                    froms.sort_unstable();
                    froms.dedup();
                    for from in froms {
                        for (_, target) in self.sc.board.neighbours(from) {
                            // `overrun_ratio`'s first test, asked here: most neighbours hold no Enemy.
                            if s.enemy_on(self.side, target) && self.overrun_ratio(s, from, target).is_some() {
                                out.push(Action::Overrun { from, target });
                            }
                        }
                    }
                }
                // `s` is the map as the phasing side sees it: the Movement Phase decides for it.
                if wants(&Action::EndMovement) && self.unfixed_stack_in(s).is_none() && self.armistice_stray().is_none()
                {
                    out.push(Action::EndMovement);
                }
            }
            Step::March => out.extend([Action::ContinueMarch, Action::HaltMarch]),
            Step::Build => {
                out.extend(self.build_sets().into_iter().map(|units| Action::Build { units }));
                if self.stack_to_combine_in(s).is_none() {
                    out.push(Action::EndBuild);
                }
            }
            Step::Declare => {
                if wants(&Action::Declare { from: Hex(0), units: Vec::new(), target: Hex(0), supply: None }) {
                    let mut list = Vec::new();
                    self.declarations(s, &mut list);
                    let from_only = match like {
                        Some(Action::Declare { from, .. }) => Some(*from),
                        _ => None,
                    };
                    out.extend(
                        list.into_iter()
                            .filter(|(f, ..)| from_only.is_none_or(|x| x == *f))
                            .map(|(from, units, target, supply)| Action::Declare { from, units, target, supply }),
                    );
                }
                out.push(Action::EndDeclarations);
            }
            Step::RetreatBefore => {
                let defender = self.side.other();
                for u in self.on_map(defender).collect::<Vec<_>>() {
                    if only.is_some_and(|o| o != u) {
                        continue;
                    }
                    for to in self.retreat_before_options(s, u) {
                        out.push(Action::RetreatBefore { unit: u, to });
                    }
                }
                out.push(Action::EndRetreats);
            }
            Step::DefendSupply => {
                if let Some((hex, supplies)) = self.next_defense() {
                    out.push(Action::DefendSupply { hex, supply: None });
                    out.extend(supplies.into_iter().map(|s| Action::DefendSupply { hex, supply: Some(s) }));
                }
            }
            Step::Resolve => {
                out.extend(
                    self.attacks
                        .iter()
                        .enumerate()
                        .filter(|(_, a)| !a.resolved)
                        .map(|(i, _)| Action::Resolve { attack: i as u8 }),
                );
            }
            Step::Consume => {
                if let Err((_, near)) = self.stack_supply() {
                    out.extend(near.into_iter().map(|unit| Action::UseSupply { unit }));
                }
            }
            Step::Over => {}
        }
    }

    /// Why an action is not among the legal ones, in the rulebook's words.
    pub(super) fn explain(&self, action: &Action) -> LzError {
        let step_rule =
            |what: &str| LzError::new(rule::SEQUENCE, format!("{what} is not possible now: {}", self.waiting_for()));
        if !self.pending.is_empty() {
            return match action {
                Action::Retreat { .. } => LzError::new(
                    rule::RETREAT,
                    "that hex is not a retreat the Retreat Order of Preference allows (fewest Enemy-controlled hexes, towards the own edge, the full distance, never across an unbridged river, into mountains or onto units)",
                ),
                Action::AdvanceOne { .. } => LzError::new(
                    rule::COMBAT,
                    "only the attack's own units still in its hex, not dispersed, advance after combat",
                ),
                Action::Remove { .. } => LzError::new(
                    rule::COMBAT,
                    "the loss is taken from the attacking units still in their hex (½ex), or from the French combat units on the map (German Rebellion)",
                ),
                _ => step_rule("that"),
            };
        }
        let unit_ok = |u: UnitId| (u as usize) < self.units.len();
        match action {
            Action::Move { unit, to, march, .. } => {
                if self.step != Step::Move {
                    return step_rule("moving");
                }
                if !unit_ok(*unit)
                    || !self.units[*unit as usize].on_map()
                    || self.units[*unit as usize].side != self.side
                {
                    return LzError::new(rule::MOVEMENT, "only the phasing player's own counters on the map move");
                }
                let u = &self.units[*unit as usize];
                if u.moved {
                    return LzError::new(
                        rule::MOVEMENT,
                        "each counter is moved once, individually, in a Movement Phase",
                    );
                }
                if u.dispersed.is_some() {
                    return LzError::new(
                        rule::COMBAT,
                        "a dispersed or scattered counter may not move until a friendly Movement and Combat Phase have passed (case K)",
                    );
                }
                if self.garrison_neutral(*unit) {
                    return LzError::new(rule::SAXON, "the Saxon garrison may not move until Game-Turn 3");
                }
                if *march == March::Triple && !self.is_cavalry(*unit) && !self.is_combat(*unit)
                    || *march == March::Triple && self.is_cavalry(*unit)
                {
                    return LzError::new(
                        rule::FORCED_MARCH,
                        "only infantry may attempt to triple its Movement Allowance",
                    );
                }
                let b = &self.sc.board;
                if (to.0 as usize) >= b.len() {
                    return LzError::new(rule::MOVEMENT, "that hex is not on the map");
                }
                if self.enemy_at(*to, self.side) {
                    return LzError::new(rule::MOVEMENT, "units may never enter a hex containing Enemy units (case G)");
                }
                if b.austria[to.0 as usize] && !self.austria_open() {
                    return LzError::new(rule::AUSTRIA, "no units may enter Austria in this scenario");
                }
                if self.is_cavalry(*unit) && b.terrain(*to) == super::data::Terrain::Mountain {
                    return LzError::new(
                        rule::MOVEMENT,
                        "cavalry may not enter mountain hexes (Terrain Effects Chart)",
                    );
                }
                let s = Situation::as_seen_by(self, self.side);
                let far = self
                    .destinations(&s, *unit, March::Triple)
                    .iter()
                    .chain(self.destinations(&s, *unit, March::Double).iter())
                    .any(|(h, _)| h == to);
                if *march == March::Normal && far {
                    return LzError::new(
                        rule::FORCED_MARCH,
                        "that hex lies beyond the counter's Movement Allowance: only a forced march reaches it",
                    );
                }
                if *march != March::Normal && self.destinations(&s, *unit, March::Normal).iter().any(|(h, _)| h == to) {
                    return LzError::new(
                        rule::FORCED_MARCH,
                        "the counter reaches that hex on its normal allowance: a forced march goes beyond it",
                    );
                }
                if self.at(*to).any(|x| self.is_combat(x)) && self.is_combat(*unit) {
                    return LzError::new(
                        rule::STACKING,
                        "combat units may end a Movement Phase stacked only with or next to a supply unit, in a fortress (up to six divisions), or when they are about to be combined (case B)",
                    );
                }
                LzError::new(
                    rule::ZOC,
                    "that hex is out of reach: its cost is more than the Movement Points left, or the way is barred by Enemy units, an Enemy Zone of Control the counter must stop in, mountains or a river",
                )
            }
            Action::Declare { .. } => {
                if self.step != Step::Declare {
                    return step_rule("declaring an attack");
                }
                if self.armistice_on() {
                    return LzError::new(rule::ARMISTICE, "no combat may occur during the armistice");
                }
                LzError::new(
                    rule::COMBAT,
                    "that attack may not be declared: only adjacent units that have not attacked, not dispersed, from one hex against one Enemy hex, at 160% at least across a river, with a supply unit next to them (cases A to E)",
                )
            }
            Action::Breakdown { .. } | Action::Build { .. } => LzError::new(
                rule::STACKING,
                "units break down before any movement and recombine at the beginning or end of the Movement Phase, one Movement Point each, stacked together",
            ),
            Action::Overrun { .. } => LzError::new(
                rule::AUTO,
                "automatic elimination needs a definite 500% from one hex, against a hex without cavalry (and, for the French under reconnaissance, a unit exposed by cavalry)",
            ),
            Action::Exit { .. } => LzError::new(
                rule::VICTORY,
                "only French counters on the east edge with a Movement Point left may move off it (ESM)",
            ),
            Action::RetreatBefore { .. } => LzError::new(
                rule::RETREAT_BEFORE,
                "that retreat before combat is not allowed: the full Movement Allowance, not across unbridged rivers, through Enemy units or zones or mountains, not when dispersed, surrounded or (not cavalry) attacked at 500%",
            ),
            Action::Deploy { .. } => LzError::new(
                rule::DEPLOYMENT,
                "that counter may not be placed there: the deployment chart gives each group its city or its distance from it",
            ),
            Action::Enter { .. } => {
                LzError::new(rule::REINFORCEMENTS, "reinforcements enter where the chart says, never onto Enemy units")
            }
            Action::Armistice => LzError::new(
                rule::ARMISTICE,
                "the French may call one armistice, in the campaign game, after Game-Turn 3, at the beginning of their Player-Turn",
            ),
            Action::EndMovement if self.step == Step::Move && self.armistice_stray().is_some() => LzError::new(
                rule::ARMISTICE,
                format!(
                    "{} must withdraw towards its side of the armistice line before the Movement Phase ends",
                    self.name(self.armistice_stray().expect("checked"))
                ),
            ),
            Action::UseSupply { .. } => match self.stack_supply() {
                Err((h, _)) if self.step == Step::Consume => LzError::new(
                    rule::SUPPLY,
                    format!("the stack on {} uses up one of the supply units on or next to it", self.sc.board.label(h)),
                ),
                _ => step_rule("choosing a supply unit"),
            },
            Action::EndBuild if self.step == Step::Build && self.stack_to_combine().is_some() => LzError::new(
                rule::STACKING,
                format!(
                    "the stack on {} is neither in supply nor in a fortress: combine it before the Movement Phase ends",
                    self.sc.board.label(self.stack_to_combine().expect("checked"))
                ),
            ),
            Action::EndMovement => match self.unfixed_stack() {
                Some(h) if self.step == Step::Move => LzError::new(
                    rule::STACKING,
                    format!(
                        "the stack on {} may not end the Movement Phase: move a unit off, bring a supply unit next to it, or combine it",
                        self.sc.board.label(h)
                    ),
                ),
                _ => step_rule("ending the Movement Phase"),
            },
            _ => step_rule("that"),
        }
    }
}

impl Game for Leipzig {
    type Action = Action;
    type Event = Event;
    type Error = LzError;
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

    fn rebuilt_from_view(
        &self,
        view: &serde_json::Value,
        rng: &mut crate::engine::rng::TableRng,
    ) -> Result<Self, String> {
        let view: super::observe::LzView =
            crate::engine::rules::with_scenario(self.sc.clone(), || serde_json::from_value(view.clone()))
                .map_err(|e| format!("not a view of this game: {e}"))?;
        Ok(view.sample(rng))
    }

    fn entry_text(&self, entry: &crate::engine::table::Entry<Event>, viewer: Viewer) -> String {
        match entry {
            crate::engine::table::Entry::Game { event, .. } => self.event_text(event, viewer),
            crate::engine::table::Entry::Roll(roll) => roll.line(self.seat_names()),
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
}
