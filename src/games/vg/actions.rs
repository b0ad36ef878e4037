//! Victory & Glory's actions (what the log, saves, the AI and the window carry) and the typed
//! errors naming the rulebook section an illegal action breaks.

use super::data::{NationId, Player};
use super::state::{CampaignId, CardId, Group, Text, UnitId};
use serde::{Deserialize, Serialize};

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

/// A refusal: the rulebook section it enforces and its words (`engine::rules::Refusal`).
pub type VgError = crate::engine::rules::Refusal<VgSection>;

crate::sections! {
    /// The rulebook's sections, as the refusals name them.
    pub enum VgSection {
        CARD_KINDS: CardKinds = "IV. The Cards",
        ROUNDS: Rounds = "VII. The Game & Rounds",
        CARDS: Cards = "VIII. The Cards",
        CAMPAIGN_CARDS: CampaignCards = "VIII. Campaign Cards",
        LIMITATIONS: Limitations = "VIII. Limitations on Which Military Units May Be Used in Which Campaigns",
        RESOLVING: Resolving = "XII. Resolving a Campaign",
        SOLO: Solo = "XV. Solo Play (a) Card play",
        TABLETOP: Tabletop = "XVI. Tabletop Miniatures Battles",
    }
}

/// An id that names no card, unit, nation or campaign (a save or a message out of bounds).
pub fn no_such_thing() -> VgError {
    VgError::new(rule::ROUNDS, "no such card, unit, nation or campaign")
}
