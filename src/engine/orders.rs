//! Standing orders (issue 32): between two of its own turns a seat is asked questions by the
//! other's play (retreat before combat, supply for the defence, a reaction, which field takes a
//! hit). A seat away for days may leave, for each kind of question, an answer the host applies on
//! its behalf: a rule of the game's (`retreat-from:300`, `stand`) or the computer at a level
//! (`computer:strong`), always deciding on that seat's view. An order that no longer fits (an
//! answer the rules would refuse, odds the seat cannot know) is not applied: the question waits.

use std::collections::BTreeMap;

/// A kind of question a game asks a seat during the other's turn, and the answers of its own a
/// standing order may give besides the computer's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuestionKind {
    /// Its name in orders (`retreat-before-combat`).
    pub kind: &'static str,
    /// What is asked, in words.
    pub words: &'static str,
    /// The game's own answers: each a name (with `:N` where it takes a number) and its words.
    pub answers: &'static [(&'static str, &'static str)],
}

/// A seat's standing orders: an answer for each kind of question it leaves one for.
pub type Orders = BTreeMap<String, String>;

/// The answer every kind takes: the computer at a level decides, on the seat's view.
pub const COMPUTER: &str = "computer:LEVEL";

/// The most orders one seat leaves (one per kind; no game asks more kinds).
pub const MAX_ORDERS: usize = 32;

/// A standing answer split into its name and its number (`retreat-from:300` → `retreat-from`,
/// 300).
pub fn split(answer: &str) -> (&str, Option<&str>) {
    match answer.split_once(':') {
        Some((name, n)) => (name, Some(n)),
        None => (answer, None),
    }
}

/// Checks a seat's orders against the game's kinds of question: each kind the game's, each
/// answer the computer at one of `levels` or one of the kind's own (with its number where it
/// takes one).
pub fn check(orders: &Orders, kinds: &[QuestionKind], levels: &[&str]) -> Result<(), String> {
    if orders.len() > MAX_ORDERS {
        return Err(format!("at most {MAX_ORDERS} standing orders"));
    }
    for (kind, answer) in orders {
        let Some(k) = kinds.iter().find(|k| k.kind == kind) else {
            let known: Vec<&str> = kinds.iter().map(|k| k.kind).collect();
            let kind: String = kind.chars().take(60).collect();
            return Err(if known.is_empty() {
                "this game asks no questions during the other seat's turn".to_string()
            } else {
                format!("`{kind}` is not a question of this game (it asks: {})", known.join(", "))
            });
        };
        let (name, n) = split(answer);
        let fits = if name == "computer" {
            n.is_some_and(|l| levels.contains(&l) && l != "random")
        } else {
            k.answers.iter().any(|(a, _)| {
                let (a_name, a_n) = split(a);
                a_name == name && a_n.is_some() == n.is_some() && n.is_none_or(|n| n.parse::<u32>().is_ok())
            })
        };
        if !fits {
            let mut offered: Vec<&str> = k.answers.iter().map(|(a, _)| *a).collect();
            offered.push(COMPUTER);
            let answer: String = answer.chars().take(60).collect();
            return Err(format!("`{answer}` does not answer {kind} (it takes {})", offered.join(", ")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINDS: &[QuestionKind] = &[QuestionKind {
        kind: "retreat-before-combat",
        words: "retreat before combat",
        answers: &[("stand", "never"), ("retreat-from:N", "from N%")],
    }];

    fn orders(pairs: &[(&str, &str)]) -> Orders {
        pairs.iter().map(|(k, a)| (k.to_string(), a.to_string())).collect()
    }

    #[test]
    fn an_order_names_a_question_of_the_game_and_one_of_its_answers() {
        let levels = ["random", "beginner", "strong"];
        for good in ["stand", "retreat-from:300", "computer:strong"] {
            check(&orders(&[("retreat-before-combat", good)]), KINDS, &levels).unwrap();
        }
        for bad in ["retreat-from", "retreat-from:x", "stand:3", "computer:random", "computer:godlike", "flee"] {
            let e = check(&orders(&[("retreat-before-combat", bad)]), KINDS, &levels).unwrap_err();
            assert!(e.contains("does not answer") && e.contains(COMPUTER), "{bad}: {e}");
        }
        let e = check(&orders(&[("reaction", "stand")]), KINDS, &levels).unwrap_err();
        assert!(e.contains("asks: retreat-before-combat"), "{e}");
        assert!(check(&orders(&[("x", "stand")]), &[], &levels).unwrap_err().contains("asks no questions"));
    }
}
