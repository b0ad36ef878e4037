//! Movement (and Formations' square, and the commands of step 4): every space and facing a unit
//! can reach with its MF, the path it takes, and what the path does on the way (the ice of the
//! ponds, friendly units crossed put in DIS, lone enemy commands captured).

use crate::engine::geometry::Facing;
use crate::games::austerlitz::actions::AzError;
use crate::games::austerlitz::actions::{Event, rule};
use crate::games::austerlitz::data::{Cell, Crossing, Kind, Mover, Terrain};
use crate::games::austerlitz::state::Step;
use crate::games::austerlitz::state::{Austerlitz, Formation, angle, rotate};
use smallvec::SmallVec;

/// How a unit gets to a space with a facing: what it spent and what it passed.
#[derive(Clone, Debug, PartialEq)]
pub struct Reach {
    pub spent: u8,
    /// Its state in the search (see `path_to` for the spaces passed).
    node: usize,
    /// Spaces entered.
    pub steps: u8,
    /// Whether the last step was straight on, with no turn in the space before it (a charge).
    pub straight: bool,
    /// The stepping used the column's extra MF: the unit must attack from there.
    pub extra: bool,
    /// The road's extra MF earned on the way (0 to 2).
    pub bonus: u8,
    /// Spaces of friendly units passed over (each put in DIS) and frozen ponds crossed.
    pub crossed: u8,
    pub ponds: u8,
}

/// A state of the search, by indices: the space, the direction of the last step, the MF spent
/// and the road's MF earned (0 to 2).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    cell: u16,
    facing: u8,
    spent: u8,
    road: u8,
}

/// A state of the search: how it was reached (its parent in the arena, `u32::MAX` for the
/// start), what it passed.
#[derive(Clone, Copy)]
struct Node {
    key: Key,
    parent: u32,
    depth: u8,
    ponds: u8,
    crossed: u8,
    straight: bool,
}

/// One unit's search: its states and every (space, facing) it reaches. Kept by the check of a
/// move for `apply`, which walks the path from it instead of searching again.
#[derive(Clone, Default)]
pub struct Search {
    arena: Vec<Node>,
    pub reach: Vec<(Cell, Facing, Reach)>,
}

/// What a search keeps between searches on one thread: the state index of each (space, travel
/// direction, road MF) slot (`u16::MAX` everywhere outside a search: a search sets back only
/// the slots it used) and the buckets' lists, so that a search neither allocates them nor
/// clears the whole board's slots.
#[derive(Default)]
struct SearchScratch {
    index: Vec<u16>,
    buckets: Vec<Vec<u32>>,
}

thread_local! {
    static SEARCH_SCRATCH: std::cell::RefCell<SearchScratch> = std::cell::RefCell::new(SearchScratch::default());
}

impl SearchScratch {
    /// This thread's scratch, ready for a search of `slots` slots and `buckets` buckets (a
    /// search cut short by a panic leaves none behind: the next one starts afresh).
    fn take(slots: usize, buckets: usize) -> SearchScratch {
        let mut s = SEARCH_SCRATCH.with_borrow_mut(std::mem::take);
        if s.index.len() != slots {
            s.index = vec![u16::MAX; slots];
        }
        if s.buckets.len() < buckets {
            s.buckets.resize_with(buckets, Vec::new);
        }
        s
    }

    /// The scratch given back, its `used` slots set back and its buckets emptied.
    fn give_back(mut index: Vec<u16>, mut buckets: Vec<Vec<u32>>, used: impl Iterator<Item = usize>) {
        for s in used {
            index[s] = u16::MAX;
        }
        for b in &mut buckets {
            b.clear();
        }
        SEARCH_SCRATCH.with_borrow_mut(|kept| *kept = SearchScratch { index, buckets });
    }
}

/// How many searches a thread keeps (see `Austerlitz::search`).
const KEPT_SEARCHES: usize = 2;

thread_local! {
    static SEARCHES: std::cell::RefCell<Vec<(Austerlitz, usize, Search)>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Every unit's search made by this thread's last whole legal list, with a copy of its
    /// table: the beginner then asks each unit's reach on its view of the same table (equal
    /// but for its chance), and a search was a third of its decision.
    static LISTED: std::cell::RefCell<Option<Listed>> = const { std::cell::RefCell::new(None) };
}

/// A whole list's searches (`LISTED`): the table it was made on, and each unit's search.
type Listed = (Austerlitz, Vec<(usize, Search)>);

/// Who stands where, read once per search (the search asks it thousands of times).
pub(super) struct Occupancy {
    pub(super) side: Vec<Option<super::super::data::Side>>,
    pub(super) count: Vec<u8>,
    /// The spaces each side's units hold, as rows of bits ([French, Allied]).
    pub(super) held: [super::super::data::SpaceBits; 2],
}

impl Austerlitz {
    /// The MF a unit may spend this turn (before the road's 2): cavalry's higher factor (its
    /// lower one to attack), horse artillery's lower one once it has fired.
    pub fn allowance(&self, u: usize) -> u8 {
        let d = &self.sc.units[u];
        if d.kind == Kind::Horse && self.units[u].fired { d.mf.0 } else { d.mf.1 }
    }

    /// The facing a unit travels in (artillery moves away from its guns' front).
    pub fn travel(&self, u: usize) -> Facing {
        let f = self.units[u].facing;
        if self.kind(u).is_artillery() { rotate(f, 4) } else { f }
    }

    /// The most a turn may swing (in eighths): columns 45°, lines 90°, others any way.
    /// (`now`: the formation it stands in.)
    fn max_turn(&self, u: usize, now: Option<Formation>) -> i32 {
        match self.units[u].formation_at_start {
            Some(Formation::Column) if now == Some(Formation::Column) => 1,
            Some(Formation::Line) if now == Some(Formation::Line) => 2,
            _ => 4,
        }
    }

    /// Whether a turn in a space costs nothing: light infantry and squares turn freely (and
    /// along a road, see `reach`).
    fn free_turn(&self, u: usize) -> bool {
        self.kind(u) == Kind::Light || self.units[u].square
    }

    /// Whether unit `u` could end its move in `c` (stacking, ponds).
    pub fn may_stand(&self, u: usize, c: Cell) -> bool {
        let b = &self.sc.board;
        if b.space(c).terrain == Terrain::Pond {
            return false;
        }
        if self.command_at(c).is_some_and(|k| self.sc.commands[k].side != self.side_of(u))
            && self.units_in(c).next().is_some()
        {
            return false;
        }
        let mut others = self.units_in(c).filter(|&v| v != u);
        match (others.next(), others.next()) {
            (None, _) => true,
            (Some(v), None) => {
                self.side_of(v) == self.side_of(u)
                    // "Infantry in formations may stack with artillery units; in a Square
                    // formation also, but the Square then can't move and the artillery unit
                    // can't fire" (Formations): a gun may join a square as well.
                    && ((self.kind(u).is_infantry() && self.kind(v).is_artillery())
                        || (self.kind(u).is_artillery() && self.kind(v).is_infantry()))
            }
            _ => false,
        }
    }

    /// Why a unit may not move at all now, if it may not.
    pub fn cannot_move(&self, u: usize) -> Option<&'static str> {
        let unit = &self.units[u];
        if unit.eliminated {
            return Some("it has been eliminated");
        }
        if unit.dis {
            return Some("a DIS unit may not be moved");
        }
        if unit.moved {
            return Some("it has moved this turn");
        }
        if unit.attacked && !unit.square {
            return Some("it has had combat this turn (only squares move and fight in any order)");
        }
        if self.kind(u) == Kind::Horse && unit.fired && !unit.moved && unit.spent >= self.sc.units[u].mf.1 {
            return Some(
                "it fired in step 1, on the Artillery Table: a horse battery that fires and moves does both in step 2, on the Horse Artillery Table",
            );
        }
        if unit.square && unit.at.is_some_and(|c| self.units_in(c).nth(1).is_some()) {
            return Some("a square stacked with artillery can't move");
        }
        if unit.at.is_none()
            && !(self.davout_arrived && self.sc.commands[self.sc.unit_command[u] as usize].at.is_none())
        {
            return Some("Davout's corps has not arrived");
        }
        None
    }

    pub(super) fn occupancy(&self) -> Occupancy {
        let n = self.sc.board.spaces.len();
        let none = self.sc.board.bits.none();
        let mut o = Occupancy { side: vec![None; n], count: vec![0; n], held: [none.clone(), none] };
        for u in 0..self.units.len() {
            if let Some(c) = self.units[u].at
                && !self.units[u].eliminated
            {
                let i = self.sc.board.index(c);
                o.side[i] = Some(self.side_of(u));
                o.count[i] += 1;
                o.held[self.side_of(u).index()][i / 64] |= 1 << (i % 64);
            }
        }
        o
    }

    /// Every space and facing unit `u` can reach (Movement), with how: (space, front, how), in
    /// a fixed order.
    pub fn reach(&self, u: usize) -> Vec<(Cell, Facing, Reach)> {
        self.search(u).reach
    }

    /// How unit `u` reaches a space with its front this way.
    pub fn reach_to(&self, u: usize, to: Cell, facing: Facing) -> Option<Reach> {
        self.reach(u).into_iter().find(|(c, f, _)| *c == to && *f == facing).map(|x| x.2)
    }

    /// The spaces unit `u` passes to reach a space with a facing (the last is the space).
    pub fn path_to(&self, u: usize, to: Cell, facing: Facing) -> Option<(Reach, Vec<Cell>)> {
        self.path_in(u, self.search(u), to, facing)
    }

    /// The same, read from the unit's search already made.
    fn path_in(&self, u: usize, search: Search, to: Cell, facing: Facing) -> Option<(Reach, Vec<Cell>)> {
        let Search { arena, reach } = search;
        let r = reach.into_iter().find(|(c, f, _)| *c == to && *f == facing)?.2;
        let mut path = Vec::new();
        let mut at = r.node as u32;
        while at != u32::MAX {
            let n = &arena[at as usize];
            if n.parent != u32::MAX || self.units[u].at.is_none() {
                path.push(self.sc.board.cell_of(n.key.cell as usize));
            }
            at = n.parent;
        }
        path.reverse();
        Some((r, path))
    }

    /// Unit `u`'s search, kept: a decision searches the same unit twice on the same table (the
    /// random player's draw, then the check of the move it drew), so the last searches of this
    /// thread are kept with a copy of the table they were made on, and one is reused only for
    /// the same unit on an equal table (the scenario compared by address, held by the copy).
    pub(super) fn search(&self, u: usize) -> Search {
        if let Some(found) = self.kept_search(u) {
            return found;
        }
        let found = self.search_afresh(u);
        SEARCHES.with_borrow_mut(|kept| {
            kept.insert(0, (self.clone(), u, found.clone()));
            kept.truncate(KEPT_SEARCHES);
        });
        found
    }

    /// Unit `u`'s search for the check of its move to `to` with front `facing`: the kept search
    /// when there is one (the random player's draw), else a search for that destination alone
    /// (see `search_for`), which is not kept.
    pub(super) fn search_to(&self, u: usize, to: Cell, facing: Facing) -> Search {
        self.kept_search(u).unwrap_or_else(|| self.search_for(u, Some((to, facing))))
    }

    /// The search this thread keeps of unit `u` on this very table (or one equal but for its
    /// chance), if it keeps one: a search of its own, or one its last whole list made.
    fn kept_search(&self, u: usize) -> Option<Search> {
        SEARCHES
            .with_borrow(|kept| {
                kept.iter()
                    .find(|(g, unit, _)| *unit == u && g.same_but_chance(self))
                    .map(|(_, _, found)| found.clone())
            })
            .or_else(|| {
                LISTED.with_borrow(|listed| {
                    let (g, searches) = listed.as_ref()?;
                    let found = searches.iter().find(|(unit, _)| *unit == u)?;
                    g.same_but_chance(self).then(|| found.1.clone())
                })
            })
    }

    /// Keeps the searches a whole legal list made (see `LISTED`), in place of the last list's.
    pub(super) fn keep_listed(&self, searches: Vec<(usize, Search)>) {
        if searches.is_empty() {
            return;
        }
        LISTED.with_borrow_mut(|listed| *listed = Some((self.clone(), searches)));
    }

    /// Every space and facing unit `u` can reach, searched now whatever was kept (the
    /// benchmark of one unit's search).
    #[doc(hidden)]
    pub fn reach_searched(&self, u: usize) -> Vec<(Cell, Facing, Reach)> {
        self.search_afresh(u).reach
    }

    /// The search: the cheapest way to each (space, travel direction, road MF earned), and
    /// among equally cheap ones the one over the fewest ponds and friendly units. Buckets by MF
    /// spent (a step costs 1 to 4), states in flat arrays by index: it runs for every unit
    /// each time the legal list is asked.
    pub(super) fn search_afresh(&self, u: usize) -> Search {
        self.search_for(u, None)
    }

    /// The search, whole (`to` none) or for one (space, front) alone: the check of a move
    /// asks of one. A step costs at least 1 MF and a state is made or bettered only from a
    /// cheaper one, so once the bucket of `t` MF is done every state costing at most `t + 1` is
    /// final (the same states, in the same order, with the same parents as the whole search
    /// has); the search for one destination stops there once a way to it costing at most
    /// `t + 1` is found, and judges only the states on that space. Its `reach` holds that
    /// destination alone, if the unit reaches it.
    fn search_for(&self, u: usize, to: Option<(Cell, Facing)>) -> Search {
        let mut out = Vec::new();
        if self.cannot_move(u).is_some() {
            return Search::default();
        }
        let b = &self.sc.board;
        let occ = self.occupancy();
        let side = self.side_of(u);
        let allowance = self.allowance(u);
        let now = self.formation_kind(u);
        let column = self.units[u].formation_at_start == Some(Formation::Column) && now == Some(Formation::Column);
        let extra = u8::from(column);
        // The directions a unit travelling each way may take next (bits): within its turn.
        let max_turn = self.max_turn(u, now);
        let turns: [u8; 8] = std::array::from_fn(|kf| {
            (0..8).filter(|&d| angle(Facing::ALL[d], Facing::ALL[kf]) <= max_turn).fold(0u8, |m, d| m | 1 << d)
        });
        let free_turn = self.free_turn(u);
        let artillery = self.kind(u).is_artillery();
        let mover = if self.units[u].square {
            Mover::Square
        } else if artillery {
            Mover::Artillery
        } else if self.kind(u).is_cavalry() {
            Mover::Cavalry
        } else {
            Mover::Infantry
        };
        let costs = &b.step_costs[mover as usize];
        let limit = allowance + 2 + extra;
        let slot = |k: &Key| (k.cell as usize * 8 + k.facing as usize) * 3 + k.road as usize;
        let here = self.units[u].at.map(|c| b.index(c));
        let own_front = self.units[u].facing.index();
        let mut square_ok = self.units[u].square.then(|| self.square_stand_check(u));
        // Whether the unit may end its move on space `ci`: an empty space unless it is a pond;
        // else the stacking rules decide.
        let mut may_end = |ci: usize| {
            let empty = occ.count[ci] == 0 && !b.pond[ci];
            (empty || self.may_stand(u, b.cell_of(ci))) && square_ok.as_mut().is_none_or(|ok| ok(ci))
        };
        let ending =
            Ending { g: self, occ: &occ, turns, allowance, extra, column, free_turn, artillery, here, own_front, side };
        // The best way to space `ti` with front `fi` among the states there that cost at most
        // `upto` (in the arena's order, as the whole search judges them), if it costs at most
        // `upto`.
        let best_at = |arena: &[Node], index: &[u16], ti: usize, fi: usize, upto: u8| -> Option<Reach> {
            let gi = if artillery { (fi + 4) % 8 } else { fi };
            let mut states: SmallVec<[usize; 24]> = index[ti * 24..ti * 24 + 24]
                .iter()
                .filter(|&&o| o != u16::MAX && arena[o as usize].key.spent <= upto)
                .map(|&o| o as usize)
                .collect();
            states.sort_unstable();
            let mut best: Option<Reach> = None;
            for i in states {
                let node = &arena[i];
                if ending.fronts(node) & 1 << gi == 0 {
                    continue;
                }
                if let Some((_, spent)) = ending.end(node, gi)
                    && best.as_ref().is_none_or(|old| (spent, node.depth) < (old.spent, old.steps))
                {
                    best = Some(ending.reach(i, node, gi, spent));
                }
            }
            best.filter(|r| r.spent <= upto)
        };
        // The destination asked of, if any: none to search for where the unit may not end.
        let target = match to {
            Some((c, f)) if b.contains(c) => {
                let ti = b.index(c);
                if !may_end(ti) {
                    return Search::default();
                }
                Some((ti, f.index()))
            }
            Some(_) => return Search::default(),
            None => None,
        };
        let mut arena: Vec<Node> = Vec::with_capacity(512);
        let SearchScratch { mut index, mut buckets } = SearchScratch::take(b.spaces.len() * 24, limit as usize + 1);
        // Start: in its space, or (Davout) entering the arrow's space.
        match self.units[u].at {
            Some(c) => arena.push(Node {
                key: Key { cell: b.index(c) as u16, facing: self.travel(u).index() as u8, spent: 0, road: 0 },
                parent: u32::MAX,
                depth: 0,
                ponds: 0,
                crossed: 0,
                straight: false,
            }),
            None => {
                let arrow = b.davout_entry;
                if occ.side[b.index(arrow.at)].is_none_or(|s| s == side) {
                    arena.push(Node {
                        key: Key {
                            cell: b.index(arrow.at) as u16,
                            facing: arrow.facing.index() as u8,
                            spent: 1,
                            road: 0,
                        },
                        parent: u32::MAX,
                        depth: 0,
                        ponds: 0,
                        crossed: 0,
                        straight: true,
                    });
                }
            }
        }
        if let Some(n) = arena.first() {
            index[slot(&n.key)] = 0;
            buckets[n.key.spent as usize].push(0);
        }
        for t in 0..=limit as usize {
            let mut k = 0;
            while k < buckets[t].len() {
                let here = buckets[t][k];
                k += 1;
                let node = arena[here as usize];
                let key = node.key;
                if key.spent as usize != t {
                    continue;
                }
                let ci = key.cell as usize;
                let road_bits = b.road_dirs[ci];
                let next = &b.next[ci];
                let mut dirs = turns[key.facing as usize];
                while dirs != 0 {
                    let di = dirs.trailing_zeros() as usize;
                    dirs &= dirs - 1;
                    // The step's cost (0: no way), then enemy units in the way.
                    let sc = costs[ci * 8 + di];
                    if sc == 0 {
                        continue;
                    }
                    let ni = next[di] as usize;
                    if occ.side[ni].is_some_and(|s| s != side) {
                        continue;
                    }
                    let bit = 1u8 << di;
                    let turn = di != key.facing as usize;
                    let road_step = road_bits & bit != 0;
                    let tc = u8::from(turn && !free_turn && !road_step);
                    let spent = key.spent + tc + sc;
                    let road = (key.road + if road_step { tc + sc } else { 0 }).min(2);
                    if spent > allowance + road + extra {
                        continue;
                    }
                    let nk = Key { cell: ni as u16, facing: di as u8, spent, road };
                    let nn = Node {
                        key: nk,
                        parent: here,
                        depth: node.depth + 1,
                        ponds: node.ponds + u8::from(b.pond[ni]),
                        crossed: node.crossed + u8::from(occ.count[ni] > 0),
                        straight: !turn,
                    };
                    let s = slot(&nk);
                    let o = index[s];
                    if o == u16::MAX {
                        index[s] = arena.len() as u16;
                        buckets[spent as usize].push(arena.len() as u32);
                        arena.push(nn);
                    } else {
                        let old = &arena[o as usize];
                        // (spent, ponds, crossed) compared in that order, as one number.
                        let rank =
                            |n: &Node| u32::from(n.key.spent) << 16 | u32::from(n.ponds) << 8 | u32::from(n.crossed);
                        if rank(&nn) < rank(old) {
                            arena[o as usize] = nn;
                            buckets[spent as usize].push(o as u32);
                        }
                    }
                }
            }
            // One destination asked of: done once a way to it costing at most `t + 1` is found
            // (a step costs at least 1 MF, so the states that cost that much are final once
            // bucket `t` is done).
            if let Some((ti, fi)) = target
                && best_at(&arena, &index, ti, fi, t as u8 + 1).is_some()
            {
                break;
            }
        }
        let asked = target.map(|(ti, fi)| (ti, fi, best_at(&arena, &index, ti, fi, u8::MAX)));
        SearchScratch::give_back(index, buckets, arena.iter().map(|n| slot(&n.key)));
        if let Some((ti, fi, found)) = asked {
            if let Some(r) = found {
                out.push((b.cell_of(ti), Facing::ALL[fi], r));
            }
            return Search { arena, reach: out };
        }
        let mut stand: Vec<Option<bool>> = vec![None; b.spaces.len()];
        let mut best: Vec<u16> = vec![u16::MAX; b.spaces.len() * 8];
        let mut found: Vec<Reach> = Vec::with_capacity(arena.len());
        // The (space, front) slots found, as bits in the board's order.
        let mut slots: Vec<u64> = vec![0; (b.spaces.len() * 8).div_ceil(64)];
        for (i, node) in arena.iter().enumerate() {
            let ci = node.key.cell as usize;
            if !*stand[ci].get_or_insert_with(|| may_end(ci)) {
                continue;
            }
            let mut faces = ending.fronts(node);
            while faces != 0 {
                let gi = faces.trailing_zeros() as usize;
                faces &= faces - 1;
                let Some((fi, spent)) = ending.end(node, gi) else { continue };
                let e = &mut best[ci * 8 + fi];
                if *e == u16::MAX {
                    *e = found.len() as u16;
                    found.push(ending.reach(i, node, gi, spent));
                    let slot = ci * 8 + fi;
                    slots[slot / 64] |= 1 << (slot % 64);
                } else {
                    let old = &mut found[*e as usize];
                    if (spent, node.depth) < (old.spent, old.steps) {
                        *old = ending.reach(i, node, gi, spent);
                    }
                }
            }
        }
        // In the board's order: the (space, front) slots found, read off their bits (sorting
        // them was a tenth of a search).
        out.reserve(found.len());
        for (w, &word) in slots.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out.push((b.cell_of(i / 8), Facing::ALL[i % 8], found[best[i] as usize].clone()));
            }
        }
        Search { arena, reach: out }
    }

    /// A column that used its extra MF must attack (Movement: the MF is added only to attack):
    /// while it can, the attacks with it are the only legal actions. The unit and those attacks;
    /// none when no unit owes one, or its attack has gone (an opportunity fire drove it back).
    pub fn owed_attacks(&self) -> Option<(usize, Vec<super::combat::AttackOption>)> {
        let u = (0..self.units.len()).find(|&u| {
            self.units[u].extra && !self.units[u].attacked && self.on_board(u) && self.side_of(u) == self.side
        })?;
        let mut options = Vec::new();
        self.attack_options(&mut options);
        options.retain(|(set, _, _)| set.contains(&u));
        (!options.is_empty()).then_some((u, options))
    }

    /// Whether an enemy combat unit stands in the space ahead of a facing.
    fn enemy_ahead(&self, c: crate::games::austerlitz::data::Cell, f: Facing, side: super::super::data::Side) -> bool {
        self.sc.board.grid.step(c, f).is_some_and(|n| self.holder(n).is_some_and(|s| s != side))
    }

    /// The move, along the path of the check's search where it kept one.
    pub fn apply_move(&mut self, u: usize, to: Cell, facing: Facing, kept: Option<Search>, ev: &mut Vec<Event>) {
        let (r, path) = match kept {
            Some(search) => self.path_in(u, search, to, facing),
            None => self.path_to(u, to, facing),
        }
        .expect("checked");
        let from = self.units[u].at.unwrap_or(self.sc.board.davout_entry.at);
        let side = self.side_of(u);
        let demoralised = self.is_demoralised(u);
        let mut lost_square = false;
        let mut prev = from;
        let sc = self.sc.clone();
        let b = &sc.board;
        for &c in &path {
            if b.crossing(prev, c) != Crossing::Open
                || matches!(b.space(c).terrain, Terrain::Woods | Terrain::Town | Terrain::Castle)
            {
                lost_square = true;
            }
            prev = c;
            if let Some(k) = self.command_at(c)
                && self.sc.commands[k].side != side
            {
                self.capture(k, format!("a lone command overrun at {}", self.sc.board.place_name(c)), ev);
            }
            if b.space(c).terrain == Terrain::Pond {
                let roll = self.rng.d6();
                let ice = &self.sc.tables.ice;
                let breaks = if self.kind(u).is_infantry() {
                    ice.infantry
                } else if self.kind(u).is_cavalry() {
                    ice.cavalry
                } else {
                    ice.artillery
                };
                let what = format!(
                    "the ice under {} at {} (it breaks on {breaks} or less)",
                    self.sc.units[u].name,
                    b.place_name(c)
                );
                let holds = roll > breaks;
                let result = if holds { "the ice holds" } else { "the ice breaks" }.to_string();
                ev.push(self.roll(side, rule::MOVEMENT, what, vec![roll], Vec::new(), None, result));
                if !holds {
                    self.units[u].at = Some(c);
                    self.eliminate(u, "the ice broke".into(), ev);
                    return;
                }
            }
            if c != to {
                for v in self.units_at(c) {
                    if v != u && self.side_of(v) == side {
                        self.disorder(v, format!("crossed by {}", self.sc.units[u].name), ev);
                        if demoralised {
                            self.demoralise(v, format!("crossed by the demoralised {}", self.sc.units[u].name), ev);
                        }
                    }
                }
            }
        }
        let unit = &mut self.units[u];
        unit.at = Some(to);
        unit.facing = facing;
        unit.spent = r.spent;
        unit.moved = true;
        if lost_square && unit.square {
            unit.square = false;
            ev.push(Event::Formed { unit: u as u8, square: false });
        }
        if path.is_empty() {
            ev.push(Event::Turned { unit: u as u8, facing });
        } else {
            ev.push(Event::Moved { unit: u as u8, from, to, spent: r.spent });
        }
        self.units[u].straight = r.straight;
        self.units[u].extra = r.extra;
        self.units[u].bonus = r.bonus;
        self.offer_opportunity_fire(u);
    }
}

/// How a search judges where its states may end, fixed for the whole search: the unit's
/// turns, allowance and column's extra MF, where it stands and its front.
struct Ending<'a> {
    g: &'a Austerlitz,
    occ: &'a Occupancy,
    turns: [u8; 8],
    allowance: u8,
    extra: u8,
    column: bool,
    free_turn: bool,
    artillery: bool,
    here: Option<usize>,
    own_front: usize,
    side: super::super::data::Side,
}

impl Ending<'_> {
    /// The fronts a state may end with: within its turn (a square space's front is one of its
    /// four sides).
    #[inline(always)]
    fn fronts(&self, node: &Node) -> u8 {
        self.turns[node.key.facing as usize] & self.g.sc.board.fronts[node.key.cell as usize]
    }

    /// Whether state `node` may end with its travel turned to `gi`: the front it then has and
    /// the MF it spends.
    #[inline(always)]
    fn end(&self, node: &Node, gi: usize) -> Option<(usize, u8)> {
        let key = node.key;
        let ci = key.cell as usize;
        let bonus = key.road.min(2);
        let turn = gi != key.facing as usize;
        let spent = key.spent + u8::from(turn && !self.free_turn);
        // The column's extra MF only to attack, never for a turn in the last space.
        if spent > self.allowance + bonus
            && (turn
                || !self.column
                || spent > self.allowance + bonus + self.extra
                || !self.g.enemy_ahead(self.g.sc.board.cell_of(ci), Facing::ALL[gi], self.side))
        {
            return None;
        }
        let fi = if self.artillery { (gi + 4) % 8 } else { gi };
        (self.here != Some(ci) || fi != self.own_front).then_some((fi, spent))
    }

    /// How state `i` (`node`) reaches its space turned to `gi`, spending `spent` (see `end`).
    #[inline(always)]
    fn reach(&self, i: usize, node: &Node, gi: usize, spent: u8) -> Reach {
        let key = node.key;
        let ci = key.cell as usize;
        let bonus = key.road.min(2);
        let turn = gi != key.facing as usize;
        Reach {
            spent,
            node: i,
            steps: node.depth,
            straight: node.straight && !turn,
            extra: spent > self.allowance + bonus,
            bonus,
            // The destination's own units are joined, not passed over.
            crossed: node.crossed.saturating_sub(u8::from(self.occ.count[ci] > 0 && self.here != Some(ci))),
            ponds: node.ponds,
        }
    }
}

// The legal listing and the refusals of this chapter.
impl Austerlitz {
    /// Why a move is refused (Movement; the Phases of a game turn; Artillery; stacking), in the
    /// rulebook's words.
    pub(super) fn refuse_move(&self, u: usize, to: Cell, facing: Facing) -> AzError {
        if let Some(why) = self.cannot_move(u) {
            return AzError::new(rule::MOVEMENT, why);
        }
        if self.side_of(u) != self.side {
            return AzError::new(rule::MOVEMENT, "that is not your unit");
        }
        if self.kind(u).is_field_artillery() && self.step == Step::Move {
            return self.not_now("field artillery moves in step 3");
        }
        if !self.kind(u).is_field_artillery() && self.step == Step::ArtilleryMove {
            return self.not_now("step 3 moves field artillery only");
        }
        if self.step == Step::ArtilleryMove && !self.may_move_artillery(u) {
            return AzError::new(rule::ARTILLERY, "field artillery that fired (or has smoke or DIS) can't move");
        }
        if !self.sc.board.contains(to) {
            return AzError::new(rule::MOVEMENT, "off the board");
        }
        if !self.may_stand(u, to) {
            return AzError::new(
                rule::STACKING,
                "only 1 combat unit a space (1 artillery with 1 infantry), never ending on a pond",
            );
        }
        AzError::new(
            rule::MOVEMENT,
            format!(
                "{} can't reach {} facing {facing:?} with its MF: units move the way their triangle points, pay 1 to turn (not on a road, nor light infantry or squares), columns turn 45° at most",
                self.sc.units[u].name,
                self.sc.board.place_name(to)
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::games::austerlitz::{self, AzScenario, ai::AzPlayer};
    use std::sync::Arc;

    /// Formations: a square may never be moved next to any other formation. The check a
    /// square's search makes once (`square_stand_check`) answers as the check of one space
    /// (`square_may_stand`) does, at every space, for a spread of units, at every tenth decision
    /// of two random battles.
    #[test]
    fn formations_a_squares_search_judges_every_space_as_the_check_of_one_space() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz/1-historical.ron");
        let sc = Arc::new(AzScenario::load(&path).expect("the shipped scenario loads"));
        let mut compared = 0;
        for seed in 1..=2 {
            let game = austerlitz::play_game(sc.clone(), seed, [AzPlayer::Random; 2], 40_000).expect("a battle");
            let mut t = austerlitz::table_on(sc.clone(), seed);
            for (k, r) in game.records.iter().enumerate() {
                if k % 10 == 0 {
                    let g = &t.game;
                    for u in (0..g.units.len()).step_by(5) {
                        let mut check = g.square_stand_check(u);
                        for i in 0..g.sc.board.spaces.len() {
                            let one = g.square_may_stand(u, g.sc.board.cell_of(i));
                            assert_eq!(check(i), one, "unit {u}, space {i}, decision {k} of battle {seed}");
                            compared += usize::from(!one);
                        }
                    }
                }
                t.submit(r.seat, r.act.clone()).expect("the battle replays");
            }
        }
        // Spaces next to a formation were among those compared.
        assert!(compared > 100, "{compared} spaces barred");
    }

    /// Movement: the check of one move (a search for that destination alone, stopped as soon as
    /// its best way is final) finds what the whole search finds there: the same MF, steps and
    /// passing, and the same way walked; and nothing where the whole search reaches nothing. For
    /// every unit of the side moving, at every fortieth decision of a random battle, at every
    /// destination it reaches and at every front of every thirteenth space.
    #[test]
    fn movement_the_check_of_one_move_finds_what_the_whole_search_finds() {
        use crate::engine::geometry::Facing;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz/1-historical.ron");
        let sc = Arc::new(AzScenario::load(&path).expect("the shipped scenario loads"));
        let (mut reached, mut stopped_early) = (0, 0);
        for seed in [3] {
            let game = austerlitz::play_game(sc.clone(), seed, [AzPlayer::Random; 2], 40_000).expect("a battle");
            let mut t = austerlitz::table_on(sc.clone(), seed);
            for (k, r) in game.records.iter().enumerate() {
                let g = &t.game;
                if k % 40 == 0 {
                    for u in (0..g.units.len()).filter(|&u| g.side_of(u) == g.side && g.cannot_move(u).is_none()) {
                        let whole = g.search_afresh(u);
                        for (c, f, how) in &whole.reach {
                            let one = g.search_for(u, Some((*c, *f)));
                            assert_eq!(one.reach, vec![(*c, *f, how.clone())], "unit {u} to {c:?} {f:?}, decision {k}");
                            assert_eq!(
                                g.path_in(u, one.clone(), *c, *f),
                                g.path_in(u, whole.clone(), *c, *f),
                                "the way of unit {u} to {c:?} {f:?}, decision {k}"
                            );
                            reached += 1;
                            stopped_early += usize::from(one.arena.len() < whole.arena.len());
                        }
                        for i in (0..g.sc.board.spaces.len()).step_by(13) {
                            let c = g.sc.board.cell_of(i);
                            for f in Facing::ALL {
                                if !whole.reach.iter().any(|(wc, wf, _)| (*wc, *wf) == (c, f)) {
                                    assert!(g.search_for(u, Some((c, f))).reach.is_empty(), "unit {u} to {c:?} {f:?}");
                                }
                            }
                        }
                    }
                }
                t.submit(r.seat, r.act.clone()).expect("the battle replays");
            }
        }
        // Many destinations were compared, and most searches for one stopped before the end.
        eprintln!("{reached} compared, {stopped_early} stopped early");
        assert!(reached > 500 && stopped_early * 2 > reached, "{reached} compared, {stopped_early} stopped early");
    }

    /// Movement: the searches a whole legal list keeps (for the beginner, which asks each
    /// unit's reach next on its view) serve only a table equal to the list's but for its chance:
    /// on the view they give what a search afresh gives, and a table with one unit elsewhere is
    /// searched afresh. At every twenty-fifth decision of a random battle, for every unit of
    /// the side moving.
    #[test]
    fn movement_the_searches_a_legal_list_keeps_serve_only_an_equal_table() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz/1-historical.ron");
        let sc = Arc::new(AzScenario::load(&path).expect("the shipped scenario loads"));
        let game = austerlitz::play_game(sc.clone(), 4, [AzPlayer::Random; 2], 40_000).expect("a battle");
        let mut t = austerlitz::table_on(sc.clone(), 4);
        let (mut served, mut differ) = (0, 0);
        for (k, r) in game.records.iter().enumerate() {
            let g = &t.game;
            let movers: Vec<usize> =
                (0..g.units.len()).filter(|&u| g.side_of(u) == g.side && g.cannot_move(u).is_none()).collect();
            if k % 25 == 0 && movers.len() > 1 {
                let mut legal = Vec::new();
                g.legal(&mut legal);
                let mut view = g.clone();
                view.rng = crate::engine::rng::TableRng::from_seed(0);
                assert!(view.same_but_chance(g));
                for &u in &movers {
                    assert_eq!(view.reach(u), view.reach_searched(u), "unit {u}, decision {k}");
                    served += 1;
                }
                // The first mover stands on the last space the second reaches.
                let mut moved = g.clone();
                let (m, other) = (movers[0], movers[1]);
                if let Some(&(c, _, _)) = g.reach_searched(other).last() {
                    moved.units[m].at = Some(c);
                    assert!(!moved.same_but_chance(g));
                    g.legal(&mut legal);
                    for &u in &movers {
                        assert_eq!(
                            moved.reach(u),
                            moved.reach_searched(u),
                            "unit {u} beside the moved one, decision {k}"
                        );
                        differ += usize::from(moved.reach_searched(u) != g.reach_searched(u));
                    }
                }
            }
            t.submit(r.seat, r.act.clone()).expect("the battle replays");
        }
        // Many searches were served, and the tables with a unit elsewhere reached otherwise.
        assert!(served > 100 && differ > 10, "{served} served, {differ} differ");
    }

    /// Commands (a command moves its MF in spaces): the spread over rows of bits that finds a
    /// command's moves reaches exactly what a walk from space to bordering space (the board's
    /// table of neighbours) reaches within the same steps through the same open spaces, from
    /// every space of the board, for 1 to 9 steps, with about a fifth of the spaces closed.
    #[test]
    fn commands_the_spread_over_rows_of_bits_reaches_what_a_walk_space_by_space_reaches() {
        use crate::games::austerlitz::data::NO_SPACE;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz/1-historical.ron");
        let sc = AzScenario::load(&path).expect("the shipped scenario loads");
        let b = &sc.board;
        let n = b.spaces.len();
        let mut rng = crate::engine::rng::TableRng::from_seed(7);
        let mut diagonal_only_between_octagons = false;
        for start in 0..n {
            let mut open = b.bits.none();
            for i in (0..n).filter(|&i| i == start || rng.below(5) != 0) {
                open[i / 64] |= 1 << (i % 64);
            }
            let steps = 1 + (start % 9) as u32;
            let spread = b.bits.spread(start, &open, steps);
            // The walk: ring after ring through the table of neighbours.
            let mut reached = vec![start];
            let mut ring = vec![start];
            for _ in 0..steps {
                let mut next = Vec::new();
                for &c in &ring {
                    for &m in &b.next[c] {
                        let m = m as usize;
                        if m as u16 != NO_SPACE && open[m / 64] & 1 << (m % 64) != 0 && !reached.contains(&m) {
                            reached.push(m);
                            next.push(m);
                        }
                    }
                }
                ring = next;
            }
            reached.sort_unstable();
            let from_bits: Vec<usize> = (0..n).filter(|&i| spread[i / 64] & 1 << (i % 64) != 0).collect();
            assert_eq!(from_bits, reached, "from space {start}, {steps} steps");
            diagonal_only_between_octagons |= b.next[start].iter().filter(|&&m| m != NO_SPACE).count() == 4;
        }
        assert!(diagonal_only_between_octagons, "the board has squares");
    }
}
