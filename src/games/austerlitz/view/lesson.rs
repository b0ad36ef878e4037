//! Learn to play Austerlitz: the Allied set-up and the Allies' first turn (artillery fire,
//! movement and combat unit by unit, field artillery, commands), each step with the rulebook's
//! heading. It reads the learner's legal list and the public table.

use super::super::Austerlitz;
use super::super::actions::{Action, rule};
use super::super::data::Side;
use super::super::state::{Pending, Step};
use crate::engine::geometry::SpaceId;
use crate::engine::rules::Section;
use crate::engine::seats::SeatId;
use crate::table::lesson::Coach;

/// The Allies set up first, then the French, then the Allies begin turn 1: the Allied learner's
/// first turn ends when the French take turn 1, the French learner's with turn 1.
fn first_turn_over(game: &Austerlitz, side: Side) -> bool {
    match side {
        _ if game.step == Step::Over => true,
        Side::Allied => game.turn > 1 || (game.turn == 1 && game.side == Side::French),
        Side::French => game.turn > 1,
    }
}

pub fn coach(game: &Austerlitz, seat: SeatId, legal: &[Action]) -> Coach<Action> {
    let side = if seat.0 == Side::Allied.index() as u8 { Side::Allied } else { Side::French };
    if first_turn_over(game, side) {
        return Coach::Done;
    }
    if legal.is_empty() {
        return Coach::Waiting(
            "The other side decides now (the computer). Your lesson goes on when the decision is yours again."
                .to_string(),
        );
    }
    let board = &game.sc.board;
    let space = |c: (i32, i32)| SpaceId(board.index(c) as u16);
    let find = |f: fn(&Action) -> bool| legal.iter().find(|a| f(a));
    let cells = |f: &dyn Fn(&Action) -> Option<(i32, i32)>| -> Vec<SpaceId> {
        let mut v: Vec<SpaceId> = legal.iter().filter_map(f).map(space).collect();
        v.sort();
        v.dedup();
        v.truncate(8);
        v
    };
    match game.pending.first() {
        Some(Pending::Retreat { .. }) => {
            return Coach::step(
                "Choose the loser's line of retreat and its new front.".to_string(),
                "The winner of a combat retreats the loser in a straight line, among the least damaging ways.",
                rule::RETREAT.heading(),
                Vec::new(),
                legal.first(),
            );
        }
        Some(Pending::Faced { .. }) => {
            return Coach::step(
                "Your unit faces enemy infantry: attack it now, or leave it and take its fire.".to_string(),
                "A unit that moves into the front of enemy infantry without attacking it may be fired at.",
                rule::REACTIONS.heading(),
                Vec::new(),
                legal.first(),
            );
        }
        Some(Pending::AttackReactions { .. }) | Some(Pending::OpportunityFire { .. }) => {
            return Coach::step(
                "React to the enemy's move: fire, counter-charge, or let it pass.".to_string(),
                "The player whose turn it is not may answer an attack or a move into a unit's front.",
                rule::REACTIONS.heading(),
                Vec::new(),
                find(|a| matches!(a, Action::Decline)),
            );
        }
        None => {}
    }
    match game.step {
        Step::Setup => Coach::step(
            "Set up: drag each unit into its sectors on your side of the red border, or take the historical set-up \
             from the Orders list."
                .to_string(),
            "Each command's units start in the sectors the scenario gives it, at most two units a space.",
            rule::SETUP.heading(),
            Vec::new(),
            find(|a| matches!(a, Action::DeployRest)),
        ),
        Step::Fire => {
            let targets = cells(&|a| match a {
                Action::Fire { target, .. } => Some(*target),
                _ => None,
            });
            let now = if targets.is_empty() {
                "Step 1, artillery fire: no gun has a target. End the fire in the Orders list.".to_string()
            } else {
                "Step 1, artillery fire: click a gun, then a ringed target in its field of fire, or end the fire."
                    .to_string()
            };
            Coach::step(
                now,
                "Guns fire first, at what lies in their field of fire and line of sight.",
                rule::ARTILLERY.heading(),
                targets,
                find(|a| matches!(a, Action::EndFire)),
            )
        }
        Step::Move => {
            let first = legal.iter().find_map(|a| match a {
                Action::Move { unit, .. } => Some(*unit),
                _ => None,
            });
            let (now, at) = match first {
                Some(u) => {
                    let from = game.units[u as usize].at.map(space);
                    let to = cells(&|a| match a {
                        Action::Move { unit, to, .. } if *unit == u => Some(*to),
                        _ => None,
                    });
                    (
                        format!(
                            "Step 2, movement: drag a unit, {} for one, to a lit space (Q/E turn it in hand, F forms a \
                             square); click an enemy next to it to attack. End the movement in the Orders list.",
                            game.name(u as usize)
                        ),
                        from.into_iter().chain(to).collect(),
                    )
                }
                None => {
                    ("Step 2, movement: no unit can move. End the movement in the Orders list.".to_string(), Vec::new())
                }
            };
            Coach::step(
                now,
                "Units move one by one, through their front, up to their movement factor; terrain, formation and \
                 facing change the cost, and combat comes as a unit meets the enemy.",
                rule::MOVEMENT.heading(),
                at,
                find(|a| matches!(a, Action::EndMovement)),
            )
        }
        Step::ArtilleryMove => Coach::step(
            "Step 3: move field artillery, or end the step.".to_string(),
            "Field artillery moves after the other units, and may not fire in the turn it moves.",
            rule::ARTILLERY.heading(),
            Vec::new(),
            find(|a| matches!(a, Action::EndArtillery)),
        ),
        Step::Commands => Coach::step(
            "Step 4: move your command markers, then end the turn.".to_string(),
            "Commands move last; a unit out of its command's reach fights less well.",
            rule::PHASES.heading(),
            Vec::new(),
            find(|a| matches!(a, Action::EndTurn)),
        ),
        Step::Over => Coach::Done,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Game;
    use crate::table::lesson::{LESSON_SEED, coach_of, walk_lesson};

    /// The Phases of a game turn: the lesson takes the Allies through their set-up and every step
    /// of their first turn (the French set-up, the computer's, played here by its first legal
    /// choice), each order it frames legal, and ends when the French take turn 1.
    #[test]
    fn phases_the_lesson_walks_the_allied_set_up_and_first_turn() {
        let path = std::path::Path::new("scenarios/austerlitz/1-historical.ron");
        let mut t = super::super::super::new_table(path, LESSON_SEED).expect("scenario 1 loads");
        let me = t.game.active_seat().expect("the Allies set up first");
        let seen = walk_lesson(
            &mut t,
            me,
            |mut legal| legal.iter().find(|a| matches!(a, Action::DeployRest)).cloned().unwrap_or(legal.swap_remove(0)),
            |_, _| panic!("every step of this turn offers an order to end it or to take"),
        );
        assert_eq!(coach_of(&t, me), Coach::Done);
        assert_eq!(t.game.turn, 1);
        for s in [rule::SETUP.heading(), rule::ARTILLERY.heading(), rule::MOVEMENT.heading(), rule::PHASES.heading()] {
            assert!(seen.iter().any(|x| x == s), "{s} not taught: {seen:?}");
        }
    }
}
