//! Leipzig 1813 in words: the names of counters and hexes, the labels of actions, the prompt,
//! the status line and the log, each as the viewer may read it (a blank stays a blank).

use super::actions::{Action, Event, Loss};
use super::data::{Hex, Side};
use super::state::{Leipzig, March, UnitId};
use crate::engine::seats::Viewer;
use crate::engine::standing::{Score, Standing};

impl Leipzig {
    /// A hex as players name it: its city, or its number.
    pub fn hex_name(&self, h: Hex) -> String {
        match self.sc.board.place_at(h) {
            Some(p) => format!("{p} ({})", self.sc.board.label(h)),
            None => self.sc.board.label(h),
        }
    }

    /// A counter's name as `viewer` may read it.
    pub fn unit_name(&self, u: UnitId, viewer: Viewer) -> String {
        if (u as usize) < self.units.len() && self.seen_by(u as usize, viewer) {
            self.name(u)
        } else {
            format!("an {} blank", self.units.get(u as usize).map(|x| x.side.name()).unwrap_or("Allied"))
        }
    }

    pub fn action_label(&self, a: &Action) -> String {
        let v = self.deciding().map(|s| Viewer::Seat(super::rules::seat_of(s))).unwrap_or(Viewer::Spectator);
        let n = |u: &UnitId| self.unit_name(*u, v);
        let h = |x: &Hex| self.hex_name(*x);
        match a {
            Action::Deploy { unit, hex } => format!("Deploy {} on {}", n(unit), h(hex)),
            Action::DeployRest => "Deploy the rest where the chart suggests".into(),
            Action::Enter { unit, hex } => format!("Bring {} in at {}", n(unit), h(hex)),
            Action::Armistice => "Announce the armistice".into(),
            Action::Breakdown { unit } => format!("Break down {}", n(unit)),
            Action::Build { units } => format!("Combine {}", units.iter().map(n).collect::<Vec<_>>().join(" + ")),
            Action::Move { unit, to, march, supply } => {
                let how = match (march, supply) {
                    (March::Normal, _) => String::new(),
                    (m, Some(_)) => {
                        format!(" ({} allowance, supplied)", if *m == March::Double { "double" } else { "triple" })
                    }
                    (m, None) => {
                        format!(" ({} allowance, forced march)", if *m == March::Double { "double" } else { "triple" })
                    }
                };
                format!("Move {} to {}{how}", n(unit), h(to))
            }
            Action::Exit { unit } => format!("Move {} off the map", n(unit)),
            Action::Overrun { from, target } => format!("Eliminate {} automatically from {}", h(target), h(from)),
            Action::ContinueMarch => "Roll the subsidiary table".into(),
            Action::HaltMarch => "Halt the march here".into(),
            Action::EndMovement => "End the Movement Phase".into(),
            Action::EndBuild => "End recombining".into(),
            Action::Declare { from, units, target, supply } => format!(
                "Attack {} from {} with {}{}",
                h(target),
                h(from),
                units.iter().map(n).collect::<Vec<_>>().join(", "),
                if supply.is_some() { " (supplied)" } else { " (unsupplied)" }
            ),
            Action::EndDeclarations => "No more attacks".into(),
            Action::RetreatBefore { unit, to } => format!("Retreat {} before combat to {}", n(unit), h(to)),
            Action::EndRetreats => "Stand and fight".into(),
            Action::DefendSupply { hex, supply } => match supply {
                Some(s) => format!("Supply the defence of {} with {}", h(hex), n(s)),
                None => format!("Defend {} without supply", h(hex)),
            },
            Action::Resolve { attack } => {
                let t = self
                    .attacks
                    .get(*attack as usize)
                    .map(|x| x.targets.iter().map(h).collect::<Vec<_>>().join(", "))
                    .unwrap_or_default();
                format!("Resolve the attack on {t}")
            }
            Action::Retreat { to } => format!("Retreat to {}", h(to)),
            Action::EnterRest => "Bring the rest in".into(),
            Action::Advance => "Advance all into the hex".into(),
            Action::AdvanceOne { unit } => format!("Advance {}", n(unit)),
            Action::StayPut => "Stay put".into(),
            Action::Remove { unit } => {
                let d = self.divisions(*unit);
                let owed = match self.pending.first() {
                    Some(super::state::Pending::Lose { divisions, .. }) => *divisions,
                    _ => d,
                };
                if d > owed {
                    format!("Break down {} to lose a part", n(unit))
                } else {
                    format!("Lose {} ({d} division{})", n(unit), if d == 1 { "" } else { "s" })
                }
            }
            Action::UseSupply { unit } => {
                let at = self.hex_of(*unit).map(|x| h(&x)).unwrap_or_default();
                format!("Use up {} at {at}", n(unit))
            }
        }
    }

    pub fn prompt(&self) -> String {
        if self.step == super::state::Step::Over {
            let vp = self.final_vp.unwrap_or([0, 0]);
            return match self.winner {
                Some(s) => format!(
                    "Game over: the {} win, {} to {} victory points",
                    s.name(),
                    vp[s.index()],
                    vp[s.other().index()]
                ),
                None => format!("Game over: a draw at {} victory points each", vp[0]),
            };
        }
        let detail = match self.pending.first() {
            Some(super::state::Pending::Lose { divisions, .. }) => {
                format!(" — {divisions} division{} to remove", if *divisions == 1 { "" } else { "s" })
            }
            Some(super::state::Pending::Advance { into, .. }) => format!(" into {}", self.hex_name(*into)),
            _ => match (self.step, self.stack_supply()) {
                (super::state::Step::Consume, Err((h, _))) => format!(" — the stack on {}", self.hex_name(h)),
                _ => String::new(),
            },
        };
        format!("Turn {}: {}{detail}", self.turn, self.waiting_for())
    }

    pub fn status(&self) -> String {
        let score = self.standing().score.expect("always scored");
        format!(
            "{} · Turn {} of {} · {} to move · {score}",
            self.sc.name,
            self.turn,
            self.sc.last_turn,
            self.side.name()
        )
    }

    /// The turn and the victory points as they stand (`status` in numbers).
    pub fn standing(&self) -> Standing {
        let vp = self.victory_points(false);
        let score = Score::two("VP", ("French", vp[0] as f32), ("Allied", vp[1] as f32));
        Standing { turn: Some(("Turn", self.turn as u32)), score: Some(score) }
    }

    /// One log line as `viewer` may read it.
    pub fn event_text(&self, e: &Event, viewer: Viewer) -> String {
        let n = |u: &UnitId| self.unit_name(*u, viewer);
        let h = |x: &Hex| self.hex_name(*x);
        let list = |us: &[UnitId]| us.iter().map(n).collect::<Vec<_>>().join(", ");
        match e {
            Event::TurnBegins { turn } => format!("Game-Turn {turn} begins"),
            Event::PhaseBegins { side, step } => format!("{} {step}", side.name()),
            Event::Deployed { unit, hex } => format!("{} deployed on {}", n(unit), h(hex)),
            Event::Arrived { unit, hex } => format!("{} arrives at {}", n(unit), h(hex)),
            Event::Delayed { side, count, why } => {
                format!("{count} {} reinforcement(s) do not appear: {why}", side.name())
            }
            Event::Moved { unit, from, to, cost, march } => {
                let m = match march {
                    March::Normal => String::new(),
                    March::Double => ", forced march (double)".into(),
                    March::Triple => ", forced march (triple)".into(),
                };
                format!("{} moves {} to {} ({cost} MP{m})", n(unit), h(from), h(to))
            }
            Event::ZoneStop { unit, at } => {
                format!("{} is stopped at {} by an Allied zone of control it could not see", n(unit), h(at))
            }
            Event::RetreatBarred { unit, to } => format!(
                "{} may not retreat before combat to {}: an Allied zone of control it could not see bars the way; it stays",
                n(unit),
                h(to)
            ),
            Event::RetreatRedirected { from, chosen, to } => format!(
                "the retreat from {} to {} crosses more Allied zones of control than another way: it goes to {}",
                h(from),
                h(chosen),
                h(to)
            ),
            Event::MarchHalted { unit, at } => format!("{} halts its march at {}", n(unit), h(at)),
            Event::MarchFree { unit, why } => format!("{} force-marches without the table: {why}", n(unit)),
            Event::Dispersed { unit } => format!("{} is dispersed", n(unit)),
            Event::Recovered { unit } => format!("{} recovers", n(unit)),
            Event::Lost { unit, at, why } => {
                let w = match why {
                    Loss::Combat => "destroyed in combat",
                    Loss::NoRetreat => "eliminated: no retreat",
                    Loss::Austria => "eliminated entering Austria",
                    Loss::Marched => "lost on the march",
                    Loss::Overrun => "eliminated automatically",
                    Loss::Rebellion => "withdrawn by the German rebellion",
                };
                format!("{} {w}{}", n(unit), at.map(|x| format!(" at {}", h(&x))).unwrap_or_default())
            }
            Event::BrokeDown { unit, into } => format!("{} breaks down into {}", n(unit), list(into)),
            Event::BuiltUp { from, into } => format!("{} combine into {}", list(from), n(into)),
            Event::Revealed { units } => format!("revealed: {}", list(units)),
            Event::Overrun { from, target, attack, defense } => {
                format!(
                    "automatic elimination of {} from {} ({}% )",
                    h(target),
                    h(from),
                    Leipzig::percent(*attack, *defense)
                )
            }
            Event::Declared { from, targets, units, supply, .. } => format!(
                "attack declared on {} from {} by {}{}",
                targets.iter().map(h).collect::<Vec<_>>().join(", "),
                h(from),
                list(units),
                if supply.is_some() { ", supplied" } else { ", unsupplied" }
            ),
            Event::NoCombat { from, targets, why } => {
                format!("no combat on {} from {}: {why}", targets.iter().map(h).collect::<Vec<_>>().join(", "), h(from))
            }
            Event::RetreatsOver { side } => format!("{}: no more retreats before combat", side.name()),
            Event::NoAdvance { into } => format!("the attackers do not advance into {}", h(into)),
            Event::KeepsStack { unit } => format!("{} keeps its stack together this turn", n(unit)),
            Event::RetreatedBefore { unit, from, to } => {
                format!("{} retreats before combat {} to {}", n(unit), h(from), h(to))
            }
            Event::DefenderSupply { hex, supply } => match supply {
                Some(s) => format!("{} supplies the defence of {}", n(s), h(hex)),
                None => format!("{} defends without supply", h(hex)),
            },
            Event::Rolled(roll) => roll.line(crate::engine::rules::Game::seat_names(self)),
            Event::Retreated { units, from, to } => format!("{} retreat {} to {}", list(units), h(from), h(to)),
            Event::Scattered { unit, from, to } => format!("{} scatters {} to {}", n(unit), h(from), h(to)),
            Event::Advanced { units, into } => format!("{} advance into {}", list(units), h(into)),
            Event::SupplyUsed { unit } => format!("{} used up", n(unit)),
            Event::DepotReplaced { depot, supply } => match supply {
                Some(_) => format!("{} used: a supply unit takes its place", n(depot)),
                None => format!("{} used up", n(depot)),
            },
            Event::Exited { unit } => format!("{} leaves the map by the east edge", n(unit)),
            Event::Detour { unit, back } => format!(
                "{} leaves the map during the armistice, back on the other side of the line on turn {back}",
                n(unit)
            ),
            Event::CityTaken { city, side } => format!("{city} taken by the {}", side.name()),
            Event::ArmisticeDeclared { turn } => format!("the French announce an armistice on turn {turn}"),
            Event::ArmisticeEnds => "the armistice ends: normal bloody play resumes".into(),
            Event::Rebellion => "Germany rises: French reinforcements are cancelled, two divisions a turn leave".into(),
            Event::AustriaIntervenes => "Austria intervenes: its army deploys around Prague".into(),
            Event::BavariaDefects => "Bavaria defects to the Allies".into(),
            Event::NorthernOption { .. } => "Northern Option: reinforcements on both banks of the Elbe".into(),
            Event::GameOver { vp, winner } => match winner {
                Some(s) => format!("Game over: the {} win ({} to {})", s.name(), vp[s.index()], vp[s.other().index()]),
                None => format!("Game over: a draw ({} each)", vp[0]),
            },
        }
    }
}

pub fn half(h: u32) -> String {
    if h.is_multiple_of(2) { format!("{}", h / 2) } else { format!("{}.5", h / 2) }
}

pub fn side_named(name: &str) -> Option<Side> {
    match name.to_ascii_lowercase().as_str() {
        "french" | "france" => Some(Side::French),
        "allied" | "allies" => Some(Side::Allied),
        _ => None,
    }
}
