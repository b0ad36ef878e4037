//! The state of a Leipzig 1813 table: every counter and where it is, the turn and the step of the
//! sequence of play, the attacks of the combat phase, the decisions waiting (retreats, scatters,
//! advances), the special rules' flags and the victory points. Plain data, so it clones for undo
//! and hashes for digests; the scenario is shared and not part of the digest.

use super::data::{Entry, Hex, Kind, LzScenario, Side, UnitType};
use crate::engine::rng::TableRng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub type UnitId = u16;

/// What a counter is: a type of the order of battle (by index) or a leader (by number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum What {
    Type(u8),
    Leader(u8),
    /// (an observation only) a counter the viewer may not identify: a blank.
    Blank,
}

/// Why a counter left the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Gone {
    /// Eliminated in combat, by a retreat or scatter that could not be made, or in Austria.
    Destroyed,
    /// Destroyed on a forced march.
    Marched,
    /// A supply unit used up (it may reappear).
    Consumed,
    /// Replaced by smaller counters, or joined into a larger one.
    Replaced,
    /// Off the east edge (ESM).
    Exited,
    /// Taken off by the German rebellion.
    Withdrawn,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Status {
    /// To be deployed by its group (index into the scenario's groups, or the intervention's).
    Deploy {
        group: u16,
        intervention: bool,
    },
    /// Arriving as a reinforcement this player-turn, at this entry.
    Arriving(Entry),
    /// Off the map during the armistice (the Allies' way round by the east or the south), back on
    /// this Game-Turn at this entry.
    Away {
        back: u8,
        at: Entry,
    },
    OnMap,
    Gone(Gone),
}

/// A unit inverted by a dispersal or a scatter: it recovers once one complete friendly Movement
/// Phase and one complete friendly Combat Phase have passed since (Combat, case K).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dispersal {
    pub movement: bool,
    pub combat: bool,
    /// Dispersed during the phase now running, which does not count.
    pub fresh: bool,
}

/// What a supply unit has been used for this player-turn (removed at the end of the phase).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SupplyUse {
    pub combat: bool,
    pub stacking: bool,
    pub march: bool,
}

impl SupplyUse {
    pub fn any(self) -> bool {
        self.combat || self.stacking || self.march
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub side: Side,
    pub what: What,
    pub hex: Option<Hex>,
    pub status: Status,
    /// Moved this Movement Phase (a unit moves once).
    pub moved: bool,
    /// Movement Points spent this phase (breakdown and build-up steps included).
    pub spent: u8,
    /// Attacked this Combat Phase.
    pub attacked: bool,
    pub dispersed: Option<Dispersal>,
    /// (Reconnaissance) the French may see what this Allied counter is.
    pub revealed: bool,
    /// (Reconnaissance) exposed by a French cavalry unit: it may be overrun.
    pub scouted: bool,
    /// A retreat before combat it tried was barred by a zone it could not see: it defends where
    /// it stands this Combat Phase (Reconnaissance; Combat, case J).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stays: bool,
    /// The Saxon garrison (Special Game Rules).
    pub garrison: bool,
    /// Began the game at Gotha (its first forced march needs no table).
    pub gotha: bool,
    pub austrian: bool,
    pub used: SupplyUse,
}

impl Unit {
    pub fn on_map(&self) -> bool {
        // `matches!`, not `==`: the derived comparison of a status with data is not free, and this
        // is asked of every counter in every scan of the map.
        matches!(self.status, Status::OnMap)
    }
}

/// A forced march's multiple of the Movement Allowance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum March {
    Normal,
    Double,
    Triple,
}

impl March {
    pub fn factor(self) -> u8 {
        match self {
            March::Normal => 1,
            March::Double => 2,
            March::Triple => 3,
        }
    }
}

/// A forced march stopped at its roll, waiting for the player to roll the subsidiary table or
/// halt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MarchHalt {
    pub unit: UnitId,
    pub table: March,
    /// The subsidiary table's letter and its six results.
    pub letter: String,
    pub path: Vec<(Hex, u8)>,
    /// Where the unit stands now (the end of its normal or doubled allowance).
    pub at: usize,
}

/// The step of the sequence of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    /// A side places its counters (the Allies first).
    Deploy(Side),
    /// The phasing side places its arriving reinforcements.
    Enter,
    Move,
    /// A forced march waits at its subsidiary table.
    March,
    /// The end of the Movement Phase: units may be recombined.
    Build,
    /// Combat I: the attacker declares attacks and allocates supply.
    Declare,
    /// Combat II: the defender may retreat before combat.
    RetreatBefore,
    /// Combat III: the defender allocates supply.
    DefendSupply,
    /// Combat IV: the attacker resolves the attacks in the order he wishes.
    Resolve,
    /// The Combat Phase's end: the phasing player chooses which supply unit each stack uses up
    /// where more than one keeps it together (Supply, C).
    Consume,
    Over,
}

/// One declared attack: a hex-group against a hex (a fortress's sortie: against every adjacent
/// Enemy hex at once).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attack {
    pub from: Hex,
    pub units: Vec<UnitId>,
    pub targets: Vec<Hex>,
    pub supply: Option<UnitId>,
    /// Across a river hexside (defender doubled, 160% at least).
    pub river: bool,
    pub sortie: bool,
    pub resolved: bool,
}

/// A decision the rules wait for before the step goes on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Pending {
    /// A stack retreats `hexes` hexes after a "d" result (its owner chooses the way).
    Retreat { units: Vec<UnitId>, from: Hex, hexes: u8 },
    /// A scattered unit retreats its full Movement Allowance and may end on no other unit.
    Scatter { unit: UnitId, from: Hex },
    /// The attacker may advance into a hex the defender left (across a river, or a fortress):
    /// the units of attack `attack` still in its hex, any of them, one by one.
    Advance { attack: u8, into: Hex },
    /// Divisions to remove, the owner choosing which: the attacker's half of a ½ex (from the
    /// units of attack `Some(i)`), or the German rebellion's two French divisions (`None`).
    Lose { attack: Option<u8>, divisions: u16 },
}

#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Leipzig {
    #[serde(skip, default = "crate::engine::rules::scenario_from_context")]
    pub sc: Arc<LzScenario>,
    pub rng: TableRng,
    pub turn: u8,
    /// The phasing side.
    pub side: Side,
    pub step: Step,
    pub units: Vec<Unit>,
    pub attacks: Vec<Attack>,
    /// Attacked hexes whose defender has allocated supply (or had none to allocate).
    pub defended: Vec<(Hex, Option<UnitId>)>,
    pub pending: Vec<Pending>,
    pub march: Option<MarchHalt>,
    /// Hexes emptied by automatic elimination this Movement Phase (one more MP to enter).
    pub overrun: Vec<Hex>,
    /// A unit has moved this phase (breakdown only before any movement).
    pub moved_any: bool,
    /// A reinforcement has been placed this Movement Phase: the player-turn is no longer at its
    /// beginning, where the armistice is called. Cleared when the Movement Phase ends, so it
    /// is never part of a finished game's digest.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub entered_any: bool,
    /// Victory points for enemy divisions and leaders destroyed: [French, Allied].
    pub unit_vp: [u16; 2],
    /// Victory points lost in combat alone (forced marches excluded), for Austria's intervention.
    pub combat_losses: [u16; 2],
    /// The last side to occupy each victory city, in the scenario's order.
    pub owners: Vec<Side>,
    /// French counters off the east edge: divisions, leaders, supply units.
    pub exited: [u16; 3],
    /// Supply units eliminated in combat: they never reappear.
    pub supply_lost: [u8; 2],
    pub austria_at_war: bool,
    /// The turn the armistice was announced.
    pub armistice: Option<u8>,
    pub rebellion: bool,
    pub bavaria: bool,
    /// The turn the French took Berlin (Northern Option).
    pub berlin_taken: Option<u8>,
    /// Reinforcements the special rules add (Bavaria's defection, the Northern Option).
    pub extra: Vec<super::data::ReinforcementRow>,
    pub winner: Option<Side>,
    pub final_vp: Option<[i32; 2]>,
}

impl PartialEq for Leipzig {
    fn eq(&self, other: &Self) -> bool {
        crate::engine::digest::digest_of(self) == crate::engine::digest::digest_of(other)
    }
}

impl Leipzig {
    pub fn ty(&self, u: UnitId) -> Option<&UnitType> {
        match self.units[u as usize].what {
            What::Type(t) => self.sc.types.get(t as usize),
            _ => None,
        }
    }
    pub fn kind(&self, u: UnitId) -> Option<Kind> {
        self.ty(u).map(|t| t.kind)
    }
    pub fn is_combat(&self, u: UnitId) -> bool {
        matches!(self.kind(u), Some(Kind::Infantry | Kind::Cavalry))
    }
    pub fn is_cavalry(&self, u: UnitId) -> bool {
        self.kind(u) == Some(Kind::Cavalry)
    }
    pub fn is_supply(&self, u: UnitId) -> bool {
        matches!(self.kind(u), Some(Kind::Supply | Kind::Depot))
    }
    pub fn is_leader(&self, u: UnitId) -> bool {
        matches!(self.units[u as usize].what, What::Leader(_))
    }
    pub fn divisions(&self, u: UnitId) -> u16 {
        self.ty(u).map(|t| t.divisions as u16).unwrap_or(0)
    }
    pub fn movement(&self, u: UnitId) -> u8 {
        match self.units[u as usize].what {
            What::Type(t) => self.sc.types[t as usize].movement,
            What::Leader(_) => self.sc.leader_movement,
            What::Blank => 0,
        }
    }
    pub fn strength(&self, u: UnitId) -> u8 {
        self.ty(u).map(|t| t.strength).unwrap_or(0)
    }
    /// The units on a hex, in id order.
    pub fn at(&self, h: Hex) -> impl Iterator<Item = UnitId> + '_ {
        self.units.iter().enumerate().filter(move |(_, u)| u.hex == Some(h) && u.on_map()).map(|(i, _)| i as UnitId)
    }
    pub fn side_at(&self, h: Hex) -> Option<Side> {
        self.at(h).next().map(|u| self.units[u as usize].side)
    }
    /// `hexes` (in the map's order, each once) without those whose first counter is of `enemy`
    /// (`side_at`), found in one pass over the counters rather than one for each hex.
    pub fn drop_held_by(&self, enemy: Side, hexes: &mut Vec<Hex>) {
        let held = self.sides_at(hexes);
        let mut k = 0;
        hexes.retain(|_| {
            k += 1;
            held[k - 1] != Some(enemy)
        });
    }
    /// `side_at` of each of `hexes` (in the map's order, each once), in one pass over the
    /// counters rather than one for each hex.
    pub fn sides_at(&self, hexes: &[Hex]) -> Vec<Option<Side>> {
        let mut out = vec![None; hexes.len()];
        for u in self.units.iter().filter(|u| u.on_map()) {
            if let Some(i) = u.hex.and_then(|h| hexes.binary_search(&h).ok())
                && out[i].is_none()
            {
                out[i] = Some(u.side);
            }
        }
        out
    }
    pub fn enemy_at(&self, h: Hex, side: Side) -> bool {
        self.side_at(h) == Some(side.other())
    }
    pub fn combat_at(&self, h: Hex) -> impl Iterator<Item = UnitId> + '_ {
        self.at(h).filter(|&u| self.is_combat(u))
    }
    pub fn on_map(&self, side: Side) -> impl Iterator<Item = UnitId> + '_ {
        self.units.iter().enumerate().filter(move |(_, u)| u.side == side && u.on_map()).map(|(i, _)| i as UnitId)
    }
    pub fn hex_of(&self, u: UnitId) -> Option<Hex> {
        let unit = &self.units[u as usize];
        if unit.on_map() { unit.hex } else { None }
    }
    pub fn name(&self, u: UnitId) -> String {
        let unit = &self.units[u as usize];
        match unit.what {
            What::Type(t) => {
                let ty = &self.sc.types[t as usize];
                let what = match (ty.kind, ty.size) {
                    (super::data::Kind::Supply, _) => "supply unit".to_string(),
                    (super::data::Kind::Depot, _) => "depot".to_string(),
                    (k, s) => format!(
                        "{} {} {}",
                        ty.id,
                        if k == Kind::Cavalry { "cavalry" } else { "infantry" },
                        match s {
                            super::data::Size::Division => "division",
                            super::data::Size::Corps => "corps",
                            super::data::Size::Army => "army",
                        }
                    ),
                };
                format!("{} {what}", unit.side.name())
            }
            What::Leader(n) => {
                self.sc.leader(unit.side, n).map(|l| l.name.clone()).unwrap_or_else(|| format!("leader {n}"))
            }
            What::Blank => format!("{} counter", unit.side.name()),
        }
    }
    /// Adds a counter, returning its id.
    pub fn add_unit(&mut self, side: Side, what: What, status: Status) -> UnitId {
        let id = self.units.len() as UnitId;
        self.units.push(Unit {
            side,
            what,
            hex: None,
            status,
            moved: false,
            spent: 0,
            attacked: false,
            dispersed: None,
            revealed: false,
            scouted: false,
            stays: false,
            garrison: false,
            gotha: false,
            austrian: false,
            used: SupplyUse::default(),
        });
        id
    }
}
