//! VIII. The Cards: a card is played for its body text (some need a majority of influence) or its
//! bottom text; its effects move the tracks, place and remove influence, recruit units and cost
//! units — each choice they leave asked of the player it concerns. Campaign cards are in
//! `campaigns.rs`, the solo AI's hand-over of one in `solo.rs`.

use super::*;

/// Why a card's body may not be chosen (worded by `body_allowed`).
enum BodyBar {
    /// The majority of influence in this nation is needed.
    Majority(NationId),
    /// No Major Nation where the majority is held, for an alliance with any.
    NoMajorNation,
}

impl Vg {
    /// A player's turn: each playable card, for its body (where allowed) and its bottom text, or
    /// as a campaign (and the solo AI's hand-over of one it cannot fight, XV).
    pub(super) fn legal_play(&self, out: &mut Vec<Action>) {
        let p = self.turn;
        for card in self.playable_cards(p) {
            let def = &self.sc.cards[card as usize];
            if def.campaign.is_some() {
                out.push(Action::PlayCampaign { card });
                if self.is_ai(p) && self.hands[p.index()].contains(&card) && self.campaign_disadvantages_ai(card) {
                    out.push(Action::SoloGiveCampaign { card });
                }
            } else {
                if self.body_bar(p, card).is_none() {
                    out.push(Action::PlayCard { card, text: Text::Body });
                }
                out.push(Action::PlayCard { card, text: Text::Bottom });
            }
        }
    }

    pub(super) fn check_play_card(&self, p: Player, card: CardId, text: Text) -> Result<(), VgError> {
        if !self.pending.is_empty() {
            return Err(self.wrong_step());
        }
        let def = self.card_check(p, card)?;
        if def.campaign.is_some() {
            return Err(VgError::new(
                rule::CARD_KINDS,
                format!("{card} is a campaign card: play it as a campaign", card = def.name),
            ));
        }
        if text == Text::Body {
            self.body_allowed(p, card)?;
        }
        Ok(())
    }

    pub(super) fn apply_play_card(&mut self, p: Player, card: CardId, text: Text, events: &mut Vec<Event>) {
        self.take_card(p, card);
        self.played[p.index()] += 1;
        // A played card "is removed from play" (VII).
        events.push(Event::CardPlayed { player: p, card, text });
        let def = &self.sc.cards[card as usize];
        let effects = match text {
            Text::Body => def.body.as_slice(),
            Text::Bottom => def.bottom.as_slice(),
        };
        self.tasks.extend(effects.iter().map(|&e| Task::Effect(e, p)));
        self.phase = Phase::Card;
    }

    pub(super) fn card_check(&self, p: Player, card: CardId) -> Result<&crate::games::vg::data::Card, VgError> {
        let def = self.sc.cards.get(card as usize).ok_or_else(no_such_thing)?;
        if !self.playable_cards(p).any(|c| c == card) {
            return Err(VgError::new(rule::ROUNDS, "that card is not in your hand or in front of you"));
        }
        Ok(def)
    }

    /// Whether the body of an event card can be chosen by `p`: alliances and minor-nation
    /// recruiting need a majority of influence.
    pub fn body_allowed(&self, p: Player, card: CardId) -> Result<(), VgError> {
        let name = || self.sc.cards[card as usize].name.clone();
        match self.body_bar(p, card) {
            None => Ok(()),
            Some(BodyBar::Majority(n)) => Err(VgError::new(
                rule::CARDS,
                format!(
                    "the body of {card} needs a majority of influence in {nation}",
                    card = name(),
                    nation = self.sc.nation_name(n)
                ),
            )),
            Some(BodyBar::NoMajorNation) => Err(VgError::new(
                rule::CARDS,
                format!(
                    "the body of {card} can do nothing now: no Major Nation where the majority of influence is held",
                    card = name()
                ),
            )),
        }
    }

    /// What bars the body of `card` for `p`, if anything: the legal list asks this of every card
    /// in hand, and wording a refusal there made two strings a card.
    fn body_bar(&self, p: Player, card: CardId) -> Option<BodyBar> {
        for e in &self.sc.cards[card as usize].body {
            match *e {
                Effect::Alliance(w, n) if !self.has_majority(who(w, p), n) => return Some(BodyBar::Majority(n)),
                Effect::Recruit(w, Some(n), _)
                    if self.nation_kind(n) == NationKind::Minor && !self.has_majority(who(w, p), n) =>
                {
                    return Some(BodyBar::Majority(n));
                }
                Effect::AllianceAny(w) if self.ally_options(who(w, p)).is_empty() => {
                    return Some(BodyBar::NoMajorNation);
                }
                _ => {}
            }
        }
        None
    }

    fn clamp(&self, v: i16) -> i16 {
        v.clamp(0, self.sc.track_max)
    }

    pub(super) fn run_effect(&mut self, e: Effect, ctx: Player, events: &mut Vec<Event>) {
        match e {
            Effect::Economy(w, a) => {
                let p = who(w, ctx);
                self.economy[p.index()] = self.clamp(self.economy[p.index()] + a as i16);
                events.push(Event::Economy { player: p, change: a, now: self.economy[p.index()] });
            }
            Effect::Leadership(w, a) => {
                let p = who(w, ctx);
                self.leadership[p.index()] = self.clamp(self.leadership[p.index()] + a as i16);
                events.push(Event::Leadership { player: p, change: a, now: self.leadership[p.index()] });
            }
            Effect::Vp(w, a) => {
                let p = who(w, ctx);
                self.vp[p.index()] = self.vp[p.index()].saturating_add(a as i16);
                events.push(Event::Vp { player: p, change: a, now: self.vp[p.index()] });
            }
            Effect::Influence(w, nation, a) => {
                let p = who(w, ctx);
                match (nation, a) {
                    (_, 0) => {}
                    (Some(n), a) if a > 0 => {
                        self.influence[n as usize][p.index()] =
                            self.influence[n as usize][p.index()].saturating_add(a as u8);
                        events.push(Event::InfluenceGained { player: p, nation: n, count: a });
                    }
                    (Some(n), a) => {
                        let have = &mut self.influence[n as usize][p.index()];
                        let lost = (-a as u8).min(*have);
                        *have -= lost;
                        events.push(Event::InfluenceLost { player: p, nation: n, count: lost });
                    }
                    (None, a) if a > 0 => self.pending.push(Pending::PlaceInfluence { player: p, left: a as u8 }),
                    (None, a) => {
                        if self.influence.iter().any(|c| c[p.index()] > 0) {
                            self.pending.push(Pending::RemoveInfluence { owner: p, left: -a as u8 });
                        }
                    }
                }
            }
            Effect::Recruit(w, nation, count) => {
                let p = who(w, ctx);
                match nation {
                    Some(n) => self.recruit(p, n, count, events),
                    None => {
                        let options = self.recruit_options(p);
                        match options.as_slice() {
                            [] => events.push(Event::NoRecruits { player: p }),
                            [n] => self.recruit(p, *n, count, events),
                            _ => self.pending.push(Pending::RecruitNation { player: p, count }),
                        }
                    }
                }
            }
            Effect::LoseUnits(w, count) => {
                let p = who(w, ctx);
                if !self.has_units(p) {
                    events.push(Event::NoUnitToLose { player: p });
                } else if self.is_ai(p) {
                    // XV d: the player picks the AI's lost units, blind: at random.
                    for _ in 0..count {
                        let all = self.all_units(p);
                        if all.is_empty() {
                            break;
                        }
                        let u = all[self.rng.below(all.len())];
                        self.eliminate(u, events);
                    }
                    self.chance = true;
                } else {
                    self.pending.push(Pending::LoseUnit { player: p, left: count });
                }
            }
            Effect::Alliance(w, n) => {
                let p = who(w, ctx);
                self.ally(p, n, events);
            }
            Effect::AllianceAny(w) => {
                let p = who(w, ctx);
                if !self.ally_options(p).is_empty() {
                    self.pending.push(Pending::AllianceAny { player: p });
                }
            }
            Effect::EnAvant => {
                if !self.open_campaigns().iter().any(|&c| self.campaigns[c as usize].revealed) {
                    events.push(Event::EnAvantNothing);
                } else {
                    self.pending.push(Pending::EnAvant { player: ctx });
                }
            }
        }
    }

    pub(super) fn legal_place_influence(&self, out: &mut Vec<Action>) {
        out.extend((0..self.sc.nations.len() as NationId).map(Action::PlaceInfluence));
    }

    pub(super) fn check_place_influence(&self, n: NationId) -> Result<(), VgError> {
        let Some(Pending::PlaceInfluence { .. }) = self.pending.first() else { return Err(self.wrong_step()) };
        if (n as usize) >= self.sc.nations.len() {
            return Err(no_such_thing());
        }
        Ok(())
    }

    pub(super) fn apply_place_influence(&mut self, p: Player, n: NationId, events: &mut Vec<Event>) {
        self.influence[n as usize][p.index()] = self.influence[n as usize][p.index()].saturating_add(1);
        events.push(Event::InfluencePlaced { player: p, nation: n });
        self.count_down();
    }

    pub(super) fn legal_remove_influence(&self, owner: Player, out: &mut Vec<Action>) {
        let nations = 0..self.sc.nations.len() as NationId;
        out.extend(nations.filter(|&n| self.influence[n as usize][owner.index()] > 0).map(Action::RemoveInfluence));
    }

    pub(super) fn check_remove_influence(&self, n: NationId) -> Result<(), VgError> {
        let Some(Pending::RemoveInfluence { owner, .. }) = self.pending.first() else {
            return Err(self.wrong_step());
        };
        if (n as usize) >= self.sc.nations.len() || self.influence[n as usize][owner.index()] == 0 {
            return Err(VgError::new(
                rule::CARDS,
                format!("{}: {} has no influence there", self.nation_label(n), owner.name()),
            ));
        }
        Ok(())
    }

    pub(super) fn apply_remove_influence(&mut self, n: NationId, events: &mut Vec<Event>) {
        let Some(Pending::RemoveInfluence { owner, .. }) = self.pending.first() else { unreachable!() };
        let owner = *owner;
        self.influence[n as usize][owner.index()] -= 1;
        events.push(Event::InfluenceRemoved { owner, nation: n });
        self.count_down();
        if self.influence.iter().all(|c| c[owner.index()] == 0) {
            self.pending.retain(|x| !matches!(x, Pending::RemoveInfluence { .. }));
        }
    }

    /// The nations `p` may recruit from when a card names none: France only French units;
    /// Britain British units or any Major Nation's (VIII Recruiting).
    pub fn recruit_options(&self, p: Player) -> Vec<NationId> {
        let home = self.sc.home(p);
        let mut out = vec![home];
        if p == Player::Britain {
            out.extend((0..self.sc.nations.len() as NationId).filter(|&n| self.nation_kind(n) == NationKind::Major));
        }
        // Which nations have units in the pool, read in one pass over the pool's units (a nation
        // number is 8 bits).
        let mut pooled = [false; 256];
        for u in self.units_in(Loc::Pool) {
            pooled[self.unit_nation(u) as usize] = true;
        }
        out.retain(|&n| pooled[n as usize]);
        out
    }

    /// A nation's unused units (the stack recruits are drawn from).
    pub fn pool_of(&self, n: NationId) -> Vec<UnitId> {
        self.units_in(Loc::Pool).filter(|&u| self.unit_nation(u) == n).collect()
    }

    pub(super) fn recruit(&mut self, p: Player, n: NationId, count: u8, events: &mut Vec<Event>) {
        if self.nation_kind(n) == NationKind::Minor && !self.has_majority(p, n) {
            events.push(Event::NoMajority { player: p, nation: n });
            return;
        }
        // The nation's unused units face down; `count` drawn at random.
        let mut pool = self.pool_of(n);
        self.rng.shuffle(&mut pool);
        self.chance = true;
        let dest = self.home_loc(n, p);
        let got: Vec<UnitId> = pool.into_iter().take(count as usize).collect();
        for &u in &got {
            self.units.set(u as usize, dest);
        }
        let placed = match dest {
            Loc::Army(q) => Some(q),
            _ => None,
        };
        events.push(Event::Recruited { player: p, nation: n, count: got.len() as u8, placed });
    }

    pub(super) fn legal_recruit(&self, player: Player, out: &mut Vec<Action>) {
        out.extend(self.recruit_options(player).into_iter().map(Action::RecruitFrom));
    }

    pub(super) fn check_recruit(&self, n: NationId) -> Result<(), VgError> {
        let Some(Pending::RecruitNation { player, .. }) = self.pending.first() else {
            return Err(self.wrong_step());
        };
        if !self.recruit_options(*player).contains(&n) {
            return Err(VgError::new(
                rule::CARDS,
                format!(
                    "{}: {}",
                    self.nation_label(n),
                    if *player == Player::France {
                        "the French player must recruit French units"
                    } else {
                        "Britain recruits British units or a Major Nation's, from units still unused"
                    }
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn apply_recruit(&mut self, n: NationId, events: &mut Vec<Event>) {
        let Some(Pending::RecruitNation { player, count }) = self.pending.first().cloned() else { unreachable!() };
        self.pending.remove(0);
        self.recruit(player, n, count, events);
    }

    /// A card costs units: from the army, or from one of the campaigns the player is in.
    pub(super) fn legal_lose_from(&self, player: Player, out: &mut Vec<Action>) {
        if self.units.any_at(Loc::Army(player)) {
            out.push(Action::LoseFrom(Group::Army));
        }
        for c in self.open_campaigns() {
            if self.units.any_at(Loc::Campaign(c, player)) {
                out.push(Action::LoseFrom(Group::Campaign(c)));
            }
        }
    }

    pub(super) fn check_lose_from(&self, g: Group) -> Result<(), VgError> {
        let Some(Pending::LoseUnit { player, .. }) = self.pending.first() else { return Err(self.wrong_step()) };
        let empty = match g {
            Group::Army => !self.units.any_at(Loc::Army(*player)),
            Group::Campaign(c) => (c as usize) >= self.campaigns.len() || !self.units.any_at(Loc::Campaign(c, *player)),
        };
        if empty {
            return Err(VgError::new(rule::RESOLVING, "no such unit to lose there"));
        }
        Ok(())
    }

    /// The unit lost is drawn at random from the group chosen.
    pub(super) fn apply_lose_from(&mut self, p: Player, g: Group, events: &mut Vec<Event>) {
        let group = match g {
            Group::Army => self.army(p),
            Group::Campaign(c) => self.committed(c, p),
        };
        let u = group[self.rng.below(group.len())];
        self.chance = true;
        self.eliminate(u, events);
        self.count_down();
        if !self.has_units(p) {
            self.pending.retain(|x| !matches!(x, Pending::LoseUnit { .. }));
        }
    }

    /// One unit of a counted decision is done.
    pub(super) fn count_down(&mut self) {
        match self.pending.first_mut() {
            Some(Pending::PlaceInfluence { left, .. })
            | Some(Pending::RemoveInfluence { left, .. })
            | Some(Pending::LoseUnit { left, .. }) => {
                *left -= 1;
                if *left == 0 {
                    self.pending.remove(0);
                }
            }
            _ => {}
        }
    }
}
