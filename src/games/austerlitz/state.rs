//! The state of an Austerlitz table: every unit and command with its space, facing, formation and
//! markers (DIS, smoke, demoralised), the turn and the step of the sequence of play, the decisions
//! waiting (a retreat, a reaction), and the geometry the rules ask of it: a unit's front, flanks
//! and rear, the formations it stands in, a gun's field of fire and line of sight.

use super::data::{AzScenario, Cell, Crossing, Kind, Nation, Side, Terrain};
use crate::engine::geometry::{CellShape, Facing};
use crate::engine::rng::TableRng;
use crate::engine::rules::Shared;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

pub type UnitId = u8;
pub type CmdId = u8;

/// The steps of a player's turn (Phases of a game turn, steps 1 to 5), the set-up before them
/// and the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    Setup,
    /// 1. The phasing player fires any artillery units.
    Fire,
    /// 2. Movement, with combat, unit by unit.
    Move,
    /// 3. Field artillery moves.
    ArtilleryMove,
    /// 4. Commands move.
    Commands,
    Over,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// None: not yet on the board (to set up, or Davout's corps on the road from Raigern).
    pub at: Option<Cell>,
    /// Where the front points (for artillery: where the guns point; it moves the other way).
    pub facing: Facing,
    pub square: bool,
    pub dis: bool,
    pub demoralised: bool,
    pub eliminated: bool,
    /// This player-turn: MF spent moving, whether it moved, attacked, fired.
    pub spent: u8,
    pub moved: bool,
    pub attacked: bool,
    pub fired: bool,
    /// Fired in the other player's turn (opportunity fire), once.
    pub reacted: bool,
    pub smoke: bool,
    /// Charged this turn: its DIS stays at the end of this turn.
    pub charged: bool,
    pub counter_charged: bool,
    /// Its move ended with a step straight on (no turn in the last space): it may charge.
    pub straight: bool,
    /// Its move used the column's extra MF: it must attack.
    pub extra: bool,
    /// The road's extra MF its move earned.
    pub bonus: u8,
    /// The formation it stood in when its player's turn began (units joining during the turn add
    /// no strength until the other player's turn; Russians may not attack after a change).
    pub formation_at_start: Option<Formation>,
    /// DIS markers and demoralisations suffered this turn, each counted on its own: "Units are
    /// eliminated if disorganized or demoralized twice in a turn" is DIS twice or demoralised
    /// twice; one of each is not two of either (Combat resolution).
    pub dis_this_turn: u8,
    pub demoralised_this_turn: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Command {
    pub at: Option<Cell>,
    pub captured: bool,
    pub moved: bool,
}

/// The kind of formation a unit stands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Formation {
    Line,
    Column,
    Square,
}

/// A decision the table waits for in the middle of a step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Pending {
    /// `units` (one space's) must retreat `spaces` in a straight line away from `from`; the
    /// winner (`chooser`) picks the line among the least damaging and the new facing.
    Retreat { units: Vec<UnitId>, spaces: u8, from: Vec<Cell>, demoralise: bool, chooser: Side },
    /// The defender may react to a declared attack (artillery fire at a charge or an infantry
    /// attack in its field of fire, a counter-charge) before it is resolved.
    AttackReactions { attack: Attack },
    /// The non-phasing player may fire with this infantry unit at `at`, which moved into its
    /// front (Infantry Opportunity fire), or (`chance`) which stands before it unable to attack
    /// it, the CF difference being below the table (Combat: chance fire).
    OpportunityFire {
        by: UnitId,
        at: UnitId,
        #[serde(default)]
        chance: bool,
    },
}

/// A declared attack: units, target space, charge, and the reactions already taken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attack {
    pub units: Vec<UnitId>,
    pub target: Cell,
    pub charge: bool,
    pub counter_charge: bool,
    /// Guns that have answered (fired or declined).
    pub answered: Vec<UnitId>,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Austerlitz {
    #[serde(skip)]
    pub sc: Shared<AzScenario>,
    pub turn: u8,
    pub side: Side,
    pub step: Step,
    pub units: Vec<Unit>,
    pub commands: Vec<Command>,
    pub pending: Vec<Pending>,
    pub davout_arrived: bool,
    /// The last game-turn in which all units of a side are demoralised: its three Guard
    /// infantry units eliminated, "all units of that side are Demoralized in the following 2
    /// game turns", so the collapse's own turn is not one of them.
    pub collapse_until: [Option<u8>; 2],
    /// Eliminated enemy combat units, and points in halves, for each side.
    pub eliminated: [u16; 2],
    pub winner: Option<Side>,
    pub final_points: Option<[u16; 2]>,
    pub rng: TableRng,
}

/// The cells of the octagon's three sides centred on `f` (or the square's one side).
pub fn front_dirs(shape: CellShape, f: Facing) -> SmallVec<[Facing; 3]> {
    match shape {
        CellShape::Square => smallvec::smallvec![f],
        CellShape::Octagon => smallvec::smallvec![rotate(f, -1), f, rotate(f, 1)],
    }
}

/// `f` turned by `eighths` of a full turn (positive: clockwise).
pub fn rotate(f: Facing, eighths: i32) -> Facing {
    Facing::ALL[(f.index() as i32 + eighths).rem_euclid(8) as usize]
}

/// How many eighths apart two facings are (0 to 4).
pub fn angle(a: Facing, b: Facing) -> i32 {
    let d = (a.index() as i32 - b.index() as i32).rem_euclid(8);
    d.min(8 - d)
}

/// The facing from `a` towards its neighbour `b`.
pub fn dir(a: Cell, b: Cell) -> Option<Facing> {
    Facing::ALL.into_iter().find(|f| {
        let (dx, dy) = f.offset();
        (a.0 + dx, a.1 + dy) == b
    })
}

pub fn chebyshev(a: Cell, b: Cell) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

/// Where an attack or a shot strikes a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Aspect {
    Front,
    Flank,
    Rear,
}

impl Austerlitz {
    /// Whether two tables are equal but for their chance (the generator): what a search finds
    /// does not depend on it, and a seat's view is the table with its generator set aside.
    /// Every field is named, so that a field added to the table is compared here too.
    pub fn same_but_chance(&self, other: &Austerlitz) -> bool {
        let Austerlitz {
            sc,
            turn,
            side,
            step,
            units,
            commands,
            pending,
            davout_arrived,
            collapse_until,
            eliminated,
            winner,
            final_points,
            rng: _,
        } = self;
        *sc == other.sc
            && *turn == other.turn
            && *side == other.side
            && *step == other.step
            && *units == other.units
            && *commands == other.commands
            && *pending == other.pending
            && *davout_arrived == other.davout_arrived
            && *collapse_until == other.collapse_until
            && *eliminated == other.eliminated
            && *winner == other.winner
            && *final_points == other.final_points
    }
}

impl Austerlitz {
    pub fn side_of(&self, u: usize) -> Side {
        self.sc.commands[self.sc.unit_command[u] as usize].side
    }
    pub fn nation_of(&self, u: usize) -> Nation {
        self.sc.commands[self.sc.unit_command[u] as usize].nation
    }
    pub fn kind(&self, u: usize) -> Kind {
        self.sc.units[u].kind
    }
    pub fn name(&self, u: usize) -> String {
        format!("{} {}", self.side_of(u).name(), self.sc.units[u].name)
    }
    pub fn on_board(&self, u: usize) -> bool {
        self.units[u].at.is_some() && !self.units[u].eliminated
    }
    /// The combat units in a space.
    pub fn units_at(&self, c: Cell) -> Vec<usize> {
        self.units_in(c).collect()
    }
    /// The same, one by one without a list (the searches ask it of many spaces).
    pub fn units_in(&self, c: Cell) -> impl Iterator<Item = usize> + Clone + '_ {
        (0..self.units.len()).filter(move |&u| self.units[u].at == Some(c) && !self.units[u].eliminated)
    }
    pub fn command_at(&self, c: Cell) -> Option<usize> {
        (0..self.commands.len()).find(|&k| self.commands[k].at == Some(c) && !self.commands[k].captured)
    }
    /// The side holding a space (by its combat units), if any.
    pub fn holder(&self, c: Cell) -> Option<Side> {
        self.units_in(c).next().map(|u| self.side_of(u))
    }
    /// Whether the unit is demoralised now (by itself or by its Guard's collapse).
    pub fn is_demoralised(&self, u: usize) -> bool {
        self.units[u].demoralised || self.collapse_until[self.side_of(u).index()].is_some_and(|t| self.collapsed_in(t))
    }

    /// Whether this game-turn is one of the two that follow a Guard's collapse (`until` the last).
    pub fn collapsed_in(&self, until: u8) -> bool {
        self.turn + 1 >= until && self.turn <= until
    }

    /// The spaces a unit's front points to (squares, towns and castles: every neighbour).
    pub fn all_round(&self, u: usize) -> bool {
        let Some(c) = self.units[u].at else { return false };
        self.kind(u).is_infantry()
            && (self.units[u].square || matches!(self.sc.board.space(c).terrain, Terrain::Town | Terrain::Castle))
    }

    /// Which side of unit `u` a blow from neighbouring space `from` strikes.
    pub fn aspect(&self, u: usize, from: Cell) -> Aspect {
        let at = self.units[u].at.expect("on the board");
        if self.all_round(u) {
            return Aspect::Front;
        }
        let Some(d) = dir(at, from) else { return Aspect::Front };
        let shape = self.sc.board.shape(at);
        let f = self.units[u].facing;
        if front_dirs(shape, f).contains(&d) {
            Aspect::Front
        } else if front_dirs(shape, rotate(f, 4)).contains(&d) {
            Aspect::Rear
        } else {
            Aspect::Flank
        }
    }

    /// The neighbouring spaces in the unit's front (on the stack: the attack options ask it of
    /// every unit for every target).
    pub fn front_cells(&self, u: usize) -> SmallVec<[Cell; 8]> {
        let Some(at) = self.units[u].at else { return SmallVec::new() };
        let board = &self.sc.board;
        if self.all_round(u) {
            return Facing::ALL.iter().filter_map(|&f| board.grid.step(at, f)).collect();
        }
        front_dirs(board.shape(at), self.units[u].facing).into_iter().filter_map(|d| board.grid.step(at, d)).collect()
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
                if n == super::data::NO_SPACE || former[n as usize] == u8::MAX {
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

    /// The command rating a unit fights with (Formations & Commanders): its corps commander's if
    /// within his range, the supreme commander's where the unit or its corps commander is within
    /// his; 0 out of range.
    pub fn rating_of(&self, u: usize) -> u8 {
        let Some(at) = self.units[u].at else { return 0 };
        let own = self.sc.unit_command[u] as usize;
        let side = self.side_of(u);
        let in_range = |k: usize, c: Cell| {
            let cmd = &self.commands[k];
            !cmd.captured && cmd.at.is_some_and(|p| self.command_reaches(k, p, c))
        };
        let supreme =
            (0..self.commands.len()).find(|&k| self.sc.commands[k].supreme && self.sc.commands[k].side == side);
        if let Some(s) = supreme {
            let via_corps = in_range(own, at) && self.commands[own].at.is_some_and(|p| in_range(s, p));
            if in_range(s, at) || via_corps {
                return self.sc.commands[s].rating;
            }
        }
        if in_range(own, at) { self.sc.commands[own].rating } else { 0 }
    }

    /// Whether the unit is in range of any of its side's commands (for the formation modifiers).
    pub fn in_command(&self, u: usize) -> bool {
        let Some(at) = self.units[u].at else { return false };
        let side = self.side_of(u);
        (0..self.commands.len()).any(|k| {
            self.sc.commands[k].side == side
                && !self.commands[k].captured
                && self.commands[k].at.is_some_and(|p| self.command_reaches(k, p, at))
        })
    }

    /// Whether command `k` standing on `from` has `to` within its Command Range. The book's
    /// "6 hexes" is counted on this board as spaces stepped through, from a space to a bordering
    /// one (`SquareOctGrid::steps`): the way a unit or a command moves, so a range of 6 is six
    /// such steps. The king's distance would let a unit 7 steps away count, where both spaces
    /// are squares on one diagonal (Formations & Commanders).
    pub fn command_reaches(&self, k: usize, from: Cell, to: Cell) -> bool {
        self.sc.board.grid.steps(from, to) <= self.sc.commands[k].range as i32
    }

    /// A gun's field of fire: (space, distance in rows). Pointing at a long side: 1 space, then
    /// 3, then 5; at an octagon's short side: 1 (the diagonal), then 3, then 5. Field artillery
    /// reaches 9 spaces (three rows); horse artillery 7 (the third row 3 wide).
    pub fn field_of_fire(&self, gun: usize) -> SmallVec<[(Cell, u8); 9]> {
        let Some(at) = self.units[gun].at else { return SmallVec::new() };
        let f = self.units[gun].facing;
        let horse = self.kind(gun) == Kind::Horse;
        // At most 1 + 3 + 5 spaces: on the stack (the lists ask it of every gun).
        let mut out = SmallVec::new();
        let (fx, fy) = f.offset();
        for k in 1..=3i32 {
            let half = if horse && k == 3 { 1 } else { k - 1 };
            if f.is_diagonal() {
                // Rows of an octagon's diagonal: spaces at distance k both ways along it, at
                // least one space off each axis; the horse battery's third row keeps the 3
                // nearest the diagonal.
                for a in 1..=k {
                    for b in 1..=k {
                        if a.max(b) != k || (horse && k == 3 && a.min(b) < 2) {
                            continue;
                        }
                        out.push(((at.0 + fx * a, at.1 + fy * b), k as u8));
                    }
                }
            } else {
                let (px, py) = (fy, fx);
                for s in -half..=half {
                    out.push(((at.0 + fx * k + px * s, at.1 + fy * k + py * s), k as u8));
                }
            }
        }
        out.retain(|(c, _)| self.sc.board.contains(*c));
        out
    }

    /// The spaces a line of sight crosses between two spaces (not the ends): the centres'
    /// straight line, every space it passes through (both where it runs along a corner).
    pub fn between(a: Cell, b: Cell) -> Vec<Cell> {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let n = dx.abs().max(dy.abs());
        let mut out = Vec::new();
        for i in 1..(2 * n) {
            // Half steps along the line, rounded both ways where it falls on a boundary.
            let t = i as f64 / (2 * n) as f64;
            let x = a.0 as f64 + dx as f64 * t;
            let y = a.1 as f64 + dy as f64 * t;
            for cx in [x.floor() as i32, x.ceil() as i32] {
                for cy in [y.floor() as i32, y.ceil() as i32] {
                    let (rx, ry) = (x - cx as f64, y - cy as f64);
                    if rx.abs() <= 0.5 && ry.abs() <= 0.5 && (cx, cy) != a && (cx, cy) != b && !out.contains(&(cx, cy))
                    {
                        out.push((cx, cy));
                    }
                }
            }
        }
        out
    }

    /// What blocks a gun's line of sight to a space, if anything (Line of Sight): units, towns,
    /// castles, woods and hills between; from a ridge a gun fires over units below it.
    pub fn los_blocked(&self, gun: usize, target: Cell) -> Option<(Cell, String)> {
        let at = self.units[gun].at?;
        let board = &self.sc.board;
        let own = board.space(at);
        for c in Self::between(at, target) {
            if !board.contains(c) {
                continue;
            }
            let s = board.space(c);
            let over = own.ridge && s.level < own.level;
            if !self.units_at(c).is_empty() && !over {
                return Some((c, "a unit".into()));
            }
            match s.terrain {
                Terrain::Town => return Some((c, "a town".into())),
                Terrain::Castle => return Some((c, "a castle".into())),
                Terrain::Woods => return Some((c, "woods".into())),
                _ => {}
            }
            if s.level > own.level && s.level > board.space(target).level {
                return Some((c, "a hill".into()));
            }
        }
        None
    }

    /// The range of a shot at a space in the field of fire: rows, plus 2 for woods or a town, 3
    /// for a castle, plus the mist of the first turns for a target not on a hill.
    pub fn fire_range(&self, rows: u8, target: Cell) -> u8 {
        let s = self.sc.board.space(target);
        let terrain = match s.terrain {
            Terrain::Woods | Terrain::Town => 2,
            Terrain::Castle => 3,
            _ => 0,
        };
        let mist = if s.level == 0 { self.sc.tables.mist(self.turn).map_or(0, |m| m.range) } else { 0 };
        rows + terrain + mist
    }
}
