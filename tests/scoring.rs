//! "Scoring - Compare Army Strength", "Conditions to win the game", the advanced game's terrain
//! values, the alternative two-game win and the official FAQ: the rulebook's scoring examples 1 to 3
//! laid out on Grognard's map, and a test per rule.
mod common;
use common::*;
use grognard::engine::geometry::SpaceId;
use grognard::engine::rules::{Game, Mode};
use grognard::engine::table::{Act, Table};
use grognard::games::botn::data::Terrain;
use grognard::games::botn::data::{Side, UnitType};
use grognard::games::botn::state::{MissionResult, Step};
use grognard::games::botn::{self, Action, Botn};
use std::sync::Arc;

/// Lays the named armies out; the first `missions` of them stand on Napoléon's revealed mission
/// fields (his only missions in this picture).
fn picture(
    t: &mut Table<Botn>,
    armies: &[(&str, i8)],
    missions: usize,
    adj: &[(usize, usize)],
    apart: &[(usize, usize)],
) -> Vec<u8> {
    let fields = layout(t, armies.len(), adj, apart);
    let ids: Vec<u8> = armies
        .iter()
        .zip(&fields)
        .map(|(&(name, strength), &f)| {
            let a = army(t, name);
            place(t, a, f, strength);
            a
        })
        .collect();
    mission_fields(t, &fields[..missions]);
    ids
}

/// Napoléon's missions become cards on these fields, all revealed.
fn mission_fields(t: &mut Table<Botn>, fields: &[SpaceId]) {
    let mut sc = (*t.game.sc).clone();
    t.game.missions.truncate(fields.len());
    for (i, f) in fields.iter().enumerate() {
        sc.missions[t.game.missions[i] as usize].field = *f;
    }
    t.game.sc = Arc::new(sc);
    t.game.revealed = fields.len() as u8;
}

/// Napoléon finishes the turn that passed 19.10.: the game ends and scoring begins.
fn end_game(t: &mut Table<Botn>) {
    last_french_action_at(t, "End");
    t.game.fights_done = 2;
    t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap();
}

fn result(t: &Table<Botn>, mission_army: u8) -> MissionResult {
    t.game.results.iter().find(|r| r.army == Some(mission_army)).expect("scored").clone()
}

fn points(t: &Table<Botn>, i: usize) -> (u8, u8) {
    let d = &t.game.sc.missions[t.game.missions[i] as usize].def;
    (d.french, d.allied)
}

#[test]
fn scoring_example_1_only_enemies_touching_the_mission_army_count() {
    // Example 1: Poniatowski stands on a mission field, supported by Ney. MacDonald's enemy
    // (Bennigsen) is not in contact with Poniatowski and is not relevant. Poniatowski and Ney have
    // 6 points in total, the Allies 3.
    let mut t = after_draft(11);
    let a = picture(
        &mut t,
        &[("Poniatowski", 3), ("Ney", 3), ("MacDonald", 3), ("Langeron", 3), ("Bennigsen", 4)],
        1,
        &[(0, 1), (3, 0), (3, 1), (0, 2), (2, 4)],
        &[(4, 0), (3, 2), (4, 1)],
    );
    end_game(&mut t);
    assert_eq!(t.game.step, Step::GameOver, "no choice to make");
    let r = result(&t, a[0]);
    assert_eq!((r.support.clone(), r.opponents.clone()), (vec![a[1]], vec![a[3]]));
    assert_eq!((r.french, r.allied, r.fulfilled), (6, 3, true));
    assert_eq!(t.game.vp, [points(&t, 0).0, 0]);
    assert_eq!(t.game.winner(), Some(FRENCH));
}

#[test]
fn scoring_example_2_support_needs_contact_with_the_mission_armys_enemy() {
    // Example 2: Bertrand and Poniatowski on mission fields. Bertrand faces Schwarzenberg.
    // MacDonald and Ney are added to Poniatowski; Ney has no contact with Schwarzenberg and cannot
    // be added to Bertrand. Bennigsen touches no mission army and is not relevant.
    let mut t = after_draft(12);
    let names = [
        ("Bertrand", 3),
        ("Poniatowski", 3),
        ("Schwarzenberg", 5),
        ("MacDonald", 3),
        ("Ney", 4),
        ("Yorck", 4),
        ("Bennigsen", 4),
    ];
    let a = picture(
        &mut t,
        &names,
        2,
        &[(0, 2), (1, 3), (1, 4), (0, 4), (5, 1), (5, 3), (5, 4), (6, 3)],
        &[(2, 4), (2, 1), (2, 3), (5, 0), (6, 0), (6, 1), (6, 4), (0, 3), (0, 1)],
    );
    let (bertrand, poniatowski, schwarzenberg, macdonald, ney, yorck, bennigsen) =
        (a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
    assert_eq!(t.game.mission_options(ney), vec![poniatowski], "Ney cannot be added to Bertrand");
    end_game(&mut t);
    let rb = result(&t, bertrand);
    assert_eq!((rb.support.clone(), rb.opponents.clone()), (vec![], vec![schwarzenberg]));
    assert_eq!((rb.french, rb.allied, rb.fulfilled), (3, 5, false));
    let rp = result(&t, poniatowski);
    let mut support = rp.support.clone();
    support.sort();
    let mut want = vec![macdonald, ney];
    want.sort();
    assert_eq!((support, rp.opponents.clone()), (want, vec![yorck]));
    assert_eq!((rp.french, rp.allied, rp.fulfilled), (10, 4, true));
    assert_eq!(t.game.assigned[bennigsen as usize], None);
    assert_eq!(t.game.vp, [points(&t, 1).0, points(&t, 0).1]);
}

/// Example 3's picture: Marmont between Ney and Bertrand, each on a mission field.
fn example_3(seed: u64) -> (Table<Botn>, Vec<u8>) {
    let mut t = after_draft(seed);
    let a = picture(
        &mut t,
        &[("Ney", 5), ("Bertrand", 2), ("Marmont", 3), ("Schwarzenberg", 7), ("Bennigsen", 1), ("Friedrich", 1)],
        2,
        &[(2, 0), (2, 1), (3, 0), (3, 2), (4, 1), (4, 2), (5, 1)],
        &[(0, 1), (3, 1), (5, 0), (4, 0), (5, 2)],
    );
    end_game(&mut t);
    (t, a)
}

#[test]
fn scoring_example_3_napoleon_chooses_whom_marmont_supports_and_wins_ties() {
    // Beispiel 3: Napoléon can add Marmont either to Ney or to Bertrand. Choosing Ney he wins both
    // missions: 8 points against Schwarzenberg's 7, and 2 against Bennigsen (1) and Friedrich (1) —
    // Napoléon also wins a mission on a tie.
    let (mut t, a) = example_3(13);
    let (ney, bertrand, marmont) = (a[0], a[1], a[2]);
    assert_eq!((t.game.step, t.game.active_seat()), (Step::Scoring, Some(FRENCH)));
    assert_eq!(
        legal(&t),
        vec![
            Action::AssignToMission { army: marmont, mission_army: ney },
            Action::AssignToMission { army: marmont, mission_army: bertrand }
        ]
    );
    t.submit(FRENCH, Act::Game(Action::AssignToMission { army: marmont, mission_army: ney })).unwrap();
    let (rn, rb) = (result(&t, ney), result(&t, bertrand));
    assert_eq!((rn.french, rn.allied, rn.fulfilled), (8, 7, true));
    assert_eq!((rb.french, rb.allied, rb.fulfilled), (2, 2, true));
    assert_eq!(t.game.vp, [points(&t, 0).0 + points(&t, 1).0, 0]);
}

#[test]
fn scoring_example_3_the_other_choice_loses_neys_mission() {
    // Beispiel 3 the other way: Marmont added to Bertrand leaves Ney 5 against 7.
    let (mut t, a) = example_3(14);
    t.submit(FRENCH, Act::Game(Action::AssignToMission { army: a[2], mission_army: a[1] })).unwrap();
    let (rn, rb) = (result(&t, a[0]), result(&t, a[1]));
    assert_eq!((rn.french, rn.allied, rn.fulfilled), (5, 7, false));
    assert_eq!((rb.french, rb.allied, rb.fulfilled), (5, 2, true));
    // Schwarzenberg receives the Allied points of the mission he won.
    assert_eq!(t.game.vp, [points(&t, 1).0, points(&t, 0).1]);
}

#[test]
fn an_allied_army_between_two_mission_armies_fights_only_one_chosen_by_schwarzenberg() {
    // Official FAQ: an Allied army between two French armies on mission fields fights only one.
    let mut t = after_draft(15);
    let a = picture(&mut t, &[("Ney", 4), ("Bertrand", 3), ("Schwarzenberg", 5)], 2, &[(2, 0), (2, 1)], &[(0, 1)]);
    end_game(&mut t);
    assert_eq!((t.game.step, t.game.active_seat()), (Step::Scoring, Some(ALLIED)));
    // Only the defender's options: a French mission army is not his to assign.
    let err = t.submit(ALLIED, Act::Game(Action::AssignToMission { army: a[0], mission_army: a[1] })).unwrap_err();
    assert_eq!(err.rule(), Some("Scoring - Compare Army Strength"));
    t.submit(ALLIED, Act::Game(Action::AssignToMission { army: a[2], mission_army: a[0] })).unwrap();
    assert_eq!((result(&t, a[0]).allied, result(&t, a[1]).allied), (5, 0));
    assert!(!result(&t, a[0]).fulfilled && result(&t, a[1]).fulfilled);
}

#[test]
fn a_mission_field_without_a_french_army_goes_to_schwarzenberg() {
    // Conditions to win: Schwarzenberg receives the mission's points "also if there is no French
    // Army at all on the mission field (e.g. because it was already beaten before)".
    let mut t = after_draft(16);
    let empty = layout(&t, 1, &[], &[]);
    mission_fields(&mut t, &empty);
    end_game(&mut t);
    assert_eq!(t.game.results.len(), 1);
    assert!(!t.game.results[0].fulfilled && t.game.results[0].army.is_none());
    assert_eq!(t.game.vp, [0, points(&t, 0).1]);
}

#[test]
fn victory_points_decide_and_a_tie_is_not_a_french_win() {
    // Conditions to win: "Napoléon wins the game if he has more points than Schwarzenberg."
    let mut t = after_draft(17);
    let a = picture(&mut t, &[("Ney", 4)], 1, &[], &[]);
    let (french_pts, _) = points(&t, 0);
    t.game.vp = [0, french_pts]; // Schwarzenberg ahead by the mission's worth before scoring
    end_game(&mut t);
    assert!(result(&t, a[0]).fulfilled);
    assert_eq!(t.game.vp, [french_pts, french_pts]);
    assert_eq!(t.game.winner(), Some(ALLIED));
}

fn advanced_table(seed: u64) -> Table<Botn> {
    let path = scenario_path().with_file_name("advanced.ron");
    let mut t = botn::new_table(&path, seed, Mode::Enforced).expect("the advanced scenario loads");
    for d in [grognard::games::botn::data::District::North, grognard::games::botn::data::District::South] {
        t.submit(FRENCH, Act::Game(Action::DraftDistrict(d))).unwrap();
        let keep = t.game.draft_pair[0];
        t.submit(FRENCH, Act::Game(Action::KeepMission(keep))).unwrap();
    }
    t
}

fn field_of(t: &Table<Botn>, terrain: Terrain) -> SpaceId {
    let i = t.game.sc.fields.iter().position(|f| f.terrain == terrain).expect("the board has that terrain");
    SpaceId(i as u16)
}

#[test]
fn advanced_game_terrain_values_count_at_the_end() {
    // Game Play - Advanced Game, Type of terrain: artillery +2 on a hill, -2 in a forest; cavalry +1
    // on a plain, -1 by a river; infantry +1 by a river, -1 on a hill.
    let mut t = advanced_table(18);
    let cases = [
        ("Marmont", UnitType::Artillery, Terrain::Hill, 3, 5),
        ("Klenau", UnitType::Artillery, Terrain::Forest, 3, 1),
        ("Murat", UnitType::Cavalry, Terrain::Plain, 4, 5),
        ("Platow", UnitType::Cavalry, Terrain::River, 2, 1),
        ("Ney", UnitType::Infantry, Terrain::River, 4, 5),
        ("Yorck", UnitType::Infantry, Terrain::Hill, 4, 3),
    ];
    let mut used = Vec::new();
    for (name, unit, terrain, strength, value) in cases {
        let a = army(&t, name);
        assert_eq!(t.game.sc.armies[a as usize].def.unit, unit);
        let f = (0..t.game.sc.fields.len() as u16)
            .map(SpaceId)
            .find(|f| t.game.sc.fields[f.0 as usize].terrain == terrain && !used.contains(f))
            .expect("a free field of that terrain");
        used.push(f);
        place(&mut t, a, f, strength);
        assert_eq!(t.game.combat_value(a), value, "{name} on {terrain:?}");
    }
    // The beginner game has no terrain values.
    let mut b = after_draft(18);
    let marmont = army(&b, "Marmont");
    let hill = field_of(&b, Terrain::Hill);
    place(&mut b, marmont, hill, 3);
    assert_eq!(b.game.combat_value(marmont), 3);
    // An army's value never drops below zero: artillery of strength 1 in a forest counts 0.
    let klenau = army(&t, "Klenau");
    t.game.armies[klenau as usize].strength = 1;
    assert_eq!(t.game.combat_value(klenau), 0);
}

#[test]
fn advanced_game_scoring_uses_terrain_values() {
    // Advanced game: the terrain value is added at the end — Marmont (artillery, 3) on a hill holds
    // his mission against Yorck (infantry, 4, plain: +0) with 5 points.
    let mut t = advanced_table(19);
    let hills: Vec<SpaceId> = (0..t.game.sc.fields.len() as u16)
        .map(SpaceId)
        .filter(|f| t.game.sc.fields[f.0 as usize].terrain == Terrain::Hill)
        .collect();
    let (hill, plain) = hills
        .iter()
        .find_map(|&h| {
            let p = t
                .game
                .sc
                .graph
                .neighbours(h)
                .iter()
                .copied()
                .find(|&n| t.game.sc.fields[n.0 as usize].terrain == Terrain::Plain)?;
            Some((h, p))
        })
        .expect("a hill next to a plain");
    let (marmont, yorck) = (army(&t, "Marmont"), army(&t, "Yorck"));
    place(&mut t, marmont, hill, 3);
    place(&mut t, yorck, plain, 4);
    mission_fields(&mut t, &[hill]);
    end_game(&mut t);
    let r = result(&t, marmont);
    assert_eq!((r.french, r.allied, r.fulfilled), (5, 4, true));
}

#[test]
fn alternative_win_compares_napoleons_points_of_both_games() {
    // Alternative conditions to win: the grey cannon shows Napoléon's points of the first game; the
    // player who scored more as Napoléon wins; a tie has no winner.
    for (first, now_french, want) in
        [(3u8, 7u8, Some(Some(Side::French))), (9, 7, Some(Some(Side::Allied))), (7, 7, Some(None))]
    {
        let mut t = new_table(20);
        t.submit(FRENCH, Act::Game(Action::SetGreyCannon { french_points: first })).unwrap();
        // Set once, before the preparation only.
        let again = t.submit(FRENCH, Act::Game(Action::SetGreyCannon { french_points: 1 })).unwrap_err();
        assert_eq!(again.rule(), Some("Alternative conditions to win"));
        for d in [grognard::games::botn::data::District::North, grognard::games::botn::data::District::South] {
            t.submit(FRENCH, Act::Game(Action::DraftDistrict(d))).unwrap();
            let keep = t.game.draft_pair[0];
            t.submit(FRENCH, Act::Game(Action::KeepMission(keep))).unwrap();
        }
        assert_eq!(t.game.match_winner(), None, "not before the game is over");
        mission_fields(&mut t, &[]);
        t.game.vp = [now_french, 0];
        end_game(&mut t);
        assert_eq!(t.game.match_winner(), want);
    }
}

#[test]
fn faq_napoleon_with_all_armies_placed_only_draws_and_advances_time() {
    // Official FAQ: if Napoléon has placed all his armies he takes no more actions but may still
    // take action cards; if 19.10. has not been reached, he advances the time indicator one space
    // and ends his turn.
    let mut t = after_draft(21);
    let french: Vec<u8> = (0..t.game.armies.len() as u8).filter(|&a| t.game.army_side(a) == Side::French).collect();
    let fields = layout(&t, french.len(), &[], &[]);
    for (&a, &f) in french.iter().zip(&fields) {
        place(&mut t, a, f, 2);
    }
    last_french_action_at(&mut t, "15.10.");
    t.game.actions_left = 5;
    let l = legal(&t);
    assert!(l.iter().all(|a| matches!(a, Action::DrawBlind | Action::DrawFaceUp { .. } | Action::Pass)));
    assert!(l.contains(&Action::Pass));
    let time = t.game.time;
    t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap();
    t.submit(FRENCH, Act::Game(Action::Pass)).unwrap();
    assert_eq!(t.game.time, time + 1);
    assert_eq!(t.game.active, Side::Allied);
}

#[test]
fn faq_the_face_up_row_may_be_swapped_after_two_rounds_without_taking_from_it() {
    // Official FAQ: when both players have drawn only blind cards for two rounds, the 4 face-up
    // action cards may be swapped for 4 new ones.
    let mut t = after_draft(22);
    let err = t.submit(FRENCH, Act::Game(Action::SwapFaceUp)).unwrap_err();
    assert_eq!(err.rule(), Some("Official FAQ: the face-up row"));
    t.game.had_first_turn = [true, true];
    for _ in 0..4 {
        assert!(!legal(&t).contains(&Action::SwapFaceUp));
        let seat = t.game.active_seat().unwrap();
        for _ in 0..5 {
            t.submit(seat, Act::Game(Action::DrawBlind)).unwrap();
        }
        while t.game.step == Step::Discard {
            let d = legal(&t)[0].clone();
            t.submit(seat, Act::Game(d)).unwrap();
        }
    }
    assert!(legal(&t).contains(&Action::SwapFaceUp));
    let old = t.game.face_up.clone();
    let actions = t.game.actions_left;
    t.submit(FRENCH, Act::Game(Action::SwapFaceUp)).unwrap();
    assert_eq!(t.game.face_up.len(), 4);
    assert!(t.game.face_up.iter().all(|c| !old.contains(c)));
    assert_eq!(t.game.actions_left, actions, "the swap is not one of the five actions");
}
