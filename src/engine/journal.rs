//! The autosave journal: a header line, then one line per applied action (or undo), each written
//! and synced to disk before the next action is taken, so killing the process loses nothing that
//! was applied. A torn last line (the process died mid-write) is dropped on reading.

use crate::engine::save::SaveFile;
use crate::engine::scenario::DataError;
use crate::engine::table::Record;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One journal line after the header.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum JournalLine<A> {
    Applied(Record<A>),
    Undo,
}

pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Starts a new journal for a game, replacing any old one; `header.log` is written as well.
    pub fn create<A: Serialize + DeserializeOwned + Clone>(path: &Path, header: &SaveFile<A>) -> std::io::Result<Self> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let head = header.clone_header();
        let mut text = ron::to_string(&head).expect("header serializes");
        text.push('\n');
        for record in &header.log {
            text += &ron::to_string(&JournalLine::Applied(record.clone())).expect("record serializes");
            text.push('\n');
        }
        // A new private file renamed into place; the handle stays open for appending.
        let file = crate::engine::scenario::write_private(path, &text)?;
        Ok(Self { path: path.to_path_buf(), file })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn append<A: Serialize>(&mut self, line: &JournalLine<A>) -> std::io::Result<()> {
        let mut text = ron::to_string(line).expect("journal lines serialize");
        text.push('\n');
        self.file.write_all(text.as_bytes())?;
        self.file.sync_data()
    }

    /// Reads a journal back as a save (undos folded in). Lines after the header that cannot be
    /// parsed are an error unless it is the last line, which a kill may have cut short.
    pub fn read<A: Serialize + DeserializeOwned + Clone>(path: &Path) -> Result<SaveFile<A>, DataError> {
        let text = crate::engine::scenario::read_text(path)?;
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).peekable();
        let (_, head) = lines.next().ok_or_else(|| DataError::whole_file(path, "the journal is empty"))?;
        let mut save: SaveFile<A> = crate::engine::scenario::parse_ron(path, head)?;
        while let Some((index, line)) = lines.next() {
            match ron::from_str::<JournalLine<A>>(line) {
                Ok(JournalLine::Applied(record)) => save.log.push(record),
                Ok(JournalLine::Undo) => {
                    save.log.pop();
                }
                Err(_) if lines.peek().is_none() && !text.ends_with('\n') => break,
                Err(e) => {
                    return Err(DataError {
                        file: path.to_path_buf(),
                        line: index + 1,
                        column: e.span.start.col,
                        message: e.code.to_string(),
                    });
                }
            }
        }
        Ok(save)
    }
}

impl<A> SaveFile<A> {
    /// The save without its log (the journal writes the log a line at a time).
    fn clone_header(&self) -> Self {
        Self {
            format: self.format,
            game: self.game.clone(),
            scenario: self.scenario.clone(),
            seed: self.seed,
            mode: self.mode,
            log: Vec::new(),
        }
    }
}

/// Where the window keeps its journal: `$GROGNARD_HOME`, else `$XDG_DATA_HOME/grognard`, else
/// `~/.local/share/grognard`.
pub fn default_journal_path() -> PathBuf {
    let dir = std::env::var_os("GROGNARD_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_DATA_HOME").map(|d| PathBuf::from(d).join("grognard")))
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/grognard")))
        .unwrap_or_else(|| PathBuf::from(".grognard"));
    dir.join("journal.ron")
}
