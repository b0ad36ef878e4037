//! The sandbox (no rulebook chapter): with the rules off, any piece moved, flipped or drawn by
//! hand — each such move still logged and saved like an action. The game's own free moves
//! (drawing blind, dragging an army on the table), and the kit's (`engine::sandbox`): the armies,
//! their markers and the time marker as pieces for the hand, each carried out as a free move,
//! and the positions the rules accept to go back to them.

use super::*;
use crate::engine::sandbox::{HandMove, HandPiece, track};
use crate::games::botn::observe::BotnView;

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

impl Botn {
    /// The armies in card order, then their markers, then the time marker; an army or a marker
    /// goes on any field, the time marker on its bar.
    pub(super) fn hand_pieces_of(view: &BotnView) -> Vec<HandPiece> {
        let sc = &view.sc;
        let fields = 0..sc.fields.len() as u32;
        let armies = view.armies.iter().enumerate().map(|(a, s)| HandPiece {
            name: sc.armies[a].def.name.clone(),
            seat: Some(seat_of(sc.armies[a].def.side)),
            at: s.at.map(|f| f.0 as u32),
            goes: fields.clone(),
            flipped: Some(s.flipped),
            removable: true,
            turns: false,
        });
        let markers = view.markers.iter().enumerate().map(|(m, s)| {
            let def = &sc.armies[s.army as usize].def;
            let nth = view.markers[..m].iter().filter(|o| o.army == s.army).count() + 1;
            HandPiece {
                name: format!("{}'s marker {nth}", def.name),
                seat: Some(seat_of(def.side)),
                at: s.at.map(|f| f.0 as u32),
                goes: fields.clone(),
                flipped: None,
                removable: true,
                turns: false,
            }
        });
        let bar = fields.end..fields.end + sc.time.len() as u32;
        let time = HandPiece {
            name: "the time marker".into(),
            seat: None,
            at: Some(bar.start + view.time as u32),
            goes: bar,
            flipped: None,
            removable: false,
            turns: false,
        };
        armies.chain(markers).chain(std::iter::once(time)).collect()
    }

    /// The fields, then the time bar's spaces.
    pub(super) fn hand_places_of(&self) -> Vec<String> {
        let mut places: Vec<String> = self.sc.fields.iter().map(|f| f.name.clone()).collect();
        let start = places.len();
        track(&mut places, "Time", self.sc.time.len().saturating_sub(1) as u32);
        for (p, t) in places[start..].iter_mut().zip(&self.sc.time) {
            *p = format!("Time: {}", t.label);
        }
        places
    }

    /// As the sandbox's free moves do it (`apply_sandbox`), so that both ways agree.
    pub(super) fn move_by_hand_now(&mut self, mv: &HandMove) {
        let (armies, markers) = (self.armies.len() as u32, self.markers.len() as u32);
        let fields = self.sc.fields.len() as u32;
        let free = match *mv {
            HandMove::Put { piece, on } if piece < armies => {
                SandboxAction::MoveArmy { army: piece as ArmyId, to: Some(SpaceId(on as u16)) }
            }
            HandMove::Put { piece, on } if piece < armies + markers => {
                SandboxAction::MoveMarker { marker: (piece - armies) as MarkerId, to: Some(SpaceId(on as u16)) }
            }
            HandMove::Put { on, .. } => SandboxAction::MoveTime { to: (on - fields) as u8 },
            HandMove::Flip { piece } => SandboxAction::FlipArmy { army: piece as ArmyId },
            HandMove::Remove { piece } if piece < armies => SandboxAction::MoveArmy { army: piece as ArmyId, to: None },
            HandMove::Remove { piece } => SandboxAction::MoveMarker { marker: (piece - armies) as MarkerId, to: None },
            HandMove::Turn { .. } | HandMove::Enforce => return,
        };
        let seat = self.active_seat().unwrap_or(SeatId(0));
        self.apply_sandbox(&free, seat, &mut Vec::new());
    }

    /// A position the rules can go on from (for a sandbox going back to them): no fight half
    /// fought (`fights.rs`) and one army a field (`army_card.rs`).
    pub(super) fn position_accepted_now(&self) -> Result<(), BotnError> {
        self.refuse_half_fought()?;
        self.refuse_shared_fields()
    }
}
