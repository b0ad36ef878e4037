//! XV. Solo Play: the AI's side plays seven cards a round, first and last; it hands a campaign card
//! it cannot fight to the player (no unit to send, or outnumbered 2 to 1), drawing a new card when
//! its hand runs out.

use super::*;

impl Vg {
    pub(super) fn check_solo_setup(&self) -> Result<(), VgError> {
        if !self.pending.is_empty() {
            return Err(self.wrong_step());
        }
        if self.round > 0 || self.played != [0, 0] || self.solo.is_some() {
            return Err(VgError::new(rule::ROUNDS, "choosing solo play is not possible now: the game has begun"));
        }
        Ok(())
    }

    pub(super) fn apply_solo_setup(&mut self, ai: Player, events: &mut Vec<Event>) {
        self.solo = Some(ai);
        self.quota = [CARDS_PER_ROUND; 2];
        self.quota[ai.index()] = SOLO_AI_CARDS;
        self.first = ai;
        self.turn = ai;
        events.push(Event::SoloSetUp { ai });
    }

    pub(super) fn check_give_campaign(&self, p: Player, card: CardId) -> Result<(), VgError> {
        if !self.pending.is_empty() {
            return Err(self.wrong_step());
        }
        self.card_check(p, card)?;
        if !self.is_ai(p) || !self.hands[p.index()].contains(&card) || !self.campaign_disadvantages_ai(card) {
            return Err(VgError::new(
                rule::SOLO,
                "only the solo AI gives away a campaign card, and only one it cannot fight (no units, or outnumbered 2 to 1)",
            ));
        }
        Ok(())
    }

    pub(super) fn apply_give_campaign(&mut self, p: Player, card: CardId, events: &mut Vec<Event>) {
        self.take_card(p, card);
        self.in_front[p.other().index()].push(card);
        events.push(Event::AiCannotFight { player: p, card });
        self.ai_draws_if_empty(events);
    }

    /// Solo XV a: a campaign card would obviously disadvantage the AI: it has no unit to send, or
    /// its available units are outnumbered 2 to 1 by the player's.
    pub fn campaign_disadvantages_ai(&self, card: CardId) -> bool {
        let Some(ai) = self.solo else { return false };
        let Some(camp) = &self.sc.cards[card as usize].campaign else { return false };
        // XV a: the units each side could send, under the same limitations as a real commitment
        // (naval units at sea, Spanish units only in Spain and France, ...).
        let fits = |p: Player| {
            self.units_in(Loc::Army(p))
                .filter(|&u| self.unit_may_join_at(p, u, camp.region, camp.naval).is_ok())
                .count()
        };
        let (mine, theirs) = (fits(ai), fits(ai.other()));
        mine == 0 || theirs >= 2 * mine
    }

    /// Solo: an AI that has run out of cards draws from the deck until it has played its 7.
    pub(super) fn ai_draws_if_empty(&mut self, events: &mut Vec<Event>) {
        let p = self.turn;
        if self.is_ai(p)
            && self.phase == Phase::Play
            && self.playable_cards(p).next().is_none()
            && let Some(c) = self.draw()
        {
            self.hands[p.index()].push(c);
            self.chance = true;
            events.push(Event::AiDraws { player: p });
        }
    }
}
