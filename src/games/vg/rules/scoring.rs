//! XIII. Scoring and XIV. Winning: at the end of each era, victory points for the influence
//! majorities in each nation, the economy and the campaigns won; after the third era the player
//! with more victory points wins.

use super::*;

impl Vg {
    /// The end of the era once every campaign is resolved: scoring, upkeep, the next deck.
    pub(super) fn score_era(&mut self, events: &mut Vec<Event>) {
        let era = self.era as usize;
        for (i, n) in self.sc.nations.iter().enumerate() {
            let vp = n.era_vp(era) as i16;
            for p in Player::BOTH {
                if self.has_majority(p, i as NationId) {
                    self.vp[p.index()] = self.vp[p.index()].saturating_add(vp);
                    events.push(Event::Majority { nation: i as NationId, player: p, vp });
                }
            }
        }
        for p in Player::BOTH {
            let units = self.national_units(p) as i16;
            let diff = self.economy[p.index()] - units;
            self.vp[p.index()] = self.vp[p.index()].saturating_add(diff);
            events.push(Event::EconomyScored { player: p, economy: self.economy[p.index()], units, vp: diff });
        }
        events.push(Event::VictoryPoints { vp: self.vp });
        // The era's cards leave play; the next deck comes in.
        let old = self.era;
        let sc = self.sc.clone();
        let keep = |c: &CardId| sc.cards[*c as usize].era != old;
        self.deck.retain(keep);
        self.discard.retain(keep);
        for p in 0..2 {
            self.hands[p].retain(keep);
            self.in_front[p].retain(keep);
        }
        if self.era as usize + 1 >= self.sc.eras.len() {
            self.phase = Phase::GameOver;
            events.push(Event::GameEnded { vp: self.vp });
            return;
        }
        self.era += 1;
        let era = self.era;
        self.deck = (0..sc.cards.len() as CardId).filter(|&c| sc.cards[c as usize].era == era).collect();
        self.discard.clear();
        self.rng.shuffle(&mut self.deck);
        self.campaigns.iter_mut().for_each(|c| c.resolved = true);
        self.start_round(events);
    }

    /// XIV: the seat with more victory points once the game is over; None on a tie.
    pub(super) fn winning_seat(&self) -> Option<SeatId> {
        if self.phase != Phase::GameOver {
            return None;
        }
        match self.vp[0].cmp(&self.vp[1]) {
            std::cmp::Ordering::Greater => Some(seat_of(Player::France)),
            std::cmp::Ordering::Less => Some(seat_of(Player::Britain)),
            std::cmp::Ordering::Equal => None,
        }
    }
}
