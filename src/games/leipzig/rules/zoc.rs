//! Zones of Control, Supply and Stacking: who controls a hex (cavalry totally, infantry
//! partially; never across an unbridged river, never into or out of a fortress), which units are in
//! supply (stacked with or adjacent to a supply unit; in a fortress), and which stacks are legal at
//! the end of a Movement Phase.

use crate::engine::seats::Viewer;
use crate::games::leipzig::data::{Hex, Hexside, Kind, LzScenario, Side};
use crate::games::leipzig::state::{Leipzig, UnitId, What};
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

/// Everything a map is built from: the scenario (its board and counter types, held so that
/// its address is not reused), whether the armistice holds, and for each counter where it
/// stands, its side, what it is and whether the viewer may examine it (`u32::MAX` off the map).
struct Footing {
    sc: Arc<LzScenario>,
    armistice: bool,
    units: Vec<u32>,
}

impl PartialEq for Footing {
    fn eq(&self, other: &Footing) -> bool {
        Arc::ptr_eq(&self.sc, &other.sc) && self.armistice == other.armistice && self.units == other.units
    }
}

impl Footing {
    fn of(g: &Leipzig, viewer: Option<Viewer>, mut units: Vec<u32>) -> Footing {
        units.clear();
        units.extend(g.units.iter().enumerate().map(|(i, u)| match (u.hex, u.on_map()) {
            (Some(h), true) => {
                let what = match u.what {
                    What::Type(t) => u32::from(t),
                    What::Leader(l) => 0x100 | u32::from(l),
                    What::Blank => 0x200,
                };
                let seen = viewer.is_none_or(|v| g.seen_by(i, v));
                u32::from(h.0) << 16 | (u.side.index() as u32) << 12 | u32::from(seen) << 11 | what
            }
            _ => u32::MAX,
        }));
        Footing { sc: g.sc.clone(), armistice: g.armistice_on(), units }
    }
}

/// The maps a thread keeps, the latest first, and a spare list for the next footing.
#[derive(Default)]
struct Kept {
    maps: Vec<(Footing, Rc<Situation>)>,
    spare: Vec<u32>,
}

thread_local! {
    static SITUATIONS: RefCell<Kept> = RefCell::new(Kept::default());
}

/// What lies on each hex, computed once for a legal list or a check: occupants and control.
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
}

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
    /// from (`Footing`), compared in full before one is reused.
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
            let map = Rc::new(Situation::build(g, viewer));
            kept.maps.insert(0, (footing, map.clone()));
            if kept.maps.len() > KEPT_MAPS {
                kept.spare = kept.maps.pop().map(|(f, _)| f.units).unwrap_or_default();
            }
            map
        })
    }

    /// Whether `map` is one this thread keeps (and so will not be freed while it is kept): the
    /// movement search keeps its results with the map they were found on.
    pub(super) fn kept(map: &Situation) -> Option<Rc<Situation>> {
        SITUATIONS.with_borrow(|kept| kept.maps.iter().find(|(_, m)| std::ptr::eq(&**m, map)).map(|(_, m)| m.clone()))
    }

    fn build(g: &Leipzig, viewer: Option<Viewer>) -> Situation {
        let n = g.sc.board.len();
        let mut s = Situation {
            side: vec![None; n],
            combat: vec![0; n],
            divisions: vec![0; n],
            cavalry: vec![false; n],
            zoc: [vec![Zoc::None; n], vec![Zoc::None; n]],
            supplied: [vec![false; n], vec![false; n]],
            blind: false,
        };
        let b = &g.sc.board;
        for (i, u) in g.units.iter().enumerate() {
            let (Some(h), true) = (u.hex, u.on_map()) else { continue };
            let id = i as UnitId;
            let hi = h.0 as usize;
            s.side[hi] = Some(u.side);
            if g.is_combat(id) {
                s.combat[hi] += 1;
                s.divisions[hi] += g.divisions(id);
                if g.is_cavalry(id) {
                    s.cavalry[hi] = true;
                }
            }
            if g.is_supply(id) {
                s.supplied[u.side.index()][hi] = true;
                for (_, nb) in b.neighbours(h) {
                    s.supplied[u.side.index()][nb.0 as usize] = true;
                }
            }
        }
        // Zones of Control: none while the armistice holds; never out of or into a fortress.
        if !g.armistice_on() {
            for (i, u) in g.units.iter().enumerate() {
                let id = i as UnitId;
                let (Some(h), true) = (u.hex, u.on_map()) else { continue };
                if !g.is_combat(id) || b.is_fortress(h) {
                    continue;
                }
                if viewer.is_some_and(|v| !g.seen_by(i, v)) {
                    s.blind = true;
                    continue;
                }
                let z = if g.is_cavalry(id) { Zoc::Total } else { Zoc::Partial };
                for (d, nb) in b.neighbours(h) {
                    if b.is_fortress(nb) || b.sides[h.0 as usize][d] == Hexside::River {
                        continue;
                    }
                    let cell = &mut s.zoc[u.side.index()][nb.0 as usize];
                    *cell = (*cell).max(z);
                }
            }
        }
        s
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

/// The supply units of `side` stacked with or adjacent to `h`, in id order.
pub fn supply_near(g: &Leipzig, side: Side, h: Hex) -> Vec<UnitId> {
    let b = &g.sc.board;
    g.on_map(side)
        .filter(|&u| g.is_supply(u))
        .filter(|&u| g.units[u as usize].hex.is_some_and(|s| s == h || b.adjacent(s, h)))
        .collect()
}

/// Hexes of `side` holding a stack that needs a supply unit to stay stacked.
pub fn stacks_needing_supply(g: &Leipzig, s: &Situation, side: Side) -> Vec<Hex> {
    let b = &g.sc.board;
    (0..b.len() as u16)
        .map(Hex)
        .filter(|&h| s.side[h.0 as usize] == Some(side) && s.combat[h.0 as usize] > 1)
        .filter(|&h| !(b.is_fortress(h) && s.divisions[h.0 as usize] <= g.sc.charts.terrain.fortress_capacity as u16))
        .collect()
}

/// The stacks that only supply unit `u` supports (it may not leave them unsupported).
pub fn only_support(g: &Leipzig, s: &Situation, u: UnitId) -> Vec<Hex> {
    let side = g.units[u as usize].side;
    let Some(at) = g.hex_of(u) else { return Vec::new() };
    let b = &g.sc.board;
    stacks_needing_supply(g, s, side)
        .into_iter()
        .filter(|&h| h == at || b.adjacent(h, at))
        .filter(|&h| supply_near(g, side, h).iter().all(|&x| x == u))
        .collect()
}

/// Whether a hex is a fortress whose garrison the Enemy besieges: every adjacent hex is held by
/// the Enemy or is in his undisputed control (Fortress and Siege, case F). Returns the besieger.
pub fn besieger(g: &Leipzig, s: &Situation, h: Hex) -> Option<Side> {
    let b = &g.sc.board;
    if !b.is_fortress(h) {
        return None;
    }
    let inside = s.side[h.0 as usize]?;
    let enemy = inside.other();
    b.neighbours(h)
        .all(|(_, n)| {
            let i = n.0 as usize;
            s.side[i] == Some(enemy)
                || (s.side[i].is_none()
                    && s.zoc[enemy.index()][i] != Zoc::None
                    && s.zoc[inside.index()][i] == Zoc::None)
        })
        .then_some(enemy)
}

/// The kind of supply a unit is (for choosing which one a stack uses up).
pub fn supply_rank(g: &Leipzig, u: UnitId) -> u8 {
    match g.kind(u) {
        Some(Kind::Supply) => 0,
        _ => 1,
    }
}
