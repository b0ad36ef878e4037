//! Where a game stands, in numbers: the turn and the score its status line says in words. The
//! broadcast, the feed, the report and the replay's marks read these, never the words.

use std::fmt;

/// The turn and the score of a table, as its status line words them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    /// The game's word for a turn and the turn's number ("Turn" 3, "Round" 2).
    pub turn: Option<(&'static str, u32)>,
    pub score: Option<Score>,
}

/// A score: the game's word for its points ("VP", "points") and each side's, in seat order.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    pub word: &'static str,
    pub sides: Vec<(&'static str, f32)>,
}

impl Score {
    /// Two sides' points under the game's word for them.
    pub fn two(word: &'static str, a: (&'static str, f32), b: (&'static str, f32)) -> Score {
        Score { word, sides: vec![a, b] }
    }

    /// Each side's points, in seat order.
    pub fn points(&self) -> Vec<f32> {
        self.sides.iter().map(|(_, p)| *p).collect()
    }
}

/// "VP French 3 – Allied 1": the score as the status line and the broadcast show it.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.word)?;
        for (k, (side, points)) in self.sides.iter().enumerate() {
            write!(f, "{}{side} {points}", if k == 0 { " " } else { " – " })?;
        }
        Ok(())
    }
}

impl Standing {
    /// "Turn 3", "Round 2": the turn in the game's own word.
    pub fn turn_label(&self) -> Option<String> {
        self.turn.map(|(word, n)| format!("{word} {n}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_reads_as_the_status_line_words_it() {
        let s = Score::two("points", ("French", 2.5), ("Allied", 4.0));
        assert_eq!(s.to_string(), "points French 2.5 – Allied 4");
        assert_eq!(s.points(), vec![2.5, 4.0]);
        let t = Standing { turn: Some(("Round", 2)), score: None };
        assert_eq!(t.turn_label().as_deref(), Some("Round 2"));
    }
}
