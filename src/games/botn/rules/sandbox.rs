//! The sandbox (no rulebook chapter): with the rules off, any piece moved, flipped or drawn by
//! hand — each such move still logged and saved like an action.

use super::*;

impl Botn {
    pub(super) fn check_sandbox(&self, mode: Mode, s: &SandboxAction) -> Result<(), BotnError> {
        if mode != Mode::Sandbox {
            return Err(BotnError::new(rule::ENFORCED, "free moves by hand are allowed only in sandbox mode"));
        }
        let ok = match *s {
            SandboxAction::MoveMarker { marker, to } => {
                (marker as usize) < self.markers.len() && to.is_none_or(|t| (t.0 as usize) < self.sc.fields.len())
            }
            SandboxAction::MoveArmy { army, to } => {
                (army as usize) < self.armies.len() && to.is_none_or(|t| (t.0 as usize) < self.sc.fields.len())
            }
            SandboxAction::FlipArmy { army } => (army as usize) < self.armies.len(),
            SandboxAction::DrawBlind => !self.draw_pile.is_empty() || !self.discard.is_empty(),
            SandboxAction::MoveTime { to } => (to as usize) < self.sc.time.len(),
        };
        if ok { Ok(()) } else { Err(no_such_thing()) }
    }

    pub(super) fn apply_sandbox(&mut self, s: &SandboxAction, seat: SeatId, events: &mut Vec<Event>) -> bool {
        match *s {
            SandboxAction::MoveMarker { marker, to } => {
                let m = &mut self.markers[marker as usize];
                m.at = to;
                m.removed = false;
            }
            SandboxAction::MoveArmy { army, to } => self.armies[army as usize].at = to,
            SandboxAction::FlipArmy { army } => {
                let a = &mut self.armies[army as usize];
                a.flipped = !a.flipped;
                a.strength += if a.flipped { -1 } else { 1 };
            }
            SandboxAction::DrawBlind => self.draw_blind(side_of(seat), events),
            SandboxAction::MoveTime { to } => self.time = to,
        }
        events.push(Event::Sandbox(s.clone()));
        matches!(s, SandboxAction::DrawBlind)
    }
}
