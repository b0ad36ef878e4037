//! Battle of the Nations 1813's data as read from `scenarios/battle-of-the-nations/*.ron`, checked
//! and turned into index form. Nothing about the board, the armies or the decks is hard-coded.

use crate::engine::digest::digest_bytes;
use crate::engine::geometry::{AreaGraph, SpaceId};
use crate::engine::scenario::{DataError, Provenance, check_range, expect_game, load_ron, part_file};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The four kinds of terrain of Battle of the Nations (a field's terrain, a terrain card).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Terrain {
    Plain,
    River,
    Forest,
    Hill,
}

impl Terrain {
    pub const ALL: [Terrain; 4] = [Terrain::Plain, Terrain::River, Terrain::Forest, Terrain::Hill];
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Plain => "plain",
            Terrain::River => "river",
            Terrain::Forest => "forest",
            Terrain::Hill => "hill",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Side {
    French,
    Allied,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::French => Side::Allied,
            Side::Allied => Side::French,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::French => "Napoléon (French)",
            Side::Allied => "Schwarzenberg (Allied)",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum UnitType {
    Infantry,
    Cavalry,
    Artillery,
    /// Napoléon and Schwarzenberg: any type until placed, then the player chooses.
    All,
}

impl UnitType {
    pub fn name(self) -> &'static str {
        match self {
            UnitType::Infantry => "infantry",
            UnitType::Cavalry => "cavalry",
            UnitType::Artillery => "artillery",
            UnitType::All => "all arms",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum District {
    North,
    South,
    West,
    Center,
    East,
}

impl District {
    pub const ALL: [District; 5] = [District::North, District::South, District::West, District::Center, District::East];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Variant {
    Beginner,
    Advanced,
}

/// An action card's face.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ActionCard {
    Terrain(Terrain),
    /// Moves a marker of one of these unit types.
    Move(Vec<UnitType>),
    /// Moves a marker of this army only.
    MoveArmy(String),
    Time,
}

impl ActionCard {
    pub fn title(&self) -> String {
        match self {
            ActionCard::Terrain(t) => format!("Terrain: {}", t.name()),
            ActionCard::Move(units) => {
                format!("Move: {}", units.iter().map(|u| u.name()).collect::<Vec<_>>().join("/"))
            }
            ActionCard::MoveArmy(a) => format!("Move: {a}"),
            ActionCard::Time => "Time".to_string(),
        }
    }
}

// ---- The files as written ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    name: String,
    game: String,
    variant: Variant,
    board: String,
    armies: String,
    cards: String,
    tracks: String,
    aids: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardFile {
    provenance: Provenance,
    fields: Vec<FieldDef>,
    adjacency_provenance: Provenance,
    adjacency: Vec<(String, String)>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FieldDef {
    pub name: String,
    pub terrain: Terrain,
    pub district: District,
    /// Kilometres east and north of the centre of Leipzig.
    pub pos: (f32, f32),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmiesFile {
    provenance: Provenance,
    armies: Vec<ArmyDef>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyDef {
    pub card: u8,
    pub name: String,
    pub side: Side,
    pub unit: UnitType,
    pub strength: u8,
    pub markers: u8,
    pub villages: Vec<String>,
    #[serde(default)]
    pub date: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardsFile {
    missions_provenance: Provenance,
    missions: Vec<MissionDef>,
    actions_provenance: Provenance,
    actions: Vec<CardCount>,
    scout_cards: u8,
    scout_provenance: Provenance,
    minus_one_chips: u8,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MissionDef {
    pub district: District,
    pub field: String,
    pub french: u8,
    pub allied: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardCount {
    card: ActionCard,
    count: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TracksFile {
    time_provenance: Provenance,
    time: Vec<TimeSpace>,
    victory_points_provenance: Provenance,
    victory_points: u8,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TimeSpace {
    pub label: String,
    #[serde(default)]
    pub date: Option<String>,
    #[serde(default)]
    pub reveals_mission: bool,
    #[serde(default)]
    pub fight: bool,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AidsFile {
    pub actions_provenance: Provenance,
    pub actions: Vec<String>,
    pub terrain_values_provenance: Provenance,
    pub terrain_values: Vec<TerrainValues>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainValues {
    pub terrain: Terrain,
    pub artillery: i8,
    pub infantry: i8,
    pub cavalry: i8,
}

// ---- The checked scenario ----

/// An army with its card, its villages resolved to fields.
#[derive(Clone, Debug)]
pub struct Army {
    pub def: ArmyDef,
    pub villages: Vec<SpaceId>,
    /// Index on the time bar that must have been passed before the card may be laid out.
    pub date_index: Option<u8>,
}

#[derive(Clone, Debug)]
pub struct Mission {
    pub def: MissionDef,
    pub field: SpaceId,
}

/// Where each list of the scenario came from, shown in the game.
#[derive(Clone, Debug)]
pub struct Provenances {
    pub board: Provenance,
    pub adjacency: Provenance,
    pub armies: Provenance,
    pub missions: Provenance,
    pub actions: Provenance,
    pub scouts: Provenance,
    pub time: Provenance,
    pub victory_points: Provenance,
}

/// Battle of the Nations' scenario, checked: every name resolves, every count is in range.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    pub path: PathBuf,
    pub variant: Variant,
    /// Digest of all the files' text, recorded in saves.
    pub hash: String,
    pub fields: Vec<FieldDef>,
    pub graph: AreaGraph,
    pub armies: Vec<Army>,
    pub missions: Vec<Mission>,
    /// The action deck, one entry per physical card.
    pub action_cards: Vec<ActionCard>,
    /// Each action card's face, as the number of the first card of the deck with that face: the
    /// legal lists tell identical cards apart many times an action, and comparing two numbers
    /// is cheaper than comparing two faces.
    pub faces: Vec<CardFace>,
    pub scout_cards: u8,
    pub minus_one_chips: u8,
    pub time: Vec<TimeSpace>,
    pub victory_points: u8,
    pub aids: AidsFile,
    pub provenance: Provenances,
}

pub const GAME_ID: &str = "battle-of-the-nations";

/// An action card's face: the number of the deck's first card with it (`Scenario::faces`).
pub type CardFace = u8;

/// The most armies, troop markers, cards of a kind and spaces of a bar (their numbers are 8-bit).
pub const MAX_PIECES: usize = 250;
/// The most fields of a board.
pub const MAX_FIELDS: usize = 1_000;
/// The largest strength, marker count or village count of an army.
pub const MAX_VALUE: u8 = 20;

impl Scenario {
    /// Loads a scenario file and the files it names (paths relative to it).
    pub fn load(path: &Path) -> Result<Scenario, DataError> {
        let (file, scenario_text): (ScenarioFile, String) = load_ron(path)?;
        expect_game(path, &scenario_text, &file.game, GAME_ID)?;
        let part = |field: &str, name: &str| part_file(path, &scenario_text, field, name);
        let board_path = part("board", &file.board)?;
        let armies_path = part("armies", &file.armies)?;
        let cards_path = part("cards", &file.cards)?;
        let tracks_path = part("tracks", &file.tracks)?;
        let (board, board_text): (BoardFile, String) = load_ron(&board_path)?;
        let (armies, armies_text): (ArmiesFile, String) = load_ron(&armies_path)?;
        let (cards, cards_text): (CardsFile, String) = load_ron(&cards_path)?;
        let (tracks, tracks_text): (TracksFile, String) = load_ron(&tracks_path)?;
        let (aids, aids_text): (AidsFile, String) = load_ron(&part("aids", &file.aids)?)?;

        // Fields: unique names.
        let mut by_name: HashMap<&str, SpaceId> = HashMap::new();
        for (i, f) in board.fields.iter().enumerate() {
            if by_name.insert(f.name.as_str(), SpaceId(i as u16)).is_some() {
                return Err(DataError::at_text(
                    &board_path,
                    &board_text,
                    "fields",
                    &format!("\"{}\"", f.name),
                    format!("field `name`: \"{}\" appears twice", f.name),
                ));
            }
        }
        let field_of = |name: &str, file: &Path, text: &str, after: &str, what: &str| {
            by_name.get(name).copied().ok_or_else(|| {
                DataError::at_text(
                    file,
                    text,
                    after,
                    &format!("\"{name}\""),
                    format!("field `{what}`: no field named \"{name}\" on the board"),
                )
            })
        };
        let mut edges = Vec::new();
        for (a, b) in &board.adjacency {
            let after = format!("(\"{a}\", \"{b}\")");
            edges.push((
                field_of(a, &board_path, &board_text, &after, "adjacency")?,
                field_of(b, &board_path, &board_text, &after, "adjacency")?,
            ));
        }
        let graph = AreaGraph::from_edges(board.fields.len(), &edges);
        if let Some(lonely) = (0..graph.len()).find(|&i| graph.neighbours(SpaceId(i as u16)).is_empty()) {
            let name = &board.fields[lonely].name;
            return Err(DataError::at_text(
                &board_path,
                &board_text,
                "fields",
                &format!("\"{name}\""),
                format!("field `adjacency`: \"{name}\" has no neighbour"),
            ));
        }

        let dates: Vec<Option<&str>> = tracks.time.iter().map(|t| t.date.as_deref()).collect();
        let mut army_list = Vec::new();
        for def in &armies.armies {
            let after = format!("name: \"{}\"", def.name);
            let mut villages = Vec::new();
            for v in &def.villages {
                villages.push(field_of(v, &armies_path, &armies_text, &after, "villages")?);
            }
            if def.villages.is_empty() || def.markers == 0 || def.strength == 0 {
                return Err(DataError::at_text(
                    &armies_path,
                    &armies_text,
                    "",
                    &after,
                    format!("army \"{}\": villages, markers and strength must each be at least one", def.name),
                ));
            }
            let date_index = match &def.date {
                None => None,
                Some(d) => Some(dates.iter().position(|x| *x == Some(d.as_str())).ok_or_else(|| {
                    DataError::at_text(
                        &armies_path,
                        &armies_text,
                        &after,
                        &format!("\"{d}\""),
                        format!("field `date`: \"{d}\" is not a date on the time bar"),
                    )
                })? as u8),
            };
            army_list.push(Army { def: def.clone(), villages, date_index });
        }
        let mut missions = Vec::new();
        for def in &cards.missions {
            let field = field_of(&def.field, &cards_path, &cards_text, "missions", "field")?;
            missions.push(Mission { def: def.clone(), field });
        }
        for d in District::ALL {
            let n = missions.iter().filter(|m| m.def.district == d).count();
            if n < 2 {
                return Err(DataError::at_text(
                    &cards_path,
                    &cards_text,
                    "",
                    "missions:",
                    format!("field `missions`: district {d:?} needs at least 2 mission cards, has {n}"),
                ));
            }
        }
        let mut action_cards = Vec::new();
        for c in &cards.actions {
            if let ActionCard::MoveArmy(name) = &c.card
                && !army_list.iter().any(|a| &a.def.name == name)
            {
                return Err(DataError::at_text(
                    &cards_path,
                    &cards_text,
                    "actions",
                    &format!("\"{name}\""),
                    format!("field `card`: no army named \"{name}\""),
                ));
            }
            action_cards.extend(std::iter::repeat_n(c.card.clone(), c.count as usize));
        }
        if action_cards.len() < 8 {
            return Err(DataError::at_text(
                &cards_path,
                &cards_text,
                "",
                "actions:",
                "field `actions`: the deck needs at least 8 cards (4 in each hand at the start)",
            ));
        }
        if tracks.time.len() < 2 || tracks.time.iter().filter(|t| t.date.is_some()).count() == 0 {
            return Err(DataError::at_text(
                &tracks_path,
                &tracks_text,
                "",
                "time:",
                "field `time`: the time bar needs dates",
            ));
        }

        // Ranges the rules and the id types can hold (far beyond the printed game's), and a time bar
        // that ends: a space after its last date.
        let whole = |file: &Path, text: &str, needle: &str, message: String| {
            Err(DataError::at_text(file, text, "", needle, message))
        };
        if board.fields.len() > MAX_FIELDS {
            return whole(&board_path, &board_text, "fields:", format!("field `fields`: at most {MAX_FIELDS}"));
        }
        if army_list.len() > MAX_PIECES / 2 {
            return whole(&armies_path, &armies_text, "armies:", format!("field `armies`: at most {}", MAX_PIECES / 2));
        }
        let markers: usize = army_list.iter().map(|a| a.def.markers as usize).sum();
        if markers > MAX_PIECES {
            let message = format!("field `markers`: {markers} troop markers in all; marker numbers hold {MAX_PIECES}");
            return whole(&armies_path, &armies_text, "markers", message);
        }
        for a in &army_list {
            let after = format!("name: \"{}\"", a.def.name);
            let (strength, count) = (a.def.strength, a.def.markers);
            check_range(&armies_path, &armies_text, &after, "strength", "strength", strength, 1, MAX_VALUE)?;
            check_range(&armies_path, &armies_text, &after, "markers", "markers", count, 1, MAX_VALUE)?;
        }
        let vp = tracks.victory_points;
        check_range(&tracks_path, &tracks_text, "", "victory_points:", "victory_points", vp, 1, MAX_PIECES as u8)?;
        if missions.len() > MAX_PIECES || action_cards.len() > MAX_PIECES {
            return whole(&cards_path, &cards_text, "actions:", format!("field `actions`: at most {MAX_PIECES} cards"));
        }
        for m in &missions {
            let after = format!("field: \"{}\"", m.def.field);
            check_range(&cards_path, &cards_text, &after, "french", "french", m.def.french, 0, vp)?;
            check_range(&cards_path, &cards_text, &after, "allied", "allied", m.def.allied, 0, vp)?;
        }
        check_range(&cards_path, &cards_text, "", "scout_cards", "scout_cards", cards.scout_cards, 0, MAX_VALUE * 5)?;
        let chips = cards.minus_one_chips;
        check_range(&cards_path, &cards_text, "", "minus_one_chips", "minus_one_chips", chips, 0, MAX_VALUE * 5)?;
        if tracks.time.len() > MAX_PIECES || tracks.time.last().is_some_and(|t| t.date.is_some()) {
            let message = "field `time`: the time bar ends with a space after its last date (the game ends there)";
            return whole(&tracks_path, &tracks_text, "time:", message.to_string());
        }
        for r in &aids.terrain_values {
            let after = format!("terrain: {:?}", r.terrain);
            for v in [r.artillery, r.infantry, r.cavalry] {
                check_range(
                    &part("aids", &file.aids)?,
                    &aids_text,
                    &after,
                    &v.to_string(),
                    "terrain value",
                    v,
                    -10,
                    10,
                )?;
            }
        }

        let hash = digest_bytes(
            [scenario_text, board_text, armies_text, cards_text, tracks_text, aids_text].concat().as_bytes(),
        );
        let faces = action_cards
            .iter()
            .map(|card| action_cards.iter().position(|c| c == card).expect("the card itself") as CardFace)
            .collect();
        Ok(Scenario {
            name: file.name,
            path: path.to_path_buf(),
            variant: file.variant,
            hash,
            fields: board.fields,
            graph,
            armies: army_list,
            missions,
            action_cards,
            faces,
            scout_cards: cards.scout_cards,
            minus_one_chips: cards.minus_one_chips,
            time: tracks.time,
            victory_points: tracks.victory_points,
            aids,
            provenance: Provenances {
                board: board.provenance,
                adjacency: board.adjacency_provenance,
                armies: armies.provenance,
                missions: cards.missions_provenance,
                actions: cards.actions_provenance,
                scouts: cards.scout_provenance,
                time: tracks.time_provenance,
                victory_points: tracks.victory_points_provenance,
            },
        })
    }

    pub fn field_id(&self, name: &str) -> Option<SpaceId> {
        self.fields.iter().position(|f| f.name == name).map(|i| SpaceId(i as u16))
    }

    pub fn field_name(&self, id: SpaceId) -> &str {
        &self.fields[id.0 as usize].name
    }

    pub fn army_id(&self, name: &str) -> Option<usize> {
        self.armies.iter().position(|a| a.def.name == name)
    }

    /// Index on the time bar of the end space (the first after the last date).
    pub fn last_date_index(&self) -> usize {
        self.time.iter().rposition(|t| t.date.is_some()).unwrap_or(0)
    }

    pub fn terrain_value(&self, terrain: Terrain, unit: UnitType) -> i8 {
        let row = self.aids.terrain_values.iter().find(|r| r.terrain == terrain);
        match (row, unit) {
            (Some(r), UnitType::Artillery) => r.artillery,
            (Some(r), UnitType::Infantry) => r.infantry,
            (Some(r), UnitType::Cavalry) => r.cavalry,
            _ => 0,
        }
    }
}

/// The default game's file: the beginner scenario.
pub const DEFAULT_SCENARIO: &str = "beginner.ron";

/// The default game: the beginner scenario.
pub fn default_scenario_path() -> PathBuf {
    crate::engine::scenario::scenarios_root().join(GAME_ID).join(DEFAULT_SCENARIO)
}
