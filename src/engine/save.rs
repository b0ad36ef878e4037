//! Saves: format version, scenario name and content hash, seed, mode and the action log, as RON.
//! Loading a save replays its log on the scenario it names.

use crate::engine::rules::{Game, Mode};
use crate::engine::scenario::{DataError, parse_ron, read_text};
use crate::engine::table::{Record, Table};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::path::{Path, PathBuf};

pub const FORMAT_VERSION: u32 = 1;

pub use crate::engine::scenario::ScenarioRef;

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

    /// Writes the save atomically and privately (see `scenario::write_private`).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        crate::engine::scenario::write_private(path, &self.to_ron()).map(|_| ())
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
        mode: table.began,
        log: table.records.clone(),
    }
}

/// What one seat may take away from a table during play: no seed and no action log (replayed,
/// they would give every secret back), only the table as that seat may see it now.
#[derive(Serialize)]
pub struct SeatSave<'a, V> {
    pub format: u32,
    pub game: &'a str,
    pub scenario: ScenarioRef,
    pub viewer: crate::engine::seats::Viewer,
    /// How many actions the game has had.
    pub actions: usize,
    pub view: &'a V,
}

/// A seat's save of a table, through `viewer`'s eyes (`Game::observe`), as RON.
pub fn seat_save_of<G: Game>(table: &Table<G>, viewer: crate::engine::seats::Viewer) -> String {
    let view = table.game.observe(viewer);
    let save = SeatSave {
        format: FORMAT_VERSION,
        game: G::ID,
        scenario: table.game.scenario(),
        viewer,
        actions: table.records.len(),
        view: &view,
    };
    ron::ser::to_string_pretty(&save, ron::ser::PrettyConfig::new().depth_limit(4)).expect("views serialize")
}

/// The table a save file holds, replayed by the game's own `load`; errors name the file.
pub fn replay_file<G: Game>(
    path: &Path,
    load: impl FnOnce(&SaveFile<G::Action>, &Path) -> Result<Table<G>, LoadError>,
) -> Result<Table<G>, String> {
    let save = SaveFile::<G::Action>::read(path).map_err(|e| e.to_string())?;
    load(&save, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// A seat's save of the game a save file holds, replayed by the game's own `load`.
pub fn seat_save_file<G: Game>(
    path: &Path,
    seat: &str,
    load: impl FnOnce(&SaveFile<G::Action>, &Path) -> Result<Table<G>, LoadError>,
) -> Result<String, String> {
    let table = replay_file(path, load)?;
    let viewer = viewer_named(&table.game, seat)?;
    Ok(seat_save_of(&table, viewer))
}

/// The eyes of a seat named on the command line (by the game's seat names, any case), or of a
/// spectator.
pub fn viewer_named<G: Game>(game: &G, name: &str) -> Result<crate::engine::seats::Viewer, String> {
    use crate::engine::seats::{SeatId, Viewer};
    if name.eq_ignore_ascii_case("spectator") {
        return Ok(Viewer::Spectator);
    }
    let names = game.seat_names();
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(name))
        .map(|i| Viewer::Seat(SeatId(i as u8)))
        .ok_or_else(|| format!("--seat {name}: expected {} or spectator", names.join(", ").to_lowercase()))
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

/// The longest log a save may carry: far above any real game (a game of Battle of the Nations
/// is under 200 actions, one of Victory & Glory under 400), so no save can make a replay run for
/// minutes.
pub const MAX_LOG: usize = 20_000;

/// The scenario a save names, found by content rather than by the path written in it: among the
/// `.ron` files of `dirs` (the game's scenario folder, then the save's own folder for a custom
/// scenario), the first that `load` accepts and whose data hashes as the save says. The path in
/// the save is only a hint of which file to try first; it is never opened as given, so a save
/// cannot make the program read a file of its choosing, and a save moved to another folder or
/// machine still loads.
pub fn find_scenario<A, S>(
    save: &SaveFile<A>,
    save_path: &Path,
    dirs: &[PathBuf],
    load: impl Fn(&Path) -> Result<(S, String), DataError>,
) -> Result<S, LoadError> {
    let hint = save.scenario.path.file_name().map(|n| n.to_os_string());
    let mut candidates: Vec<PathBuf> = Vec::new();
    // Each file's real path, resolved once: comparing every candidate with every other through
    // `canonicalize` was quadratic (a save beside 2,000 files took seconds of `readlink`).
    let mut seen: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))
            .collect();
        // The file the save names first, then the rest in name order.
        files.sort_by_key(|p| (p.file_name().map(|n| n.to_os_string()) != hint, p.clone()));
        for f in files {
            if seen.insert(f.canonicalize().unwrap_or_else(|_| f.clone())) {
                candidates.push(f);
            }
        }
    }
    let mut same_name_other_data = None;
    for path in &candidates {
        let Ok(text) = read_text(path) else { continue };
        if looks_like_save(&text) || !text.contains("game:") {
            continue; // a save or a part file
        }
        let Ok((sc, hash)) = load(path) else { continue };
        if hash == save.scenario.hash {
            return Ok(sc);
        }
        if path.file_name().map(|n| n.to_os_string()) == hint && same_name_other_data.is_none() {
            same_name_other_data = Some((path.clone(), hash));
        }
    }
    let message = match same_name_other_data {
        Some((path, hash)) => format!(
            "field `scenario.hash`: the save was made on scenario data {} but {} now hashes to {hash}",
            save.scenario.hash,
            path.display()
        ),
        None => format!(
            "field `scenario`: no scenario \"{}\" with data {} in {}",
            crate::engine::scenario::excerpt(&save.scenario.name),
            crate::engine::scenario::excerpt(&save.scenario.hash),
            dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(" or ")
        ),
    };
    Err(LoadError::Data(DataError::whole_file(save_path, message)))
}

/// Replays a save on the scenario it names, for any game: `dirs` are where its scenario may be
/// (see `find_scenario`), `load` reads a scenario file and gives it with its content hash,
/// `table_on` sets a new table on it. A log longer than `MAX_LOG` or an illegal action in it is
/// refused, naming it.
pub fn load_save<G: Game, S>(
    save: &SaveFile<G::Action>,
    save_path: &Path,
    dirs: &[PathBuf],
    load: impl Fn(&Path) -> Result<(S, String), DataError>,
    table_on: impl FnOnce(S) -> Table<G>,
) -> Result<Table<G>, LoadError> {
    if save.log.len() > MAX_LOG {
        return Err(LoadError::Data(DataError::whole_file(
            save_path,
            format!("field `log`: {} actions; a save holds at most {MAX_LOG}", save.log.len()),
        )));
    }
    if save.game != G::ID {
        return Err(LoadError::Data(DataError::whole_file(
            save_path,
            format!(
                "field `game`: this is a save of `{}`, not `{}`",
                crate::engine::scenario::excerpt(&save.game),
                G::ID
            ),
        )));
    }
    let sc = find_scenario(save, save_path, dirs, load)?;
    let mut table = table_on(sc);
    table.replay(save.log.iter().cloned()).map_err(|(index, record, e)| LoadError::BadAction {
        index,
        action: crate::engine::scenario::excerpt(&format!("{:?}", record.act)),
        reason: e.to_string(),
    })?;
    Ok(table)
}

/// Where a game's saves look for their scenario: the game's folder under the scenarios root,
/// then the save's own folder.
pub fn scenario_dirs(game_id: &str, save_path: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![crate::engine::scenario::scenarios_root().join(game_id)];
    let here = save_path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    dirs.push(here.to_path_buf());
    dirs
}

/// Whether a RON file is a save (it starts with the save's fields) rather than a scenario.
pub fn looks_like_save(text: &str) -> bool {
    let t = text.trim_start();
    let t = t.strip_prefix("SaveFile").unwrap_or(t).trim_start();
    t.starts_with('(') && t[1..].trim_start().starts_with("format")
}
