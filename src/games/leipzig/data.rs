//! Leipzig 1813's data, read from RON: the hex map, the counters and leaders, the charts (CRT,
//! Forced March Tables, Terrain Effects Chart), the deployments, the Reinforcement Chart and the
//! scenarios. Every name and hex is resolved on load, so a bad file is refused with its file,
//! line and field.

use crate::engine::scenario::{DataError, Provenance, check_range, expect_game, load_ron, part_file};
use serde::{Deserialize, Serialize};
use std::path::Path;

pub const GAME_ID: &str = "leipzig-1813";

/// The most columns or rows of the map (hex indices are 16-bit).
pub const MAX_SIDE: usize = 120;
/// The most counters a side may deploy or receive in all (unit ids are 16-bit).
pub const MAX_COUNTERS: usize = 2_000;

/// The two sides; seat 0 is the French, seat 1 the Allies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    French,
    Allied,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::French, Side::Allied];
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    Infantry,
    Cavalry,
    Supply,
    Depot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Size {
    Division,
    Corps,
    Army,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    Clear,
    City,
    Fortress,
    Mountain,
    Pass,
}

/// A hex of the map: its index, row by row from the north-west corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hex(pub u16);

/// A counter type of the order of battle ("5-4": strength 5, movement 4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitType {
    pub id: String,
    pub kind: Kind,
    pub size: Size,
    pub strength: u8,
    pub movement: u8,
    pub divisions: u8,
    /// The type and count it breaks down into.
    pub breaks_into: Option<(String, u8)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaderDef {
    pub number: u8,
    pub name: String,
    pub offense: u8,
    pub defense: u8,
}

#[derive(Clone, Debug, Deserialize)]
struct ForcesFile {
    types_provenance: Provenance,
    types: Vec<UnitType>,
    supply_units: u8,
    supply_provenance: Provenance,
    leader_movement: u8,
    leaders_provenance: Provenance,
    french_leaders: Vec<LeaderDef>,
    allied_leaders: Vec<LeaderDef>,
}

/// A result of the Combat Results Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CrtResult {
    /// Attacker scattered.
    As,
    /// Attacker dispersed.
    Ad,
    /// Attacker dispersed, defender scattered.
    AdDs,
    /// Defender dispersed and retreated this many hexes.
    Dd(u8),
    /// Defender scattered.
    Ds,
    /// Defender destroyed.
    Dx,
    /// ½ex: the defender eliminated, the attacker loses half as many divisions, rounded up.
    HalfEx,
    /// Automatic Dx (500%).
    Auto,
}

impl CrtResult {
    pub fn code(self) -> String {
        match self {
            CrtResult::As => "As".into(),
            CrtResult::Ad => "Ad".into(),
            CrtResult::AdDs => "AdDs".into(),
            CrtResult::Dd(n) if n > 0 => format!("Dd{n}"),
            CrtResult::Dd(_) => "Dd".into(),
            CrtResult::Ds => "Ds".into(),
            CrtResult::Dx => "Dx".into(),
            CrtResult::HalfEx => "½ex".into(),
            CrtResult::Auto => "Auto".into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Crt {
    pub provenance: Provenance,
    pub printed: String,
    /// The ratio each column stands for, in percent (the first covers everything below the second).
    pub columns: Vec<u16>,
    /// Die rolls 1 to 6.
    pub rows: Vec<Vec<CrtResult>>,
    pub river_minimum: u16,
    pub auto: u16,
}

impl Crt {
    /// The column of a ratio in percent, rounded down to a printed column (the first column takes
    /// every lower ratio).
    pub fn column(&self, percent: u32) -> usize {
        self.columns.iter().rposition(|&c| percent >= c as u32).unwrap_or(0)
    }
}

/// One result of a Forced March Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MarchResult {
    /// The solid dot: no effect, the march may be completed.
    Ok,
    /// The hollow dot (read as: no loss, but the march ends here).
    Halt,
    /// Dispersed after completing the march.
    D,
    /// Destroyed.
    X,
}

/// A row of a Forced March Table: one result for every second roll, or a subsidiary table (J to N)
/// the player may roll on or decline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MarchRow {
    All(MarchResult),
    Then(String, Vec<MarchResult>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MarchTables {
    pub provenance: Provenance,
    pub hollow_dot: String,
    pub double: Vec<MarchRow>,
    pub triple: Vec<MarchRow>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TerrainChart {
    pub provenance: Provenance,
    pub clear: u8,
    pub city: u8,
    pub fortress: u8,
    pub mountain: u8,
    pub river: u8,
    pub pass_from_open: u8,
    pub pass_from_mountain: u8,
    pub pass_provenance: Provenance,
    pub stack_enter: u8,
    pub stack_leave: u8,
    pub partial_zoc_leave: u8,
    pub overrun_enter: u8,
    pub fortress_capacity: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Charts {
    pub crt: Crt,
    pub forced_march: MarchTables,
    pub terrain: TerrainChart,
}

#[derive(Clone, Debug, Deserialize)]
struct BoardFile {
    provenance: Provenance,
    derivation: String,
    columns: usize,
    rows: usize,
    terrain: Vec<String>,
    austria: Vec<String>,
    armistice: Vec<String>,
    places: Vec<(String, String)>,
    rivers: Vec<(String, Vec<String>)>,
    bridges: Vec<(String, String, String)>,
    passes: Vec<(String, String)>,
    ranges: Vec<(String, String)>,
}

/// What lies along a hexside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hexside {
    Open,
    River,
    Bridge,
}

/// The map: terrain per hex, the six neighbours of each hex and what lies on each hexside.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub provenance: Provenance,
    pub derivation: String,
    pub columns: usize,
    pub rows: usize,
    pub terrain: Vec<Terrain>,
    pub austria: Vec<bool>,
    /// On the Allied (north-east) side of the armistice line.
    pub allied_side: Vec<bool>,
    /// Neighbours in the order north, north-east, south-east, south, south-west, north-west.
    pub neighbours: Vec<[Option<Hex>; 6]>,
    /// What lies on each of a hex's six sides, in the same order.
    pub sides: Vec<[Hexside; 6]>,
    pub places: Vec<(String, Hex)>,
    /// Each river's name and hexsides (for the map's drawing).
    pub rivers: Vec<(String, Vec<(Hex, Hex)>)>,
    pub bridges: Vec<(String, String, Hex, Hex)>,
    pub passes: Vec<(String, Hex)>,
    pub ranges: Vec<(String, Hex)>,
    /// How many hexes each hex lies from the [French, Allied] side of the armistice line (0 on
    /// it): the French side south-west of the line and outside Austria, the Allied side north-east
    /// of it and Austria (the line's second part once Austria has intervened).
    pub from_side: [Vec<u16>; 2],
}

impl Board {
    /// Whether `h` lies on `side`'s side of the armistice line.
    pub fn armistice_side(&self, h: Hex, side: Side) -> bool {
        self.from_side[side.index()][h.0 as usize] == 0
    }

    pub fn len(&self) -> usize {
        self.terrain.len()
    }
    pub fn is_empty(&self) -> bool {
        self.terrain.is_empty()
    }
    pub fn col_row(&self, h: Hex) -> (usize, usize) {
        (h.0 as usize % self.columns, h.0 as usize / self.columns)
    }
    pub fn hex(&self, col: usize, row: usize) -> Option<Hex> {
        (col < self.columns && row < self.rows).then(|| Hex((row * self.columns + col) as u16))
    }
    /// The printed number, CCRR from 0101 at the north-west corner.
    pub fn label(&self, h: Hex) -> String {
        let (c, r) = self.col_row(h);
        format!("{:02}{:02}", c + 1, r + 1)
    }
    pub fn parse_label(&self, s: &str) -> Option<Hex> {
        if s.len() != 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let c: usize = s[..2].parse().ok()?;
        let r: usize = s[2..].parse().ok()?;
        self.hex(c.checked_sub(1)?, r.checked_sub(1)?)
    }
    /// The axial coordinate (hexx, flat-topped, even printed columns half a hex lower).
    pub fn axial(&self, h: Hex) -> hexx::Hex {
        let (c, r) = self.col_row(h);
        hexx::Hex::from_offset_coordinates([c as i32, r as i32], hexx::OffsetHexMode::Odd, hexx::HexOrientation::Flat)
    }
    pub fn distance(&self, a: Hex, b: Hex) -> u32 {
        self.axial(a).unsigned_distance_to(self.axial(b))
    }
    pub fn terrain(&self, h: Hex) -> Terrain {
        self.terrain[h.0 as usize]
    }
    pub fn neighbours(&self, h: Hex) -> impl Iterator<Item = (usize, Hex)> + '_ {
        self.neighbours[h.0 as usize].iter().enumerate().filter_map(|(d, n)| n.map(|n| (d, n)))
    }
    pub fn adjacent(&self, a: Hex, b: Hex) -> bool {
        self.neighbours[a.0 as usize].contains(&Some(b))
    }
    /// What lies between two adjacent hexes.
    pub fn side(&self, a: Hex, b: Hex) -> Hexside {
        match self.neighbours[a.0 as usize].iter().position(|n| *n == Some(b)) {
            Some(d) => self.sides[a.0 as usize][d],
            None => Hexside::Open,
        }
    }
    /// Whether a river runs along the hexside between `a` and `b`, bridged or not: for combat a
    /// bridged hexside is "same as un-bridged hex-sides with the exception that Zones of Control
    /// do extend across" (Terrain Effects Chart): the defender doubled, no attack below 160%,
    /// the advance after combat, a sortie's exception (Fortress, case E).
    pub fn river_line(&self, a: Hex, b: Hex) -> bool {
        self.side(a, b) != Hexside::Open
    }
    pub fn place(&self, name: &str) -> Option<Hex> {
        self.places.iter().find(|(n, _)| n == name).map(|(_, h)| *h)
    }
    pub fn place_at(&self, h: Hex) -> Option<&str> {
        self.places.iter().find(|(_, p)| *p == h).map(|(n, _)| n.as_str())
    }
    pub fn is_mountain(&self, h: Hex) -> bool {
        matches!(self.terrain(h), Terrain::Mountain | Terrain::Pass)
    }
    pub fn is_fortress(&self, h: Hex) -> bool {
        self.terrain(h) == Terrain::Fortress
    }
    /// The hexes along an edge, in the map's order.
    pub fn edge(&self, edge: Edge) -> impl Iterator<Item = Hex> + '_ {
        let (cols, rows) = match edge {
            Edge::North => (0..self.columns, 0..1),
            Edge::South => (0..self.columns, self.rows.saturating_sub(1)..self.rows),
            Edge::West => (0..1.min(self.columns), 0..self.rows),
            Edge::East => (self.columns.saturating_sub(1)..self.columns, 0..self.rows),
        };
        rows.flat_map(move |r| cols.clone().filter_map(move |c| self.hex(c, r)))
    }
    pub fn on_edge(&self, h: Hex, edge: Edge) -> bool {
        let (c, r) = self.col_row(h);
        match edge {
            Edge::North => r == 0,
            Edge::South => r + 1 == self.rows,
            Edge::West => c == 0,
            Edge::East => c + 1 == self.columns,
        }
    }
    /// How far a hex lies from the edge a side retreats towards (Retreat Order of Preference, B):
    /// the west edge for the French, the nearest of the north, south and east edges for the Allies.
    pub fn edge_distance(&self, h: Hex, side: Side) -> usize {
        let (c, r) = self.col_row(h);
        match side {
            Side::French => c,
            Side::Allied => r.min(self.rows - 1 - r).min(self.columns - 1 - c),
        }
    }
    /// The column of the Elbe's northernmost river hexside (for "next to the Elbe" on the north edge).
    pub fn elbe_column(&self) -> Option<usize> {
        let (_, sides) = self.rivers.iter().find(|(n, _)| n == "Elbe")?;
        sides.iter().min_by_key(|(a, b)| self.col_row(*a).1.min(self.col_row(*b).1)).map(|(a, _)| self.col_row(*a).0)
    }
}

/// The four map edges the rules name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Edge {
    North,
    South,
    West,
    East,
}

/// Where a deployment group is placed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Placement {
    /// Directly on a place.
    On(String),
    /// Within so many hexes of a place.
    Within(String, u8),
    /// Anywhere on the French side of the armistice line, outside Austria.
    FrenchSide,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub label: String,
    pub side: Side,
    pub at: Placement,
    pub counters: Vec<String>,
    #[serde(default)]
    pub leaders: Vec<u8>,
    #[serde(default)]
    pub saxon_garrison: bool,
    #[serde(default)]
    pub gotha: bool,
    #[serde(default)]
    pub austrian: bool,
    #[serde(default)]
    pub free: bool,
    /// Where "deploy the rest" puts a free group's counters, spread around these places.
    #[serde(default)]
    pub suggested: Vec<String>,
    pub provenance: Provenance,
}

#[derive(Clone, Debug, Deserialize)]
struct DeploymentFile {
    provenance: Provenance,
    groups: Vec<Group>,
}

/// Where reinforcements enter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Entry {
    WestEdge,
    /// (e): the north edge next to the Elbe (west of it).
    NorthEdgeByElbe,
    /// (NSM): the north edge east of the Elbe.
    NorthEdgeEastOfElbe,
    /// (ESM): the east edge.
    EastEdge,
    City(String),
    /// The south edge west of the Austrian border (Bavaria's defection).
    SouthEdgeWestOfAustria,
    /// The east edge in Austria, or north-east of the armistice line (the armistice's way round).
    EastEdgeAustria,
    EastEdgeNorth,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReinforcementRow {
    pub turn: u8,
    pub side: Side,
    pub at: Entry,
    pub infantry: u8,
    pub cavalry: u8,
    pub supply: u8,
    pub leaders: Vec<u8>,
    pub provenance: Provenance,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NorthernOption {
    pub allied_infantry: u8,
    pub allied_cavalry: u8,
    pub provenance: Provenance,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bavaria {
    pub infantry: u8,
    pub cavalry: u8,
    pub provenance: Provenance,
}

#[derive(Clone, Debug, Deserialize)]
struct ReinforcementFile {
    rows: Vec<ReinforcementRow>,
    northern_option: NorthernOption,
    bavaria: Bavaria,
}

/// Whether units may enter Austria.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AustriaRule {
    /// Neutral: nobody enters; a unit retreating into Austria is eliminated.
    Closed,
    /// At war from the start.
    Open,
    /// The campaign: neutral until Austria intervenes.
    Intervention,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Victory {
    pub provenance: Provenance,
    pub cities: Vec<(String, u8)>,
    pub owners: Vec<(String, Side)>,
    pub division: u8,
    pub esm: Option<u8>,
}

#[derive(Clone, Debug, Deserialize)]
struct ScenarioFile {
    game: String,
    number: u8,
    name: String,
    description: String,
    board: String,
    forces: String,
    charts: String,
    deployment: String,
    reinforcements: String,
    remove: Vec<String>,
    replace: Vec<Group>,
    add: Vec<Group>,
    first_turn: u8,
    last_turn: u8,
    austria: AustriaRule,
    saxon_garrison: bool,
    reconnaissance_until: Option<u8>,
    gotha_march: bool,
    bavarian_defection_from: Option<u8>,
    campaign: bool,
    victory: Victory,
}

/// A step the mover may not take (`LzScenario::steps`).
pub const NO_STEP: u8 = u8::MAX;

/// Each step's cost from every hex in each direction for one kind of mover: the hex entered's
/// terrain (a pass costs more from a mountain; cavalry enters neither mountain nor such a pass)
/// and a river on the hexside.
fn step_costs(b: &Board, t: &TerrainChart, cavalry: bool) -> Vec<u8> {
    let mut steps = vec![NO_STEP; b.len() * 6];
    for h in 0..b.len() {
        for (d, nb) in b.neighbours(Hex(h as u16)) {
            let enter = match b.terrain(nb) {
                Terrain::Clear => t.clear,
                Terrain::City => t.city,
                Terrain::Fortress => t.fortress,
                Terrain::Mountain if cavalry => continue,
                Terrain::Mountain => t.mountain,
                Terrain::Pass if b.terrain[h] == Terrain::Mountain => {
                    if cavalry {
                        continue;
                    }
                    t.pass_from_mountain
                }
                Terrain::Pass => t.pass_from_open,
            };
            let river = if b.sides[h][d] == Hexside::River { t.river } else { 0 };
            steps[h * 6 + d] = enter.saturating_add(river).min(NO_STEP - 1);
        }
    }
    steps
}

/// A scenario with everything it names loaded and resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct LzScenario {
    /// What each step costs by terrain and hexside (Terrain Effects Chart), read once at load:
    /// `[infantry and the rest, cavalry][hex * 6 + direction]`, `NO_STEP` where there is no hex
    /// or that mover may not enter it. The movement search asks it of every neighbour it meets.
    pub steps: [Vec<u8>; 2],
    /// The cheapest step of each mover (`steps`, at least 1): no move of `c` MP goes further
    /// than `c` divided by it, which bounds what a move can gain before its search is made.
    pub least_step: [u8; 2],
    /// The hex of each city worth points (`victory.cities`, in order), found once at load: the
    /// owners are updated after every move.
    pub city_hexes: Vec<Option<Hex>>,
    pub path: std::path::PathBuf,
    pub number: u8,
    pub name: String,
    pub description: String,
    pub hash: String,
    pub board: Board,
    pub types: Vec<UnitType>,
    pub types_provenance: Provenance,
    pub supply_units: u8,
    pub supply_provenance: Provenance,
    pub leader_movement: u8,
    pub leaders_provenance: Provenance,
    /// [French, Allied] leaders by number.
    pub leaders: [Vec<LeaderDef>; 2],
    pub charts: Charts,
    pub deployment_provenance: Provenance,
    pub groups: Vec<Group>,
    /// The Austrian force that deploys when Austria intervenes in the campaign (scenario 3's).
    pub intervention: Vec<Group>,
    pub reinforcements: Vec<ReinforcementRow>,
    pub northern_option: NorthernOption,
    pub bavaria: Bavaria,
    pub first_turn: u8,
    pub last_turn: u8,
    pub austria: AustriaRule,
    pub saxon_garrison: bool,
    pub reconnaissance_until: Option<u8>,
    pub gotha_march: bool,
    pub bavarian_defection_from: Option<u8>,
    pub campaign: bool,
    pub victory: Victory,
}

impl LzScenario {
    pub fn type_index(&self, id: &str) -> Option<u8> {
        self.types.iter().position(|t| t.id == id).map(|i| i as u8)
    }
    pub fn leader(&self, side: Side, number: u8) -> Option<&LeaderDef> {
        self.leaders[side.index()].iter().find(|l| l.number == number)
    }
    /// The hexes a placement allows (on the map, outside a closed Austria unless the group is
    /// Austrian).
    pub fn placement_hexes(&self, at: &Placement, austrian: bool) -> Vec<Hex> {
        let b = &self.board;
        let ok = |h: Hex| austrian || !b.austria[h.0 as usize];
        match at {
            Placement::On(p) => b.place(p).into_iter().collect(),
            Placement::Within(p, n) => match b.place(p) {
                // A hex within `n` lies within `n` columns and rows: that square, row by row (the
                // map's order), rather than the whole map.
                Some(c) => {
                    let (col, row) = b.col_row(c);
                    let n = *n as usize;
                    (row.saturating_sub(n)..=row + n)
                        .flat_map(|r| (col.saturating_sub(n)..=col + n).filter_map(move |q| b.hex(q, r)))
                        .filter(|&h| b.distance(c, h) <= n as u32 && ok(h) && b.terrain(h) != Terrain::Mountain)
                        .collect()
                }
                None => Vec::new(),
            },
            Placement::FrenchSide => (0..b.len() as u16)
                .map(Hex)
                .filter(|&h| {
                    !b.allied_side[h.0 as usize] && !b.austria[h.0 as usize] && b.terrain(h) != Terrain::Mountain
                })
                .collect(),
        }
    }

    pub fn load(path: &Path) -> Result<LzScenario, DataError> {
        let (file, text): (ScenarioFile, String) = load_ron(path)?;
        expect_game(path, &text, &file.game, GAME_ID)?;
        check_range(path, &text, "first_turn", &file.first_turn.to_string(), "first_turn", file.first_turn, 1, 99)?;
        check_range(
            path,
            &text,
            "last_turn",
            &file.last_turn.to_string(),
            "last_turn",
            file.last_turn,
            file.first_turn,
            99,
        )?;
        let mut all_text = text.clone();
        let board_path = part_file(path, &text, "board", &file.board)?;
        let (board_file, board_text): (BoardFile, String) = load_ron(&board_path)?;
        let board = build_board(&board_path, &board_text, board_file)?;
        all_text.push_str(&board_text);
        let forces_path = part_file(path, &text, "forces", &file.forces)?;
        let (forces, forces_text): (ForcesFile, String) = load_ron(&forces_path)?;
        all_text.push_str(&forces_text);
        check_forces(&forces_path, &forces_text, &forces)?;
        let charts_path = part_file(path, &text, "charts", &file.charts)?;
        let (charts, charts_text): (Charts, String) = load_ron(&charts_path)?;
        all_text.push_str(&charts_text);
        check_charts(&charts_path, &charts_text, &charts)?;
        let dep_path = part_file(path, &text, "deployment", &file.deployment)?;
        let (dep, dep_text): (DeploymentFile, String) = load_ron(&dep_path)?;
        all_text.push_str(&dep_text);
        let rein_path = part_file(path, &text, "reinforcements", &file.reinforcements)?;
        let (rein, rein_text): (ReinforcementFile, String) = load_ron(&rein_path)?;
        all_text.push_str(&rein_text);

        // The scenario's changes to the standard order of battle.
        let mut groups = dep.groups.clone();
        for label in &file.remove {
            let before = groups.len();
            groups.retain(|g| &g.label != label);
            if groups.len() == before {
                return Err(DataError::at_text(
                    path,
                    &text,
                    "remove",
                    label,
                    format!("field `remove`: no group \"{label}\" in the deployment"),
                ));
            }
        }
        for g in &file.replace {
            match groups.iter_mut().find(|x| x.label == g.label) {
                Some(x) => *x = g.clone(),
                None => {
                    return Err(DataError::at_text(
                        path,
                        &text,
                        "replace",
                        &g.label,
                        format!("field `replace`: no group \"{}\" in the deployment", g.label),
                    ));
                }
            }
        }
        groups.extend(file.add.iter().cloned());
        // The campaign's Austrian intervention brings scenario 3's force around Prague.
        let intervention = if file.austria == AustriaRule::Intervention {
            vec![Group {
                label: "Prague (Austrian intervention)".into(),
                side: Side::Allied,
                at: Placement::Within("Prague".into(), 3),
                counters: ["18-2", "5-4", "5-4", "5-4", "5-4", "3-7", "S"].map(String::from).to_vec(),
                leaders: vec![1, 6],
                saxon_garrison: false,
                gotha: false,
                austrian: true,
                free: false,
                suggested: Vec::new(),
                provenance: Provenance::Rulebook(
                    "Austrian Intervention: the forces of Scenario 3 around Prague".into(),
                ),
            }]
        } else {
            Vec::new()
        };
        let sc_types = forces.types.clone();
        let type_ok = |id: &str| sc_types.iter().any(|t| t.id == id);
        for (file_path, file_text, list) in [(dep_path.as_path(), &dep_text, &groups), (path, &text, &file.add)] {
            for g in list.iter() {
                for c in &g.counters {
                    if !type_ok(c) {
                        return Err(DataError::at_text(
                            file_path,
                            file_text,
                            &g.label,
                            c,
                            format!("field `counters`: no counter type \"{c}\" in {}", file.forces),
                        ));
                    }
                }
                let leaders = if g.side == Side::French { &forces.french_leaders } else { &forces.allied_leaders };
                for n in &g.leaders {
                    if !leaders.iter().any(|l| l.number == *n) {
                        return Err(DataError::at_text(
                            file_path,
                            file_text,
                            &g.label,
                            "leaders",
                            format!("field `leaders`: no {} leader number {n}", g.side.name()),
                        ));
                    }
                }
                let place = match &g.at {
                    Placement::On(p) | Placement::Within(p, _) => Some(p),
                    Placement::FrenchSide => None,
                };
                for p in place.into_iter().chain(g.suggested.iter()) {
                    if board.place(p).is_none() {
                        return Err(DataError::at_text(
                            file_path,
                            file_text,
                            &g.label,
                            p,
                            format!("field `at`: no place \"{p}\" on the map"),
                        ));
                    }
                }
            }
        }
        if groups.iter().map(|g| g.counters.len() + g.leaders.len()).sum::<usize>() > MAX_COUNTERS {
            return Err(DataError::whole_file(&dep_path, format!("more than {MAX_COUNTERS} counters")));
        }
        for r in &rein.rows {
            let after = format!("turn: {}", r.turn);
            let leaders = if r.side == Side::French { &forces.french_leaders } else { &forces.allied_leaders };
            for n in &r.leaders {
                if !leaders.iter().any(|l| l.number == *n) {
                    return Err(DataError::at_text(
                        &rein_path,
                        &rein_text,
                        &after,
                        "leaders",
                        format!("field `leaders`: no {} leader number {n}", r.side.name()),
                    ));
                }
            }
            if let Entry::City(c) = &r.at
                && board.place(c).is_none()
            {
                return Err(DataError::at_text(
                    &rein_path,
                    &rein_text,
                    &after,
                    c,
                    format!("field `at`: no place \"{c}\" on the map"),
                ));
            }
            for (field, v) in [("infantry", r.infantry), ("cavalry", r.cavalry), ("supply", r.supply)] {
                check_range(&rein_path, &rein_text, &after, field, field, v, 0, 50)?;
            }
        }
        for (c, v) in &file.victory.cities {
            if board.place(c).is_none() {
                return Err(DataError::at_text(
                    path,
                    &text,
                    "victory",
                    c,
                    format!("field `cities`: no place \"{c}\" on the map"),
                ));
            }
            check_range(path, &text, c, &v.to_string(), "cities", *v, 0, 100)?;
        }
        for (c, _) in &file.victory.owners {
            if board.place(c).is_none() {
                return Err(DataError::at_text(
                    path,
                    &text,
                    "owners",
                    c,
                    format!("field `owners`: no place \"{c}\" on the map"),
                ));
            }
        }
        for t in ["Berlin", "Breslau", "Prague"] {
            if board.place(t).is_none() {
                return Err(DataError::at_text(
                    &board_path,
                    &board_text,
                    "places",
                    "places",
                    format!("field `places`: the reinforcement rules need \"{t}\""),
                ));
            }
        }
        let steps = [false, true].map(|cavalry| step_costs(&board, &charts.terrain, cavalry));
        let least_step = [0, 1].map(|k| steps[k].iter().copied().filter(|&c| c != NO_STEP).min().unwrap_or(1).max(1));
        let city_hexes = file.victory.cities.iter().map(|(c, _)| board.place(c)).collect();
        Ok(LzScenario {
            steps,
            least_step,
            city_hexes,
            path: path.to_path_buf(),
            number: file.number,
            name: file.name,
            description: file.description,
            hash: crate::engine::digest::digest_bytes(all_text.as_bytes()),
            board,
            types: forces.types,
            types_provenance: forces.types_provenance,
            supply_units: forces.supply_units,
            supply_provenance: forces.supply_provenance,
            leader_movement: forces.leader_movement,
            leaders_provenance: forces.leaders_provenance,
            leaders: [forces.french_leaders, forces.allied_leaders],
            charts,
            deployment_provenance: dep.provenance,
            groups,
            intervention,
            reinforcements: rein.rows,
            northern_option: rein.northern_option,
            bavaria: rein.bavaria,
            first_turn: file.first_turn,
            last_turn: file.last_turn,
            austria: file.austria,
            saxon_garrison: file.saxon_garrison,
            reconnaissance_until: file.reconnaissance_until,
            gotha_march: file.gotha_march,
            bavarian_defection_from: file.bavarian_defection_from,
            campaign: file.campaign,
            victory: file.victory,
        })
    }
}

fn check_forces(path: &Path, text: &str, f: &ForcesFile) -> Result<(), DataError> {
    for t in &f.types {
        let after = format!("id: \"{}\"", t.id);
        check_range(path, text, &after, "strength", "strength", t.strength, 1, 99)?;
        check_range(path, text, &after, "movement", "movement", t.movement, 1, 30)?;
        check_range(path, text, &after, "divisions", "divisions", t.divisions, 0, 30)?;
        if let Some((into, n)) = &t.breaks_into {
            check_range(path, text, &after, "breaks_into", "breaks_into", *n, 2, 6)?;
            match f.types.iter().find(|x| &x.id == into) {
                None => {
                    return Err(DataError::at_text(
                        path,
                        text,
                        &after,
                        into,
                        format!("field `breaks_into`: no type \"{into}\""),
                    ));
                }
                Some(x) if x.kind != t.kind && !(t.kind == Kind::Depot && x.kind == Kind::Supply) => {
                    return Err(DataError::at_text(
                        path,
                        text,
                        &after,
                        into,
                        "field `breaks_into`: a unit breaks down into its own kind",
                    ));
                }
                Some(x) if x.movement <= t.movement || x.breaks_into.as_ref().is_some_and(|(b, _)| b == &t.id) => {
                    return Err(DataError::at_text(
                        path,
                        text,
                        &after,
                        into,
                        "field `breaks_into`: the chain must go to smaller, faster units",
                    ));
                }
                _ => {}
            }
        }
    }
    for kind in [Kind::Supply, Kind::Depot, Kind::Infantry, Kind::Cavalry] {
        if !f.types.iter().any(|t| t.kind == kind) {
            return Err(DataError::at_text(path, text, "", "types", format!("field `types`: no {kind:?} type")));
        }
    }
    check_range(path, text, "supply_units", "supply_units", "supply_units", f.supply_units, 1, 60)?;
    check_range(path, text, "leader_movement", "leader_movement", "leader_movement", f.leader_movement, 1, 30)?;
    for l in f.french_leaders.iter().chain(&f.allied_leaders) {
        let after = format!("name: \"{}\"", l.name);
        check_range(path, text, &after, "offense", "offense", l.offense, 0, 99)?;
        check_range(path, text, &after, "defense", "defense", l.defense, 0, 99)?;
        check_range(path, text, &after, "number", "number", l.number, 1, 99)?;
    }
    Ok(())
}

fn check_charts(path: &Path, text: &str, c: &Charts) -> Result<(), DataError> {
    let crt = &c.crt;
    if crt.columns.is_empty() || crt.columns.windows(2).any(|w| w[0] >= w[1]) {
        return Err(DataError::at_text(
            path,
            text,
            "",
            "columns",
            "field `columns`: ratios must rise from column to column",
        ));
    }
    if crt.rows.len() != 6 {
        return Err(DataError::at_text(
            path,
            text,
            "",
            "rows",
            format!("field `rows`: {} rows, the die has 6", crt.rows.len()),
        ));
    }
    for (i, row) in crt.rows.iter().enumerate() {
        if row.len() != crt.columns.len() {
            return Err(DataError::at_text(
                path,
                text,
                "rows",
                "[",
                format!("field `rows`: row {} has {} results for {} columns", i + 1, row.len(), crt.columns.len()),
            ));
        }
    }
    for (name, table) in [("double", &c.forced_march.double), ("triple", &c.forced_march.triple)] {
        if table.len() != 6 {
            return Err(DataError::at_text(
                path,
                text,
                "",
                name,
                format!("field `{name}`: {} rows, the die has 6", table.len()),
            ));
        }
        for row in table {
            if let MarchRow::Then(letter, r) = row
                && r.len() != 6
            {
                return Err(DataError::at_text(
                    path,
                    text,
                    name,
                    letter,
                    format!("field `{name}`: table {letter} has {} results, the die has 6", r.len()),
                ));
            }
        }
    }
    let t = &c.terrain;
    for (field, v) in [
        ("clear", t.clear),
        ("city", t.city),
        ("fortress", t.fortress),
        ("mountain", t.mountain),
        ("pass_from_open", t.pass_from_open),
        ("pass_from_mountain", t.pass_from_mountain),
    ] {
        check_range(path, text, field, field, field, v, 1, 30)?;
    }
    check_range(path, text, "fortress_capacity", "fortress_capacity", "fortress_capacity", t.fortress_capacity, 1, 60)?;
    Ok(())
}

fn build_board(path: &Path, text: &str, f: BoardFile) -> Result<Board, DataError> {
    if !(2..=MAX_SIDE).contains(&f.columns) || !(2..=MAX_SIDE).contains(&f.rows) {
        return Err(DataError::at_text(path, text, "", "columns", format!("fields `columns`/`rows`: 2 to {MAX_SIDE}")));
    }
    let (cols, rows) = (f.columns, f.rows);
    let grid = |field: &str, lines: &[String], allowed: &str| -> Result<Vec<char>, DataError> {
        if lines.len() != rows {
            return Err(DataError::at_text(
                path,
                text,
                "",
                field,
                format!("field `{field}`: {} rows, the map has {rows}", lines.len()),
            ));
        }
        let mut out = Vec::with_capacity(cols * rows);
        for (i, l) in lines.iter().enumerate() {
            let chars: Vec<char> = l.chars().collect();
            if chars.len() != cols {
                return Err(DataError::at_text(
                    path,
                    text,
                    field,
                    l,
                    format!("field `{field}`: row {} has {} hexes, the map has {cols} columns", i + 1, chars.len()),
                ));
            }
            if let Some(bad) = chars.iter().find(|c| !allowed.contains(**c)) {
                return Err(DataError::at_text(
                    path,
                    text,
                    field,
                    l,
                    format!("field `{field}`: row {}: '{bad}' is not one of \"{allowed}\"", i + 1),
                ));
            }
            out.extend(chars);
        }
        Ok(out)
    };
    let terrain: Vec<Terrain> = grid("terrain", &f.terrain, ".cFmp")?
        .into_iter()
        .map(|c| match c {
            'c' => Terrain::City,
            'F' => Terrain::Fortress,
            'm' => Terrain::Mountain,
            'p' => Terrain::Pass,
            _ => Terrain::Clear,
        })
        .collect();
    let austria = grid("austria", &f.austria, ".A")?.into_iter().map(|c| c == 'A').collect();
    let allied_side = grid("armistice", &f.armistice, "NS")?.into_iter().map(|c| c == 'N').collect();
    let mut board = Board {
        provenance: f.provenance,
        derivation: f.derivation,
        columns: cols,
        rows,
        terrain,
        austria,
        allied_side,
        neighbours: Vec::new(),
        sides: vec![[Hexside::Open; 6]; cols * rows],
        places: Vec::new(),
        rivers: Vec::new(),
        bridges: Vec::new(),
        passes: Vec::new(),
        ranges: Vec::new(),
        from_side: [Vec::new(), Vec::new()],
    };
    // Flat-topped hexes, even printed columns (odd 0-based) half a hex lower: the six neighbours.
    board.neighbours = (0..cols * rows)
        .map(|i| {
            let (c, r) = ((i % cols) as i32, (i / cols) as i32);
            let d: [(i32, i32); 6] = if c % 2 == 0 {
                [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)]
            } else {
                [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]
            };
            d.map(|(dc, dr)| {
                let (nc, nr) = (c + dc, r + dr);
                (nc >= 0 && nr >= 0).then(|| board.hex(nc as usize, nr as usize)).flatten()
            })
        })
        .collect();
    let hex_of = |s: &str, field: &str, board: &Board| -> Result<Hex, DataError> {
        board.parse_label(s).ok_or_else(|| {
            DataError::at_text(path, text, field, s, format!("field `{field}`: \"{s}\" is not a hex of the map (CCRR)"))
        })
    };
    let side_of = |s: &str, field: &str, board: &Board| -> Result<(Hex, Hex), DataError> {
        let (a, b) = s.split_once('/').ok_or_else(|| {
            DataError::at_text(path, text, field, s, format!("field `{field}`: \"{s}\" is not a hexside (CCRR/CCRR)"))
        })?;
        let (a, b) = (hex_of(a, field, board)?, hex_of(b, field, board)?);
        if !board.adjacent(a, b) {
            return Err(DataError::at_text(
                path,
                text,
                field,
                s,
                format!("field `{field}`: {s}: the two hexes are not adjacent"),
            ));
        }
        Ok((a, b))
    };
    let set = |board: &mut Board, a: Hex, b: Hex, v: Hexside| {
        for (x, y) in [(a, b), (b, a)] {
            if let Some(d) = board.neighbours[x.0 as usize].iter().position(|n| *n == Some(y)) {
                board.sides[x.0 as usize][d] = v;
            }
        }
    };
    for (name, hex) in &f.places {
        let h = hex_of(hex, "places", &board)?;
        if board.places.iter().any(|(n, p)| n == name || *p == h) {
            return Err(DataError::at_text(
                path,
                text,
                "places",
                name,
                format!("field `places`: \"{name}\" twice, or two places in hex {hex}"),
            ));
        }
        if !matches!(board.terrain(h), Terrain::City | Terrain::Fortress) {
            return Err(DataError::at_text(
                path,
                text,
                "places",
                hex,
                format!("field `places`: {name}'s hex {hex} is not a city"),
            ));
        }
        board.places.push((name.clone(), h));
    }
    for (name, sides) in &f.rivers {
        let mut list = Vec::new();
        for s in sides {
            let (a, b) = side_of(s, "rivers", &board)?;
            set(&mut board, a, b, Hexside::River);
            list.push((a, b));
        }
        board.rivers.push((name.clone(), list));
    }
    for (river, town, s) in &f.bridges {
        let (a, b) = side_of(s, "bridges", &board)?;
        if board.side(a, b) == Hexside::Open {
            return Err(DataError::at_text(
                path,
                text,
                "bridges",
                s,
                format!("field `bridges`: {s} ({town}) is not a river hexside"),
            ));
        }
        set(&mut board, a, b, Hexside::Bridge);
        board.bridges.push((river.clone(), town.clone(), a, b));
    }
    for (name, hex) in &f.passes {
        board.passes.push((name.clone(), hex_of(hex, "passes", &board)?));
    }
    for (name, hex) in &f.ranges {
        board.ranges.push((name.clone(), hex_of(hex, "ranges", &board)?));
    }
    // Distances to each side of the armistice line, breadth first over the grid.
    for side in Side::BOTH {
        let n = board.len();
        let mut dist = vec![u16::MAX; n];
        let mut frontier: Vec<Hex> = (0..n as u16)
            .map(Hex)
            .filter(|h| {
                let north = board.allied_side[h.0 as usize] || board.austria[h.0 as usize];
                north == (side == Side::Allied)
            })
            .collect();
        for h in &frontier {
            dist[h.0 as usize] = 0;
        }
        let mut d = 0;
        while !frontier.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for h in frontier {
                for (_, nb) in board.neighbours(h) {
                    if dist[nb.0 as usize] == u16::MAX {
                        dist[nb.0 as usize] = d;
                        next.push(nb);
                    }
                }
            }
            frontier = next;
        }
        board.from_side[side.index()] = dist;
    }
    Ok(board)
}

/// The seat that plays a side (the French first).
pub fn seat_of(side: Side) -> crate::engine::seats::SeatId {
    crate::engine::seats::SeatId(side.index() as u8)
}

/// The side a seat plays.
pub fn side_of(seat: crate::engine::seats::SeatId) -> Side {
    if seat.0 == 0 { Side::French } else { Side::Allied }
}
