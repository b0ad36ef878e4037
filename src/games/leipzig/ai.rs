//! Computer players for Leipzig 1813: a random player (fuzzing, benchmarks) and a careful
//! beginner. The beginner decides on its seat's view (blanks guessed as infantry corps): it
//! marches each counter towards the nearest city worth points that the Enemy holds (or its own
//! city under threat), keeps combat units next to a supply unit, brings supply and leaders after
//! the troops, never forced-marches on the tables (only a combat unit, with a supply unit),
//! attacks at 200% or better (300% against a fortress; a sortie against every hex it strikes)
//! with its leaders and a supply unit, takes every automatic
//! elimination, retreats before combat from an attack of 300% or more, supplies every defence,
//! advances after combat with every unit, loses its smallest counters first and uses up a
//! supply unit before a depot.

use super::actions::Action;
use super::data::{Hex, Side};
use super::observe::LzView;
use super::rules::supply::supply_near;
use super::rules::zoc::Situation;
use super::state::{Leipzig, March, UnitId};
use crate::engine::rng::TableRng;
use crate::engine::search::Budget;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LzPlayer {
    Random,
    Beginner,
    /// Weighs the beginner's choice against a few other legal actions, each played on by the
    /// beginner for a while over several deals of the blanks (`engine::search`, one level deep).
    Normal,
    /// `normal` with a longer budget.
    Strong,
    /// `strong` with ten times the budget.
    Expert,
    /// `normal` weighing the beginner's choice against legal actions drawn at random instead of
    /// its orders (`orders`): kept to measure which candidates play better.
    NormalDrawn,
}

impl LzPlayer {
    pub fn named(name: &str) -> Option<LzPlayer> {
        match name {
            "random" => Some(LzPlayer::Random),
            "beginner" | "ai" | "computer" => Some(LzPlayer::Beginner),
            "normal" => Some(LzPlayer::Normal),
            "strong" => Some(LzPlayer::Strong),
            "expert" => Some(LzPlayer::Expert),
            "normal-drawn" => Some(LzPlayer::NormalDrawn),
            _ => None,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            LzPlayer::Random => "random",
            LzPlayer::Beginner => "beginner",
            LzPlayer::Normal => "normal",
            LzPlayer::Strong => "strong",
            LzPlayer::Expert => "expert",
            LzPlayer::NormalDrawn => "normal-drawn",
        }
    }

    /// The search's budget at this level (None: the beginner or random, which do not search).
    pub fn budget(self) -> Option<Budget> {
        match self {
            LzPlayer::Random | LzPlayer::Beginner => None,
            LzPlayer::Normal | LzPlayer::NormalDrawn => Some(Budget::iterations(16, 12).flat(1).keeping_default(0.05)),
            LzPlayer::Strong => Some(Budget::iterations(48, 24).flat(1).keeping_default(0.05)),
            LzPlayer::Expert => Some(Budget::iterations(480, 24).flat(1).keeping_default(0.05)),
        }
    }
}

/// Picks an action for the deciding seat: the beginner plays on a sample of its view, never on
/// the real table.
pub fn choose(view: impl FnOnce() -> LzView, legal: &[Action], player: LzPlayer, rng: &mut TableRng) -> Action {
    if legal.len() == 1 {
        return legal[0].clone();
    }
    match player {
        LzPlayer::Random => legal[rng.below(legal.len())].clone(),
        LzPlayer::Beginner => beginner(&view().sample(rng), legal),
        searching => {
            let view = view();
            let seat = match view.viewer {
                crate::engine::seats::Viewer::Seat(s) => s,
                crate::engine::seats::Viewer::Spectator => return beginner(&view.sample(rng), legal),
            };
            let budget = searching.budget().expect("a searching level");
            DRAWN.set(searching == LzPlayer::NormalDrawn);
            crate::engine::search::choose::<Leipzig>(&view, seat, legal, &budget, rng)
        }
    }
}

impl crate::engine::search::Searched for Leipzig {
    // Fitted on 200 beginner games (seeds 1000-1199; `examples/calibration.rs`,
    // `scripts/calibration.py`). Leipzig 1813 (scenarios 1, 5, 7 and 8 in turn): the French won 8% of
    // 200 beginner games; Brier score on held-out games 0.064 → 0.051 (in scenario 7 the evaluation is
    // not monotone: a French lead in the first turns is no sign of a French win).
    const CALIBRATION: crate::engine::search::Platt = crate::engine::search::Platt { a: 0.402, b: -0.965 };
    fn evaluate(&self, seat: crate::engine::seats::SeatId) -> f32 {
        crate::engine::search::chance_of(self, seat, || self.margin(Side::French), EVALUATION_SCALE)
    }

    /// The beginner, found without the whole list (`beginner_fast`), or one time in four a
    /// random action drawn without it (`random_action`).
    fn playout_action(&self, rng: &mut TableRng) -> Option<Action> {
        if rng.below(4) == 0 {
            return random_action(self, rng);
        }
        beginner_fast(self).map(|f| f.pick)
    }

    /// The beginner's choice and the other orders a commander would weigh beside it (`orders`);
    /// where those are fewer than `CANDIDATES`, legal actions drawn at random. The beginner's
    /// move is weighed against the other moves of its counter alone: the list of every counter's
    /// moves is not made.
    fn candidates(&self, rng: &mut TableRng, out: &mut Vec<Action>) {
        let mut legal = Vec::new();
        if DRAWN.get() {
            crate::engine::rules::Game::legal_actions(self, crate::engine::rules::Mode::Enforced, &mut legal);
            crate::engine::search::pick_and_drawn(legal, CANDIDATES, |l| beginner(self, l), rng, out);
            return;
        }
        let Some(Fast { pick, others, whole }) = beginner_fast(self) else { return };
        match &pick {
            Action::Move { unit, .. } => {
                let like = Action::Move { unit: *unit, to: Hex(0), march: March::Triple, supply: None };
                self.legal(Some(&like), &mut legal);
                legal.extend(others);
            }
            _ if whole => legal = others,
            _ => crate::engine::rules::Game::legal_actions(self, crate::engine::rules::Mode::Enforced, &mut legal),
        }
        if legal.len() <= CANDIDATES {
            // Every legal action, the beginner's first: the choice the search keeps by default.
            out.extend(legal.into_iter().filter(|a| *a != pick));
            out.insert(0, pick);
            return;
        }
        orders(self, &legal, pick, out);
        out.truncate(CANDIDATES);
        if out.len() < 2 {
            let pick = out[0].clone();
            out.clear();
            crate::engine::search::pick_and_drawn(legal, CANDIDATES, |_| pick, rng, out);
        }
    }
}

thread_local! {
    /// Whether the search on this thread weighs drawn actions instead of orders (`NormalDrawn`).
    static DRAWN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The beginner's choice `pick` first, then the orders a commander weighs beside it: for the
/// counter it moves, the move that closes on the weakest Enemy stack in reach (attack), the one
/// that falls back nearest a friendly supply unit (fall back), and ending the moves here (hold);
/// for a declared attack, the next best odds and declaring nothing more.
fn orders(g: &Leipzig, legal: &[Action], pick: Action, out: &mut Vec<Action>) {
    let me = g.deciding().unwrap_or(Side::French);
    let b = &g.sc.board;
    out.push(pick.clone());
    let add = |a: Option<Action>, out: &mut Vec<Action>| {
        if let Some(a) = a
            && !out.contains(&a)
        {
            out.push(a);
        }
    };
    match &pick {
        Action::Move { unit, .. } => {
            let u = *unit;
            // The counter's ordinary moves (a forced march is the beginner's call alone).
            let moves: Vec<&Action> = legal
                .iter()
                .filter(|a| matches!(a, Action::Move { unit, march: March::Normal, .. } if *unit == u))
                .collect();
            let to_of = |a: &Action| match a {
                Action::Move { to, .. } => *to,
                _ => Hex(0),
            };
            if g.is_combat(u) {
                // Attack: next to the Enemy stack of the least strength within reach.
                let enemy_stacks: Vec<(Hex, u32)> = {
                    let mut v: Vec<(Hex, u32)> = Vec::new();
                    for x in g.on_map(me.other()).filter(|&x| g.is_combat(x)) {
                        let Some(h) = g.hex_of(x) else { continue };
                        match v.iter_mut().find(|(k, _)| *k == h) {
                            Some(e) => e.1 += g.strength(x) as u32,
                            None => v.push((h, g.strength(x) as u32)),
                        }
                    }
                    v
                };
                let attack = moves
                    .iter()
                    .filter_map(|a| {
                        let to = to_of(a);
                        let weakest =
                            enemy_stacks.iter().filter(|(h, _)| b.distance(*h, to) == 1).map(|e| e.1).min()?;
                        Some((weakest, *a))
                    })
                    .min_by_key(|(w, _)| *w)
                    .map(|(_, a)| a.clone());
                add(attack, out);
            }
            // Fall back: the move that ends nearest a friendly supply unit, furthest from the Enemy.
            let supply: Vec<Hex> = g.on_map(me).filter(|&x| g.is_supply(x)).filter_map(|x| g.hex_of(x)).collect();
            let enemy: Vec<Hex> =
                g.on_map(me.other()).filter(|&x| g.is_combat(x)).filter_map(|x| g.hex_of(x)).collect();
            let fall_back = moves
                .iter()
                .min_by_key(|a| {
                    let to = to_of(a);
                    let near_supply = supply.iter().map(|&h| b.distance(h, to)).min().unwrap_or(0);
                    let from_enemy = enemy.iter().map(|&h| b.distance(h, to)).min().unwrap_or(99);
                    near_supply as i64 * 4 - from_enemy.min(8) as i64
                })
                .map(|a| (*a).clone());
            add(fall_back, out);
            // Hold: every counter stays where it stands now.
            add(legal.iter().find(|a| matches!(a, Action::EndMovement)).cloned(), out);
        }
        Action::Declare { .. } => {
            // The next best odds, then declaring nothing more.
            let s = Situation::of(g);
            let mut odds: Vec<(u32, &Action)> = legal
                .iter()
                .filter_map(|a| {
                    let Action::Declare { from, units, target, supply } = a else { return None };
                    let sortie = b.is_fortress(*from);
                    let (att, _) = g.attack_strength(units, supply.is_some() || sortie, sortie);
                    let targets = g.attack_targets(&s, *from, *target);
                    let river = !sortie && b.river_line(*from, *target);
                    let supplied = targets.iter().all(|&t| g.defender_could_supply(t));
                    let (def, _) = g.defense_strength(&targets, supplied, river);
                    Some((Leipzig::percent(att, def), a))
                })
                .collect();
            odds.sort_by_key(|(p, _)| std::cmp::Reverse(*p));
            for (_, a) in odds.into_iter().take(2) {
                add(Some(a.clone()), out);
            }
            add(legal.iter().find(|a| matches!(a, Action::EndDeclarations)).cloned(), out);
        }
        Action::EndMovement => {
            // Hold was the beginner's call: the move its best counter would make towards the Enemy.
            add(legal.iter().find(|a| matches!(a, Action::Move { march: March::Normal, .. })).cloned(), out);
        }
        Action::EndDeclarations => {
            add(legal.iter().find(|a| matches!(a, Action::Declare { .. })).cloned(), out);
        }
        _ => {}
    }
}

/// The most actions a search weighs at one decision.
const CANDIDATES: usize = 4;

/// The victory points of judgement that make an even chance go to about three in four.
const EVALUATION_SCALE: f32 = 6.0;

impl Leipzig {
    /// How far `side` leads: the victory points as they stand (cities by their last occupier,
    /// destroyed units, groups off the east edge) and a third of a point for each strength point
    /// of combat units on the map.
    pub fn margin(&self, side: Side) -> f32 {
        let vp = self.victory_points(false);
        let mut strength = [0.0f32; 2];
        for s in [Side::French, Side::Allied] {
            strength[s.index()] = self.on_map(s).map(|u| self.strength(u) as f32).sum();
        }
        let (me, other) = (side.index(), 1 - side.index());
        (vp[me] - vp[other]) as f32 + (strength[me] - strength[other]) / 3.0
    }
}

/// A random legal action drawn without listing every move: a counter that can move is one more
/// choice beside the other actions; drawn, one of its destinations (and march, and supply unit)
/// is drawn in turn. Cheap where the full list needs a search of the map for every counter.
pub fn random_action(g: &Leipzig, rng: &mut TableRng) -> Option<Action> {
    // One map as the deciding side sees it, for the other actions and the moves alike.
    let s = Situation::as_seen_by(g, g.deciding()?);
    let mut others = Vec::new();
    let movers = g.legal_but_moves(&s, &mut others);
    for _ in 0..4 * (others.len() + movers.len()) {
        let k = rng.below(others.len() + movers.len());
        if k < others.len() {
            return Some(others[k].clone());
        }
        let u = movers[k - others.len()];
        // The march first (its allowance most often), then a hex it reaches: a search only as
        // wide as that march.
        let march = match rng.below(10) {
            0..=6 => March::Normal,
            7 | 8 => March::Double,
            _ => March::Triple,
        };
        let dests: Vec<(Hex, u8, March)> = g.drawn_destinations_of(&s, u, march);
        if dests.is_empty() {
            continue;
        }
        let (to, _, march) = dests[rng.below(dests.len())];
        let supply = if march == March::Normal || g.free_march(u) {
            None
        } else {
            let sup = g.march_supplies(u);
            let k = rng.below(sup.len() + 1);
            sup.get(k).copied()
        };
        return Some(Action::Move { unit: u, to, march, supply });
    }
    // Nothing drawn (a counter that must move only has forced marches left): the first move of
    // any counter, else the first other action.
    movers
        .iter()
        .find_map(|&u| {
            g.all_destinations(&s, u, March::Triple).first().map(|&(to, _, march)| Action::Move {
                unit: u,
                to,
                march,
                supply: None,
            })
        })
        .or_else(|| others.first().cloned())
}

/// The kinds of action a legal list holds, found in one pass (the beginner asked a dozen
/// questions of a list of thousands of moves, each a pass of its own): for each kind the
/// beginner takes as it comes, the first listed.
#[derive(Default)]
struct Kinds {
    deploy_rest: bool,
    advance: bool,
    halt_march: bool,
    remove: bool,
    use_supply: bool,
    overrun: Option<usize>,
    defend_with_supply: Option<usize>,
    resolve: bool,
    retreat: bool,
    enter: bool,
    declare: bool,
    retreat_before: bool,
    movement: bool,
    end_movement: bool,
    end_build: bool,
}

impl Kinds {
    fn of(legal: &[Action]) -> Kinds {
        let mut k = Kinds::default();
        for (i, a) in legal.iter().enumerate() {
            match a {
                Action::DeployRest => k.deploy_rest = true,
                Action::Advance => k.advance = true,
                Action::HaltMarch => k.halt_march = true,
                Action::Remove { .. } => k.remove = true,
                Action::UseSupply { .. } => k.use_supply = true,
                Action::Overrun { .. } => {
                    k.overrun.get_or_insert(i);
                }
                Action::DefendSupply { supply: Some(_), .. } => {
                    k.defend_with_supply.get_or_insert(i);
                }
                Action::Resolve { .. } => k.resolve = true,
                Action::Retreat { .. } => k.retreat = true,
                Action::Enter { .. } => k.enter = true,
                Action::Declare { .. } => k.declare = true,
                Action::RetreatBefore { .. } => k.retreat_before = true,
                Action::Move { .. } => k.movement = true,
                Action::EndMovement => (k.movement, k.end_movement) = (true, true),
                Action::EndBuild => k.end_build = true,
                _ => {}
            }
        }
        k
    }
}

/// The beginner's choice among the legal actions.
pub fn beginner(g: &Leipzig, legal: &[Action]) -> Action {
    let me = g.deciding().unwrap_or(Side::French);
    let first = legal[0].clone();
    let has = Kinds::of(legal);
    if has.deploy_rest {
        return Action::DeployRest;
    }
    // Decisions with a fixed answer.
    if has.advance {
        return Action::Advance;
    }
    if has.halt_march {
        return Action::HaltMarch;
    }
    if has.remove {
        // The smallest counters go first: the fewest divisions broken down.
        return best_by(legal, |a| match a {
            Action::Remove { unit } => -(i32::from(g.divisions(*unit)) * 1000 + *unit as i32),
            _ => i32::MIN,
        });
    }
    if has.use_supply {
        // A supply unit before a depot (a depot is worth two), then the first listed.
        return best_by(legal, |a| match a {
            Action::UseSupply { unit } => {
                -(i32::from(super::rules::supply::supply_rank(g, *unit)) * 1000 + *unit as i32)
            }
            _ => i32::MIN,
        });
    }
    if let Some(i) = has.overrun.or(has.defend_with_supply) {
        return legal[i].clone();
    }
    if has.resolve {
        return first;
    }
    if has.retreat {
        // The way that ends nearest a friendly counter.
        return best_by(legal, |a| match a {
            Action::Retreat { to } => -(nearest_friend(g, me, *to) as i32),
            _ => i32::MIN,
        });
    }
    if has.enter {
        let goal = objective_centre(g, me);
        return best_by(legal, |a| match a {
            Action::Enter { hex, .. } => -(g.sc.board.distance(*hex, goal) as i32),
            _ => i32::MIN,
        });
    }
    if has.declare {
        return declare(g, legal).unwrap_or(Action::EndDeclarations);
    }
    if has.retreat_before {
        return retreat_before(g, legal).unwrap_or(Action::EndRetreats);
    }
    if has.movement {
        return movement(g, me, legal)
            .or_else(|| has.end_movement.then_some(Action::EndMovement))
            .unwrap_or_else(|| unstack(g, legal).unwrap_or(first));
    }
    if has.end_build {
        return Action::EndBuild;
    }
    first
}

fn best_by(legal: &[Action], score: impl Fn(&Action) -> i32) -> Action {
    legal.iter().max_by_key(|a| score(a)).cloned().expect("a legal action")
}

fn nearest_friend(g: &Leipzig, side: Side, h: Hex) -> u32 {
    g.on_map(side)
        .filter_map(|u| g.hex_of(u))
        .filter(|&x| x != h)
        .map(|x| g.sc.board.distance(x, h))
        .min()
        .unwrap_or(99)
}

/// The cities worth points a side wants: those the Enemy holds, else its own.
fn objectives(g: &Leipzig, side: Side) -> Vec<Hex> {
    let mut out = Vec::new();
    for (i, (city, _)) in g.sc.victory.cities.iter().enumerate() {
        if city == "Prague" && !g.austria_at_war {
            continue;
        }
        if g.owners[i] != side
            && let Some(h) = g.sc.board.place(city)
        {
            out.push(h);
        }
    }
    if out.is_empty() {
        for (city, _) in &g.sc.victory.cities {
            if let Some(h) = g.sc.board.place(city) {
                out.push(h);
            }
        }
    }
    out
}

fn objective_centre(g: &Leipzig, side: Side) -> Hex {
    objectives(g, side).first().copied().unwrap_or(Hex(0))
}

/// Where a counter should head: troops to the nearest objective, supply units to the nearest
/// friendly combat unit without supply, leaders to the strongest friendly stack.
fn goal(g: &Leipzig, s: &Situation, u: UnitId) -> Option<Hex> {
    let side = g.units[u as usize].side;
    let at = g.hex_of(u)?;
    let b = &g.sc.board;
    if g.is_supply(u) {
        return g
            .on_map(side)
            .filter(|&x| g.is_combat(x))
            .filter_map(|x| g.hex_of(x))
            .filter(|&h| !s.supplied[side.index()][h.0 as usize] || supply_near(g, side, h) == vec![u])
            .min_by_key(|&h| b.distance(h, at));
    }
    if g.is_leader(u) {
        return g
            .on_map(side)
            .filter(|&x| g.is_combat(x))
            .max_by_key(|&x| (g.strength(x), u16::MAX - x))
            .and_then(|x| g.hex_of(x));
    }
    objectives(g, side).into_iter().min_by_key(|&h| b.distance(h, at))
}

/// One move that brings a counter nearer its goal without leaving supply, or None to end the
/// Movement Phase. Garrisons of fortresses holding a city stay.
fn movement(g: &Leipzig, me: Side, legal: &[Action]) -> Option<Action> {
    let mut scorer = MoveScore::new(g, me);
    let mut best: Option<(i32, &Action)> = None;
    for a in legal {
        let Action::Move { unit, to, march, supply } = a else { continue };
        let Some(score) = scorer.of(*unit, *to, *march, *supply) else { continue };
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, a));
        }
    }
    best.filter(|(s, _)| *s > 0).map(|(_, a)| a.clone())
}

/// How the beginner's movement scores a move: what the scores ask, found once a counter or a
/// hex instead of once a move (a list holds thousands of moves, a few counters' each): each
/// counter's facts (`Mover`), and the Enemy's strength beside each hex.
struct MoveScore<'a> {
    g: &'a Leipzig,
    me: Side,
    s: std::rc::Rc<Situation>,
    movers: Vec<Option<Mover>>,
    /// The strength of the Enemy's combat units on each hex.
    enemy_on: Vec<u32>,
    enemy_beside: Vec<Option<u32>>,
}

impl<'a> MoveScore<'a> {
    fn new(g: &'a Leipzig, me: Side) -> MoveScore<'a> {
        let mut enemy_on = vec![0; g.sc.board.len()];
        for u in g.on_map(me.other()).filter(|&u| g.is_combat(u)) {
            if let Some(h) = g.hex_of(u) {
                enemy_on[h.0 as usize] += g.strength(u) as u32;
            }
        }
        MoveScore {
            g,
            me,
            s: Situation::of(g),
            movers: vec![None; g.units.len()],
            enemy_on,
            enemy_beside: vec![None; g.sc.board.len()],
        }
    }

    fn mover(&mut self, u: UnitId) -> Mover {
        let (g, s) = (self.g, &self.s);
        *self.movers[u as usize].get_or_insert_with(|| Mover::of(g, s, u))
    }

    /// The move's score, None for a move the beginner never makes.
    fn of(&mut self, unit: UnitId, to: Hex, march: March, supply: Option<UnitId>) -> Option<i32> {
        let m = self.mover(unit);
        let (me, b) = (self.me, &self.g.sc.board);
        if march != March::Normal && supply.is_none() && !m.free_march {
            return None; // never the tables
        }
        if march != March::Normal && supply.is_some() && !m.combat {
            return None; // a leader or a supply unit keeps up without spending supply
        }
        if march != March::Normal && supply.is_some() && m.near {
            return None; // a supply unit spent on a march only for a long way
        }
        let from = m.from?;
        if m.last_garrison {
            return None; // the last garrison stays
        }
        let goal = m.goal?;
        let gain = b.distance(from, goal) as i32 - b.distance(to, goal) as i32;
        if gain <= 0 {
            return None;
        }
        let mut score = gain * 10;
        if m.combat && !self.s.supplied[me.index()][to.0 as usize] {
            score -= 15; // out of supply: halved in combat
        }
        // Do not stand alone next to a much stronger Enemy stack.
        let on = &self.enemy_on;
        let enemy = *self.enemy_beside[to.0 as usize]
            .get_or_insert_with(|| b.neighbours(to).map(|(_, n)| on[n.0 as usize]).sum());
        if enemy > 3 * m.strength + 4 {
            score -= 40;
        }
        Some(score)
    }
}

/// What `beginner_fast` found: the beginner's choice and the actions listed beside the moves.
pub struct Fast {
    pub pick: Action,
    pub others: Vec<Action>,
    /// `others` is the whole legal list (no counter may move): the search's candidates read it
    /// instead of listing again.
    pub whole: bool,
}

/// The beginner's choice without listing every move (the playouts' and the search's
/// candidates'): the same action as `beginner(g, &legal)`, with the actions listed beside the
/// moves. In a Movement Phase a counter's map is searched only as far as a move the beginner
/// would make reaches (its ordinary allowance, unless it may force-march on the beginner's
/// terms), and not at all for a counter with nowhere to go: the whole list searches every
/// counter at three times its allowance, the cost of most of a playout.
pub fn beginner_fast(g: &Leipzig) -> Option<Fast> {
    let me = g.deciding()?;
    let seen = Situation::as_seen_by(g, me);
    let mut others = Vec::new();
    let movers = g.legal_but_moves(&seen, &mut others);
    if movers.is_empty() {
        return (!others.is_empty()).then(|| Fast { pick: beginner(g, &others), others, whole: true });
    }
    // The Movement Phase: an overrun first (the beginner's order), then the best move.
    if let Some(a) = others.iter().find(|a| matches!(a, Action::Overrun { .. })) {
        return Some(Fast { pick: a.clone(), others, whole: false });
    }
    let mut scorer = MoveScore::new(g, me);
    let mut best: Option<(i32, Action)> = None;
    for &u in &movers {
        let m = scorer.mover(u);
        if m.from.is_none() || m.goal.is_none() || m.last_garrison {
            continue; // no move of it scores
        }
        let supplies = g.march_supplies(u);
        // The list offers each hex under the smallest march that reaches it, and a move at a
        // forced march scores only for a counter that marches free, or a combat unit far from
        // its goal with a supply unit to spend: for the others an ordinary move's search does.
        let forced = m.free_march || (m.combat && !m.near && !supplies.is_empty());
        let upto = if forced { March::Triple } else { March::Normal };
        // A move scores at most ten a hex nearer the goal, and goes no further than its
        // allowance's worth of the cheapest step: a counter that cannot beat the best found
        // (the first of equal scores is kept) is not searched.
        if let (Some((best, _)), Some(from), Some(goal), Some(budget)) = (&best, m.from, m.goal, g.move_budget(u, upto))
        {
            let steps = budget / g.sc.least_step[usize::from(g.is_cavalry(u))];
            if 10 * g.sc.board.distance(from, goal).min(steps as u32) as i32 <= *best {
                continue;
            }
        }
        let Some((_, dests)) = g.search_destinations(&seen, u, upto) else { continue };
        for (to, _, march) in dests {
            // In the list's order: without a supply unit, then with each.
            let with: &[UnitId] = if march == March::Normal || m.free_march { &[] } else { &supplies };
            for supply in std::iter::once(None).chain(with.iter().copied().map(Some)) {
                let Some(score) = scorer.of(u, to, march, supply) else { continue };
                if best.as_ref().is_none_or(|(b, _)| score > *b) {
                    best = Some((score, Action::Move { unit: u, to, march, supply }));
                }
            }
        }
    }
    if let Some((_, a)) = best.filter(|(s, _)| *s > 0) {
        return Some(Fast { pick: a, others, whole: false });
    }
    if others.contains(&Action::EndMovement) {
        return Some(Fast { pick: Action::EndMovement, others, whole: false });
    }
    // A stack that must move apart: the whole list (rare).
    let mut legal = Vec::new();
    crate::engine::rules::Game::legal_actions(g, crate::engine::rules::Mode::Enforced, &mut legal);
    (!legal.is_empty()).then(|| Fast { pick: beginner(g, &legal), others, whole: false })
}

/// What the beginner's movement asks of a counter, whatever its move.
#[derive(Clone, Copy)]
struct Mover {
    free_march: bool,
    combat: bool,
    from: Option<Hex>,
    goal: Option<Hex>,
    /// No goal, or one within two of its moves: no supply unit spent on its march.
    near: bool,
    /// The only combat unit of a fortress it stands in: it stays.
    last_garrison: bool,
    strength: u32,
}

impl Mover {
    fn of(g: &Leipzig, s: &Situation, u: UnitId) -> Mover {
        let b = &g.sc.board;
        let from = g.hex_of(u);
        let goal = goal(g, s, u);
        Mover {
            free_march: g.free_march(u),
            combat: g.is_combat(u),
            from,
            goal,
            near: goal.zip(from).is_none_or(|(goal, at)| b.distance(goal, at) <= 2 * g.movement(u) as u32),
            last_garrison: from.is_some_and(|h| b.is_fortress(h) && g.combat_at(h).count() == 1 && g.is_combat(u)),
            strength: g.strength(u) as u32,
        }
    }
}

/// When the Movement Phase may not end (a stack without supply): an ordinary move of a counter
/// of that stack to the nearest hex it may take.
fn unstack(g: &Leipzig, legal: &[Action]) -> Option<Action> {
    let b = &g.sc.board;
    // A counter astray across the armistice line: the move that brings it nearest its side.
    if let Some(u) = g.armistice_stray() {
        let side = g.units[u as usize].side;
        return legal
            .iter()
            .filter(|a| matches!(a, Action::Move { unit, march: March::Normal, .. } if *unit == u))
            .min_by_key(|a| match a {
                Action::Move { to, .. } => b.from_side[side.index()][to.0 as usize],
                _ => u16::MAX,
            })
            .cloned();
    }
    let h = g.unfixed_stack()?;
    legal
        .iter()
        .filter(|a| matches!(a, Action::Move { unit, march: March::Normal, .. } if g.hex_of(*unit) == Some(h)))
        .min_by_key(|a| match a {
            Action::Move { to, .. } => b.distance(h, *to),
            _ => u32::MAX,
        })
        .cloned()
}

/// The best declared attack at good odds (with supply and leaders), or None.
fn declare(g: &Leipzig, legal: &[Action]) -> Option<Action> {
    let s = Situation::of(g);
    let b = &g.sc.board;
    let mut best: Option<(u32, usize, &Action)> = None;
    for a in legal {
        let Action::Declare { from, units, target, supply } = a else { continue };
        let sortie = b.is_fortress(*from);
        let (att, _) = g.attack_strength(units, supply.is_some() || sortie, sortie);
        // A sortie strikes every adjacent Enemy hex at once: the odds are against them all.
        let targets = g.attack_targets(&s, *from, *target);
        let river = !sortie && b.river_line(*from, *target);
        let supplied = targets.iter().all(|&t| g.defender_could_supply(t));
        let (def, _) = g.defense_strength(&targets, supplied, river);
        let pct = Leipzig::percent(att, def);
        let need = if targets.iter().any(|&t| b.is_fortress(t)) { 300 } else { 200 };
        if pct < need {
            continue;
        }
        let key = (pct.min(600), units.len());
        if best.is_none_or(|(p, n, _)| (key.0, key.1) > (p, n)) {
            best = Some((key.0, key.1, a));
        }
    }
    best.map(|(_, _, a)| a.clone())
}

fn retreat_before(g: &Leipzig, legal: &[Action]) -> Option<Action> {
    for a in legal {
        let Action::RetreatBefore { unit, .. } = a else { continue };
        let Some(h) = g.hex_of(*unit) else { continue };
        if g.sc.board.is_fortress(h) {
            continue;
        }
        let threatened = g.attacks.iter().filter(|x| x.targets.contains(&h)).any(|x| {
            let (att, _) = g.attack_strength(&x.units, x.supply.is_some(), x.sortie);
            let (def, _) = g.defense_strength(&x.targets, g.defender_could_supply(h), x.river);
            Leipzig::percent(att, def) >= 300
        });
        if threatened {
            return Some(a.clone());
        }
    }
    None
}
