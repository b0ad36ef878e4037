//! Action 6, Play a Time Card, and "Time bar and scoring": the time indicator advances a space per card
//! (a time card leaves the game); on the dates marked, Napoléon must reveal a mission card of his
//! choice, before any other decision.

use super::*;

impl Botn {
    /// Moves the time indicator; returns true when a mission reveal became due (a commit point).
    pub(super) fn advance_time(&mut self, steps: u8, events: &mut Vec<Event>) -> bool {
        let mut revealed = false;
        for _ in 0..steps {
            if self.time as usize + 1 >= self.sc.time.len() {
                break;
            }
            self.time += 1;
            events.push(Event::TimeAdvanced { to: self.time });
            // "Napoléon must reveal a Mission Card": one of his choice, asked before play goes on.
            if self.sc.time[self.time as usize].reveals_mission
                && ((self.revealed + self.reveals_due) as usize) < self.missions.len()
            {
                self.reveals_due += 1;
                revealed = true;
            }
        }
        revealed
    }

    /// Reveals mission `m`: it moves to the end of the revealed ones, so `missions[..revealed]`
    /// stay the revealed cards in the order they were shown.
    fn reveal_mission(&mut self, m: MissionId, events: &mut Vec<Event>) {
        let i = self.missions.iter().position(|&x| x == m).expect("checked: an unrevealed mission");
        self.missions.swap(self.revealed as usize, i);
        self.revealed += 1;
        self.reveals_due -= 1;
        events.push(Event::MissionRevealed { mission: m });
    }

    /// The reveals due: each of Napoléon's hidden missions.
    pub(super) fn legal_reveals(&self, out: &mut Vec<Action>) {
        out.extend(self.missions[self.revealed as usize..].iter().map(|&m| Action::RevealMission(m)));
    }

    /// A reveal that is due comes before any other decision: the verdict on `action` when one is
    /// due or `action` is a reveal, else None.
    pub(super) fn check_reveal(&self, action: &Action) -> Option<Result<(), BotnError>> {
        match action {
            Action::RevealMission(m) if self.reveals_due > 0 && self.missions[self.revealed as usize..].contains(m) => {
                Some(Ok(()))
            }
            Action::RevealMission(_) => {
                Some(Err(BotnError::new(rule::TIME_BAR, "that is not one of Napoléon's hidden mission cards")))
            }
            _ if self.reveals_due > 0 => {
                let now = "Napoléon must first reveal a mission card of his choice";
                Some(Err(BotnError::new(rule::PLAY, format!("that is not possible now: {now}"))))
            }
            _ => None,
        }
    }

    pub(super) fn apply_reveal(&mut self, m: MissionId, events: &mut Vec<Event>) -> bool {
        self.reveal_mission(m, events);
        // The game's last action made this reveal due: with it shown, the game ends and is scored
        // ("End of the game"; `finish_turn` waited for it).
        if self.reveals_due == 0 && self.step == Step::Actions && self.actions_left == 0 && self.past_last_date() {
            self.finish_turn(events);
        }
        true // a reveal
    }

    pub(super) fn check_time_card(&self, card: CardId) -> Result<(), BotnError> {
        let side = self.active;
        if !self.hand_has(side, HandCard::Action(card)) {
            return Err(not_in_hand());
        }
        if *self.card(card)? != ActionCard::Time {
            return Err(BotnError::new(rule::PLAY, "that is not a time card"));
        }
        self.first_of_face(side, &[card])
    }

    pub(super) fn apply_time_card(&mut self, card: CardId, events: &mut Vec<Event>) -> bool {
        self.play_card(card, events);
        self.advance_time(1, events)
    }
}
