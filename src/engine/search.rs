//! The search player every game shares: information-set Monte Carlo tree search (Cowling,
//! Powley and Whitehouse's single-observer ISMCTS) over determinizations of the deciding seat's
//! view. Each iteration deals what the seat cannot see at random (the game's `from_view`),
//! walks one tree of the seat's and the other's actions on that deal (UCB over the actions the
//! deal offers, counted by availability), plays a few actions of the game's fast policy and
//! scores the position with the game's evaluation. The search is given the view, never the
//! table: it cannot read what its seat cannot see.

use crate::engine::rng::TableRng;
use crate::engine::rules::{Game, Mode, checked};
use crate::engine::seats::SeatId;

/// What a game gives the search beside its rules.
pub trait Searched: Game {
    /// The chance that `seat` wins from here, estimated from the position alone (0 to 1; a
    /// finished game gives 1, 0 or ½). Called only on determinized tables, so it may read
    /// anything they hold.
    fn evaluate(&self, seat: SeatId) -> f32;
    /// The fast heuristic player's action for the deciding seat, used in playouts (None where
    /// there is none).
    fn playout_action(&self, rng: &mut TableRng) -> Option<Self::Action>;
    /// The actions the search weighs here: every legal action where there are few; a game whose
    /// steps offer thousands (a movement phase) gives a small set of sensible candidates.
    fn candidates(&self, rng: &mut TableRng, out: &mut Vec<Self::Action>) {
        let _ = rng;
        self.legal_actions(Mode::Enforced, out);
    }
    /// A search begins: whatever the game kept for the last one is dropped, so that a decision
    /// follows its view and its random stream alone, whatever the thread decided before.
    fn new_search() {}
    /// How the evaluation's chance for the first seat becomes the chance people are shown (the
    /// Hint, the report, the broadcast): fitted on how beginner games ended
    /// (`examples/calibration.rs`, `scripts/calibration.py`). The search ranks by the
    /// evaluation itself.
    const CALIBRATION: Platt = Platt::NONE;
}

/// Platt's scaling of a chance: `logistic(a · logit(p) + b)`. `b` says how much the game favours
/// the first seat beyond what the evaluation sees, `a` how far its margins are to be trusted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Platt {
    pub a: f32,
    pub b: f32,
}

impl Platt {
    /// The chance as the evaluation says it.
    pub const NONE: Platt = Platt { a: 1.0, b: 0.0 };

    /// The calibrated chance of `p`.
    pub fn of(self, p: f32) -> f32 {
        if self == Platt::NONE {
            return p;
        }
        let p = p.clamp(1e-4, 1.0 - 1e-4);
        1.0 / (1.0 + (-(self.a * (p / (1.0 - p)).ln() + self.b)).exp())
    }

    /// The calibrated chance of `seat` at a table of two, from its own chance `p` (the first
    /// seat's is calibrated, the second's is the rest).
    pub fn of_seat(self, seat: SeatId, p: f32) -> f32 {
        if seat.0 == 0 { self.of(p) } else { 1.0 - self.of(1.0 - p) }
    }
}

/// The chance to win of `seat` at a table of two seats: its result once the game is over (1, 0,
/// or ½ for a draw), else the first seat's lead (`first_margin`, in the game's points) through a
/// logistic curve where `scale` points make three chances in four, the second seat the rest.
pub fn chance_of<G: Game>(game: &G, seat: SeatId, first_margin: impl FnOnce() -> f32, scale: f32) -> f32 {
    if game.is_over() {
        return match game.winner() {
            Some(s) if s == seat => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    let first = 1.0 / (1.0 + (-first_margin() / scale).exp());
    if seat.0 == 0 { first } else { 1.0 - first }
}

/// A legal action drawn uniformly (a random playout's), None where there is none.
pub fn random_legal<G: Game>(game: &G, rng: &mut TableRng) -> Option<G::Action> {
    let mut legal = Vec::new();
    game.legal_actions(Mode::Enforced, &mut legal);
    (!legal.is_empty()).then(|| legal[rng.below(legal.len())].clone())
}

/// Candidates where a step lists too many to weigh: all of `legal` where there are at most `n`,
/// else the fast player's `pick` first and legal actions drawn at random, up to `n` in all.
pub fn pick_and_drawn<A: Clone + PartialEq>(
    legal: Vec<A>,
    n: usize,
    pick: impl FnOnce(&[A]) -> A,
    rng: &mut TableRng,
    out: &mut Vec<A>,
) {
    if legal.len() <= n {
        *out = legal;
        return;
    }
    out.push(pick(&legal));
    for _ in 0..4 * n {
        if out.len() >= n {
            break;
        }
        let a = &legal[rng.below(legal.len())];
        if !out.contains(a) {
            out.push(a.clone());
        }
    }
}

/// How long a search may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Iterations (determinization, descent, playout, evaluation): what makes a decision
    /// reproducible from its random stream.
    pub iterations: u32,
    /// The longest a decision may take whatever is left of the iterations, in milliseconds
    /// (None: no limit, as the tests of reproducibility need).
    pub max_ms: Option<u64>,
    /// Actions of the fast player after the tree before the evaluation.
    pub playout: u16,
    /// UCB's exploration constant.
    pub exploration: f32,
    /// The deepest the tree grows, in decisions (1: the root's candidates only, each followed by
    /// the playout; where listing candidates is dear, as in a Movement Phase).
    pub depth: u16,
    /// Keep the fast player's choice unless another candidate's estimate beats it by this much
    /// (where a few iterations weigh drawn alternatives, the noise must not overrule it).
    pub keep_default_by: Option<f32>,
}

impl Budget {
    pub const fn iterations(iterations: u32, playout: u16) -> Budget {
        Budget { iterations, max_ms: None, playout, exploration: 0.7, depth: u16::MAX, keep_default_by: None }
    }

    /// The same budget with the tree no deeper than `depth` decisions.
    pub const fn flat(self, depth: u16) -> Budget {
        Budget { depth, ..self }
    }

    /// The same budget keeping the fast player's choice unless another beats it by `margin`.
    pub const fn keeping_default(self, margin: f32) -> Budget {
        Budget { keep_default_by: Some(margin), ..self }
    }
}

/// One candidate at the root: the action, how often the search tried it and the chance to win
/// it estimates after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate<A> {
    pub action: A,
    pub visits: u32,
    pub win: f32,
    /// The game's fast player's own choice (the first candidate it lists at the root).
    pub default: bool,
}

struct Node<A> {
    /// The action that led here from the parent (None at the root).
    action: Option<A>,
    /// The seat that chose that action: the node's results are counted from its side.
    mover: SeatId,
    children: Vec<usize>,
    visits: u32,
    /// How often this node's action was available when its parent chose among its children.
    available: u32,
    reward: f32,
}

/// The search's candidates at the root, best first (most visited): what `seat`, seeing `view`,
/// should do. Empty where the seat has no decision in any deal.
pub fn search<G: Searched>(
    view: &G::View,
    seat: SeatId,
    budget: &Budget,
    rng: &mut TableRng,
) -> Vec<Estimate<G::Action>> {
    let start = std::time::Instant::now();
    G::new_search();
    let mut nodes: Vec<Node<G::Action>> =
        vec![Node { action: None, mover: seat, children: Vec::new(), visits: 0, available: 0, reward: 0.0 }];
    let mut cands = Vec::new();
    let mut default: Option<G::Action> = None;
    let mut path = Vec::new();
    let mut events = Vec::new();
    let max_ms = budget.max_ms.or(CAP_MS.get());
    for i in 0..budget.iterations {
        if let Some(ms) = max_ms
            && i > 0
            && start.elapsed().as_millis() as u64 >= ms
        {
            break;
        }
        let mut game = G::from_view(view, rng);
        path.clear();
        path.push(0usize);
        let mut node = 0usize;
        // Down the tree: on this deal, choose among the actions it offers.
        while path.len() <= budget.depth as usize {
            let Some(mover) = game.active_seat() else { break };
            if game.is_over() {
                break;
            }
            cands.clear();
            game.candidates(rng, &mut cands);
            if cands.is_empty() {
                break;
            }
            if node == 0 && default.is_none() {
                default = Some(cands[0].clone());
            }
            if cands.len() == 1 && node != 0 {
                // A forced step is played through, not a node of its own.
                play(&mut game, mover, &cands[0], &mut events);
                continue;
            }
            // An action this deal offers that the node has not tried: a new leaf.
            let untried: Vec<usize> = (0..cands.len())
                .filter(|&k| !nodes[node].children.iter().any(|&c| nodes[c].action.as_ref() == Some(&cands[k])))
                .collect();
            if !untried.is_empty() {
                let k = untried[rng.below(untried.len())];
                let child = nodes.len();
                nodes.push(Node {
                    action: Some(cands[k].clone()),
                    mover,
                    children: Vec::new(),
                    visits: 0,
                    available: 0,
                    reward: 0.0,
                });
                nodes[node].children.push(child);
                for ci in 0..nodes[node].children.len() {
                    let c = nodes[node].children[ci];
                    if nodes[c].action.as_ref().is_some_and(|a| cands.contains(a)) {
                        nodes[c].available += 1;
                    }
                }
                play(&mut game, mover, &cands[k], &mut events);
                path.push(child);
                break;
            }
            // Every offered action tried: UCB among them, each counted as available.
            let mut best = (f32::MIN, usize::MAX);
            for ci in 0..nodes[node].children.len() {
                let c = nodes[node].children[ci];
                if !nodes[c].action.as_ref().is_some_and(|a| cands.contains(a)) {
                    continue;
                }
                nodes[c].available += 1;
                let n = &nodes[c];
                let score = n.reward / n.visits.max(1) as f32
                    + budget.exploration * ((n.available as f32).ln() / n.visits.max(1) as f32).sqrt();
                if score > best.0 {
                    best = (score, c);
                }
            }
            let c = best.1;
            let action = nodes[c].action.clone().expect("a child has its action");
            play(&mut game, mover, &action, &mut events);
            path.push(c);
            node = c;
        }
        // The fast player a few actions on, then the evaluation.
        for _ in 0..budget.playout {
            if game.is_over() {
                break;
            }
            let Some(mover) = game.active_seat() else { break };
            let Some(a) = game.playout_action(rng) else { break };
            play(&mut game, mover, &a, &mut events);
        }
        let mut values: smallvec::SmallVec<[f32; 2]> = smallvec::SmallVec::new();
        for s in 0..game.seat_names().len() {
            values.push(game.evaluate(SeatId(s as u8)));
        }
        nodes[0].visits += 1;
        for &n in &path[1..] {
            let node = &mut nodes[n];
            node.visits += 1;
            node.reward += values[node.mover.0 as usize];
        }
    }
    let mut out: Vec<Estimate<G::Action>> = nodes[0]
        .children
        .iter()
        .map(|&c| {
            let n = &nodes[c];
            let action = n.action.clone().expect("a child has its action");
            Estimate {
                default: default.as_ref() == Some(&action),
                action,
                visits: n.visits,
                win: n.reward / n.visits.max(1) as f32,
            }
        })
        .collect();
    // Most visited first; the estimate breaks ties, then the order found.
    out.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.win.total_cmp(&a.win)));
    out
}

/// The search's choice for `seat` among `legal` (the real table's list, never empty): the
/// most visited candidate, or where the search found none on the table's list, its first.
pub fn choose<G: Searched>(
    view: &G::View,
    seat: SeatId,
    legal: &[G::Action],
    budget: &Budget,
    rng: &mut TableRng,
) -> G::Action {
    if legal.len() == 1 {
        return legal[0].clone();
    }
    let start = std::time::Instant::now();
    let cpu = thread_cpu_ms();
    let mut found: Vec<Estimate<G::Action>> =
        search::<G>(view, seat, budget, rng).into_iter().filter(|e| legal.contains(&e.action)).collect();
    if let Some(margin) = budget.keep_default_by
        && let Some(k) = found.iter().position(|e| e.default)
    {
        // The best estimate, if it beats the fast player's choice by the margin; else that choice.
        let best = (0..found.len()).max_by(|&a, &b| found[a].win.total_cmp(&found[b].win)).unwrap_or(k);
        let pick = if found[best].win > found[k].win + margin { best } else { k };
        found.swap(0, pick);
    }
    let chosen = found.into_iter().next().map(|e| e.action).unwrap_or_else(|| legal[0].clone());
    let ms = match (cpu, thread_cpu_ms()) {
        (Some(from), Some(to)) => (to - from) as f32,
        _ => start.elapsed().as_secs_f32() * 1000.0,
    };
    DECISIONS.with_borrow_mut(|d| d.push((seat, ms)));
    chosen
}

thread_local! {
    /// The longest a search on this thread may think, whatever its budget (`cap_this_thread`).
    static CAP_MS: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Caps every search made on this thread at `ms` milliseconds: the window's decision threads
/// (a person never waits longer than the level allows, 3 s at `strong`, 10 s at `expert`); the
/// ladder, `simulate` and the tests leave it off, so their decisions follow their seeds alone.
pub fn cap_this_thread(ms: Option<u64>) {
    CAP_MS.set(ms);
}

thread_local! {
    /// The time each decision of this thread took (the seat, milliseconds): the ladder reports
    /// them per level.
    static DECISIONS: std::cell::RefCell<Vec<(SeatId, f32)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The decisions this thread's searches made since the last call, and how long each took:
/// the thread's processor time where `decisions_timed_by_processor`, else the wall clock.
pub fn take_decision_times() -> Vec<(SeatId, f32)> {
    DECISIONS.with_borrow_mut(std::mem::take)
}

/// Whether decisions are timed by their thread's processor time (Linux): what a decision costs
/// one core whatever else the machine runs, where the wall clock counted the ladder's waits
/// behind builds (a 200 ms decision read 12 s with the ladder at the lowest priority).
pub fn decisions_timed_by_processor() -> bool {
    thread_cpu_ms().is_some()
}

/// The processor time this thread has used, in milliseconds; None where it cannot be read.
fn thread_cpu_ms() -> Option<f64> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes the timespec it is handed and reads nothing else.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return Some(ts.tv_sec as f64 * 1000.0 + ts.tv_nsec as f64 / 1e6);
        }
    }
    None
}

/// The position's estimate for `seat` from its view: the evaluation averaged over `deals`
/// determinizations (the broadcast's and the report's chance to win, without a search).
pub fn estimate<G: Searched>(view: &G::View, seat: SeatId, deals: u32, rng: &mut TableRng) -> f32 {
    let deals = deals.max(1);
    (0..deals).map(|_| G::from_view(view, rng).evaluate(seat)).sum::<f32>() / deals as f32
}

/// The chance to win people are shown for `seat` (the report's chart, the broadcast, the feed):
/// `estimate` with each deal's chance calibrated (`Searched::CALIBRATION`), a finished game's
/// result as it is.
pub fn shown_estimate<G: Searched>(view: &G::View, seat: SeatId, deals: u32, rng: &mut TableRng) -> f32 {
    let deals = deals.max(1);
    let mut sum = 0.0;
    for _ in 0..deals {
        let g = G::from_view(view, rng);
        let p = g.evaluate(seat);
        sum += if g.is_over() { p } else { G::CALIBRATION.of_seat(seat, p) };
    }
    sum / deals as f32
}

/// The Hint: the search's candidates for `seat`, best first, each with its chance to win
/// calibrated as people are shown it.
pub fn hint<G: Searched>(
    view: &G::View,
    seat: SeatId,
    budget: &Budget,
    rng: &mut TableRng,
) -> Vec<Estimate<G::Action>> {
    let mut found = search::<G>(view, seat, budget, rng);
    for e in &mut found {
        e.win = G::CALIBRATION.of_seat(seat, e.win);
    }
    found
}

/// Plays `action` for `mover` on a searched table; false where the rules refuse it there (an
/// action of the real table that this deal does not allow).
fn play<G: Game>(game: &mut G, mover: SeatId, action: &G::Action, events: &mut Vec<G::Event>) -> bool {
    let Ok(proof) = checked(&*game, Mode::Enforced, mover, action) else { return false };
    events.clear();
    game.apply(mover, proof, events);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn a_decision_is_timed_by_its_threads_processor_time_not_by_waiting() {
        assert!(decisions_timed_by_processor());
        let from = thread_cpu_ms().expect("readable on Linux");
        std::thread::sleep(std::time::Duration::from_millis(300));
        let waited = thread_cpu_ms().expect("readable") - from;
        assert!(waited < 100.0, "300 ms asleep counted {waited} ms");
        let from = thread_cpu_ms().expect("readable");
        let start = std::time::Instant::now();
        let mut x = 0u64;
        while start.elapsed() < std::time::Duration::from_millis(300) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        let worked = thread_cpu_ms().expect("readable") - from;
        // Working for 300 ms of the wall clock: most of it on this thread's core, even on a
        // machine shared with a build.
        assert!(worked > 30.0, "300 ms of work counted {worked} ms");
    }
}
