//! The state of an Austerlitz table: every unit and command with its space, facing, formation and
//! markers (DIS, smoke, demoralised), the turn and the step of the sequence of play, the decisions
//! waiting (a retreat, a reaction), and the geometry the rules ask of it: a unit's front, flanks
//! and rear, the formations it stands in, a gun's field of fire and line of sight.

use super::data::{AzScenario, Cell, Kind, Nation, Side};
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
    /// `unit` moved into the front of the enemy infantry `by` with them in its own front: its
    /// player attacks them now, or leaves them, and then each may fire at it (Infantry
    /// Opportunity fire: "without attacking that infantry unit"; issue 63).
    Faced { unit: UnitId, by: Vec<UnitId> },
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
    /// The side holding a space (by its combat units), if any.
    pub fn holder(&self, c: Cell) -> Option<Side> {
        self.units_in(c).next().map(|u| self.side_of(u))
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
}
