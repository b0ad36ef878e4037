//! Austerlitz's rules, one file per chapter of the rulebook: `setup` (Set-up, Order of Battle),
//! `turn` (The Phases of a game turn, the check for victory), `commands` (Units and Commands),
//! `formations`, `artillery` (with its field of fire and line of sight), `movement`, `charges`
//! (Cavalry Charges and Disorganization), `combat`, `demoralisation` and `reactions`; `sandbox`
//! the moves by hand. Here: the
//! table's start, the one list of legal actions, the check that names the broken rule, and apply.

pub mod artillery;
pub mod charges;
pub mod combat;
pub mod commands;
pub mod demoralisation;
pub mod formations;
pub mod movement;
pub mod reactions;
pub mod sandbox;
pub mod setup;
pub use setup::setup;
pub mod turn;

use super::actions::{Action, AzError, Event, rule};
use super::data::Side;
use super::state::{Austerlitz, Pending, Step};
use crate::engine::rng::TableRng;
use crate::engine::rules::{Checked, Game, Mode};
use crate::engine::save::ScenarioRef;
use crate::engine::seats::{SeatId, Viewer};
pub use movement::Search;

/// What a list sets aside for its caller: the search of the one unit whose move a check lists
/// (for `apply`), or the units whose moves a list without moves left out (for a random player).
#[derive(Default)]
struct Aside {
    search: Option<Search>,
    movers: Vec<usize>,
    /// The searches a whole list made, unit by unit (kept for the beginner: `keep_listed`).
    listed: Vec<(usize, Search)>,
}

pub fn seat_of(side: Side) -> SeatId {
    SeatId(side.index() as u8)
}

/// An attack option as the action that declares it.
fn attack_action((units, target, charge): combat::AttackOption) -> Action {
    Action::Attack { units: units.into_iter().map(|u| u as u8).collect(), target, charge }
}

impl Austerlitz {
    /// The side that decides now.
    pub fn deciding(&self) -> Option<Side> {
        if self.step == Step::Over {
            return None;
        }
        self.pending_chooser().or(Some(self.side))
    }

    /// Every legal action now: the one list the prompt, the lit spaces, the computer, the fuzzer
    /// and `check` use.
    pub fn legal(&self, out: &mut Vec<Action>) {
        self.legal_for(None, out);
    }

    /// The legal actions, or (for `check`) only those of the kind and piece of `only`: the same
    /// code lists both, so the list and the check cannot drift apart.
    pub fn legal_for(&self, only: Option<&Action>, out: &mut Vec<Action>) {
        let mut aside = Aside::default();
        self.list(only, true, out, &mut aside);
        self.keep_listed(aside.listed);
    }

    /// Every legal action but the moves of units (steps 2 and 3), and the units whose moves were
    /// left out (each may still find no space it reaches): a random player draws among both
    /// without searching every unit's reach. The same code as the legal list, `moves` off.
    pub fn legal_but_moves(&self, out: &mut Vec<Action>) -> Vec<usize> {
        let mut aside = Aside::default();
        self.list(None, false, out, &mut aside);
        aside.movers
    }

    /// The moves of `units` alone (those `legal_but_moves` set aside), each unit's in the
    /// list's order, their searches kept as a whole list's are: the search's playouts weigh a
    /// few units' moves at a time.
    pub fn moves_of(&self, units: &[usize], out: &mut Vec<Action>) {
        let mut aside = Aside::default();
        for &u in units {
            self.list_moves(u, None, out, &mut aside);
        }
        self.keep_listed(aside.listed);
    }

    /// The legal list (see `legal_for`); without `with_moves` the units' moves are left out and
    /// the units that may move set aside instead. A list for one unit's move sets its search
    /// aside (for `apply`).
    fn list(&self, only: Option<&Action>, with_moves: bool, out: &mut Vec<Action>, aside: &mut Aside) {
        out.clear();
        // The one unit (or gun) an action concerns, for a narrower list.
        let one = match only {
            Some(Action::Deploy { unit, .. } | Action::Move { unit, .. } | Action::Square { unit }) => {
                Some(*unit as usize)
            }
            Some(Action::Fire { gun, .. }) => Some(*gun as usize),
            _ => None,
        };
        // The kinds of action the list holds: all, or (for `check`) the kind asked of; an end of
        // step is always listed, and asks for nothing else to be searched.
        let kind = |k: fn(&Action) -> bool| only.is_none_or(k);
        let attacks = kind(|a| matches!(a, Action::Attack { .. }));
        let deploys = kind(|a| matches!(a, Action::Deploy { .. }));
        let fires = kind(|a| matches!(a, Action::Fire { .. }));
        let squares = kind(|a| matches!(a, Action::Square { .. }));
        let moves = with_moves && kind(|a| matches!(a, Action::Move { .. }));
        let command = match only {
            Some(Action::MoveCommand { command, .. }) => Some(*command as usize),
            _ => None,
        };
        let commands = kind(|a| matches!(a, Action::MoveCommand { .. }));
        if self.step == Step::Over {
            return;
        }
        if let Some(p) = self.pending.last() {
            match p {
                Pending::Retreat { units, .. } => self.list_retreats(units, out),
                Pending::AttackReactions { attack } => self.list_reactions(attack, out),
                Pending::OpportunityFire { .. } => out.extend([Action::OpportunityFire, Action::Decline]),
                Pending::Faced { unit, by } => self.list_faced(*unit, by, out),
            }
            return;
        }
        match self.step {
            Step::Setup => self.deploy_options(one, deploys, out),
            Step::Fire => {
                if fires {
                    self.list_fire(one, out);
                }
                out.push(Action::EndFire);
            }
            Step::Move => {
                if let Some((_, owed)) = self.owed_attacks() {
                    out.extend(owed.into_iter().map(attack_action));
                    return;
                }
                for u in (0..self.units.len()).filter(|&u| one.is_none_or(|o| o == u)) {
                    if !(moves || squares || fires) || self.side_of(u) != self.side || self.kind(u).is_field_artillery()
                    {
                        continue;
                    }
                    if moves {
                        self.list_moves(u, only.filter(|_| one.is_some()), out, aside);
                    } else if !with_moves && self.cannot_move(u).is_none() {
                        aside.movers.push(u);
                    }
                    if squares && self.units[u].at.is_some() && self.square_barred(u).is_none() {
                        out.push(Action::Square { unit: u as u8 });
                    }
                    if fires && self.kind(u) == super::data::Kind::Horse {
                        let mut shots = Vec::new();
                        self.fire_options(u, &mut shots);
                        out.extend(shots.into_iter().map(|(target, battery)| Action::Fire {
                            gun: u as u8,
                            target,
                            battery,
                        }));
                    }
                }
                let mut options = Vec::new();
                if attacks {
                    let target = match only {
                        Some(Action::Attack { target, .. }) => Some(*target),
                        _ => None,
                    };
                    self.attack_options_on(target, &mut options);
                }
                out.extend(options.into_iter().map(attack_action));
                out.push(Action::EndMovement);
            }
            Step::ArtilleryMove => {
                for u in (0..self.units.len()).filter(|&u| one.is_none_or(|o| o == u)) {
                    if !self.may_move_artillery(u) {
                        continue;
                    }
                    if moves {
                        self.list_moves(u, only.filter(|_| one.is_some()), out, aside);
                    } else if !with_moves {
                        aside.movers.push(u);
                    }
                }
                out.push(Action::EndArtillery);
            }
            Step::Commands => {
                if commands {
                    self.list_commands(command, out);
                }
                out.push(Action::EndTurn);
            }
            Step::Over => {}
        }
    }

    /// A unit's moves (all, or for a check the one asked of), its search set aside for a check.
    fn list_moves(&self, u: usize, only: Option<&Action>, out: &mut Vec<Action>, aside: &mut Aside) {
        // A check may find the search the random player's draw kept, else searches for the one
        // destination asked of; a whole list searches every unit once and keeps its searches
        // (`keep_listed`: the beginner asks the same units' reach next).
        let search = match only {
            Some(&Action::Move { to, facing, .. }) => self.search_to(u, to, facing),
            _ => self.search_afresh(u),
        };
        out.extend(search.reach.iter().map(|&(to, facing, _)| Action::Move { unit: u as u8, to, facing }));
        if only.is_some() {
            aside.search = Some(search);
        } else {
            aside.listed.push((u, search));
        }
    }

    /// Why an action not in the legal list is refused, naming the rule.
    /// A refusal by the Phases of a game turn: not in this step.
    pub(super) fn not_now(&self, m: &str) -> AzError {
        AzError::new(rule::PHASES, m.to_string())
    }

    pub fn explain(&self, a: &Action) -> AzError {
        let n = self.units.len();
        let seq = |m: &str| AzError::new(rule::PHASES, m.to_string());
        // A column owing its attack that faces infantry is told it must attack (below).
        let owing = |u: &u8| self.units[*u as usize].extra && !self.units[*u as usize].attacked;
        if let Some(p) = self.pending.last().filter(|p| !matches!(p, Pending::Faced { unit, .. } if owing(unit))) {
            let what = match p {
                Pending::Retreat { .. } => "a retreat: the winner chooses the least damaging straight line away",
                Pending::AttackReactions { .. } => "the defender's reactions to the attack",
                Pending::OpportunityFire { .. } => "the defender's opportunity fire",
                Pending::Faced { .. } => {
                    "the attacker's choice: attack the infantry its unit faces, or not (which lets it fire)"
                }
            };
            return AzError::new(
                if matches!(p, Pending::Retreat { .. }) { rule::RETREAT } else { rule::REACTIONS },
                format!("the table waits for {what}"),
            );
        }
        if self.step == Step::Move
            && let Some((u, _)) = self.owed_attacks()
            && !matches!(a, Action::Attack { units, .. } if units.contains(&(u as u8)))
        {
            return AzError::new(
                rule::MOVEMENT,
                format!("{} used the column's extra MF: it must attack first", self.sc.units[u].name),
            );
        }
        match (a, self.step) {
            (Action::Deploy { unit, at, facing }, Step::Setup) if (*unit as usize) < n => {
                self.deploy_refusal(*unit as usize, *at, *facing).unwrap_or_else(|| seq("not now"))
            }
            (Action::Fire { gun, target, battery }, _) if (*gun as usize) < n && self.sc.board.contains(*target) => {
                self.fire_refusal(*gun as usize, *target, *battery).unwrap_or_else(|| seq("not now"))
            }
            (Action::Move { unit, to, facing }, Step::Move | Step::ArtilleryMove) if (*unit as usize) < n => {
                self.refuse_move(*unit as usize, *to, *facing)
            }
            (Action::Attack { units, target, charge }, Step::Move)
                if units.iter().all(|&u| (u as usize) < n) && self.sc.board.contains(*target) =>
            {
                let units: Vec<usize> = units.iter().map(|&u| u as usize).collect();
                self.explain_attack(&units, *target, *charge)
            }
            (Action::Square { unit }, Step::Move) if (*unit as usize) < n => {
                self.square_allowed(*unit as usize).err().unwrap_or_else(|| seq("not now"))
            }
            (Action::MoveCommand { .. }, Step::Commands) => self.refuse_command(),
            _ => seq(&format!("not in this step ({:?}, {} player)", self.step, self.side.name())),
        }
    }
}

impl Game for Austerlitz {
    type Action = Action;
    type Event = Event;
    type Section = crate::games::austerlitz::actions::AzSection;
    type View = super::observe::AzView;

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
        self.legal(out);
    }

    fn check(&self, mode: Mode, seat: SeatId, action: &Action) -> Result<(), AzError> {
        self.check_keeping(mode, seat, action).map(|_| ())
    }

    /// A move's check keeps the unit's search: `apply` walks its path from it.
    type Found = Option<Search>;

    fn check_keeping(&self, _mode: Mode, seat: SeatId, action: &Action) -> Result<Option<Search>, AzError> {
        let Some(side) = self.deciding() else {
            return Err(AzError::new(rule::VICTORY, "the game is over"));
        };
        if seat_of(side) != seat {
            return Err(AzError::new(rule::PHASES, format!("it is the {} player's decision", side.name())));
        }
        let mut list = Vec::new();
        let mut aside = Aside::default();
        self.list(Some(action), true, &mut list, &mut aside);
        if list.contains(action) { Ok(aside.search) } else { Err(self.explain(action)) }
    }

    fn apply(&mut self, _seat: SeatId, action: Checked<'_, Action, Option<Search>>, ev: &mut Vec<Event>) -> bool {
        let rng_before = self.rng.clone();
        let side_before = self.deciding();
        let act = (*action).clone();
        let kept = action.found();
        match act {
            Action::Deploy { unit, at, facing } => self.apply_deploy(unit as usize, at, facing, ev),
            Action::PlaceCommand { command, at } => self.apply_place_command(command as usize, at, ev),
            Action::DeployRest => self.apply_deploy_rest(ev),
            Action::Fire { gun, target, battery } => self.apply_fire(gun as usize, target, battery, ev),
            Action::EndFire => {
                ev.push(Event::StepOver { side: self.side, what: "artillery fire over".into() });
                self.begin_movement(ev)
            }
            Action::Move { unit, to, facing } => self.apply_move(unit as usize, to, facing, kept, ev),
            Action::Square { unit } => self.apply_square(unit as usize, ev),
            Action::Attack { units, target, charge } => {
                if matches!(self.pending.last(), Some(Pending::Faced { .. })) {
                    self.settle_faced(Some(target));
                }
                self.apply_attack(units.into_iter().map(|u| u as usize).collect(), target, charge, ev)
            }
            Action::EndMovement => {
                ev.push(Event::StepOver { side: self.side, what: "movement and combat over".into() });
                self.step = Step::ArtilleryMove;
            }
            Action::EndArtillery => {
                ev.push(Event::StepOver { side: self.side, what: "artillery movement over".into() });
                self.step = Step::Commands;
            }
            Action::MoveCommand { command, to } => {
                let k = command as usize;
                self.commands[k].at = Some(to);
                self.commands[k].moved = true;
                ev.push(Event::CommandMoved { command, to });
            }
            Action::EndTurn => self.end_turn(ev),
            Action::Retreat { toward, facing } => self.apply_retreat(toward, facing, ev),
            Action::ReactFire { gun } => self.apply_react_fire(gun as usize, ev),
            Action::CounterCharge => self.apply_counter_charge(ev),
            Action::OpportunityFire => self.apply_opportunity_fire(true, ev),
            Action::Decline => {
                let side = side_before.unwrap_or(self.side);
                match self.pending.last() {
                    Some(Pending::AttackReactions { .. }) => {
                        ev.push(Event::StepOver { side, what: "no reaction to the attack".into() });
                        self.apply_decline_attack_reactions(ev)
                    }
                    Some(Pending::Faced { .. }) => {
                        ev.push(Event::StepOver { side, what: "no attack on the infantry it faces".into() });
                        self.settle_faced(None)
                    }
                    _ => {
                        ev.push(Event::StepOver { side, what: "no opportunity fire".into() });
                        self.apply_opportunity_fire(false, ev)
                    }
                }
            }
        }
        self.drop_stale_pending();
        // A roll, or the hand-over to the other seat, is a commit point.
        self.rng != rng_before || self.deciding() != side_before
    }

    fn observe(&self, viewer: Viewer) -> super::observe::AzView {
        super::observe::AzView::of(self, viewer)
    }

    /// Austerlitz hides nothing: the view's table with a fresh future for the dice.
    fn from_view(view: &super::observe::AzView, rng: &mut crate::engine::rng::TableRng) -> Self {
        let mut g = view.game.clone();
        g.rng = crate::engine::rng::TableRng::from_seed(rng.below(u32::MAX as usize) as u64);
        g
    }

    fn rebuilt_from_view(
        &self,
        view: &serde_json::Value,
        rng: &mut crate::engine::rng::TableRng,
    ) -> Result<Self, String> {
        let view: super::observe::AzView = crate::engine::rules::view_from_json(self.sc.0.clone(), view)?;
        Ok(Self::from_view(&view, rng))
    }

    fn entry_text(&self, entry: &crate::engine::table::Entry<Event>, viewer: Viewer) -> String {
        // Nothing on this table is hidden: every line reads the same to everyone.
        match entry {
            crate::engine::table::Entry::Game { event, .. } => self.event_text(event),
            crate::engine::table::Entry::Roll(roll) => roll.line(self.seat_names()),
            crate::engine::table::Entry::Hand { seat, mv } => self.hand_text(*seat, mv, viewer),
        }
    }

    fn rng(&mut self) -> &mut TableRng {
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
        Austerlitz::hand_pieces_of(view)
    }

    fn hand_places(&self) -> Vec<String> {
        self.hand_places_of()
    }

    fn move_by_hand(&mut self, mv: &crate::engine::sandbox::HandMove) {
        self.move_by_hand_now(mv)
    }

    fn position_accepted(&self) -> Result<(), AzError> {
        self.position_accepted_now()
    }
}

impl Austerlitz {
    /// A roll of the phasing side (or of `side`) as the engine's roll entry.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn roll(
        &self,
        side: Side,
        rule: super::actions::AzSection,
        what: String,
        dice: Vec<u8>,
        modifiers: Vec<(i32, String)>,
        table: Option<(&str, Option<String>, Option<String>)>,
        result: String,
    ) -> Event {
        Event::Rolled(crate::engine::roll::Roll {
            seat: seat_of(side),
            rule: crate::engine::rules::Section::heading(rule).into(),
            what,
            dice,
            modifiers,
            table: table.map(|(name, column, row)| crate::engine::roll::Consulted { name: name.into(), column, row }),
            result,
        })
    }
}

/// The questions the phasing player's play asks the other, which its standing orders may answer
/// (issue 32): its reactions to an attack, opportunity fire at a unit that moved into its front,
/// a retreat it chooses as a fight's winner.
pub const QUESTIONS: &[crate::engine::orders::QuestionKind] = &[
    crate::engine::orders::QuestionKind {
        kind: "reaction",
        words: "Reactions: a defender's fire or counter-charge against an attack",
        answers: &[
            ("fire", "a gun fires whenever one may, else nothing"),
            ("counter-charge", "counter-charge whenever one may, else nothing"),
            ("none", "no reaction"),
        ],
    },
    crate::engine::orders::QuestionKind {
        kind: "opportunity-fire",
        words: "Opportunity fire at a unit entering a front",
        answers: &[("fire", "always fire"), ("hold", "never fire")],
    },
    crate::engine::orders::QuestionKind {
        kind: "retreat",
        words: "the loser's retreat, as the winner chooses it",
        answers: &[],
    },
];

impl Austerlitz {
    /// The question the decision now is: a pending decision of the player who is not phasing.
    pub fn question_asked(&self) -> Option<(SeatId, &'static str)> {
        let side = self.deciding()?;
        if side == self.side || self.step == Step::Setup {
            return None;
        }
        let kind = match self.pending.last()? {
            Pending::AttackReactions { .. } => "reaction",
            Pending::OpportunityFire { .. } => "opportunity-fire",
            Pending::Retreat { .. } => "retreat",
            // The phasing player's own choice, never a question between turns.
            Pending::Faced { .. } => return None,
        };
        Some((seat_of(side), kind))
    }

    /// A standing order's own answer to the question now asked of `seat` (`QUESTIONS`): the
    /// reaction or the fire it names where the rules offer it, else none (declined).
    pub fn standing_answer_of(&self, seat: SeatId, answer: &str, legal: &[Action]) -> Option<Action> {
        let (_, kind) = self.question_asked().filter(|(s, _)| *s == seat)?;
        let offered = |want: &dyn Fn(&Action) -> bool| legal.iter().find(|a| want(a)).cloned();
        let decline = || offered(&|a| matches!(a, Action::Decline));
        match (kind, answer) {
            ("reaction", "fire") => offered(&|a| matches!(a, Action::ReactFire { .. })).or_else(decline),
            ("reaction", "counter-charge") => offered(&|a| matches!(a, Action::CounterCharge)).or_else(decline),
            ("reaction", "none") | ("opportunity-fire", "hold") => decline(),
            ("opportunity-fire", "fire") => offered(&|a| matches!(a, Action::OpportunityFire)),
            _ => None,
        }
    }
}
