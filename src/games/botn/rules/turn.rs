//! "5 actions per turn": the legal actions of a turn in the rulebook's order, the first turn's
//! army card, Napoléon with all his armies placed (official FAQ), passing, and the end of a turn
//! — the row refilled, the hand limit, fights that are due, then the other player's turn.

use super::*;

impl Botn {
    /// Napoléon with all his armies placed may end his turn at any time (official FAQ).
    fn may_pass(&self) -> bool {
        self.active == Side::French && self.napoleon_done()
    }

    pub(super) fn first_turn_block(&self) -> Result<(), BotnError> {
        if !self.had_first_turn[self.active.index()] && !self.army_card_this_turn {
            Err(BotnError::new(
                rule::FIRST_TURN,
                "in the first turn an army card must be laid out before terrain, movement or scout cards",
            ))
        } else {
            Ok(())
        }
    }

    /// After an action: the turn ends when its five actions are spent and nothing is pending.
    pub(super) fn after_action(&mut self, events: &mut Vec<Event>) -> bool {
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
    pub(super) fn finish_turn(&mut self, events: &mut Vec<Event>) -> bool {
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
            // A reveal the last action made due (the indicator moved two spaces, past 19.10.)
            // comes before the end: the game is scored with every mission shown (issue 63). The
            // turn stands with no action left until Napoléon reveals; `apply_reveal` ends it.
            if self.reveals_due > 0 {
                self.step = Step::Actions;
                self.actions_left = 0;
                return true;
            }
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

    /// The Actions step: each of the seven actions where it may be taken, the FAQ's swap of a
    /// stale row, and passing.
    pub(super) fn legal_turn(&self, out: &mut Vec<Action>) {
        self.push_turn_actions(out);
        if self.row_is_stale() {
            out.push(Action::SwapFaceUp);
        }
        if out.is_empty() || self.may_pass() {
            out.push(Action::Pass);
        }
    }

    /// Legal actions of the Actions step, excluding Pass, in the rulebook's order of actions (the
    /// hand's cards in hand order).
    pub(super) fn push_turn_actions(&self, out: &mut Vec<Action>) {
        let side = self.active;
        if side == Side::French && self.napoleon_done() {
            // Official FAQ: with all his armies placed Napoléon takes no more actions but may still
            // take action cards.
            self.push_draws(out);
            return;
        }
        let first_ok = self.first_turn_block().is_ok();
        let holders = self.holders(side);
        let held = holders.held();
        self.push_army_cards(&holders, out);
        let hand = &self.hands[side.index()];
        let (own_markers, on_board) = (holders.own.as_slice(), &holders.on_board);
        // An army's last marker on the board stays.
        let mut removable: smallvec::SmallVec<[(MarkerId, SpaceId); 64]> = smallvec::SmallVec::new();
        removable
            .extend(own_markers.iter().filter(|(_, army, _)| on_board[*army as usize] > 1).map(|&(m, _, at)| (m, at)));
        let moving = self.moving_cards();
        let mut seen_cards: smallvec::SmallVec<[CardFace; 8]> = smallvec::SmallVec::new();
        for (hi, hc) in hand.iter().enumerate() {
            let HandCard::Action(card) = *hc else { continue };
            let face = &self.sc.action_cards[card as usize];
            // Identical cards give identical actions: list each face once.
            if seen_cards.contains(&self.sc.faces[card as usize]) {
                continue;
            }
            seen_cards.push(self.sc.faces[card as usize]);
            match face {
                ActionCard::Time => out.push(Action::PlayTimeCard { card }),
                ActionCard::Terrain(t) if first_ok => self.push_terrain_card(card, *t, &removable, out),
                ActionCard::Move(_) | ActionCard::MoveArmy(_) if first_ok => {
                    self.push_movement_card(card, face, own_markers, held, out)
                }
                _ => {}
            }
            if first_ok && !matches!(face, ActionCard::Time) {
                self.push_wild_card(hi, own_markers, &removable, held, out);
            }
        }
        if first_ok {
            self.push_jumps(own_markers, held, &moving, out);
            self.push_scout_cards(&removable, out);
        }
        self.push_draws(out);
    }

    /// An action of the turn is taken only in the Actions step; with all his armies placed
    /// Napoléon only takes action cards (official FAQ).
    pub(super) fn check_turn_action(&self, action: &Action) -> Result<(), BotnError> {
        if self.step != Step::Actions {
            return Err(self.wrong_step("an action"));
        }
        match action {
            Action::DrawFaceUp { .. } | Action::DrawBlind | Action::Pass | Action::SwapFaceUp => Ok(()),
            _ if self.active == Side::French && self.napoleon_done() => Err(BotnError::new(
                rule::FAQ_NAPOLEON,
                "with all his armies placed Napoléon only draws action cards (or ends his turn)",
            )),
            _ => Ok(()),
        }
    }

    pub(super) fn check_pass(&self) -> Result<(), BotnError> {
        let mut others = Vec::new();
        self.push_turn_actions(&mut others);
        if !others.is_empty() && !self.may_pass() {
            return Err(BotnError::new(
                rule::PLAY,
                "there are other actions to take; passing is only for a turn with none left",
            ));
        }
        Ok(())
    }

    /// One of the turn's actions, by its chapter; each but passing spends one of the five.
    pub(super) fn apply_turn_action(&mut self, action: &Action, events: &mut Vec<Event>) -> bool {
        let mut commit = match action {
            Action::LayOutArmyCard { army, skip } => self.apply_army_card(*army, skip, events),
            Action::PlayTerrainCard { card, marker } => self.apply_terrain_card(*card, *marker, events),
            Action::PlayMovementCard { card, marker, to } => self.apply_movement_card(*card, *marker, *to, events),
            Action::JumpOverArmy { cards, marker, to, .. } => self.apply_jump(cards, *marker, *to, events),
            Action::PlayScoutCard { marker } => self.apply_scout_card(*marker, events),
            Action::PlayWildCard { cards, marker, to } => self.apply_wild_card(cards, *marker, *to, events),
            Action::PlayTimeCard { card } => self.apply_time_card(*card, events),
            Action::DrawFaceUp { card } => self.apply_draw_face_up(*card, events),
            Action::DrawBlind => self.apply_draw_blind(events),
            Action::Pass => {
                events.push(Event::Passed { side: self.active });
                self.actions_left = 0;
                false
            }
            _ => unreachable!("not one of the turn's actions: {action:?}"),
        };
        if !matches!(action, Action::Pass) {
            self.actions_left -= 1;
        }
        commit |= self.after_action(events);
        commit
    }
}
