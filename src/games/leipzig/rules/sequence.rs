//! Game Turn Sequence: the phases of a Player-Turn and a Game-Turn, what the table waits for, and
//! the steps nobody decides.

use super::zoc::Situation;
use crate::games::leipzig::actions::{Event, LzError, rule};
use crate::games::leipzig::data::{Entry, ReinforcementRow, Side};
use crate::games::leipzig::state::{Leipzig, Pending, Status, Step, UnitId};

impl Leipzig {
    /// The start of a player-turn: flags cleared, the rebellion's levy, reinforcements, the
    /// reconnaissance of units adjacent at the start of the French Movement Phase.
    pub fn begin_player_turn(&mut self, ev: &mut Vec<Event>) {
        let side = self.side;
        for u in self.units.iter_mut().filter(|u| u.side == side) {
            u.moved = false;
            u.spent = 0;
            u.attacked = false;
            u.stays = false;
            u.used = Default::default();
            if let Some(d) = &mut u.dispersed {
                d.fresh = false;
            }
        }
        for u in self.units.iter_mut() {
            u.used = Default::default();
        }
        self.attacks.clear();
        self.defended.clear();
        self.overrun.clear();
        self.moved_any = false;
        ev.push(Event::PhaseBegins { side, step: "Movement Phase".into() });
        if side == Side::French && self.rebellion {
            self.rebellion_levy();
        }
        // Counters away on the armistice's way round come back on their turn.
        for u in self.units.iter_mut().filter(|u| u.side == side) {
            if let Status::Away { back, at } = &u.status
                && *back <= self.turn
            {
                u.status = Status::Arriving(at.clone());
            }
        }
        self.bring_reinforcements(ev);
        if side == Side::French && self.reconnaissance() {
            self.reveal_adjacent(ev);
        }
        self.step = if self.arriving().next().is_some() { Step::Enter } else { Step::Move };
    }

    /// The end of the Movement Phase: forced-march supply used up, dispersals counted.
    pub fn end_movement(&mut self, ev: &mut Vec<Event>) {
        for u in self.on_map(self.side).collect::<Vec<_>>() {
            if self.units[u as usize].used.march && !self.units[u as usize].used.combat {
                self.units[u as usize].status =
                    crate::games::leipzig::state::Status::Gone(crate::games::leipzig::state::Gone::Consumed);
                ev.push(Event::SupplyUsed { unit: u });
            }
        }
        self.entered_any = false;
        self.count_phase(true, ev);
        ev.push(Event::PhaseBegins { side: self.side, step: "Combat Phase".into() });
        self.step = Step::Declare;
    }

    /// A friendly phase has passed for the phasing side's dispersed units (Combat, case K).
    fn count_phase(&mut self, movement: bool, ev: &mut Vec<Event>) {
        let side = self.side;
        for i in 0..self.units.len() {
            let u = &mut self.units[i];
            if u.side != side || !u.on_map() {
                continue;
            }
            let Some(d) = &mut u.dispersed else { continue };
            if d.fresh {
                d.fresh = false;
                continue;
            }
            if movement {
                d.movement = true
            } else {
                d.combat = true
            }
            if d.movement && d.combat {
                u.dispersed = None;
                ev.push(Event::Recovered { unit: i as UnitId });
            }
        }
    }

    /// The end of the Combat Phase and of the player-turn.
    pub fn end_combat(&mut self) {
        self.step = Step::Consume;
    }

    /// After the last choice of supply: supply used up, the phase counted, the next player-turn.
    pub fn finish_combat(&mut self, ev: &mut Vec<Event>) {
        self.consume_supply(ev);
        self.count_phase(false, ev);
        if self.side == Side::French {
            self.side = Side::Allied;
            self.begin_player_turn(ev);
        } else {
            self.end_game_turn(ev);
        }
    }

    /// The end of a Game-Turn: victory at the last, Bavaria's defection, Austria's intervention,
    /// the armistice's end, the German rebellion.
    fn end_game_turn(&mut self, ev: &mut Vec<Event>) {
        if self.turn >= self.sc.last_turn {
            let vp = self.victory_points(true);
            self.winner = match vp[0].cmp(&vp[1]) {
                std::cmp::Ordering::Greater => Some(Side::French),
                std::cmp::Ordering::Less => Some(Side::Allied),
                std::cmp::Ordering::Equal => None,
            };
            self.final_vp = Some(vp);
            self.step = Step::Over;
            ev.push(Event::GameOver { vp, winner: self.winner });
            return;
        }
        let vp = self.victory_points(false);
        if let Some(from) = self.sc.bavarian_defection_from
            && self.turn >= from
            && !self.bavaria
            && vp[0] < vp[1]
        {
            self.bavaria = true;
            ev.push(Event::BavariaDefects);
            let bav = &self.sc.bavaria;
            self.extra.push(ReinforcementRow {
                turn: self.turn + 1,
                side: Side::Allied,
                at: Entry::SouthEdgeWestOfAustria,
                infantry: bav.infantry,
                cavalry: bav.cavalry,
                supply: 0,
                leaders: Vec::new(),
                provenance: bav.provenance.clone(),
            });
        }
        if self.sc.austria == crate::games::leipzig::data::AustriaRule::Intervention
            && !self.austria_at_war
            && self.turn >= 6
            && self.combat_losses[0] > 0
            && self.combat_losses[0] >= 2 * self.combat_losses[1]
        {
            self.intervene(ev);
        }
        if let Some(t) = self.berlin_taken
            && t == self.turn
        {
            let n = self.sc.northern_option.clone();
            ev.push(Event::NorthernOption { side: Side::Allied });
            for (side, turn, at) in
                [(Side::Allied, t + 1, Entry::NorthEdgeEastOfElbe), (Side::French, t + 2, Entry::NorthEdgeByElbe)]
            {
                self.extra.push(ReinforcementRow {
                    turn,
                    side,
                    at,
                    infantry: n.allied_infantry,
                    cavalry: n.allied_cavalry,
                    supply: 0,
                    leaders: Vec::new(),
                    provenance: n.provenance.clone(),
                });
            }
        }
        self.turn += 1;
        self.side = Side::French;
        ev.push(Event::TurnBegins { turn: self.turn });
        if self.armistice.is_some_and(|t| self.turn == t + 12) {
            ev.push(Event::ArmisticeEnds);
        }
        if self.sc.campaign && self.turn == 15 && !self.rebellion {
            let b = &self.sc.board;
            let holds = |c: &str| b.place(c).is_some_and(|h| self.side_at(h) == Some(Side::French));
            let spared = self.armistice.is_some()
                || (holds("Berlin") && holds("Breslau") && self.unit_vp[0] >= 3 * self.unit_vp[1]);
            if !spared {
                self.rebellion = true;
                ev.push(Event::Rebellion);
            }
        }
        self.next_deploy(ev);
    }

    /// The side that decides now.
    pub fn deciding(&self) -> Option<Side> {
        if self.step == Step::Over {
            return None;
        }
        if let Some(side) = self.pending_side() {
            return Some(side);
        }
        Some(match self.step {
            Step::Deploy(side) => side,
            Step::RetreatBefore | Step::DefendSupply => self.side.other(),
            _ => self.side,
        })
    }

    /// What the table waits for, in words (for refusals and the prompt).
    pub fn waiting_for(&self) -> String {
        let Some(who) = self.deciding().map(|s| s.name()) else { return "the end: the game is over".into() };
        let what = match (self.pending.first(), self.step) {
            (Some(Pending::Retreat { .. }), _) => "retreat",
            (Some(Pending::Scatter { .. }), _) => "scattered counter's retreat",
            (Some(Pending::Advance { .. }), _) => "advance after combat",
            (Some(Pending::Lose { attack: Some(_), .. }), _) => "choice of the attacker's losses (½ex)",
            (Some(Pending::Lose { attack: None, .. }), _) => "choice of the divisions the German rebellion takes",
            (_, Step::Deploy(_)) => "deployment",
            (_, Step::Enter) => "reinforcements",
            (_, Step::Move) => "Movement Phase",
            (_, Step::March) => "forced march (roll on or halt)",
            (_, Step::Build) => "recombining at the end of movement",
            (_, Step::Declare) => "declaration of attacks",
            (_, Step::RetreatBefore) => "retreats before combat",
            (_, Step::DefendSupply) => "supply for the defence",
            (_, Step::Resolve) => "resolution of the attacks",
            (_, Step::Consume) => "choice of the supply units its stacks use up",
            (_, Step::Over) => "end",
        };
        format!("the {who} player's {what}")
    }

    /// Runs the steps nobody decides: a deployment done, reinforcements all in, a combat segment
    /// with nothing to decide, a retreat with nowhere to go, the end of the Combat Phase.
    pub(super) fn advance(&mut self, ev: &mut Vec<Event>) {
        for _ in 0..10_000 {
            self.settle_pending(ev);
            if !self.pending.is_empty() {
                return;
            }
            match self.step {
                Step::Deploy(side) if self.to_deploy(side).next().is_none() => self.next_deploy(ev),
                Step::Enter if self.arriving().next().is_none() => self.step = Step::Move,
                Step::Declare if self.armistice_on() => self.end_combat(),
                Step::RetreatBefore => {
                    let s = Situation::as_seen_by(self, self.side.other());
                    let any = self.on_map(self.side.other()).any(|u| !self.retreat_before_options(&s, u).is_empty());
                    if any {
                        return;
                    }
                    self.step = Step::DefendSupply;
                }
                Step::DefendSupply if self.next_defense().is_none() => self.step = Step::Resolve,
                Step::Resolve if self.attacks.iter().all(|a| a.resolved) => self.end_combat(),
                Step::Consume if self.stack_supply().is_ok() => self.finish_combat(ev),
                Step::Move | Step::Build
                    if self.on_map(self.side).next().is_none() && self.arriving().next().is_none() =>
                {
                    // A side with nothing on the map has no movement to make.
                    self.end_movement(ev);
                }
                _ => return,
            }
        }
    }
}

impl Leipzig {
    /// A sandbox going back to the rules: no decision or forced march half made (the counters it
    /// names may have been moved by hand since).
    pub(super) fn refuse_half_made(&self) -> Result<(), LzError> {
        if !self.pending.is_empty() || self.march.is_some() || self.attacks.iter().any(|a| !a.resolved) {
            return Err(LzError::new(
                rule::SEQUENCE,
                "a combat, retreat or forced march is under way: finish it before the rules take over again",
            ));
        }
        Ok(())
    }
}

/// The questions the other side's play asks a seat, which its standing orders may answer
/// (issue 32): the defender's retreats before combat (Combat, case J) and supply (Combat III),
/// a retreat after a "d" result, a scattered counter's retreat, the German rebellion's losses.
pub const QUESTIONS: &[crate::engine::orders::QuestionKind] = &[
    crate::engine::orders::QuestionKind {
        kind: "retreat-before-combat",
        words: "Combat II: which counters retreat before combat (case J)",
        answers: &[
            ("stand", "no counter retreats before combat"),
            ("retreat-from:N", "every counter that can retreats from an attack of N% or more (odds it can see)"),
        ],
    },
    crate::engine::orders::QuestionKind {
        kind: "defence-supply",
        words: "Combat III: a supply unit for each attacked hex",
        answers: &[("supply", "a supply unit wherever one may give it"), ("none", "no supply unit in defence")],
    },
    crate::engine::orders::QuestionKind {
        kind: "retreat",
        words: "the way a stack retreats after a d result",
        answers: &[],
    },
    crate::engine::orders::QuestionKind {
        kind: "scatter",
        words: "the way a scattered counter retreats",
        answers: &[],
    },
    crate::engine::orders::QuestionKind {
        kind: "rebellion-losses",
        words: "the two French divisions the German rebellion takes",
        answers: &[],
    },
];

impl Leipzig {
    /// The question the decision now is: asked of the side that is not phasing, by the
    /// phasing side's play (the deployment is each side's own).
    pub fn question_asked(&self) -> Option<(crate::engine::seats::SeatId, &'static str)> {
        let side = self.deciding()?;
        if side == self.side || matches!(self.step, Step::Deploy(_)) {
            return None;
        }
        let kind = match (self.pending.first(), self.step) {
            (Some(Pending::Retreat { .. }), _) => "retreat",
            (Some(Pending::Scatter { .. }), _) => "scatter",
            (Some(Pending::Lose { attack: None, .. }), _) => "rebellion-losses",
            (Some(_), _) => return None,
            (None, Step::RetreatBefore) => "retreat-before-combat",
            (None, Step::DefendSupply) => "defence-supply",
            _ => return None,
        };
        Some((crate::games::leipzig::data::seat_of(side), kind))
    }

    /// A standing order's own answer to the question now asked of `seat` (`QUESTIONS`), decided
    /// on that seat's view: none where it does not fit.
    pub fn standing_answer_of(
        &self,
        seat: crate::engine::seats::SeatId,
        answer: &str,
        legal: &[crate::games::leipzig::actions::Action],
    ) -> Option<crate::games::leipzig::actions::Action> {
        let (_, kind) = self.question_asked().filter(|(s, _)| *s == seat)?;
        let view = crate::engine::rules::Game::observe(self, crate::engine::seats::Viewer::Seat(seat)).game;
        match (kind, crate::engine::orders::split(answer)) {
            ("retreat-before-combat", (name, n)) => view.retreat_before_answer(name, n, legal),
            ("defence-supply", (name, None)) => view.defence_supply_answer(name, legal),
            _ => None,
        }
    }
}
