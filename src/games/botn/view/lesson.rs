//! Learn to play Battle of the Nations: Napoléon's preparation and first turn, step by step,
//! with the rulebook's section for each (the beginner's game). It reads the learner's legal
//! list and the public table (step, turn, actions left, markers on the board).

use super::super::state::{Step, side_of};
use super::super::{Action, Botn};
use crate::engine::geometry::SpaceId;
use crate::engine::seats::SeatId;
use crate::table::lesson::Coach;

pub fn coach(game: &Botn, seat: SeatId, legal: &[Action]) -> Coach<Action> {
    let side = side_of(seat);
    if game.had_first_turn[side.index()] {
        return Coach::Done;
    }
    if legal.is_empty() {
        return Coach::Waiting(format!(
            "{} decides now (the computer). Your lesson goes on when the decision is yours again.",
            game.active.name()
        ));
    }
    let first = |f: fn(&Action) -> bool| legal.iter().find(|a| f(a));
    match game.step {
        Step::MissionDraft => {
            if let Some(a) = first(|a| matches!(a, Action::DraftDistrict(_))) {
                return Coach::step(
                    "Take a second mission card from a district.",
                    "Napoléon holds one secret mission from each district and takes a second card from two of them: a \
                     mission is a field he scores for holding at the end, so choose districts where your missions can \
                     lie close together.",
                    "Preparation",
                    Vec::new(),
                    Some(a),
                );
            }
            let fields: Vec<SpaceId> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::KeepMission(m) => Some(game.sc.missions[*m as usize].field),
                    _ => None,
                })
                .collect();
            Coach::step(
                "Keep one of the two mission cards you drew.",
                "The other card leaves the game. The ringed fields are the two missions' fields: keep the one nearer \
                 your other missions. The Allies never see which you kept until the time bar makes you reveal it.",
                "Preparation",
                fields,
                first(|a| matches!(a, Action::KeepMission(_))),
            )
        }
        Step::Actions => {
            let left = format!("{} of your 5 actions left this turn.", game.actions_left);
            if !game.army_card_this_turn
                && let Some(a) = first(|a| matches!(a, Action::LayOutArmyCard { skip, .. } if skip.is_empty()))
            {
                let villages = match a {
                    Action::LayOutArmyCard { army, .. } => game.sc.armies[*army as usize].villages.clone(),
                    _ => Vec::new(),
                };
                return Coach::step(
                    format!("Lay out an army card. {left}"),
                    "Its troop markers go onto the villages it names (ringed): the army is somewhere among them. In the \
                     first turn an army card must be laid out before a terrain, movement or scout card may be played.",
                    "Game Play, 1. Lay out an Army Card (and note [2])",
                    villages,
                    Some(a),
                );
            }
            if let Some(a @ Action::PlayMovementCard { marker, to, .. }) =
                first(|a| matches!(a, Action::PlayMovementCard { .. }))
            {
                let from = game.markers[*marker as usize].at;
                return Coach::step(
                    format!("Move a troop marker: drag it along a road to a lit field. {left}"),
                    "A movement card moves one marker of the unit types it shows by one field, never onto an army or a \
                     marker of its own army; each one moves the time indicator a point towards the fights of 16.10. \
                     and 18.10. When one marker of an army is left, the army is placed there.",
                    "Game Play, 3. Play a Movement Card",
                    from.into_iter().chain([*to]).collect(),
                    Some(a),
                );
            }
            if let Some(a) = first(|a| matches!(a, Action::DrawFaceUp { .. } | Action::DrawBlind)) {
                return Coach::step(
                    format!("Draw an action card. {left}"),
                    "No card in your hand can be played now: draw one from the face-up row or the blind pile. You may \
                     hold 8 cards at the end of your turn.",
                    "Game Play, 7. Draw an Action Card",
                    Vec::new(),
                    Some(a),
                );
            }
            Coach::step(
                format!("Choose one of the listed actions. {left}"),
                "Each turn has five actions, in any order and as often as you like.",
                "Game Play - Beginner's Game",
                Vec::new(),
                legal.first(),
            )
        }
        Step::PlaceArmy => Coach::step(
            "Choose which army is placed on this field.",
            "Two armies have their last marker on one field, and only one army may stand on a field.",
            "Further rules; Place armies",
            Vec::new(),
            legal.first(),
        ),
        Step::ChooseUnit => Coach::step(
            "Choose the unit type of the army just placed.",
            "Napoléon and Schwarzenberg lead all three units: the moment they are placed their player chooses one.",
            "Further rules",
            Vec::new(),
            legal.first(),
        ),
        Step::Discard => Coach::step(
            "Discard down to 8 cards.",
            "No player may hold more than 8 cards (action and scout cards) at the end of a turn.",
            "Game Play, 7. Draw an Action Card",
            Vec::new(),
            legal.first(),
        ),
        _ => Coach::step(
            "Choose one of the listed orders.",
            "",
            "Game Play - Beginner's Game",
            Vec::new(),
            legal.first(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Game, Mode};
    use crate::table::lesson::LESSON_SEED;

    fn beginner() -> crate::engine::table::Table<Botn> {
        super::super::super::new_table(
            std::path::Path::new("scenarios/battle-of-the-nations/beginner.ron"),
            LESSON_SEED,
            Mode::Enforced,
        )
        .expect("the beginner game loads")
    }

    /// Preparation: the lesson asks for the districts' draft, then a keep with both missions'
    /// fields ringed; the order it frames is legal (the rules check it as always).
    #[test]
    fn preparation_the_lesson_drafts_and_keeps_missions() {
        let mut t = beginner();
        let me = t.game.active_seat().expect("Napoléon starts");
        let mut kept = 0;
        while t.game.step == Step::MissionDraft {
            let Coach::Step(l) = crate::table::lesson::coach_of(&t, me) else { panic!("a step in the preparation") };
            assert_eq!(l.section, "Preparation");
            let pick = l.pick.expect("a suggested order");
            if matches!(pick, Action::KeepMission(_)) {
                assert_eq!(l.at.len(), 2, "both missions' fields ringed");
                kept += 1;
            }
            t.submit(me, crate::engine::table::Act::Game(pick)).expect("the lesson's order is legal");
        }
        assert_eq!(kept, 2, "two districts drafted, one card kept of each");
    }

    /// Game Play, note [2]: in the first turn the lesson asks for an army card first, ringing
    /// its villages, and the turn's end ends the lesson.
    #[test]
    fn first_turn_the_lesson_lays_out_an_army_card_first_and_ends_with_the_turn() {
        let mut t = beginner();
        let me = t.game.active_seat().unwrap();
        let mut sections = Vec::new();
        for _ in 0..200 {
            match crate::table::lesson::coach_of(&t, me) {
                Coach::Done => break,
                Coach::Waiting(_) => panic!("Napoléon's first turn is his own"),
                Coach::Step(l) => {
                    if sections.is_empty() && t.game.step == Step::Actions {
                        assert!(l.section.contains("1. Lay out an Army Card"), "{}", l.section);
                        assert!(!l.at.is_empty(), "the army card's villages ringed");
                    }
                    if t.game.step == Step::Actions {
                        sections.push(l.section.clone());
                    }
                    t.submit(me, crate::engine::table::Act::Game(l.pick.expect("an order"))).expect("legal");
                }
            }
        }
        assert!(t.game.had_first_turn[0], "the lesson ran to the end of the first turn");
        assert_eq!(crate::table::lesson::coach_of(&t, me), Coach::Done);
        assert!(sections.iter().any(|s| s.contains("3. Play a Movement Card")), "{sections:?}");
    }
}
