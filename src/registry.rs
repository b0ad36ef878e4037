//! The list of games on the table: the command line, the window and the tests look a game up by
//! its id (the `game` field that scenarios and saves carry, or the scenario folder's name). Adding
//! a game is adding its folder under `src/games/` (its rules, its view and its `Kit`) and one line
//! to `GAMES`.

use crate::engine::entry::GameEntry;
use crate::engine::scenario::{DataError, probe_game_id, read_text};
use crate::registered::Registered;
use std::path::Path;

/// The games on the table, the default first.
pub static GAMES: &[&dyn GameEntry] = &[
    &Registered::<crate::games::botn::Botn>::ENTRY,
    &Registered::<crate::games::vg::Vg>::ENTRY,
    &Registered::<crate::games::leipzig::Leipzig>::ENTRY,
    &Registered::<crate::games::austerlitz::Austerlitz>::ENTRY,
];

pub fn by_id(id: &str) -> Option<&'static dyn GameEntry> {
    GAMES.iter().copied().find(|g| g.id() == id)
}

/// The game a scenario or save file belongs to: its `game` field, or for a part file without
/// one, the name of the folder it lies in.
pub fn game_of(file: &Path, text: &str) -> Result<&'static dyn GameEntry, DataError> {
    let id = match probe_game_id(text) {
        Some(id) => id,
        None => file
            .canonicalize()
            .ok()
            .and_then(|p| p.parent().and_then(|d| d.file_name()).map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default(),
    };
    by_id(&id).ok_or_else(|| {
        let known: Vec<_> = GAMES.iter().map(|g| g.id()).collect();
        DataError::at_text(
            file,
            text,
            "",
            "game",
            format!("field `game`: `{id}` is not a game Grognard knows (it knows {})", known.join(", ")),
        )
    })
}

/// Reads a file and finds its game.
pub fn open(file: &Path) -> Result<(&'static dyn GameEntry, String), String> {
    let text = read_text(file).map_err(|e| e.to_string())?;
    let game = game_of(file, &text).map_err(|e| e.to_string())?;
    Ok((game, text))
}
