//! The state of a Victory & Glory table: tracks, influence, where every unit is, hands and decks,
//! the campaigns of the era, and the decisions waiting to be taken. Plain data, so it clones for
//! undo and hashes for digests; the scenario is shared and not part of the digest.

use super::data::{Effect, NationId, NationKind, Player, UnitKind, VgScenario};
use crate::engine::rng::TableRng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub type CardId = u16;
pub type UnitId = u8;
pub type CampaignId = u8;

pub const HAND_SIZE: usize = 10;
pub const CARDS_PER_ROUND: u8 = 6;
pub const SOLO_AI_CARDS: u8 = 7;
pub const ROUNDS_PER_ERA: u8 = 3;

/// Where a unit is (rulebook XI).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Loc {
    /// The unused stack off-board: not yet recruited, or eliminated.
    Pool,
    /// A neutral Major Nation's holding area.
    Holding,
    /// In front of a player: that player's army, allies included.
    Army(Player),
    /// Committed to a campaign by a player.
    Campaign(CampaignId, Player),
}

/// Which text of an event card is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Text {
    Body,
    Bottom,
}

/// Where a unit lost to a card is taken from: the army in front of the player, or a campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Group {
    Army,
    Campaign(CampaignId),
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct CampaignState {
    pub card: CardId,
    /// None: a naval campaign at sea.
    pub region: Option<NationId>,
    pub naval: bool,
    /// Units are face up once both players have committed.
    pub revealed: bool,
    pub resolved: bool,
    /// Sent to the miniatures table: its result is entered by the players.
    pub on_table: bool,
}

/// Work still to do for the card being played or the era ending, in order.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub enum Task {
    /// An effect, with the player it concerns as `Player`.
    Effect(Effect, Player),
    /// A player commits units to a campaign (the non-playing side first).
    Commit(Player, CampaignId),
    /// Both have committed: the units turn face up and the card goes to `to`.
    Reveal(CampaignId, Player),
    /// Resolve a campaign, with the winner when the tabletop decided it, and losses converted from
    /// the tabletop (board units per side) when the players agreed to.
    Resolve(CampaignId, Option<Option<Player>>, Option<[u8; 2]>),
}

/// A decision someone must take before play goes on.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub enum Pending {
    Commit {
        player: Player,
        campaign: CampaignId,
        committed: u8,
    },
    PlaceInfluence {
        player: Player,
        left: u8,
    },
    RemoveInfluence {
        owner: Player,
        left: u8,
    },
    RecruitNation {
        player: Player,
        count: u8,
    },
    LoseUnit {
        player: Player,
        left: u8,
    },
    /// Among several units of the same (lowest or highest) value, the owner picks the one lost.
    ChooseLoss {
        player: Player,
        campaign: CampaignId,
        candidates: Vec<UnitId>,
    },
    AllianceAny {
        player: Player,
    },
    EnAvant {
        player: Player,
    },
    /// End of the era: the player with the higher leadership picks the next campaign to resolve.
    ResolveOrder {
        chooser: Player,
    },
    /// The miniatures battle of a campaign is being fought; its result is awaited. Across
    /// machines (`entries` Some) each seat enters what it saw on the tabletop: the seat with no
    /// entry is asked, and the result applies only once both entries agree.
    TabletopResult {
        campaign: CampaignId,
        chooser: Player,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        entries: Option<[Option<TabletopEntry>; 2]>,
    },
}

/// One seat's entry of a tabletop battle's result: the winner, and the tabletop losses if the
/// players convert them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TabletopEntry {
    pub winner: Player,
    pub lost: Option<[u16; 2]>,
}

/// What the table is doing between decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, Default)]
pub enum Phase {
    /// A player is to play a card.
    #[default]
    Play,
    /// A card is being carried out.
    Card,
    /// The era is ending: campaigns to resolve, then scoring.
    EraEnd,
    GameOver,
}

/// One campaign's result, for the log, the screen and the tests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleResult {
    pub card: CardId,
    pub strength: [i16; 2],
    pub winner: Option<Player>,
    pub by_tabletop: bool,
}

#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Vg {
    #[serde(skip, default = "crate::engine::rules::scenario_from_context")]
    pub sc: Arc<VgScenario>,
    pub rng: TableRng,
    pub phase: Phase,
    pub era: u8,
    /// Round of the game, 0 to 8.
    pub round: u8,
    pub turn: Player,
    pub first: Player,
    pub played: [u8; 2],
    pub quota: [u8; 2],
    pub deck: Vec<CardId>,
    pub discard: Vec<CardId>,
    pub hands: [Vec<CardId>; 2],
    /// Campaign cards handed over, in front of each player.
    pub in_front: [Vec<CardId>; 2],
    pub economy: [i16; 2],
    pub leadership: [i16; 2],
    pub vp: [i16; 2],
    /// Influence cubes per nation: [French, British].
    pub influence: Vec<[u8; 2]>,
    /// The player each Major Nation is allied to (at war on that side).
    pub allies: Vec<Option<Player>>,
    pub units: Vec<Loc>,
    pub campaigns: Vec<CampaignState>,
    pub tasks: Vec<Task>,
    pub pending: Vec<Pending>,
    /// The solo game's AI side (section XV).
    pub solo: Option<Player>,
    pub results: Vec<BattleResult>,
    /// Set when the last action drew on chance or revealed something (an undo barrier).
    pub chance: bool,
    /// Played across machines (at a host's table): a tabletop result is entered by both seats,
    /// each at its own screen, and applied only once they agree (XVI). At one screen it is
    /// entered once, by the players together. Not part of the digest: a hosted game digests as
    /// the same game played at one table (a tabletop result entered twice is in its log).
    #[serde(skip)]
    pub across_machines: bool,
}

impl Vg {
    pub fn nation_kind(&self, n: NationId) -> NationKind {
        self.sc.nations[n as usize].kind
    }

    pub fn unit_nation(&self, u: UnitId) -> NationId {
        self.sc.units[u as usize].nation
    }

    pub fn unit_kind(&self, u: UnitId) -> UnitKind {
        self.sc.units[u as usize].kind
    }

    pub fn unit_value(&self, u: UnitId) -> u8 {
        self.sc.units[u as usize].value
    }

    pub fn unit_label(&self, u: UnitId) -> String {
        let d = &self.sc.units[u as usize];
        format!("{} {} {}", self.sc.nation_name(d.nation), d.kind.name(), d.value)
    }

    /// Whether `p` has more cubes than the other player in nation `n`.
    pub fn has_majority(&self, p: Player, n: NationId) -> bool {
        let c = self.influence[n as usize];
        c[p.index()] > c[p.other().index()]
    }

    pub fn units_at(&self, loc: Loc) -> Vec<UnitId> {
        self.units_in(loc).collect()
    }

    /// The units at `loc`, read without making a list (the rules ask this of every campaign and
    /// army many times an action).
    pub fn units_in(&self, loc: Loc) -> impl Iterator<Item = UnitId> + '_ {
        self.units.iter().enumerate().filter(move |(_, l)| **l == loc).map(|(u, _)| u as UnitId)
    }

    /// Whether a unit is at `loc`: asked without making the list.
    pub fn any_unit_at(&self, loc: Loc) -> bool {
        self.units.contains(&loc)
    }

    /// Whether `p` has a unit, in front of them or on campaign: asked without making the list.
    pub fn has_units(&self, p: Player) -> bool {
        self.units.iter().any(|l| matches!(*l, Loc::Army(q) | Loc::Campaign(_, q) if q == p))
    }

    /// Units in `p`'s army (in front of the player).
    pub fn army(&self, p: Player) -> Vec<UnitId> {
        self.units_at(Loc::Army(p))
    }

    /// `p`'s units committed to campaign `c`.
    pub fn committed(&self, c: CampaignId, p: Player) -> Vec<UnitId> {
        self.units_at(Loc::Campaign(c, p))
    }

    /// All units a player has: in front of them and on campaign.
    pub fn all_units(&self, p: Player) -> Vec<UnitId> {
        (0..self.units.len() as UnitId)
            .filter(|&u| matches!(self.units[u as usize], Loc::Army(q) | Loc::Campaign(_, q) if q == p))
            .collect()
    }

    /// The player's own national units (French units for France, British for Britain): the ones
    /// that cost upkeep at the end of an era.
    pub fn national_units(&self, p: Player) -> usize {
        let home = self.sc.home(p);
        self.all_units(p).into_iter().filter(|&u| self.unit_nation(u) == home).count()
    }

    pub fn card_name(&self, c: CardId) -> &str {
        &self.sc.cards[c as usize].name
    }

    pub fn open_campaigns(&self) -> Vec<CampaignId> {
        (0..self.campaigns.len() as CampaignId).filter(|&c| !self.campaigns[c as usize].resolved).collect()
    }

    pub fn region_name(&self, c: CampaignId) -> String {
        match self.campaigns[c as usize].region {
            Some(n) => self.sc.nation_name(n).to_string(),
            None => "at sea".to_string(),
        }
    }

    /// Where campaign `c` is fought, as a sentence says it: "in Italy", "at sea".
    pub fn region_where(&self, c: CampaignId) -> String {
        match self.campaigns[c as usize].region {
            Some(n) => format!("in {}", self.sc.nation_name(n)),
            None => "at sea".to_string(),
        }
    }

    /// Battle strength of `p` in campaign `c` (rulebook XII): units + leadership + combined arms;
    /// at sea no combined arms, and Britain +3 leadership.
    pub fn battle_strength(&self, c: CampaignId, p: Player) -> i16 {
        let naval = self.campaigns[c as usize].naval;
        let (mut values, mut kinds) = (0i16, 0u8);
        for u in self.units_in(Loc::Campaign(c, p)) {
            values += self.unit_value(u) as i16;
            kinds |= 1 << self.unit_kind(u) as u8;
        }
        // Combined arms: one for each kind of unit there.
        let combined = if naval { 0 } else { kinds.count_ones() as i16 };
        let bonus = if naval && p == Player::Britain { 3 } else { 0 };
        values + self.leadership[p.index()] + bonus + combined
    }

    /// The cards `p` may play now: the hand, and campaign cards in front of them.
    pub fn playable_cards(&self, p: Player) -> Vec<CardId> {
        self.hands[p.index()].iter().chain(&self.in_front[p.index()]).copied().collect()
    }

    pub fn is_ai(&self, p: Player) -> bool {
        self.solo == Some(p)
    }
}
