//! Saves: format version, scenario name and content hash, seed, mode and the action log, as RON.
//! Loading a save replays its log on the scenario it names.

use crate::engine::rules::Mode;
use crate::engine::scenario::{DataError, parse_ron, read_text};
use crate::engine::table::Record;
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

/// Whether a RON file is a save (it starts with the save's fields) rather than a scenario.
pub fn looks_like_save(text: &str) -> bool {
    let t = text.trim_start();
    let t = t.strip_prefix("SaveFile").unwrap_or(t).trim_start();
    t.starts_with('(') && t[1..].trim_start().starts_with("format")
}
