//! Saves: format version, scenario name and content hash, seed, mode and the action log, as RON.
//! Loading a save replays its log on the scenario it names.

use crate::engine::rules::{Game, Mode};
use crate::engine::scenario::{DataError, parse_ron, read_text};
use crate::engine::table::{Record, Table};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::path::{Path, PathBuf};

pub const FORMAT_VERSION: u32 = 1;

/// The scenario a save was played on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScenarioRef {
    /// The scenario's name, e.g. "Battle of the Nations 1813 — beginner game".
    pub name: String,
    /// Path of the scenario file, as given when the game began.
    pub path: PathBuf,
    /// Digest of the scenario's data, so a save is never replayed on changed data unnoticed.
    pub hash: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveFile<A> {
    pub format: u32,
    pub game: String,
    pub scenario: ScenarioRef,
    pub seed: u64,
    pub mode: Mode,
    pub log: Vec<Record<A>>,
}

impl<A: Serialize + DeserializeOwned> SaveFile<A> {
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new().depth_limit(3);
        ron::ser::to_string_pretty(self, config).expect("saves serialize")
    }

    /// Writes the save atomically (a temporary file renamed over the target).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let tmp = path.with_extension("ron.tmp");
        std::fs::write(&tmp, self.to_ron())?;
        std::fs::rename(tmp, path)
    }

    pub fn read(path: &Path) -> Result<Self, DataError> {
        let text = read_text(path)?;
        let save: Self = parse_ron(path, &text)?;
        if save.format != FORMAT_VERSION {
            return Err(DataError::at_text(
                path,
                &text,
                "",
                "format",
                format!(
                    "field `format`: save format {} is not supported (this build reads {FORMAT_VERSION})",
                    save.format
                ),
            ));
        }
        Ok(save)
    }
}

/// The save of a table: its game, scenario, seed, mode and log.
pub fn save_of<G: Game>(table: &Table<G>) -> SaveFile<G::Action> {
    SaveFile {
        format: FORMAT_VERSION,
        game: G::ID.to_string(),
        scenario: table.game.scenario(),
        seed: table.seed,
        mode: table.mode,
        log: table.records.clone(),
    }
}

/// Why a save could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    Data(DataError),
    /// A record of the log is illegal on this scenario: its index (from 0) and the reason.
    BadAction {
        index: usize,
        action: String,
        reason: String,
    },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Data(e) => write!(f, "{e}"),
            LoadError::BadAction { index, action, reason } => {
                write!(f, "action {} of the log ({action}) is illegal: {reason}", index + 1)
            }
        }
    }
}

/// Replays a save on the scenario it names, for any game: `load` reads the scenario file and
/// gives it with its content hash, `table_on` sets a new table on it. A relative scenario path is
/// looked up from the working directory, then next to the save; changed scenario data or an
/// illegal action of the log is refused, naming it.
pub fn load_save<G: Game, S>(
    save: &SaveFile<G::Action>,
    save_path: &Path,
    load: impl FnOnce(&Path) -> Result<(S, String), DataError>,
    table_on: impl FnOnce(S) -> Table<G>,
) -> Result<Table<G>, LoadError> {
    let mut scenario = save.scenario.path.clone();
    if scenario.is_relative()
        && !scenario.exists()
        && let Some(dir) = save_path.parent()
    {
        scenario = dir.join(&save.scenario.path);
    }
    let (sc, hash) = load(&scenario).map_err(LoadError::Data)?;
    if hash != save.scenario.hash {
        return Err(LoadError::Data(DataError::whole_file(
            save_path,
            format!(
                "field `scenario.hash`: the save was made on scenario data {} but {} now hashes to {hash}",
                save.scenario.hash,
                scenario.display(),
            ),
        )));
    }
    let mut table = table_on(sc);
    table.replay(save.log.iter().cloned()).map_err(|(index, record, e)| LoadError::BadAction {
        index,
        action: format!("{:?}", record.act),
        reason: e.to_string(),
    })?;
    Ok(table)
}

/// Whether a RON file is a save (it starts with the save's fields) rather than a scenario.
pub fn looks_like_save(text: &str) -> bool {
    let t = text.trim_start();
    let t = t.strip_prefix("SaveFile").unwrap_or(t).trim_start();
    t.starts_with('(') && t[1..].trim_start().starts_with("format")
}
