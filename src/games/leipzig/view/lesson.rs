//! Learn to play Leipzig 1813: the learner's first player-turn (deployment where the scenario
//! has one, reinforcements, the Movement Phase, the four segments of the Combat Phase), each
//! step with the rulebook's heading. It reads the learner's legal list and the public table.

use super::super::Leipzig;
use super::super::actions::{Action, rule};
use super::super::data::Side;
use super::super::rules::side_of;
use super::super::state::March;
use super::super::state::{Pending, Step};
use crate::engine::geometry::SpaceId;
use crate::engine::rules::Section;
use crate::engine::seats::SeatId;
use crate::table::lesson::Coach;

/// Whether the learner's first player-turn is over: the French move first in every Game-Turn,
/// so the French learner's ends when the Allies take the turn, the Allied learner's when the
/// next Game-Turn begins.
fn first_turn_over(game: &Leipzig, side: Side) -> bool {
    if matches!(game.step, Step::Deploy(_)) {
        return false;
    }
    game.turn > game.sc.first_turn || game.step == Step::Over || (side == Side::French && game.side == Side::Allied)
}

pub fn coach(game: &Leipzig, seat: SeatId, legal: &[Action]) -> Coach<Action> {
    let side = side_of(seat);
    if first_turn_over(game, side) {
        return Coach::Done;
    }
    if legal.is_empty() {
        return Coach::Waiting(format!(
            "Now {} (the computer). Your lesson goes on when the decision is yours again.",
            game.waiting_for()
        ));
    }
    let hexes = |f: &dyn Fn(&Action) -> Option<SpaceId>| -> Vec<SpaceId> {
        let mut v: Vec<SpaceId> = legal.iter().filter_map(f).collect();
        v.sort();
        v.dedup();
        v.truncate(6);
        v
    };
    let find = |f: fn(&Action) -> bool| legal.iter().find(|a| f(a));
    if let Some(p) = game.pending.first() {
        let (now, why, section) = match p {
            Pending::Retreat { .. } | Pending::Scatter { .. } => (
                "Retreat the stack: click a lit green hex.",
                "The combat result makes the defender retreat; its owner chooses the way, in the order of preference \
                 the rule gives.",
                rule::RETREAT.heading(),
            ),
            Pending::Advance { .. } => (
                "Advance into the hex the defender left, or stay.",
                "An attacker may advance into a hex its defender left after combat.",
                rule::COMBAT.heading(),
            ),
            Pending::Lose { .. } => (
                "Choose the counters that are lost.",
                "The owner chooses which of his counters take the loss.",
                rule::CRT.heading(),
            ),
        };
        let at = hexes(&|a| match a {
            Action::Retreat { to } => Some(SpaceId(to.0)),
            _ => None,
        });
        return Coach::step(now.to_string(), why, section, at, legal.first());
    }
    match game.step {
        Step::Deploy(_) => Coach::step(
            "Deploy your counters: drag each onto a lit hex of its set-up area, or take the scenario's set-up from \
             the Orders list."
                .to_string(),
            "Each scenario lists where each force starts; a counter may be placed in its group's hexes only.",
            rule::DEPLOYMENT.heading(),
            Vec::new(),
            find(|a| matches!(a, Action::DeployRest)),
        ),
        Step::Enter => Coach::step(
            "Bring your reinforcements in: drag each onto its lit entry hex, or bring the rest in from the Orders list."
                .to_string(),
            "Reinforcements arrive at their entry hexes at the start of their player-turn and may move at once.",
            rule::REINFORCEMENTS.heading(),
            hexes(&|a| match a {
                Action::Enter { hex, .. } => Some(SpaceId(hex.0)),
                _ => None,
            }),
            find(|a| matches!(a, Action::EnterRest)),
        ),
        Step::Move => {
            // A counter that may march within its allowance: where it may go is ringed.
            let first = legal.iter().find_map(|a| match a {
                Action::Move { unit, march: March::Normal, .. } => Some(*unit),
                _ => None,
            });
            match first {
                Some(u) => {
                    let from = game.units[u as usize].hex.map(|h| SpaceId(h.0));
                    let at = from
                        .into_iter()
                        .chain(hexes(&|a| match a {
                            Action::Move { unit, to, march: March::Normal, .. } if *unit == u => Some(SpaceId(to.0)),
                            _ => None,
                        }))
                        .collect();
                    Coach::step(
                        format!(
                            "Movement Phase: drag a counter, {} for one, to a lit hex (cyan within its allowance). \
                             End the Movement Phase in the Orders list when your counters stand where you want them.",
                            game.name(u)
                        ),
                        "Each counter moves up to its Movement Allowance; terrain and Enemy zones of control cost \
                         more, Enemy hexes may never be entered, and amber or red hexes are forced marches that roll \
                         on a table.",
                        rule::MOVEMENT.heading(),
                        at,
                        None,
                    )
                }
                None => Coach::step(
                    "Movement Phase: no counter can move further. End the Movement Phase in the Orders list.".to_string(),
                    "A counter moves once a phase, up to its Movement Allowance.",
                    rule::MOVEMENT.heading(),
                    Vec::new(),
                    find(|a| matches!(a, Action::EndMovement)),
                ),
            }
        }
        Step::March => Coach::step(
            "A forced march stands at its table: roll on, or halt where the counter is.".to_string(),
            "Marching beyond the Movement Allowance risks losses on the forced-march tables.",
            rule::FORCED_MARCH.heading(),
            Vec::new(),
            find(|a| matches!(a, Action::HaltMarch)),
        ),
        Step::Build => Coach::step(
            "Recombine stacked counters if you wish, then end the step.".to_string(),
            "Counters stacked at the end of movement may be built up into a larger one, or must be in supply.",
            rule::STACKING.heading(),
            Vec::new(),
            find(|a| matches!(a, Action::EndBuild)),
        ),
        Step::Declare => {
            let targets = hexes(&|a| match a {
                Action::Declare { target, .. } => Some(SpaceId(target.0)),
                _ => None,
            });
            let now = if targets.is_empty() {
                "No Enemy hex lies next to yours: end the declarations in the Orders list.".to_string()
            } else {
                "Combat Phase, I: click a ringed Enemy hex next to yours; the Combat panel shows the odds and the CRT \
                 column. Declare, or end the declarations."
                    .to_string()
            };
            Coach::step(
                now,
                "The attacker names every attack first and allocates supply to his attacking units; an unsupplied \
                 attacker fights at half strength.",
                rule::COMBAT.heading(),
                targets,
                find(|a| matches!(a, Action::EndDeclarations)),
            )
        }
        Step::RetreatBefore => Coach::step(
            "Combat Phase, II: your counters under attack may retreat before combat (a lit hex), or stay.".to_string(),
            "A defender may step back before the die is rolled, giving up the hex.",
            rule::RETREAT_BEFORE.heading(),
            Vec::new(),
            find(|a| matches!(a, Action::EndRetreats)),
        ),
        Step::DefendSupply => Coach::step(
            "Combat Phase, III: allocate supply to the attacked hex.".to_string(),
            "An unsupplied defender fights at half strength.",
            rule::SUPPLY.heading(),
            Vec::new(),
            legal.first(),
        ),
        Step::Resolve => Coach::step(
            "Combat Phase, IV: resolve an attack: the die is thrown in the tray and the result shows once it rests."
                .to_string(),
            "The attacker resolves his attacks one by one, in the order he chooses; the die and the odds column \
             give the result on the Combat Results Table.",
            rule::CRT.heading(),
            Vec::new(),
            find(|a| matches!(a, Action::Resolve { .. })),
        ),
        Step::Consume => Coach::step(
            "Choose the supply unit each stack uses up.".to_string(),
            "Stacked combat units must use up a supply unit every Game-Turn to stay together.",
            rule::SUPPLY.heading(),
            Vec::new(),
            legal.first(),
        ),
        Step::Over => Coach::Done,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Game;
    use crate::table::lesson::{LESSON_SEED, coach_of, walk_lesson};

    /// Game Turn Sequence: the lesson follows the French player-turn of scenario 1 from the
    /// Movement Phase to the Combat Phase, ringing a counter and where it may go, and ends when the
    /// Allies take the turn. Every order it suggests is legal; moves are made as a player would
    /// (the first legal move of the ringed counter).
    #[test]
    fn sequence_the_lesson_walks_the_french_player_turn() {
        let path = std::path::Path::new("scenarios/leipzig-1813/1-historical-situation.ron");
        let mut t = super::super::super::new_table(path, LESSON_SEED).expect("scenario 1 loads");
        let me = t.game.active_seat().expect("a first decision");
        let mut moves = 0;
        // The defender's segments are the other seat's: its first legal choice.
        let seen = walk_lesson(
            &mut t,
            me,
            |mut legal| legal.swap_remove(0),
            |t, l| {
                if moves == 5 {
                    return Action::EndMovement;
                }
                moves += 1;
                assert!(l.at.len() >= 2, "the counter and where it may go are ringed: {:?}", l.at);
                let mut legal = Vec::new();
                t.game.legal_actions(t.mode, &mut legal);
                legal.into_iter().find(|a| matches!(a, Action::Move { .. })).expect("a move")
            },
        );
        assert_eq!(coach_of(&t, me), Coach::Done, "the lesson ends with the French player-turn");
        assert!(seen.iter().any(|s| s == rule::MOVEMENT.heading()), "{seen:?}");
        assert!(seen.iter().any(|s| s == rule::COMBAT.heading() || s == rule::CRT.heading()), "{seen:?}");
    }
}
