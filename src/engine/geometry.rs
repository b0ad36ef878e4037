//! Board geometry for the four games: an area graph (Battle of the Nations), a hex grid with
//! hexside features (Leipzig 1813), squares and octagons with facing (Austerlitz), and regions
//! with holding areas (Victory & Glory). Path and adjacency queries are index work on these.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Index of a space on a board (a field, a hex, a square, a region).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SpaceId(pub u16);

/// A graph of named areas, each adjacent to a list of others (Battle of the Nations' 47 fields).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AreaGraph {
    /// `neighbours[i]` lists the spaces adjacent to space `i`, sorted.
    neighbours: Vec<Vec<SpaceId>>,
}

impl AreaGraph {
    /// Builds the graph from undirected edges; each edge is stored both ways.
    pub fn from_edges(count: usize, edges: &[(SpaceId, SpaceId)]) -> Self {
        let mut neighbours = vec![Vec::new(); count];
        for &(a, b) in edges {
            neighbours[a.0 as usize].push(b);
            neighbours[b.0 as usize].push(a);
        }
        for list in &mut neighbours {
            list.sort();
            list.dedup();
        }
        Self { neighbours }
    }

    pub fn len(&self) -> usize {
        self.neighbours.len()
    }

    pub fn is_empty(&self) -> bool {
        self.neighbours.is_empty()
    }

    pub fn neighbours(&self, space: SpaceId) -> &[SpaceId] {
        &self.neighbours[space.0 as usize]
    }

    pub fn adjacent(&self, a: SpaceId, b: SpaceId) -> bool {
        self.neighbours(a).binary_search(&b).is_ok()
    }

    /// Spaces reachable from `from` (breadth first), to check that a board is connected.
    pub fn reachable(&self, from: SpaceId) -> Vec<bool> {
        let mut seen = vec![false; self.len()];
        let mut queue = std::collections::VecDeque::from([from]);
        seen[from.0 as usize] = true;
        while let Some(s) = queue.pop_front() {
            for &n in self.neighbours(s) {
                if !seen[n.0 as usize] {
                    seen[n.0 as usize] = true;
                    queue.push_back(n);
                }
            }
        }
        seen
    }
}

/// What lies along a hexside (Leipzig 1813's rivers, bridges and so on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HexsideFeature {
    River,
    MajorRiver,
    Bridge,
    MountainPass,
}

/// Two hexes' axial coordinates, the smaller first: the key of the side between them.
type HexsideKey = ((i32, i32), (i32, i32));

/// A hex grid in axial coordinates (hexx), with features on the sides between hexes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "HexGridData", into = "HexGridData")]
pub struct HexGrid {
    /// The hexes on the map, by axial coordinate; a hex's index is its `SpaceId`.
    pub hexes: Vec<hexx::Hex>,
    /// Each hex's index in `hexes`, so that "is it on the map" is one look-up, not a search.
    index: std::collections::HashMap<hexx::Hex, u16>,
    /// Features keyed by the two hexes they separate, the smaller coordinate first.
    hexsides: BTreeMap<HexsideKey, HexsideFeature>,
}

/// A hex grid as saved: the index is rebuilt on load.
#[derive(Clone, Serialize, Deserialize)]
struct HexGridData {
    hexes: Vec<hexx::Hex>,
    hexsides: BTreeMap<HexsideKey, HexsideFeature>,
}

impl From<HexGridData> for HexGrid {
    fn from(d: HexGridData) -> Self {
        let mut g = HexGrid::new(d.hexes);
        g.hexsides = d.hexsides;
        g
    }
}

impl From<HexGrid> for HexGridData {
    fn from(g: HexGrid) -> Self {
        HexGridData { hexes: g.hexes, hexsides: g.hexsides }
    }
}

impl HexGrid {
    pub fn new(hexes: Vec<hexx::Hex>) -> Self {
        let index = hexes.iter().enumerate().map(|(i, &h)| (h, i as u16)).collect();
        Self { hexes, index, hexsides: BTreeMap::new() }
    }

    /// The space id of a hex on the map.
    pub fn space_of(&self, h: hexx::Hex) -> Option<SpaceId> {
        self.index.get(&h).map(|&i| SpaceId(i))
    }

    fn key(a: hexx::Hex, b: hexx::Hex) -> HexsideKey {
        let (a, b) = ((a.x, a.y), (b.x, b.y));
        if a <= b { (a, b) } else { (b, a) }
    }

    pub fn set_hexside(&mut self, a: hexx::Hex, b: hexx::Hex, feature: HexsideFeature) {
        self.hexsides.insert(Self::key(a, b), feature);
    }

    pub fn hexside(&self, a: hexx::Hex, b: hexx::Hex) -> Option<HexsideFeature> {
        self.hexsides.get(&Self::key(a, b)).copied()
    }

    pub fn contains(&self, h: hexx::Hex) -> bool {
        self.index.contains_key(&h)
    }

    /// The neighbours of a hex that are on the map.
    pub fn neighbours(&self, h: hexx::Hex) -> Vec<hexx::Hex> {
        h.all_neighbors().into_iter().filter(|n| self.contains(*n)).collect()
    }

    pub fn distance(a: hexx::Hex, b: hexx::Hex) -> i32 {
        a.unsigned_distance_to(b) as i32
    }
}

/// The shape of a cell in Austerlitz's grid: squares touch 4 neighbours, octagons 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CellShape {
    Square,
    Octagon,
}

/// A facing: the eight compass directions; squares use only the four orthogonal ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Facing {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Facing {
    pub const ALL: [Facing; 8] =
        [Facing::N, Facing::NE, Facing::E, Facing::SE, Facing::S, Facing::SW, Facing::W, Facing::NW];

    pub fn offset(self) -> (i32, i32) {
        match self {
            Facing::N => (0, 1),
            Facing::NE => (1, 1),
            Facing::E => (1, 0),
            Facing::SE => (1, -1),
            Facing::S => (0, -1),
            Facing::SW => (-1, -1),
            Facing::W => (-1, 0),
            Facing::NW => (-1, 1),
        }
    }

    /// Its place in `ALL` (clockwise from north).
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn is_diagonal(self) -> bool {
        matches!(self, Facing::NE | Facing::SE | Facing::SW | Facing::NW)
    }
}

/// A grid of squares and octagons (the truncated-square tiling): octagons sit where
/// `(x + y)` is even and touch all eight neighbours; squares touch only the four orthogonal ones,
/// so a diagonal step exists only between two octagons.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SquareOctGrid {
    pub width: i32,
    pub height: i32,
}

impl SquareOctGrid {
    pub fn shape(&self, (x, y): (i32, i32)) -> CellShape {
        if (x + y).rem_euclid(2) == 0 { CellShape::Octagon } else { CellShape::Square }
    }

    pub fn contains(&self, (x, y): (i32, i32)) -> bool {
        (0..self.width).contains(&x) && (0..self.height).contains(&y)
    }

    /// The cell in direction `facing`, if that side exists and is on the board.
    pub fn step(&self, cell: (i32, i32), facing: Facing) -> Option<(i32, i32)> {
        if facing.is_diagonal() && self.shape(cell) == CellShape::Square {
            return None;
        }
        let (dx, dy) = facing.offset();
        let next = (cell.0 + dx, cell.1 + dy);
        self.contains(next).then_some(next)
    }

    pub fn neighbours(&self, cell: (i32, i32)) -> Vec<(Facing, (i32, i32))> {
        Facing::ALL.iter().filter_map(|&f| self.step(cell, f).map(|n| (f, n))).collect()
    }

    /// The fewest steps from space to bordering space between `a` and `b`, terrain and units
    /// aside: the king's distance, but a diagonal step leaves and reaches only octagons, so two
    /// squares on one diagonal are a step further apart (each side's first or last step is
    /// orthogonal; between two squares on a diagonal that costs one step more).
    pub fn steps(&self, a: (i32, i32), b: (i32, i32)) -> i32 {
        let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
        let squares = self.shape(a) == CellShape::Square && self.shape(b) == CellShape::Square;
        dx.max(dy) + i32::from(squares && dx == dy && dx > 0)
    }
}

/// Victory & Glory's map: regions (nations) and the holding areas of major nations.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RegionMap {
    pub regions: Vec<String>,
    /// `holding_areas[i]` is the holding area of region `i`, if it has one.
    pub holding_areas: Vec<Option<String>>,
}

impl RegionMap {
    pub fn region(&self, name: &str) -> Option<SpaceId> {
        self.regions.iter().position(|r| r == name).map(|i| SpaceId(i as u16))
    }

    pub fn holding_area(&self, region: SpaceId) -> Option<&str> {
        self.holding_areas.get(region.0 as usize).and_then(|h| h.as_deref())
    }
}

/// Any of the four geometries; a scenario names one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Geometry {
    Areas(AreaGraph),
    Hexes(HexGrid),
    SquaresOctagons(SquareOctGrid),
    Regions(RegionMap),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_graph_is_symmetric() {
        let g = AreaGraph::from_edges(3, &[(SpaceId(0), SpaceId(1)), (SpaceId(1), SpaceId(2))]);
        assert!(g.adjacent(SpaceId(0), SpaceId(1)));
        assert!(g.adjacent(SpaceId(1), SpaceId(0)));
        assert!(!g.adjacent(SpaceId(0), SpaceId(2)));
        assert_eq!(g.reachable(SpaceId(0)), vec![true, true, true]);
    }

    #[test]
    fn hexsides_are_shared_by_both_hexes() {
        let a = hexx::Hex::new(0, 0);
        let b = hexx::Hex::new(1, 0);
        let mut grid = HexGrid::new(vec![a, b, hexx::Hex::new(0, 1)]);
        grid.set_hexside(b, a, HexsideFeature::Bridge);
        assert_eq!(grid.hexside(a, b), Some(HexsideFeature::Bridge));
        assert_eq!(grid.neighbours(a).len(), 2);
        assert_eq!(HexGrid::distance(a, hexx::Hex::new(3, -1)), 3);
    }

    #[test]
    fn a_hex_grid_finds_its_hexes_by_index_also_after_a_round_trip() {
        let hexes: Vec<_> = (0..40).flat_map(|q| (0..30).map(move |r| hexx::Hex::new(q, r))).collect();
        let mut grid = HexGrid::new(hexes);
        grid.set_hexside(hexx::Hex::new(0, 0), hexx::Hex::new(1, 0), HexsideFeature::Bridge);
        let back: HexGrid = ron::from_str(&ron::to_string(&grid).unwrap()).unwrap();
        assert_eq!(back, grid);
        assert_eq!(back.space_of(hexx::Hex::new(2, 5)), Some(SpaceId(2 * 30 + 5)));
        assert!(!back.contains(hexx::Hex::new(-1, 0)));
        assert_eq!(back.hexside(hexx::Hex::new(1, 0), hexx::Hex::new(0, 0)), Some(HexsideFeature::Bridge));
    }

    #[test]
    fn squares_have_no_diagonal_sides() {
        let grid = SquareOctGrid { width: 4, height: 4 };
        assert_eq!(grid.shape((1, 1)), CellShape::Octagon);
        assert_eq!(grid.shape((1, 2)), CellShape::Square);
        assert_eq!(grid.neighbours((1, 1)).len(), 8);
        assert_eq!(grid.neighbours((1, 2)).len(), 4);
        assert_eq!(grid.step((1, 2), Facing::NE), None);
        assert_eq!(grid.step((1, 1), Facing::NE), Some((2, 2)));
        assert!(Facing::ALL.iter().enumerate().all(|(i, f)| f.index() == i));
    }

    #[test]
    fn regions_know_their_holding_areas() {
        let map = RegionMap {
            regions: vec!["Austria".into(), "Denmark".into()],
            holding_areas: vec![Some("Austrian holding area".into()), None],
        };
        let austria = map.region("Austria").unwrap();
        assert_eq!(map.holding_area(austria), Some("Austrian holding area"));
        assert_eq!(map.holding_area(map.region("Denmark").unwrap()), None);
    }
}
