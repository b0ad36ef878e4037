//! The Special Game Rules (Saxon Garrison, Bavarian Defection) and the Special Campaign-Game Rules
//! (Armistice, German Rebellion, Austrian Intervention), and the scenarios' ban on Austria.

use super::zoc::Situation;
use crate::games::leipzig::actions::Event;
use crate::games::leipzig::actions::{LzError, rule};
use crate::games::leipzig::data::{AustriaRule, Hex, Side};
use crate::games::leipzig::state::{Leipzig, March, Pending, Step, UnitId};

impl Leipzig {
    /// German Rebellion: the French Player removes two divisions a turn, his choice which.
    pub(super) fn rebellion_levy(&mut self) {
        self.pending.push(Pending::Lose { attack: None, divisions: 2 });
    }

    /// Austria intervenes: scenario 3's force deploys around Prague next (Austrian Intervention).
    pub fn intervene(&mut self, ev: &mut Vec<Event>) {
        self.austria_at_war = true;
        ev.push(Event::AustriaIntervenes);
        for gi in 0..self.sc.intervention.len() {
            self.add_group(gi as u16, true, ev);
        }
    }

    /// The French announce the armistice (campaign game): no zones of control, no combat, no
    /// recrossing the line for eleven complete turns; Austria intervenes.
    pub fn apply_armistice(&mut self, ev: &mut Vec<Event>) {
        self.armistice = Some(self.turn);
        ev.push(Event::ArmisticeDeclared { turn: self.turn });
        if !self.austria_at_war {
            self.intervene(ev);
        }
    }

    /// "The French may at any time after Game-Turn 3, call an armistice by simply announcing
    /// this at the beginning of the French Player-Turn": before anything of the turn is done, so
    /// before the reinforcements are placed (they arrive in the Movement Phase) as well as before
    /// any counter moves or breaks down.
    pub fn can_armistice(&self) -> bool {
        self.sc.campaign
            && self.side == Side::French
            && matches!(self.step, Step::Enter | Step::Move)
            && !self.moved_any
            && !self.entered_any
            && self.units.iter().all(|u| u.side != Side::French || u.spent == 0)
            && self.turn > 3
            && self.armistice.is_none()
    }

    /// Whether `side` may enter Austria now.
    pub fn austria_open(&self) -> bool {
        match self.sc.austria {
            AustriaRule::Closed => false,
            AustriaRule::Open => true,
            AustriaRule::Intervention => self.austria_at_war,
        }
    }

    /// The hex of the Saxon garrison, which no other counter enters in the first two turns.
    pub(super) fn garrison_city(&self) -> Option<Hex> {
        (self.turn < 3).then(|| self.units.iter().find(|x| x.garrison && x.on_map()).and_then(|x| x.hex)).flatten()
    }

    /// A counter of the phasing side on the other side of the armistice line, outside a fortress,
    /// that could still move towards its own side (Armistice: all units must withdraw).
    pub fn armistice_stray(&self) -> Option<UnitId> {
        if !self.armistice_on() {
            return None;
        }
        let s = Situation::as_seen_by(self, self.side);
        let b = &self.sc.board;
        self.on_map(self.side).find(|&u| {
            let h = self.units[u as usize].hex.expect("on the map");
            !b.armistice_side(h, self.side)
                && !b.is_fortress(h)
                && !self.all_destinations(&s, u, March::Triple).is_empty()
        })
    }

    /// The Saxon garrison may not move, attack or be attacked before turn 3.
    pub fn garrison_neutral(&self, u: UnitId) -> bool {
        self.units[u as usize].garrison && self.turn < 3
    }

    /// The armistice is in force (eleven complete turns after the one it was announced in).
    pub fn armistice_on(&self) -> bool {
        self.armistice.is_some_and(|t| self.turn >= t && self.turn <= t + 11)
    }
}

// The legal listing and the refusals of this chapter.
impl Leipzig {
    pub(super) fn refuse_armistice(&self) -> LzError {
        LzError::new(
            rule::ARMISTICE,
            "the French may call one armistice, in the campaign game, after Game-Turn 3, at the beginning of their Player-Turn",
        )
    }

    /// Why the Movement Phase may not end during the armistice: a counter on the wrong side.
    pub(super) fn refuse_stray_end(&self) -> LzError {
        LzError::new(
            rule::ARMISTICE,
            format!(
                "{} must withdraw towards its side of the armistice line before the Movement Phase ends",
                self.name(self.armistice_stray().expect("checked"))
            ),
        )
    }
}
