//! Battle of the Nations' actions (one serializable enum: what the log, saves, the AI and the
//! window carry) and the typed errors that name the rulebook rule an illegal action breaks.

use super::data::{District, Side, UnitType};
use super::state::{ArmyId, CardId, HandCard, MarkerId, MissionId, MissionResult};
use crate::engine::geometry::SpaceId;
use serde::{Deserialize, Serialize};

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

/// A refusal: the rulebook section it enforces and its words (`engine::rules::Refusal`).
pub type BotnError = crate::engine::rules::Refusal<BotnSection>;

crate::sections! {
    /// The rulebook's sections (and the few rules of the table itself), as the refusals name them.
    pub enum BotnSection {
        PLAY: Play = "Game Play - Beginner's Game",
        FIRST_TURN: FirstTurn = "Game Play - Beginner's Game [2]",
        PREPARATION: Preparation = "Preparation",
        ARMY_CARD: ArmyCard = "1. Lay out an Army Card",
        TERRAIN_CARD: TerrainCard = "2. Play a Terrain Card",
        MOVEMENT_CARD: MovementCard = "3. Play a Movement Card",
        SCOUT_CARD: ScoutCard = "4. Play a Scout Card",
        WILD_CARD: WildCard = "5. Play a Wild Card",
        DRAW: Draw = "7. Draw an Action Card",
        FURTHER: Further = "Further rules",
        ONE_ARMY: OneArmy = "Further rules: only one Army may be placed on each field",
        FAQ_ROW: FaqRow = "Official FAQ: the face-up row",
        FAQ_NAPOLEON: FaqNapoleon = "Official FAQ: Napoléon with all his armies placed",
        FIGHT: Fight = "Fight (16.10. and 18.10.)",
        TIME_BAR: TimeBar = "Time bar and scoring",
        SCORING: Scoring = "Scoring - Compare Army Strength",
        ALTERNATIVE: Alternative = "Alternative conditions to win",
        END: End = "End of the game",
        ENFORCED: Enforced = "Grognard: enforced mode",
        IDENTICAL: Identical = "Grognard: identical cards",
        TABLE: Table = "Grognard: the table",
    }
}

/// An id that names no piece, field or card of the table (a save or a message out of bounds).
pub fn no_such_thing() -> BotnError {
    BotnError::new(rule::TABLE, "no such piece, field or card")
}

/// A card played that its side does not hold.
pub fn not_in_hand() -> BotnError {
    BotnError::new(rule::PLAY, "that card is not in your hand")
}

/// What happened, for the log: names resolve through the scenario when shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    MissionsDealt {
        count: u8,
    },
    SecondMission {
        district: District,
    },
    MissionKept {
        district: District,
    },
    ArmyCardLaidOut {
        army: ArmyId,
        fields: Vec<SpaceId>,
        scouts: u8,
    },
    MarkerRemoved {
        army: ArmyId,
        field: SpaceId,
    },
    MarkerMoved {
        army: ArmyId,
        from: SpaceId,
        to: SpaceId,
    },
    ArmyPlaced {
        army: ArmyId,
        field: SpaceId,
        cleared: u8,
        own: bool,
        scout: bool,
    },
    ArmyLost {
        army: ArmyId,
    },
    UnitChosen {
        army: ArmyId,
        unit: UnitType,
    },
    CardPlayed {
        side: Side,
        card: CardId,
    },
    ScoutPlayed {
        side: Side,
    },
    TimeAdvanced {
        to: u8,
    },
    MissionRevealed {
        mission: MissionId,
    },
    DrewFaceUp {
        side: Side,
        card: CardId,
    },
    DrewBlind {
        side: Side,
        card: CardId,
    },
    Reshuffled {
        cards: u8,
    },
    Discarded {
        side: Side,
        card: HandCard,
    },
    Passed {
        side: Side,
    },
    TurnBegan {
        side: Side,
        turn: u16,
    },
    /// Official FAQ: Napoléon, all armies placed, advances the time indicator and ends his turn.
    NapoleonWaits,
    FaceUpSwapped,
    FightBegan {
        date: String,
        armies: u8,
    },
    /// `attacker`'s point of damage goes to `target` (`chosen`: by the defender, among several).
    Hit {
        attacker: ArmyId,
        target: ArmyId,
        chosen: bool,
    },
    /// An army loses `points`: flipped to its back and/or "-1" chips laid on it.
    ArmyDamaged {
        army: ArmyId,
        points: u8,
        strength: i8,
        flipped: bool,
        chips: u8,
    },
    ArmyRemoved {
        army: ArmyId,
        field: SpaceId,
    },
    FightEnded,
    GameEnded,
    Assigned {
        army: ArmyId,
        mission_army: ArmyId,
        chosen: bool,
    },
    MissionScored(MissionResult),
    FinalScore {
        french: u8,
        allied: u8,
    },
    GreyCannonSet {
        french_points: u8,
    },
    Sandbox(SandboxAction),
}
