//! The computer players for Austerlitz: *random* (any legal action) and *beginner*, which decides
//! on its seat's view: it takes the historical set-up, fires every gun at the target it hurts
//! most, attacks where the CF difference is on its side (charging when the charge pays), moves
//! its units towards the nearest enemy facing it (never into an enemy infantry unit's front it
//! does not face, nor under a loaded gun unless it strikes; in columns behind a friend while the
//! enemy is far, beside a friend in a line once it is near), forms a square against cavalry
//! when a unit stands alone, keeps its commanders with their units, and takes its reactions.

use super::actions::Action;
use super::data::{Board, Cell, Side};
use super::observe::AzView;
use super::state::{Austerlitz, Pending, Step, chebyshev, rotate};
use crate::engine::geometry::Facing;
use crate::engine::rng::TableRng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AzPlayer {
    Random,
    Beginner,
    /// Weighs the beginner's choice against a few other legal actions, each played on by the
    /// beginner for a while (`engine::search`, one level deep; the dice dealt anew each time).
    Normal,
    /// `normal` with a longer budget.
    Strong,
    /// `strong` with ten times the budget.
    Expert,
    /// `normal` weighing the beginner's choice against legal actions drawn at random instead of
    /// its orders (`orders`): kept to measure which candidates play better.
    NormalDrawn,
}

impl AzPlayer {
    pub fn named(name: &str) -> Option<AzPlayer> {
        match name {
            "random" => Some(AzPlayer::Random),
            "beginner" | "computer" => Some(AzPlayer::Beginner),
            "normal" => Some(AzPlayer::Normal),
            "strong" => Some(AzPlayer::Strong),
            "expert" => Some(AzPlayer::Expert),
            "normal-drawn" => Some(AzPlayer::NormalDrawn),
            _ => None,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            AzPlayer::Random => "random",
            AzPlayer::Beginner => "beginner",
            AzPlayer::Normal => "normal",
            AzPlayer::Strong => "strong",
            AzPlayer::Expert => "expert",
            AzPlayer::NormalDrawn => "normal-drawn",
        }
    }

    /// The search's budget at this level (None: the beginner or random, which do not search).
    pub fn budget(self) -> Option<crate::engine::search::Budget> {
        use crate::engine::search::Budget;
        match self {
            AzPlayer::Random | AzPlayer::Beginner => None,
            AzPlayer::Normal | AzPlayer::NormalDrawn => Some(Budget::iterations(16, 12).flat(1).keeping_default(0.05)),
            AzPlayer::Strong => Some(Budget::iterations(48, 24).flat(1).keeping_default(0.05)),
            AzPlayer::Expert => Some(Budget::iterations(480, 24).flat(1).keeping_default(0.05)),
        }
    }
}

/// The distance from `at` to the nearest enemy of unit `u` that `keep` admits, if any.
fn nearest(g: &Austerlitz, u: usize, at: Cell, keep: impl Fn(usize) -> bool) -> Option<i32> {
    let side = g.side_of(u);
    (0..g.units.len())
        .filter(|&v| g.side_of(v) != side && g.on_board(v) && keep(v))
        .filter_map(|v| g.units[v].at)
        .map(|c| chebyshev(c, at))
        .min()
}

fn nearest_infantry(g: &Austerlitz, u: usize) -> i32 {
    g.units[u].at.and_then(|at| nearest(g, u, at, |v| g.kind(v).is_infantry())).unwrap_or(i32::MAX)
}

/// `nearest_enemy` of a side's units from each space, measured once a space and kept for
/// the decision (the beginner asks it of every move's space, the space ahead and the start).
struct Nearest<'a> {
    board: &'a Board,
    enemies: [Vec<Cell>; 2],
    known: [Vec<i32>; 2],
}

impl<'a> Nearest<'a> {
    fn new(g: &'a Austerlitz) -> Nearest<'a> {
        let board = &g.sc.board;
        let cells = board.spaces.len();
        let mut enemies = [Vec::new(), Vec::new()];
        for v in 0..g.units.len() {
            if g.on_board(v)
                && let Some(at) = g.units[v].at
            {
                // An enemy of the other side's units.
                enemies[1 - g.side_of(v).index()].push(at);
            }
        }
        Nearest { board, enemies, known: [vec![i32::MIN; cells], vec![i32::MIN; cells]] }
    }

    /// What `nearest_enemy` answers for a unit of `side` at `at`.
    fn enemy(&mut self, side: Side, at: Cell) -> i32 {
        let known = &mut self.known[side.index()][self.board.index(at)];
        if *known == i32::MIN {
            *known = self.enemies[side.index()].iter().map(|&c| chebyshev(c, at)).min().unwrap_or(0);
        }
        *known
    }
}

/// A random legal action drawn without listing every move: a unit that may move is one more
/// choice beside the other actions; drawn, one of the spaces and facings it reaches is drawn in
/// turn. One search of the board instead of one for every unit (about 30 an action). Austerlitz
/// hides nothing, so the table is its seat's view.
pub fn random_action(g: &Austerlitz, rng: &mut TableRng) -> Option<Action> {
    // The list of the other actions in this thread's buffer (a commands step lists thousands).
    let mut others = OTHERS.with_borrow_mut(std::mem::take);
    let drawn = draw(g, rng, &mut others);
    OTHERS.with_borrow_mut(|kept| *kept = others);
    drawn
}

thread_local! {
    static OTHERS: std::cell::RefCell<Vec<Action>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `random_action` with `others` to list into.
fn draw(g: &Austerlitz, rng: &mut TableRng, others: &mut Vec<Action>) -> Option<Action> {
    let movers = g.legal_but_moves(others);
    let choices = others.len() + movers.len();
    for _ in 0..4 * choices {
        let k = rng.below(choices);
        if k < others.len() {
            return Some(others[k].clone());
        }
        let u = movers[k - others.len()];
        let reach = g.reach(u);
        if !reach.is_empty() {
            let (to, facing, _) = &reach[rng.below(reach.len())];
            return Some(Action::Move { unit: u as u8, to: *to, facing: *facing });
        }
    }
    // Nothing drawn in all those tries (units that reach nothing): one of the whole list.
    let mut legal = Vec::new();
    g.legal(&mut legal);
    (!legal.is_empty()).then(|| legal[rng.below(legal.len())].clone())
}

impl crate::engine::search::Searched for Austerlitz {
    // Fitted on 200 beginner games (seeds 1000-1199; `examples/calibration.rs`,
    // `scripts/calibration.py`). Austerlitz (historical): the French won 76% of 200 beginner games;
    // Brier score on held-out games 0.170 → 0.159.
    const CALIBRATION: crate::engine::search::Platt = crate::engine::search::Platt { a: 0.242, b: 0.673 };
    fn evaluate(&self, seat: crate::engine::seats::SeatId) -> f32 {
        crate::engine::search::chance_of(self, seat, || self.margin(Side::French), EVALUATION_SCALE)
    }

    fn new_search() {
        ROOT.set(None);
    }

    /// The beginner weighing a few units' moves at a time (`beginner_sampled`).
    fn playout_action(&self, rng: &mut TableRng) -> Option<Action> {
        beginner_sampled(self, rng)
    }

    /// The beginner's choice and the other orders a commander would weigh beside it (`orders`);
    /// where those are fewer than two, legal actions drawn at random (a commands step lists
    /// thousands of moves). Austerlitz hides nothing: every deal of a decision is the same
    /// table but for its dice, so the candidates are found once a decision (`ROOT`).
    fn candidates(&self, rng: &mut TableRng, out: &mut Vec<Action>) {
        let drawn = DRAWN.get();
        if let Some(found) = ROOT.with_borrow(|root| {
            root.as_ref().filter(|(g, d, _)| *d == drawn && g.same_but_chance(self)).map(|(_, _, c)| c.clone())
        }) {
            *out = found;
            return;
        }
        let mut legal = Vec::new();
        self.legal(&mut legal);
        if legal.len() <= CANDIDATES {
            *out = legal;
        } else {
            // The beginner draws on the same stream (its ties), so it chooses before the draws.
            let view = AzView::of(self, crate::engine::seats::Viewer::Spectator);
            let pick = choose(&view, &legal, AzPlayer::Beginner, rng);
            if !drawn {
                orders(self, &legal, pick.clone(), out);
                out.truncate(CANDIDATES);
            }
            if out.len() < 2 {
                out.clear();
                crate::engine::search::pick_and_drawn(legal, CANDIDATES, |_| pick, rng, out);
            }
        }
        ROOT.with_borrow_mut(|root| *root = Some((self.clone(), drawn, out.clone())));
    }
}

thread_local! {
    /// The last decision's candidates on this thread, with its table and whether they were
    /// drawn (`NormalDrawn`).
    static ROOT: std::cell::RefCell<Option<(Austerlitz, bool, Vec<Action>)>> = const { std::cell::RefCell::new(None) };
}

/// How many units' moves a playout's beginner weighs at a time.
const PLAYOUT_MOVERS: usize = 3;

/// The beginner as the search's playouts play it: in a step of moves it weighs the moves of a
/// few units drawn at random beside every other action, and the next few only when those leave
/// it nothing to do but end the step. The whole list searches every unit after every move (about
/// 30 searches an action, two thirds of a game's time); this makes a few.
pub fn beginner_sampled(g: &Austerlitz, rng: &mut TableRng) -> Option<Action> {
    let mut others = Vec::new();
    let mut movers = g.legal_but_moves(&mut others);
    let view = AzView::of(g, crate::engine::seats::Viewer::Spectator);
    let pick = |list: &mut Vec<Action>, rng: &mut TableRng| match list.len() {
        0 => None,
        1 => list.pop(),
        _ => Some(choose(&view, list, AzPlayer::Beginner, rng)),
    };
    if movers.is_empty() {
        return pick(&mut others, rng);
    }
    for i in (1..movers.len()).rev() {
        movers.swap(i, rng.below(i + 1));
    }
    let mut list = Vec::new();
    loop {
        // Units the beginner found nothing to do with weigh nothing beside the next ones.
        let next = PLAYOUT_MOVERS.min(movers.len());
        let mut weighed: Vec<usize> = movers.drain(..next).collect();
        weighed.sort_unstable();
        list.clear();
        g.moves_of(&weighed, &mut list);
        list.extend(others.iter().cloned());
        let chosen = pick(&mut list, rng);
        let ends = matches!(chosen, Some(Action::EndMovement | Action::EndArtillery) | None);
        if !ends || movers.is_empty() {
            return chosen;
        }
    }
}

thread_local! {
    /// Whether the search on this thread weighs drawn actions instead of orders (`NormalDrawn`).
    static DRAWN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The beginner's choice `pick` first, then the orders a commander weighs beside it: for the
/// unit it moves, the move that closes on the nearest enemy (attack) and the one that keeps
/// furthest from it (fall back), and ending the moves here (hold); for an attack or a shot, the
/// next best and none.
fn orders(g: &Austerlitz, legal: &[Action], pick: Action, out: &mut Vec<Action>) {
    out.push(pick.clone());
    let add = |a: Option<&Action>, out: &mut Vec<Action>| {
        if let Some(a) = a
            && !out.contains(a)
        {
            out.push(a.clone());
        }
    };
    match &pick {
        Action::Move { unit, .. } => {
            let u = *unit as usize;
            let mut near = Nearest::new(g);
            let side = g.side_of(u);
            let moves: Vec<(i32, &Action)> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Move { unit, to, .. } if *unit as usize == u => Some((near.enemy(side, *to), a)),
                    _ => None,
                })
                .collect();
            add(moves.iter().min_by_key(|(d, _)| *d).map(|(_, a)| *a), out);
            add(moves.iter().max_by_key(|(d, _)| *d).map(|(_, a)| *a), out);
            add(legal.iter().find(|a| matches!(a, Action::EndMovement)), out);
        }
        Action::Attack { .. } => {
            // The attack with the next best odds, then moving on without it.
            let mut attacks: Vec<(i32, &Action)> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Attack { units, target, charge } => {
                        let units: Vec<usize> = units.iter().map(|&u| u as usize).collect();
                        Some((g.odds(&units, *target, *charge, false).difference(), a))
                    }
                    _ => None,
                })
                .collect();
            attacks.sort_by_key(|(d, _)| std::cmp::Reverse(*d));
            for (_, a) in attacks.iter().take(2) {
                add(Some(*a), out);
            }
            add(legal.iter().find(|a| matches!(a, Action::EndMovement | Action::EndArtillery)), out);
        }
        Action::Fire { .. } => {
            add(legal.iter().find(|a| matches!(a, Action::Fire { .. }) && **a != pick), out);
            add(legal.iter().find(|a| matches!(a, Action::EndFire)), out);
        }
        Action::EndMovement => {
            add(legal.iter().find(|a| matches!(a, Action::Move { .. })), out);
            add(legal.iter().find(|a| matches!(a, Action::Attack { .. })), out);
        }
        _ => {}
    }
}

/// The most actions a search weighs at one decision.
const CANDIDATES: usize = 4;

/// The victory points of judgement that make an even chance go to about three in four.
const EVALUATION_SCALE: f32 = 4.0;

impl Austerlitz {
    /// How far `side` leads in victory points (whole points: eliminated and demoralised enemy
    /// units, captured commands, section 20).
    pub fn margin(&self, side: Side) -> f32 {
        let p = self.points();
        (p[side.index()] as f32 - p[side.other().index()] as f32) / 2.0
    }
}

/// The beginner's choice among `legal`, on the view.
pub fn choose(view: &AzView, legal: &[Action], player: AzPlayer, rng: &mut TableRng) -> Action {
    if let (Some(budget), crate::engine::seats::Viewer::Seat(seat)) = (player.budget(), view.viewer)
        && legal.len() > 1
    {
        DRAWN.set(player == AzPlayer::NormalDrawn);
        return crate::engine::search::choose::<Austerlitz>(view, seat, legal, &budget, rng);
    }
    if player == AzPlayer::Random || legal.len() == 1 {
        return legal[rng.below(legal.len())].clone();
    }
    let g = &view.game;
    if let Some(p) = g.pending.last() {
        return match p {
            // Reactions are always taken; a retreat keeps the unit facing the way it came.
            Pending::AttackReactions { .. } | Pending::OpportunityFire { .. } => legal[0].clone(),
            // Facing enemy infantry: attack it (the first listed) rather than take its fire.
            Pending::Faced { .. } => legal[0].clone(),
            Pending::Retreat { .. } => legal
                .iter()
                .find(
                    |a| matches!(a, Action::Retreat { toward, facing } if *facing == super::state::rotate(*toward, 4)),
                )
                .unwrap_or(&legal[0])
                .clone(),
        };
    }
    if g.step == Step::Setup {
        return Action::DeployRest;
    }
    // Shots and attacks, best first.
    let mut best: Option<(i32, &Action)> = None;
    for a in legal {
        let score = match a {
            Action::Fire { battery, .. } => Some(if *battery { 1 } else { 2 }),
            Action::Attack { units, target, charge } => {
                let units: Vec<usize> = units.iter().map(|&u| u as usize).collect();
                let d = g.odds(&units, *target, *charge, false).difference();
                (d >= 1).then_some(d * 2 + i32::from(*charge) + units.len() as i32)
            }
            _ => None,
        };
        if let Some(s) = score
            && best.is_none_or(|(b, _)| s > b)
        {
            best = Some((s, a));
        }
    }
    if let Some((_, a)) = best {
        return a.clone();
    }
    // Squares: a lone infantry unit forms one when enemy cavalry is near (and no enemy infantry
    // is at hand to take it in the flank), and leaves it when the cavalry has gone.
    let cavalry_near = |u: usize, d: i32| {
        let at = g.units[u].at;
        (0..g.units.len()).any(|v| {
            g.side_of(v) != g.side_of(u)
                && g.on_board(v)
                && g.kind(v).is_cavalry()
                && !g.units[v].dis
                && at.zip(g.units[v].at).is_some_and(|(a, b)| chebyshev(a, b) <= d)
        })
    };
    for a in legal {
        if let Action::Square { unit } = a {
            let u = *unit as usize;
            let forming =
                !g.units[u].square && g.formation_kind(u).is_none() && cavalry_near(u, 3) && nearest_infantry(g, u) > 2;
            if forming || (g.units[u].square && !cavalry_near(u, 5)) {
                return a.clone();
            }
        }
    }
    // Moves that close on the enemy, one unit at a time: never into the front of an enemy
    // infantry unit it does not face, nor into reach of a loaded gun unless it can strike; a
    // unit beside a friend facing the same way (a line) is worth more.
    let side = g.side;
    let board = &g.sc.board;
    let cells = board.spaces.len();
    // What every move's score asks, found once a decision instead of once a move (a unit has
    // hundreds of moves, and each asked of every unit of the game): the spaces in an enemy
    // front or under a loaded gun, each space's own infantry with its front and its holder, and the nearest
    // enemy of each side from a space, measured when first asked.
    let mut danger = vec![false; cells];
    let mut own_infantry: Vec<smallvec::SmallVec<[(usize, Facing); 2]>> = vec![smallvec::SmallVec::new(); cells];
    let mut holder: Vec<Option<Side>> = vec![None; cells];
    for v in 0..g.units.len() {
        let Some(at) = g.units[v].at.filter(|_| g.on_board(v)) else { continue };
        // `holder`: the side of the space's first unit.
        holder[board.index(at)].get_or_insert(g.side_of(v));
        if g.side_of(v) == side {
            if g.kind(v).is_infantry() {
                own_infantry[board.index(at)].push((v, g.units[v].facing));
            }
            continue;
        }
        if g.kind(v).is_infantry() && !g.units[v].dis {
            for c in g.front_cells(v) {
                danger[board.index(c)] = true;
            }
        }
        if g.kind(v).is_artillery() && !g.units[v].reacted {
            for (c, rows) in g.field_of_fire(v) {
                if rows <= 2 {
                    danger[board.index(c)] = true;
                }
            }
        }
    }
    let mut nearest = Nearest::new(g);
    let mut moves: Vec<(i32, &Action)> = Vec::new();
    // The spaces and facings the unit whose moves are being scored reaches only over friends
    // or the ice (its moves come one after another in the list; another unit's are searched
    // when they come).
    let mut barred = vec![false; cells * 8];
    let mut barred_of: Option<usize> = None;
    for a in legal {
        if let Action::Move { unit, to, facing } = a {
            let u = *unit as usize;
            // Never over friends (each put in DIS, a second time eliminated) nor the ice.
            if barred_of != Some(u) {
                barred.fill(false);
                for (c, f, r) in g.reach(u) {
                    if r.crossed > 0 || r.ponds > 0 {
                        barred[board.index(c) * 8 + f.index()] = true;
                    }
                }
                barred_of = Some(u);
            }
            if barred[board.index(*to) * 8 + facing.index()] {
                continue;
            }
            let Some(from) = g.units[u].at else {
                moves.push((100, a));
                continue;
            };
            let them = g.side_of(u);
            let gain = nearest.enemy(them, from) - nearest.enemy(them, *to);
            // Face the enemy at the end: the step ahead from the new space is nearer.
            let ahead = board.grid.step(*to, *facing);
            let facing_enemy = ahead.is_some_and(|n| nearest.enemy(them, n) < nearest.enemy(them, *to));
            let strikes =
                ahead.is_some_and(|n| holder[board.index(n)].is_some_and(|s| s != side)) && !g.kind(u).is_artillery();
            let exposed = danger[board.index(*to)] && !strikes;
            let friend_facing = |d: Facing, fronts: &[Facing]| {
                board.grid.step(*to, d).is_some_and(|n| {
                    own_infantry[board.index(n)].iter().any(|&(v, front)| v != u && fronts.contains(&front))
                })
            };
            let line = [rotate(*facing, 2), rotate(*facing, -2)].into_iter().any(|d| friend_facing(d, &[*facing]));
            // Behind or before a friend facing within 45°: a column, to march (and to strike
            // with its extra MF); near the enemy, a line (its strength).
            let column = [*facing, rotate(*facing, 4)]
                .into_iter()
                .any(|d| friend_facing(d, &[rotate(*facing, -1), *facing, rotate(*facing, 1)]));
            let near = nearest.enemy(them, *to) <= 4;
            if gain > 0 && facing_enemy && !exposed && !(g.kind(u).is_artillery() && nearest.enemy(them, *to) <= 1) {
                let formed = match (g.kind(u).is_infantry(), near) {
                    (true, true) if line => 15,
                    (true, false) if column => 20,
                    (true, false) if line => 5,
                    _ => 0,
                };
                moves.push((gain * 10 + formed - g.units[u].spent as i32, a));
            }
        }
    }
    if let Some((_, a)) = moves.iter().max_by_key(|(s, _)| *s) {
        return (*a).clone();
    }
    // Commanders go to the middle of their units, and stand on one of their side's units (a
    // lone command is captured by any enemy unit that reaches it).
    let mut best_cmd: Option<(i32, &Action)> = None;
    // Each command's units' spaces, found once a command (a command has dozens of moves).
    let mut units_of: Vec<Option<Vec<Cell>>> = vec![None; g.commands.len()];
    for a in legal {
        if let Action::MoveCommand { command, to } = a {
            let k = *command as usize;
            let own = units_of[k].get_or_insert_with(|| {
                (0..g.units.len())
                    .filter(|&u| g.sc.unit_command[u] as usize == k && g.on_board(u))
                    .filter_map(|u| g.units[u].at)
                    .collect()
            });
            let Some(from) = g.commands[k].at else { continue };
            let far = |c: Cell| own.iter().map(|&o| chebyshev(o, c)).max().unwrap_or(0);
            let covered = |c: Cell| holder[board.index(c)] == Some(side);
            let gain = (far(from) - far(*to)) + 4 * (i32::from(covered(*to)) - i32::from(covered(from)));
            if gain > 1 && best_cmd.is_none_or(|(b, _)| gain > b) {
                best_cmd = Some((gain, a));
            }
        }
    }
    if let Some((_, a)) = best_cmd {
        return a.clone();
    }
    legal
        .iter()
        .find(|a| matches!(a, Action::EndFire | Action::EndMovement | Action::EndArtillery | Action::EndTurn))
        .unwrap_or(&legal[rng.below(legal.len())])
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::austerlitz::{self, AzScenario};
    use std::sync::Arc;

    /// The distance from `at` to the nearest enemy of unit `u`, counted over every unit (what
    /// the beginner asked of every move before `Nearest`).
    fn nearest_enemy(g: &Austerlitz, u: usize, at: Cell) -> i32 {
        nearest(g, u, at, |_| true).unwrap_or(0)
    }

    /// The beginner closes on the nearest enemy: the distance it keeps for a space once measured
    /// (`Nearest`) is the distance counted over every unit, for a unit of either side at every
    /// space, at every twentieth decision of a random battle.
    #[test]
    fn beginner_the_nearest_enemy_it_keeps_is_the_nearest_counted() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz/1-historical.ron");
        let sc = Arc::new(AzScenario::load(&path).expect("the shipped scenario loads"));
        let game = austerlitz::play_game(sc.clone(), 2, [AzPlayer::Random; 2], 40_000).expect("a battle");
        let mut t = austerlitz::table_on(sc.clone(), 2);
        let mut compared = 0;
        for (k, r) in game.records.iter().enumerate() {
            let g = &t.game;
            if k % 20 == 0 {
                let cells = g.sc.board.spaces.len();
                let mut kept = Nearest::new(g);
                for side in [Side::French, Side::Allied] {
                    let u = (0..g.units.len()).find(|&u| g.side_of(u) == side).expect("a unit of each side");
                    // Twice over: measured, then kept.
                    for _ in 0..2 {
                        for i in 0..cells {
                            let c = g.sc.board.cell_of(i);
                            assert_eq!(kept.enemy(side, c), nearest_enemy(g, u, c), "{side:?} at {c:?}, decision {k}");
                            compared += 1;
                        }
                    }
                }
            }
            t.submit(r.seat, r.act.clone()).expect("the battle replays");
        }
        assert!(compared > 10_000, "{compared} compared");
    }
}
