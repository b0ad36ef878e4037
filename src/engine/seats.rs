//! Seats at the table and who may see what. Visibility is decided here, in the rules layer, so the
//! renderer, the panels and a future server all read the table through the seat that is looking.

use serde::{Deserialize, Serialize};

/// A player's seat, numbered from 0 in the order the game lists its seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SeatId(pub u8);

/// Who is looking at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Viewer {
    /// A player: sees the public table and what that seat may see.
    Seat(SeatId),
    /// A spectator or a broadcast: sees only the public table, never a hand or a face-down card.
    Spectator,
}

/// Who may see the face of a card or piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Visibility {
    /// Everyone, spectators included.
    Public,
    /// Only this seat (a hand, a secret mission).
    Owner(SeatId),
    /// Nobody (the blind draw pile).
    Nobody,
}

impl Visibility {
    pub fn visible_to(self, viewer: Viewer) -> bool {
        match (self, viewer) {
            (Visibility::Public, _) => true,
            (Visibility::Owner(owner), Viewer::Seat(seat)) => owner == seat,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_are_seen_only_by_their_seat() {
        let hand = Visibility::Owner(SeatId(1));
        assert!(hand.visible_to(Viewer::Seat(SeatId(1))));
        assert!(!hand.visible_to(Viewer::Seat(SeatId(0))));
        assert!(!hand.visible_to(Viewer::Spectator));
        assert!(!Visibility::Nobody.visible_to(Viewer::Seat(SeatId(0))));
        assert!(Visibility::Public.visible_to(Viewer::Spectator));
    }
}
