//! Action 7, Draw an Action Card: from the face-up row or blind from the pile (the discards reshuffled
//! when it runs out); the row is refilled at the end of a turn, a hand above eight cards is
//! discarded down, and (official FAQ) a row nobody took from for two rounds may be swapped.

use super::*;

impl Botn {
    /// 7. Draw an Action Card: each face in the row once, and the blind pile.
    pub(super) fn push_draws(&self, out: &mut Vec<Action>) {
        let mut seen_up: smallvec::SmallVec<[CardFace; 8]> = smallvec::SmallVec::new();
        for &c in &self.face_up {
            let face = self.sc.faces[c as usize];
            if !seen_up.contains(&face) {
                seen_up.push(face);
                out.push(Action::DrawFaceUp { card: c });
            }
        }
        if !self.draw_pile.is_empty() || !self.discard.is_empty() {
            out.push(Action::DrawBlind);
        }
    }

    pub(super) fn draw_blind(&mut self, side: Side, events: &mut Vec<Event>) {
        if self.draw_pile.is_empty() {
            self.reshuffle(events);
        }
        if let Some(card) = self.draw_pile.pop() {
            self.hands[side.index()].push(HandCard::Action(card));
            events.push(Event::DrewBlind { side, card });
        }
    }

    pub(super) fn reshuffle(&mut self, events: &mut Vec<Event>) {
        let mut cards = std::mem::take(&mut self.discard);
        self.rng.shuffle(&mut cards);
        events.push(Event::Reshuffled { cards: cards.len() as u8 });
        self.draw_pile = cards;
    }

    /// Official FAQ: two rounds (four turns) without anyone taking a face-up card.
    pub(super) fn row_is_stale(&self) -> bool {
        self.stale_row_turns >= 4 && !self.took_face_up && !(self.draw_pile.is_empty() && self.discard.is_empty())
    }

    pub(super) fn check_draw_face_up(&self, card: CardId) -> Result<(), BotnError> {
        if !self.face_up.contains(&card) {
            return Err(BotnError::new(rule::DRAW, "that card is not in the face-up row"));
        }
        if self.same_face(self.face_up.iter().copied(), card).next() != Some(card) {
            return Err(BotnError::new(
                rule::IDENTICAL,
                format!(
                    "identical {face} cards are one choice: the first of them in the hand (or the row) is the one played",
                    face = self.card(card)?.title()
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn check_draw_blind(&self) -> Result<(), BotnError> {
        if self.draw_pile.is_empty() && self.discard.is_empty() {
            return Err(BotnError::new(rule::DRAW, "the draw pile and the discards are empty"));
        }
        Ok(())
    }

    pub(super) fn apply_draw_face_up(&mut self, card: CardId, events: &mut Vec<Event>) -> bool {
        let side = self.active;
        self.took_face_up = true;
        self.face_up.retain(|c| *c != card);
        self.hands[side.index()].push(HandCard::Action(card));
        events.push(Event::DrewFaceUp { side, card });
        false
    }

    pub(super) fn apply_draw_blind(&mut self, events: &mut Vec<Event>) -> bool {
        self.draw_blind(self.active, events);
        true // a hidden card drawn
    }

    /// The hand limit: one card of each face in hand (identical cards are one choice).
    pub(super) fn legal_discard(&self, out: &mut Vec<Action>) {
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

    pub(super) fn check_discard(&self, card: HandCard) -> Result<(), BotnError> {
        if self.step != Step::Discard {
            return Err(self.wrong_step("discarding"));
        }
        if !self.hand_has(self.active, card) {
            return Err(not_in_hand());
        }
        if let HandCard::Action(c) = card {
            self.first_of_face(self.active, &[c])?;
        }
        Ok(())
    }

    pub(super) fn apply_discard(&mut self, card: HandCard, events: &mut Vec<Event>) -> bool {
        let side = self.active;
        self.take_from_hand(side, card);
        match card {
            HandCard::Action(c) => self.discard.push(c),
            HandCard::Scout => self.scout_supply += 1,
        }
        events.push(Event::Discarded { side, card });
        if self.hand_size(side) <= HAND_LIMIT {
            self.step = Step::Actions;
            return self.finish_turn(events);
        }
        false
    }

    pub(super) fn check_swap_face_up(&self) -> Result<(), BotnError> {
        if !self.row_is_stale() {
            return Err(BotnError::new(
                rule::FAQ_ROW,
                "the face-up row may be swapped only after two rounds in which nobody took a face-up card",
            ));
        }
        Ok(())
    }

    /// The four face-up cards go to the discards; four new ones are dealt (a reveal). It is not
    /// one of the turn's actions.
    pub(super) fn apply_swap_face_up(&mut self, events: &mut Vec<Event>) -> bool {
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
        true
    }
}
