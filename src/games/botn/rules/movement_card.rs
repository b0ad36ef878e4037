//! Action 3, Play a Movement Card: an own troop marker of the card's unit (or army) moves to an adjacent
//! field without an army or a marker of its own army, and the time indicator advances; the
//! exception — two movement cards jump a marker over an own army, advancing time two spaces.

use super::*;

/// What the turn's legal list reads of the armies and markers, read in one pass over each (it
/// asks of every neighbour of every marker, once per card: reading them again each time was most
/// of its time): who holds each field (the army on it, and a bit per field and army for the
/// armies with a marker on it), each army's markers in its supply, and the active side's markers
/// on the board.
pub(super) struct Holders {
    // On the stack for the shipped map (about 60 fields, 19 armies, 53 markers): allocating
    // these vectors was a tenth of the list's time.
    army: smallvec::SmallVec<[Option<ArmyId>; 96]>,
    markers: smallvec::SmallVec<[u64; 32]>,
    armies: usize,
    /// Each army's markers in its supply (`supply_count`); army numbers stay below 128.
    pub(super) supply: [u8; 128],
    /// Each army's markers on the board.
    pub(super) on_board: [u8; 128],
    /// The active side's markers on the board: marker, army, field.
    pub(super) own: smallvec::SmallVec<[(MarkerId, ArmyId, SpaceId); 64]>,
}

impl Holders {
    /// The fields' holders as slices, read in the inner loops without asking each time whether
    /// the vectors left the stack.
    pub(super) fn held(&self) -> Held<'_> {
        Held { army: &self.army, markers: &self.markers, armies: self.armies }
    }
}

/// Who holds each field (`Holders`).
#[derive(Clone, Copy)]
pub(super) struct Held<'a> {
    army: &'a [Option<ArmyId>],
    markers: &'a [u64],
    armies: usize,
}

impl Held<'_> {
    /// The army on a field.
    pub(super) fn army_on(self, field: SpaceId) -> Option<ArmyId> {
        self.army[field.0 as usize]
    }

    /// What `destination_free` answers: no army on `to`, and no marker of `army`.
    pub(super) fn free_for(self, army: ArmyId, to: SpaceId) -> bool {
        let i = to.0 as usize * self.armies + army as usize;
        self.army[to.0 as usize].is_none() && self.markers[i / 64] & (1 << (i % 64)) == 0
    }
}

impl Botn {
    pub(super) fn movement_card_allows(&self, card: &ActionCard, army: ArmyId) -> bool {
        let unit = self.army_unit(army);
        match card {
            ActionCard::Move(units) => unit == UnitType::All || units.contains(&unit),
            ActionCard::MoveArmy(name) => self.army_name(army) == name,
            _ => false,
        }
    }

    /// Whether `army`'s marker may end on `to`: no army there, no marker of its own army. The
    /// legal lists ask this of every neighbour; `check_destination` says why not.
    pub(super) fn destination_free(&self, army: ArmyId, to: SpaceId) -> bool {
        self.army_at(to).is_none() && !self.markers_at(to).any(|m| self.markers[m as usize].army == army)
    }

    /// The armies and markers as the turn's legal list reads them (`Holders`), for `side`.
    pub(super) fn holders(&self, side: Side) -> Holders {
        let armies = self.armies.len();
        let mut h = Holders {
            army: smallvec::smallvec![None; self.sc.fields.len()],
            markers: smallvec::smallvec![0; (self.sc.fields.len() * armies).div_ceil(64)],
            armies,
            supply: [0; 128],
            on_board: [0; 128],
            own: smallvec::SmallVec::new(),
        };
        for (a, st) in self.armies.iter().enumerate() {
            if let Some(at) = st.at {
                h.army[at.0 as usize] = Some(a as ArmyId);
            }
        }
        let markers = h.markers.as_mut_slice();
        for (i, m) in self.markers.iter().enumerate() {
            match m.at {
                Some(at) => {
                    let bit = at.0 as usize * armies + m.army as usize;
                    markers[bit / 64] |= 1 << (bit % 64);
                    h.on_board[m.army as usize] += 1;
                    if self.army_side(m.army) == side {
                        h.own.push((i as MarkerId, m.army, at));
                    }
                }
                None if m.in_supply() => h.supply[m.army as usize] += 1,
                None => {}
            }
        }
        h
    }

    pub(super) fn check_destination(&self, army: ArmyId, to: SpaceId) -> Result<(), BotnError> {
        if self.destination_free(army, to) {
            return Ok(());
        }
        if self.army_at(to).is_some() {
            return Err(BotnError::new(
                rule::MOVEMENT_CARD,
                format!("{field} already holds an army", field = self.name_of(to)),
            ));
        }
        Err(BotnError::new(
            rule::MOVEMENT_CARD,
            format!("{field} already holds a marker of {army}", field = self.name_of(to), army = self.army_name(army)),
        ))
    }

    /// The refusal of a movement card that moves another unit type than the army's markers.
    fn wrong_unit(&self, army: ArmyId, card: &ActionCard) -> BotnError {
        let (name, unit) = (self.army_name(army), self.army_unit(army).name());
        BotnError::new(rule::MOVEMENT_CARD, format!("{name}'s markers are {unit}; the card moves {}", card.title()))
    }

    fn check_move(&self, card: &ActionCard, marker: MarkerId, to: SpaceId) -> Result<(ArmyId, SpaceId), BotnError> {
        let (army, from) = self.own_marker(self.active, marker)?;
        if !matches!(card, ActionCard::Move(_) | ActionCard::MoveArmy(_)) {
            return Err(BotnError::new(rule::PLAY, "that is not a movement card"));
        }
        if !self.movement_card_allows(card, army) {
            return Err(self.wrong_unit(army, card));
        }
        if to.0 as usize >= self.sc.fields.len() {
            return Err(no_such_thing());
        }
        if !self.sc.graph.adjacent(from, to) {
            return Err(BotnError::new(
                rule::MOVEMENT_CARD,
                format!("{to} is not adjacent to {from}", from = self.name_of(from), to = self.name_of(to)),
            ));
        }
        self.check_destination(army, to)?;
        Ok((army, from))
    }

    /// The two cards a jump of `army`'s marker is played with: the first two in the hand that
    /// move it (the legal list offers only these, and the check takes only these).
    /// `moving` is the hand's movement cards (`moving_cards`).
    fn jump_cards(&self, moving: &[(CardId, &ActionCard)], army: ArmyId) -> Option<[CardId; 2]> {
        let mut usable = moving.iter().filter(|(_, face)| self.movement_card_allows(face, army)).map(|&(c, _)| c);
        Some([usable.next()?, usable.next()?])
    }

    /// Jumps over an own army with two movement cards: for each marker, the first two cards in hand
    /// that move it are offered (`jump_cards`, read here from the hand's movement cards).
    pub(super) fn push_jumps(
        &self,
        own_markers: &[(MarkerId, ArmyId, SpaceId)],
        held: Held<'_>,
        moving: &[(CardId, &ActionCard)],
        out: &mut Vec<Action>,
    ) {
        let side = self.active;
        if moving.len() < 2 {
            return;
        }
        for &(m, army, from) in own_markers {
            // The cards are looked for only beside an own army (most markers have none).
            let mut cards = None;
            for &over in self.sc.graph.neighbours(from) {
                if held.army_on(over).is_none_or(|x| self.army_side(x) != side) {
                    continue;
                }
                let Some([a, b]) = *cards.get_or_insert_with(|| self.jump_cards(moving, army)) else { break };
                for &to in self.sc.graph.neighbours(over) {
                    if to != from && held.free_for(army, to) {
                        out.push(Action::JumpOverArmy { cards: [a, b], marker: m, over, to });
                    }
                }
            }
        }
    }

    /// The hand's movement cards in hand order, with their faces.
    pub(super) fn moving_cards(&self) -> smallvec::SmallVec<[(CardId, &ActionCard); 8]> {
        self.hand_ids(self.active)
            .map(|c| (c, &self.sc.action_cards[c as usize]))
            .filter(|(_, face)| matches!(face, ActionCard::Move(_) | ActionCard::MoveArmy(_)))
            .collect()
    }

    pub(super) fn move_marker(&mut self, marker: MarkerId, to: SpaceId, events: &mut Vec<Event>) {
        let m = &mut self.markers[marker as usize];
        let from = m.at.replace(to).expect("a checked move starts on the board");
        events.push(Event::MarkerMoved { army: m.army, from, to });
    }

    /// 3. The first card of a movement face in hand, on each own marker it may move.
    pub(super) fn push_movement_card(
        &self,
        card: CardId,
        face: &ActionCard,
        own_markers: &[(MarkerId, ArmyId, SpaceId)],
        held: Held<'_>,
        out: &mut Vec<Action>,
    ) {
        // What `check_move` asks, without building its refusals: the marker is own and on the
        // board (`own_markers`), the card moves its army, the field is adjacent and free.
        for &(m, army, from) in own_markers {
            if !self.movement_card_allows(face, army) {
                continue;
            }
            for &to in self.sc.graph.neighbours(from) {
                if held.free_for(army, to) {
                    out.push(Action::PlayMovementCard { card, marker: m, to });
                }
            }
        }
    }

    pub(super) fn check_movement_card(&self, card: CardId, marker: MarkerId, to: SpaceId) -> Result<(), BotnError> {
        let side = self.active;
        self.first_turn_block()?;
        if !self.hand_has(side, HandCard::Action(card)) {
            return Err(not_in_hand());
        }
        self.check_move(self.card(card)?, marker, to)?;
        self.first_of_face(side, &[card])
    }

    pub(super) fn check_jump(
        &self,
        cards: &[CardId; 2],
        marker: MarkerId,
        over: SpaceId,
        to: SpaceId,
    ) -> Result<(), BotnError> {
        let side = self.active;
        self.first_turn_block()?;
        if cards[0] == cards[1] || !cards.iter().all(|c| self.hand_has(side, HandCard::Action(*c))) {
            return Err(not_in_hand());
        }
        let (army, from) = self.own_marker(side, marker)?;
        for c in cards {
            let face = self.card(*c)?;
            if !self.movement_card_allows(face, army) {
                return Err(self.wrong_unit(army, face));
            }
        }
        let over_ok = (over.0 as usize) < self.sc.fields.len()
            && self.sc.graph.adjacent(from, over)
            && self.army_at(over).is_some_and(|a| self.army_side(a) == side);
        if !over_ok {
            return Err(BotnError::new(
                rule::MOVEMENT_CARD,
                "a jump must go over a field holding one of your own armies",
            ));
        }
        if (to.0 as usize) >= self.sc.fields.len() || !self.sc.graph.adjacent(over, to) || to == from {
            return Err(BotnError::new(
                rule::MOVEMENT_CARD,
                format!("{to} is not adjacent to {from}", from = self.name_of(over), to = self.field_label(to)),
            ));
        }
        self.check_destination(army, to)?;
        if self.jump_cards(&self.moving_cards(), army) != Some(*cards) {
            return Err(BotnError::new(
                rule::IDENTICAL,
                format!(
                    "identical {face} cards are one choice: the first of them in the hand (or the row) is the one played",
                    face = self.card(cards[0])?.title()
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn apply_movement_card(
        &mut self,
        card: CardId,
        marker: MarkerId,
        to: SpaceId,
        events: &mut Vec<Event>,
    ) -> bool {
        self.play_card(card, events);
        self.move_marker(marker, to, events);
        self.advance_time(1, events)
    }

    pub(super) fn apply_jump(
        &mut self,
        cards: &[CardId; 2],
        marker: MarkerId,
        to: SpaceId,
        events: &mut Vec<Event>,
    ) -> bool {
        self.play_card(cards[0], events);
        self.play_card(cards[1], events);
        self.move_marker(marker, to, events);
        self.advance_time(2, events)
    }

    /// Why `seat` may not drop `marker` on `to` (None: off the board): the rules' own refusal of
    /// the nearest move it could have meant, with the seat's first movement card.
    pub fn refuse_drop(&self, mode: Mode, seat: SeatId, marker: MarkerId, to: Option<SpaceId>) -> BotnError {
        let Some(to) = to else {
            return BotnError::new(
                rule::MOVEMENT_CARD,
                "dropped off the board: troop markers move from field to field",
            );
        };
        let side = side_of(seat);
        let card = self
            .hand_ids(side)
            .find(|&c| matches!(self.sc.action_cards[c as usize], ActionCard::Move(_) | ActionCard::MoveArmy(_)));
        let Some(card) = card else { return BotnError::new(rule::MOVEMENT_CARD, "you hold no movement card") };
        match self.check(mode, seat, &Action::PlayMovementCard { card, marker, to }) {
            Err(e) => e,
            Ok(()) => BotnError::new(rule::MOVEMENT_CARD, "none of your movement cards moves this marker there"),
        }
    }
}
