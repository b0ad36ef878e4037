//! What a seat may ask of a Leipzig 1813 table, what the rules report back, and why an action is
//! refused (naming the rulebook's section).

use super::data::{Hex, Side};
use super::state::{Gone, March, UnitId};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Place a counter of the group being deployed.
    Deploy {
        unit: UnitId,
        hex: Hex,
    },
    /// Place every counter still to deploy of this side where the scenario suggests.
    DeployRest,
    /// Bring an arriving reinforcement onto its entry hex.
    Enter {
        unit: UnitId,
        hex: Hex,
    },
    /// Bring every reinforcement still arriving onto the first of its entry hexes.
    EnterRest,
    /// The French announce the armistice (campaign game, after turn 3, before moving).
    Armistice,
    /// Break a counter down into the next smaller ones (one MP a step).
    Breakdown {
        unit: UnitId,
    },
    /// Combine stacked counters into the next larger one (one MP each).
    Build {
        units: Vec<UnitId>,
    },
    /// Move a counter to a hex, marching normally or forced.
    Move {
        unit: UnitId,
        to: Hex,
        march: March,
        supply: Option<UnitId>,
    },
    /// Move a French counter off the east edge (ESM).
    Exit {
        unit: UnitId,
    },
    /// Automatic elimination during movement: a definite 500% from one hex against another.
    Overrun {
        from: Hex,
        target: Hex,
    },
    /// Roll the subsidiary forced-march table, or end the march where it stands.
    ContinueMarch,
    HaltMarch,
    EndMovement,
    EndBuild,
    /// Declare an attack by these counters of one hex on an Enemy hex, with this supply unit.
    Declare {
        from: Hex,
        units: Vec<UnitId>,
        target: Hex,
        supply: Option<UnitId>,
    },
    EndDeclarations,
    /// The defender retreats a counter before combat to this hex.
    RetreatBefore {
        unit: UnitId,
        to: Hex,
    },
    EndRetreats,
    /// The defender allocates supply (or none) to an attacked hex.
    DefendSupply {
        hex: Hex,
        supply: Option<UnitId>,
    },
    /// Resolve the declared attack with this index.
    Resolve {
        attack: u8,
    },
    /// Retreat the pending stack (or scattered counter) to this hex.
    Retreat {
        to: Hex,
    },
    /// Advance every attacker still waiting into the hex the defender left, or one of them (the
    /// others may follow), or stay.
    Advance,
    AdvanceOne {
        unit: UnitId,
    },
    StayPut,
    /// Remove this counter for a loss the owner chooses (the attacker's half of a ½ex, the German
    /// rebellion's two divisions); a larger counter than the divisions owed is broken down.
    Remove {
        unit: UnitId,
    },
    /// Use up this supply unit to keep a stack together this turn (Supply, C).
    UseSupply {
        unit: UnitId,
    },
}

impl Action {
    /// Whether a player makes this action on the map (dragging a counter, clicking a hex or the
    /// Combat panel) rather than from the Orders list.
    pub fn on_map(&self) -> bool {
        matches!(
            self,
            Action::Move { .. }
                | Action::Deploy { .. }
                | Action::Enter { .. }
                | Action::RetreatBefore { .. }
                | Action::Retreat { .. }
                | Action::Declare { .. }
        )
    }

    /// The hexes whose units may attack `target`, among legal actions, in order.
    pub fn attack_froms(legal: &[Action], target: Hex) -> Vec<Hex> {
        let mut froms: Vec<Hex> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Declare { from, target: t, .. } if *t == target => Some(*from),
                _ => None,
            })
            .collect();
        froms.sort_unstable();
        froms.dedup();
        froms
    }
}

/// Why a counter was lost, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Loss {
    Combat,
    NoRetreat,
    Austria,
    Marched,
    Overrun,
    Rebellion,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    TurnBegins {
        turn: u8,
    },
    PhaseBegins {
        side: Side,
        step: String,
    },
    Deployed {
        unit: UnitId,
        hex: Hex,
    },
    Arrived {
        unit: UnitId,
        hex: Hex,
    },
    /// Reinforcements that could not appear (their city besieged, or no room).
    Delayed {
        side: Side,
        count: u8,
        why: String,
    },
    Moved {
        unit: UnitId,
        from: Hex,
        to: Hex,
        cost: u8,
        march: March,
    },
    MarchHalted {
        unit: UnitId,
        at: Hex,
    },
    MarchFree {
        unit: UnitId,
        why: String,
    },
    Dispersed {
        unit: UnitId,
    },
    Recovered {
        unit: UnitId,
    },
    Lost {
        unit: UnitId,
        at: Option<Hex>,
        why: Loss,
    },
    BrokeDown {
        unit: UnitId,
        into: Vec<UnitId>,
    },
    BuiltUp {
        from: Vec<UnitId>,
        into: UnitId,
    },
    Revealed {
        units: Vec<UnitId>,
    },
    Overrun {
        from: Hex,
        target: Hex,
        attack: u32,
        defense: u32,
    },
    Declared {
        attack: u8,
        from: Hex,
        targets: Vec<Hex>,
        units: Vec<UnitId>,
        supply: Option<UnitId>,
    },
    RetreatedBefore {
        unit: UnitId,
        from: Hex,
        to: Hex,
    },
    /// A move chosen on what the French could see stopped by a hidden counter's zone of control
    /// (Reconnaissance: the Allied player says "stop").
    ZoneStop {
        unit: UnitId,
        at: Hex,
    },
    /// A retreat before combat chosen on what the French could see barred by a hidden counter's
    /// zone of control: the unit stays and defends.
    RetreatBarred {
        unit: UnitId,
        to: Hex,
    },
    /// A retreat chosen on what the French could see that crosses more hidden zones than another
    /// way (Retreat Order of Preference, A): the stack goes the way the Allied player shows.
    RetreatRedirected {
        from: Hex,
        chosen: Hex,
        to: Hex,
    },
    DefenderSupply {
        hex: Hex,
        supply: Option<UnitId>,
    },
    /// A declared attack that comes to no combat: the defenders left before it, or no attacking
    /// combat unit is left.
    NoCombat {
        from: Hex,
        targets: Vec<Hex>,
        why: String,
    },
    /// The defender ends his retreats before combat.
    RetreatsOver {
        side: Side,
    },
    /// The attacker chooses not to advance after combat.
    NoAdvance {
        into: Hex,
    },
    /// A supply unit is set aside to keep a stack together this turn (Supply, C).
    KeepsStack {
        unit: UnitId,
    },
    /// A combat with every figure shown: strengths in half points, each modifier with its reason.
    /// A roll of the die: the combat's on the CRT, a forced march's on its tables (the engine's
    /// one roll entry: who, what for, the die, the reasons, the column, the result).
    Rolled(crate::engine::roll::Roll),
    Retreated {
        units: Vec<UnitId>,
        from: Hex,
        to: Hex,
    },
    Scattered {
        unit: UnitId,
        from: Hex,
        to: Hex,
    },
    Advanced {
        units: Vec<UnitId>,
        into: Hex,
    },
    SupplyUsed {
        unit: UnitId,
    },
    DepotReplaced {
        depot: UnitId,
        supply: Option<UnitId>,
    },
    Exited {
        unit: UnitId,
    },
    /// An Allied counter off the map during the armistice, back on turn `back` on the other side.
    Detour {
        unit: UnitId,
        back: u8,
    },
    CityTaken {
        city: String,
        side: Side,
    },
    ArmisticeDeclared {
        turn: u8,
    },
    ArmisticeEnds,
    Rebellion,
    AustriaIntervenes,
    BavariaDefects,
    NorthernOption {
        side: Side,
    },
    GameOver {
        vp: [i32; 2],
        winner: Option<Side>,
    },
}

/// A refusal: the section it enforces and its words (`engine::rules::Refusal`).
pub type LzError = crate::engine::rules::Refusal<LzSection>;

crate::sections! {
    /// The rulebook's sections, as the refusals and the log name them.
    pub enum LzSection {
        SEQUENCE: Sequence = "Game Turn Sequence",
        DEPLOYMENT: Deployment = "How to Use the Scenarios: Deployment of Forces",
        MOVEMENT: Movement = "Movement",
        ZOC: Zoc = "Zones of Control",
        STACKING: Stacking = "Stacking and Unit Breakdown",
        SUPPLY: Supply = "Supply",
        COMBAT: Combat = "Combat",
        RETREAT_BEFORE: RetreatBefore = "Combat, case J: Retreat before combat",
        RETREAT: Retreat = "Retreat Order of Preference",
        LEADERS: Leaders = "Leaders",
        FORTRESS: Fortress = "Fortress and Siege",
        RECON: Recon = "Reconnaissance",
        FORCED_MARCH: ForcedMarch = "Forced March",
        AUTO: Auto = "How to Use the Combat Results Table: Auto",
        CRT: Crt = "How to Use the Combat Results Table",
        SAXON: Saxon = "Special Game Rules: Saxon Garrison",
        AUSTRIA: Austria = "Scenarios: no units may enter Austria",
        ARMISTICE: Armistice = "Special Campaign-Game Rules: Armistice",
        REINFORCEMENTS: Reinforcements = "Reinforcements",
        VICTORY: Victory = "How to Win (Victory)",
    }
}

/// A counter's loss for the log and the victory points.
pub fn gone_for(why: Loss) -> Gone {
    match why {
        Loss::Marched => Gone::Marched,
        Loss::Rebellion => Gone::Withdrawn,
        _ => Gone::Destroyed,
    }
}
