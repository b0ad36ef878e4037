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

/// Where every unit is (indexed by unit), with a bit set per place kept beside it: the rules ask
/// for the units at a place (an army, a campaign, the pool) many times an action, and a scan of
/// the 250 units' places for each was the largest part of Victory & Glory's time. A unit moves only
/// through `set`, which keeps both; it is written and read (digests, saves) as the plain list.
#[derive(Clone)]
pub struct Units {
    loc: Vec<Loc>,
    /// `words` words a place, in the order of `slot`: a unit's bit is set at its place.
    bits: Vec<u64>,
    words: usize,
}

impl Units {
    pub fn new(loc: Vec<Loc>) -> Units {
        let mut units = Units { bits: Vec::new(), words: loc.len().div_ceil(64), loc };
        for u in 0..units.loc.len() {
            units.mark(u, units.loc[u], true);
        }
        units
    }

    /// The place's row of bits.
    fn slot(loc: Loc) -> usize {
        match loc {
            Loc::Pool => 0,
            Loc::Holding => 1,
            Loc::Army(p) => 2 + p.index(),
            Loc::Campaign(c, p) => 4 + 2 * c as usize + p.index(),
        }
    }

    fn mark(&mut self, u: usize, loc: Loc, on: bool) {
        let at = Units::slot(loc) * self.words + u / 64;
        if at >= self.bits.len() {
            self.bits.resize((Units::slot(loc) + 1) * self.words, 0);
        }
        if on {
            self.bits[at] |= 1 << (u % 64);
        } else {
            self.bits[at] &= !(1 << (u % 64));
        }
    }

    /// Unit `u` moves to `to`.
    pub fn set(&mut self, u: usize, to: Loc) {
        self.mark(u, self.loc[u], false);
        self.mark(u, to, true);
        self.loc[u] = to;
    }

    /// The units at `loc`, in the order of their ids.
    pub fn at(&self, loc: Loc) -> impl Iterator<Item = UnitId> + '_ {
        self.row(loc).iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    (w * 64 + bit) as UnitId
                })
            })
        })
    }

    /// Whether a unit is at `loc`.
    pub fn any_at(&self, loc: Loc) -> bool {
        self.row(loc).iter().any(|&w| w != 0)
    }

    /// The place's bits (none where no unit was ever there).
    fn row(&self, loc: Loc) -> &[u64] {
        let start = Units::slot(loc) * self.words;
        self.bits.get(start..start + self.words).unwrap_or(&[])
    }
}

impl std::ops::Deref for Units {
    type Target = [Loc];
    fn deref(&self) -> &[Loc] {
        &self.loc
    }
}

impl std::fmt::Debug for Units {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.loc.fmt(f)
    }
}

impl PartialEq for Units {
    fn eq(&self, other: &Units) -> bool {
        self.loc == other.loc
    }
}

impl Serialize for Units {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.loc.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Units {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Units, D::Error> {
        Vec::<Loc>::deserialize(d).map(Units::new)
    }
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
    pub units: Units,
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
        self.units.at(loc)
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
    pub fn playable_cards(&self, p: Player) -> impl Iterator<Item = CardId> + '_ {
        self.hands[p.index()].iter().chain(&self.in_front[p.index()]).copied()
    }

    pub fn is_ai(&self, p: Player) -> bool {
        self.solo == Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(units: &Units, loc: Loc) -> Vec<UnitId> {
        (0..units.len()).filter(|&u| units[u] == loc).map(|u| u as UnitId).collect()
    }

    #[test]
    fn the_units_at_a_place_are_those_a_scan_finds_after_every_move() {
        let places = |i: u64| match i % 6 {
            0 => Loc::Pool,
            1 => Loc::Holding,
            2 => Loc::Army(Player::France),
            3 => Loc::Army(Player::Britain),
            4 => Loc::Campaign((i / 6 % 9) as CampaignId, Player::France),
            _ => Loc::Campaign((i / 6 % 9) as CampaignId, Player::Britain),
        };
        let mut rng = TableRng::from_seed(5);
        let mut units = Units::new((0..150).map(|i| places(i * 7)).collect());
        for _ in 0..3000 {
            let u = rng.below(units.len());
            units.set(u, places(rng.below(60) as u64));
            let loc = places(rng.below(60) as u64);
            assert_eq!(units.at(loc).collect::<Vec<_>>(), scan(&units, loc), "{loc:?}");
            assert_eq!(units.any_at(loc), !scan(&units, loc).is_empty());
        }
    }

    #[test]
    fn units_are_written_and_read_as_the_plain_list() {
        let plain = vec![Loc::Pool, Loc::Campaign(3, Player::Britain), Loc::Army(Player::France)];
        let units = Units::new(plain.clone());
        assert_eq!(ron::to_string(&units).unwrap(), ron::to_string(&plain).unwrap());
        let back: Units = ron::from_str(&ron::to_string(&plain).unwrap()).unwrap();
        assert_eq!(back.at(Loc::Campaign(3, Player::Britain)).collect::<Vec<_>>(), vec![1]);
        assert!(!back.any_at(Loc::Holding));
    }
}
