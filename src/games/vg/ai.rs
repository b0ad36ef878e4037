//! Computer players for Victory & Glory: a random player (for fuzzing and benchmarks) and the
//! solo AI of section XV: cards picked blind, the better text chosen (a coin toss when neither is
//! clearly better), influence placed by the four-step hierarchy, British and French recruiting by
//! theirs. Where section XV is silent (how many units to commit, which campaign to resolve first)
//! the AI takes a plain sensible choice, each said below. All choose among the legal actions.

use super::actions::Action;
use super::data::{Effect, NationId, NationKind, Player, Who};
use super::observe::VgView;
use super::state::{CardId, Pending, Text, Vg};
use crate::engine::rng::TableRng;
use crate::engine::rules::Game;
use crate::engine::search::{Budget, Searched};
use crate::engine::seats::SeatId;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VgPlayer {
    Random,
    /// The AI side of section XV, on a table set for the solo game.
    #[value(alias = "ai")]
    Solo,
    /// Section XV's choices at a table of two (the book's AI without its solo rules).
    Beginner,
    /// `strong` with a tenth of its budget.
    Normal,
    /// Searches (`engine::search`): a tree of both seats' actions over many deals of what it
    /// cannot see.
    Strong,
    /// `strong` with ten times the budget.
    Expert,
}

impl VgPlayer {
    pub fn label(self) -> &'static str {
        match self {
            VgPlayer::Random => "random",
            VgPlayer::Solo => "solo",
            VgPlayer::Beginner => "beginner",
            VgPlayer::Normal => "normal",
            VgPlayer::Strong => "strong",
            VgPlayer::Expert => "expert",
        }
    }
}

/// The search's budget at each level: `normal` a tenth of `strong`, `expert` ten times.
/// (Playouts of 30 random actions: 17 of 20 games as Britain against the beginner, 9 of 20
/// without.)
pub const NORMAL: Budget = Budget::iterations(STRONG_ITERATIONS / 10, 30);
pub const STRONG: Budget = Budget::iterations(STRONG_ITERATIONS, 30);
pub const EXPERT: Budget = Budget::iterations(10 * STRONG_ITERATIONS, 30);
const STRONG_ITERATIONS: u32 = 1_000;

/// Picks an action for the deciding seat from its view (asked for only by the computer
/// players): they play on samples of what they cannot see (the other hand, the deck, face-down
/// units), never on the real table.
pub fn choose(view: impl FnOnce() -> VgView, legal: &[Action], player: VgPlayer, rng: &mut TableRng) -> Action {
    if legal.len() == 1 {
        return legal[0].clone();
    }
    match player {
        VgPlayer::Random => legal[rng.below(legal.len())].clone(),
        VgPlayer::Solo | VgPlayer::Beginner => solo_choice(&view().sample(rng), legal, rng),
        VgPlayer::Normal | VgPlayer::Strong | VgPlayer::Expert => {
            let view = view();
            let seat = view.seat().expect("a seat decides");
            let budget = match player {
                VgPlayer::Normal => NORMAL,
                VgPlayer::Strong => STRONG,
                _ => EXPERT,
            };
            crate::engine::search::choose::<Vg>(&view, seat, legal, &budget, rng)
        }
    }
}

impl Searched for Vg {
    // Fitted on 200 beginner games (seeds 1000-1199; `examples/calibration.rs`,
    // `scripts/calibration.py`). Victory & Glory: France won 94% of 200 beginner games, where the
    // evaluation often gave it less than a tenth; Brier score on held-out games 0.303 → 0.023.
    const CALIBRATION: crate::engine::search::Platt = crate::engine::search::Platt { a: 0.448, b: 3.227 };
    fn evaluate(&self, seat: SeatId) -> f32 {
        crate::engine::search::chance_of(self, seat, || self.margin(Player::France), EVALUATION_SCALE)
    }

    fn playout_action(&self, rng: &mut TableRng) -> Option<Action> {
        crate::engine::search::random_legal(self, rng)
    }
}

/// The victory points of judgement that make an even chance of winning go to about three in
/// four.
const EVALUATION_SCALE: f32 = 5.0;

impl Vg {
    /// How far `p` leads, in victory points as the game would count them were the era to end
    /// now: points scored, the majorities of this era's scoring (XIII), the economy less the
    /// upkeep of national units, and a little for leadership and the units that fight campaigns.
    pub fn margin(&self, p: Player) -> f32 {
        let (me, other) = (p.index(), p.other().index());
        let mut v = (self.vp[me] - self.vp[other]) as f32;
        let era = (self.era as usize).min(self.sc.eras.len().saturating_sub(1));
        for (i, n) in self.sc.nations.iter().enumerate() {
            let vp = n.era_vp(era) as f32;
            if self.has_majority(p, i as NationId) {
                v += vp;
            } else if self.has_majority(p.other(), i as NationId) {
                v -= vp;
            }
        }
        let upkeep = |q: Player| (self.economy[q.index()] - self.national_units(q) as i16) as f32;
        v += 0.8 * (upkeep(p) - upkeep(p.other()));
        v += 0.3 * (self.leadership[me] - self.leadership[other]) as f32;
        let strength = |q: Player| self.all_units(q).iter().map(|&u| self.unit_value(u) as f32).sum::<f32>();
        v += 0.2 * (strength(p) - strength(p.other()));
        v
    }
}

fn seat_player(game: &Vg) -> Player {
    super::rules::player_of(game.active_seat().expect("a decision is open"))
}

/// The AI side's decision, section XV.
pub fn solo_choice(game: &Vg, legal: &[Action], rng: &mut TableRng) -> Action {
    let ai = seat_player(game);
    let pick = |a: Action| if legal.contains(&a) { Some(a) } else { None };
    let chosen = match game.pending.first() {
        None => Some(play_card(game, ai, legal, rng)),
        Some(Pending::PlaceInfluence { .. }) => pick(Action::PlaceInfluence(influence_target(game, ai))),
        Some(Pending::RecruitNation { .. }) => pick(Action::RecruitFrom(recruit_target(game, ai))),
        // Not in section XV: commit the strongest units until half the valid ones are committed
        // (at least one), keeping the rest for the era's other campaigns.
        Some(Pending::Commit { player, campaign, committed }) => {
            let mut valid = game.valid_units(*player, *campaign);
            valid.sort_by_key(|&u| std::cmp::Reverse(game.unit_value(u)));
            let total = valid.len() + *committed as usize;
            if (*committed as usize) * 2 >= total && *committed > 0 {
                pick(Action::EndCommit)
            } else {
                valid.first().map(|&u| Action::CommitUnit(u))
            }
        }
        // Not in section XV: resolve first the campaign where the AI is strongest.
        Some(Pending::ResolveOrder { .. }) | Some(Pending::EnAvant { .. }) => legal
            .iter()
            .filter(|a| matches!(a, Action::Resolve(_)))
            .max_by_key(|a| match a {
                Action::Resolve(c) => game.battle_strength(*c, ai) - game.battle_strength(*c, ai.other()),
                _ => i16::MIN,
            })
            .cloned(),
        Some(Pending::AllianceAny { .. }) => legal
            .iter()
            .filter(|a| matches!(a, Action::Ally(_)))
            .max_by_key(|a| match a {
                Action::Ally(n) => remaining_vp(game, *n),
                _ => 0,
            })
            .cloned(),
        _ => None,
    };
    chosen.unwrap_or_else(|| legal[rng.below(legal.len())].clone())
}

/// XV a: a card picked blind from the hand (then those in front); a campaign it cannot fight goes
/// to the player; otherwise the better text, a coin toss when neither is clearly better.
fn play_card(game: &Vg, ai: Player, legal: &[Action], rng: &mut TableRng) -> Action {
    let hand = &game.hands[ai.index()];
    let from: &[CardId] = if hand.is_empty() { &game.in_front[ai.index()] } else { hand };
    let card = from[rng.below(from.len())];
    let give = Action::SoloGiveCampaign { card };
    if legal.contains(&give) {
        return give;
    }
    if game.sc.cards[card as usize].campaign.is_some() {
        return Action::PlayCampaign { card };
    }
    let body = Action::PlayCard { card, text: Text::Body };
    let bottom = Action::PlayCard { card, text: Text::Bottom };
    if !legal.contains(&body) {
        return bottom;
    }
    let def = &game.sc.cards[card as usize];
    let b: f32 = def.body.iter().map(|e| effect_value(game, *e, ai)).sum();
    let t: f32 = def.bottom.iter().map(|e| effect_value(game, *e, ai)).sum();
    if (b - t).abs() < 0.25 {
        if rng.below(2) == 0 { body } else { bottom }
    } else if b > t {
        body
    } else {
        bottom
    }
}

/// What an effect is worth to `ai` when `ai` plays the card.
pub fn effect_value(game: &Vg, e: Effect, ai: Player) -> f32 {
    let sign = |w: Who| {
        let p = match w {
            Who::France => Player::France,
            Who::Britain => Player::Britain,
            Who::Player => ai,
            Who::Opponent => ai.other(),
        };
        if p == ai { 1.0 } else { -1.0 }
    };
    match e {
        Effect::Economy(w, a) | Effect::Leadership(w, a) | Effect::Influence(w, _, a) => sign(w) * a as f32,
        Effect::Vp(w, a) => sign(w) * 1.5 * a as f32,
        Effect::Recruit(w, n, c) => {
            // Units of a nation with none left count for nothing.
            let avail = match n {
                Some(n) => game.pool_of(n).len(),
                None => c as usize,
            };
            sign(w) * (c as usize).min(avail) as f32
        }
        Effect::LoseUnits(w, c) => -sign(w) * c as f32,
        Effect::Alliance(w, _) | Effect::AllianceAny(w) => sign(w) * 3.0,
        Effect::EnAvant => 0.5,
    }
}

fn remaining_vp(game: &Vg, n: NationId) -> u16 {
    (game.era as usize..3).map(|e| game.sc.nations[n as usize].era_vp(e) as u16).sum()
}

/// XV b: where the AI places an influence cube: (1) a nation with no cubes, (2) a tie, (3) one
/// where it has one or two fewer than the player, (4) the highest VP for all remaining rounds.
/// Within (1)-(3): the higher VP of the current era, then of all remaining rounds.
pub fn influence_target(game: &Vg, ai: Player) -> NationId {
    let category = |n: NationId| {
        let c = game.influence[n as usize];
        let (mine, theirs) = (c[ai.index()], c[ai.other().index()]);
        if mine == 0 && theirs == 0 {
            0
        } else if mine == theirs {
            1
        } else if theirs > mine && theirs - mine <= 2 {
            2
        } else {
            3
        }
    };
    let current = |n: NationId| game.sc.nations[n as usize].era_vp(game.era as usize) as u16;
    (0..game.sc.nations.len() as NationId)
        .min_by_key(|&n| {
            let cat = category(n);
            let (first, second) =
                if cat < 3 { (current(n), remaining_vp(game, n)) } else { (remaining_vp(game, n), current(n)) };
            (cat, std::cmp::Reverse(first), std::cmp::Reverse(second), n)
        })
        .expect("there are nations")
}

/// XV c: British recruiting: British units while fewer than half the economy rating are active;
/// then an allied Major Nation (Russia, Austria, Prussia, Spain); then a non-allied one (Austria,
/// Russia, Prussia, Spain). The French AI always recruits French units.
pub fn recruit_target(game: &Vg, ai: Player) -> NationId {
    let options = game.recruit_options(ai);
    let home = game.sc.home(ai);
    if ai == Player::France {
        return home;
    }
    let british_units = game.national_units(Player::Britain) as i16;
    if british_units * 2 < game.economy[Player::Britain.index()] && options.contains(&home) {
        return home;
    }
    let id = |name: &str| game.sc.nation_id(name);
    let allied = ["Russia", "Austria", "Prussia", "Spain"].into_iter().filter_map(id).find(|&n| {
        game.nation_kind(n) == NationKind::Major
            && game.allies[n as usize] == Some(Player::Britain)
            && options.contains(&n)
    });
    let neutral = || {
        ["Austria", "Russia", "Prussia", "Spain"]
            .into_iter()
            .filter_map(id)
            .find(|&n| game.allies[n as usize] != Some(Player::Britain) && options.contains(&n))
    };
    allied.or_else(neutral).or(options.first().copied()).unwrap_or(home)
}
