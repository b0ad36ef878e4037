//! What a seat may see of a Victory & Glory table: the one gate for hidden information. Hands
//! are their owner's; the deck is a count; the unused units are counts per nation (recruits are
//! drawn blind); the units in front of a player and those committed face down to a campaign show
//! only their nation to the other player until the campaign is revealed. The solo AI decides on
//! this view; where it needs a whole table it plays on a sample (`VgView::sample`).

use super::data::{NationId, Player, VgScenario};
use super::state::{BattleResult, CampaignState, CardId, Loc, Pending, Phase, Task, UnitId, Units, Vg};
use crate::engine::rng::TableRng;
use crate::engine::rules::Shared;
use crate::engine::seats::{SeatId, Viewer};
use serde::Serialize;

/// A unit as the viewer sees it: its identity (nation, kind and value), or only its nation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
pub enum UnitFace {
    Known(UnitId),
    Hidden { nation: NationId },
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct VgView {
    #[serde(skip)]
    pub sc: Shared<VgScenario>,
    pub viewer: Viewer,
    pub phase: Phase,
    pub era: u8,
    pub round: u8,
    pub turn: Player,
    pub first: Player,
    pub played: [u8; 2],
    pub quota: [u8; 2],
    pub deck: usize,
    pub discard: Vec<CardId>,
    /// Each hand: the cards where the viewer may see them, else only how many.
    pub hands: [Result<Vec<CardId>, usize>; 2],
    pub in_front: [Vec<CardId>; 2],
    pub economy: [i16; 2],
    pub leadership: [i16; 2],
    pub vp: [i16; 2],
    pub influence: Vec<[u8; 2]>,
    pub allies: Vec<Option<Player>>,
    /// Units on the table (not in the unused stack), by where they are, in unit order where known.
    pub units: Vec<(Loc, UnitFace)>,
    /// Units in the unused stack, per nation.
    pub pool: Vec<u8>,
    pub campaigns: Vec<CampaignState>,
    pub tasks: Vec<Task>,
    pub pending: Vec<Pending>,
    pub solo: Option<Player>,
    pub results: Vec<BattleResult>,
    pub chance: bool,
    #[serde(default)]
    pub across_machines: bool,
}

/// An order of places, so that hidden units are listed by place and nation only.
fn loc_key(loc: Loc) -> (u8, u8, usize) {
    match loc {
        Loc::Pool => (0, 0, 0),
        Loc::Holding => (1, 0, 0),
        Loc::Army(p) => (2, 0, p.index()),
        Loc::Campaign(c, p) => (3, c, p.index()),
    }
}

fn owner_sees(viewer: Viewer, p: Player) -> bool {
    viewer == Viewer::Seat(SeatId(p.index() as u8))
}

impl Vg {
    /// Whether `viewer` may see unit `u`'s face where it is now.
    pub fn unit_seen_by(&self, u: UnitId, viewer: Viewer) -> bool {
        match self.units[u as usize] {
            Loc::Pool => false,
            Loc::Holding => true,
            Loc::Army(p) => owner_sees(viewer, p),
            Loc::Campaign(c, p) => self.campaigns[c as usize].revealed || owner_sees(viewer, p),
        }
    }

    /// What `viewer` may see (`Game::observe`).
    pub(super) fn view_for(&self, viewer: Viewer) -> VgView {
        let hand = |p: Player| {
            let h = &self.hands[p.index()];
            if owner_sees(viewer, p) { Ok(h.clone()) } else { Err(h.len()) }
        };
        let mut pool = vec![0u8; self.sc.nations.len()];
        let mut known = Vec::new();
        let mut hidden = Vec::new();
        for (u, &loc) in self.units.iter().enumerate() {
            let u = u as UnitId;
            match loc {
                Loc::Pool => pool[self.unit_nation(u) as usize] += 1,
                _ if self.unit_seen_by(u, viewer) => known.push((loc, UnitFace::Known(u))),
                _ => hidden.push((loc, UnitFace::Hidden { nation: self.unit_nation(u) })),
            }
        }
        // Hidden units are listed after the known ones, sorted, so their order tells nothing.
        hidden.sort_by_key(|(loc, face)| (loc_key(*loc), *face));
        known.extend(hidden);
        VgView {
            sc: Shared(self.sc.clone()),
            viewer,
            phase: self.phase,
            era: self.era,
            round: self.round,
            turn: self.turn,
            first: self.first,
            played: self.played,
            quota: self.quota,
            deck: self.deck.len(),
            discard: self.discard.clone(),
            hands: [hand(Player::France), hand(Player::Britain)],
            in_front: self.in_front.clone(),
            economy: self.economy,
            leadership: self.leadership,
            vp: self.vp,
            influence: self.influence.clone(),
            allies: self.allies.clone(),
            units: known,
            pool,
            campaigns: self.campaigns.clone(),
            tasks: self.tasks.clone(),
            pending: self.pending.clone(),
            solo: self.solo,
            results: self.results.clone(),
            chance: self.chance,
            across_machines: self.across_machines,
        }
    }
}

impl VgView {
    /// The seat whose eyes these are (None for a spectator).
    pub fn seat(&self) -> Option<SeatId> {
        match self.viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }

    /// A whole table consistent with this view: hidden hands and the deck dealt at random from
    /// the era's cards the viewer cannot place, each hidden unit a random unused-looking unit of
    /// its nation, and a fresh seed for the table's chance.
    pub fn sample(&self, rng: &mut TableRng) -> Vg {
        let sc = &self.sc;
        let mut placed = vec![false; sc.cards.len()];
        let known_cards = self
            .discard
            .iter()
            .chain(self.in_front.iter().flatten())
            .chain(self.hands.iter().filter_map(|h| h.as_ref().ok()).flatten())
            .chain(self.campaigns.iter().map(|c| &c.card));
        for &c in known_cards {
            placed[c as usize] = true;
        }
        let mut cards: Vec<CardId> = (0..sc.cards.len() as CardId)
            .filter(|&c| !placed[c as usize] && sc.cards[c as usize].era == self.era)
            .collect();
        rng.shuffle(&mut cards);
        let mut deal = |n: usize| (0..n).map(|_| cards.pop().unwrap_or(0)).collect::<Vec<_>>();
        let hands = [0, 1].map(|i| match &self.hands[i] {
            Ok(h) => h.clone(),
            Err(n) => deal(*n),
        });
        let deck = deal(self.deck);
        // Units: the known ones where they are; each hidden one a random unit of its nation from
        // those whose place the viewer does not know.
        let mut units = vec![Loc::Pool; sc.units.len()];
        let mut free: Vec<Vec<UnitId>> = vec![Vec::new(); sc.nations.len()];
        let mut known = vec![false; sc.units.len()];
        for &(loc, face) in &self.units {
            if let UnitFace::Known(u) = face {
                units[u as usize] = loc;
                known[u as usize] = true;
            }
        }
        for (u, d) in sc.units.iter().enumerate() {
            if !known[u] {
                free[d.nation as usize].push(u as UnitId);
            }
        }
        for f in free.iter_mut() {
            rng.shuffle(f);
        }
        for &(loc, face) in &self.units {
            if let UnitFace::Hidden { nation } = face
                && let Some(u) = free[nation as usize].pop()
            {
                units[u as usize] = loc;
            }
        }
        Vg {
            sc: sc.0.clone(),
            rng: TableRng::from_seed(rng.below(u32::MAX as usize) as u64),
            phase: self.phase,
            era: self.era,
            round: self.round,
            turn: self.turn,
            first: self.first,
            played: self.played,
            quota: self.quota,
            deck,
            discard: self.discard.clone(),
            hands,
            in_front: self.in_front.clone(),
            economy: self.economy,
            leadership: self.leadership,
            vp: self.vp,
            influence: self.influence.clone(),
            allies: self.allies.clone(),
            units: Units::new(units),
            campaigns: self.campaigns.clone(),
            tasks: self.tasks.clone(),
            pending: self.pending.clone(),
            solo: self.solo,
            results: self.results.clone(),
            chance: self.chance,
            across_machines: self.across_machines,
        }
    }
}
