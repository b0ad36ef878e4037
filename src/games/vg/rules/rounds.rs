//! VII. The Game & Rounds: each round both players draw up to their hand, then play their cards
//! in turn; a card's effects run as a queue of tasks, a task needing a choice waits as a
//! `Pending` decision; three rounds make an era, whose end resolves the open campaigns and scores.

use super::*;

impl Vg {
    pub(super) fn draw(&mut self) -> Option<CardId> {
        if self.deck.is_empty() {
            // "If the draw deck runs out of cards, shuffle the cards in the discard pile."
            self.deck = std::mem::take(&mut self.discard);
            self.rng.shuffle(&mut self.deck);
        }
        self.deck.pop()
    }

    pub(super) fn start_round(&mut self, events: &mut Vec<Event>) {
        self.chance = true;
        for p in Player::BOTH {
            for _ in 0..HAND_SIZE {
                if let Some(c) = self.draw() {
                    self.hands[p.index()].push(c);
                }
            }
        }
        self.played = [0, 0];
        self.quota = [CARDS_PER_ROUND; 2];
        // The British play first in the first round; then the player with more victory points,
        // Britain on ties. The solo AI always plays the first and the last card (XV a).
        self.first = match self.solo {
            Some(ai) => {
                self.quota[ai.index()] = SOLO_AI_CARDS;
                ai
            }
            None if self.round > 0 && self.vp[0] > self.vp[1] => Player::France,
            None => Player::Britain,
        };
        self.turn = self.first;
        self.phase = Phase::Play;
        events.push(Event::RoundBegan { round: self.round, era: self.era, first: self.first });
        self.ai_draws_if_empty(events);
    }

    fn next_turn(&mut self, events: &mut Vec<Event>) {
        let (me, other) = (self.turn, self.turn.other());
        let left = |p: Player| self.quota[p.index()] > self.played[p.index()];
        if !left(me) && !left(other) {
            self.end_round(events);
            return;
        }
        self.turn = if left(other) { other } else { me };
        self.phase = Phase::Play;
        self.ai_draws_if_empty(events);
        // A player with no card at all left (possible only for the solo AI with an empty deck)
        // passes the rest of the round.
        if self.playable_cards(self.turn).next().is_none() {
            events.push(Event::NoCardLeft { player: self.turn });
            self.played[self.turn.index()] = self.quota[self.turn.index()];
            self.next_turn(events);
        }
    }

    fn end_round(&mut self, events: &mut Vec<Event>) {
        for p in Player::BOTH {
            let hand = std::mem::take(&mut self.hands[p.index()]);
            self.discard.extend(hand);
        }
        events.push(Event::RoundEnded { round: self.round });
        self.round += 1;
        if self.round.is_multiple_of(ROUNDS_PER_ERA) {
            self.phase = Phase::EraEnd;
            events.push(Event::EraEnded { era: self.era });
        } else {
            self.start_round(events);
        }
    }

    /// Carries out queued tasks until a decision is needed or the card (or era end) is done.
    pub(super) fn advance(&mut self, events: &mut Vec<Event>) {
        loop {
            if !self.pending.is_empty() || self.phase == Phase::GameOver {
                return;
            }
            if !self.tasks.is_empty() {
                let t = self.tasks.remove(0);
                self.run_task(t, events);
                continue;
            }
            match self.phase {
                Phase::Card => self.next_turn(events),
                Phase::EraEnd => {
                    let open = self.open_campaigns();
                    if open.is_empty() {
                        self.score_era(events);
                    } else {
                        // XII: the higher leadership rating decides the order; France on ties.
                        let chooser =
                            if self.leadership[1] > self.leadership[0] { Player::Britain } else { Player::France };
                        self.pending.push(Pending::ResolveOrder { chooser });
                    }
                }
                Phase::Play | Phase::GameOver => return,
            }
        }
    }

    fn run_task(&mut self, t: Task, events: &mut Vec<Event>) {
        match t {
            Task::Effect(e, p) => self.run_effect(e, p, events),
            Task::Commit(p, c) => {
                if !self.any_valid_unit(p, c) {
                    events.push(Event::NoUnitForCampaign { player: p, campaign: c });
                } else {
                    self.pending.push(Pending::Commit { player: p, campaign: c, committed: 0 });
                }
            }
            Task::Reveal(c, to) => {
                let camp = &mut self.campaigns[c as usize];
                camp.revealed = true;
                let card = camp.card;
                self.in_front[to.index()].push(card);
                self.chance = true;
                let units = [self.committed(c, Player::France), self.committed(c, Player::Britain)];
                events.push(Event::Revealed { card, campaign: c, units, to });
            }
            Task::Resolve(c, winner, losses) => self.resolve(c, winner, losses, events),
        }
    }
}
