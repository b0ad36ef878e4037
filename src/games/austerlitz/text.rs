//! Austerlitz in words: the names of units and spaces, the labels of actions (an attack with its
//! CF difference), the prompt, the status line and the log with every die and modifier.

use super::actions::{Action, Event};
use super::data::{Cell, CrtResult, FireResult, Side};
use super::state::{Austerlitz, Pending, Step};
use crate::engine::geometry::Facing;
use crate::engine::standing::{Score, Standing};

pub fn facing_name(f: Facing) -> &'static str {
    match f {
        Facing::N => "north",
        Facing::NE => "north-east",
        Facing::E => "east",
        Facing::SE => "south-east",
        Facing::S => "south",
        Facing::SW => "south-west",
        Facing::W => "west",
        Facing::NW => "north-west",
    }
}

pub fn crt_name(r: CrtResult) -> String {
    match r {
        CrtResult::AE => "AE (attacker eliminated)".into(),
        CrtResult::AR(n) => format!("A{n} (attacker retreats {n})"),
        CrtResult::N => "N (no result)".into(),
        CrtResult::DR(n) => format!("D{n} (defender retreats {n})"),
        CrtResult::DE => "DE (defender eliminated)".into(),
    }
}

pub fn fire_name(r: FireResult) -> String {
    match r {
        FireResult::N => "no result".into(),
        FireResult::R(n) => format!("{n} (retreat {n}{})", if n > 3 { ", demoralised" } else { "" }),
        FireResult::E => "E (eliminated)".into(),
    }
}

impl Austerlitz {
    pub fn cell_name(&self, c: Cell) -> String {
        self.sc.board.place_name(c)
    }

    pub fn unit_label(&self, u: u8) -> String {
        self.sc
            .units
            .get(u as usize)
            .map(|d| format!("{} {}", self.side_of(u as usize).name(), d.name))
            .unwrap_or_default()
    }

    pub fn action_label(&self, a: &Action) -> String {
        let n = |u: &u8| self.unit_label(*u);
        let c = |x: &Cell| self.cell_name(*x);
        match a {
            Action::Deploy { unit, at, facing } => {
                format!("Set up {} on {} facing {}", n(unit), c(at), facing_name(*facing))
            }
            Action::PlaceCommand { command, at } => {
                format!("Set up {} on {}", self.sc.commands[*command as usize].name, c(at))
            }
            Action::DeployRest => match self.sc.sectors {
                super::data::Sectors::Historical => "Set up the rest where they stood on the day".into(),
                super::data::Sectors::Game => "Set up the rest in their sectors".into(),
            },
            Action::Fire { gun, target, battery } => format!(
                "{} fires at {}{}",
                n(gun),
                c(target),
                if *battery { " (counter-battery: its artillery alone)" } else { "" }
            ),
            Action::EndFire => "End artillery fire (step 1)".into(),
            Action::Move { unit, to, facing } => {
                let cost = self.reach_to(*unit as usize, *to, *facing).map(|r| r.spent).unwrap_or(0);
                if self.units[*unit as usize].at == Some(*to) {
                    format!("Turn {} to face {} ({cost} MF)", n(unit), facing_name(*facing))
                } else {
                    format!("Move {} to {} facing {} ({cost} MF)", n(unit), c(to), facing_name(*facing))
                }
            }
            Action::Square { unit } => {
                if self.units[*unit as usize].square {
                    format!("{} leaves its square", n(unit))
                } else {
                    format!("{} forms square", n(unit))
                }
            }
            Action::Attack { units, target, charge } => {
                let list: Vec<usize> = units.iter().map(|&u| u as usize).collect();
                let odds = self.odds(&list, *target, *charge, false);
                let dm = odds.die_modifier();
                format!(
                    "{} {} with {}: {} against {} = {:+}{}",
                    if *charge { "Charge" } else { "Attack" },
                    c(target),
                    units.iter().map(n).collect::<Vec<_>>().join(", "),
                    odds.attack,
                    odds.defence,
                    odds.difference(),
                    if dm != 0 { format!(", die {dm:+}") } else { String::new() }
                )
            }
            Action::EndMovement => "End movement (step 2)".into(),
            Action::EndArtillery => "End field artillery movement (step 3)".into(),
            Action::MoveCommand { command, to } => {
                format!("Move {} to {}", self.sc.commands[*command as usize].name, c(to))
            }
            Action::EndTurn => "End the turn (smoke and DIS come off)".into(),
            Action::Retreat { toward, facing } => {
                format!("Retreat {} and face {}", facing_name(*toward), facing_name(*facing))
            }
            Action::ReactFire { gun } => format!("{} fires in reaction", n(gun)),
            Action::CounterCharge => "Counter-charge".into(),
            Action::OpportunityFire => "Opportunity fire".into(),
            // Facing enemy infantry (Infantry Opportunity fire), the mover leaves it alone.
            Action::Decline if matches!(self.pending.last(), Some(Pending::Faced { .. })) => {
                "No attack (it may fire: opportunity fire)".into()
            }
            Action::Decline => "No reaction".into(),
        }
    }

    pub fn prompt(&self) -> String {
        if self.step == Step::Over {
            return match self.winner {
                Some(s) => format!("Game over: the {} win", s.name()),
                None => "Game over: a draw".into(),
            };
        }
        if let Some(p) = self.pending.last() {
            let who = self.deciding().map(|s| s.name()).unwrap_or("");
            return match p {
                Pending::Retreat { units, spaces, .. } => format!(
                    "{who}: choose the retreat of {} ({spaces} spaces in a straight line away) and its new front",
                    units.iter().map(|&u| self.unit_label(u)).collect::<Vec<_>>().join(", ")
                ),
                Pending::AttackReactions { .. } => format!("{who}: react to the attack (fire, counter-charge) or not"),
                Pending::OpportunityFire { by, at, chance } => format!(
                    "{who}: {} may fire at {}{}",
                    self.unit_label(*by),
                    self.unit_label(*at),
                    if *chance { " (chance fire: it stands before it too weak to attack)" } else { "" }
                ),
                Pending::Faced { unit, by } => format!(
                    "{who}: {} faces {}: attack, or leave {} (then it may fire: opportunity fire)",
                    self.unit_label(*unit),
                    by.iter().map(|&v| self.unit_label(v)).collect::<Vec<_>>().join(" and "),
                    if by.len() > 1 { "them" } else { "it" }
                ),
            };
        }
        let side = self.side.name();
        if self.step == Step::Move
            && let Some((u, _)) = self.owed_attacks()
        {
            return format!(
                "{side}: {} used the column's extra MF and must attack now (click the enemy before it)",
                self.unit_label(u as u8)
            );
        }
        match self.step {
            Step::Setup => format!("{side} set-up: drag each unit into its sectors on your side of the red border"),
            Step::Fire => format!("{side}, step 1: fire your artillery (click a gun)"),
            Step::Move => format!(
                "{side}, step 2: move units one by one (drag; Q/E turn, F a square) and attack (click an enemy)"
            ),
            Step::ArtilleryMove => format!("{side}, step 3: move field artillery"),
            Step::Commands => format!("{side}, step 4: move commands, then end the turn"),
            Step::Over => String::new(),
        }
    }

    pub fn status(&self) -> String {
        let mist = match self.sc.tables.mist(self.turn) {
            Some(m) if self.turn > 0 => format!(
                " · mist (+{} range{})",
                m.range,
                if m.charge > 0 { format!(", charges -{}", m.charge) } else { String::new() }
            ),
            _ => String::new(),
        };
        let score = self.standing().score.expect("always scored");
        format!(
            "Turn {} of {} · {score} · eliminated French {} Allied {}{mist}",
            self.turn,
            self.sc.tables.victory.last_turn,
            self.eliminated[Side::Allied.index()],
            self.eliminated[Side::French.index()],
        )
    }

    /// The turn and the victory points as they stand, in half points made whole (`status` in
    /// numbers).
    pub fn standing(&self) -> Standing {
        let p = self.points();
        let score = Score::two("points", ("French", p[0] as f32 / 2.0), ("Allied", p[1] as f32 / 2.0));
        Standing { turn: Some(("Turn", self.turn as u32)), score: Some(score) }
    }

    pub fn event_text(&self, e: &Event) -> String {
        let n = |u: &u8| self.unit_label(*u);
        let c = |x: &Cell| self.cell_name(*x);
        match e {
            Event::Deployed { unit, at } => format!("{} sets up on {}", n(unit), c(at)),
            Event::SetUpDone { side } => format!("the {} set-up is done", side.name()),
            Event::CommandPlaced { command, at } => {
                format!("{} is set up on {}", self.sc.commands[*command as usize].name, c(at))
            }
            Event::CommandMoved { command, to } => {
                format!("{} moves to {}", self.sc.commands[*command as usize].name, c(to))
            }
            Event::StepOver { side, what } => format!("{}: {what}", side.name()),
            Event::Moved { unit, from, to, spent } => {
                format!("{} moves {} to {} ({spent} MF)", n(unit), c(from), c(to))
            }
            Event::Turned { unit, facing } => format!("{} turns to face {}", n(unit), facing_name(*facing)),
            Event::Formed { unit, square } => {
                format!("{} {}", n(unit), if *square { "forms square" } else { "leaves its square" })
            }
            Event::Disordered { unit, why } => format!("{} is DIS ({why})", n(unit)),
            Event::Demoralised { unit, why } => format!("{} is demoralised ({why})", n(unit)),
            Event::Recovered { unit } => format!("{} recovers its morale", n(unit)),
            Event::Eliminated { unit, why } => format!("{} is eliminated ({why})", n(unit)),
            Event::CommandCaptured { command, why } => {
                format!("{} is captured ({why})", self.sc.commands[*command as usize].name)
            }
            Event::AttackDeclared { units, target, charge } => format!(
                "{} on {} by {}",
                if *charge { "charge" } else { "attack" },
                c(target),
                units.iter().map(n).collect::<Vec<_>>().join(", ")
            ),
            Event::Rolled(roll) => roll.line(crate::engine::rules::Game::seat_names(self)),
            Event::CounterCharged { unit } => format!("{} counter-charges", n(unit)),
            Event::Retreated { unit, from, to } => format!("{} retreats from {} to {}", n(unit), c(from), c(to)),
            Event::GuardCollapse { side, until } => {
                format!(
                    "the {} Guard infantry is gone: the whole side is demoralised in the following 2 game turns ({} and {until})",
                    side.name(),
                    until.saturating_sub(1)
                )
            }
            Event::TurnEnded { side, turn } => format!("the {} turn {turn} ends", side.name()),
            Event::Victory { winner, points, why } => format!(
                "game over ({why}): {}, points French {} Allied {}",
                match winner {
                    Some(s) => format!("the {} win", s.name()),
                    None => "a draw".into(),
                },
                points[0] as f32 / 2.0,
                points[1] as f32 / 2.0
            ),
        }
    }
}
