//! Movement, Zones of Control in movement, Stacking and Unit Breakdown, Forced March and the
//! automatic elimination of the CRT's "Auto" column: where a counter may go and at what cost, one
//! search shared by the legal list, the check and the highlighted destinations.

use super::supply::only_support;
use super::zoc::{Situation, Zoc};
use super::{Aside, Asked};
use crate::games::leipzig::actions::Event;
use crate::games::leipzig::actions::{Action, LzError, rule};
use crate::games::leipzig::data::{Hex, Kind, MarchResult, MarchRow, NO_STEP, Side, Terrain};
use crate::games::leipzig::state::{Leipzig, March, MarchHalt, UnitId, What};

/// Where a counter can get this phase: each hex it reaches, in the map's order, with the
/// cheapest cost and the hex it came from. Only the hexes reached are kept: a counter's search
/// meets about a hundred of the map's two thousand hexes, and every reader (the destinations, the
/// way walked, the exit) reads those alone.
#[derive(Clone)]
pub struct Reach {
    pub start: Hex,
    reached: Vec<Reached>,
}

/// One hex of a search: its cost, the hex it came from, and whether the counter must stop there
/// (an Enemy zone).
#[derive(Clone, Copy, Debug)]
struct Reached {
    hex: Hex,
    cost: u8,
    prev: u16,
    stop: bool,
}

pub const UNREACHED: u8 = u8::MAX;

/// A hex a counter may end its move on, what the move costs, and the march that reaches it.
pub type Destination = (Hex, u8, March);

/// A way walked: whole, or cut short by a zone the mover could not see.
enum Walk {
    Whole(Vec<(Hex, u8)>),
    Stopped(Vec<(Hex, u8)>),
}

impl Reach {
    /// Every hex reached, with whether the counter must stop there (the exit's reader).
    pub(super) fn each(&self) -> impl Iterator<Item = (Hex, bool)> + '_ {
        self.reached.iter().map(|x| (x.hex, x.stop))
    }

    fn find(&self, h: Hex) -> Option<&Reached> {
        self.reached.binary_search_by_key(&h, |r| r.hex).ok().map(|i| &self.reached[i])
    }

    /// What reaching `h` costs, if the counter reaches it.
    pub fn cost(&self, h: Hex) -> Option<u8> {
        self.find(h).map(|r| r.cost)
    }

    /// Whether the counter must stop on `h` (an Enemy zone it may not leave).
    pub fn stops(&self, h: Hex) -> bool {
        self.find(h).is_some_and(|r| r.stop)
    }

    /// Every hex reached, the start included, in the map's order, with its cost.
    pub fn hexes(&self) -> impl Iterator<Item = (Hex, u8)> + '_ {
        self.reached.iter().map(|r| (r.hex, r.cost))
    }

    /// The path from the start to `to`, each hex with the cost spent on arriving there.
    pub fn path(&self, to: Hex) -> Vec<(Hex, u8)> {
        let at = |h: Hex| *self.find(h).expect("a hex of the search");
        let mut r = at(to);
        let mut out = vec![(to, r.cost)];
        while r.hex != self.start {
            r = at(Hex(r.prev));
            out.push((r.hex, r.cost));
        }
        out.reverse();
        out
    }
}

/// What a search keeps between searches on one thread, so that a search touches only the hexes
/// it reaches: the cost of each hex of the map (`UNREACHED` everywhere outside a search), a bit
/// for each hex the last search reached (set back before the next; read in order, they give the
/// hexes in the map's order without a sort), and the bucket queue.
#[derive(Default)]
struct Scratch {
    cost: Vec<u8>,
    prev: Vec<u16>,
    stop: Vec<bool>,
    seen: Vec<u64>,
    buckets: Vec<Vec<Hex>>,
}

impl Scratch {
    /// Ready for a search of a map of `n` hexes.
    fn clear(&mut self, n: usize) {
        if self.cost.len() != n {
            *self = Scratch {
                cost: vec![UNREACHED; n],
                prev: vec![u16::MAX; n],
                stop: vec![false; n],
                seen: vec![0; n.div_ceil(64)],
                buckets: std::mem::take(&mut self.buckets),
            };
        }
        for w in 0..self.seen.len() {
            while self.seen[w] != 0 {
                let bit = self.seen[w].trailing_zeros() as usize;
                self.seen[w] &= self.seen[w] - 1;
                self.cost[w * 64 + bit] = UNREACHED;
            }
        }
        for bucket in &mut self.buckets {
            bucket.clear();
        }
    }

    /// `h` reached at `cost` from `prev`.
    fn reach(&mut self, h: Hex, cost: u8, prev: u16, stop: bool) {
        let i = h.0 as usize;
        self.seen[i / 64] |= 1 << (i % 64);
        self.cost[i] = cost;
        self.prev[i] = prev;
        self.stop[i] = stop;
    }

    /// Every hex reached, in the map's order.
    fn reached(&self) -> Vec<Reached> {
        let mut out = Vec::with_capacity(self.seen.iter().map(|w| w.count_ones() as usize).sum());
        for (w, &word) in self.seen.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out.push(Reached { hex: Hex(i as u16), cost: self.cost[i], prev: self.prev[i], stop: self.stop[i] });
            }
        }
        out
    }
}

/// How many searches a thread keeps (see `Leipzig::reach`).
const KEPT_SEARCHES: usize = 2;

/// What a search read: the map (compared by address, held while the search is kept), the
/// scenario, the counter and what of it the search reads, and the rules' state it reads.
struct ReachFooting {
    map: std::rc::Rc<Situation>,
    sc: std::sync::Arc<crate::games::leipzig::data::LzScenario>,
    unit: UnitId,
    budget: u8,
    side: Side,
    at: Option<Hex>,
    what: What,
    austrian: bool,
    garrison: bool,
    austria_open: bool,
    garrison_hex: Option<Hex>,
    armistice: bool,
    overrun: Vec<Hex>,
}

impl PartialEq for ReachFooting {
    fn eq(&self, o: &ReachFooting) -> bool {
        std::rc::Rc::ptr_eq(&self.map, &o.map)
            && std::sync::Arc::ptr_eq(&self.sc, &o.sc)
            && (self.unit, self.budget, self.side, self.at, self.what) == (o.unit, o.budget, o.side, o.at, o.what)
            && (self.austrian, self.garrison, self.austria_open, self.garrison_hex, self.armistice)
                == (o.austrian, o.garrison, o.austria_open, o.garrison_hex, o.armistice)
            && self.overrun == o.overrun
    }
}

thread_local! {
    static SEARCHES: std::cell::RefCell<Vec<(ReachFooting, Reach)>> = const { std::cell::RefCell::new(Vec::new()) };
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// The search this thread keeps for `footing`, if it keeps one.
fn kept_with(footing: &ReachFooting) -> Option<Reach> {
    SEARCHES.with_borrow(|kept| kept.iter().find(|(f, _)| f == footing).map(|(_, r)| r.clone()))
}

impl Leipzig {
    /// Whether a counter may move at all this phase.
    pub fn can_move(&self, u: UnitId) -> bool {
        let unit = &self.units[u as usize];
        unit.on_map()
            && unit.side == self.side
            && !unit.moved
            && unit.dispersed.is_none()
            && !self.garrison_neutral(u)
            && !(self.armistice_on()
                && unit.hex.is_some_and(|h| self.sc.board.is_fortress(h))
                && self.armistice != Some(self.turn))
            && self.movement(u) > unit.spent
    }

    /// The cheapest way to every hex within `budget` MP (Movement; Zones of Control; Terrain
    /// Effects Chart; Stacking, case C; Auto).
    pub fn reach(&self, s: &Situation, u: UnitId, budget: u8) -> Reach {
        SCRATCH.with_borrow_mut(|scratch| self.reach_with(scratch, s, u, budget, None))
    }

    /// The same search, kept: a decision searches a counter twice on the same map (the random
    /// player's draw, then the check of the move it drew), so the last searches of this thread
    /// are kept with everything they read, and one is reused only when all of it is the same.
    /// A whole legal list searches every counter once and keeps nothing.
    fn reach_kept(&self, s: &Situation, u: UnitId, budget: u8) -> Reach {
        let Some(map) = Situation::kept(s) else {
            return self.reach(s, u, budget);
        };
        let footing = self.reach_footing(map, u, budget);
        if let Some(found) = kept_with(&footing) {
            return found;
        }
        let found = self.reach(s, u, budget);
        SEARCHES.with_borrow_mut(|kept| {
            kept.insert(0, (footing, found.clone()));
            kept.truncate(KEPT_SEARCHES);
        });
        found
    }

    /// The search `reach_kept` keeps of counter `u` on `s` with `budget`, if it keeps one.
    fn kept_search(&self, s: &Situation, u: UnitId, budget: u8) -> Option<Reach> {
        kept_with(&self.reach_footing(Situation::kept(s)?, u, budget))
    }

    /// Everything `reach_with` reads for counter `u` on `map` (held, so that its address is not
    /// reused while the search is kept).
    fn reach_footing(&self, map: std::rc::Rc<Situation>, u: UnitId, budget: u8) -> ReachFooting {
        let unit = &self.units[u as usize];
        ReachFooting {
            map,
            sc: self.sc.clone(),
            unit: u,
            budget,
            side: unit.side,
            at: unit.hex,
            what: unit.what,
            austrian: unit.austrian,
            garrison: unit.garrison,
            austria_open: self.austria_open(),
            garrison_hex: self.garrison_city(),
            armistice: self.armistice_on(),
            overrun: self.overrun.clone(),
        }
    }

    /// The search itself; with a `target`, it stops once the target's cost is settled (every
    /// hex of the way to it then has the cost and the hex it came from a whole search gives).
    fn reach_with(&self, r: &mut Scratch, s: &Situation, u: UnitId, budget: u8, target: Option<Hex>) -> Reach {
        let b = &self.sc.board;
        let t = &self.sc.charts.terrain;
        let unit = &self.units[u as usize];
        let side = unit.side;
        let start = unit.hex.expect("a counter on the map");
        let n = b.len();
        // The last search's hexes set back (here rather than at its end, so that a search cut
        // short by a panic leaves nothing behind), the map's size taken from this board.
        r.clear(n);
        if r.buckets.len() <= budget as usize {
            r.buckets.resize_with(budget as usize + 1, Vec::new);
        }
        let combat = self.is_combat(u);
        let cavalry = self.is_cavalry(u);
        let steps = &self.sc.steps[usize::from(cavalry)][..n * 6];
        // What bars a hex whatever the way in, read once: Austria while closed to this counter,
        // the Saxon garrison's city in the first turns, the armistice line.
        let austria_closed = !self.austria_open() && !unit.austrian;
        let garrison_hex = self.garrison_city().filter(|_| !unit.garrison);
        let armistice = self.armistice_on();
        let others_at_start = s.combat[start.0 as usize].saturating_sub(combat as u8);
        let (on, stacked, terrain) = (&s.side[..n], &s.combat[..n], &b.terrain[..n]);
        let fortress = |i: usize| terrain[i] == Terrain::Fortress;
        let enemy_zoc = &s.zoc[side.other().index()][..n];
        let neighbours = &b.neighbours[..n];
        r.reach(start, 0, u16::MAX, false);
        // Costs are small integers: a bucket queue.
        r.buckets[0].push(start);
        for c in 0..=budget as usize {
            if target.is_some_and(|t| r.cost.get(t.0 as usize).is_some_and(|&settled| c > settled as usize)) {
                break;
            }
            let mut i = 0;
            while i < r.buckets[c].len() {
                let h = r.buckets[c][i];
                i += 1;
                let hi = h.0 as usize;
                if r.cost[hi] as usize != c || (r.stop[hi] && h != start) {
                    continue;
                }
                // Leaving this hex: a friendly stack's penalty, a partial zone's 2 MP for cavalry.
                let mut leave = 0u8;
                let friends_here = if h == start { others_at_start } else { stacked[hi] };
                if combat && friends_here > 0 && on[hi] == Some(side) && !fortress(hi) {
                    leave += t.stack_leave;
                }
                if cavalry && h != start && enemy_zoc[hi] == Zoc::Partial {
                    leave += t.partial_zoc_leave;
                }
                for (d, nb) in neighbours[hi].iter().enumerate() {
                    let Some(nb) = *nb else { continue };
                    let ni = nb.0 as usize;
                    // The terrain entered and the hexside crossed, read from the table made at load.
                    let step = steps[hi * 6 + d];
                    // What entering costs at the least (the step and leaving here) settles most
                    // neighbours at once: beyond the budget (a step barred, `NO_STEP`, is
                    // beyond any), or already reached as cheaply.
                    let least = c + step as usize + leave as usize;
                    if step == NO_STEP || least > budget as usize || least >= r.cost[ni] as usize {
                        continue;
                    }
                    if on[ni] == Some(side.other()) {
                        continue;
                    }
                    if (austria_closed && b.austria[ni]) || garrison_hex == Some(nb) {
                        continue;
                    }
                    // No recrossing the line once on one's own side (Armistice).
                    if armistice && b.armistice_side(h, side) && !b.armistice_side(nb, side) && !fortress(ni) {
                        continue;
                    }
                    let mut cost = step + leave;
                    if combat && on[ni] == Some(side) && stacked[ni] > 0 && !fortress(ni) {
                        cost += t.stack_enter;
                    }
                    if !self.overrun.is_empty() && self.overrun.contains(&nb) {
                        cost += t.overrun_enter;
                    }
                    let total = c + cost as usize;
                    if total > budget as usize || total >= r.cost[ni] as usize {
                        continue;
                    }
                    let stop = match enemy_zoc[ni] {
                        Zoc::None => false,
                        Zoc::Total => true,
                        Zoc::Partial => !cavalry,
                    };
                    r.reach(nb, total as u8, h.0, stop);
                    r.buckets[total].push(nb);
                }
            }
        }
        Reach { start, reached: r.reached() }
    }

    /// The hexes a counter may end its move on with `march`, with their cost (Movement; Stacking,
    /// case B; Forced March: only beyond what the smaller allowance reaches).
    pub fn destinations(&self, s: &Situation, u: UnitId, march: March) -> Vec<(Hex, u8)> {
        self.all_destinations(s, u, march).into_iter().filter(|d| d.2 == march).map(|(h, c, _)| (h, c)).collect()
    }

    /// Every destination of a counter up to the march `upto`, with the march that reaches it:
    /// one search at the largest allowance asked for that it may attempt, each hex under the
    /// smallest march whose allowance covers its cost.
    pub fn all_destinations(&self, s: &Situation, u: UnitId, upto: March) -> Vec<Destination> {
        self.search_destinations(s, u, upto).map(|(_, out)| out).unwrap_or_default()
    }

    /// The same with the search they were read from (none for a counter that may not move): the
    /// check of a move keeps it for `apply`, whose march has the same budget.
    pub fn search_destinations(&self, s: &Situation, u: UnitId, upto: March) -> Option<(Reach, Vec<Destination>)> {
        self.destinations_searched(s, u, upto, false, None)
    }

    /// The destinations of a counter a random player draws among for the march `march` alone
    /// (the hexes a smaller march reaches left out before their ending is judged), its search
    /// kept for the check of the move drawn.
    pub fn drawn_destinations_of(&self, s: &Situation, u: UnitId, march: March) -> Vec<Destination> {
        self.destinations_searched(s, u, march, true, Some(march)).map(|(_, out)| out).unwrap_or_default()
    }

    /// `search_destinations`, the search kept (`keep`) or not, the destinations of one march
    /// (`only`) or of all.
    pub(super) fn destinations_searched(
        &self,
        s: &Situation,
        u: UnitId,
        upto: March,
        keep: bool,
        only: Option<March>,
    ) -> Option<(Reach, Vec<Destination>)> {
        let r = self.move_search(s, u, upto, keep)?;
        let must_support = self.must_support(s, u);
        let mut out = Vec::with_capacity(r.reached.len());
        for (h, c) in r.hexes() {
            if h == r.start {
                continue;
            }
            let march = self.march_for(u, c);
            if only.is_some_and(|m| m != march) || !self.may_end(s, u, r.start, h, c, &must_support) {
                continue;
            }
            out.push((h, c, march));
        }
        Some((r, out))
    }

    /// The search of counter `u`'s moves up to the march `upto` (none if it may not move): one
    /// search at the largest allowance asked for that it may attempt, kept (`keep`) or not.
    fn move_search(&self, s: &Situation, u: UnitId, upto: March, keep: bool) -> Option<Reach> {
        let budget = self.move_budget(u, upto)?;
        Some(if keep { self.reach_kept(s, u, budget) } else { self.reach(s, u, budget) })
    }

    /// What counter `u` may spend on a move up to the march `upto`: the largest allowance asked
    /// for that it may attempt, less what it spent (none if it may not move).
    pub fn move_budget(&self, u: UnitId, upto: March) -> Option<u8> {
        if !self.can_move(u) {
            return None;
        }
        let ma = self.movement(u) as u16;
        let spent = self.units[u as usize].spent as u16;
        let top = if self.kind(u) == Some(Kind::Infantry) { 3 } else { 2 }.min(upto.factor() as u16);
        Some((ma * top).saturating_sub(spent).min(250) as u8)
    }

    /// The stacks a supply unit `u` must stay beside (those only it supports); none for others.
    fn must_support(&self, s: &Situation, u: UnitId) -> Vec<Hex> {
        if self.is_supply(u) { only_support(self, s, u) } else { Vec::new() }
    }

    /// Whether the legal list offers the move of counter `u` to `to` with `march` and `supply`,
    /// and the search it was judged on: the same tests as `destinations_searched` and the list's
    /// supply units, asked of the one hex the check needs rather than of every destination.
    pub(super) fn move_listed(
        &self,
        s: &Situation,
        u: UnitId,
        to: Hex,
        march: March,
        supply: Option<UnitId>,
    ) -> (bool, Option<Reach>) {
        // The random player's search of the counter when it is kept, else a search that stops
        // once the hex asked of is settled (its cost and way are then those of a whole search).
        let Some(budget) = self.move_budget(u, march).filter(|_| (to.0 as usize) < self.sc.board.len()) else {
            return (false, None);
        };
        let r = match self.kept_search(s, u, budget) {
            Some(r) => r,
            None => SCRATCH.with_borrow_mut(|scratch| self.reach_with(scratch, s, u, budget, Some(to))),
        };
        let listed = to != r.start
            && r.cost(to).is_some_and(|c| {
                self.march_for(u, c) == march && self.may_end(s, u, r.start, to, c, &self.must_support(s, u))
            })
            && match supply {
                None => true,
                Some(x) => march != March::Normal && !self.free_march(u) && self.march_supplies(u).contains(&x),
            };
        (listed, Some(r))
    }

    /// Whether counter `u` (from `start`) may end its move on `h`: a legal stack (Stacking,
    /// case B), still beside the stacks only it supplies, and during the armistice on its own
    /// side, in a fortress or nearer its side. `cost` is what the move to `h` spends: a unit
    /// joining others to be combined needs a Movement Point left for it (case B I, case E).
    fn may_end(&self, s: &Situation, u: UnitId, start: Hex, h: Hex, cost: u8, must_support: &[Hex]) -> bool {
        let b = &self.sc.board;
        let side = self.units[u as usize].side;
        let i = h.0 as usize;
        if self.is_combat(u) && s.side[i] == Some(side) && s.combat[i] > 0 && h != start {
            let left = (self.movement(u) as u16).saturating_sub(self.units[u as usize].spent as u16 + cost as u16);
            let ok = s.stack_ok(self, side, h, s.combat[i] + 1, s.divisions[i] + self.divisions(u))
                || (self.buildable_with(h, u) && left > 0);
            if !ok {
                return false;
            }
        }
        if !must_support.iter().all(|&m| m == h || b.adjacent(m, h)) {
            return false;
        }
        let from_side = &b.from_side[side.index()];
        !(self.armistice_on() && from_side[i] > 0 && !b.is_fortress(h) && from_side[i] >= from_side[start.0 as usize])
    }

    /// The move (and its forced march), along the way found by the check where it kept its search
    /// (`kept`: the map as the mover sees it and the counter's reach, with this march's budget).
    pub fn apply_move(
        &mut self,
        u: UnitId,
        to: Hex,
        march: March,
        supply: Option<UnitId>,
        kept: Option<(std::rc::Rc<Situation>, Reach)>,
        ev: &mut Vec<Event>,
    ) {
        let side = self.units[u as usize].side;
        let ma = self.movement(u) as u16;
        let spent = self.units[u as usize].spent;
        let budget = (ma * march.factor() as u16).saturating_sub(spent as u16).min(250) as u8;
        // The way is chosen on what the mover may know; the hidden zones act as it is walked.
        let (plan, reach) = match kept {
            Some(kept) => kept,
            None => {
                let plan = Situation::as_seen_by(self, side);
                let reach = self.reach(&plan, u, budget);
                (plan, reach)
            }
        };
        let path = reach.path(to);
        let (path, march, supply) = match self.walk(u, &plan, path, budget, ev) {
            Walk::Whole(path) => (path, march, supply),
            Walk::Stopped(path) => {
                // A move cut short may need no forced march (and no supply for one) any more.
                let march = self.march_for(u, path.last().expect("the start").1).min(march);
                (path, march, supply.filter(|_| march != March::Normal))
            }
        };
        self.moved_any = true;
        self.units[u as usize].moved = true;
        if march == March::Normal {
            self.finish_move(u, &path, path.len() - 1, march, ev);
            return;
        }
        if let Some(sup) = supply {
            self.units[sup as usize].used.march = true;
            ev.push(Event::SupplyUsed { unit: sup });
            ev.push(Event::MarchFree { unit: u, why: "a supply unit supports the march".into() });
            self.finish_move(u, &path, path.len() - 1, march, ev);
            return;
        }
        if self.free_march(u) {
            ev.push(Event::MarchFree { unit: u, why: "the Gotha units' first forced march needs no table".into() });
            self.finish_move(u, &path, path.len() - 1, march, ev);
            return;
        }
        // The unit moves its normal (or doubled) allowance first, then rolls.
        let lower = (ma * (march.factor() as u16 - 1)).saturating_sub(spent as u16);
        let at = path.iter().rposition(|&(_, c)| c as u16 <= lower).unwrap_or(0);
        let first = self.rng.d6();
        let table = if march == March::Double {
            &self.sc.charts.forced_march.double
        } else {
            &self.sc.charts.forced_march.triple
        };
        let from = path[0].0;
        match table[first as usize - 1].clone() {
            MarchRow::All(result) => {
                ev.push(self.march_roll(march, from, first, None, &march_words(result)));
                self.march_result(u, &path, at, march, result, ev);
            }
            MarchRow::Then(letter, _) => {
                let then = format!("table {letter}: go on and roll it, or halt here");
                ev.push(self.march_roll(march, from, first, None, &then));
                self.move_along(u, &path, at);
                self.march = Some(MarchHalt { unit: u, table: march, letter, path, at });
                self.step = crate::games::leipzig::state::Step::March;
            }
        }
    }

    /// Walks a way chosen on `plan` through the zones as they are (Zones of Control;
    /// Reconnaissance): the counter stops on entering a hidden counter's zone that stops it, and
    /// where leaving a hidden partial zone (2 MP for cavalry) leaves it short of the next hex; it
    /// then ends on the last hex of the way walked where it may end (Stacking, case B).
    fn walk(&self, u: UnitId, plan: &Situation, mut path: Vec<(Hex, u8)>, budget: u8, ev: &mut Vec<Event>) -> Walk {
        let side = self.units[u as usize].side;
        // Where the mover saw every zone, the plan is the map as it is.
        let built;
        let real = if plan.blind {
            built = Situation::of(self);
            &built
        } else {
            plan
        };
        let cavalry = self.is_cavalry(u);
        let leave = self.sc.charts.terrain.partial_zoc_leave;
        let mut extra = 0u8;
        let mut end = path.len() - 1;
        let mut stop = None;
        for i in 1..path.len() {
            let back = path[i - 1].0;
            if cavalry
                && i > 1
                && real.enemy_zoc(side, back) == Zoc::Partial
                && plan.enemy_zoc(side, back) != Zoc::Partial
            {
                extra += leave;
            }
            let cost = path[i].1.saturating_add(extra);
            if cost > budget {
                end = i - 1;
                stop = Some(back);
                break;
            }
            path[i].1 = cost;
            let here = path[i].0;
            let z = real.enemy_zoc(side, here);
            let stops = z == Zoc::Total || (z == Zoc::Partial && !cavalry);
            if i < path.len() - 1 && stops && plan.enemy_zoc(side, here) != real.enemy_zoc(side, here) {
                end = i;
                stop = Some(here);
                break;
            }
        }
        let Some(at) = stop else { return Walk::Whole(path) };
        ev.push(Event::ZoneStop { unit: u, at });
        let start = path[0].0;
        let must_support = if self.is_supply(u) { only_support(self, real, u) } else { Vec::new() };
        while end > 0 && !self.may_end(real, u, start, path[end].0, path[end].1, &must_support) {
            end -= 1;
        }
        path.truncate(end + 1);
        Walk::Stopped(path)
    }

    pub(super) fn move_along(&mut self, u: UnitId, path: &[(Hex, u8)], upto: usize) {
        let (h, c) = path[upto];
        let unit = &mut self.units[u as usize];
        unit.hex = Some(h);
        unit.spent = unit.spent.saturating_add(c);
    }

    pub(super) fn finish_move(
        &mut self,
        u: UnitId,
        path: &[(Hex, u8)],
        upto: usize,
        march: March,
        ev: &mut Vec<Event>,
    ) {
        let from = path[0].0;
        self.move_along(u, path, upto);
        let (to, cost) = path[upto];
        ev.push(Event::Moved { unit: u, from, to, cost, march });
        self.after_move(u, &path[..=upto], ev);
    }

    /// What a move changes besides the counter's place: a moved Allied counter is a blank again;
    /// a French cavalry unit exposes every Allied counter it passes next to (Reconnaissance); the
    /// cities it enters change hands.
    pub(super) fn after_move(&mut self, u: UnitId, path: &[(Hex, u8)], ev: &mut Vec<Event>) {
        let side = self.units[u as usize].side;
        if side == Side::Allied && self.reconnaissance() {
            let unit = &mut self.units[u as usize];
            unit.revealed = false;
            unit.scouted = false;
        }
        if side == Side::French && self.is_cavalry(u) && self.reconnaissance() {
            let b = &self.sc.board;
            // The hexes beside the way, then the counters on them in one pass (in id order).
            let mut beside: Vec<Hex> = path.iter().flat_map(|&(h, _)| b.neighbours(h).map(|(_, nb)| nb)).collect();
            beside.sort_unstable();
            beside.dedup();
            let seen: Vec<UnitId> = (0..self.units.len() as UnitId)
                .filter(|&x| {
                    let unit = &self.units[x as usize];
                    unit.on_map()
                        && unit.side == Side::Allied
                        && !unit.scouted
                        && unit.hex.is_some_and(|h| beside.binary_search(&h).is_ok())
                })
                .collect();
            for &x in &seen {
                self.units[x as usize].revealed = true;
                self.units[x as usize].scouted = true;
            }
            if !seen.is_empty() {
                ev.push(Event::Revealed { units: seen });
            }
        }
        self.update_owners(ev);
    }
}

impl Leipzig {}

/// Every `n`-element combination of `items` (in order), appended to `out`.
pub fn combinations(items: &[UnitId], n: usize, out: &mut Vec<Vec<UnitId>>) {
    fn go(items: &[UnitId], n: usize, start: usize, cur: &mut Vec<UnitId>, out: &mut Vec<Vec<UnitId>>) {
        if cur.len() == n {
            out.push(cur.clone());
            return;
        }
        for i in start..items.len() {
            cur.push(items[i]);
            go(items, n, i + 1, cur, out);
            cur.pop();
        }
    }
    if n > 0 && items.len() >= n {
        go(items, n, 0, &mut Vec::new(), out);
    }
}

/// A forced march's result in words.
pub(super) fn march_words(r: MarchResult) -> String {
    match r {
        MarchResult::Ok => "the march is completed",
        MarchResult::Halt => "the march halts here",
        MarchResult::D => "completed, then dispersed",
        MarchResult::X => "destroyed on the march",
    }
    .to_string()
}

// The legal listing and the refusals of this chapter.
impl Leipzig {
    /// The Movement Phase's list: the armistice (special rules), breakdowns and recombinations
    /// (stacking), the counters' moves (here and forced march), exits (victory), Auto eliminations
    /// (combat), and its end where every stack may end it (stacking, armistice).
    pub(super) fn list_move(&self, s: &Situation, ask: &Asked, moves: bool, out: &mut Vec<Action>, aside: &mut Aside) {
        if self.can_armistice() {
            out.push(Action::Armistice);
        }
        let units: Vec<UnitId> = match ask.only {
            Some(u) if (u as usize) < self.units.len() => vec![u],
            Some(_) => Vec::new(),
            None => self.on_map(self.side).collect(),
        };
        if ask.wants(&Action::Breakdown { unit: 0 }) {
            out.extend(units.iter().filter(|&&u| self.can_break_down(u)).map(|&unit| Action::Breakdown { unit }));
        }
        if ask.wants(&Action::Build { units: Vec::new() }) && !self.moved_any {
            out.extend(self.build_sets().into_iter().map(|units| Action::Build { units }));
        }
        if moves && ask.wants(&Action::Move { unit: 0, to: Hex(0), march: March::Normal, supply: None }) {
            for &u in &units {
                if !self.can_move(u) {
                    continue;
                }
                let free = self.free_march(u);
                let supplies: Vec<Option<UnitId>> =
                    std::iter::once(None).chain(self.march_supplies(u).into_iter().map(Some)).collect();
                let upto = match ask.like {
                    Some(Action::Move { march, .. }) => *march,
                    _ => March::Triple,
                };
                // A check keeps the search of the counter asked of (see `reach_kept`).
                let Some((reach, destinations)) = self.destinations_searched(s, u, upto, ask.like.is_some(), None)
                else {
                    continue;
                };
                for (to, _, march) in destinations {
                    if march == March::Normal || free {
                        out.push(Action::Move { unit: u, to, march, supply: None });
                    } else {
                        for &supply in &supplies {
                            out.push(Action::Move { unit: u, to, march, supply });
                        }
                    }
                }
                if ask.like.is_some() {
                    aside.reach = Some(reach);
                }
            }
        } else if !moves {
            aside.movers.extend(units.iter().copied().filter(|&u| self.can_move(u)));
        }
        if ask.wants(&Action::Exit { unit: 0 }) {
            out.extend(units.iter().filter(|&&u| self.can_exit(s, u)).map(|&unit| Action::Exit { unit }));
        }
        if ask.wants(&Action::Overrun { from: Hex(0), target: Hex(0) }) {
            self.list_overruns(s, out);
        }
        // `s` is the map as the phasing side sees it: the Movement Phase decides for it.
        if ask.wants(&Action::EndMovement) && self.unfixed_stack_in(s).is_none() && self.armistice_stray().is_none() {
            out.push(Action::EndMovement);
        }
    }

    /// Why a move is refused (Movement; Forced March; Stacking; Zones of Control; the Saxon
    /// Garrison; the scenarios' ban on Austria), in the rulebook's words.
    pub(super) fn refuse_move(&self, unit: UnitId, to: Hex, march: March) -> LzError {
        if self.step != crate::games::leipzig::state::Step::Move {
            return self.not_now("moving");
        }
        if (unit as usize) >= self.units.len()
            || !self.units[unit as usize].on_map()
            || self.units[unit as usize].side != self.side
        {
            return LzError::new(rule::MOVEMENT, "only the phasing player's own counters on the map move");
        }
        let u = &self.units[unit as usize];
        if u.moved {
            return LzError::new(rule::MOVEMENT, "each counter is moved once, individually, in a Movement Phase");
        }
        if u.dispersed.is_some() {
            return LzError::new(
                rule::COMBAT,
                "a dispersed or scattered counter may not move until a friendly Movement and Combat Phase have passed (case K)",
            );
        }
        if self.garrison_neutral(unit) {
            return LzError::new(rule::SAXON, "the Saxon garrison may not move until Game-Turn 3");
        }
        if march == March::Triple && !self.is_cavalry(unit) && !self.is_combat(unit)
            || march == March::Triple && self.is_cavalry(unit)
        {
            return LzError::new(rule::FORCED_MARCH, "only infantry may attempt to triple its Movement Allowance");
        }
        let b = &self.sc.board;
        if (to.0 as usize) >= b.len() {
            return LzError::new(rule::MOVEMENT, "that hex is not on the map");
        }
        if self.enemy_at(to, self.side) {
            return LzError::new(rule::MOVEMENT, "units may never enter a hex containing Enemy units (case G)");
        }
        if b.austria[to.0 as usize] && !self.austria_open() {
            return LzError::new(rule::AUSTRIA, "no units may enter Austria in this scenario");
        }
        if self.is_cavalry(unit) && b.terrain(to) == crate::games::leipzig::data::Terrain::Mountain {
            return LzError::new(rule::MOVEMENT, "cavalry may not enter mountain hexes (Terrain Effects Chart)");
        }
        let s = Situation::as_seen_by(self, self.side);
        let far = self
            .destinations(&s, unit, March::Triple)
            .iter()
            .chain(self.destinations(&s, unit, March::Double).iter())
            .any(|(h, _)| *h == to);
        if march == March::Normal && far {
            return LzError::new(
                rule::FORCED_MARCH,
                "that hex lies beyond the counter's Movement Allowance: only a forced march reaches it",
            );
        }
        if march != March::Normal && self.destinations(&s, unit, March::Normal).iter().any(|(h, _)| *h == to) {
            return LzError::new(
                rule::FORCED_MARCH,
                "the counter reaches that hex on its normal allowance: a forced march goes beyond it",
            );
        }
        if self.at(to).any(|x| self.is_combat(x)) && self.is_combat(unit) {
            return LzError::new(
                rule::STACKING,
                "combat units may end a Movement Phase stacked only with or next to a supply unit, in a fortress (up to six divisions), or when they are about to be combined (case B)",
            );
        }
        LzError::new(
            rule::ZOC,
            "that hex is out of reach: its cost is more than the Movement Points left, or the way is barred by Enemy units, an Enemy Zone of Control the counter must stop in, mountains or a river",
        )
    }
}
