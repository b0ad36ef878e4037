//! The state of a Battle of the Nations table: where every marker, army and card is, the time
//! bar, the victory points and the seeded RNG. Plain data, so it clones for undo and hashes for
//! digests; the scenario it refers to is shared and not part of the digest.

use super::data::{District, Scenario, Side, UnitType};
use crate::engine::geometry::SpaceId;
use crate::engine::rng::TableRng;
use crate::engine::seats::{SeatId, Viewer, Visibility};
use serde::Serialize;
use std::sync::Arc;

/// Index of an army (and of its army card) in the scenario's list.
pub type ArmyId = u8;
/// Index of an action card in the scenario's deck.
pub type CardId = u8;
/// Index of a troop marker.
pub type MarkerId = u8;
/// Index of a mission card.
pub type MissionId = u8;

/// The step of the sequence of play the table is in; each is a Bevy state in the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize, Default)]
pub enum Step {
    /// Preparation: Napoléon takes a second mission card from two districts and keeps one of each pair.
    #[default]
    MissionDraft,
    /// A turn of five actions.
    Actions,
    /// Napoléon or Schwarzenberg was placed: its owner chooses its unit type.
    ChooseUnit,
    /// Two armies have their last marker on the same field: the active player chooses the one
    /// placed ("Only one Army may be placed on each field").
    PlaceArmy,
    /// End of a turn with more than 8 cards in hand: discard down to 8.
    Discard,
    /// Fight on 16.10. or 18.10.: an army touching several enemies deals its point to one of them,
    /// chosen by the player whose armies take it.
    Fight,
    /// After 19.10.: a French army next to two mission armies supports one of them, an Allied army
    /// touching two fights one of them; each owner chooses.
    Scoring,
    GameOver,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ArmyState {
    pub card_played: bool,
    /// The field of a placed army.
    pub at: Option<SpaceId>,
    /// Current army strength (printed strength less losses).
    pub strength: i8,
    /// Shown on its pale back (after its first loss).
    pub flipped: bool,
    /// Chosen unit type of Napoléon or Schwarzenberg once placed.
    pub chosen_unit: Option<UnitType>,
    /// Removed from play (strength below one, or its last marker cleared away).
    pub eliminated: bool,
    /// "-1" chips lying on it (each a point lost after the flip).
    pub chips: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct MarkerState {
    pub army: ArmyId,
    /// On the board, or None (in the army's supply or removed next to the board).
    pub at: Option<SpaceId>,
    /// Removed markers lie upside down next to the board and are not used again.
    pub removed: bool,
}

impl MarkerState {
    /// In its army's supply: off the board and not removed.
    pub fn in_supply(&self) -> bool {
        self.at.is_none() && !self.removed
    }
}

/// One army's point of damage in a fight, waiting for the defender to choose among `targets`.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Hit {
    pub attacker: ArmyId,
    pub targets: Vec<ArmyId>,
}

/// A scoring choice: `army` counts for exactly one of the mission armies in `options`.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ScoreChoice {
    pub army: ArmyId,
    pub options: Vec<ArmyId>,
}

/// The final result of one mission card.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct MissionResult {
    pub mission: MissionId,
    /// The French army on the mission field, if any.
    pub army: Option<ArmyId>,
    /// French armies supporting it.
    pub support: Vec<ArmyId>,
    /// Allied armies in contact with it.
    pub opponents: Vec<ArmyId>,
    pub french: i16,
    pub allied: i16,
    pub fulfilled: bool,
}

/// A card in a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub enum HandCard {
    Action(CardId),
    Scout,
}

#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Botn {
    #[serde(skip, default = "crate::engine::rules::scenario_from_context")]
    pub sc: Arc<Scenario>,
    pub rng: TableRng,
    pub step: Step,
    pub active: Side,
    pub turn: u16,
    pub actions_left: u8,
    /// Whether each side has completed its first turn (the first-turn restriction).
    pub had_first_turn: [bool; 2],
    /// Whether the active side has laid out an army card this turn.
    pub army_card_this_turn: bool,
    /// Position on the time bar (index into the scenario's time spaces).
    pub time: u8,
    pub vp: [u8; 2],
    pub armies: Vec<ArmyState>,
    pub markers: Vec<MarkerState>,
    pub hands: [Vec<HandCard>; 2],
    pub scout_supply: u8,
    pub minus_one_supply: u8,
    pub draw_pile: Vec<CardId>,
    pub face_up: Vec<CardId>,
    pub discard: Vec<CardId>,
    /// Time cards leave the game when played.
    pub out_of_game: Vec<CardId>,
    /// Each district's shuffled mission cards not yet dealt.
    pub mission_piles: Vec<Vec<MissionId>>,
    /// Napoléon's missions: the first `revealed` are face up, in the order he revealed them.
    pub missions: Vec<MissionId>,
    pub revealed: u8,
    /// Dates passed whose mission card Napoléon has still to choose and reveal; this decision
    /// comes before any other.
    pub reveals_due: u8,
    /// The two cards of the district being drafted.
    pub draft_pair: Vec<MissionId>,
    pub drafted: Vec<District>,
    /// Armies with their last marker on the same field, one of which the active player places.
    pub placing: Vec<ArmyId>,
    /// Placed armies whose unit type the owner must choose.
    pub pending_units: Vec<ArmyId>,
    /// How many of the time bar's fight dates have been fought.
    pub fights_done: u8,
    /// The running fight: damage each army will take, and the hits still to be allocated.
    pub damage: Vec<u8>,
    pub hits: Vec<Hit>,
    /// Final scoring: choices still open, and each army's mission army once decided.
    pub score_choices: Vec<ScoreChoice>,
    pub assigned: Vec<Option<ArmyId>>,
    pub results: Vec<MissionResult>,
    /// Consecutive turns in which nobody took a card from the face-up row (official FAQ).
    pub stale_row_turns: u8,
    pub took_face_up: bool,
    /// The alternative win: Napoléon's points of the first game, shown by the grey cannon.
    pub grey_cannon: Option<u8>,
}

pub fn seat_of(side: Side) -> SeatId {
    SeatId(side as u8)
}

pub fn side_of(seat: SeatId) -> Side {
    if seat.0 == 0 { Side::French } else { Side::Allied }
}

impl Botn {
    /// Makes this table a copy of `other`, keeping its vectors' room: a look-ahead copies the
    /// table for every position it judges, and making the vectors anew each time was a sixth of
    /// its time. Every field is named, so that a field added to the table is copied too.
    pub fn copy_from(&mut self, other: &Botn) {
        let Botn {
            sc,
            rng,
            step,
            active,
            turn,
            actions_left,
            had_first_turn,
            army_card_this_turn,
            time,
            vp,
            armies,
            markers,
            hands,
            scout_supply,
            minus_one_supply,
            draw_pile,
            face_up,
            discard,
            out_of_game,
            mission_piles,
            missions,
            revealed,
            reveals_due,
            draft_pair,
            drafted,
            placing,
            pending_units,
            fights_done,
            damage,
            hits,
            score_choices,
            assigned,
            results,
            stale_row_turns,
            took_face_up,
            grey_cannon,
        } = self;
        sc.clone_from(&other.sc);
        rng.clone_from(&other.rng);
        step.clone_from(&other.step);
        active.clone_from(&other.active);
        turn.clone_from(&other.turn);
        actions_left.clone_from(&other.actions_left);
        had_first_turn.clone_from(&other.had_first_turn);
        army_card_this_turn.clone_from(&other.army_card_this_turn);
        time.clone_from(&other.time);
        vp.clone_from(&other.vp);
        armies.clone_from(&other.armies);
        markers.clone_from(&other.markers);
        hands.clone_from(&other.hands);
        scout_supply.clone_from(&other.scout_supply);
        minus_one_supply.clone_from(&other.minus_one_supply);
        draw_pile.clone_from(&other.draw_pile);
        face_up.clone_from(&other.face_up);
        discard.clone_from(&other.discard);
        out_of_game.clone_from(&other.out_of_game);
        mission_piles.clone_from(&other.mission_piles);
        missions.clone_from(&other.missions);
        revealed.clone_from(&other.revealed);
        reveals_due.clone_from(&other.reveals_due);
        draft_pair.clone_from(&other.draft_pair);
        drafted.clone_from(&other.drafted);
        placing.clone_from(&other.placing);
        pending_units.clone_from(&other.pending_units);
        fights_done.clone_from(&other.fights_done);
        damage.clone_from(&other.damage);
        hits.clone_from(&other.hits);
        score_choices.clone_from(&other.score_choices);
        assigned.clone_from(&other.assigned);
        results.clone_from(&other.results);
        stale_row_turns.clone_from(&other.stale_row_turns);
        took_face_up.clone_from(&other.took_face_up);
        grey_cannon.clone_from(&other.grey_cannon);
    }
}

impl Botn {
    pub fn army_side(&self, army: ArmyId) -> Side {
        self.sc.armies[army as usize].def.side
    }

    pub fn army_name(&self, army: ArmyId) -> &str {
        &self.sc.armies[army as usize].def.name
    }

    /// The unit type an army's markers move as (`All` for Napoléon and Schwarzenberg unplaced).
    pub fn army_unit(&self, army: ArmyId) -> UnitType {
        self.armies[army as usize].chosen_unit.unwrap_or(self.sc.armies[army as usize].def.unit)
    }

    pub fn army_at(&self, field: SpaceId) -> Option<ArmyId> {
        self.armies.iter().position(|a| a.at == Some(field)).map(|i| i as ArmyId)
    }

    pub fn markers_on_board(&self, army: ArmyId) -> impl Iterator<Item = (MarkerId, SpaceId)> + '_ {
        self.markers
            .iter()
            .enumerate()
            .filter(move |(_, m)| m.army == army)
            .filter_map(|(i, m)| m.at.map(|at| (i as MarkerId, at)))
    }

    pub fn markers_in_supply(&self, army: ArmyId) -> smallvec::SmallVec<[MarkerId; 8]> {
        self.markers
            .iter()
            .enumerate()
            .filter(|(_, m)| m.army == army && m.in_supply())
            .map(|(i, _)| i as MarkerId)
            .collect()
    }

    /// How many of an army's markers are in its supply (`markers_in_supply`, counted).
    pub fn supply_count(&self, army: ArmyId) -> usize {
        self.markers.iter().filter(|m| m.army == army && m.in_supply()).count()
    }

    pub fn markers_at(&self, field: SpaceId) -> impl Iterator<Item = MarkerId> + '_ {
        self.markers.iter().enumerate().filter(move |(_, m)| m.at == Some(field)).map(|(i, _)| i as MarkerId)
    }

    pub fn hand_size(&self, side: Side) -> usize {
        self.hands[side.index()].len()
    }

    pub fn scouts_in_hand(&self, side: Side) -> usize {
        self.hands[side.index()].iter().filter(|c| **c == HandCard::Scout).count()
    }

    pub fn time_label(&self) -> &str {
        &self.sc.time[self.time as usize].label
    }

    /// The date the time indicator stands on or last passed.
    pub fn current_date(&self) -> Option<&str> {
        self.sc.time[..=self.time as usize].iter().rev().find_map(|t| t.date.as_deref())
    }

    /// Whether the time indicator has passed the last date (19.10.).
    pub fn past_last_date(&self) -> bool {
        self.time as usize > self.sc.last_date_index()
    }

    /// Whether every French army is placed or out of play: Napoléon then only draws (official FAQ).
    pub fn napoleon_done(&self) -> bool {
        self.armies
            .iter()
            .enumerate()
            .all(|(i, a)| self.sc.armies[i].def.side != Side::French || a.at.is_some() || a.eliminated)
    }

    /// The army strength that counts at the end: strength plus, in the advanced game, the terrain
    /// value of its field for its unit type; never below zero.
    pub fn combat_value(&self, army: ArmyId) -> i16 {
        let st = &self.armies[army as usize];
        let terrain = match (self.sc.variant, st.at) {
            (super::data::Variant::Advanced, Some(at)) => {
                self.sc.terrain_value(self.sc.fields[at.0 as usize].terrain, self.army_unit(army))
            }
            _ => 0,
        };
        (st.strength as i16 + terrain as i16).max(0)
    }

    /// Placed enemy armies on fields adjacent to `army`'s field.
    pub fn enemies_touching(&self, army: ArmyId) -> Vec<ArmyId> {
        let Some(at) = self.armies[army as usize].at else { return Vec::new() };
        let side = self.army_side(army);
        self.sc
            .graph
            .neighbours(at)
            .iter()
            .filter_map(|&f| self.army_at(f))
            .filter(|&a| self.army_side(a) != side)
            .collect()
    }

    /// The fields of Napoléon's revealed missions, in order.
    pub fn revealed_mission_fields(&self) -> Vec<(MissionId, SpaceId)> {
        self.missions[..self.revealed as usize].iter().map(|&m| (m, self.sc.missions[m as usize].field)).collect()
    }

    /// Who may see the mission card in place `i` of Napoléon's missions: everyone once revealed
    /// (the first `revealed` places), else Napoléon. Decided by place, never by which card it is.
    fn mission_place_visibility(&self, i: usize) -> Visibility {
        if i < self.revealed as usize { Visibility::Public } else { Visibility::Owner(seat_of(Side::French)) }
    }

    /// Who may see mission card `m`: Napoléon once he holds it (or drafts it), everyone once it is
    /// revealed.
    pub fn mission_visibility(&self, m: MissionId) -> Visibility {
        match self.missions.iter().position(|&x| x == m) {
            Some(i) => self.mission_place_visibility(i),
            None if self.draft_pair.contains(&m) => Visibility::Owner(seat_of(Side::French)),
            None => Visibility::Nobody,
        }
    }

    /// The cards of `side`'s hand as `viewer` may see them: None for a card whose face is hidden.
    pub fn hand_as_seen(&self, side: Side, viewer: Viewer) -> Vec<Option<HandCard>> {
        let vis = Visibility::Owner(seat_of(side));
        self.hands[side.index()].iter().map(|c| vis.visible_to(viewer).then_some(*c)).collect()
    }

    /// Napoléon's missions as `viewer` may see them.
    pub fn missions_as_seen(&self, viewer: Viewer) -> Vec<Option<MissionId>> {
        let seen = |(i, &m): (usize, &MissionId)| self.mission_place_visibility(i).visible_to(viewer).then_some(m);
        self.missions.iter().enumerate().map(seen).collect()
    }
}
