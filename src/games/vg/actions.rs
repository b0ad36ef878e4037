//! Victory & Glory's actions (what the log, saves, the AI and the window carry) and the typed
//! errors naming the rulebook section an illegal action breaks.

use super::data::{NationId, Player};
use super::state::{CampaignId, CardId, Group, Text, UnitId};
use crate::engine::rules::NamesRule;
use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Before the first card: a solo game, the AI playing this side (section XV).
    SoloSetup {
        ai: Player,
    },
    /// Play an event card with its body or its bottom text.
    PlayCard {
        card: CardId,
        text: Text,
    },
    /// Play a campaign card (from the hand, or one handed over in front of the player).
    PlayCampaign {
        card: CardId,
    },
    /// Solo (XV a): the AI's drawn campaign card that would obviously disadvantage it goes in front
    /// of the player instead, and another card is played.
    SoloGiveCampaign {
        card: CardId,
    },
    /// Commit a unit in front of the player to the campaign, face down.
    CommitUnit(UnitId),
    /// Done committing.
    EndCommit,
    PlaceInfluence(NationId),
    RemoveInfluence(NationId),
    /// Recruit from this nation's unused units.
    RecruitFrom(NationId),
    /// Lose a unit (picked at random) from this group.
    LoseFrom(Group),
    /// Lose this unit among several of the same value.
    LoseUnit(UnitId),
    /// Gain this Major Nation as an ally.
    Ally(NationId),
    /// Resolve this campaign now.
    Resolve(CampaignId),
    /// XVI: fight this campaign's battle with miniatures on a real table.
    FightOnTable(CampaignId),
    /// XVI: the tabletop battle's result: the winner, and (if the players agreed) the tabletop
    /// units each side lost, converted back at the corps ratio.
    TabletopResult {
        campaign: CampaignId,
        winner: Option<Player>,
        lost: Option<[u16; 2]>,
    },
}

#[derive(Clone, Debug, PartialEq, Error)]
pub enum VgError {
    #[error("it is {active}'s decision now")]
    NotYourTurn { active: &'static str },
    #[error("{wanted} is not possible now: {now}")]
    WrongStep { wanted: &'static str, now: String },
    #[error("that card is not in your hand or in front of you")]
    NotYourCard,
    #[error("{card} is a campaign card: play it as a campaign")]
    IsCampaign { card: String },
    #[error("{card} is not a campaign card")]
    NotCampaign { card: String },
    #[error("the body of {card} needs a majority of influence in {nation}")]
    NeedsMajority { card: String, nation: String },
    #[error("the body of {card} can do nothing now: {why}")]
    BodyImpossible { card: String, why: String },
    #[error(
        "only the solo AI gives away a campaign card, and only one it cannot fight (no units, or outnumbered 2 to 1)"
    )]
    NotDisadvantaged,
    #[error("{unit} cannot join a campaign {region}: {why}")]
    InvalidUnit { unit: String, region: String, why: &'static str },
    #[error("at least one unit must be committed to the campaign")]
    MustCommit,
    #[error("{nation}: {why}")]
    BadNation { nation: String, why: String },
    #[error("no such unit to lose there")]
    BadLoss,
    #[error("that campaign is not open")]
    BadCampaign,
    #[error("the tabletop result does not fit the battle: {why}")]
    BadTabletop { why: String },
    #[error("no such card, unit, nation or campaign")]
    NoSuchThing,
    #[error("the game is over")]
    GameOver,
}

impl NamesRule for VgError {
    fn rule(&self) -> &'static str {
        use VgError::*;
        match self {
            NotYourTurn { .. } | WrongStep { .. } | NotYourCard | GameOver | NoSuchThing => "VII. The Game & Rounds",
            IsCampaign { .. } | NotCampaign { .. } => "IV. The Cards",
            NeedsMajority { .. } | BodyImpossible { .. } => "VIII. The Cards",
            NotDisadvantaged => "XV. Solo Play (a) Card play",
            InvalidUnit { .. } => "VIII. Limitations on Which Military Units May Be Used in Which Campaigns",
            MustCommit => "VIII. Campaign Cards",
            BadNation { .. } => "VIII. The Cards",
            BadLoss => "XII. Resolving a Campaign",
            BadCampaign => "XII. Resolving a Campaign",
            BadTabletop { .. } => "XVI. Tabletop Miniatures Battles",
        }
    }
}
