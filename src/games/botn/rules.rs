//! The rules of the beginner game as far as the table needs them: Preparation, the seven actions,
//! placing armies, the time bar with its mission reveals, drawing and the hand limit, the turn.
//! `legal_actions` is the one list every caller uses; `check` names the broken rule; `apply`
//! changes the state only after `check` passed.

use super::actions::{Action, BotnError, SandboxAction};
use super::data::{ActionCard, District, Scenario, Side, UnitType};
use super::state::*;
use crate::engine::geometry::SpaceId;
use crate::engine::rng::TableRng;
use crate::engine::rules::{Game, Mode};
use crate::engine::seats::SeatId;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub const ACTIONS_PER_TURN: u8 = 5;
pub const HAND_LIMIT: usize = 8;
pub const FACE_UP: usize = 4;
pub const START_HAND: usize = 4;

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

/// Sets the table up as the rulebook's Preparation section says.
pub fn setup(sc: Arc<Scenario>, seed: u64) -> (Botn, Vec<Event>) {
    let mut rng = TableRng::from_seed(seed);
    let mut events = Vec::new();
    // Mission cards shuffled by district; Napoléon receives one from each.
    let mut mission_piles = Vec::new();
    let mut missions = Vec::new();
    for d in District::ALL {
        let mut pile: Vec<MissionId> =
            sc.missions.iter().enumerate().filter(|(_, m)| m.def.district == d).map(|(i, _)| i as MissionId).collect();
        rng.shuffle(&mut pile);
        missions.push(pile.pop().expect("each district has missions (checked on load)"));
        mission_piles.push(pile);
    }
    events.push(Event::MissionsDealt { count: missions.len() as u8 });
    // Action cards shuffled, 4 to each player, 4 face up, the rest the blind pile.
    let mut pile: Vec<CardId> = (0..sc.action_cards.len() as CardId).collect();
    rng.shuffle(&mut pile);
    let mut hands: [Vec<HandCard>; 2] = [Vec::new(), Vec::new()];
    for hand in hands.iter_mut() {
        for _ in 0..START_HAND {
            hand.push(HandCard::Action(pile.pop().expect("deck size checked on load")));
        }
    }
    let face_up = (0..FACE_UP).filter_map(|_| pile.pop()).collect();
    let mut markers = Vec::new();
    let mut armies = Vec::new();
    for (i, a) in sc.armies.iter().enumerate() {
        for _ in 0..a.def.markers {
            markers.push(MarkerState { army: i as ArmyId, at: None, removed: false });
        }
        armies.push(ArmyState {
            card_played: false,
            at: None,
            strength: a.def.strength as i8,
            flipped: false,
            chosen_unit: None,
            eliminated: false,
            chips: 0,
        });
    }
    let game = Botn {
        rng,
        step: Step::MissionDraft,
        active: Side::French, // Napoléon is starting player.
        turn: 1,
        actions_left: ACTIONS_PER_TURN,
        had_first_turn: [false; 2],
        army_card_this_turn: false,
        time: 0, // the pocket watch, directly in front of 14.10.
        vp: [0; 2],
        armies,
        markers,
        hands,
        scout_supply: sc.scout_cards,
        minus_one_supply: sc.minus_one_chips,
        draw_pile: pile,
        face_up,
        discard: Vec::new(),
        out_of_game: Vec::new(),
        mission_piles,
        missions,
        revealed: 0,
        reveals_due: 0,
        placing: Vec::new(),
        draft_pair: Vec::new(),
        drafted: Vec::new(),
        pending_units: Vec::new(),
        fights_done: 0,
        damage: Vec::new(),
        hits: Vec::new(),
        score_choices: Vec::new(),
        assigned: Vec::new(),
        results: Vec::new(),
        stale_row_turns: 0,
        took_face_up: false,
        grey_cannon: None,
        sc,
    };
    (game, events)
}

/// Every choice of `k` items of `items`, in order.
fn combinations<T: Copy>(items: &[T], k: usize) -> Vec<Vec<T>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, first);
            all.push(rest);
        }
    }
    all
}

fn district_index(d: District) -> usize {
    District::ALL.iter().position(|x| *x == d).expect("listed")
}

impl Botn {
    fn name_of(&self, f: SpaceId) -> String {
        self.sc.field_name(f).to_string()
    }

    /// A field's name for an error message, or nothing for an id that is not on the board.
    fn field_label(&self, f: SpaceId) -> String {
        self.sc.fields.get(f.0 as usize).map(|x| x.name.clone()).unwrap_or_default()
    }

    /// An army's name for an error message, or nothing for an id that is not in the scenario: an
    /// error is built from unchecked input, so it must never index with it.
    fn army_label(&self, army: ArmyId) -> String {
        self.sc.armies.get(army as usize).map(|x| x.def.name.clone()).unwrap_or_default()
    }

    fn own_marker(&self, side: Side, marker: MarkerId) -> Result<(ArmyId, SpaceId), BotnError> {
        let m = self.markers.get(marker as usize).ok_or(BotnError::NoSuchThing)?;
        match m.at {
            Some(at) if self.army_side(m.army) == side => Ok((m.army, at)),
            _ => Err(BotnError::NotYourMarker),
        }
    }

    fn hand_has(&self, side: Side, card: HandCard) -> bool {
        self.hands[side.index()].contains(&card)
    }

    fn card(&self, card: CardId) -> Result<&ActionCard, BotnError> {
        self.sc.action_cards.get(card as usize).ok_or(BotnError::NoSuchThing)
    }

    /// The cards of `cards` with the same face as `card`, in their order.
    fn same_face<'a>(
        &'a self,
        cards: impl Iterator<Item = CardId> + 'a,
        card: CardId,
    ) -> impl Iterator<Item = CardId> + 'a {
        let face = self.sc.action_cards.get(card as usize);
        cards.filter(move |&c| self.sc.action_cards.get(c as usize) == face)
    }

    fn hand_ids(&self, side: Side) -> impl Iterator<Item = CardId> + '_ {
        self.hands[side.index()].iter().filter_map(|c| match *c {
            HandCard::Action(id) => Some(id),
            HandCard::Scout => None,
        })
    }

    /// The two cards a jump of `army`'s marker is played with: the first two in the hand that
    /// move it (the legal list offers only these, and the check takes only these).
    fn jump_cards(&self, side: Side, army: ArmyId) -> Option<[CardId; 2]> {
        let mut usable =
            self.hand_ids(side).filter(|&c| self.movement_card_allows(&self.sc.action_cards[c as usize], army));
        Some([usable.next()?, usable.next()?])
    }

    /// Identical cards are one choice: the legal list names the first card of a face in the hand
    /// (and, for a wild card, the next identical one), and the check takes only those, so the
    /// list and the check agree on every action.
    fn first_of_face(&self, side: Side, cards: &[CardId]) -> Result<(), BotnError> {
        if !self.same_face(self.hand_ids(side), cards[0]).take(cards.len()).eq(cards.iter().copied()) {
            let face = self.card(cards[0])?.title();
            return Err(BotnError::NotFirstOfFace { face });
        }
        Ok(())
    }

    /// Official FAQ: two rounds (four turns) without anyone taking a face-up card.
    fn row_is_stale(&self) -> bool {
        self.stale_row_turns >= 4 && !self.took_face_up && !(self.draw_pile.is_empty() && self.discard.is_empty())
    }

    /// Napoléon with all his armies placed may end his turn at any time (official FAQ).
    fn may_pass(&self) -> bool {
        self.active == Side::French && self.napoleon_done()
    }

    fn first_turn_block(&self) -> Result<(), BotnError> {
        if !self.had_first_turn[self.active.index()] && !self.army_card_this_turn {
            Err(BotnError::FirstTurnArmyCard)
        } else {
            Ok(())
        }
    }

    /// Removing a marker must leave the army at least one on the board.
    fn check_removal(&self, army: ArmyId) -> Result<(), BotnError> {
        if self.markers_on_board(army).count() <= 1 {
            return Err(BotnError::LastMarker { army: self.army_name(army).to_string() });
        }
        Ok(())
    }

    fn movement_card_allows(&self, card: &ActionCard, army: ArmyId) -> bool {
        let unit = self.army_unit(army);
        match card {
            ActionCard::Move(units) => unit == UnitType::All || units.contains(&unit),
            ActionCard::MoveArmy(name) => self.army_name(army) == name,
            _ => false,
        }
    }

    fn check_destination(&self, army: ArmyId, to: SpaceId) -> Result<(), BotnError> {
        if self.army_at(to).is_some() {
            return Err(BotnError::FieldHoldsArmy { field: self.name_of(to) });
        }
        if self.markers_at(to).any(|m| self.markers[m as usize].army == army) {
            return Err(BotnError::FieldHoldsOwnMarker {
                field: self.name_of(to),
                army: self.army_name(army).to_string(),
            });
        }
        Ok(())
    }

    fn check_move(&self, card: &ActionCard, marker: MarkerId, to: SpaceId) -> Result<(ArmyId, SpaceId), BotnError> {
        let (army, from) = self.own_marker(self.active, marker)?;
        if !matches!(card, ActionCard::Move(_) | ActionCard::MoveArmy(_)) {
            return Err(BotnError::WrongCard("movement"));
        }
        if !self.movement_card_allows(card, army) {
            return Err(BotnError::WrongUnit {
                army: self.army_name(army).to_string(),
                unit: self.army_unit(army).name(),
                card: card.title(),
            });
        }
        if to.0 as usize >= self.sc.fields.len() {
            return Err(BotnError::NoSuchThing);
        }
        if !self.sc.graph.adjacent(from, to) {
            return Err(BotnError::NotAdjacent { from: self.name_of(from), to: self.name_of(to) });
        }
        self.check_destination(army, to)?;
        Ok((army, from))
    }

    /// The free villages of an army card (those not holding an army).
    pub fn free_villages(&self, army: ArmyId) -> Vec<SpaceId> {
        self.sc.armies[army as usize].villages.iter().copied().filter(|&v| self.army_at(v).is_none()).collect()
    }

    fn check_army_card(&self, army: ArmyId, skip: &[SpaceId]) -> Result<(), BotnError> {
        let def = &self.sc.armies.get(army as usize).ok_or(BotnError::NoSuchThing)?.def;
        let name = def.name.clone();
        if def.side != self.active {
            return Err(BotnError::NoSuchThing);
        }
        let state = &self.armies[army as usize];
        if state.card_played {
            return Err(BotnError::ArmyCardPlayed { army: name });
        }
        if let Some(d) = self.sc.armies[army as usize].date_index
            && self.time <= d
        {
            return Err(BotnError::TooEarly { army: name, date: self.sc.time[d as usize].label.clone() });
        }
        let free = self.free_villages(army);
        if free.is_empty() {
            return Err(BotnError::NoFreeVillage { army: name });
        }
        // The villages left out are named in the card's order (one choice, one listed action).
        let mut last = None;
        for s in skip {
            let pos = free.iter().position(|f| f == s);
            if pos.is_none() || pos <= last {
                return Err(BotnError::BadSkip { army: name, field: self.field_label(*s) });
            }
            last = pos;
        }
        let have = self.markers_in_supply(army).len();
        let missing = free.len().saturating_sub(have);
        let scouts = self.scouts_in_hand(self.active);
        if skip.len() != missing || missing > scouts {
            return Err(BotnError::NotEnoughMarkers { army: name, needed: free.len(), have, missing, scouts });
        }
        Ok(())
    }

    /// Legal actions of the Actions step, excluding Pass.
    fn push_turn_actions(&self, out: &mut Vec<Action>) {
        let side = self.active;
        if side == Side::French && self.napoleon_done() {
            // Official FAQ: with all his armies placed Napoléon takes no more actions but may still
            // take action cards.
            self.push_draws(out);
            return;
        }
        let first_ok = self.first_turn_block().is_ok();
        // 1. Army cards.
        let scouts = self.scouts_in_hand(side);
        for (i, a) in self.sc.armies.iter().enumerate() {
            let army = i as ArmyId;
            if a.def.side != side || self.armies[i].card_played {
                continue;
            }
            let free = self.free_villages(army);
            let missing = free.len().saturating_sub(self.markers_in_supply(army).len());
            if missing > scouts {
                continue;
            }
            // With missing markers the player chooses which villages to leave out: every choice
            // of `missing` villages among the free ones is listed (at most 4 choose 2).
            for skip in combinations(&free, missing) {
                if self.check_army_card(army, &skip).is_ok() {
                    out.push(Action::LayOutArmyCard { army, skip });
                }
            }
        }
        let hand = &self.hands[side.index()];
        let own_markers: Vec<(MarkerId, ArmyId, SpaceId)> = self
            .markers
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.at.filter(|_| self.army_side(m.army) == side).map(|at| (i as MarkerId, m.army, at)))
            .collect();
        let removable: Vec<(MarkerId, SpaceId)> = own_markers
            .iter()
            .filter(|(_, army, _)| self.markers_on_board(*army).count() > 1)
            .map(|&(m, _, at)| (m, at))
            .collect();
        let mut seen_cards: Vec<&ActionCard> = Vec::new();
        for (hi, hc) in hand.iter().enumerate() {
            let HandCard::Action(card) = *hc else { continue };
            let face = &self.sc.action_cards[card as usize];
            // Identical cards give identical actions: list each face once.
            let first_of_face = !seen_cards.contains(&face);
            seen_cards.push(face);
            match face {
                ActionCard::Time if first_of_face => out.push(Action::PlayTimeCard { card }),
                ActionCard::Terrain(t) if first_ok && first_of_face => {
                    for &(m, at) in &removable {
                        if self.sc.fields[at.0 as usize].terrain == *t {
                            out.push(Action::PlayTerrainCard { card, marker: m });
                        }
                    }
                }
                ActionCard::Move(_) | ActionCard::MoveArmy(_) if first_ok && first_of_face => {
                    for &(m, _, from) in &own_markers {
                        for &to in self.sc.graph.neighbours(from) {
                            if self.check_move(face, m, to).is_ok() {
                                out.push(Action::PlayMovementCard { card, marker: m, to });
                            }
                        }
                    }
                }
                _ => {}
            }
            // Wild cards: a pair of identical cards, listed once per face.
            if first_ok && first_of_face && !matches!(face, ActionCard::Time) {
                let twin = hand.iter().skip(hi + 1).find_map(|c| match *c {
                    HandCard::Action(o) if self.sc.action_cards[o as usize] == *face => Some(o),
                    _ => None,
                });
                if let Some(twin) = twin {
                    let cards = [card, twin];
                    if matches!(face, ActionCard::Terrain(_)) {
                        for &(m, _) in &removable {
                            out.push(Action::PlayWildCard { cards, marker: m, to: None });
                        }
                    } else {
                        for &(m, army, from) in &own_markers {
                            for &to in self.sc.graph.neighbours(from) {
                                if self.check_destination(army, to).is_ok() {
                                    out.push(Action::PlayWildCard { cards, marker: m, to: Some(to) });
                                }
                            }
                        }
                    }
                }
            }
        }
        // 3. (exception) Two movement cards jump a marker over an own army.
        if first_ok {
            self.push_jumps(out);
        }
        // 4. Scout card: remove an own marker.
        if first_ok && scouts > 0 {
            for &(m, _) in &removable {
                out.push(Action::PlayScoutCard { marker: m });
            }
        }
        self.push_draws(out);
    }

    /// 7. Draw an Action Card: each face in the row once, and the blind pile.
    fn push_draws(&self, out: &mut Vec<Action>) {
        let mut seen_up: Vec<&ActionCard> = Vec::new();
        for &c in &self.face_up {
            let face = &self.sc.action_cards[c as usize];
            if !seen_up.contains(&face) {
                seen_up.push(face);
                out.push(Action::DrawFaceUp { card: c });
            }
        }
        if !self.draw_pile.is_empty() || !self.discard.is_empty() {
            out.push(Action::DrawBlind);
        }
    }

    /// Jumps over an own army with two movement cards: for each marker, the first two cards in hand
    /// that move it are offered.
    fn push_jumps(&self, out: &mut Vec<Action>) {
        let side = self.active;
        let movement_cards = self
            .hand_ids(side)
            .filter(|&c| matches!(self.sc.action_cards[c as usize], ActionCard::Move(_) | ActionCard::MoveArmy(_)));
        if movement_cards.take(2).count() < 2 {
            return;
        }
        for (m, ms) in self.markers.iter().enumerate() {
            let (Some(from), army) = (ms.at, ms.army) else { continue };
            if self.army_side(army) != side {
                continue;
            }
            let Some([a, b]) = self.jump_cards(side, army) else { continue };
            for &over in self.sc.graph.neighbours(from) {
                if self.army_at(over).is_none_or(|x| self.army_side(x) != side) {
                    continue;
                }
                for &to in self.sc.graph.neighbours(over) {
                    if to != from && self.check_destination(army, to).is_ok() {
                        out.push(Action::JumpOverArmy { cards: [a, b], marker: m as MarkerId, over, to });
                    }
                }
            }
        }
    }

    // ---- applying ----

    fn take_from_hand(&mut self, side: Side, card: HandCard) {
        let hand = &mut self.hands[side.index()];
        let i = hand.iter().position(|c| *c == card).expect("checked in hand");
        hand.remove(i);
    }

    fn play_card(&mut self, card: CardId, events: &mut Vec<Event>) {
        let side = self.active;
        self.take_from_hand(side, HandCard::Action(card));
        if self.sc.action_cards[card as usize] == ActionCard::Time {
            self.out_of_game.push(card); // "The played card leaves the game."
        } else {
            self.discard.push(card);
        }
        events.push(Event::CardPlayed { side, card });
    }

    fn play_scout(&mut self, events: &mut Vec<Event>) -> bool {
        let side = self.active;
        self.take_from_hand(side, HandCard::Scout);
        self.scout_supply += 1;
        events.push(Event::ScoutPlayed { side });
        self.advance_time(1, events)
    }

    /// Moves the time indicator; returns true when a mission reveal became due (a commit point).
    fn advance_time(&mut self, steps: u8, events: &mut Vec<Event>) -> bool {
        let mut revealed = false;
        for _ in 0..steps {
            if self.time as usize + 1 >= self.sc.time.len() {
                break;
            }
            self.time += 1;
            events.push(Event::TimeAdvanced { to: self.time });
            // "Napoléon must reveal a Mission Card": one of his choice, asked before play goes on.
            if self.sc.time[self.time as usize].reveals_mission
                && ((self.revealed + self.reveals_due) as usize) < self.missions.len()
            {
                self.reveals_due += 1;
                revealed = true;
            }
        }
        revealed
    }

    /// Reveals mission `m`: it moves to the end of the revealed ones, so `missions[..revealed]`
    /// stay the revealed cards in the order they were shown.
    fn reveal_mission(&mut self, m: MissionId, events: &mut Vec<Event>) {
        let i = self.missions.iter().position(|&x| x == m).expect("checked: an unrevealed mission");
        self.missions.swap(self.revealed as usize, i);
        self.revealed += 1;
        self.reveals_due -= 1;
        events.push(Event::MissionRevealed { mission: m });
    }

    fn move_marker(&mut self, marker: MarkerId, to: SpaceId, events: &mut Vec<Event>) {
        let m = &mut self.markers[marker as usize];
        let from = m.at.replace(to).expect("a checked move starts on the board");
        events.push(Event::MarkerMoved { army: m.army, from, to });
    }

    fn remove_marker(&mut self, marker: MarkerId, events: &mut Vec<Event>) {
        let m = &mut self.markers[marker as usize];
        let field = m.at.take().expect("on the board");
        m.removed = true;
        events.push(Event::MarkerRemoved { army: m.army, field });
    }

    /// Place armies: every army down to one marker becomes the army on that field, clearing it;
    /// repeated until none is left (the cascade may place the other side's armies too).
    /// When two armies have their last marker on the same field, only one may be placed there
    /// ("Only one Army may be placed on each field"): the active player, who checks the cascade,
    /// chooses which (`Step::PlaceArmy`); the other's last marker is cleared with the field.
    fn place_armies(&mut self, events: &mut Vec<Event>) -> bool {
        let mut commit = false;
        loop {
            let due = self.armies_due();
            let Some(&(army, field)) = due.first() else { break };
            let rivals: Vec<ArmyId> = due.iter().filter(|(_, f)| *f == field).map(|(a, _)| *a).collect();
            if rivals.len() > 1 {
                self.placing = rivals;
                self.step = Step::PlaceArmy;
                return true;
            }
            commit |= self.place_army(army, field, events);
        }
        if !self.pending_units.is_empty() {
            self.step = Step::ChooseUnit;
        }
        commit
    }

    /// Armies down to their last marker on the board, with its field, in army order.
    fn armies_due(&self) -> Vec<(ArmyId, SpaceId)> {
        (0..self.armies.len() as ArmyId)
            .filter(|&a| {
                let s = &self.armies[a as usize];
                s.card_played && s.at.is_none() && !s.eliminated && self.markers_on_board(a).count() == 1
            })
            .map(|a| (a, self.markers_on_board(a).next().expect("one marker").1))
            .collect()
    }

    /// Exchanges `army`'s last marker on `field` for the army: the field is cleared, points, a
    /// scout card and time for an own army; armies left with no marker go out of play.
    fn place_army(&mut self, army: ArmyId, field: SpaceId, events: &mut Vec<Event>) -> bool {
        let mut commit = false;
        let cleared: Vec<MarkerId> = self.markers_at(field).collect();
        for &m in &cleared {
            let ms = &mut self.markers[m as usize];
            ms.at = None;
            ms.removed = true;
        }
        self.armies[army as usize].at = Some(field);
        let side = self.army_side(army);
        let own = side == self.active;
        let mut scout = false;
        if own {
            self.vp[side.index()] = (self.vp[side.index()] + 1).min(self.sc.victory_points);
            if self.scout_supply > 0 {
                self.scout_supply -= 1;
                self.hands[side.index()].push(HandCard::Scout);
                scout = true;
            }
        }
        events.push(Event::ArmyPlaced { army, field, cleared: cleared.len() as u8, own, scout });
        if own {
            commit |= self.advance_time(1, events);
        }
        if self.sc.armies[army as usize].def.unit == UnitType::All {
            self.pending_units.push(army);
        }
        // An army whose last markers were all cleared away can never be placed: out of play.
        for a in 0..self.armies.len() as ArmyId {
            let s = &self.armies[a as usize];
            if s.card_played && s.at.is_none() && !s.eliminated && self.markers_on_board(a).count() == 0 {
                self.armies[a as usize].eliminated = true;
                events.push(Event::ArmyLost { army: a });
            }
        }
        commit
    }

    fn draw_blind(&mut self, side: Side, events: &mut Vec<Event>) {
        if self.draw_pile.is_empty() {
            self.reshuffle(events);
        }
        if let Some(card) = self.draw_pile.pop() {
            self.hands[side.index()].push(HandCard::Action(card));
            events.push(Event::DrewBlind { side, card });
        }
    }

    fn reshuffle(&mut self, events: &mut Vec<Event>) {
        let mut cards = std::mem::take(&mut self.discard);
        self.rng.shuffle(&mut cards);
        events.push(Event::Reshuffled { cards: cards.len() as u8 });
        self.draw_pile = cards;
    }

    /// After an action: the turn ends when its five actions are spent and nothing is pending.
    fn after_action(&mut self, events: &mut Vec<Event>) -> bool {
        if self.step != Step::Actions || self.actions_left > 0 {
            return false;
        }
        self.end_turn(events)
    }

    fn end_turn(&mut self, events: &mut Vec<Event>) -> bool {
        let mut commit = false;
        // Official FAQ: Napoléon with all his armies placed advances the time indicator one space,
        // "if 19.10. has not been reached".
        if self.active == Side::French && self.napoleon_done() && (self.time as usize) < self.sc.last_date_index() {
            events.push(Event::NapoleonWaits);
            commit |= self.advance_time(1, events);
        }
        // The open Action Cards are replenished at the end of a player's turn.
        while self.face_up.len() < FACE_UP {
            if self.draw_pile.is_empty() {
                if self.discard.is_empty() {
                    break;
                }
                self.reshuffle(events);
            }
            let Some(card) = self.draw_pile.pop() else { break };
            self.face_up.push(card);
        }
        if self.hand_size(self.active) > HAND_LIMIT {
            self.step = Step::Discard;
            return true;
        }
        self.finish_turn(events) | commit
    }

    /// The rest of the end of a turn, after the hand limit: fights that are due, then the end of
    /// the game or the other player's turn.
    fn finish_turn(&mut self, events: &mut Vec<Event>) -> bool {
        self.had_first_turn[self.active.index()] = true;
        while let Some(date) = self.fight_due() {
            self.fights_done += 1;
            self.begin_fight(date, events);
            if !self.hits.is_empty() {
                self.step = Step::Fight;
                return true;
            }
            self.resolve_fight(events);
        }
        if self.past_last_date() {
            events.push(Event::GameEnded);
            self.begin_scoring(events);
            return true;
        }
        if self.took_face_up {
            self.stale_row_turns = 0;
        } else {
            self.stale_row_turns = self.stale_row_turns.saturating_add(1);
        }
        self.took_face_up = false;
        self.active = self.active.other();
        if self.active == Side::French {
            self.turn += 1;
        }
        self.actions_left = ACTIONS_PER_TURN;
        self.army_card_this_turn = false;
        self.step = Step::Actions;
        events.push(Event::TurnBegan { side: self.active, turn: self.turn });
        true // the hand-over to the other seat is a commit point
    }

    // ---- fights ----

    /// The label of the next fight date if the time indicator has reached or passed it.
    fn fight_due(&self) -> Option<String> {
        let (i, space) = self.sc.time.iter().enumerate().filter(|(_, t)| t.fight).nth(self.fights_done as usize)?;
        (self.time as usize >= i).then(|| space.label.clone())
    }

    /// Every placed army touching an enemy deals one point: straight to the enemy when it touches
    /// one, held as a `Hit` for the defender to allocate when it touches several.
    fn begin_fight(&mut self, date: String, events: &mut Vec<Event>) {
        self.damage = vec![0; self.armies.len()];
        self.hits.clear();
        let involved = (0..self.armies.len() as ArmyId).filter(|&a| !self.enemies_touching(a).is_empty()).count();
        events.push(Event::FightBegan { date, armies: involved as u8 });
        for attacker in 0..self.armies.len() as ArmyId {
            let targets = self.enemies_touching(attacker);
            match targets.as_slice() {
                [] => {}
                [target] => {
                    self.damage[*target as usize] += 1;
                    events.push(Event::Hit { attacker, target: *target, chosen: false });
                }
                _ => self.hits.push(Hit { attacker, targets }),
            }
        }
    }

    /// Losses are taken together once every hit is allocated: the first point flips the army, each
    /// further point is a "-1" chip; below strength one the army leaves the board.
    fn resolve_fight(&mut self, events: &mut Vec<Event>) {
        for army in 0..self.armies.len() as ArmyId {
            let points = self.damage[army as usize];
            if points == 0 {
                continue;
            }
            let st = &mut self.armies[army as usize];
            st.strength -= points as i8;
            for _ in 0..points {
                if !st.flipped {
                    st.flipped = true;
                } else {
                    // The separate chips, then the "-1" backs of the army's own troop markers.
                    st.chips += 1;
                    self.minus_one_supply = self.minus_one_supply.saturating_sub(1);
                }
            }
            let (strength, flipped, chips) = (st.strength, st.flipped, st.chips);
            events.push(Event::ArmyDamaged { army, points, strength, flipped, chips });
            if strength < 1 {
                let st = &mut self.armies[army as usize];
                let field = st.at.take().expect("only placed armies fight");
                st.eliminated = true;
                self.minus_one_supply = (self.minus_one_supply + st.chips).min(self.sc.minus_one_chips);
                events.push(Event::ArmyRemoved { army, field });
            }
        }
        self.damage.clear();
        events.push(Event::FightEnded);
    }

    // ---- final scoring ----

    /// The army on each revealed mission field, if it is French.
    fn mission_armies(&self) -> Vec<ArmyId> {
        self.revealed_mission_fields()
            .iter()
            .filter_map(|&(_, f)| self.army_at(f))
            .filter(|&a| self.army_side(a) == Side::French)
            .collect()
    }

    /// The mission armies `army` may count for: an Allied army for each one it touches; a French
    /// army for each one it touches when an Allied army touches both (official FAQ).
    pub fn mission_options(&self, army: ArmyId) -> Vec<ArmyId> {
        let missions = self.mission_armies();
        if missions.contains(&army) || self.armies[army as usize].at.is_none() {
            return Vec::new();
        }
        let touching = self.enemies_touching(army);
        match self.army_side(army) {
            Side::Allied => missions.into_iter().filter(|m| touching.contains(m)).collect(),
            Side::French => {
                let Some(at) = self.armies[army as usize].at else { return Vec::new() };
                missions
                    .into_iter()
                    .filter(|&m| {
                        let m_at = self.armies[m as usize].at.expect("on its field");
                        self.sc.graph.adjacent(at, m_at)
                            && touching.iter().any(|&c| self.enemies_touching(c).contains(&m))
                    })
                    .collect()
            }
        }
    }

    /// Scoring begins: unambiguous armies are counted at once, Napoléon's choices come first, then
    /// Schwarzenberg's.
    fn begin_scoring(&mut self, events: &mut Vec<Event>) {
        self.assigned = vec![None; self.armies.len()];
        self.score_choices.clear();
        for side in [Side::French, Side::Allied] {
            for army in 0..self.armies.len() as ArmyId {
                if self.army_side(army) != side {
                    continue;
                }
                let options = self.mission_options(army);
                match options.as_slice() {
                    [] => {}
                    [one] => {
                        self.assigned[army as usize] = Some(*one);
                        events.push(Event::Assigned { army, mission_army: *one, chosen: false });
                    }
                    _ => self.score_choices.push(ScoreChoice { army, options }),
                }
            }
        }
        if self.score_choices.is_empty() {
            self.score(events);
        } else {
            self.step = Step::Scoring;
        }
    }

    /// Compares the combat values mission by mission and moves the cannons on the victory point bar.
    fn score(&mut self, events: &mut Vec<Event>) {
        self.results.clear();
        for (mission, field) in self.revealed_mission_fields() {
            let army = self.army_at(field).filter(|&a| self.army_side(a) == Side::French);
            let counted = |side: Side| -> Vec<ArmyId> {
                (0..self.armies.len() as ArmyId)
                    .filter(|&a| self.army_side(a) == side && army.is_some() && self.assigned[a as usize] == army)
                    .collect()
            };
            let (support, opponents) = (counted(Side::French), counted(Side::Allied));
            let french: i16 = army.iter().chain(&support).map(|&a| self.combat_value(a)).sum();
            let allied: i16 = opponents.iter().map(|&a| self.combat_value(a)).sum();
            // Without a French army on the field the mission is lost ("also applies if there is
            // no French Army at all on the mission field"); a tie goes to Napoléon.
            let fulfilled = army.is_some() && french >= allied;
            let def = &self.sc.missions[mission as usize].def;
            let max = self.sc.victory_points;
            if fulfilled {
                self.vp[0] = (self.vp[0] + def.french).min(max);
            } else {
                self.vp[1] = (self.vp[1] + def.allied).min(max);
            }
            let result = MissionResult { mission, army, support, opponents, french, allied, fulfilled };
            events.push(Event::MissionScored(result.clone()));
            self.results.push(result);
        }
        events.push(Event::FinalScore { french: self.vp[0], allied: self.vp[1] });
        self.step = Step::GameOver;
    }

    /// Alternative conditions to win, after the return game: the side of this game whose player
    /// scored more as Napoléon (this game's Allied player was Napoléon in the first); None on a tie.
    pub fn match_winner(&self) -> Option<Option<Side>> {
        let first = self.grey_cannon?;
        if !self.is_over() {
            return None;
        }
        let now = self.vp[Side::French.index()];
        Some(match now.cmp(&first) {
            std::cmp::Ordering::Greater => Some(Side::French),
            std::cmp::Ordering::Less => Some(Side::Allied),
            std::cmp::Ordering::Equal => None,
        })
    }

    fn apply_sandbox(&mut self, s: &SandboxAction, seat: SeatId, events: &mut Vec<Event>) -> bool {
        match *s {
            SandboxAction::MoveMarker { marker, to } => {
                let m = &mut self.markers[marker as usize];
                m.at = to;
                m.removed = false;
            }
            SandboxAction::MoveArmy { army, to } => self.armies[army as usize].at = to,
            SandboxAction::FlipArmy { army } => {
                let a = &mut self.armies[army as usize];
                a.flipped = !a.flipped;
                a.strength += if a.flipped { -1 } else { 1 };
            }
            SandboxAction::DrawBlind => self.draw_blind(side_of(seat), events),
            SandboxAction::MoveTime { to } => self.time = to,
        }
        events.push(Event::Sandbox(s.clone()));
        matches!(s, SandboxAction::DrawBlind)
    }
}

impl Game for Botn {
    type Action = Action;
    type Event = Event;
    type Error = BotnError;
    type View = super::observe::BotnView;

    const ID: &'static str = super::data::GAME_ID;

    fn scenario(&self) -> crate::engine::save::ScenarioRef {
        crate::engine::save::ScenarioRef {
            name: self.sc.name.clone(),
            path: self.sc.path.clone(),
            hash: self.sc.hash.clone(),
        }
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &["Napoléon (French)", "Schwarzenberg (Allied)"]
    }

    fn active_seat(&self) -> Option<SeatId> {
        if self.reveals_due > 0 {
            return Some(seat_of(Side::French));
        }
        match self.step {
            Step::GameOver => None,
            Step::MissionDraft => Some(seat_of(Side::French)),
            Step::ChooseUnit => self.pending_units.first().map(|&a| seat_of(self.army_side(a))),
            // The defender allocates the damage his armies take.
            Step::Fight => self.hits.first().map(|h| seat_of(self.army_side(h.attacker).other())),
            Step::Scoring => self.score_choices.first().map(|c| seat_of(self.army_side(c.army))),
            _ => Some(seat_of(self.active)),
        }
    }

    fn legal_actions(&self, _mode: Mode, out: &mut Vec<Action>) {
        out.clear();
        if self.reveals_due > 0 {
            out.extend(self.missions[self.revealed as usize..].iter().map(|&m| Action::RevealMission(m)));
            return;
        }
        match self.step {
            Step::GameOver => {}
            Step::MissionDraft => {
                if self.draft_pair.is_empty() {
                    for d in District::ALL {
                        if !self.drafted.contains(&d) && !self.mission_piles[district_index(d)].is_empty() {
                            out.push(Action::DraftDistrict(d));
                        }
                    }
                } else {
                    out.extend(self.draft_pair.iter().map(|&m| Action::KeepMission(m)));
                }
            }
            Step::PlaceArmy => out.extend(self.placing.iter().map(|&army| Action::PlaceArmy { army })),
            Step::ChooseUnit => {
                let army = self.pending_units[0];
                for unit in [UnitType::Infantry, UnitType::Cavalry, UnitType::Artillery] {
                    out.push(Action::ChooseUnit { army, unit });
                }
            }
            Step::Discard => {
                let mut seen = Vec::new();
                for &c in &self.hands[self.active.index()] {
                    let key = match c {
                        HandCard::Action(id) => Some(&self.sc.action_cards[id as usize]),
                        HandCard::Scout => None,
                    };
                    if !seen.contains(&key) {
                        seen.push(key);
                        out.push(Action::Discard(c));
                    }
                }
            }
            Step::Fight => {
                let hit = &self.hits[0];
                out.extend(hit.targets.iter().map(|&target| Action::AllocateHit { attacker: hit.attacker, target }));
            }
            Step::Scoring => {
                let c = &self.score_choices[0];
                out.extend(c.options.iter().map(|&m| Action::AssignToMission { army: c.army, mission_army: m }));
            }
            Step::Actions => {
                self.push_turn_actions(out);
                if self.row_is_stale() {
                    out.push(Action::SwapFaceUp);
                }
                if out.is_empty() || self.may_pass() {
                    out.push(Action::Pass);
                }
            }
        }
    }

    fn check(&self, mode: Mode, seat: SeatId, action: &Action) -> Result<(), BotnError> {
        if let Action::Sandbox(s) = action {
            if mode != Mode::Sandbox {
                return Err(BotnError::SandboxOnly);
            }
            let ok = match *s {
                SandboxAction::MoveMarker { marker, to } => {
                    (marker as usize) < self.markers.len() && to.is_none_or(|t| (t.0 as usize) < self.sc.fields.len())
                }
                SandboxAction::MoveArmy { army, to } => {
                    (army as usize) < self.armies.len() && to.is_none_or(|t| (t.0 as usize) < self.sc.fields.len())
                }
                SandboxAction::FlipArmy { army } => (army as usize) < self.armies.len(),
                SandboxAction::DrawBlind => !self.draw_pile.is_empty() || !self.discard.is_empty(),
                SandboxAction::MoveTime { to } => (to as usize) < self.sc.time.len(),
            };
            return if ok { Ok(()) } else { Err(BotnError::NoSuchThing) };
        }
        let Some(active_seat) = self.active_seat() else { return Err(BotnError::GameOver) };
        if seat != active_seat {
            return Err(BotnError::NotYourTurn { active: self.seat_names()[active_seat.0 as usize] });
        }
        // A reveal that is due comes before any other decision.
        match action {
            Action::RevealMission(m) if self.reveals_due > 0 && self.missions[self.revealed as usize..].contains(m) => {
                return Ok(());
            }
            Action::RevealMission(_) => return Err(BotnError::NotHiddenMission),
            _ if self.reveals_due > 0 => {
                let now = "Napoléon must first reveal a mission card of his choice";
                return Err(BotnError::WrongStep { wanted: "that", now });
            }
            _ => {}
        }
        let step_name = match self.step {
            Step::PlaceArmy => "the active player chooses which army is placed on the shared field",
            Step::MissionDraft => "Napoléon is choosing his missions",
            Step::Actions => "the active player is taking actions",
            Step::ChooseUnit => "a placed army's unit type must be chosen first",
            Step::Discard => "the hand must be discarded down to 8 cards first",
            Step::Fight => "the fight's damage is being allocated",
            Step::Scoring => "the final scoring is being decided",
            Step::GameOver => "the game is over",
        };
        let wrong = |wanted: &'static str| BotnError::WrongStep { wanted, now: step_name };
        let side = self.active;
        match action {
            Action::DraftDistrict(d) => {
                if self.step != Step::MissionDraft || !self.draft_pair.is_empty() {
                    return Err(wrong("choosing a district"));
                }
                if self.drafted.contains(d) || self.mission_piles[district_index(*d)].is_empty() {
                    return Err(BotnError::DistrictUsed(*d));
                }
            }
            Action::KeepMission(m) => {
                if self.step != Step::MissionDraft || self.draft_pair.is_empty() {
                    return Err(wrong("keeping a mission card"));
                }
                if !self.draft_pair.contains(m) {
                    return Err(BotnError::NotInDraft);
                }
            }
            Action::PlaceArmy { army } => {
                if self.step != Step::PlaceArmy {
                    return Err(wrong("choosing the army placed"));
                }
                if !self.placing.contains(army) {
                    return Err(BotnError::NotPlacing { army: self.army_label(*army) });
                }
            }
            Action::RevealMission(_) => unreachable!("handled above"),
            Action::ChooseUnit { army, unit } => {
                if self.step != Step::ChooseUnit {
                    return Err(wrong("choosing a unit type"));
                }
                if self.pending_units.first() != Some(army) || *unit == UnitType::All {
                    return Err(BotnError::BadUnitChoice { army: self.army_label(*army), unit: unit.name() });
                }
            }
            Action::AllocateHit { attacker, target } => {
                if self.step != Step::Fight {
                    return Err(wrong("allocating a fight's damage"));
                }
                let hit = &self.hits[0];
                if hit.attacker != *attacker || !hit.targets.contains(target) {
                    return Err(BotnError::BadHit {
                        attacker: self.army_label(*attacker),
                        target: self.army_label(*target),
                    });
                }
            }
            Action::AssignToMission { army, mission_army } => {
                if self.step != Step::Scoring {
                    return Err(wrong("assigning an army at the final scoring"));
                }
                let c = &self.score_choices[0];
                if c.army != *army || !c.options.contains(mission_army) {
                    return Err(BotnError::BadAssignment { army: self.army_label(*army) });
                }
            }
            Action::SetGreyCannon { french_points } => {
                let fresh = self.step == Step::MissionDraft && self.drafted.is_empty() && self.draft_pair.is_empty();
                if !fresh || self.grey_cannon.is_some() || *french_points > self.sc.victory_points {
                    return Err(BotnError::GreyCannon { max: self.sc.victory_points });
                }
            }
            Action::Discard(card) => {
                if self.step != Step::Discard {
                    return Err(wrong("discarding"));
                }
                if !self.hand_has(side, *card) {
                    return Err(BotnError::NotInHand);
                }
                if let HandCard::Action(c) = card {
                    self.first_of_face(side, &[*c])?;
                }
            }
            _ if self.step != Step::Actions => return Err(wrong("an action")),
            // Official FAQ: with all his armies placed Napoléon only takes action cards.
            Action::DrawFaceUp { .. } | Action::DrawBlind | Action::Pass | Action::SwapFaceUp => {}
            _ if side == Side::French && self.napoleon_done() => return Err(BotnError::NapoleonOnlyDraws),
            _ => {}
        }
        match action {
            Action::LayOutArmyCard { army, skip } => self.check_army_card(*army, skip)?,
            Action::PlayTerrainCard { card, marker } => {
                self.first_turn_block()?;
                if !self.hand_has(side, HandCard::Action(*card)) {
                    return Err(BotnError::NotInHand);
                }
                let ActionCard::Terrain(t) = self.card(*card)? else { return Err(BotnError::WrongCard("terrain")) };
                let (army, at) = self.own_marker(side, *marker)?;
                let field = &self.sc.fields[at.0 as usize];
                if field.terrain != *t {
                    return Err(BotnError::WrongTerrain {
                        field: field.name.clone(),
                        terrain: field.terrain.name(),
                        card_terrain: t.name(),
                    });
                }
                self.check_removal(army)?;
                self.first_of_face(side, &[*card])?;
            }
            Action::PlayMovementCard { card, marker, to } => {
                self.first_turn_block()?;
                if !self.hand_has(side, HandCard::Action(*card)) {
                    return Err(BotnError::NotInHand);
                }
                self.check_move(self.card(*card)?, *marker, *to)?;
                self.first_of_face(side, &[*card])?;
            }
            Action::JumpOverArmy { cards, marker, over, to } => {
                self.first_turn_block()?;
                if cards[0] == cards[1] || !cards.iter().all(|c| self.hand_has(side, HandCard::Action(*c))) {
                    return Err(BotnError::NotInHand);
                }
                let (army, from) = self.own_marker(side, *marker)?;
                for c in cards {
                    let face = self.card(*c)?;
                    if !self.movement_card_allows(face, army) {
                        return Err(BotnError::WrongUnit {
                            army: self.army_name(army).to_string(),
                            unit: self.army_unit(army).name(),
                            card: face.title(),
                        });
                    }
                }
                let over_ok = (over.0 as usize) < self.sc.fields.len()
                    && self.sc.graph.adjacent(from, *over)
                    && self.army_at(*over).is_some_and(|a| self.army_side(a) == side);
                if !over_ok {
                    return Err(BotnError::JumpNotOverOwnArmy);
                }
                if (to.0 as usize) >= self.sc.fields.len() || !self.sc.graph.adjacent(*over, *to) || *to == from {
                    return Err(BotnError::NotAdjacent { from: self.name_of(*over), to: self.field_label(*to) });
                }
                self.check_destination(army, *to)?;
                if self.jump_cards(side, army) != Some(*cards) {
                    return Err(BotnError::NotFirstOfFace { face: self.card(cards[0])?.title() });
                }
            }
            Action::PlayScoutCard { marker } => {
                self.first_turn_block()?;
                if self.scouts_in_hand(side) == 0 {
                    return Err(BotnError::NoScoutCard);
                }
                let (army, _) = self.own_marker(side, *marker)?;
                self.check_removal(army)?;
            }
            Action::PlayWildCard { cards, marker, to } => {
                self.first_turn_block()?;
                if cards[0] == cards[1] || !cards.iter().all(|c| self.hand_has(side, HandCard::Action(*c))) {
                    return Err(BotnError::NotInHand);
                }
                let (a, b) = (self.card(cards[0])?, self.card(cards[1])?);
                if a != b || *a == ActionCard::Time {
                    return Err(BotnError::NotIdentical);
                }
                let (army, from) = self.own_marker(side, *marker)?;
                match (a, to) {
                    (ActionCard::Terrain(_), None) => self.check_removal(army)?,
                    (ActionCard::Move(_) | ActionCard::MoveArmy(_), Some(to)) => {
                        if (to.0 as usize) >= self.sc.fields.len() || !self.sc.graph.adjacent(from, *to) {
                            return Err(BotnError::NotAdjacent { from: self.name_of(from), to: self.field_label(*to) });
                        }
                        self.check_destination(army, *to)?;
                    }
                    _ => return Err(BotnError::WrongCard("wild")),
                }
                self.first_of_face(side, cards)?;
            }
            Action::PlayTimeCard { card } => {
                if !self.hand_has(side, HandCard::Action(*card)) {
                    return Err(BotnError::NotInHand);
                }
                if *self.card(*card)? != ActionCard::Time {
                    return Err(BotnError::WrongCard("time"));
                }
                self.first_of_face(side, &[*card])?;
            }
            Action::DrawFaceUp { card } => {
                if !self.face_up.contains(card) {
                    return Err(BotnError::NotFaceUp);
                }
                if self.same_face(self.face_up.iter().copied(), *card).next() != Some(*card) {
                    return Err(BotnError::NotFirstOfFace { face: self.card(*card)?.title() });
                }
            }
            Action::DrawBlind if self.draw_pile.is_empty() && self.discard.is_empty() => {
                return Err(BotnError::NothingToDraw);
            }
            Action::Pass => {
                let mut others = Vec::new();
                self.push_turn_actions(&mut others);
                if !others.is_empty() && !self.may_pass() {
                    return Err(BotnError::CannotPass);
                }
            }
            Action::SwapFaceUp if !self.row_is_stale() => return Err(BotnError::RowNotStale),
            _ => {} // checked above, or nothing to check
        }
        Ok(())
    }

    fn apply(&mut self, seat: SeatId, action: &Action, events: &mut Vec<Event>) -> bool {
        let side = self.active;
        let mut commit = false;
        let mut spends_action = true;
        match action {
            Action::Sandbox(s) => return self.apply_sandbox(s, seat, events),
            Action::DraftDistrict(d) => {
                let pile = &mut self.mission_piles[district_index(*d)];
                let second = pile.pop().expect("checked non-empty");
                let first_i = self
                    .missions
                    .iter()
                    .position(|&m| self.sc.missions[m as usize].def.district == *d)
                    .expect("one per district");
                let first = self.missions.remove(first_i);
                self.draft_pair = vec![first, second];
                self.drafted.push(*d);
                events.push(Event::SecondMission { district: *d });
                return true; // a card drawn
            }
            Action::KeepMission(m) => {
                let district = self.sc.missions[*m as usize].def.district;
                self.missions.push(*m);
                self.draft_pair.clear();
                events.push(Event::MissionKept { district });
                let piles_left = District::ALL
                    .iter()
                    .filter(|d| !self.drafted.contains(d) && !self.mission_piles[district_index(**d)].is_empty())
                    .count();
                if self.drafted.len() == 2 || piles_left == 0 {
                    // The left-over mission cards are removed from the game; play begins.
                    self.mission_piles.iter_mut().for_each(Vec::clear);
                    self.step = Step::Actions;
                    events.push(Event::TurnBegan { side: Side::French, turn: 1 });
                    return true;
                }
                return false;
            }
            Action::RevealMission(m) => {
                self.reveal_mission(*m, events);
                return true; // a reveal
            }
            Action::PlaceArmy { army } => {
                let (_, field) = self.markers_on_board(*army).next().expect("checked: down to one marker");
                self.placing.clear();
                self.step = Step::Actions;
                commit |= self.place_army(*army, field, events);
                commit |= self.place_armies(events);
                if self.step == Step::Actions {
                    commit |= self.after_action(events);
                }
                return commit;
            }
            Action::ChooseUnit { army, unit } => {
                self.armies[*army as usize].chosen_unit = Some(*unit);
                self.pending_units.remove(0);
                events.push(Event::UnitChosen { army: *army, unit: *unit });
                if self.pending_units.is_empty() {
                    self.step = Step::Actions;
                    commit |= self.after_action(events);
                }
                return commit;
            }
            Action::Discard(card) => {
                self.take_from_hand(side, *card);
                match card {
                    HandCard::Action(c) => self.discard.push(*c),
                    HandCard::Scout => self.scout_supply += 1,
                }
                events.push(Event::Discarded { side, card: *card });
                if self.hand_size(side) <= HAND_LIMIT {
                    self.step = Step::Actions;
                    return self.finish_turn(events);
                }
                return false;
            }
            Action::AllocateHit { attacker, target } => {
                self.hits.remove(0);
                self.damage[*target as usize] += 1;
                events.push(Event::Hit { attacker: *attacker, target: *target, chosen: true });
                if !self.hits.is_empty() {
                    return false;
                }
                self.resolve_fight(events);
                self.step = Step::Actions;
                return self.finish_turn(events);
            }
            Action::AssignToMission { army, mission_army } => {
                self.score_choices.remove(0);
                self.assigned[*army as usize] = Some(*mission_army);
                events.push(Event::Assigned { army: *army, mission_army: *mission_army, chosen: true });
                if self.score_choices.is_empty() {
                    self.score(events);
                    return true;
                }
                return false;
            }
            Action::SetGreyCannon { french_points } => {
                self.grey_cannon = Some(*french_points);
                events.push(Event::GreyCannonSet { french_points: *french_points });
                return false;
            }
            Action::SwapFaceUp => {
                // The four face-up cards go to the discards; four new ones are dealt (a reveal).
                let old = std::mem::take(&mut self.face_up);
                self.discard.extend(old);
                for _ in 0..FACE_UP {
                    if self.draw_pile.is_empty() {
                        self.reshuffle(events);
                    }
                    if let Some(c) = self.draw_pile.pop() {
                        self.face_up.push(c);
                    }
                }
                self.stale_row_turns = 0;
                events.push(Event::FaceUpSwapped);
                return true;
            }
            Action::LayOutArmyCard { army, skip } => {
                for _ in skip {
                    commit |= self.play_scout(events);
                }
                let free = self.free_villages(*army);
                let supply = self.markers_in_supply(*army);
                let fields: Vec<SpaceId> = free.into_iter().filter(|f| !skip.contains(f)).collect();
                for (&m, &f) in supply.iter().zip(&fields) {
                    self.markers[m as usize].at = Some(f);
                }
                self.armies[*army as usize].card_played = true;
                self.army_card_this_turn = true;
                events.push(Event::ArmyCardLaidOut { army: *army, fields, scouts: skip.len() as u8 });
                commit |= self.place_armies(events);
            }
            Action::PlayTerrainCard { card, marker } => {
                self.play_card(*card, events);
                self.remove_marker(*marker, events);
                commit |= self.place_armies(events);
            }
            Action::PlayMovementCard { card, marker, to } => {
                self.play_card(*card, events);
                self.move_marker(*marker, *to, events);
                commit |= self.advance_time(1, events);
            }
            Action::JumpOverArmy { cards, marker, to, .. } => {
                self.play_card(cards[0], events);
                self.play_card(cards[1], events);
                self.move_marker(*marker, *to, events);
                commit |= self.advance_time(2, events);
            }
            Action::PlayScoutCard { marker } => {
                commit |= self.play_scout(events);
                self.remove_marker(*marker, events);
                commit |= self.place_armies(events);
            }
            Action::PlayWildCard { cards, marker, to } => {
                self.play_card(cards[0], events);
                self.play_card(cards[1], events);
                match to {
                    Some(to) => {
                        self.move_marker(*marker, *to, events);
                        commit |= self.advance_time(1, events); // only one point for the pair
                    }
                    None => {
                        self.remove_marker(*marker, events);
                        commit |= self.place_armies(events);
                    }
                }
            }
            Action::PlayTimeCard { card } => {
                self.play_card(*card, events);
                commit |= self.advance_time(1, events);
            }
            Action::DrawFaceUp { card } => {
                self.took_face_up = true;
                self.face_up.retain(|c| c != card);
                self.hands[side.index()].push(HandCard::Action(*card));
                events.push(Event::DrewFaceUp { side, card: *card });
            }
            Action::DrawBlind => {
                self.draw_blind(side, events);
                commit = true; // a hidden card drawn
            }
            Action::Pass => {
                events.push(Event::Passed { side });
                self.actions_left = 0;
                spends_action = false;
            }
        }
        if spends_action {
            self.actions_left -= 1;
        }
        commit |= self.after_action(events);
        commit
    }

    fn observe(&self, viewer: crate::engine::seats::Viewer) -> Self::View {
        self.view_for(viewer)
    }

    fn rng(&mut self) -> &mut TableRng {
        &mut self.rng
    }

    fn is_over(&self) -> bool {
        self.step == Step::GameOver
    }

    fn winner(&self) -> Option<SeatId> {
        if !self.is_over() {
            return None;
        }
        // "Napoléon wins the game if he has more points than Schwarzenberg."
        Some(if self.vp[Side::French.index()] > self.vp[Side::Allied.index()] {
            seat_of(Side::French)
        } else {
            seat_of(Side::Allied)
        })
    }
}
