//! Reading game data from RON: every error names the file, the line, the column and the field,
//! so a bad scenario or save is refused with a message a person can act on.

use serde::de::DeserializeOwned;
use std::fmt;
use std::path::{Path, PathBuf};

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

impl DataError {
    /// An error about a whole file (it is missing, unreadable, or a value has no single place).
    pub fn whole_file(file: &Path, message: impl Into<String>) -> Self {
        Self { file: file.to_path_buf(), line: 1, column: 1, message: message.into() }
    }

    /// An error about a value whose text is `needle`: points at its first appearance after
    /// `after` (the text of an enclosing entry), so a bad reference names its line.
    pub fn at_text(file: &Path, text: &str, after: &str, needle: &str, message: impl Into<String>) -> Self {
        let start = text.find(after).unwrap_or(0);
        let offset = text[start..].find(needle).map(|i| i + start).unwrap_or(start);
        let (line, column) = line_col(text, offset);
        Self { file: file.to_path_buf(), line, column, message: message.into() }
    }
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rfind('\n').map(|i| before.len() - i).unwrap_or(before.len() + 1);
    (line, column)
}

pub fn read_text(path: &Path) -> Result<String, DataError> {
    std::fs::read_to_string(path).map_err(|e| DataError::whole_file(path, format!("cannot read: {e}")))
}

/// Parses RON text into `T`; a syntax error or a missing, unknown or mistyped field is reported
/// with its position.
pub fn parse_ron<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, DataError> {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME).from_str(text).map_err(
        |e| DataError {
            file: path.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        },
    )
}

pub fn load_ron<T: DeserializeOwned>(path: &Path) -> Result<(T, String), DataError> {
    let text = read_text(path)?;
    let value = parse_ron(path, &text)?;
    Ok((value, text))
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
