//! Battle of the Nations' actions (one serializable enum: what the log, saves, the AI and the
//! window carry) and the typed errors that name the rulebook rule an illegal action breaks.

use super::data::{District, UnitType};
use super::state::{ArmyId, CardId, HandCard, MarkerId, MissionId};
use crate::engine::geometry::SpaceId;
use crate::engine::rules::NamesRule;
use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Preparation: take a second mission card from this district.
    DraftDistrict(District),
    /// Preparation: keep this card of the drafted pair; the other leaves the game.
    KeepMission(MissionId),
    /// 1. Lay out an Army Card; `skip` lists villages left out, one scout card paid for each.
    LayOutArmyCard { army: ArmyId, skip: Vec<SpaceId> },
    /// 2. Play a Terrain Card: remove an own marker from a field of that terrain.
    PlayTerrainCard { card: CardId, marker: MarkerId },
    /// 3. Play a Movement Card: move an own marker to an adjacent field.
    PlayMovementCard { card: CardId, marker: MarkerId, to: SpaceId },
    /// 3. (exception) Two Movement Cards: jump over an own army to the field beyond.
    JumpOverArmy { cards: [CardId; 2], marker: MarkerId, over: SpaceId, to: SpaceId },
    /// 4. Play a Scout Card: remove an own marker.
    PlayScoutCard { marker: MarkerId },
    /// Rule 5, Play a Wild Card: two identical cards used as any Movement Card (with `to`) or
    /// as any Terrain Card (without).
    PlayWildCard { cards: [CardId; 2], marker: MarkerId, to: Option<SpaceId> },
    /// 6. Play a Time Card.
    PlayTimeCard { card: CardId },
    /// 7. Draw an Action Card from the face-up row.
    DrawFaceUp { card: CardId },
    /// 7. Draw an Action Card from the blind pile.
    DrawBlind,
    /// Time bar: the time indicator passed a date; Napoléon reveals this mission card of his.
    RevealMission(MissionId),
    /// Place armies: of the armies with their last marker on one field, this one is placed.
    PlaceArmy { army: ArmyId },
    /// Further rules: Napoléon or Schwarzenberg, just placed, becomes this unit type.
    ChooseUnit { army: ArmyId, unit: UnitType },
    /// Hand limit at the end of the turn: discard a card.
    Discard(HandCard),
    /// Only when no other action is possible, or when Napoléon has placed all his armies (official
    /// FAQ): give up the rest of the turn's actions.
    Pass,
    /// Official FAQ: after two rounds in which nobody took a face-up card, swap the row for four new
    /// cards (a free action).
    SwapFaceUp,
    /// Fight: the point of damage dealt by `attacker` goes to `target` (the defender chooses).
    AllocateHit { attacker: ArmyId, target: ArmyId },
    /// Scoring: `army` supports (French) or fights (Allied) the army on this mission field.
    AssignToMission { army: ArmyId, mission_army: ArmyId },
    /// Alternative conditions to win: before the return game's preparation, the grey cannon marks
    /// Napoléon's points of the first game.
    SetGreyCannon { french_points: u8 },
    /// Sandbox mode only: a free move by hand.
    Sandbox(SandboxAction),
}

/// Free moves of the sandbox: any piece moved, flipped or drawn by hand.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SandboxAction {
    MoveMarker { marker: MarkerId, to: Option<SpaceId> },
    MoveArmy { army: ArmyId, to: Option<SpaceId> },
    FlipArmy { army: ArmyId },
    DrawBlind,
    MoveTime { to: u8 },
}

/// Why an action is illegal, with the rulebook section it comes from.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum BotnError {
    #[error("it is {active}'s decision now")]
    NotYourTurn { active: &'static str },
    #[error("{wanted} is not possible now: {now}")]
    WrongStep { wanted: &'static str, now: &'static str },
    #[error("district {0:?} has already given a second card or has none left")]
    DistrictUsed(District),
    #[error("that mission card is not one of the pair being chosen from")]
    NotInDraft,
    #[error("the army card of {army} has already been laid out")]
    ArmyCardPlayed { army: String },
    #[error("the army card of {army} may be laid out only after the time indicator has passed {date}")]
    TooEarly { army: String, date: String },
    #[error(
        "{army} needs {needed} markers but has {have}; leave out {missing} villages with scout cards (you hold {scouts})"
    )]
    NotEnoughMarkers { army: String, needed: usize, have: usize, missing: usize, scouts: usize },
    #[error("{field} is not a free village of {army}'s army card, or is named twice or out of the card's order")]
    BadSkip { army: String, field: String },
    #[error("every village of {army}'s card holds an army: no marker can be placed")]
    NoFreeVillage { army: String },
    #[error("in the first turn an army card must be laid out before terrain, movement or scout cards")]
    FirstTurnArmyCard,
    #[error("that card is not in your hand")]
    NotInHand,
    #[error("that is not a {0} card")]
    WrongCard(&'static str),
    #[error("that marker is not yours or is not on the board")]
    NotYourMarker,
    #[error("the marker is on {field} ({terrain}), not on {card_terrain}")]
    WrongTerrain { field: String, terrain: &'static str, card_terrain: &'static str },
    #[error("the last marker of {army} must stay on the board")]
    LastMarker { army: String },
    #[error("{army}'s markers are {unit}; the card moves {card}")]
    WrongUnit { army: String, unit: &'static str, card: String },
    #[error("{to} is not adjacent to {from}")]
    NotAdjacent { from: String, to: String },
    #[error("{field} already holds an army")]
    FieldHoldsArmy { field: String },
    #[error("{field} already holds a marker of {army}")]
    FieldHoldsOwnMarker { field: String, army: String },
    #[error("a jump must go over a field holding one of your own armies")]
    JumpNotOverOwnArmy,
    #[error("dropped off the board: troop markers move from field to field")]
    OffBoard,
    #[error("you hold no movement card")]
    NoMovementCard,
    #[error("none of your movement cards moves this marker there")]
    NoMoveThere,
    #[error("armies are never moved, only troop markers")]
    ArmiesDoNotMove,
    #[error("you hold no scout card")]
    NoScoutCard,
    #[error("a wild card is two identical cards")]
    NotIdentical,
    #[error("that card is not in the face-up row")]
    NotFaceUp,
    #[error("the draw pile and the discards are empty")]
    NothingToDraw,
    #[error("{army} is not waiting for its unit type, or {unit} is not a unit type")]
    BadUnitChoice { army: String, unit: &'static str },
    #[error("there are other actions to take; passing is only for a turn with none left")]
    CannotPass,
    #[error("the face-up row may be swapped only after two rounds in which nobody took a face-up card")]
    RowNotStale,
    #[error("{attacker}'s point of damage is not the one being allocated, or {target} does not touch it")]
    BadHit { attacker: String, target: String },
    #[error("{army} cannot count for the army on that mission field")]
    BadAssignment { army: String },
    #[error("the grey cannon is set only before the return game begins, to at most {max} points")]
    GreyCannon { max: u8 },
    #[error("identical {face} cards are one choice: the first of them in the hand (or the row) is the one played")]
    NotFirstOfFace { face: String },
    #[error("free moves by hand are allowed only in sandbox mode")]
    SandboxOnly,
    #[error("no such piece, field or card")]
    NoSuchThing,
    #[error("that is not one of Napoléon's hidden mission cards")]
    NotHiddenMission,
    #[error("{army} is not one of the armies whose last marker shares the field")]
    NotPlacing { army: String },
    #[error("with all his armies placed Napoléon only draws action cards (or ends his turn)")]
    NapoleonOnlyDraws,
    #[error("the game is over")]
    GameOver,
}

impl NamesRule for BotnError {
    fn rule(&self) -> &'static str {
        use BotnError::*;
        match self {
            NotYourTurn { .. } | WrongStep { .. } | CannotPass => "Game Play - Beginner's Game",
            DistrictUsed(_) | NotInDraft => "Preparation",
            ArmyCardPlayed { .. }
            | TooEarly { .. }
            | NotEnoughMarkers { .. }
            | BadSkip { .. }
            | NoFreeVillage { .. } => "1. Lay out an Army Card",
            FirstTurnArmyCard => "Game Play - Beginner's Game [2]",
            NotInHand | WrongCard(_) | NotYourMarker => "Game Play - Beginner's Game",
            WrongTerrain { .. } | LastMarker { .. } => "2. Play a Terrain Card",
            WrongUnit { .. }
            | NotAdjacent { .. }
            | FieldHoldsArmy { .. }
            | FieldHoldsOwnMarker { .. }
            | JumpNotOverOwnArmy
            | OffBoard
            | NoMovementCard
            | NoMoveThere
            | ArmiesDoNotMove => "3. Play a Movement Card",
            NoScoutCard => "4. Play a Scout Card",
            NotIdentical => "5. Play a Wild Card",
            NotFaceUp | NothingToDraw => "7. Draw an Action Card",
            BadUnitChoice { .. } => "Further rules",
            RowNotStale => "Official FAQ: the face-up row",
            BadHit { .. } => "Fight (16.10. and 18.10.)",
            BadAssignment { .. } => "Scoring - Compare Army Strength",
            GreyCannon { .. } => "Alternative conditions to win",
            SandboxOnly => "Grognard: enforced mode",
            NotFirstOfFace { .. } => "Grognard: identical cards",
            NoSuchThing => "Grognard: the table",
            GameOver => "End of the game",
            NotHiddenMission => "Time bar and scoring",
            NotPlacing { .. } => "Further rules: only one Army may be placed on each field",
            NapoleonOnlyDraws => "Official FAQ: Napoléon with all his armies placed",
        }
    }
}
