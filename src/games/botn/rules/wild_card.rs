//! Action 5, Play a Wild Card: two identical action cards (not time cards) played together move any own
//! marker to an adjacent field, or remove any own marker, whatever their unit or terrain; the
//! pair advances time only one space.

use super::*;

impl Botn {
    /// Action 5: the card at place `at` of the hand with the next identical card (the first pair
    /// of its face), as any movement card or any terrain card, on each own marker.
    pub(super) fn push_wild_card(
        &self,
        at: usize,
        own_markers: &[(MarkerId, ArmyId, SpaceId)],
        removable: &[(MarkerId, SpaceId)],
        held: movement_card::Held<'_>,
        out: &mut Vec<Action>,
    ) {
        let hand = &self.hands[self.active.index()];
        let HandCard::Action(card) = hand[at] else { return };
        let face = &self.sc.action_cards[card as usize];
        let twin = hand.iter().skip(at + 1).find_map(|c| match *c {
            HandCard::Action(o) if self.sc.faces[o as usize] == self.sc.faces[card as usize] => Some(o),
            _ => None,
        });
        let Some(twin) = twin else { return };
        let cards = [card, twin];
        if matches!(face, ActionCard::Terrain(_)) {
            for &(m, _) in removable {
                out.push(Action::PlayWildCard { cards, marker: m, to: None });
            }
        } else {
            for &(m, army, from) in own_markers {
                for &to in self.sc.graph.neighbours(from) {
                    if held.free_for(army, to) {
                        out.push(Action::PlayWildCard { cards, marker: m, to: Some(to) });
                    }
                }
            }
        }
    }

    pub(super) fn check_wild_card(
        &self,
        cards: &[CardId; 2],
        marker: MarkerId,
        to: Option<SpaceId>,
    ) -> Result<(), BotnError> {
        let side = self.active;
        self.first_turn_block()?;
        if cards[0] == cards[1] || !cards.iter().all(|c| self.hand_has(side, HandCard::Action(*c))) {
            return Err(not_in_hand());
        }
        let (a, b) = (self.card(cards[0])?, self.card(cards[1])?);
        if a != b || *a == ActionCard::Time {
            return Err(BotnError::new(rule::WILD_CARD, "a wild card is two identical cards"));
        }
        let (army, from) = self.own_marker(side, marker)?;
        match (a, to) {
            (ActionCard::Terrain(_), None) => self.check_removal(army)?,
            (ActionCard::Move(_) | ActionCard::MoveArmy(_), Some(to)) => {
                if (to.0 as usize) >= self.sc.fields.len() || !self.sc.graph.adjacent(from, to) {
                    return Err(BotnError::new(
                        rule::MOVEMENT_CARD,
                        format!("{to} is not adjacent to {from}", from = self.name_of(from), to = self.field_label(to)),
                    ));
                }
                self.check_destination(army, to)?;
            }
            _ => return Err(BotnError::new(rule::PLAY, "that is not a wild card")),
        }
        self.first_of_face(side, cards)
    }

    pub(super) fn apply_wild_card(
        &mut self,
        cards: &[CardId; 2],
        marker: MarkerId,
        to: Option<SpaceId>,
        events: &mut Vec<Event>,
    ) -> bool {
        self.play_card(cards[0], events);
        self.play_card(cards[1], events);
        match to {
            Some(to) => {
                self.move_marker(marker, to, events);
                self.advance_time(1, events) // only one point for the pair
            }
            None => {
                self.remove_marker(marker, events);
                self.place_armies(events)
            }
        }
    }
}
