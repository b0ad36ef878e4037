//! Austerlitz's data, read from RON: the board of squares and octagons (terrain, heights and
//! ridges, the Goldbach and its bridges, the road, the sectors, the red border, Davout's arrow),
//! the order of battle and the tables. Every name and space is checked on load, so a bad file is
//! refused with its file, line and field.

use crate::engine::geometry::{CellShape, Facing, SquareOctGrid};
use crate::engine::scenario::{DataError, Provenance, check_range, expect_game, load_ron, part_file};
use serde::{Deserialize, Serialize};
use std::path::Path;

pub const GAME_ID: &str = "austerlitz";

/// The most columns or rows of the board (space indices are 16-bit, and a bigger board is no
/// longer a battlefield of one day).
pub const MAX_SIDE: i32 = 80;
/// The most units or commands (ids are 8-bit).
pub const MAX_PIECES: usize = 250;

/// A space of the board: column (west to east) and row (south to north).
pub type Cell = (i32, i32);

/// The two sides; seat 0 is the French, seat 1 the Allies (who move first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    French,
    Allied,
}

impl Side {
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn other(self) -> Side {
        match self {
            Side::French => Side::Allied,
            Side::Allied => Side::French,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::French => "French",
            Side::Allied => "Allied",
        }
    }
}

/// A unit's nation: the Russians may not attack after changing formation in a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Nation {
    French,
    Russian,
    Austrian,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    Line,
    Light,
    Dragoons,
    LightCav,
    HeavyCav,
    /// Field artillery.
    Field,
    /// Heavy (12-pounder) field artillery: +1 on the Artillery Table.
    Heavy,
    Horse,
}

impl Kind {
    pub fn is_infantry(self) -> bool {
        matches!(self, Kind::Line | Kind::Light)
    }
    pub fn is_cavalry(self) -> bool {
        matches!(self, Kind::Dragoons | Kind::LightCav | Kind::HeavyCav)
    }
    pub fn is_artillery(self) -> bool {
        matches!(self, Kind::Field | Kind::Heavy | Kind::Horse)
    }
    /// Field artillery (normal or 12-pounder): fires or moves, not both.
    pub fn is_field_artillery(self) -> bool {
        matches!(self, Kind::Field | Kind::Heavy)
    }
    pub fn name(self) -> &'static str {
        match self {
            Kind::Line => "line infantry",
            Kind::Light => "light infantry",
            Kind::Dragoons => "dragoons",
            Kind::LightCav => "light cavalry",
            Kind::HeavyCav => "heavy cavalry",
            Kind::Field => "field artillery",
            Kind::Heavy => "12-pounder artillery",
            Kind::Horse => "horse artillery",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Terrain {
    Clear,
    Town,
    Castle,
    Woods,
    /// A frozen pond: crossed at the risk of the ice, never ended on.
    Pond,
}

/// One space's ground.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Space {
    pub terrain: Terrain,
    pub level: u8,
    pub ridge: bool,
    pub name: Option<String>,
    /// The game sector it lies in (1 to 24), if any.
    pub sector: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeightFile {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
    pub level: u8,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlaceFile {
    pub at: Cell,
    pub terrain: Terrain,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamFile {
    pub name: String,
    pub x: i32,
    pub y0: i32,
    pub y1: i32,
    pub bridges: Vec<i32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SectorFile {
    pub n: u8,
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RedBorder {
    pub french_max_x: i32,
    pub allied_min_x: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arrow {
    pub at: Cell,
    pub facing: Facing,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct BoardFile {
    provenance: Provenance,
    width: i32,
    height: i32,
    heights: Vec<HeightFile>,
    ridges: Vec<Cell>,
    places: Vec<PlaceFile>,
    optional_woods: Vec<Cell>,
    streams: Vec<StreamFile>,
    road: Vec<Cell>,
    sectors: Vec<SectorFile>,
    red_border: RedBorder,
    davout_entry: Arrow,
}

/// What lies on the side between two neighbouring spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Crossing {
    Open,
    Stream,
    Bridge,
}

/// How a unit pays for its steps: which of `Board::step_costs` it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    Infantry,
    Square,
    Cavalry,
    Artillery,
}

/// No neighbour that way (`Board::next`).
pub const NO_SPACE: u16 = u16::MAX;

/// The board, resolved: one `Space` per cell (row by row from the south-west corner).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Board {
    pub provenance: Provenance,
    pub grid: SquareOctGrid,
    pub spaces: Vec<Space>,
    pub streams: Vec<StreamFile>,
    /// The road, space after space.
    pub road: Vec<Cell>,
    /// For each space, the directions (bits in `Facing::ALL` order) in which the road leaves it.
    #[serde(skip)]
    pub road_dirs: Vec<u8>,
    /// For each space, the directions in which a step crosses the stream where no bridge is.
    #[serde(skip)]
    pub stream_dirs: Vec<u8>,
    /// For each space, the index of its neighbour in each direction (`Facing::ALL` order), or
    /// `NO_SPACE`: the movement search asks this thousands of times a unit.
    #[serde(skip)]
    pub next: Vec<[u16; 8]>,
    /// The MF of each step (space × direction, `Facing::ALL` order) for each kind of mover
    /// (`Mover`), 0 where it may not step: terrain, stream and contours read once at load.
    #[serde(skip)]
    pub step_costs: [Vec<u8>; 4],
    /// For each space, whether it is a pond (read by the movement search at every state, from a
    /// table instead of each space's record).
    #[serde(skip)]
    pub pond: Vec<bool>,
    /// The board's spaces as rows of bits (bit `i` of word `i / 64` for space `i`), for the
    /// searches that spread ring by ring: every space, and for each direction the spaces a step
    /// that way may leave.
    #[serde(skip)]
    pub bits: BoardBits,
    /// For each space, the fronts a unit may take there (bits in `Facing::ALL` order): all
    /// eight in an octagon, the four sides of a square.
    #[serde(skip)]
    pub fronts: Vec<u8>,
    pub red_border: RedBorder,
    pub davout_entry: Arrow,
}

/// A set of spaces as rows of bits, by index (a board has a few hundred spaces).
pub type SpaceBits = smallvec::SmallVec<[u64; 8]>;

/// See `Board::bits`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoardBits {
    all: SpaceBits,
    /// For each of the eight directions, how far a step moves a space's index and the spaces a
    /// step that way may leave (not off the board's east or west edge; only octagons
    /// diagonally).
    steps: Vec<(isize, SpaceBits)>,
}

impl BoardBits {
    fn of(grid: &SquareOctGrid) -> BoardBits {
        let (w, h) = (grid.width as usize, grid.height as usize);
        let words = (w * h).div_ceil(64);
        let mut all = SpaceBits::from_elem(0, words);
        for i in 0..w * h {
            all[i / 64] |= 1 << (i % 64);
        }
        let mut steps = Vec::new();
        for dy in [-1isize, 0, 1] {
            for dx in [-1isize, 0, 1] {
                if (dx, dy) == (0, 0) {
                    continue;
                }
                let mut leave = SpaceBits::from_elem(0, words);
                for i in 0..w * h {
                    let (x, y) = ((i % w) as i32, (i / w) as i32);
                    let off_edge = (dx == 1 && x + 1 == grid.width) || (dx == -1 && x == 0);
                    let diagonal_from_square = dx != 0 && dy != 0 && grid.shape((x, y)) != CellShape::Octagon;
                    if !off_edge && !diagonal_from_square {
                        leave[i / 64] |= 1 << (i % 64);
                    }
                }
                steps.push((dy * w as isize + dx, leave));
            }
        }
        BoardBits { all, steps }
    }

    /// An empty set of spaces.
    pub fn none(&self) -> SpaceBits {
        SpaceBits::from_elem(0, self.all.len())
    }

    /// The spaces within `steps` steps of space `from`, each step to a bordering space (a
    /// diagonal one only between octagons) that is in `open`: every ring at once, a few word
    /// operations a direction, rather than space by space.
    pub fn spread(&self, from: usize, open: &[u64], steps: u32) -> SpaceBits {
        let mut reached = self.none();
        reached[from / 64] |= 1 << (from % 64);
        let (mut next, mut leaving) = (self.none(), self.none());
        for _ in 0..steps {
            next.copy_from_slice(&reached);
            for (by, leave) in &self.steps {
                for ((l, r), m) in leaving.iter_mut().zip(&reached).zip(leave) {
                    *l = r & m;
                }
                shift_into(&mut next, &leaving, *by);
            }
            let mut grew = false;
            for k in 0..next.len() {
                let now = reached[k] | (next[k] & open[k] & self.all[k]);
                grew |= now != reached[k];
                reached[k] = now;
            }
            if !grew {
                break;
            }
        }
        reached
    }
}

/// `into |= from` moved by `by` spaces (towards higher indices when positive); the bits moved
/// past either end are dropped.
fn shift_into(into: &mut [u64], from: &[u64], by: isize) {
    let n = from.len() as isize;
    let (words, bits) = (by.div_euclid(64), by.rem_euclid(64) as u32);
    let src = |i: isize| if (0..n).contains(&i) { from[i as usize] } else { 0 };
    for k in 0..n {
        // Bit j of the result comes from bit j - by: words k - words and k - words - 1.
        let lo = src(k - words);
        into[k as usize] |= if bits == 0 { lo } else { lo << bits | src(k - words - 1) >> (64 - bits) };
    }
}

impl Board {
    pub fn index(&self, c: Cell) -> usize {
        (c.1 * self.grid.width + c.0) as usize
    }
    pub fn cell_of(&self, i: usize) -> Cell {
        (i as i32 % self.grid.width, i as i32 / self.grid.width)
    }
    pub fn contains(&self, c: Cell) -> bool {
        self.grid.contains(c)
    }
    pub fn space(&self, c: Cell) -> &Space {
        &self.spaces[self.index(c)]
    }
    pub fn shape(&self, c: Cell) -> CellShape {
        self.grid.shape(c)
    }
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.spaces.len()).map(|i| self.cell_of(i))
    }
    /// The side between `a` and its neighbour `b`: a stream is crossed where the step goes from
    /// the stream's west column to its east one (or back) within its rows.
    pub fn crossing(&self, a: Cell, b: Cell) -> Crossing {
        for s in &self.streams {
            let (w, e) = if a.0 <= b.0 { (a, b) } else { (b, a) };
            if w.0 == s.x && e.0 == s.x + 1 && (s.y0..=s.y1).contains(&w.1) && (s.y0..=s.y1).contains(&e.1) {
                return if w.1 == e.1 && s.bridges.contains(&w.1) { Crossing::Bridge } else { Crossing::Stream };
            }
        }
        Crossing::Open
    }
    /// Whether the step from `a` to its neighbour `b` follows the road.
    pub fn along_road(&self, a: Cell, b: Cell) -> bool {
        let d = (b.0 - a.0, b.1 - a.1);
        let bits = self.road_dirs.get(self.index(a)).copied().unwrap_or(0);
        Facing::ALL.iter().enumerate().any(|(i, f)| bits & (1 << i) != 0 && f.offset() == d)
    }
    /// Uphill: into a higher space (across a contour line).
    pub fn uphill(&self, from: Cell, to: Cell) -> bool {
        self.space(to).level > self.space(from).level
    }
    pub fn place_name(&self, c: Cell) -> String {
        match &self.space(c).name {
            Some(n) => format!("{n} ({},{})", c.0, c.1),
            None => format!("({},{})", c.0, c.1),
        }
    }
}

/// A command (a leader's counter): rating, range and movement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CommandDef {
    pub name: String,
    pub side: Side,
    pub nation: Nation,
    pub rating: u8,
    pub range: u8,
    pub mf: u8,
    pub supreme: bool,
    pub game_sectors: Vec<u8>,
    pub historical_sectors: Vec<u8>,
    pub at: Option<Cell>,
}

/// A combat unit of the order of battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitDef {
    pub name: String,
    pub command: String,
    pub kind: Kind,
    pub cf: u8,
    /// (lower, higher): cavalry attacks on the lower, horse artillery moves and fires on it.
    pub mf: (u8, u8),
    pub guard: bool,
    /// A light infantry unit's CF in a formation.
    #[serde(default)]
    pub line_cf: Option<u8>,
    pub at: Option<Cell>,
    pub facing: Facing,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct OobFile {
    provenance: Provenance,
    commands: Vec<CommandDef>,
    units: Vec<UnitDef>,
}

/// A result of the Artillery Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FireResult {
    N,
    R(u8),
    E,
}

impl FireResult {
    /// One result lower, as a demoralised battery fires: D1 = N, D2 = D1, D3 = D2, D5 = D3,
    /// E = D5.
    pub fn lower(self) -> FireResult {
        match self {
            FireResult::N | FireResult::R(1) => FireResult::N,
            FireResult::R(2) => FireResult::R(1),
            FireResult::R(3) => FireResult::R(2),
            FireResult::R(_) => FireResult::R(3),
            FireResult::E => FireResult::R(5),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FireRow {
    pub range: u8,
    pub results: Vec<FireResult>,
    pub provenance: Provenance,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FireTable {
    pub provenance: Provenance,
    pub rows: Vec<FireRow>,
}

impl FireTable {
    /// The result of two dice (2..=12 after modifiers) at a range, or None beyond the table.
    pub fn result(&self, range: u8, roll: i32) -> Option<FireResult> {
        let row = self.rows.iter().find(|r| range <= r.range)?;
        Some(row.results[(roll.clamp(2, 12) - 2) as usize])
    }
    pub fn max_range(&self) -> u8 {
        self.rows.iter().map(|r| r.range).max().unwrap_or(0)
    }
}

/// A result of the Attack Combat Results Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CrtResult {
    AE,
    AR(u8),
    N,
    DR(u8),
    DE,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrtRow {
    pub difference: i32,
    pub results: Vec<CrtResult>,
    pub provenance: Provenance,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BatteryResult {
    Turn,
    TurnDemoralise,
    Eliminate,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CounterBattery {
    pub results: Vec<BatteryResult>,
    pub provenance: Provenance,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ice {
    pub infantry: u8,
    pub cavalry: u8,
    pub artillery: u8,
    pub provenance: Provenance,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mist {
    pub turn: u8,
    pub range: u8,
    pub charge: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Davout {
    pub first: u8,
    pub last_turn: u8,
    pub provenance: Provenance,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Victory {
    pub sudden_death_turn: u8,
    pub margin: u8,
    pub last_turn: u8,
    pub infantry_cavalry: u16,
    pub artillery: u16,
    pub guard_or_command: u16,
    pub demoralised: u16,
    pub provenance: Provenance,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tables {
    pub artillery: FireTable,
    pub horse_artillery: FireTable,
    pub crt: Vec<CrtRow>,
    pub counter_battery: CounterBattery,
    pub ice: Ice,
    pub mist: Vec<Mist>,
    pub mist_provenance: Provenance,
    pub davout: Davout,
    pub victory: Victory,
}

impl Tables {
    /// The CRT row of a CF difference (None below the first row: no attack allowed).
    pub fn crt_row(&self, difference: i32) -> Option<&CrtRow> {
        if difference < self.crt.first()?.difference {
            return None;
        }
        self.crt.iter().rev().find(|r| r.difference <= difference)
    }
    pub fn mist(&self, turn: u8) -> Option<Mist> {
        self.mist.iter().copied().find(|m| m.turn == turn)
    }
}

/// Which sectors the set-up uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sectors {
    Historical,
    Game,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct ScenarioFile {
    game: String,
    name: String,
    board: String,
    order_of_battle: String,
    tables: String,
    sectors: Sectors,
    woods: bool,
}

/// A loaded scenario: everything a table needs, checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AzScenario {
    pub name: String,
    pub path: std::path::PathBuf,
    pub hash: String,
    pub board: Board,
    pub commands: Vec<CommandDef>,
    pub units: Vec<UnitDef>,
    /// `units[i]`'s command, by index.
    pub unit_command: Vec<u8>,
    pub tables: Tables,
    pub sectors: Sectors,
    pub woods: bool,
    pub oob_provenance: Provenance,
    /// The spaces each command's units set up on (its sectors, on its side of the red border),
    /// in the board's order: the set-up's legal list asks this of every command at every
    /// decision, and it read the whole board each time.
    pub setup_cells: Vec<Vec<Cell>>,
}

fn build_board(path: &Path, text: &str, f: BoardFile, woods: bool) -> Result<Board, DataError> {
    check_range(path, text, "width", &f.width.to_string(), "width", f.width, 4, MAX_SIDE)?;
    check_range(path, text, "height", &f.height.to_string(), "height", f.height, 4, MAX_SIDE)?;
    let grid = SquareOctGrid { width: f.width, height: f.height };
    let off = |needle: String, field: &str, c: Cell| {
        DataError::at_text(
            path,
            text,
            field,
            &needle,
            format!("field `{field}`: ({}, {}) is off the {}×{} board", c.0, c.1, f.width, f.height),
        )
    };
    let fmt = |c: Cell| format!("({}, {})", c.0, c.1);
    let mut spaces = vec![
        Space { terrain: Terrain::Clear, level: 0, ridge: false, name: None, sector: None };
        (f.width * f.height) as usize
    ];
    let idx = |c: Cell| (c.1 * f.width + c.0) as usize;
    for h in &f.heights {
        for c in [(h.x0, h.y0), (h.x1, h.y1)] {
            if !grid.contains(c) {
                return Err(off(format!("name: \"{}\"", h.name), "heights", c));
            }
        }
        for x in h.x0..=h.x1 {
            for y in h.y0..=h.y1 {
                spaces[idx((x, y))].level = h.level;
            }
        }
    }
    for &c in &f.ridges {
        if !grid.contains(c) {
            return Err(off(fmt(c), "ridges", c));
        }
        spaces[idx(c)].ridge = true;
    }
    for p in &f.places {
        if !grid.contains(p.at) {
            return Err(off(format!("\"{}\"", p.name), "places", p.at));
        }
        let s = &mut spaces[idx(p.at)];
        s.terrain = p.terrain;
        s.name = Some(p.name.clone());
    }
    for &c in &f.optional_woods {
        if !grid.contains(c) {
            return Err(off(fmt(c), "optional_woods", c));
        }
        if woods {
            spaces[idx(c)].terrain = Terrain::Woods;
        }
    }
    for s in &f.streams {
        if !grid.contains((s.x, s.y0)) || !grid.contains((s.x + 1, s.y1)) || s.y0 > s.y1 {
            return Err(DataError::at_text(
                path,
                text,
                "streams",
                &format!("\"{}\"", s.name),
                format!("field `streams`: {} must run between columns on the board, y0 ≤ y1", s.name),
            ));
        }
    }
    for w in f.road.windows(2) {
        let next = grid.neighbours(w[0]).iter().any(|(_, n)| *n == w[1]);
        if !grid.contains(w[0]) || !next {
            return Err(DataError::at_text(
                path,
                text,
                "road",
                &fmt(w[1]),
                format!(
                    "field `road`: {} is not next to {} (a road runs from space to neighbouring space)",
                    fmt(w[1]),
                    fmt(w[0])
                ),
            ));
        }
    }
    for s in &f.sectors {
        check_range(path, text, "sectors", &format!("n: {}", s.n), "sectors", s.n, 1, 99)?;
        for c in [(s.x0, s.y0), (s.x1, s.y1)] {
            if !grid.contains(c) {
                return Err(off(format!("n: {}", s.n), "sectors", c));
            }
        }
        for x in s.x0..=s.x1 {
            for y in s.y0..=s.y1 {
                spaces[idx((x, y))].sector = Some(s.n);
            }
        }
    }
    if !grid.contains(f.davout_entry.at) {
        return Err(off(fmt(f.davout_entry.at), "davout_entry", f.davout_entry.at));
    }
    if f.red_border.french_max_x >= f.red_border.allied_min_x {
        return Err(DataError::at_text(
            path,
            text,
            "red_border",
            "french_max_x",
            "field `red_border`: the French columns must lie west of the Allied ones",
        ));
    }
    let mut road_dirs = vec![0u8; spaces.len()];
    for w in f.road.windows(2) {
        for (a, b) in [(w[0], w[1]), (w[1], w[0])] {
            if let Some(i) = Facing::ALL.iter().position(|x| x.offset() == (b.0 - a.0, b.1 - a.1)) {
                road_dirs[idx(a)] |= 1 << i;
            }
        }
    }
    let mut board = Board {
        provenance: f.provenance,
        grid,
        spaces,
        streams: f.streams,
        road: f.road,
        road_dirs,
        stream_dirs: Vec::new(),
        next: Vec::new(),
        step_costs: Default::default(),
        pond: Vec::new(),
        fronts: Vec::new(),
        bits: BoardBits::default(),
        red_border: f.red_border,
        davout_entry: f.davout_entry,
    };
    let stream_dirs: Vec<u8> = (0..board.spaces.len())
        .map(|i| {
            let c = board.cell_of(i);
            Facing::ALL.iter().enumerate().fold(0u8, |bits, (k, f)| match board.grid.step(c, *f) {
                Some(m) if board.crossing(c, m) == Crossing::Stream => bits | 1 << k,
                _ => bits,
            })
        })
        .collect();
    board.stream_dirs = stream_dirs;
    board.pond = board.spaces.iter().map(|s| s.terrain == Terrain::Pond).collect();
    board.bits = BoardBits::of(&board.grid);
    board.fronts = (0..board.spaces.len())
        .map(|i| if board.shape(board.cell_of(i)) == CellShape::Square { 0x55 } else { 0xff })
        .collect();
    board.next = (0..board.spaces.len())
        .map(|i| {
            let c = board.cell_of(i);
            Facing::ALL.map(|f| board.grid.step(c, f).map_or(NO_SPACE, |n| board.index(n) as u16))
        })
        .collect();
    board.step_costs = [Mover::Infantry, Mover::Square, Mover::Cavalry, Mover::Artillery].map(|m| {
        (0..board.spaces.len() * 8)
            .map(|k| {
                let (ci, di) = (k / 8, k % 8);
                let n = board.next[ci][di];
                if n == NO_SPACE {
                    return 0;
                }
                let (here, to) = (&board.spaces[ci], &board.spaces[n as usize]);
                // Movement: 1 a space (a square 2), woods 2 and for infantry only, +1 across the
                // stream (only at bridges for artillery, never for a square), +1 uphill.
                let mut cost = if m == Mover::Square { 2 } else { 1 };
                if to.terrain == Terrain::Woods {
                    if !matches!(m, Mover::Infantry | Mover::Square) {
                        return 0;
                    }
                    cost = 2;
                }
                if board.stream_dirs[ci] & (1 << di) != 0 {
                    if matches!(m, Mover::Artillery | Mover::Square) {
                        return 0;
                    }
                    cost += 1;
                }
                if to.level > here.level {
                    cost += 1;
                }
                cost
            })
            .collect()
    });
    Ok(board)
}

fn check_tables(path: &Path, text: &str, t: &Tables) -> Result<(), DataError> {
    for (field, table) in [("artillery", &t.artillery), ("horse_artillery", &t.horse_artillery)] {
        if table.rows.is_empty() || table.rows.windows(2).any(|w| w[0].range >= w[1].range) {
            return Err(DataError::at_text(
                path,
                text,
                field,
                "rows",
                format!("field `{field}`: rows by rising range, at least one"),
            ));
        }
        for r in &table.rows {
            if r.results.len() != 11 {
                return Err(DataError::at_text(
                    path,
                    text,
                    field,
                    &format!("range: {}", r.range),
                    format!(
                        "field `results`: {} results for range {}; one per roll of 2 to 12 (11)",
                        r.results.len(),
                        r.range
                    ),
                ));
            }
        }
    }
    if t.crt.is_empty() || t.crt.windows(2).any(|w| w[1].difference != w[0].difference + 1) {
        return Err(DataError::at_text(
            path,
            text,
            "crt",
            "crt",
            "field `crt`: one row per CF difference, rising by one",
        ));
    }
    for r in &t.crt {
        if r.results.len() != 6 {
            return Err(DataError::at_text(
                path,
                text,
                "crt",
                &format!("difference: {}", r.difference),
                format!(
                    "field `results`: {} results for difference {}; one per die roll (6)",
                    r.results.len(),
                    r.difference
                ),
            ));
        }
    }
    if t.counter_battery.results.len() != 6 {
        return Err(DataError::at_text(
            path,
            text,
            "counter_battery",
            "results",
            "field `results`: one per die roll (6)",
        ));
    }
    for (n, v) in [("infantry", t.ice.infantry), ("cavalry", t.ice.cavalry), ("artillery", t.ice.artillery)] {
        check_range(path, text, "ice", &format!("{n}: {v}"), "ice", v, 0, 6)?;
    }
    Ok(())
}

fn check_oob(path: &Path, text: &str, f: &OobFile, board: &Board) -> Result<Vec<u8>, DataError> {
    if f.commands.len() > MAX_PIECES || f.units.len() > MAX_PIECES {
        return Err(DataError::whole_file(path, format!("at most {MAX_PIECES} commands and {MAX_PIECES} units")));
    }
    let mut unit_command = Vec::new();
    for side in [Side::French, Side::Allied] {
        if f.commands.iter().filter(|c| c.side == side && c.supreme).count() != 1 {
            return Err(DataError::at_text(
                path,
                text,
                "commands",
                "supreme",
                format!("field `supreme`: the {} side needs exactly one supreme commander", side.name()),
            ));
        }
    }
    for c in &f.commands {
        check_range(path, text, &format!("\"{}\"", c.name), "rating:", "rating", c.rating, 0, 6)?;
        check_range(path, text, &format!("\"{}\"", c.name), "range:", "range", c.range, 0, 40)?;
        check_range(path, text, &format!("\"{}\"", c.name), "mf:", "mf", c.mf, 0, 30)?;
        if let Some(at) = c.at
            && !board.contains(at)
        {
            return Err(DataError::at_text(
                path,
                text,
                &format!("\"{}\"", c.name),
                "at:",
                format!("field `at`: {} is off the board", c.name),
            ));
        }
        for s in c.game_sectors.iter().chain(&c.historical_sectors) {
            if !board.spaces.iter().any(|sp| sp.sector == Some(*s)) {
                return Err(DataError::at_text(
                    path,
                    text,
                    &format!("\"{}\"", c.name),
                    "sectors",
                    format!("field `sectors`: {} names sector {s}, which the board does not have", c.name),
                ));
            }
        }
    }
    for u in &f.units {
        let entry = format!("\"{}\"", u.name);
        let Some(c) = f.commands.iter().position(|c| c.name == u.command) else {
            return Err(DataError::at_text(
                path,
                text,
                &entry,
                &format!("\"{}\"", u.command),
                format!("field `command`: no command named \"{}\"", u.command),
            ));
        };
        check_range(path, text, &entry, "cf:", "cf", u.cf, 0, 9)?;
        check_range(path, text, &entry, "mf:", "mf", u.mf.1, u.mf.0, 30)?;
        if let Some(at) = u.at
            && !board.contains(at)
        {
            return Err(DataError::at_text(
                path,
                text,
                &entry,
                "at:",
                format!("field `at`: {} is off the board", u.name),
            ));
        }
        if u.facing.is_diagonal() && u.at.is_some_and(|at| board.shape(at) == CellShape::Square) {
            return Err(DataError::at_text(
                path,
                text,
                &entry,
                "facing:",
                format!("field `facing`: {} stands on a square, whose front points to one of its four sides", u.name),
            ));
        }
        unit_command.push(c as u8);
    }
    Ok(unit_command)
}

impl AzScenario {
    pub fn load(path: &Path) -> Result<AzScenario, DataError> {
        let (file, text): (ScenarioFile, String) = load_ron(path)?;
        expect_game(path, &text, &file.game, GAME_ID)?;
        let mut all = text.clone();
        let board_path = part_file(path, &text, "board", &file.board)?;
        let (board_file, board_text): (BoardFile, String) = load_ron(&board_path)?;
        let board = build_board(&board_path, &board_text, board_file, file.woods)?;
        all.push_str(&board_text);
        let oob_path = part_file(path, &text, "order_of_battle", &file.order_of_battle)?;
        let (oob, oob_text): (OobFile, String) = load_ron(&oob_path)?;
        let unit_command = check_oob(&oob_path, &oob_text, &oob, &board)?;
        all.push_str(&oob_text);
        let tables_path = part_file(path, &text, "tables", &file.tables)?;
        let (tables, tables_text): (Tables, String) = load_ron(&tables_path)?;
        check_tables(&tables_path, &tables_text, &tables)?;
        all.push_str(&tables_text);
        let mut sc = AzScenario {
            name: file.name,
            path: path.to_path_buf(),
            hash: crate::engine::digest::digest_bytes(all.as_bytes()),
            board,
            commands: oob.commands,
            units: oob.units,
            unit_command,
            tables,
            sectors: file.sectors,
            woods: file.woods,
            oob_provenance: oob.provenance,
            setup_cells: Vec::new(),
        };
        sc.setup_cells = (0..sc.commands.len()).map(|k| sc.setup_cells_of(k)).collect();
        Ok(sc)
    }

    /// The spaces a command's units set up on: its sectors, on its side of the red border.
    fn setup_cells_of(&self, command: usize) -> Vec<Cell> {
        let sectors = self.sectors_of(command);
        let side = self.commands[command].side;
        self.board
            .cells()
            .filter(|&c| self.board.space(c).sector.is_some_and(|s| sectors.contains(&s)) && self.own_half(side, c))
            .collect()
    }

    /// Whether a space is on a side's half of the red border.
    pub fn own_half(&self, side: Side, c: Cell) -> bool {
        let r = self.board.red_border;
        match side {
            Side::French => c.0 <= r.french_max_x,
            Side::Allied => c.0 >= r.allied_min_x,
        }
    }

    /// The sectors a command sets up in under this scenario.
    pub fn sectors_of(&self, command: usize) -> &[u8] {
        let c = &self.commands[command];
        match self.sectors {
            Sectors::Historical => &c.historical_sectors,
            Sectors::Game => &c.game_sectors,
        }
    }

    /// Every value's provenance, for the charts panel and `validate`.
    pub fn provenance(&self) -> Vec<(String, Provenance)> {
        let t = &self.tables;
        let mut out = vec![
            ("Board".to_string(), self.board.provenance.clone()),
            ("Order of battle".to_string(), self.oob_provenance.clone()),
            ("Artillery Table".to_string(), t.artillery.provenance.clone()),
            ("Horse Artillery Table".to_string(), t.horse_artillery.provenance.clone()),
        ];
        out.extend(
            t.artillery.rows.iter().map(|r| (format!("Artillery Table, range ≤ {}", r.range), r.provenance.clone())),
        );
        out.extend(
            t.horse_artillery
                .rows
                .iter()
                .map(|r| (format!("Horse Artillery Table, range ≤ {}", r.range), r.provenance.clone())),
        );
        out.extend(t.crt.iter().map(|r| (format!("CRT row {:+}", r.difference), r.provenance.clone())));
        out.push(("Counter-battery fire".into(), t.counter_battery.provenance.clone()));
        out.push(("Ice".into(), t.ice.provenance.clone()));
        out.push(("Mist".into(), t.mist_provenance.clone()));
        out.push(("Davout's arrival".into(), t.davout.provenance.clone()));
        out.push(("Victory".into(), t.victory.provenance.clone()));
        out
    }
}
