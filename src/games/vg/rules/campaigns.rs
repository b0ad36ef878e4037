//! Campaign cards (VIII) and XII. Resolving a Campaign: a campaign card opens (or reinforces) a
//! campaign; both players commit units face down, the other player first; the units are turned up
//! and the card goes in front of the other player; at the end of the era (or by En Avant!) each
//! campaign is resolved by battle strength, the loser's units taken by the winner's choice.

use super::*;

impl Vg {
    pub(super) fn check_play_campaign(&self, p: Player, card: CardId) -> Result<(), VgError> {
        if !self.pending.is_empty() {
            return Err(self.wrong_step());
        }
        let def = self.card_check(p, card)?;
        if def.campaign.is_none() {
            return Err(VgError::new(rule::CARD_KINDS, format!("{card} is not a campaign card", card = def.name)));
        }
        Ok(())
    }

    /// A campaign card already played this era reinforces its campaign; else a campaign opens.
    pub(super) fn apply_play_campaign(&mut self, p: Player, card: CardId, events: &mut Vec<Event>) {
        self.take_card(p, card);
        self.played[p.index()] += 1;
        let c = match self.campaigns.iter().position(|x| x.card == card && !x.resolved) {
            Some(c) => c as CampaignId,
            None => {
                let def = self.sc.cards[card as usize].campaign.as_ref().expect("checked");
                self.campaigns.push(CampaignState {
                    card,
                    region: def.region,
                    naval: def.naval,
                    revealed: false,
                    resolved: false,
                    on_table: false,
                });
                (self.campaigns.len() - 1) as CampaignId
            }
        };
        self.campaigns[c as usize].revealed = false;
        events.push(Event::CampaignPlayed { player: p, card, campaign: c });
        self.tasks.push(Task::Commit(p.other(), c));
        self.tasks.push(Task::Commit(p, c));
        self.tasks.push(Task::Reveal(c, p.other()));
        self.phase = Phase::Card;
    }

    pub(super) fn legal_commit(&self, player: Player, campaign: CampaignId, committed: u8, out: &mut Vec<Action>) {
        out.extend(self.joinable(player, campaign).map(Action::CommitUnit));
        if committed > 0 {
            out.push(Action::EndCommit);
        }
    }

    pub(super) fn check_commit(&self, u: UnitId) -> Result<(), VgError> {
        let Some(Pending::Commit { player, campaign, .. }) = self.pending.first() else {
            return Err(self.wrong_step());
        };
        if (u as usize) >= self.units.len() || self.units[u as usize] != Loc::Army(*player) {
            return Err(no_such_thing());
        }
        self.unit_may_join(*player, u, *campaign).map_err(|why| {
            VgError::new(
                rule::LIMITATIONS,
                format!(
                    "{unit} cannot join a campaign {region}: {why}",
                    unit = self.unit_label(u),
                    region = self.region_name(*campaign)
                ),
            )
        })
    }

    pub(super) fn apply_commit(&mut self, u: UnitId, events: &mut Vec<Event>) {
        let Some(Pending::Commit { player, campaign, committed }) = self.pending.first_mut() else { unreachable!() };
        *committed += 1;
        let (player, campaign) = (*player, *campaign);
        self.units.set(u as usize, Loc::Campaign(campaign, player));
        events.push(Event::Committed { player, campaign });
        if !self.any_valid_unit(player, campaign) {
            self.pending.remove(0);
        }
    }

    /// The player commits no more units: said in the log, so every seat (and the audience) reads
    /// that the other side is done before the units turn up.
    pub(super) fn apply_end_commit(&mut self, events: &mut Vec<Event>) {
        let Pending::Commit { player, campaign, committed } = self.pending.remove(0) else { unreachable!() };
        events.push(Event::CommitEnded { player, campaign, committed });
    }

    pub(super) fn check_end_commit(&self) -> Result<(), VgError> {
        let Some(Pending::Commit { committed, .. }) = self.pending.first() else { return Err(self.wrong_step()) };
        if *committed == 0 {
            return Err(VgError::new(rule::CAMPAIGN_CARDS, "at least one unit must be committed to the campaign"));
        }
        Ok(())
    }

    /// The campaigns that may be resolved now (En Avant!, or the end of the era in the order the
    /// higher leadership chooses), each also offered for the miniatures table (XVI).
    pub(super) fn legal_resolve(&self, out: &mut Vec<Action>) {
        for c in self.open_campaigns() {
            if !self.campaigns[c as usize].revealed {
                continue;
            }
            out.push(Action::Resolve(c));
            if miniatures::can_fight_on_table(self, c) {
                out.push(Action::FightOnTable(c));
            }
        }
    }

    pub(super) fn check_resolve(&self, c: CampaignId) -> Result<(), VgError> {
        let (Some(Pending::EnAvant { .. }) | Some(Pending::ResolveOrder { .. })) = self.pending.first() else {
            return Err(self.wrong_step());
        };
        if !self.open_campaigns().contains(&c) || !self.campaigns[c as usize].revealed {
            return Err(VgError::new(rule::RESOLVING, "that campaign is not open"));
        }
        Ok(())
    }

    pub(super) fn apply_resolve(&mut self, c: CampaignId, events: &mut Vec<Event>) {
        self.pending.remove(0);
        self.resolve(c, None, None, events);
    }

    pub(super) fn check_choose_loss(&self, u: UnitId) -> Result<(), VgError> {
        let Some(Pending::ChooseLoss { candidates, .. }) = self.pending.first() else {
            return Err(self.wrong_step());
        };
        if !candidates.contains(&u) {
            return Err(VgError::new(rule::RESOLVING, "no such unit to lose there"));
        }
        Ok(())
    }

    pub(super) fn apply_choose_loss(&mut self, u: UnitId, events: &mut Vec<Event>) {
        let Some(Pending::ChooseLoss { campaign, .. }) = self.pending.first().cloned() else { unreachable!() };
        self.pending.remove(0);
        self.eliminate(u, events);
        if !self.pending.iter().any(|x| matches!(x, Pending::ChooseLoss { campaign: c, .. } if *c == campaign)) {
            self.return_survivors(campaign);
        }
    }

    pub(super) fn resolve(
        &mut self,
        c: CampaignId,
        forced: Option<Option<Player>>,
        converted: Option<[u8; 2]>,
        events: &mut Vec<Event>,
    ) {
        let strength = [self.battle_strength(c, Player::France), self.battle_strength(c, Player::Britain)];
        let winner = forced.unwrap_or(match strength[0].cmp(&strength[1]) {
            std::cmp::Ordering::Greater => Some(Player::France),
            std::cmp::Ordering::Less => Some(Player::Britain),
            std::cmp::Ordering::Equal => None,
        });
        let card = self.campaigns[c as usize].card;
        let sc = Arc::clone(&self.sc);
        let def = sc.cards[card as usize].campaign.as_ref().expect("a campaign card");
        events.push(Event::Resolved { card, campaign: c, strength, by_tabletop: forced.is_some(), winner });
        self.results.push(BattleResult { card, strength, winner, by_tabletop: forced.is_some() });
        self.campaigns[c as usize].resolved = true;
        // Losses: the winner its lowest unit, the loser its highest; on a tie both their lowest;
        // none when a side has no units there.
        let both = Player::BOTH.iter().all(|&p| self.units_in(Loc::Campaign(c, p)).next().is_some());
        let mut choices = Vec::new();
        if both {
            for p in Player::BOTH {
                let highest = winner == Some(p.other());
                let count = match converted {
                    Some(n) => n[p.index()] as usize,
                    None => 1,
                };
                for _ in 0..count {
                    let units = self.committed(c, p);
                    if units.is_empty() {
                        break;
                    }
                    let pick = if highest {
                        units.iter().map(|&u| self.unit_value(u)).max()
                    } else {
                        units.iter().map(|&u| self.unit_value(u)).min()
                    }
                    .expect("non-empty");
                    let candidates: Vec<UnitId> = units.into_iter().filter(|&u| self.unit_value(u) == pick).collect();
                    let distinct = candidates.iter().any(|&u| {
                        (self.unit_nation(u), self.unit_kind(u))
                            != (self.unit_nation(candidates[0]), self.unit_kind(candidates[0]))
                    });
                    if distinct && converted.is_none() && !self.is_ai(p) {
                        choices.push(Pending::ChooseLoss { player: p, campaign: c, candidates });
                    } else if distinct && self.is_ai(p) {
                        let u = candidates[self.rng.below(candidates.len())];
                        self.chance = true;
                        self.eliminate(u, events);
                    } else {
                        self.eliminate(candidates[0], events);
                    }
                }
            }
        }
        // The outcome on the card for the winner and the loser.
        if let Some(w) = winner {
            // They come before whatever else the current card still has to do.
            let outcome: Vec<Task> = def
                .win
                .iter()
                .map(|e| Task::Effect(*e, w))
                .chain(def.lose.iter().map(|e| Task::Effect(*e, w.other())))
                .collect();
            self.tasks.splice(0..0, outcome);
            // A Major Nation allied to the loser where it lost is defeated (IX).
            if let Some(r) = self.campaigns[c as usize].region
                && self.nation_kind(r) == NationKind::Major
                && self.allies[r as usize] == Some(w.other())
            {
                self.allies[r as usize] = None;
                for u in 0..self.units.len() {
                    if self.sc.units[u].nation == r && matches!(self.units[u], Loc::Army(_) | Loc::Campaign(..)) {
                        self.units.set(u, Loc::Holding);
                    }
                }
                events.push(Event::Defeated { nation: r });
            }
        }
        // The campaign card leaves play.
        for p in 0..2 {
            self.in_front[p].retain(|&x| x != card);
        }
        if choices.is_empty() {
            self.return_survivors(c);
        } else {
            self.pending.extend(choices);
        }
    }

    /// After a campaign, surviving units go back in front of their player (or home).
    pub(super) fn return_survivors(&mut self, c: CampaignId) {
        for p in Player::BOTH {
            // The campaign's units read from its row of bits (not every unit of the game), then
            // moved: where one goes does not depend on where another went.
            let there: smallvec::SmallVec<[UnitId; 32]> = self.units_in(Loc::Campaign(c, p)).collect();
            for u in there {
                let n = self.unit_nation(u);
                let home = match self.nation_kind(n) {
                    NationKind::Major => self.home_loc(n, p),
                    _ => Loc::Army(p),
                };
                self.units.set(u as usize, home);
            }
        }
    }
}
