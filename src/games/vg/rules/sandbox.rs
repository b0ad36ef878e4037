//! The sandbox (no rulebook section; `engine::sandbox`): a unit put in the holding area or a
//! player's army, or back in the pool, the victory point, economy and leadership markers moved
//! along their tracks and a player's influence cubes in a nation counted out by hand; the
//! positions the rules accept to go back to them.

use super::*;
use crate::engine::sandbox::{HandMove, HandPiece, track};
use crate::games::vg::data::MAX_CUBES;
use crate::games::vg::observe::{UnitFace, VgView};

/// The places a unit may be put (the holding area, then France's and Britain's armies), then
/// the campaigns (where a hand may not put one: a campaign is the cards'), then the tracks.
const HOLDING: u32 = 0;
const CAMPAIGNS: u32 = 3;
const TRACKS: u32 = 5;
/// The markers on the tracks, in the order of the places' tracks.
const MARKERS: [&str; 3] = ["victory points", "economy", "leadership"];

/// Where a unit lies, as a place (the pool is off the table).
fn place_of(loc: Loc) -> Option<u32> {
    match loc {
        Loc::Pool => None,
        Loc::Holding => Some(HOLDING),
        Loc::Army(p) => Some(HOLDING + 1 + p.index() as u32),
        Loc::Campaign(_, p) => Some(CAMPAIGNS + p.index() as u32),
    }
}

impl Vg {
    /// The units in the scenario's order (one the view does not show is in the pool or out of
    /// sight: off the table for this hand), then the six track markers, then each nation's cubes
    /// of each player (as a marker on a count of cubes).
    pub(super) fn hand_pieces_of(view: &VgView) -> Vec<HandPiece> {
        let sc = &view.sc;
        let mut at = vec![None; sc.units.len()];
        for &(loc, face) in &view.units {
            if let UnitFace::Known(u) = face {
                at[u as usize] = place_of(loc);
            }
        }
        let units = sc.units.iter().zip(at).map(|(d, at)| HandPiece {
            name: format!("{} {} {}", sc.nation_name(d.nation), d.kind.name(), d.value),
            seat: None,
            at,
            goes: HOLDING..CAMPAIGNS,
            flipped: None,
            removable: true,
            turns: false,
        });
        let max = sc.track_max.max(0) as u32;
        let markers = MARKERS.iter().enumerate().flat_map(|(t, name)| {
            let values = [view.vp, view.economy, view.leadership][t];
            let start = TRACKS + t as u32 * (max + 1);
            [Player::France, Player::Britain].map(move |p| HandPiece {
                name: format!("{}'s {name} marker", p.name()),
                seat: Some(seat_of(p)),
                at: u32::try_from(values[p.index()]).ok().filter(|&v| v <= max).map(|v| start + v),
                goes: start..start + max + 1,
                flipped: None,
                removable: false,
                turns: false,
            })
        });
        let cubes_at = TRACKS + 3 * (max + 1);
        let cubes = view.influence.iter().enumerate().flat_map(|(n, have)| {
            [Player::France, Player::Britain].map(move |p| HandPiece {
                name: format!("{}'s cubes in {}", p.name(), sc.nation_name(n as NationId)),
                seat: Some(seat_of(p)),
                at: Some(have[p.index()] as u32).filter(|&c| c <= MAX_CUBES as u32).map(|c| cubes_at + c),
                goes: cubes_at..cubes_at + MAX_CUBES as u32 + 1,
                flipped: None,
                removable: false,
                turns: false,
            })
        });
        units.chain(markers).chain(cubes).collect()
    }

    pub(super) fn hand_places_of(&self) -> Vec<String> {
        let mut places = vec![
            "the holding area".to_string(),
            "France's army".into(),
            "Britain's army".into(),
            "France's campaigns".into(),
            "Britain's campaigns".into(),
        ];
        for name in ["Victory points", "Economy", "Leadership"] {
            track(&mut places, name, self.sc.track_max.max(0) as u32);
        }
        track(&mut places, "Cubes", MAX_CUBES as u32);
        places
    }

    pub(super) fn move_by_hand_now(&mut self, mv: &HandMove) {
        let units = self.sc.units.len();
        let max = self.sc.track_max.max(0) as u32;
        match *mv {
            HandMove::Put { piece, on } if (piece as usize) < units => {
                let to = match on {
                    HOLDING => Loc::Holding,
                    1 => Loc::Army(Player::France),
                    _ => Loc::Army(Player::Britain),
                };
                self.units.set(piece as usize, to);
            }
            HandMove::Put { piece, on } if piece as usize >= units + 6 => {
                let k = piece as usize - units - 6;
                let cubes_at = TRACKS + 3 * (max + 1);
                self.influence[k / 2][k % 2] = (on - cubes_at) as u8;
            }
            HandMove::Put { piece, on } => {
                let m = piece as usize - units;
                let value = ((on - TRACKS) % (max + 1)) as i16;
                let p = [Player::France, Player::Britain][m % 2];
                [&mut self.vp, &mut self.economy, &mut self.leadership][m / 2][p.index()] = value;
            }
            HandMove::Remove { piece } => self.units.set(piece as usize, Loc::Pool),
            HandMove::Flip { .. } | HandMove::Turn { .. } | HandMove::Enforce => {}
        }
    }

    /// A position the rules can go on from (for a sandbox going back to them): no card's effect
    /// half carried out (`Vg::refuse_half_made`).
    pub(super) fn position_accepted_now(&self) -> Result<(), VgError> {
        self.refuse_half_made()
    }
}
