//! Zones of Control, Supply and Stacking: who controls a hex (cavalry totally, infantry
//! partially; never across an unbridged river, never into or out of a fortress), which units are in
//! supply (stacked with or adjacent to a supply unit; in a fortress), and which stacks are legal at
//! the end of a Movement Phase.

use crate::engine::seats::Viewer;
use crate::games::leipzig::data::{Hex, Hexside, Kind, LzScenario, Side};
use crate::games::leipzig::state::{Leipzig, What};
use smallvec::SmallVec;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// The control a side exerts on a hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Zoc {
    None,
    /// Infantry: infantry and non-combat units stop; cavalry may go on, at 2 MP to leave.
    Partial,
    /// Cavalry: every unit stops.
    Total,
}

/// How many maps a thread keeps: the viewers of one decision (the deciding side, the table as it
/// is) and those of the decision before.
const KEPT_MAPS: usize = 4;

/// How many counters may differ from a kept map's for the new map to be made from it (the
/// hexes they left and entered, and their neighbours, worked out again) rather than built whole:
/// an action moves one counter, a combat a few.
const DERIVE_UP_TO: usize = 8;

/// Everything a map is built from: the scenario (its board and counter types, held so that
/// its address is not reused), whether the armistice holds, and for each counter where it
/// stands, its side, what it is and whether the viewer may examine it (`OFF_MAP` off the map;
/// read back by `Counter::of`).
struct Footing {
    sc: Arc<LzScenario>,
    armistice: bool,
    units: Vec<u32>,
}

/// A counter that is not on the map, in a footing.
const OFF_MAP: u32 = u32::MAX;

impl PartialEq for Footing {
    fn eq(&self, other: &Footing) -> bool {
        Arc::ptr_eq(&self.sc, &other.sc) && self.armistice == other.armistice && self.units == other.units
    }
}

/// A counter on the map as a footing codes it: its hex, side, whether the viewer may examine it
/// and what it is.
#[derive(Clone, Copy)]
struct Counter {
    hex: usize,
    side: Side,
    seen: bool,
    /// Its type's number, when it has one (not a leader, not a blank).
    ty: Option<usize>,
}

impl Counter {
    /// Its type, when it is a combat unit (infantry or cavalry).
    fn combat<'a>(&self, sc: &'a LzScenario) -> Option<&'a crate::games::leipzig::data::UnitType> {
        self.ty.map(|t| &sc.types[t]).filter(|t| matches!(t.kind, Kind::Infantry | Kind::Cavalry))
    }

    /// Whether it is a supply or depot unit.
    fn supplies(&self, sc: &LzScenario) -> bool {
        self.ty.is_some_and(|t| matches!(sc.types[t].kind, Kind::Supply | Kind::Depot))
    }

    /// The zone it exerts, if it is a combat unit outside a fortress (seen or not).
    fn zone(&self, sc: &LzScenario) -> Option<Zoc> {
        let t = self.combat(sc).filter(|_| !sc.board.is_fortress(Hex(self.hex as u16)))?;
        Some(if t.kind == Kind::Cavalry { Zoc::Total } else { Zoc::Partial })
    }

    /// Whether it exerts a zone its viewer may not know of.
    fn left_out(&self, sc: &LzScenario) -> bool {
        !self.seen && self.zone(sc).is_some()
    }

    fn of(code: u32) -> Option<Counter> {
        (code != OFF_MAP).then(|| Counter {
            hex: (code >> 16) as usize,
            side: if (code >> 12) & 0xF == 0 { Side::French } else { Side::Allied },
            seen: code & 1 << 11 != 0,
            ty: (code & 0x700 == 0).then_some((code & 0xFF) as usize),
        })
    }
}

impl Footing {
    fn of(g: &Leipzig, viewer: Option<Viewer>, mut units: Vec<u32>) -> Footing {
        units.clear();
        // `seen_by` for every counter, what it asks of the table read once.
        let all_seen = viewer.is_none_or(|v| g.seen_by_all(v));
        units.extend(g.units.iter().map(|u| match (u.hex, u.on_map()) {
            (Some(h), true) => {
                let what = match u.what {
                    What::Type(t) => u32::from(t),
                    What::Leader(l) => 0x100 | u32::from(l),
                    What::Blank => 0x200,
                };
                let seen = all_seen || g.seen_alone(u);
                u32::from(h.0) << 16 | (u.side.index() as u32) << 12 | u32::from(seen) << 11 | what
            }
            _ => OFF_MAP,
        }));
        Footing { sc: g.sc.clone(), armistice: g.armistice_on(), units }
    }

    /// How many counters stand otherwise than in `other`, counted up to `DERIVE_UP_TO + 1`
    /// (`None` when the scenario or the armistice differ: the map is built whole).
    fn differences(&self, other: &Footing) -> Option<usize> {
        if !Arc::ptr_eq(&self.sc, &other.sc) || self.armistice != other.armistice {
            return None;
        }
        Some(changed(&other.units, &self.units).take(DERIVE_UP_TO + 1).count())
    }
}

/// The codes of the counters that stand otherwise in `after` than in `before`, as (before,
/// after); a counter one list lacks is off the map there.
fn changed<'a>(before: &'a [u32], after: &'a [u32]) -> impl Iterator<Item = (u32, u32)> + 'a {
    let n = before.len().min(after.len());
    let (both, gone, came) = (before[..n].iter().zip(&after[..n]), &before[n..], &after[n..]);
    both.map(|(&a, &b)| (a, b))
        .chain(gone.iter().map(|&a| (a, OFF_MAP)))
        .chain(came.iter().map(|&b| (OFF_MAP, b)))
        .filter(|(a, b)| a != b)
}

/// `hexes` and their neighbours on the board (a hex may come more than once: marking it twice
/// does no harm, and sorting the outer ring cost more than the repeats).
fn and_neighbours(b: &crate::games::leipzig::data::Board, hexes: &[usize]) -> SmallVec<[usize; 256]> {
    let mut out: SmallVec<[usize; 256]> = SmallVec::new();
    for &h in hexes {
        out.push(h);
        out.extend(b.neighbours[h].iter().flatten().map(|nb| nb.0 as usize));
    }
    out
}

/// The maps a thread keeps, the latest first, a spare list for the next footing, a spare map for
/// the next one made, and a mark for each hex of the map (cleared after each use).
#[derive(Default)]
struct Kept {
    maps: Vec<(Footing, Rc<Situation>)>,
    spare: Vec<u32>,
    spare_map: Option<Situation>,
    marks: Vec<u8>,
}

thread_local! {
    static SITUATIONS: RefCell<Kept> = RefCell::new(Kept::default());
}

/// What lies on each hex, computed once for a legal list or a check: occupants and control.
#[derive(Clone, Debug, PartialEq)]
pub struct Situation {
    /// The side whose units are on the hex.
    pub side: Vec<Option<Side>>,
    /// Combat units and their divisions on the hex.
    pub combat: Vec<u8>,
    pub divisions: Vec<u16>,
    pub cavalry: Vec<bool>,
    /// Control exerted by [French, Allied].
    pub zoc: [Vec<Zoc>; 2],
    /// A supply or depot unit of [French, Allied] is on the hex or next to it.
    pub supplied: [Vec<bool>; 2],
    /// Some counter's zone was left out: its viewer may not examine it.
    pub blind: bool,
    /// How many counters' zones were left out (`blind` while any), so that a map made from
    /// another counts only the counters that changed.
    unseen: u32,
}

/// The marks `Situation::derive` puts on a hex.
const EMPTIED: u8 = 1;
const NEAR: u8 = 2;
const WITHIN_TWO: u8 = 4;

impl Situation {
    /// The table as it is: every counter's zone.
    pub fn of(g: &Leipzig) -> Rc<Situation> {
        Situation::shared(g, None)
    }

    /// The table as `side` may know it: only the counters its seat may examine exert a zone
    /// (Reconnaissance). A French player does not know whether a blank is cavalry, infantry or a
    /// supply wagon, so he chooses his moves and retreats on the zones he sees, and the hidden
    /// zones act as the choice is carried out (the Allied player says "stop"). For the Allies,
    /// who see everything, this is the table as it is.
    pub fn as_seen_by(g: &Leipzig, side: Side) -> Rc<Situation> {
        Situation::shared(g, Some(Viewer::Seat(super::seat_of(side))))
    }

    /// The zones `viewer` may know of (a spectator knows what the French know).
    pub fn seen_from(g: &Leipzig, viewer: Viewer) -> Rc<Situation> {
        Situation::shared(g, Some(viewer))
    }

    /// The map for `viewer`, built once for the counters as they stand: a decision asks for it
    /// several times (the random player's draw, the check, the move's walk), and it changes only
    /// when a counter does. The last few maps of this thread are kept with what they were built
    /// from (`Footing`), compared in full before one is reused. A map that is not kept is made
    /// from the kept one that differs by the fewest counters, when they are few (an action
    /// moves one): only the hexes they left and entered and their neighbours are worked out again.
    fn shared(g: &Leipzig, viewer: Option<Viewer>) -> Rc<Situation> {
        SITUATIONS.with_borrow_mut(|kept| {
            let footing = Footing::of(g, viewer, std::mem::take(&mut kept.spare));
            if let Some(i) = kept.maps.iter().position(|(f, _)| *f == footing) {
                kept.spare = footing.units;
                let hit = kept.maps.remove(i);
                let map = hit.1.clone();
                kept.maps.insert(0, hit);
                return map;
            }
            let nearest = kept
                .maps
                .iter()
                .enumerate()
                .filter_map(|(i, (f, _))| footing.differences(f).filter(|&n| n <= DERIVE_UP_TO).map(|n| (n, i)))
                .min_by_key(|&(n, _)| n);
            let map = match nearest {
                // A kept map nothing else holds is made the new one in place (the table has
                // moved on from it: an action changed a counter), its footing given up.
                Some((_, i)) if Rc::strong_count(&kept.maps[i].1) == 1 => {
                    let (from, base) = kept.maps.remove(i);
                    let mut map = Rc::try_unwrap(base).unwrap_or_else(|shared| (*shared).clone());
                    map.derive(&g.sc, footing.armistice, &from.units, &footing.units, &mut kept.marks);
                    kept.spare = from.units;
                    map
                }
                Some((_, i)) => {
                    let (from, base) = &kept.maps[i];
                    let mut map = match kept.spare_map.take() {
                        Some(mut spare) => {
                            spare.copy_from(base);
                            spare
                        }
                        None => (**base).clone(),
                    };
                    map.derive(&g.sc, footing.armistice, &from.units, &footing.units, &mut kept.marks);
                    map
                }
                None => Situation::build(&g.sc, footing.armistice, &footing.units),
            };
            let map = Rc::new(map);
            kept.maps.insert(0, (footing, map.clone()));
            if kept.maps.len() > KEPT_MAPS
                && let Some((f, m)) = kept.maps.pop()
            {
                kept.spare = f.units;
                // Its vectors serve the next map made, when nothing else holds it.
                kept.spare_map = Rc::try_unwrap(m).ok();
            }
            map
        })
    }

    /// Whether `map` is one this thread keeps (and so will not be freed while it is kept): the
    /// movement search keeps its results with the map they were found on.
    pub(super) fn kept(map: &Situation) -> Option<Rc<Situation>> {
        SITUATIONS.with_borrow(|kept| kept.maps.iter().find(|(_, m)| std::ptr::eq(&**m, map)).map(|(_, m)| m.clone()))
    }

    /// The map for `viewer` built whole from the counters, never kept nor made from another:
    /// what every map `shared` gives must equal (the tests compare them).
    pub fn built(g: &Leipzig, viewer: Option<Viewer>) -> Situation {
        let footing = Footing::of(g, viewer, Vec::new());
        Situation::build(&g.sc, footing.armistice, &footing.units)
    }

    /// The map of the counters of a footing (`units`, see `Footing::of`) on the scenario's board.
    fn build(sc: &LzScenario, armistice: bool, units: &[u32]) -> Situation {
        let n = sc.board.len();
        let mut s = Situation {
            side: vec![None; n],
            combat: vec![0; n],
            divisions: vec![0; n],
            cavalry: vec![false; n],
            zoc: [vec![Zoc::None; n], vec![Zoc::None; n]],
            supplied: [vec![false; n], vec![false; n]],
            blind: false,
            unseen: 0,
        };
        for c in units.iter().filter_map(|&code| Counter::of(code)) {
            s.occupy(sc, c);
            if c.supplies(sc) {
                s.supplied[c.side.index()][c.hex] = true;
                for nb in sc.board.neighbours[c.hex].iter().flatten() {
                    s.supplied[c.side.index()][nb.0 as usize] = true;
                }
            }
        }
        if !armistice {
            for c in units.iter().filter_map(|&code| Counter::of(code)) {
                s.exert(sc, c, |_| true);
            }
        }
        s
    }

    /// This map made a copy of `other`, in the vectors it has.
    fn copy_from(&mut self, other: &Situation) {
        self.side.clone_from(&other.side);
        self.combat.clone_from(&other.combat);
        self.divisions.clone_from(&other.divisions);
        self.cavalry.clone_from(&other.cavalry);
        self.zoc.clone_from(&other.zoc);
        self.supplied.clone_from(&other.supplied);
        self.blind = other.blind;
        self.unseen = other.unseen;
    }

    /// This map (a copy of the map of `before`) made the map of `after`: the hexes a counter
    /// left or entered are filled again, and the supply and the zones of their neighbours worked
    /// out again from the counters within two hexes. The result is the map `build` makes of
    /// `after` (tested on every decision of random games).
    fn derive(&mut self, sc: &LzScenario, armistice: bool, before: &[u32], after: &[u32], marks: &mut Vec<u8>) {
        let b = &sc.board;
        marks.resize(b.len(), 0);
        let mut emptied: SmallVec<[usize; 16]> = SmallVec::new();
        for (was, is) in changed(before, after) {
            // The zones left out counted again for the counters that changed (the map copied
            // has the same armistice: while it holds, none is left out, as `build` counts).
            if !armistice {
                self.unseen -= Counter::of(was).is_some_and(|c| c.left_out(sc)) as u32;
                self.unseen += Counter::of(is).is_some_and(|c| c.left_out(sc)) as u32;
            }
            emptied.extend([was, is].into_iter().filter_map(Counter::of).map(|c| c.hex));
        }
        self.blind = self.unseen > 0;
        emptied.sort_unstable();
        emptied.dedup();
        // The hexes whose occupants changed, those next to them (their supply and zones), and
        // those next to these (the counters whose zone or supply reaches them).
        let mut near = and_neighbours(b, &emptied);
        near.sort_unstable();
        near.dedup();
        let within_two = and_neighbours(b, &near);
        for (list, mark) in [(&within_two[..], WITHIN_TWO), (&near[..], NEAR), (&emptied[..], EMPTIED)] {
            for &h in list {
                marks[h] |= mark;
            }
        }
        for &h in &emptied {
            self.side[h] = None;
            self.combat[h] = 0;
            self.divisions[h] = 0;
            self.cavalry[h] = false;
        }
        for &h in &near {
            for side in 0..2 {
                self.zoc[side][h] = Zoc::None;
                self.supplied[side][h] = false;
            }
        }
        for &code in after {
            // Only the counters within two hexes of a change: a quick test of the hex first.
            if code == OFF_MAP || marks[(code >> 16) as usize] == 0 {
                continue;
            }
            let Some(c) = Counter::of(code) else { continue };
            let mark = marks[c.hex];
            if mark & EMPTIED != 0 {
                self.occupy(sc, c);
            }
            if c.supplies(sc) {
                let side = c.side.index();
                if mark & NEAR != 0 {
                    self.supplied[side][c.hex] = true;
                }
                for nb in b.neighbours[c.hex].iter().flatten() {
                    if marks[nb.0 as usize] & NEAR != 0 {
                        self.supplied[side][nb.0 as usize] = true;
                    }
                }
            }
            if !armistice && c.seen {
                let m = &*marks;
                self.exert(sc, c, |nb| m[nb] & NEAR != 0);
            }
        }
        for &h in &within_two {
            marks[h] = 0;
        }
    }

    /// Counter `c` counted on its hex: its side, and a combat unit's number, divisions and arm.
    fn occupy(&mut self, sc: &LzScenario, c: Counter) {
        self.side[c.hex] = Some(c.side);
        if let Some(t) = c.combat(sc) {
            self.combat[c.hex] += 1;
            self.divisions[c.hex] += u16::from(t.divisions);
            if t.kind == Kind::Cavalry {
                self.cavalry[c.hex] = true;
            }
        }
    }

    /// Counter `c`'s zone put on the neighbours `onto` accepts (none out of or into a fortress,
    /// none across an unbridged river); a counter its viewer may not examine is counted as left
    /// out instead (the map is blind).
    fn exert(&mut self, sc: &LzScenario, c: Counter, onto: impl Fn(usize) -> bool) {
        let b = &sc.board;
        let Some(z) = c.zone(sc) else { return };
        if !c.seen {
            self.unseen += 1;
            self.blind = true;
            return;
        }
        for (d, nb) in b.neighbours(Hex(c.hex as u16)) {
            if b.is_fortress(nb) || b.sides[c.hex][d] == Hexside::River || !onto(nb.0 as usize) {
                continue;
            }
            let cell = &mut self.zoc[c.side.index()][nb.0 as usize];
            *cell = (*cell).max(z);
        }
    }

    /// The control the enemies of `side` exert on `h`.
    pub fn enemy_zoc(&self, side: Side, h: Hex) -> Zoc {
        self.zoc[side.other().index()][h.0 as usize]
    }

    pub fn enemy_on(&self, side: Side, h: Hex) -> bool {
        self.side[h.0 as usize] == Some(side.other())
    }

    /// Whether a stack of `side` on `h` with `combat` combat units and `divisions` divisions may
    /// end a Movement Phase there (Stacking, case B; Fortress, case B).
    pub fn stack_ok(&self, g: &Leipzig, side: Side, h: Hex, combat: u8, divisions: u16) -> bool {
        combat <= 1
            || (g.sc.board.is_fortress(h) && divisions <= g.sc.charts.terrain.fortress_capacity as u16)
            || self.supplied[side.index()][h.0 as usize]
    }
}
