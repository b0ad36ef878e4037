//! Action 2, Play a Terrain Card: a card of a field's terrain removes an own troop marker from such a
//! field, never an army's last one; the removal may place an army ("Place armies").

use super::*;

impl Botn {
    /// Removing a marker must leave the army at least one on the board.
    pub(super) fn check_removal(&self, army: ArmyId) -> Result<(), BotnError> {
        if self.markers_on_board(army).count() <= 1 {
            return Err(BotnError::new(
                rule::TERRAIN_CARD,
                format!("the last marker of {army} must stay on the board", army = self.army_name(army)),
            ));
        }
        Ok(())
    }

    pub(super) fn remove_marker(&mut self, marker: MarkerId, events: &mut Vec<Event>) {
        let m = &mut self.markers[marker as usize];
        let field = m.at.take().expect("on the board");
        m.removed = true;
        events.push(Event::MarkerRemoved { army: m.army, field });
    }

    /// 2. The first card of a terrain in hand, on each own removable marker on that terrain.
    pub(super) fn push_terrain_card(
        &self,
        card: CardId,
        terrain: Terrain,
        removable: &[(MarkerId, SpaceId)],
        out: &mut Vec<Action>,
    ) {
        for &(m, at) in removable {
            if self.sc.fields[at.0 as usize].terrain == terrain {
                out.push(Action::PlayTerrainCard { card, marker: m });
            }
        }
    }

    pub(super) fn check_terrain_card(&self, card: CardId, marker: MarkerId) -> Result<(), BotnError> {
        let side = self.active;
        self.first_turn_block()?;
        if !self.hand_has(side, HandCard::Action(card)) {
            return Err(not_in_hand());
        }
        let ActionCard::Terrain(t) = self.card(card)? else {
            return Err(BotnError::new(rule::PLAY, "that is not a terrain card"));
        };
        let (army, at) = self.own_marker(side, marker)?;
        let field = &self.sc.fields[at.0 as usize];
        if field.terrain != *t {
            return Err(BotnError::new(
                rule::TERRAIN_CARD,
                format!(
                    "the marker is on {field} ({terrain}), not on {card_terrain}",
                    field = field.name,
                    terrain = field.terrain.name(),
                    card_terrain = t.name()
                ),
            ));
        }
        self.check_removal(army)?;
        self.first_of_face(side, &[card])
    }

    pub(super) fn apply_terrain_card(&mut self, card: CardId, marker: MarkerId, events: &mut Vec<Event>) -> bool {
        self.play_card(card, events);
        self.remove_marker(marker, events);
        self.place_armies(events)
    }
}
