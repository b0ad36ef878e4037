//! Reading game data from RON: every error names the file, the line, the column and the field,
//! so a bad scenario or save is refused with a message a person can act on.

use serde::de::DeserializeOwned;
use std::fmt;
use std::path::{Path, PathBuf};

/// The scenario a table is set on, as a save names it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScenarioRef {
    /// The scenario's name, e.g. "Battle of the Nations 1813 — beginner game".
    pub name: String,
    /// Path of the scenario file, as given when the game began.
    pub path: PathBuf,
    /// Digest of the scenario's data, so a save is never replayed on changed data unnoticed.
    pub hash: String,
}

/// A data file that could not be used, with where the problem is.
#[derive(Clone, Debug, PartialEq)]
pub struct DataError {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file.display(), self.line, self.column, self.message)
    }
}

impl std::error::Error for DataError {}

/// The largest scenario, part or save file read (far above any real one: a whole game's save is
/// a few kilobytes), so no file can make the program read without end.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// The longest quote of the input an error message carries.
pub const MAX_QUOTE: usize = 160;

/// `s` cut to `MAX_QUOTE` characters, marked where cut: errors never repeat their input in full.
pub fn excerpt(s: &str) -> String {
    match s.char_indices().nth(MAX_QUOTE) {
        None => s.to_string(),
        Some((i, _)) => format!("{}…", &s[..i]),
    }
}

impl DataError {
    /// An error about a whole file (it is missing, unreadable, or a value has no single place).
    pub fn whole_file(file: &Path, message: impl Into<String>) -> Self {
        Self { file: file.to_path_buf(), line: 1, column: 1, message: excerpt(&message.into()) }
    }

    /// An error about a value whose text is `needle`: points at its first appearance after
    /// `after` (the text of an enclosing entry), so a bad reference names its line.
    pub fn at_text(file: &Path, text: &str, after: &str, needle: &str, message: impl Into<String>) -> Self {
        let start = text.find(after).unwrap_or(0);
        let offset = text[start..].find(needle).map(|i| i + start).unwrap_or(start);
        let (line, column) = line_col(text, offset);
        Self { file: file.to_path_buf(), line, column, message: excerpt(&message.into()) }
    }
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rfind('\n').map(|i| before.len() - i).unwrap_or(before.len() + 1);
    (line, column)
}

/// Reads a data file: only a regular file (never a device, a FIFO or a directory, which could
/// block or never end) of at most `MAX_FILE_BYTES`, as UTF-8.
pub fn read_text(path: &Path) -> Result<String, DataError> {
    use std::io::Read;
    let fail = |why: String| DataError::whole_file(path, why);
    // Checked before opening: opening a FIFO would wait for a writer.
    let meta = std::fs::metadata(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    if !meta.is_file() {
        return Err(fail("cannot read: not a regular file".to_string()));
    }
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    // And again on what was opened, in case the name was swapped in between.
    let opened = file.metadata().map_err(|e| fail(format!("cannot read: {e}")))?;
    if !opened.is_file() {
        return Err(fail("cannot read: not a regular file".to_string()));
    }
    if opened.len() > MAX_FILE_BYTES {
        return Err(fail(format!("the file is {} bytes; at most {MAX_FILE_BYTES} are read", opened.len())));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| fail(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(fail(format!("the file is over {MAX_FILE_BYTES} bytes")));
    }
    String::from_utf8(bytes).map_err(|_| fail("cannot read: the file is not UTF-8 text".to_string()))
}

/// Writes `text` to `path` safely: into a new temporary file in the same folder (created, never
/// opened through a link left there, readable by its owner only), then renamed over `path`.
pub fn write_private(path: &Path, text: &str) -> std::io::Result<std::fs::File> {
    use std::io::Write;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    // A stale or planted entry of that name is removed, never followed (removing a link removes
    // the link itself).
    let _ = std::fs::remove_file(&tmp);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&tmp)?;
    let written = file.write_all(text.as_bytes()).and_then(|_| file.sync_all());
    if let Err(e) = written.and_then(|_| std::fs::rename(&tmp, path)) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(file)
}

/// Parses RON text into `T`; a syntax error or a missing, unknown or mistyped field is reported
/// with its position.
pub fn parse_ron<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, DataError> {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME).from_str(text).map_err(
        |e| DataError {
            file: path.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: excerpt(&e.code.to_string()),
        },
    )
}

pub fn load_ron<T: DeserializeOwned>(path: &Path) -> Result<(T, String), DataError> {
    let text = read_text(path)?;
    let value = parse_ron(path, &text)?;
    Ok((value, text))
}

/// Refuses `value` outside `lo..=hi`: a number a game's rules and id types can hold, pointing at
/// `needle` (the value's text) after `after` (its entry's text) in `text`.
#[allow(clippy::too_many_arguments)]
pub fn check_range<T: PartialOrd + fmt::Display>(
    file: &Path,
    text: &str,
    after: &str,
    needle: &str,
    field: &str,
    value: T,
    lo: T,
    hi: T,
) -> Result<(), DataError> {
    if value < lo || value > hi {
        return Err(DataError::at_text(
            file,
            text,
            after,
            needle,
            format!("field `{field}`: {value} is out of range ({lo} to {hi})"),
        ));
    }
    Ok(())
}

/// The part file a scenario names in `field`, next to the scenario: a plain `.ron` file name, so
/// a scenario can never make the program read a file outside its own folder.
pub fn part_file(scenario: &Path, text: &str, field: &str, name: &str) -> Result<PathBuf, DataError> {
    let plain = Path::new(name).file_name().is_some_and(|n| n == name) && name.ends_with(".ron") && name != ".ron";
    if !plain {
        return Err(DataError::at_text(
            scenario,
            text,
            field,
            name,
            format!("field `{field}`: \"{}\" must be a .ron file name in the scenario's folder", excerpt(name)),
        ));
    }
    let path = scenario.parent().unwrap_or(Path::new(".")).join(name);
    // A missing part is the scenario's error, at the field that names it.
    if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
        return Err(DataError::at_text(
            scenario,
            text,
            field,
            name,
            format!("field `{field}`: no file \"{}\" beside the scenario", excerpt(name)),
        ));
    }
    Ok(path)
}

/// Refuses a scenario written for another game, pointing at its `game` field.
pub fn expect_game(path: &Path, text: &str, game: &str, expected: &str) -> Result<(), DataError> {
    if game == expected {
        return Ok(());
    }
    Err(DataError::at_text(
        path,
        text,
        "game",
        game,
        format!("field `game`: this is a scenario for `{game}`, not `{expected}`"),
    ))
}

/// Where a list's values come from: the printed rulebook, or a reconstruction with its reason.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Provenance {
    Rulebook(String),
    Reconstructed(String),
}

impl Provenance {
    pub fn is_reconstructed(&self) -> bool {
        matches!(self, Provenance::Reconstructed(_))
    }

    pub fn label(&self) -> String {
        match self {
            Provenance::Rulebook(s) => format!("rulebook: {s}"),
            Provenance::Reconstructed(s) => format!("reconstructed: {s}"),
        }
    }
}

/// The scenarios folder next to the working directory (or `$GROGNARD_SCENARIOS`), one folder
/// per game id.
pub fn scenarios_root() -> std::path::PathBuf {
    std::env::var_os("GROGNARD_SCENARIOS").map(std::path::PathBuf::from).unwrap_or_else(|| {
        let here = std::path::PathBuf::from("scenarios");
        if here.exists() { here } else { std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios") }
    })
}

/// The `game` field of a scenario's or a save's text, if it has one.
pub fn probe_game_id(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Probe {
        game: Option<String>,
    }
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str::<Probe>(text)
        .ok()
        .and_then(|p| p.game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Field {
        name: String,
        strength: u8,
    }

    #[test]
    fn a_missing_field_names_its_line() {
        let text = "[\n  (name: \"a\", strength: 1),\n  (name: \"b\"),\n]";
        let err = parse_ron::<Vec<Field>>(Path::new("x.ron"), text).unwrap_err();
        assert_eq!(err.line, 3, "{err}");
        assert!(err.message.contains("strength"), "{err}");
        assert!(err.to_string().starts_with("x.ron:3:"), "{err}");
    }

    #[test]
    fn line_col_counts_from_one() {
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("ab", 0), (1, 1));
    }
}
