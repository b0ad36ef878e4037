//! Action 4, Play a Scout Card: it removes an own troop marker (never an army's last) and advances the
//! time indicator; the card goes back to the supply. Scout cards also pay for missing markers
//! when an army card is laid out, and an own army placed earns one.

use super::*;

impl Botn {
    pub(super) fn play_scout(&mut self, events: &mut Vec<Event>) -> bool {
        let side = self.active;
        self.take_from_hand(side, HandCard::Scout);
        self.scout_supply += 1;
        events.push(Event::ScoutPlayed { side });
        self.advance_time(1, events)
    }

    /// 4. With a scout card in hand, each own removable marker.
    pub(super) fn push_scout_cards(&self, removable: &[(MarkerId, SpaceId)], out: &mut Vec<Action>) {
        if self.scouts_in_hand(self.active) > 0 {
            for &(m, _) in removable {
                out.push(Action::PlayScoutCard { marker: m });
            }
        }
    }

    pub(super) fn check_scout_card(&self, marker: MarkerId) -> Result<(), BotnError> {
        self.first_turn_block()?;
        if self.scouts_in_hand(self.active) == 0 {
            return Err(BotnError::new(rule::SCOUT_CARD, "you hold no scout card"));
        }
        let (army, _) = self.own_marker(self.active, marker)?;
        self.check_removal(army)
    }

    pub(super) fn apply_scout_card(&mut self, marker: MarkerId, events: &mut Vec<Event>) -> bool {
        let mut commit = self.play_scout(events);
        self.remove_marker(marker, events);
        commit |= self.place_armies(events);
        commit
    }
}
