//! One roll of the dice, whatever the game: who rolls, what for (the rule), the dice, each
//! modifier with its reason, the table and the place in it that was read, and the result. Every
//! roll a game's rules make is one of these in the log (`Entry::Roll`), as is a free roll from
//! the tray, so the window throws them all in the tray, and the broadcast, the feed and the
//! report read the last roll and every roll from here rather than from words.

use crate::engine::seats::SeatId;
use serde::{Deserialize, Serialize};

/// Where a roll was read on a chart or table: its name and the column and row consulted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Consulted {
    /// The chart's name, as the rulebook prints it ("Combat Results Table").
    pub name: String,
    /// The column read (the odds, the range), if the chart has columns.
    pub column: Option<String>,
    /// The row read (the modified die), if the chart has rows.
    pub row: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Roll {
    /// The seat that rolls: the one whose rule calls for the roll.
    pub seat: SeatId,
    /// The rule that calls for the roll, in the rulebook's words and section.
    pub rule: String,
    /// What the roll decides, in words that name only what every viewer may see.
    pub what: String,
    /// The dice as they fell, each 1 to 6.
    pub dice: Vec<u8>,
    /// Each modifier to the dice (or, at 0, a reason that moved the column) with its reason.
    pub modifiers: Vec<(i32, String)>,
    pub table: Option<Consulted>,
    /// The outcome in the rulebook's terms ("Dr", "arrives", "the ice holds").
    pub result: String,
}

impl Roll {
    /// A free roll of the tray: no rule, no table; the result is the dice.
    pub fn free(seat: SeatId, dice: Vec<u8>) -> Self {
        let result = dice.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ");
        Roll {
            seat,
            rule: "the dice tray".into(),
            what: "a free roll".into(),
            dice,
            modifiers: Vec::new(),
            table: None,
            result,
        }
    }

    /// Whether this is a free roll of the tray.
    pub fn is_free(&self) -> bool {
        self.table.is_none() && self.what == "a free roll"
    }

    /// The dice and the die modifiers added up.
    pub fn total(&self) -> i32 {
        self.dice.iter().map(|&d| d as i32).sum::<i32>() + self.modifiers.iter().map(|m| m.0).sum::<i32>()
    }

    /// The dice in words: "die 4", "dice 3 + 5".
    pub fn dice_words(&self) -> String {
        let list: Vec<String> = self.dice.iter().map(|v| v.to_string()).collect();
        match self.dice.len() {
            1 => format!("die {}", list[0]),
            _ => format!("dice {}", list.join(" + ")),
        }
    }

    /// The roll in one line of the log: "French rolls die 4 for the attack on Leipzig
    /// (Combat Results Table, column 200%): Dr [defenders out of supply: halved]".
    pub fn line(&self, seat_names: &[&str]) -> String {
        let who = seat_names.get(self.seat.0 as usize).copied().unwrap_or("?");
        if self.is_free() {
            return format!("{who} rolls {}", self.result);
        }
        let mut out = format!("{who} rolls {} for {}", self.dice_words(), self.what);
        let die: Vec<String> =
            self.modifiers.iter().filter(|m| m.0 != 0).map(|(v, why)| format!("{v:+} {why}")).collect();
        if !die.is_empty() {
            out += &format!(" ({}, total {})", die.join(", "), self.total());
        }
        if let Some(t) = &self.table {
            let place: Vec<&str> = [t.column.as_deref(), t.row.as_deref()].into_iter().flatten().collect();
            if place.is_empty() {
                out += &format!(" on the {}", t.name);
            } else {
                out += &format!(" on the {}, {}", t.name, place.join(", "));
            }
        }
        out += &format!(": {}", self.result);
        let reasons: Vec<&str> = self.modifiers.iter().filter(|m| m.0 == 0).map(|m| m.1.as_str()).collect();
        if !reasons.is_empty() {
            out += &format!(" [{}]", reasons.join("; "));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roll_in_words_names_the_dice_the_modifiers_the_table_and_the_result() {
        let r = Roll {
            seat: SeatId(0),
            rule: "Artillery".into(),
            what: "the V Corps 12-pounders' fire at (3, 6)".into(),
            dice: vec![3, 5],
            modifiers: vec![(1, "12-pounder".into()), (0, "range 2 spaces".into())],
            table: Some(Consulted {
                name: "Artillery Table".into(),
                column: Some("roll 9".into()),
                row: Some("range 2".into()),
            }),
            result: "R3".into(),
        };
        assert_eq!(r.total(), 9);
        assert_eq!(
            r.line(&["French", "Allied"]),
            "French rolls dice 3 + 5 for the V Corps 12-pounders' fire at (3, 6) (+1 12-pounder, total 9) on the Artillery Table, roll 9, range 2: R3 [range 2 spaces]"
        );
        assert_eq!(Roll::free(SeatId(1), vec![2, 6]).line(&["French", "Allied"]), "Allied rolls 2 6");
    }
}
