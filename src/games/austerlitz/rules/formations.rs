//! Formations: line, column and square; what each allows and forbids, the square that stands all
//! round, and the formation bonus in combat.

use crate::engine::geometry::Facing;
use crate::games::austerlitz::actions::{AzError, Event, rule};
use crate::games::austerlitz::data::{Cell, Crossing, Kind, Terrain};
use crate::games::austerlitz::state::{Austerlitz, Formation, angle, rotate};

/// Why a unit may not form or leave a square (`Austerlitz::square_allowed` words it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SquareBarred {
    NotInfantry,
    CannotMove(&'static str),
    OffBoard,
    Terrain,
    NextToFormation,
}

impl Austerlitz {
    /// A square may never be moved next to any other formation.
    pub(super) fn square_may_stand(&self, u: usize, c: Cell) -> bool {
        let side = self.side_of(u);
        let b = &self.sc.board;
        // One pass over the units, each asked whether it stands next to `c` (the board's table
        // of neighbours: `NO_SPACE` off the board), those more than a space away in either
        // direction set aside first.
        let next = &b.next[b.index(c)];
        (0..self.units.len()).all(|v| {
            let x = &self.units[v];
            !x.at.is_some_and(|a| {
                (a.0 - c.0).abs() <= 1 && (a.1 - c.1).abs() <= 1 && next.contains(&(b.index(a) as u16))
            }) || x.eliminated
                || v == u
                || self.side_of(v) != side
                || self.formation_kind(v).is_none()
        })
    }

    /// `square_may_stand` for each space a square's search reaches, by space index: the side's
    /// other units on the board are found once, a space's neighbours are looked up among them,
    /// and a unit is asked whether it stands in a formation only once it stands next to a space
    /// asked about (the search asked every unit of the game for every space).
    pub(super) fn square_stand_check(&self, u: usize) -> impl FnMut(usize) -> bool + '_ {
        let side = self.side_of(u);
        let b = &self.sc.board;
        let own: Vec<(usize, usize)> = (0..self.units.len())
            .filter(|&v| v != u && !self.units[v].eliminated && self.side_of(v) == side)
            .filter_map(|v| self.units[v].at.map(|a| (b.index(a), v)))
            .collect();
        let mut held = vec![false; b.spaces.len()];
        for &(i, _) in &own {
            held[i] = true;
        }
        let mut formed: Vec<Option<bool>> = vec![None; self.units.len()];
        move |ci: usize| {
            b.next[ci].iter().filter(|&&n| n != crate::games::austerlitz::data::NO_SPACE && held[n as usize]).all(
                |&n| {
                    own.iter()
                        .filter(|&&(i, _)| i == n as usize)
                        .all(|&(_, v)| !*formed[v].get_or_insert_with(|| self.formation_kind(v).is_some()))
                },
            )
        }
    }

    /// Form a square or leave it: a change of formation using the unit's full MF.
    pub(super) fn square_allowed(&self, u: usize) -> Result<(), AzError> {
        let why = match self.square_barred(u) {
            None => return Ok(()),
            Some(SquareBarred::NotInfantry) => "a square consists of 1 infantry unit".to_string(),
            Some(SquareBarred::CannotMove(why)) => format!("it can't change formation: {why}"),
            Some(SquareBarred::OffBoard) => "it is not on the board".into(),
            Some(SquareBarred::Terrain) => "units in woods, towns or castle can't be part of a formation".into(),
            Some(SquareBarred::NextToFormation) => "a square may never stand next to any other formation".into(),
        };
        Err(AzError::new(rule::FORMATIONS, why))
    }

    /// Why unit `u` may not form (or leave) a square: `square_allowed`'s tests without their
    /// words (the list asks them of every unit at every decision of the Movement step).
    pub(super) fn square_barred(&self, u: usize) -> Option<SquareBarred> {
        let unit = &self.units[u];
        if !self.kind(u).is_infantry() {
            return Some(SquareBarred::NotInfantry);
        }
        if let Some(why) = self.cannot_move(u) {
            return Some(SquareBarred::CannotMove(why));
        }
        let Some(c) = unit.at else { return Some(SquareBarred::OffBoard) };
        if self.sc.board.space(c).terrain != Terrain::Clear {
            return Some(SquareBarred::Terrain);
        }
        if !unit.square && !self.square_may_stand(u, c) {
            return Some(SquareBarred::NextToFormation);
        }
        None
    }

    pub(super) fn apply_square(&mut self, u: usize, ev: &mut Vec<Event>) {
        let unit = &mut self.units[u];
        unit.square = !unit.square;
        unit.moved = true;
        unit.spent = self.sc.units[u].mf.1;
        let square = unit.square;
        // A square's front is all round; on a square space a line's front is one of four sides.
        ev.push(Event::Formed { unit: u as u8, square });
    }

    /// +1 CF for each other infantry unit of the formation, at most +3; in the phasing player's
    /// own turn only the units that stood in it when the turn began count.
    pub(super) fn formation_bonus(&self, u: usize, attacking: bool) -> (i32, Vec<usize>) {
        match self.formation(u) {
            Some((Formation::Line | Formation::Column, members)) => {
                let counted: Vec<usize> = members
                    .into_iter()
                    .filter(|&m| !attacking || self.units[m].formation_at_start.is_some())
                    .filter(|&m| self.kind(m).is_infantry() || self.kind(m) == Kind::Dragoons)
                    .collect();
                ((counted.len() as i32).min(3), counted)
            }
            _ => (0, Vec::new()),
        }
    }

    /// The spaces a unit's front points to (squares, towns and castles: every neighbour).
    pub fn all_round(&self, u: usize) -> bool {
        let Some(c) = self.units[u].at else { return false };
        self.kind(u).is_infantry()
            && (self.units[u].square || matches!(self.sc.board.space(c).terrain, Terrain::Town | Terrain::Castle))
    }

    /// Whether a unit may stand in a formation (infantry, and dragoons, outside woods, towns and
    /// castles).
    fn forms(&self, u: usize) -> bool {
        let Some(at) = self.units[u].at else { return false };
        (self.kind(u).is_infantry() || self.kind(u) == Kind::Dragoons)
            && !self.units[u].eliminated
            && !self.units[u].square
            && self.sc.board.space(at).terrain == Terrain::Clear
    }

    /// The other members of unit `u`'s line or column, and which it is (Formations): units side
    /// by side with their fronts the same way make a line; units one behind another, their fronts
    /// at most 45° apart, a column; a stream between them splits it.
    pub fn formation(&self, u: usize) -> Option<(Formation, Vec<usize>)> {
        if self.units[u].square && !self.units[u].eliminated {
            return Some((Formation::Square, Vec::new()));
        }
        if !self.forms(u) {
            return None;
        }
        let side = self.side_of(u);
        let board = &self.sc.board;
        // The unit of this side that may stand in a formation in each space (one at most: only
        // artillery shares a space, and it forms nothing).
        let mut former = vec![u8::MAX; board.spaces.len()];
        for v in 0..self.units.len() {
            if let Some(c) = self.units[v].at
                && self.side_of(v) == side
                && self.forms(v)
            {
                former[board.index(c)] = v as u8;
            }
        }
        let mut members = vec![u];
        let mut line = false;
        let mut i = 0;
        while i < members.len() {
            let m = members[i];
            let at = self.units[m].at.expect("on the board");
            let f = self.units[m].facing;
            for (d, &n) in Facing::ALL.iter().zip(&board.next[board.index(at)]) {
                if n == crate::games::austerlitz::data::NO_SPACE || former[n as usize] == u8::MAX {
                    continue;
                }
                let v = former[n as usize] as usize;
                if members.contains(&v) || board.crossing(at, board.cell_of(n as usize)) != Crossing::Open {
                    continue;
                }
                let d = *d;
                let g = self.units[v].facing;
                let beside = g == f && (d == rotate(f, 2) || d == rotate(f, -2));
                let behind = angle(f, g) <= 1 && (d == f || d == rotate(f, 4));
                if beside || behind {
                    line |= beside;
                    members.push(v);
                }
            }
            i += 1;
        }
        if members.len() < 2 {
            return None;
        }
        members.remove(0);
        Some((if line { Formation::Line } else { Formation::Column }, members))
    }

    pub fn formation_kind(&self, u: usize) -> Option<Formation> {
        self.formation(u).map(|(k, _)| k)
    }
}
