//! What a seat may ask of an Austerlitz table, what the rules report back (every modifier with
//! its reason), and why an action is refused (naming the rulebook's section).

use super::data::{Cell, Side};
use super::state::{CmdId, UnitId};
use crate::engine::geometry::Facing;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Set a unit up on a space of its command's sectors, its front this way.
    Deploy {
        unit: UnitId,
        at: Cell,
        facing: Facing,
    },
    /// Set a command up (on its own, or on one of its side's units).
    PlaceCommand {
        command: CmdId,
        at: Cell,
    },
    /// Set every unit and command still to set up at its historical place (or, with the game
    /// sectors, the first free space of its sectors).
    DeployRest,
    /// Step 1: fire a gun at a space in its field of fire; `battery` fires at the artillery
    /// there alone (counter-battery fire, 1 die).
    Fire {
        gun: UnitId,
        target: Cell,
        battery: bool,
    },
    EndFire,
    /// Move a unit (or turn it in its space) to a space with its front this way.
    Move {
        unit: UnitId,
        to: Cell,
        facing: Facing,
    },
    /// Form a square (1 infantry unit, its full MF) or leave it.
    Square {
        unit: UnitId,
    },
    /// Attack the units of one space with these units; `charge` for the cavalry among them.
    Attack {
        units: Vec<UnitId>,
        target: Cell,
        charge: bool,
    },
    EndMovement,
    EndArtillery,
    MoveCommand {
        command: CmdId,
        to: Cell,
    },
    /// Steps 4 and 5: the phasing player's turn ends (smoke and his DIS markers come off).
    EndTurn,
    /// The winner's retreat: the straight line's direction and the retreating units' new front.
    Retreat {
        toward: Facing,
        facing: Facing,
    },
    /// Reactions of the non-phasing player.
    ReactFire {
        gun: UnitId,
    },
    CounterCharge,
    OpportunityFire,
    Decline,
}

/// What happened, for the log: every die and every modifier with its reason.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    Deployed {
        unit: UnitId,
        at: Cell,
    },
    SetUpDone {
        side: Side,
    },
    /// A command marker set up, or moved in the Command Phase (both public, as units are).
    CommandPlaced {
        command: u8,
        at: Cell,
    },
    CommandMoved {
        command: u8,
        to: Cell,
    },
    /// A side ends a step of its turn, or lets a reaction pass: said, so every log (and the
    /// audience's) reads why the table moved on.
    StepOver {
        side: Side,
        what: String,
    },
    Moved {
        unit: UnitId,
        from: Cell,
        to: Cell,
        spent: u8,
    },
    Turned {
        unit: UnitId,
        facing: Facing,
    },
    Formed {
        unit: UnitId,
        square: bool,
    },
    Disordered {
        unit: UnitId,
        why: String,
    },
    Demoralised {
        unit: UnitId,
        why: String,
    },
    Recovered {
        unit: UnitId,
    },
    Eliminated {
        unit: UnitId,
        why: String,
    },
    CommandCaptured {
        command: CmdId,
        why: String,
    },
    AttackDeclared {
        units: Vec<UnitId>,
        target: Cell,
        charge: bool,
    },
    /// A roll of the dice: a gun's fire, counter-battery fire, an attack on the CRT, opportunity
    /// or chance fire, the ice of a frozen pond, Davout's arrival (the engine's one roll entry:
    /// who, what for, the dice, each modifier with its reason, the table read, the result).
    Rolled(crate::engine::roll::Roll),
    CounterCharged {
        unit: UnitId,
    },
    Retreated {
        unit: UnitId,
        from: Cell,
        to: Cell,
    },
    GuardCollapse {
        side: Side,
        until: u8,
    },
    TurnEnded {
        side: Side,
        turn: u8,
    },
    Victory {
        winner: Option<Side>,
        points: [u16; 2],
        why: String,
    },
}

/// A refusal: the section it enforces and its words (`engine::rules::Refusal`).
pub type AzError = crate::engine::rules::Refusal<AzSection>;

crate::sections! {
    /// The book's sections, as the refusals name them.
    pub enum AzSection {
        SETUP: Setup = "Set-up",
        PHASES: Phases = "The Phases of a game turn",
        STACKING: Stacking = "Set-up: Stacking",
        MOVEMENT: Movement = "Movement",
        FORMATIONS: Formations = "Formations",
        ARTILLERY: Artillery = "Artillery",
        LOS: Los = "Artillery: Line of Sight",
        CHARGE: Charge = "Cavalry Charges and Disorganization",
        COMBAT: Combat = "Combat",
        RETREAT: Retreat = "Combat resolution",
        REACTIONS: Reactions = "Reactions",
        VICTORY: Victory = "Check for victory",
    }
}
