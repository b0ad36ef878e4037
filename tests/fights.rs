//! "Fight (16.10. and 18.10.)": the rulebook's fight examples 1 to 5 laid out on Grognard's map,
//! and a test for each rule of the section.
mod common;
use common::*;
use grognard::engine::rules::Game;
use grognard::engine::table::{Act, Table};
use grognard::games::botn::data::Side;
use grognard::games::botn::rules::Event;
use grognard::games::botn::state::Step;
use grognard::games::botn::{Action, Botn};

/// Lays the named armies out on fields found by `layout`, with the given strengths.
fn lay(t: &mut Table<Botn>, armies: &[(&str, i8)], adj: &[(usize, usize)], apart: &[(usize, usize)]) -> Vec<u8> {
    let fields = layout(t, armies.len(), adj, apart);
    armies
        .iter()
        .zip(fields)
        .map(|(&(name, strength), f)| {
            let a = army(t, name);
            place(t, a, f, strength);
            a
        })
        .collect()
}

fn strength(t: &Table<Botn>, a: u8) -> i8 {
    t.game.armies[a as usize].strength
}

/// Napoléon's last action of the turn on 16.10.: the fight follows.
fn end_turn_on_fight_date(t: &mut Table<Botn>) {
    last_french_action_at(t, "16.10.");
    t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap();
}

#[test]
fn example_1_two_armies_lose_one_point_each() {
    // Fight example 1: Poniatowski and Yorck stand next to each other, no other armies near:
    // both lose one point.
    let mut t = after_draft(1);
    let a = lay(&mut t, &[("Poniatowski", 3), ("Yorck", 4)], &[(0, 1)], &[]);
    end_turn_on_fight_date(&mut t);
    assert_eq!((strength(&t, a[0]), strength(&t, a[1])), (2, 3));
    assert!(t.game.armies[a[0] as usize].flipped && t.game.armies[a[1] as usize].flipped);
    // "After the fight, it's the other player's turn."
    assert_eq!((t.game.step, t.game.active), (Step::Actions, Side::Allied));
}

#[test]
fn example_2_one_army_facing_two_loses_two_and_the_french_choose() {
    // Fight example 2: Yorck faces Poniatowski and Bertrand: Yorck loses two points; the French
    // lose one in total and their player decides which army.
    for choice in 0..2 {
        let mut t = after_draft(2);
        let a = lay(&mut t, &[("Yorck", 4), ("Poniatowski", 3), ("Bertrand", 3)], &[(0, 1), (0, 2)], &[]);
        end_turn_on_fight_date(&mut t);
        assert_eq!(t.game.step, Step::Fight);
        assert_eq!(t.game.active_seat(), Some(FRENCH), "the French player allocates Yorck's point");
        let options = legal(&t);
        assert_eq!(
            options,
            vec![
                Action::AllocateHit { attacker: a[0], target: a[1] },
                Action::AllocateHit { attacker: a[0], target: a[2] }
            ]
        );
        t.submit(FRENCH, Act::Game(options[choice].clone())).unwrap();
        assert_eq!(strength(&t, a[0]), 2, "Yorck loses two points");
        let french_lost = (3 - strength(&t, a[1])) + (3 - strength(&t, a[2]));
        assert_eq!(french_lost, 1);
        assert_eq!(strength(&t, a[1 + choice]), 2, "the chosen army takes the point");
    }
}

#[test]
fn example_3_armies_without_enemy_contact_do_not_fight() {
    // Fight example 3: Yorck faces only Poniatowski; Bertrand, next to Poniatowski but not to any
    // Allied army, is not involved.
    let mut t = after_draft(3);
    let a = lay(&mut t, &[("Yorck", 4), ("Poniatowski", 3), ("Bertrand", 3)], &[(0, 1), (1, 2)], &[(0, 2)]);
    end_turn_on_fight_date(&mut t);
    assert_eq!(t.game.step, Step::Actions, "no choice to make");
    assert_eq!((strength(&t, a[0]), strength(&t, a[1]), strength(&t, a[2])), (3, 2, 3));
}

#[test]
fn example_4_each_army_attacks_once_and_the_defender_allocates() {
    // Fight example 4: Bertrand touches only Yorck; Murat touches Yorck, Schwarzenberg and
    // Friedrich. The Allies lose 2 points, the French 3.
    let mut t = after_draft(4);
    let a = lay(
        &mut t,
        &[("Bertrand", 3), ("Murat", 4), ("Yorck", 4), ("Schwarzenberg", 5), ("Friedrich", 2)],
        &[(0, 2), (1, 2), (1, 3), (1, 4)],
        &[(0, 3), (0, 4)],
    );
    let (bertrand, murat, yorck, schwarzenberg, friedrich) = (a[0], a[1], a[2], a[3], a[4]);
    end_turn_on_fight_date(&mut t);
    // Yorck's point "can either go to Bertrand or Murat (the player of the French can choose)".
    assert_eq!(t.game.active_seat(), Some(FRENCH));
    assert_eq!(
        legal(&t),
        vec![
            Action::AllocateHit { attacker: yorck, target: bertrand },
            Action::AllocateHit { attacker: yorck, target: murat }
        ]
    );
    t.submit(FRENCH, Act::Game(Action::AllocateHit { attacker: yorck, target: bertrand })).unwrap();
    // "The Allied player may therefore choose which of his 3 Armies receives the damage caused by Murat."
    assert_eq!(t.game.active_seat(), Some(ALLIED));
    assert_eq!(legal(&t).len(), 3);
    // A point may only go to an army the attacker touches: refused, naming the rule, table untouched.
    let digest = t.digest();
    let err = t.submit(ALLIED, Act::Game(Action::AllocateHit { attacker: murat, target: army(&t, "Langeron") }));
    assert_eq!(err.unwrap_err().rule(), Some("Fight (16.10. and 18.10.)"));
    assert_eq!(t.digest(), digest);
    t.submit(ALLIED, Act::Game(Action::AllocateHit { attacker: murat, target: schwarzenberg })).unwrap();
    // Bertrand's point went straight to Yorck; Schwarzenberg's and Friedrich's straight to Murat.
    let lost = |a: u8, printed: i8| printed - strength(&t, a);
    assert_eq!(lost(yorck, 4) + lost(schwarzenberg, 5) + lost(friedrich, 2), 2, "the Allies lose 2 points");
    assert_eq!(lost(bertrand, 3) + lost(murat, 4), 3, "the French lose 3 points");
    assert_eq!((lost(yorck, 4), lost(schwarzenberg, 5), lost(friedrich, 2)), (1, 1, 0));
    assert_eq!((lost(bertrand, 3), lost(murat, 4)), (1, 2));
}

#[test]
fn example_5_two_points_flip_the_army_and_lay_a_minus_one_chip() {
    // Example 5: Yorck loses two points of Army Strength: flipped (minus 1) and a "-1 chip" (minus 1).
    let mut t = after_draft(5);
    let a = lay(&mut t, &[("Yorck", 4), ("Poniatowski", 3), ("Bertrand", 3)], &[(0, 1), (0, 2)], &[]);
    let supply = t.game.minus_one_supply;
    end_turn_on_fight_date(&mut t);
    t.submit(FRENCH, Act::Game(legal(&t)[0].clone())).unwrap();
    let y = &t.game.armies[a[0] as usize];
    assert_eq!((y.strength, y.flipped, y.chips), (2, true, 1));
    assert_eq!(t.game.minus_one_supply, supply - 1);
    assert!(t.entries.iter().any(|e| matches!(
        e,
        grognard::engine::table::Entry::Game {
            event: Event::ArmyDamaged { points: 2, strength: 2, flipped: true, chips: 1, .. },
            ..
        }
    )));
}

#[test]
fn an_army_below_strength_one_is_removed_and_its_field_is_free() {
    // Fight: "If the Army strength is less than one point, the Army is removed from the game board
    // and taken out of play. This field is free again."
    let mut t = after_draft(6);
    let a = lay(&mut t, &[("Yorck", 1), ("Poniatowski", 3)], &[(0, 1)], &[]);
    let field = t.game.armies[a[0] as usize].at.unwrap();
    end_turn_on_fight_date(&mut t);
    let y = &t.game.armies[a[0] as usize];
    assert!(y.eliminated && y.at.is_none());
    assert_eq!(t.game.army_at(field), None);
    assert_eq!(strength(&t, a[1]), 2, "the removed army still dealt its point");
}

#[test]
fn the_fight_comes_at_the_end_of_the_turn_that_reaches_the_date_and_only_once() {
    // Fight: "If, till the end of a turn, the Time Indicator has reached the date 16.10. or 18.10.
    // or has passed it (for the first time), the fight is conducted."
    let mut t = after_draft(7);
    let a = lay(&mut t, &[("Poniatowski", 3), ("Yorck", 4)], &[(0, 1)], &[]);
    last_french_action_at(&mut t, "16.10.");
    t.game.actions_left = 2;
    t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap();
    assert_eq!(strength(&t, a[0]), 3, "no fight before the turn ends");
    t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap();
    assert_eq!(strength(&t, a[0]), 2);
    assert_eq!(t.game.fights_done, 1);
    // The Allied turn ends after 16.10. too: no second fight for the same date.
    for _ in 0..5 {
        t.submit(ALLIED, Act::Game(Action::DrawBlind)).unwrap();
    }
    while t.game.step == Step::Discard {
        let d = legal(&t)[0].clone();
        t.submit(ALLIED, Act::Game(d)).unwrap();
    }
    assert_eq!((strength(&t, a[0]), strength(&t, a[1])), (2, 3));
}

#[test]
fn a_turn_passing_both_fight_dates_fights_twice() {
    // Fight: each of 16.10. and 18.10. is fought once, even when one turn passes both.
    let mut t = after_draft(8);
    let a = lay(&mut t, &[("Poniatowski", 3), ("Yorck", 4)], &[(0, 1)], &[]);
    last_french_action_at(&mut t, "18.10.");
    t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap();
    assert_eq!(t.game.fights_done, 2);
    assert_eq!((strength(&t, a[0]), strength(&t, a[1])), (1, 2));
    let fights = t
        .entries
        .iter()
        .filter(|e| matches!(e, grognard::engine::table::Entry::Game { event: Event::FightBegan { .. }, .. }))
        .count();
    assert_eq!(fights, 2);
}

#[test]
fn minus_one_chips_run_out_and_the_markers_backs_are_used() {
    // Fight: "For this you can use the separate -1 chips or the backs of the Troop Markers."
    let mut t = after_draft(9);
    let a = lay(&mut t, &[("Yorck", 4), ("Poniatowski", 3), ("Bertrand", 3)], &[(0, 1), (0, 2)], &[]);
    t.game.minus_one_supply = 0;
    end_turn_on_fight_date(&mut t);
    t.submit(FRENCH, Act::Game(legal(&t)[0].clone())).unwrap();
    assert_eq!(t.game.minus_one_supply, 0);
    assert_eq!((strength(&t, a[0]), t.game.armies[a[0] as usize].chips), (2, 1));
}
