//! The rules of Victory & Glory: Napoleon: set-up (V), rounds and card play (VII, VIII), every
//! kind of event, campaigns with their commitment, reveal, hand-over and resolution (VIII, XII),
//! allies (IX, X), the end of the era and scoring (VII, XIII), the end of the game (XIV), the solo
//! AI's rule changes (XV) and the miniatures option (XVI). A card's effects become a queue of
//! tasks; a task that needs somebody's choice becomes a `Pending` decision, answered by an action.

use super::actions::{Action, VgError};
use super::data::{Effect, NationId, NationKind, Player, UnitKind, VgScenario, Who};
use super::miniatures;
use super::state::*;
use crate::engine::rng::TableRng;
use crate::engine::rules::{Game, Mode};
use crate::engine::seats::SeatId;
use std::sync::Arc;

/// A line of the log.
pub type Event = String;

pub fn seat_of(p: Player) -> SeatId {
    SeatId(p as u8)
}

pub fn player_of(seat: SeatId) -> Player {
    if seat.0 == 0 { Player::France } else { Player::Britain }
}

/// Sets the table up as section V says.
pub fn setup(sc: Arc<VgScenario>, seed: u64) -> (Vg, Vec<Event>) {
    let mut rng = TableRng::from_seed(seed);
    let s = &sc.setup;
    let mut influence = vec![[0u8; 2]; sc.nations.len()];
    for &(n, p, c) in &s.influence {
        influence[n as usize][p.index()] += c;
    }
    let mut allies = vec![None; sc.nations.len()];
    for &(n, p) in &s.allies {
        allies[n as usize] = Some(p);
    }
    let mut units = vec![Loc::Pool; sc.units.len()];
    for &u in &s.units {
        let nation = sc.units[u].nation;
        units[u] = match (sc.nations[nation as usize].kind, allies[nation as usize]) {
            (NationKind::Player, _) => {
                Loc::Army(if sc.nations[nation as usize].name == "France" { Player::France } else { Player::Britain })
            }
            (_, Some(p)) => Loc::Army(p),
            (_, None) => Loc::Holding,
        };
    }
    let mut deck: Vec<CardId> = (0..sc.cards.len() as CardId).filter(|&c| sc.cards[c as usize].era == 0).collect();
    rng.shuffle(&mut deck);
    let mut g = Vg {
        rng,
        phase: Phase::Play,
        era: 0,
        round: 0,
        turn: Player::Britain,
        first: Player::Britain,
        played: [0; 2],
        quota: [CARDS_PER_ROUND; 2],
        deck,
        discard: Vec::new(),
        hands: [Vec::new(), Vec::new()],
        in_front: [Vec::new(), Vec::new()],
        economy: s.economy,
        leadership: s.leadership,
        vp: s.victory_points,
        influence,
        allies,
        units,
        campaigns: Vec::new(),
        tasks: Vec::new(),
        pending: Vec::new(),
        solo: None,
        results: Vec::new(),
        chance: false,
        sc,
    };
    let mut events = vec![format!(
        "Set-up: France economy {}, leadership {}; Britain economy {}, leadership {}; Austria allied to Britain",
        g.economy[0], g.leadership[0], g.economy[1], g.leadership[1]
    )];
    g.start_round(&mut events);
    (g, events)
}

fn who(w: Who, ctx: Player) -> Player {
    match w {
        Who::France => Player::France,
        Who::Britain => Player::Britain,
        Who::Player => ctx,
        Who::Opponent => ctx.other(),
    }
}

impl Vg {
    // ---- rounds and eras ----

    fn draw(&mut self) -> Option<CardId> {
        if self.deck.is_empty() {
            // "If the draw deck runs out of cards, shuffle the cards in the discard pile."
            self.deck = std::mem::take(&mut self.discard);
            self.rng.shuffle(&mut self.deck);
        }
        self.deck.pop()
    }

    fn start_round(&mut self, events: &mut Vec<Event>) {
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
        events.push(format!(
            "— Round {} ({}, {}): {} cards dealt to each; {} plays first —",
            self.round + 1,
            self.sc.eras[self.era as usize].name,
            self.sc.eras[self.era as usize].years,
            HAND_SIZE,
            self.first.name()
        ));
        self.ai_draws_if_empty(events);
    }

    /// Solo: an AI that has run out of cards draws from the deck until it has played its 7.
    fn ai_draws_if_empty(&mut self, events: &mut Vec<Event>) {
        let p = self.turn;
        if self.is_ai(p)
            && self.phase == Phase::Play
            && self.playable_cards(p).is_empty()
            && let Some(c) = self.draw()
        {
            self.hands[p.index()].push(c);
            self.chance = true;
            events.push(format!("{} (AI) draws an extra card", p.name()));
        }
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
        if self.playable_cards(self.turn).is_empty() {
            events.push(format!("{} has no card left to play", self.turn.name()));
            self.played[self.turn.index()] = self.quota[self.turn.index()];
            self.next_turn(events);
        }
    }

    fn end_round(&mut self, events: &mut Vec<Event>) {
        for p in Player::BOTH {
            let hand = std::mem::take(&mut self.hands[p.index()]);
            self.discard.extend(hand);
        }
        events.push(format!("Round {} ends: the cards left in hand are discarded", self.round + 1));
        self.round += 1;
        if self.round.is_multiple_of(ROUNDS_PER_ERA) {
            self.phase = Phase::EraEnd;
            events.push(format!("End of the era {}", self.sc.eras[self.era as usize].years));
        } else {
            self.start_round(events);
        }
    }

    /// The end of the era once every campaign is resolved: scoring, upkeep, the next deck.
    fn score_era(&mut self, events: &mut Vec<Event>) {
        let era = self.era as usize;
        for (i, n) in self.sc.nations.iter().enumerate() {
            let vp = n.era_vp(era) as i16;
            for p in Player::BOTH {
                if self.has_majority(p, i as NationId) {
                    self.vp[p.index()] += vp;
                    events.push(format!("{}: {} holds the majority, +{vp} VP", n.name, p.name()));
                }
            }
        }
        for p in Player::BOTH {
            let units = self.national_units(p) as i16;
            let diff = self.economy[p.index()] - units;
            self.vp[p.index()] += diff;
            events.push(format!(
                "{}: economy {} less {units} {} units: {diff:+} VP",
                p.name(),
                self.economy[p.index()],
                if p == Player::France { "French" } else { "British" }
            ));
        }
        events.push(format!("Victory points: France {}, Britain {}", self.vp[0], self.vp[1]));
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
            let w = match self.vp[0].cmp(&self.vp[1]) {
                std::cmp::Ordering::Greater => "France wins",
                std::cmp::Ordering::Less => "Britain wins",
                std::cmp::Ordering::Equal => "a tie: no winner",
            };
            events.push(format!("The game ends after round 9: {w}"));
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

    // ---- the engine of tasks ----

    /// Carries out queued tasks until a decision is needed or the card (or era end) is done.
    fn advance(&mut self, events: &mut Vec<Event>) {
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
                if self.valid_units(p, c).is_empty() {
                    events.push(format!("{} has no unit that may join the campaign {}", p.name(), self.region_name(c)));
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
                let side = |p: Player| -> String {
                    let list: Vec<String> = self.committed(c, p).iter().map(|&u| self.unit_label(u)).collect();
                    if list.is_empty() { "nothing".to_string() } else { list.join(", ") }
                };
                events.push(format!(
                    "{} {}: units turned up — France: {}; Britain: {}. The card goes in front of {}",
                    self.card_name(card),
                    self.region_name(c),
                    side(Player::France),
                    side(Player::Britain),
                    to.name()
                ));
            }
            Task::Resolve(c, winner, losses) => self.resolve(c, winner, losses, events),
        }
    }

    fn clamp(&self, v: i16) -> i16 {
        v.clamp(0, self.sc.track_max)
    }

    fn run_effect(&mut self, e: Effect, ctx: Player, events: &mut Vec<Event>) {
        match e {
            Effect::Economy(w, a) => {
                let p = who(w, ctx);
                self.economy[p.index()] = self.clamp(self.economy[p.index()] + a as i16);
                events.push(format!("{} economy {a:+}: {}", p.name(), self.economy[p.index()]));
            }
            Effect::Leadership(w, a) => {
                let p = who(w, ctx);
                self.leadership[p.index()] = self.clamp(self.leadership[p.index()] + a as i16);
                events.push(format!("{} leadership {a:+}: {}", p.name(), self.leadership[p.index()]));
            }
            Effect::Vp(w, a) => {
                let p = who(w, ctx);
                self.vp[p.index()] += a as i16;
                events.push(format!("{} {a:+} VP: {}", p.name(), self.vp[p.index()]));
            }
            Effect::Influence(w, nation, a) => {
                let p = who(w, ctx);
                match (nation, a) {
                    (_, 0) => {}
                    (Some(n), a) if a > 0 => {
                        self.influence[n as usize][p.index()] += a as u8;
                        events.push(format!("{} +{a} influence in {}", p.name(), self.sc.nation_name(n)));
                    }
                    (Some(n), a) => {
                        let have = &mut self.influence[n as usize][p.index()];
                        let lost = (-a as u8).min(*have);
                        *have -= lost;
                        events.push(format!("{} loses {lost} influence in {}", p.name(), self.sc.nation_name(n)));
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
                            [] => events.push(format!("{} has no units left to recruit", p.name())),
                            [n] => self.recruit(p, *n, count, events),
                            _ => self.pending.push(Pending::RecruitNation { player: p, count }),
                        }
                    }
                }
            }
            Effect::LoseUnits(w, count) => {
                let p = who(w, ctx);
                if self.all_units(p).is_empty() {
                    events.push(format!("{} has no unit to lose", p.name()));
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
                    events.push("En Avant!: no campaign to resolve".to_string());
                } else {
                    self.pending.push(Pending::EnAvant { player: ctx });
                }
            }
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
        out.retain(|&n| !self.pool_of(n).is_empty());
        out
    }

    /// A nation's unused units (the stack recruits are drawn from).
    pub fn pool_of(&self, n: NationId) -> Vec<UnitId> {
        (0..self.units.len() as UnitId)
            .filter(|&u| self.units[u as usize] == Loc::Pool && self.unit_nation(u) == n)
            .collect()
    }

    /// Where a nation's new or surviving units go: its ally's army, its holding area, or (minor
    /// nations and the player nations) the army of the player concerned.
    fn home_loc(&self, n: NationId, p: Player) -> Loc {
        match self.nation_kind(n) {
            NationKind::Major => match self.allies[n as usize] {
                Some(a) => Loc::Army(a),
                None => Loc::Holding,
            },
            NationKind::Player => {
                Loc::Army(if self.sc.home(Player::France) == n { Player::France } else { Player::Britain })
            }
            NationKind::Minor => Loc::Army(p),
        }
    }

    fn recruit(&mut self, p: Player, n: NationId, count: u8, events: &mut Vec<Event>) {
        if self.nation_kind(n) == NationKind::Minor && !self.has_majority(p, n) {
            events.push(format!("{} cannot recruit in {}: no majority of influence", p.name(), self.sc.nation_name(n)));
            return;
        }
        // The nation's unused units face down; `count` drawn at random.
        let mut pool = self.pool_of(n);
        self.rng.shuffle(&mut pool);
        self.chance = true;
        let dest = self.home_loc(n, p);
        let got: Vec<UnitId> = pool.into_iter().take(count as usize).collect();
        for &u in &got {
            self.units[u as usize] = dest;
        }
        let place = match dest {
            Loc::Army(q) => format!("in front of {}", q.name()),
            _ => "in its holding area".to_string(),
        };
        events.push(format!("{} recruits {} {} unit(s), placed {place}", p.name(), got.len(), self.sc.nation_name(n)));
    }

    /// Major Nations `p` may gain as an ally: a majority of influence, not already allied to `p`.
    pub fn ally_options(&self, p: Player) -> Vec<NationId> {
        (0..self.sc.nations.len() as NationId)
            .filter(|&n| {
                self.nation_kind(n) == NationKind::Major
                    && self.has_majority(p, n)
                    && self.allies[n as usize] != Some(p)
            })
            .collect()
    }

    fn ally(&mut self, p: Player, n: NationId, events: &mut Vec<Event>) {
        if self.allies[n as usize] == Some(p) {
            events.push(format!("{} is already allied to {}", self.sc.nation_name(n), p.name()));
            return;
        }
        let switched = self.allies[n as usize].is_some();
        self.allies[n as usize] = Some(p);
        // The nation's units leave the holding area, or (switching sides, X Spain) pass to `p`,
        // those on campaign too.
        for u in 0..self.units.len() {
            if self.sc.units[u].nation != n {
                continue;
            }
            self.units[u] = match self.units[u] {
                Loc::Holding | Loc::Army(_) => Loc::Army(p),
                Loc::Campaign(c, _) => Loc::Campaign(c, p),
                Loc::Pool => Loc::Pool,
            };
        }
        events.push(format!(
            "{} {} {}: its units are now in front of {}",
            self.sc.nation_name(n),
            if switched { "switches sides to" } else { "allies with" },
            p.name(),
            p.name()
        ));
    }

    fn eliminate(&mut self, u: UnitId, events: &mut Vec<Event>) {
        self.units[u as usize] = Loc::Pool;
        events.push(format!("{} is eliminated", self.unit_label(u)));
    }

    /// Units in front of `p` that may join campaign `c` (VIII Limitations).
    pub fn valid_units(&self, p: Player, c: CampaignId) -> Vec<UnitId> {
        self.army(p).into_iter().filter(|&u| self.unit_may_join(p, u, c).is_ok()).collect()
    }

    fn unit_may_join(&self, p: Player, u: UnitId, c: CampaignId) -> Result<(), &'static str> {
        let camp = &self.campaigns[c as usize];
        self.unit_may_join_at(p, u, camp.region, camp.naval)
    }

    /// Whether `p`'s unit `u` may join a campaign in `region` (None: at sea).
    fn unit_may_join_at(
        &self,
        p: Player,
        u: UnitId,
        region: Option<NationId>,
        naval: bool,
    ) -> Result<(), &'static str> {
        let kind = self.unit_kind(u);
        let nation = self.unit_nation(u);
        let spain = self.sc.nation_id("Spain");
        let france = self.sc.nation_id("France");
        // "Spanish military units may only be used in campaigns in Spain and France": not at sea.
        if Some(nation) == spain && (naval || (region != spain && region != france)) {
            return Err("Spanish units fight only in Spain and France");
        }
        if naval {
            return if kind == UnitKind::Navy { Ok(()) } else { Err("only naval units fight at sea") };
        }
        let Some(region) = region else { return Err("a land campaign has a region") };
        if kind == UnitKind::Navy && !self.sc.nations[region as usize].naval {
            return Err("naval units may not be sent there");
        }
        if Some(region) == spain
            && p == Player::Britain
            && nation != self.sc.home(Player::Britain)
            && Some(nation) != spain
        {
            return Err("only British and Spanish units may join Britain's campaigns in Spain");
        }
        Ok(())
    }

    // ---- campaigns ----

    fn resolve(
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
        let def = self.sc.cards[card as usize].campaign.clone().expect("a campaign card");
        events.push(format!(
            "{} {} resolved: France {} against Britain {}{} — {}",
            self.card_name(card),
            self.region_name(c),
            strength[0],
            strength[1],
            if forced.is_some() { " (decided on the miniatures table)" } else { "" },
            match winner {
                Some(w) => format!("{} wins", w.name()),
                None => "a tie: no winner".to_string(),
            }
        ));
        self.results.push(BattleResult { card, strength, winner, by_tabletop: forced.is_some() });
        self.campaigns[c as usize].resolved = true;
        // Losses: the winner its lowest unit, the loser its highest; on a tie both their lowest;
        // none when a side has no units there.
        let both = !self.committed(c, Player::France).is_empty() && !self.committed(c, Player::Britain).is_empty();
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
                        self.units[u] = Loc::Holding;
                    }
                }
                events.push(format!(
                    "{} is defeated: no longer allied, its units return to its holding area",
                    self.sc.nation_name(r)
                ));
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
    fn return_survivors(&mut self, c: CampaignId) {
        for u in 0..self.units.len() {
            if let Loc::Campaign(x, p) = self.units[u]
                && x == c
            {
                let n = self.sc.units[u].nation;
                self.units[u] = match self.nation_kind(n) {
                    NationKind::Major => self.home_loc(n, p),
                    _ => Loc::Army(p),
                };
            }
        }
    }

    // ---- checks ----

    fn card_check(&self, p: Player, card: CardId) -> Result<&super::data::Card, VgError> {
        let def = self.sc.cards.get(card as usize).ok_or(VgError::NoSuchThing)?;
        if !self.playable_cards(p).contains(&card) {
            return Err(VgError::NotYourCard);
        }
        Ok(def)
    }

    /// Whether the body of an event card can be chosen by `p`: alliances and minor-nation
    /// recruiting need a majority of influence.
    pub fn body_allowed(&self, p: Player, card: CardId) -> Result<(), VgError> {
        let def = &self.sc.cards[card as usize];
        for e in &def.body {
            match *e {
                Effect::Alliance(w, n) => {
                    let q = who(w, p);
                    if !self.has_majority(q, n) {
                        return Err(VgError::NeedsMajority {
                            card: def.name.clone(),
                            nation: self.sc.nation_name(n).to_string(),
                        });
                    }
                }
                Effect::Recruit(w, Some(n), _)
                    if self.nation_kind(n) == NationKind::Minor && !self.has_majority(who(w, p), n) =>
                {
                    return Err(VgError::NeedsMajority {
                        card: def.name.clone(),
                        nation: self.sc.nation_name(n).to_string(),
                    });
                }
                Effect::AllianceAny(w) if self.ally_options(who(w, p)).is_empty() => {
                    return Err(VgError::BodyImpossible {
                        card: def.name.clone(),
                        why: "no Major Nation where the majority of influence is held".to_string(),
                    });
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Solo XV a: a campaign card would obviously disadvantage the AI: it has no unit to send, or
    /// its available units are outnumbered 2 to 1 by the player's.
    pub fn campaign_disadvantages_ai(&self, card: CardId) -> bool {
        let Some(ai) = self.solo else { return false };
        let Some(camp) = &self.sc.cards[card as usize].campaign else { return false };
        // XV a: the units each side could send, under the same limitations as a real commitment
        // (naval units at sea, Spanish units only in Spain and France, ...).
        let fits = |p: Player| {
            self.army(p).into_iter().filter(|&u| self.unit_may_join_at(p, u, camp.region, camp.naval).is_ok()).count()
        };
        let (mine, theirs) = (fits(ai), fits(ai.other()));
        mine == 0 || theirs >= 2 * mine
    }

    fn step_name(&self) -> String {
        match self.pending.first() {
            Some(p) => format!("{p:?}").split([' ', '{']).next().unwrap_or("").to_string(),
            None => format!("{:?}", self.phase),
        }
    }

    /// The tabletop result of a campaign, checked and converted to board losses (XVI).
    pub fn tabletop_losses(
        &self,
        c: CampaignId,
        winner: Option<Player>,
        lost: Option<[u16; 2]>,
    ) -> Result<Option<[u8; 2]>, VgError> {
        let Some(w) = winner else {
            return Err(VgError::BadTabletop {
                why: "a winner must be entered (the side that broke 50% of the enemy)".into(),
            });
        };
        let _ = w;
        let Some(lost) = lost else { return Ok(None) };
        let mut out = [0u8; 2];
        for p in Player::BOTH {
            let units = self.committed(c, p);
            let sheet = miniatures::side_sheet(self, &units);
            if lost[p.index()] as u32 > sheet.tabletop_units {
                return Err(VgError::BadTabletop {
                    why: format!(
                        "{} lost {} tabletop units but brought only {}",
                        p.name(),
                        lost[p.index()],
                        sheet.tabletop_units
                    ),
                });
            }
            out[p.index()] = miniatures::board_losses(self, &units, lost[p.index()] as u32, winner == Some(p)) as u8;
        }
        Ok(Some(out))
    }
}

impl Game for Vg {
    type Action = Action;
    type Event = Event;
    type Error = VgError;
    type View = super::observe::VgView;

    const ID: &'static str = super::data::GAME_ID;

    fn scenario(&self) -> crate::engine::save::ScenarioRef {
        crate::engine::save::ScenarioRef {
            name: self.sc.name.clone(),
            path: self.sc.path.clone(),
            hash: self.sc.hash.clone(),
        }
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &["France", "Britain"]
    }

    fn active_seat(&self) -> Option<SeatId> {
        if self.phase == Phase::GameOver {
            return None;
        }
        let p = match self.pending.first() {
            Some(Pending::Commit { player, .. })
            | Some(Pending::PlaceInfluence { player, .. })
            | Some(Pending::RecruitNation { player, .. })
            | Some(Pending::LoseUnit { player, .. })
            | Some(Pending::ChooseLoss { player, .. })
            | Some(Pending::AllianceAny { player })
            | Some(Pending::EnAvant { player }) => *player,
            // XV d: the player removes the AI's cubes.
            Some(Pending::RemoveInfluence { owner, .. }) => {
                if self.is_ai(*owner) {
                    owner.other()
                } else {
                    *owner
                }
            }
            Some(Pending::ResolveOrder { chooser }) | Some(Pending::TabletopResult { chooser, .. }) => *chooser,
            None => self.turn,
        };
        Some(seat_of(p))
    }

    fn legal_actions(&self, _mode: Mode, out: &mut Vec<Action>) {
        out.clear();
        if self.phase == Phase::GameOver {
            return;
        }
        let nations = 0..self.sc.nations.len() as NationId;
        match self.pending.first() {
            None => {
                let p = self.turn;
                for card in self.playable_cards(p) {
                    let def = &self.sc.cards[card as usize];
                    if def.campaign.is_some() {
                        out.push(Action::PlayCampaign { card });
                        if self.is_ai(p)
                            && self.hands[p.index()].contains(&card)
                            && self.campaign_disadvantages_ai(card)
                        {
                            out.push(Action::SoloGiveCampaign { card });
                        }
                    } else {
                        if self.body_allowed(p, card).is_ok() {
                            out.push(Action::PlayCard { card, text: Text::Body });
                        }
                        out.push(Action::PlayCard { card, text: Text::Bottom });
                    }
                }
            }
            Some(Pending::Commit { player, campaign, committed }) => {
                out.extend(self.valid_units(*player, *campaign).into_iter().map(Action::CommitUnit));
                if *committed > 0 {
                    out.push(Action::EndCommit);
                }
            }
            Some(Pending::PlaceInfluence { .. }) => out.extend(nations.map(Action::PlaceInfluence)),
            Some(Pending::RemoveInfluence { owner, .. }) => out.extend(
                nations.filter(|&n| self.influence[n as usize][owner.index()] > 0).map(Action::RemoveInfluence),
            ),
            Some(Pending::RecruitNation { player, .. }) => {
                out.extend(self.recruit_options(*player).into_iter().map(Action::RecruitFrom))
            }
            Some(Pending::LoseUnit { player, .. }) => {
                if !self.army(*player).is_empty() {
                    out.push(Action::LoseFrom(Group::Army));
                }
                for c in self.open_campaigns() {
                    if !self.committed(c, *player).is_empty() {
                        out.push(Action::LoseFrom(Group::Campaign(c)));
                    }
                }
            }
            Some(Pending::ChooseLoss { candidates, .. }) => out.extend(candidates.iter().map(|&u| Action::LoseUnit(u))),
            Some(Pending::AllianceAny { player }) => {
                out.extend(self.ally_options(*player).into_iter().map(Action::Ally))
            }
            Some(Pending::EnAvant { .. }) | Some(Pending::ResolveOrder { .. }) => {
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
            Some(Pending::TabletopResult { campaign, .. }) => {
                // The players enter the result; listed: each side winning, losses by the usual rule.
                for w in Player::BOTH {
                    out.push(Action::TabletopResult { campaign: *campaign, winner: Some(w), lost: None });
                }
            }
        }
    }

    fn check(&self, _mode: Mode, seat: SeatId, action: &Action) -> Result<(), VgError> {
        let Some(active) = self.active_seat() else { return Err(VgError::GameOver) };
        if seat != active {
            return Err(VgError::NotYourTurn { active: self.seat_names()[active.0 as usize] });
        }
        let p = player_of(seat);
        let wrong = |wanted: &'static str| VgError::WrongStep { wanted, now: self.step_name() };
        let nation_ok = |n: NationId| (n as usize) < self.sc.nations.len();
        match (self.pending.first(), action) {
            (None, Action::SoloSetup { .. }) => {
                if self.round > 0 || self.played != [0, 0] || self.solo.is_some() {
                    return Err(VgError::WrongStep { wanted: "choosing solo play", now: "the game has begun".into() });
                }
            }
            (None, Action::PlayCard { card, text }) => {
                let def = self.card_check(p, *card)?;
                if def.campaign.is_some() {
                    return Err(VgError::IsCampaign { card: def.name.clone() });
                }
                if *text == Text::Body {
                    self.body_allowed(p, *card)?;
                }
            }
            (None, Action::PlayCampaign { card }) => {
                let def = self.card_check(p, *card)?;
                if def.campaign.is_none() {
                    return Err(VgError::NotCampaign { card: def.name.clone() });
                }
            }
            (None, Action::SoloGiveCampaign { card }) => {
                self.card_check(p, *card)?;
                if !self.is_ai(p) || !self.hands[p.index()].contains(card) || !self.campaign_disadvantages_ai(*card) {
                    return Err(VgError::NotDisadvantaged);
                }
            }
            (Some(Pending::Commit { player, campaign, .. }), Action::CommitUnit(u)) => {
                if (*u as usize) >= self.units.len() || self.units[*u as usize] != Loc::Army(*player) {
                    return Err(VgError::NoSuchThing);
                }
                self.unit_may_join(*player, *u, *campaign).map_err(|why| VgError::InvalidUnit {
                    unit: self.unit_label(*u),
                    region: self.region_name(*campaign),
                    why,
                })?;
            }
            (Some(Pending::Commit { committed, .. }), Action::EndCommit) => {
                if *committed == 0 {
                    return Err(VgError::MustCommit);
                }
            }
            (Some(Pending::PlaceInfluence { .. }), Action::PlaceInfluence(n)) => {
                if !nation_ok(*n) {
                    return Err(VgError::NoSuchThing);
                }
            }
            (Some(Pending::RemoveInfluence { owner, .. }), Action::RemoveInfluence(n)) => {
                if !nation_ok(*n) || self.influence[*n as usize][owner.index()] == 0 {
                    return Err(VgError::BadNation {
                        nation: self.sc.nations.get(*n as usize).map(|x| x.name.clone()).unwrap_or_default(),
                        why: format!("{} has no influence there", owner.name()),
                    });
                }
            }
            (Some(Pending::RecruitNation { player, .. }), Action::RecruitFrom(n)) => {
                if !self.recruit_options(*player).contains(n) {
                    return Err(VgError::BadNation {
                        nation: self.sc.nations.get(*n as usize).map(|x| x.name.clone()).unwrap_or_default(),
                        why: if *player == Player::France {
                            "the French player must recruit French units".to_string()
                        } else {
                            "Britain recruits British units or a Major Nation's, from units still unused".to_string()
                        },
                    });
                }
            }
            (Some(Pending::LoseUnit { player, .. }), Action::LoseFrom(g)) => {
                let empty = match g {
                    Group::Army => self.army(*player).is_empty(),
                    Group::Campaign(c) => {
                        (*c as usize) >= self.campaigns.len() || self.committed(*c, *player).is_empty()
                    }
                };
                if empty {
                    return Err(VgError::BadLoss);
                }
            }
            (Some(Pending::ChooseLoss { candidates, .. }), Action::LoseUnit(u)) => {
                if !candidates.contains(u) {
                    return Err(VgError::BadLoss);
                }
            }
            (Some(Pending::AllianceAny { player }), Action::Ally(n)) => {
                if !self.ally_options(*player).contains(n) {
                    return Err(VgError::BadNation {
                        nation: self.sc.nations.get(*n as usize).map(|x| x.name.clone()).unwrap_or_default(),
                        why: "an alliance needs a Major Nation where you hold the majority of influence".to_string(),
                    });
                }
            }
            (Some(Pending::EnAvant { .. } | Pending::ResolveOrder { .. }), Action::Resolve(c)) => {
                if !self.open_campaigns().contains(c) || !self.campaigns[*c as usize].revealed {
                    return Err(VgError::BadCampaign);
                }
            }
            (Some(Pending::EnAvant { .. } | Pending::ResolveOrder { .. }), Action::FightOnTable(c)) => {
                if !self.open_campaigns().contains(c) || !miniatures::can_fight_on_table(self, *c) {
                    return Err(VgError::BadTabletop {
                        why: "only an open land campaign with units on both sides can be fought on the table".into(),
                    });
                }
            }
            (Some(Pending::TabletopResult { campaign, .. }), Action::TabletopResult { campaign: c, winner, lost }) => {
                if c != campaign {
                    return Err(VgError::BadCampaign);
                }
                self.tabletop_losses(*c, *winner, *lost)?;
            }
            _ => return Err(wrong("that action")),
        }
        Ok(())
    }

    fn apply(&mut self, seat: SeatId, action: &Action, events: &mut Vec<Event>) -> bool {
        let before = self.active_seat();
        self.chance = false;
        let p = player_of(seat);
        match action {
            Action::SoloSetup { ai } => {
                self.solo = Some(*ai);
                self.quota = [CARDS_PER_ROUND; 2];
                self.quota[ai.index()] = SOLO_AI_CARDS;
                self.first = *ai;
                self.turn = *ai;
                events.push(format!("Solo game: the AI plays {} (7 cards a round, the first and the last)", ai.name()));
            }
            Action::PlayCard { card, text } => {
                self.take_card(p, *card);
                self.played[p.index()] += 1;
                // A played card "is removed from play" (VII).
                let def = self.sc.cards[*card as usize].clone();
                events.push(format!(
                    "{} plays {} ({})",
                    p.name(),
                    def.name,
                    if *text == Text::Body { "body text" } else { "bottom text" }
                ));
                let effects: Vec<Effect> = match text {
                    Text::Body => def.body.clone(),
                    Text::Bottom => def.bottom.into_iter().collect(),
                };
                self.tasks.extend(effects.into_iter().map(|e| Task::Effect(e, p)));
                self.phase = Phase::Card;
            }
            Action::PlayCampaign { card } => {
                self.take_card(p, *card);
                self.played[p.index()] += 1;
                // A campaign card already played this era reinforces its campaign.
                let c = match self.campaigns.iter().position(|x| x.card == *card && !x.resolved) {
                    Some(c) => c as CampaignId,
                    None => {
                        let def = self.sc.cards[*card as usize].campaign.clone().expect("checked");
                        self.campaigns.push(CampaignState {
                            card: *card,
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
                events.push(format!(
                    "{} plays the campaign {} {}",
                    p.name(),
                    self.card_name(*card),
                    self.region_name(c)
                ));
                self.tasks.push(Task::Commit(p.other(), c));
                self.tasks.push(Task::Commit(p, c));
                self.tasks.push(Task::Reveal(c, p.other()));
                self.phase = Phase::Card;
            }
            Action::SoloGiveCampaign { card } => {
                self.take_card(p, *card);
                self.in_front[p.other().index()].push(*card);
                events.push(format!(
                    "{} (AI) cannot fight {}: the card goes in front of {}",
                    p.name(),
                    self.card_name(*card),
                    p.other().name()
                ));
                self.ai_draws_if_empty(events);
            }
            Action::CommitUnit(u) => {
                let Some(Pending::Commit { player, campaign, committed }) = self.pending.first_mut() else {
                    unreachable!()
                };
                *committed += 1;
                let (player, campaign) = (*player, *campaign);
                self.units[*u as usize] = Loc::Campaign(campaign, player);
                events.push(format!("{} commits a unit face down {}", player.name(), self.region_name(campaign)));
                if self.valid_units(player, campaign).is_empty() {
                    self.pending.remove(0);
                }
            }
            Action::EndCommit => {
                self.pending.remove(0);
            }
            Action::PlaceInfluence(n) => {
                self.influence[*n as usize][p.index()] += 1;
                events.push(format!("{} places influence in {}", p.name(), self.sc.nation_name(*n)));
                self.count_down();
            }
            Action::RemoveInfluence(n) => {
                let Some(Pending::RemoveInfluence { owner, .. }) = self.pending.first() else { unreachable!() };
                let owner = *owner;
                self.influence[*n as usize][owner.index()] -= 1;
                events.push(format!("{} loses influence in {}", owner.name(), self.sc.nation_name(*n)));
                self.count_down();
                if self.influence.iter().all(|c| c[owner.index()] == 0) {
                    self.pending.retain(|x| !matches!(x, Pending::RemoveInfluence { .. }));
                }
            }
            Action::RecruitFrom(n) => {
                let Some(Pending::RecruitNation { player, count }) = self.pending.first().cloned() else {
                    unreachable!()
                };
                self.pending.remove(0);
                self.recruit(player, *n, count, events);
            }
            Action::LoseFrom(g) => {
                let group = match g {
                    Group::Army => self.army(p),
                    Group::Campaign(c) => self.committed(*c, p),
                };
                let u = group[self.rng.below(group.len())];
                self.chance = true;
                self.eliminate(u, events);
                self.count_down();
                if self.all_units(p).is_empty() {
                    self.pending.retain(|x| !matches!(x, Pending::LoseUnit { .. }));
                }
            }
            Action::LoseUnit(u) => {
                let Some(Pending::ChooseLoss { campaign, .. }) = self.pending.first().cloned() else { unreachable!() };
                self.pending.remove(0);
                self.eliminate(*u, events);
                if !self.pending.iter().any(|x| matches!(x, Pending::ChooseLoss { campaign: c, .. } if *c == campaign))
                {
                    self.return_survivors(campaign);
                }
            }
            Action::Ally(n) => {
                self.pending.remove(0);
                self.ally(p, *n, events);
            }
            Action::Resolve(c) => {
                self.pending.remove(0);
                self.resolve(*c, None, None, events);
            }
            Action::FightOnTable(c) => {
                self.pending.remove(0);
                self.campaigns[*c as usize].on_table = true;
                self.pending.insert(0, Pending::TabletopResult { campaign: *c, chooser: p });
                events.push(format!(
                    "{} {} goes to the miniatures table: its battle sheet is ready",
                    self.card_name(self.campaigns[*c as usize].card),
                    self.region_name(*c)
                ));
            }
            Action::TabletopResult { campaign, winner, lost } => {
                let converted = self.tabletop_losses(*campaign, *winner, *lost).expect("checked");
                self.pending.remove(0);
                self.resolve(*campaign, Some(*winner), converted, events);
            }
        }
        self.advance(events);
        self.chance || self.active_seat() != before
    }

    fn observe(&self, viewer: crate::engine::seats::Viewer) -> Self::View {
        self.view_for(viewer)
    }

    fn rng(&mut self) -> &mut TableRng {
        &mut self.rng
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }

    fn winner(&self) -> Option<SeatId> {
        if !self.is_over() {
            return None;
        }
        match self.vp[0].cmp(&self.vp[1]) {
            std::cmp::Ordering::Greater => Some(seat_of(Player::France)),
            std::cmp::Ordering::Less => Some(seat_of(Player::Britain)),
            std::cmp::Ordering::Equal => None,
        }
    }
}

impl Vg {
    fn take_card(&mut self, p: Player, card: CardId) {
        self.hands[p.index()].retain(|&c| c != card);
        self.in_front[p.index()].retain(|&c| c != card);
    }

    /// One unit of a counted decision is done.
    fn count_down(&mut self) {
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
