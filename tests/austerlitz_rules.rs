//! Austerlitz's rules, one test per rule with the rulebook's section in its name, and the book's
//! tables with their printed numbers. Positions are built on the emptied board of the shipped
//! scenario (west of the Goldbach, where the ground is flat and clear); dice are forced by
//! choosing the table's seed.

use grognard::engine::geometry::Facing;
use grognard::engine::rng::TableRng;
use grognard::engine::rules::{Game, Mode, checked};
use grognard::engine::seats::Viewer;
use grognard::games::austerlitz::actions::{Action, AzError, AzSection, Event};
use grognard::games::austerlitz::data::{AzScenario, BatteryResult, Cell, CrtResult, FireResult, Side};
use grognard::games::austerlitz::rules::{seat_of, setup};
use grognard::games::austerlitz::state::{Aspect, Austerlitz, Formation, Pending, Step, UnitId};
use std::path::PathBuf;
use std::sync::Arc;

fn scenario(file: &str) -> Arc<AzScenario> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz").join(file);
    Arc::new(AzScenario::load(&p).expect("a shipped scenario loads"))
}

/// The historical scenario's table with nothing on the board: the French to move in step 2 of
/// turn 5 (after the mist), no commands on the board.
fn empty() -> Austerlitz {
    let mut g = setup(scenario("1-historical.ron"), 1);
    g.turn = 5;
    g.side = Side::French;
    g.step = Step::Move;
    g
}

fn unit(g: &Austerlitz, name: &str) -> usize {
    g.sc.units.iter().position(|u| u.name == name).unwrap_or_else(|| panic!("no unit {name}"))
}

fn command(g: &Austerlitz, name: &str) -> usize {
    g.sc.commands.iter().position(|c| c.name == name).expect("a command")
}

fn put(g: &mut Austerlitz, name: &str, at: Cell, facing: Facing) -> usize {
    let u = unit(g, name);
    g.units[u].at = Some(at);
    g.units[u].facing = facing;
    u
}

/// The formations noted as the phasing player's turn begins (as `begin_turn` does).
fn note_formations(g: &mut Austerlitz) {
    for u in 0..g.units.len() {
        g.units[u].formation_at_start = g.formation_kind(u);
    }
}

fn rolling(rolls: &[u8]) -> TableRng {
    (0..200_000u64)
        .find(|&s| {
            let mut r = TableRng::from_seed(s);
            rolls.iter().all(|&x| r.d6() == x)
        })
        .map(TableRng::from_seed)
        .expect("a seed")
}

fn act(g: &mut Austerlitz, a: Action) -> Vec<Event> {
    let side = g.deciding().expect("a decision");
    let seat = seat_of(side);
    let mut ev = Vec::new();
    let ok = checked(g, Mode::Enforced, seat, &a).unwrap_or_else(|e| panic!("{a:?} refused: {e}"));
    let _ = g.apply(seat, ok, &mut ev);
    ev
}

fn refused(g: &Austerlitz, a: Action) -> AzError {
    let side = g.deciding().expect("a decision");
    g.check(Mode::Enforced, seat_of(side), &a).expect_err("refused")
}

/// The roll among these events whose purpose contains `what`.
fn rolled(ev: &[Event], what: &str) -> grognard::engine::roll::Roll {
    ev.iter()
        .find_map(|e| match e {
            Event::Rolled(r) if r.what.contains(what) => Some(r.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no roll for {what}: {ev:?}"))
}

fn cost(g: &Austerlitz, u: usize, to: Cell, facing: Facing) -> Option<u8> {
    g.reach_to(u, to, facing).map(|r| r.spent)
}

const LINE: &str = "Suchet: 34e ligne";
const LINE2: &str = "Caffarelli: 51e ligne";
const LINE3: &str = "Drouet: 94e ligne";
const LINE4: &str = "Rivaud: 8e ligne";
const LIGHT: &str = "Suchet: 17e léger";
const HEAVY_CAV: &str = "Nansouty: carabiniers and cuirassiers";
const FIELD: &str = "V Corps field battery";
const TWELVE: &str = "V Corps 12-pounders";
const HORSE: &str = "Cavalry reserve horse battery";
const ENEMY: &str = "Bagration: Kursk musketeers";
const ENEMY2: &str = "Miloradovich: Novgorod musketeers";
const ENEMY_CAV: &str = "Bagration: Pavlograd hussars";
const ENEMY_GUN: &str = "Langeron: field battery";

// --- Tables ---

#[test]
fn tables_the_artillery_table_as_printed() {
    let g = empty();
    let t = &g.sc.tables.artillery;
    let half: Vec<_> = (2..=12).map(|r| t.result(2, r).unwrap()).collect();
    use FireResult::*;
    assert_eq!(half, vec![N, R(1), R(1), R(3), R(3), R(5), R(5), E, E, E, E]);
    let three: Vec<_> = (2..=8).map(|r| t.result(3, r).unwrap()).collect();
    assert_eq!(three, vec![N, N, N, R(1), R(1), R(2), R(2)]);
    assert_eq!(t.result(4, 12), None, "beyond range 3 there is no row");
    assert_eq!(t.result(1, 13), Some(E), "a 12-pounder's 13 reads as 12");
}

#[test]
fn tables_the_horse_artillery_table_as_printed() {
    let g = empty();
    let t = &g.sc.tables.horse_artillery;
    use FireResult::*;
    let half: Vec<_> = (2..=12).map(|r| t.result(1, r).unwrap()).collect();
    assert_eq!(half, vec![N, N, N, R(1), R(1), R(3), R(3), R(5), R(5), E, E]);
    let three: Vec<_> = (2..=8).map(|r| t.result(3, r).unwrap()).collect();
    assert_eq!(three, vec![N, N, N, N, N, R(1), R(1)]);
}

#[test]
fn tables_the_attack_crt_as_printed_and_no_attack_below_minus_one() {
    let g = empty();
    use CrtResult::*;
    let row = |d: i32| g.sc.tables.crt_row(d).map(|r| r.results.clone());
    assert_eq!(row(-1), Some(vec![AE, AR(5), AR(3), AR(1), N, DR(1)]));
    assert_eq!(row(0), Some(vec![AR(5), AR(3), AR(1), N, N, DR(2)]));
    assert_eq!(row(1), Some(vec![AR(3), AR(1), N, N, DR(1), DR(3)]));
    assert_eq!(row(2).unwrap()[0], AR(1), "the +2 row's printed first column");
    assert_eq!(row(-2), None);
    assert_eq!(row(40), row(6), "a difference beyond the last row uses it");
    assert!(g.sc.tables.crt[3].provenance.is_reconstructed());
}

#[test]
fn demoralization_a_demoralised_battery_fires_one_result_lower() {
    use FireResult::*;
    assert_eq!([R(1), R(2), R(3), R(5), E, N].map(FireResult::lower), [N, R(1), R(2), R(3), R(5), N]);
}

// --- Artillery ---

#[test]
fn artillery_field_of_fire_widens_1_3_5_from_a_long_border_9_spaces() {
    let mut g = empty();
    let gun = put(&mut g, FIELD, (3, 4), Facing::N);
    let fof = g.field_of_fire(gun);
    assert_eq!(fof.len(), 9);
    assert_eq!(fof.iter().filter(|x| x.1 == 1).map(|x| x.0).collect::<Vec<_>>(), vec![(3, 5)]);
    assert_eq!(fof.iter().filter(|x| x.1 == 2).count(), 3);
    assert_eq!(
        fof.iter().filter(|x| x.1 == 3).map(|x| x.0).collect::<Vec<_>>(),
        vec![(1, 7), (2, 7), (3, 7), (4, 7), (5, 7)]
    );
}

#[test]
fn artillery_field_of_fire_from_an_octagons_small_border_starts_with_the_diagonal() {
    let mut g = empty();
    let gun = put(&mut g, FIELD, (2, 2), Facing::NE);
    let fof = g.field_of_fire(gun);
    let row = |k: u8| {
        let mut v: Vec<Cell> = fof.iter().filter(|x| x.1 == k).map(|x| x.0).collect();
        v.sort();
        v
    };
    assert_eq!(row(1), vec![(3, 3)]);
    assert_eq!(row(2), vec![(3, 4), (4, 3), (4, 4)]);
    assert_eq!(row(3).len(), 5);
}

#[test]
fn artillery_horse_artillery_field_of_fire_is_7_spaces() {
    let mut g = empty();
    let gun = put(&mut g, HORSE, (3, 4), Facing::N);
    assert_eq!(g.field_of_fire(gun).len(), 7);
}

#[test]
fn artillery_line_of_sight_blocked_by_units_and_towns_but_a_ridge_fires_over_units_below() {
    let mut g = empty();
    g.step = Step::Fire;
    let gun = put(&mut g, FIELD, (3, 4), Facing::N);
    let target = put(&mut g, ENEMY, (3, 6), Facing::S);
    assert!(g.fire_refusal(gun, (3, 6), false).is_none());
    put(&mut g, LINE, (3, 5), Facing::N);
    let e = g.fire_refusal(gun, (3, 6), false).expect("blocked");
    assert_eq!(e.section, AzSection::Los);
    assert!(e.words.contains("a unit"), "{e}");
    // From the Žuráň hill's ridge, over a unit on the plain below.
    let mut g = empty();
    g.step = Step::Fire;
    let gun = put(&mut g, FIELD, (5, 13), Facing::S);
    put(&mut g, LINE, (5, 12), Facing::N);
    put(&mut g, ENEMY, (5, 11), Facing::N);
    assert!(g.sc.board.space((5, 13)).ridge);
    assert!(g.fire_refusal(gun, (5, 11), false).is_none(), "fires over the unit below the ridge");
    let _ = target;
}

#[test]
fn artillery_range_adds_2_for_a_town_and_the_mist_of_turn_1_adds_3() {
    let mut g = empty();
    // Puntowitz is a town: at 1 space it is at range 3.
    assert_eq!(g.fire_range(1, (9, 10)), 3);
    assert_eq!(g.fire_range(1, (7, 4)), 4, "the castle adds 3");
    g.turn = 1;
    assert_eq!(g.fire_range(1, (3, 6)), 4, "mist: +3 in turn 1");
    assert_eq!(g.fire_range(1, (14, 8)), 1, "no mist on the hills");
    g.turn = 3;
    assert_eq!(g.fire_range(2, (3, 6)), 3);
}

#[test]
fn artillery_resolution_2_dice_with_plus_1_for_a_12_pounder() {
    let mut g = empty();
    g.step = Step::Fire;
    let gun = put(&mut g, TWELVE, (3, 4), Facing::N);
    let target = put(&mut g, ENEMY, (3, 5), Facing::S);
    // 4 + 4 = 8, +1 for the 12-pounder: 9 at range 1 is E.
    g.rng = rolling(&[4, 4]);
    let ev = act(&mut g, Action::Fire { gun: gun as UnitId, target: (3, 5), battery: false });
    let fired = rolled(&ev, "fire at");
    assert_eq!((fired.dice.clone(), fired.total()), (vec![4, 4], 9), "2 dice, +1 for the 12-pounder");
    assert!(fired.modifiers.iter().any(|m| *m == (1, "12-pounder".to_string())), "{:?}", fired.modifiers);
    assert_eq!(fired.table.as_ref().unwrap().name, "Artillery Table");
    assert_eq!(fired.result, grognard::games::austerlitz::text::fire_name(FireResult::E));
    assert!(g.units[target].eliminated);
    assert!(g.units[gun].smoke, "a gun that fires makes smoke");
}

#[test]
fn artillery_field_artillery_fires_or_moves_never_both() {
    let mut g = empty();
    g.step = Step::Fire;
    let gun = put(&mut g, FIELD, (3, 4), Facing::N);
    put(&mut g, ENEMY, (3, 6), Facing::S);
    g.rng = rolling(&[1, 1]);
    act(&mut g, Action::Fire { gun: gun as UnitId, target: (3, 6), battery: false });
    act(&mut g, Action::EndFire);
    act(&mut g, Action::EndMovement);
    let mut legal = Vec::new();
    g.legal(&mut legal);
    assert!(!legal.iter().any(|a| matches!(a, Action::Move { unit, .. } if *unit as usize == gun)));
    let e = refused(&g, Action::Move { unit: gun as UnitId, to: (3, 3), facing: Facing::N });
    assert_eq!(e.section, AzSection::Artillery);
}

#[test]
fn artillery_guns_move_the_way_opposite_their_front() {
    let mut g = empty();
    g.step = Step::ArtilleryMove;
    let gun = put(&mut g, FIELD, (3, 4), Facing::N);
    // Limbered, it drives south without a turn; its guns still point north.
    assert_eq!(cost(&g, gun, (3, 3), Facing::N), Some(1));
    assert_eq!(cost(&g, gun, (3, 5), Facing::S), Some(2), "to go north it turns first");
}

#[test]
fn counter_battery_fire_1_2_turns_3_5_turns_and_demoralises_6_eliminates() {
    for (roll, result) in [(2, BatteryResult::Turn), (4, BatteryResult::TurnDemoralise), (6, BatteryResult::Eliminate)]
    {
        let mut g = empty();
        g.step = Step::Fire;
        let gun = put(&mut g, FIELD, (3, 4), Facing::N);
        let target = put(&mut g, ENEMY_GUN, (3, 6), Facing::S);
        g.rng = rolling(&[roll]);
        let ev = act(&mut g, Action::Fire { gun: gun as UnitId, target: (3, 6), battery: true });
        let words = match result {
            BatteryResult::Turn => "turned about",
            BatteryResult::TurnDemoralise => "turned about and demoralised",
            BatteryResult::Eliminate => "eliminated",
        };
        let r = rolled(&ev, "counter-battery");
        assert_eq!((r.dice.clone(), r.result.as_str()), (vec![roll], words));
        match result {
            BatteryResult::Turn => assert_eq!(g.units[target].facing, Facing::N),
            BatteryResult::TurnDemoralise => {
                assert!(g.units[target].demoralised && g.units[target].facing == Facing::N)
            }
            BatteryResult::Eliminate => assert!(g.units[target].eliminated),
        }
    }
}

// --- Movement ---

/// A decision searches a unit twice (the random player's draw, then the check), so its search
/// is kept with a copy of the table (`Austerlitz::search`): any change to the table, here an
/// enemy unit in the way, must be seen by the next search.
#[test]
fn movement_the_kept_search_sees_every_change_of_the_table() {
    let mut g = empty();
    let u = put(&mut g, LINE, (2, 4), Facing::N);
    assert_eq!(cost(&g, u, (2, 6), Facing::N), Some(2));
    assert_eq!(g.reach(u).len(), g.reach_searched(u).len(), "kept or searched again, the same");
    let e = put(&mut g, ENEMY, (2, 5), Facing::S);
    assert_eq!(cost(&g, u, (2, 5), Facing::N), None, "no move into an enemy unit's space");
    assert_ne!(cost(&g, u, (2, 6), Facing::N), Some(2), "the straight way is barred");
    g.units[e].at = None;
    assert_eq!(cost(&g, u, (2, 6), Facing::N), Some(2));
}

#[test]
fn movement_each_space_costs_1_and_a_turn_1_more() {
    let mut g = empty();
    let u = put(&mut g, LINE, (2, 4), Facing::N);
    assert_eq!(cost(&g, u, (2, 5), Facing::N), Some(1));
    assert_eq!(cost(&g, u, (2, 9), Facing::N), Some(5));
    assert_eq!(cost(&g, u, (2, 10), Facing::N), None, "MF 5");
    assert_eq!(cost(&g, u, (3, 4), Facing::E), Some(2), "turn, then step");
    assert_eq!(cost(&g, u, (2, 4), Facing::E), Some(1), "a turn in its space");
}

#[test]
fn movement_light_infantry_turns_without_paying() {
    let mut g = empty();
    let u = put(&mut g, LIGHT, (2, 4), Facing::N);
    assert_eq!(cost(&g, u, (3, 4), Facing::E), Some(1));
}

#[test]
fn movement_along_a_road_adds_2_mf() {
    let mut g = empty();
    let u = put(&mut g, LINE, (0, 14), Facing::E);
    assert_eq!(cost(&g, u, (7, 14), Facing::E), Some(7), "5 + 2 along the road");
    assert_eq!(cost(&g, u, (6, 13), Facing::E), None, "off the road the 2 are not there");
}

#[test]
fn movement_crossing_the_stream_costs_1_more_and_artillery_crosses_only_at_bridges() {
    let mut g = empty();
    let u = put(&mut g, LINE, (8, 5), Facing::E);
    assert_eq!(cost(&g, u, (9, 5), Facing::E), Some(2));
    let mut g = empty();
    g.step = Step::ArtilleryMove;
    let gun = put(&mut g, FIELD, (8, 5), Facing::W);
    assert_eq!(cost(&g, gun, (9, 5), Facing::W), None, "no bridge in row 5");
    g.units[gun].at = Some((8, 4));
    assert_eq!(cost(&g, gun, (9, 4), Facing::W), Some(1), "over Sokolnitz's bridge");
    g.units[gun].at = Some((8, 7));
    assert_eq!(cost(&g, gun, (9, 7), Facing::W), Some(1), "over Kobelnitz's bridge");
}

#[test]
fn movement_uphill_across_a_contour_costs_1_more() {
    let mut g = empty();
    let u = put(&mut g, ENEMY, (10, 6), Facing::E);
    g.side = Side::Allied;
    assert_eq!(cost(&g, u, (11, 6), Facing::E), Some(2), "onto the plateau");
    assert_eq!(cost(&g, u, (12, 6), Facing::E), Some(3));
}

#[test]
fn movement_frozen_ponds_are_crossed_at_the_risk_of_the_ice_never_ended_on() {
    let mut g = empty();
    g.side = Side::Allied;
    let u = put(&mut g, ENEMY, (11, 2), Facing::S);
    assert_eq!(cost(&g, u, (11, 1), Facing::S), None, "may not end on the pond");
    assert_eq!(cost(&g, u, (11, 0), Facing::S), Some(2));
    g.rng = rolling(&[1]);
    let ev = act(&mut g, Action::Move { unit: u as UnitId, to: (11, 0), facing: Facing::S });
    let ice = rolled(&ev, "the ice");
    assert_eq!((ice.dice.clone(), ice.result.as_str()), (vec![1], "the ice breaks"), "infantry sinks on a 1");
    assert!(g.units[u].eliminated);
    let mut g = empty();
    g.side = Side::Allied;
    let u = put(&mut g, ENEMY, (11, 2), Facing::S);
    g.rng = rolling(&[2]);
    act(&mut g, Action::Move { unit: u as UnitId, to: (11, 0), facing: Facing::S });
    assert_eq!(g.units[u].at, Some((11, 0)), "infantry crosses on a 2");
    let mut g = empty();
    g.side = Side::Allied;
    let c = put(&mut g, ENEMY_CAV, (11, 2), Facing::S);
    g.rng = rolling(&[2]);
    act(&mut g, Action::Move { unit: c as UnitId, to: (11, 0), facing: Facing::S });
    assert!(g.units[c].eliminated, "cavalry sinks on 1-2");
}

#[test]
fn movement_woods_cost_2_and_only_infantry_enters_them() {
    let mut g = setup(scenario("2-game-sectors.ron"), 1);
    g.turn = 5;
    g.side = Side::French;
    g.step = Step::Move;
    let u = put(&mut g, LINE, (8, 1), Facing::N);
    assert_eq!(cost(&g, u, (8, 2), Facing::N), Some(2));
    let c = put(&mut g, HEAVY_CAV, (7, 2), Facing::E);
    assert_eq!(cost(&g, c, (8, 2), Facing::E), None);
}

#[test]
fn movement_crossing_friendly_units_disorganizes_them_and_never_over_enemy_units() {
    let mut g = empty();
    let u = put(&mut g, LINE, (2, 4), Facing::N);
    let f = put(&mut g, LINE2, (2, 5), Facing::N);
    act(&mut g, Action::Move { unit: u as UnitId, to: (2, 6), facing: Facing::N });
    assert!(g.units[f].dis, "the unit passed over is DIS");
    let mut g = empty();
    let u = put(&mut g, LINE, (3, 4), Facing::N);
    put(&mut g, ENEMY, (3, 5), Facing::S);
    assert_eq!(cost(&g, u, (3, 6), Facing::N), None);
}

#[test]
fn movement_over_an_enemy_command_captures_it() {
    let mut g = empty();
    let u = put(&mut g, LINE, (2, 4), Facing::N);
    let k = command(&g, "Bagration");
    g.commands[k].at = Some((2, 5));
    act(&mut g, Action::Move { unit: u as UnitId, to: (2, 6), facing: Facing::N });
    assert!(g.commands[k].captured);
}

#[test]
fn movement_a_column_turns_at_most_45_degrees() {
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 4), Facing::N);
    put(&mut g, LINE2, (2, 3), Facing::N);
    note_formations(&mut g);
    assert_eq!(g.formation_kind(a), Some(Formation::Column));
    assert!(cost(&g, a, (2, 4), Facing::NE).is_some());
    assert_eq!(cost(&g, a, (2, 4), Facing::E), None, "90° is too much for a column");
    assert_eq!(cost(&g, a, (3, 5), Facing::NE), Some(2), "45° then a diagonal step");
}

#[test]
fn movement_a_column_may_add_1_mf_to_attack() {
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 1), Facing::N);
    put(&mut g, LINE2, (2, 0), Facing::N);
    note_formations(&mut g);
    assert_eq!(cost(&g, a, (2, 7), Facing::N), None, "6 spaces without an enemy ahead");
    put(&mut g, ENEMY, (2, 8), Facing::S);
    assert_eq!(cost(&g, a, (2, 7), Facing::N), Some(6), "the 6th MF to attack");
}

#[test]
fn movement_a_column_that_used_its_extra_mf_must_attack_before_anything_else() {
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 1), Facing::N);
    put(&mut g, LINE2, (2, 0), Facing::N);
    let other = put(&mut g, LINE3, (6, 1), Facing::N);
    put(&mut g, ENEMY, (2, 8), Facing::S);
    note_formations(&mut g);
    act(&mut g, Action::Move { unit: a as UnitId, to: (2, 7), facing: Facing::N });
    assert!(g.units[a].extra, "the 6th MF was the column's extra one");
    let mut legal = Vec::new();
    g.legal(&mut legal);
    assert!(!legal.is_empty());
    assert!(
        legal.iter().all(|x| matches!(x, Action::Attack { units, .. } if units.contains(&(a as UnitId)))),
        "only its attacks: {legal:?}"
    );
    let err = refused(&g, Action::EndMovement);
    assert_eq!(err.section, AzSection::Movement);
    assert!(err.words.contains("must attack"), "{err}");
    refused(&g, Action::Move { unit: other as UnitId, to: (6, 2), facing: Facing::N });
    act(&mut g, Action::Attack { units: vec![a as UnitId], target: (2, 8), charge: false });
    // A unit that reached the enemy on its own MF owes nothing.
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 3), Facing::N);
    put(&mut g, LINE2, (2, 2), Facing::N);
    put(&mut g, ENEMY, (2, 8), Facing::S);
    note_formations(&mut g);
    act(&mut g, Action::Move { unit: a as UnitId, to: (2, 7), facing: Facing::N });
    assert!(!g.units[a].extra);
    // It may leave the infantry it faces (which may then fire at it) and end the step.
    act(&mut g, Action::Decline);
    act(&mut g, Action::Decline);
    act(&mut g, Action::EndMovement);
}

#[test]
fn movement_a_line_wheels_90_degrees_the_outer_unit_covering_more_ground() {
    let mut g = empty();
    let outer = put(&mut g, LINE, (1, 4), Facing::N);
    let middle = put(&mut g, LINE2, (2, 4), Facing::N);
    let pivot = put(&mut g, LINE3, (3, 4), Facing::N);
    note_formations(&mut g);
    assert_eq!(g.formation_kind(middle), Some(Formation::Line));
    assert_eq!(cost(&g, middle, (2, 4), Facing::SE), None, "135° is more than a line turns");
    // Wheel right on the east end: the pivot turns in its space, the others swing round it.
    assert_eq!(cost(&g, pivot, (3, 4), Facing::E), Some(1));
    act(&mut g, Action::Move { unit: pivot as UnitId, to: (3, 4), facing: Facing::E });
    assert_eq!(cost(&g, middle, (3, 5), Facing::E), Some(3));
    act(&mut g, Action::Move { unit: middle as UnitId, to: (3, 5), facing: Facing::E });
    assert_eq!(cost(&g, outer, (3, 6), Facing::E), Some(5), "the whole MF of the outer unit");
    act(&mut g, Action::Move { unit: outer as UnitId, to: (3, 6), facing: Facing::E });
    for u in [outer, middle, pivot] {
        assert_eq!(g.formation_kind(u), Some(Formation::Line), "the line stands again, facing east");
    }
}

#[test]
fn movement_cavalry_attacks_on_its_lower_mf() {
    let mut g = empty();
    let c = put(&mut g, HEAVY_CAV, (2, 0), Facing::N);
    let e = put(&mut g, ENEMY, (2, 10), Facing::S);
    act(&mut g, Action::Move { unit: c as UnitId, to: (2, 9), facing: Facing::N });
    assert_eq!(g.units[c].spent, 9);
    // Unable to attack it, the cavalry stands in the infantry's front: it may be fired at.
    assert!(matches!(g.pending.as_slice(), [Pending::OpportunityFire { chance: false, .. }]), "{:?}", g.pending);
    act(&mut g, Action::Decline);
    let err = refused(&g, Action::Attack { units: vec![c as UnitId], target: (2, 10), charge: false });
    assert!(err.words.contains("higher MF"), "{err}");
    let _ = e;
}

#[test]
fn stacking_one_combat_unit_a_space_and_artillery_with_infantry() {
    let mut g = empty();
    let u = put(&mut g, LINE, (2, 4), Facing::N);
    put(&mut g, LINE2, (2, 6), Facing::N);
    assert_eq!(cost(&g, u, (2, 6), Facing::N), None);
    let gun = unit(&g, FIELD);
    g.units[gun].at = Some((2, 5));
    assert!(cost(&g, u, (2, 5), Facing::N).is_some(), "infantry joins a battery");
    assert!(!g.may_stand(unit(&g, LINE3), (2, 6)));
}

// --- Formations ---

#[test]
fn formations_a_line_adds_1_a_unit_to_3_at_most() {
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 4), Facing::N);
    put(&mut g, LINE2, (1, 4), Facing::N);
    put(&mut g, LINE3, (3, 4), Facing::N);
    note_formations(&mut g);
    assert_eq!(g.formation_kind(a), Some(Formation::Line));
    let e = put(&mut g, ENEMY, (2, 5), Facing::S);
    let odds = g.odds(&[a], (2, 5), false, false);
    // 2 + 2 (two others in the line) against 2.
    assert_eq!((odds.attack, odds.defence), (4, 2), "{:?}", odds.modifiers);
    put(&mut g, LINE4, (4, 4), Facing::N);
    put(&mut g, "St-Hilaire: 14e ligne", (0, 4), Facing::N);
    note_formations(&mut g);
    assert_eq!(g.odds(&[a], (2, 5), false, false).attack, 5, "+3 at most");
    let _ = e;
}

#[test]
fn formations_units_joining_during_the_turn_add_nothing_until_the_other_players_turn() {
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 4), Facing::N);
    put(&mut g, ENEMY, (2, 5), Facing::S);
    note_formations(&mut g);
    put(&mut g, LINE2, (1, 4), Facing::N);
    assert_eq!(g.formation_kind(a), Some(Formation::Line));
    assert_eq!(g.odds(&[a], (2, 5), false, false).attack, 2);
}

#[test]
fn formations_light_infantry_fights_as_line_infantry_in_a_formation() {
    let mut g = empty();
    let l = put(&mut g, LIGHT, (2, 4), Facing::N);
    assert_eq!(g.base_cf(l), 3);
    put(&mut g, LINE2, (1, 4), Facing::N);
    assert_eq!(g.base_cf(l), 2);
}

#[test]
fn formations_a_stream_splits_a_formation() {
    let mut g = empty();
    let a = put(&mut g, LINE, (8, 5), Facing::N);
    put(&mut g, LINE2, (9, 5), Facing::N);
    assert_eq!(g.formation_kind(a), None);
    put(&mut g, LINE3, (7, 5), Facing::N);
    assert_eq!(g.formation(a).unwrap().1.len(), 1);
}

#[test]
fn formations_a_square_has_plus_1_in_defence_a_front_all_round_and_moves_at_2_a_space() {
    let mut g = empty();
    let s = put(&mut g, LINE, (2, 4), Facing::N);
    act(&mut g, Action::Square { unit: s as UnitId });
    assert!(g.units[s].square);
    assert_eq!(g.aspect(s, (2, 3)), Aspect::Front);
    g.side = Side::Allied;
    let e = put(&mut g, ENEMY, (2, 5), Facing::S);
    g.units[e].moved = false;
    let odds = g.odds(&[e], (2, 4), false, false);
    assert_eq!(odds.defence, 3, "{:?}", odds.modifiers);
    let mut g2 = empty();
    let s2 = put(&mut g2, LINE, (2, 4), Facing::N);
    g2.units[s2].square = true;
    assert_eq!(cost(&g2, s2, (2, 6), Facing::N), Some(4));
}

#[test]
fn formations_a_square_may_not_stand_next_to_another_formation() {
    let mut g = empty();
    let s = put(&mut g, LINE, (2, 4), Facing::N);
    put(&mut g, LINE2, (3, 5), Facing::N);
    put(&mut g, LINE3, (4, 5), Facing::N);
    let e = refused(&g, Action::Square { unit: s as UnitId });
    assert_eq!(e.section, AzSection::Formations);
}

#[test]
fn formations_russian_units_may_not_attack_after_a_change_of_formation() {
    let mut g = empty();
    g.side = Side::Allied;
    let a = put(&mut g, ENEMY, (2, 5), Facing::S);
    put(&mut g, ENEMY2, (1, 5), Facing::S);
    note_formations(&mut g);
    put(&mut g, LINE, (2, 4), Facing::N);
    let m = unit(&g, ENEMY2);
    g.units[m].at = Some((2, 6));
    assert_eq!(g.formation_kind(a), Some(Formation::Column));
    let e = refused(&g, Action::Attack { units: vec![a as UnitId], target: (2, 4), charge: false });
    assert!(e.words.contains("Russian"), "{e}");
}

// --- Combat ---

#[test]
fn combat_flank_minus_1_rear_minus_2_doubled_against_demoralised_infantry() {
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 4), Facing::E);
    let d = put(&mut g, ENEMY, (3, 4), Facing::N);
    assert_eq!(g.aspect(d, (2, 4)), Aspect::Flank);
    assert_eq!(g.odds(&[a], (3, 4), false, false).defence, 1);
    g.units[d].facing = Facing::W;
    assert_eq!(g.odds(&[a], (3, 4), false, false).defence, 2, "front");
    g.units[d].facing = Facing::E;
    assert_eq!(g.aspect(d, (2, 4)), Aspect::Rear);
    assert_eq!(g.odds(&[a], (3, 4), false, false).defence, 0);
    g.units[d].demoralised = true;
    // Halved (2 → 1), rear doubled (−4).
    assert_eq!(g.odds(&[a], (3, 4), false, false).defence, -3);
}

#[test]
fn combat_an_octagon_has_3_front_and_3_rear_sides_and_1_flank_each_way() {
    let mut g = empty();
    let d = put(&mut g, ENEMY, (2, 4), Facing::N);
    assert_eq!(g.aspect(d, (1, 5)), Aspect::Front);
    assert_eq!(g.aspect(d, (3, 5)), Aspect::Front);
    assert_eq!(g.aspect(d, (3, 4)), Aspect::Flank);
    assert_eq!(g.aspect(d, (1, 3)), Aspect::Rear);
}

#[test]
fn combat_terrain_town_plus_2_for_infantry_uphill_and_across_the_stream_minus_1() {
    let mut g = empty();
    // Puntowitz (9,10), a town on the stream's east bank, attacked from (8,10) across it.
    let a = put(&mut g, LINE, (8, 10), Facing::E);
    put(&mut g, ENEMY, (9, 10), Facing::W);
    let odds = g.odds(&[a], (9, 10), false, false);
    assert_eq!(odds.attack, 1, "-1 across the stream: {:?}", odds.modifiers);
    assert_eq!(odds.defence, 4, "+2 in a town");
    assert_eq!(g.sc.tables.crt_row(odds.difference()), None);
    let e = refused(&g, Action::Attack { units: vec![a as UnitId], target: (9, 10), charge: false });
    assert!(e.words.contains("below -1"), "{e}");
    let mut g = empty();
    let a = put(&mut g, LINE, (10, 6), Facing::E);
    put(&mut g, ENEMY, (11, 6), Facing::W);
    assert_eq!(g.odds(&[a], (11, 6), false, false).attack, 1, "uphill");
}

#[test]
fn combat_many_spaces_against_one_each_attacks_once() {
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 4), Facing::E);
    let b = put(&mut g, LINE2, (3, 3), Facing::N);
    put(&mut g, ENEMY, (3, 4), Facing::W);
    let odds = g.odds(&[a, b], (3, 4), false, false);
    // 2 + 2 against 2 − 1 (b strikes the flank).
    assert_eq!((odds.attack, odds.defence), (4, 1));
    g.rng = rolling(&[4]);
    act(&mut g, Action::Attack { units: vec![a as UnitId, b as UnitId], target: (3, 4), charge: false });
    assert!(g.units[a].attacked && g.units[b].attacked);
    let e = g.attack_refusal(&[a], (3, 4)).expect("refused");
    assert!(e.contains("had combat"), "{e}");
}

#[test]
fn combat_resolution_the_winner_chooses_the_least_damaging_straight_retreat() {
    let mut g = empty();
    // A line of three against an infantry unit on an octagon.
    let a = put(&mut g, LINE, (4, 3), Facing::N);
    let d = put(&mut g, ENEMY, (4, 4), Facing::S);
    put(&mut g, LINE3, (3, 3), Facing::N);
    put(&mut g, LINE4, (5, 3), Facing::N);
    // An Allied unit north-west: that line would disorganize it.
    let friend = put(&mut g, ENEMY2, (3, 5), Facing::S);
    note_formations(&mut g);
    // 4 against 2: +2 row, die 5 → D3.
    g.rng = rolling(&[5]);
    act(&mut g, Action::Attack { units: vec![a as UnitId], target: (4, 4), charge: false });
    assert!(matches!(g.pending.last(), Some(Pending::Retreat { spaces: 3, chooser: Side::French, .. })));
    assert_eq!(g.deciding(), Some(Side::French), "the winner decides");
    // Away from the attacker: N, NE or NW in a straight line; NW passes over a friend.
    let lines: Vec<_> = g.retreat_lines(&[d as UnitId], 3, &[(4, 3)]).into_iter().map(|l| (l.0, l.2)).collect();
    assert_eq!(lines, vec![(Facing::N, 0), (Facing::NE, 0), (Facing::NW, 1)]);
    let mut legal = Vec::new();
    g.legal(&mut legal);
    let dirs: std::collections::BTreeSet<_> = legal
        .iter()
        .filter_map(|x| if let Action::Retreat { toward, .. } = x { Some(*toward) } else { None })
        .collect();
    assert_eq!(dirs.into_iter().collect::<Vec<_>>(), vec![Facing::N, Facing::NE], "the least damaging");
    act(&mut g, Action::Retreat { toward: Facing::N, facing: Facing::E });
    assert_eq!(g.units[d].at, Some((4, 7)));
    assert_eq!(g.units[d].facing, Facing::E);
    assert!(!g.units[friend].dis);
}

#[test]
fn combat_resolution_a_retreat_onto_the_enemy_eliminates() {
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 4), Facing::N);
    let d = put(&mut g, ENEMY, (2, 5), Facing::S);
    put(&mut g, LINE3, (1, 4), Facing::N);
    put(&mut g, LINE4, (3, 4), Facing::N);
    // Every line away is blocked by French units.
    for (i, c) in [(1, 6), (2, 6), (3, 6)].into_iter().enumerate() {
        let names = ["St-Hilaire: 14e ligne", "Vandamme: 4e ligne", "Vandamme: 28e ligne"];
        put(&mut g, names[i], c, Facing::S);
    }
    note_formations(&mut g);
    g.rng = rolling(&[5]);
    act(&mut g, Action::Attack { units: vec![a as UnitId], target: (2, 5), charge: false });
    act(&mut g, Action::Retreat { toward: Facing::N, facing: Facing::N });
    assert!(g.units[d].eliminated);
}

#[test]
fn demoralization_a_retreat_of_more_than_3_spaces_demoralises_and_halves_the_cf() {
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 1), Facing::N);
    let d = put(&mut g, ENEMY, (2, 2), Facing::S);
    put(&mut g, LINE3, (1, 1), Facing::N);
    put(&mut g, LINE4, (3, 1), Facing::N);
    note_formations(&mut g);
    // 4 against 2: die 6 → D5.
    g.rng = rolling(&[6]);
    act(&mut g, Action::Attack { units: vec![a as UnitId], target: (2, 2), charge: false });
    act(&mut g, Action::Retreat { toward: Facing::N, facing: Facing::S });
    assert_eq!(g.units[d].at, Some((2, 7)));
    assert!(g.units[d].demoralised);
    assert_eq!(g.base_cf(d), 1, "2 halved, rounded up");
}

#[test]
fn demoralization_twice_in_a_turn_eliminates() {
    let mut g = empty();
    let u = put(&mut g, ENEMY, (2, 2), Facing::S);
    let mut ev = Vec::new();
    g.demoralise(u, "test".into(), &mut ev);
    assert!(!g.units[u].eliminated);
    g.demoralise(u, "test".into(), &mut ev);
    assert!(g.units[u].eliminated);
    let v = put(&mut g, ENEMY2, (3, 2), Facing::S);
    g.disorder(v, "test".into(), &mut ev);
    g.disorder(v, "test".into(), &mut ev);
    assert!(g.units[v].eliminated, "double DIS means elimination");
}

#[test]
fn formations_and_commanders_the_rating_difference_moves_the_die() {
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 4), Facing::N);
    put(&mut g, ENEMY, (2, 5), Facing::S);
    let k = command(&g, "Lannes");
    g.commands[k].at = Some((1, 3));
    let odds = g.odds(&[a], (2, 5), false, false);
    // Lannes 4 against no commander (0): +2.
    assert_eq!(odds.die_modifier(), 2, "{:?}", odds.die_modifiers);
    let k = command(&g, "Napoléon");
    g.commands[k].at = Some((0, 1));
    assert_eq!(g.odds(&[a], (2, 5), false, false).die_modifier(), 3, "the supreme commander's 6");
    let k = command(&g, "Bagration");
    g.commands[k].at = Some((3, 7));
    // 6 against 4: +1.
    assert_eq!(g.odds(&[a], (2, 5), false, false).die_modifier(), 1);
}

#[test]
fn formations_and_commanders_a_formation_in_range_against_cavalry_plus_1_cavalry_against_it_minus_1() {
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 4), Facing::N);
    put(&mut g, LINE2, (1, 4), Facing::N);
    put(&mut g, ENEMY_CAV, (2, 5), Facing::S);
    note_formations(&mut g);
    let k = command(&g, "Lannes");
    g.commands[k].at = Some((1, 3));
    let odds = g.odds(&[a], (2, 5), false, false);
    assert!(odds.die_modifiers.iter().any(|m| m.0 == 1 && m.1.contains("cavalry")), "{:?}", odds.die_modifiers);
    g.side = Side::Allied;
    let c = unit(&g, ENEMY_CAV);
    let odds = g.odds(&[c], (2, 4), false, false);
    assert!(odds.die_modifiers.iter().any(|m| m.0 == -1), "{:?}", odds.die_modifiers);
}

// --- Charges ---

#[test]
fn cavalry_charge_plus_3_for_heavy_cavalry_then_dis() {
    let mut g = empty();
    let c = put(&mut g, HEAVY_CAV, (2, 1), Facing::N);
    let d = put(&mut g, ENEMY, (2, 5), Facing::S);
    act(&mut g, Action::Move { unit: c as UnitId, to: (2, 4), facing: Facing::N });
    assert!(g.may_charge(c, (2, 5)));
    let odds = g.odds(&[c], (2, 5), true, false);
    assert_eq!(odds.attack, 6, "3 + 3: {:?}", odds.modifiers);
    g.rng = rolling(&[3]);
    act(&mut g, Action::Attack { units: vec![c as UnitId], target: (2, 5), charge: true });
    assert!(g.units[c].dis, "DIS after a charge");
    let _ = d;
    // The DIS stays at the end of this turn.
    g.pending.clear();
    g.step = Step::Commands;
    act(&mut g, Action::EndTurn);
    assert!(g.units[c].dis);
}

#[test]
fn cavalry_charge_not_after_a_turn_in_the_last_space_nor_against_a_square() {
    let mut g = empty();
    let c = put(&mut g, HEAVY_CAV, (1, 4), Facing::E);
    put(&mut g, ENEMY, (2, 5), Facing::S);
    act(&mut g, Action::Move { unit: c as UnitId, to: (2, 4), facing: Facing::N });
    assert!(!g.may_charge(c, (2, 5)), "it turned in the last space");
    let mut g = empty();
    let c = put(&mut g, HEAVY_CAV, (2, 1), Facing::N);
    let d = put(&mut g, ENEMY, (2, 5), Facing::S);
    g.units[d].square = true;
    act(&mut g, Action::Move { unit: c as UnitId, to: (2, 4), facing: Facing::N });
    assert!(!g.may_charge(c, (2, 5)));
}

#[test]
fn cavalry_charge_the_mist_takes_2_in_turn_1() {
    let mut g = empty();
    g.turn = 1;
    let c = put(&mut g, HEAVY_CAV, (2, 1), Facing::N);
    put(&mut g, ENEMY, (2, 5), Facing::S);
    act(&mut g, Action::Move { unit: c as UnitId, to: (2, 4), facing: Facing::N });
    assert_eq!(g.odds(&[c], (2, 5), true, false).attack, 4);
}

// --- Reactions ---

#[test]
fn reactions_infantry_opportunity_fire_when_a_unit_moves_into_its_front() {
    let mut g = empty();
    let u = put(&mut g, LINE, (1, 3), Facing::E);
    let e = put(&mut g, ENEMY, (1, 5), Facing::S);
    act(&mut g, Action::Move { unit: u as UnitId, to: (2, 3), facing: Facing::E });
    assert!(g.pending.is_empty(), "not in its front");
    let mut g = empty();
    let u = put(&mut g, LINE, (0, 4), Facing::E);
    put(&mut g, ENEMY, (1, 5), Facing::S);
    act(&mut g, Action::Move { unit: u as UnitId, to: (1, 4), facing: Facing::E });
    assert!(matches!(g.pending.last(), Some(Pending::OpportunityFire { .. })));
    assert_eq!(g.deciding(), Some(Side::Allied));
    // 2 against 2, row 0: a 6 is D2 for the mover; an A result would be N.
    g.rng = rolling(&[6]);
    act(&mut g, Action::OpportunityFire);
    assert!(matches!(g.pending.last(), Some(Pending::Retreat { spaces: 2, chooser: Side::Allied, .. })));
    let _ = e;
}

/// Infantry Opportunity fire (issue 63, item 9): "each time a player moves a unit into a space
/// opposite the Front of an enemy Infantry unit, without attacking that infantry unit". A unit
/// that ends facing the infantry and could attack it is asked first: attacked, the infantry does
/// not fire; left alone, it may.
#[test]
fn reactions_infantry_opportunity_fire_at_a_unit_facing_it_that_does_not_attack_it() {
    let setup = || {
        let mut g = empty();
        let u = put(&mut g, LINE, (2, 3), Facing::N);
        let e = put(&mut g, ENEMY, (2, 5), Facing::S);
        note_formations(&mut g);
        act(&mut g, Action::Move { unit: u as UnitId, to: (2, 4), facing: Facing::N });
        (g, u, e)
    };
    let (mut g, u, e) = setup();
    assert!(
        matches!(g.pending.last(), Some(Pending::Faced { unit, by }) if *unit as usize == u && by == &vec![e as UnitId]),
        "{:?}",
        g.pending
    );
    assert_eq!(g.deciding(), Some(Side::French), "the mover's player chooses");
    let mut legal = Vec::new();
    g.legal(&mut legal);
    assert!(legal.contains(&Action::Decline));
    assert!(legal.iter().any(|a| matches!(a, Action::Attack { target: (2, 5), .. })), "{legal:?}");
    assert!(
        !legal.iter().any(|a| matches!(a, Action::Move { .. } | Action::EndMovement)),
        "nothing else first: {legal:?}"
    );
    // Left alone: the Allied infantry may fire.
    act(&mut g, Action::Decline);
    assert!(
        matches!(g.pending.last(), Some(Pending::OpportunityFire { by, at, chance: false }) if *by as usize == e && *at as usize == u),
        "{:?}",
        g.pending
    );
    assert_eq!(g.deciding(), Some(Side::Allied));
    // Attacked: no opportunity fire, before or after the attack.
    let (mut g, _, _) = setup();
    g.rng = rolling(&[3, 3, 3]);
    act(&mut g, Action::Attack { units: vec![u as UnitId], target: (2, 5), charge: false });
    assert!(
        !g.pending.iter().any(|p| matches!(p, Pending::OpportunityFire { .. } | Pending::Faced { .. })),
        "{:?}",
        g.pending
    );
}

/// Combat: "If a Command is stacked with combat units it suffers the same result as the units it
/// is stacked with" (issue 63, item 9): driven back, the units take their command with them; it
/// is not left behind alone to be taken.
#[test]
fn combat_a_command_stacked_with_combat_units_retreats_with_them() {
    let mut g = empty();
    let a = put(&mut g, LINE, (4, 3), Facing::N);
    let d = put(&mut g, ENEMY, (4, 4), Facing::S);
    put(&mut g, LINE3, (3, 3), Facing::N);
    put(&mut g, LINE4, (5, 3), Facing::N);
    let k = command(&g, "Bagration");
    g.commands[k].at = Some((4, 4));
    note_formations(&mut g);
    // The die that drives the defender back (its command's rating counts in the odds).
    let start = g.clone();
    let mut driven_back = false;
    for die in 1..=6 {
        g = start.clone();
        g.rng = rolling(&[die]);
        act(&mut g, Action::Attack { units: vec![a as UnitId], target: (4, 4), charge: false });
        if matches!(g.pending.last(), Some(Pending::Retreat { chooser: Side::French, .. })) {
            driven_back = true;
            break;
        }
    }
    assert!(driven_back, "some die drives the defender back");
    act(&mut g, Action::Retreat { toward: Facing::N, facing: Facing::S });
    assert_ne!(g.units[d].at, Some((4, 4)), "driven back");
    assert_eq!(g.commands[k].at, g.units[d].at, "the command went with its unit");
    assert!(!g.commands[k].captured);
}

#[test]
fn combat_chance_fire_at_a_unit_before_infantry_it_may_not_attack_below_minus_1() {
    const DRAGOONS: &str = "Bourcier: dragoons";
    // 1 (dragoons) against 2 (a lone line unit): −1, an attack the table allows: no chance
    // fire; the French choose to attack it or not (opportunity fire if not).
    let mut g = empty();
    let d = put(&mut g, DRAGOONS, (2, 2), Facing::N);
    put(&mut g, ENEMY, (2, 6), Facing::S);
    note_formations(&mut g);
    act(&mut g, Action::Move { unit: d as UnitId, to: (2, 5), facing: Facing::N });
    assert!(matches!(g.pending.as_slice(), [Pending::Faced { .. }]), "{:?}", g.pending);
    // The same unit in a line of three: 2 + 2 = 4 against 1 (2 charging), below −1.
    let mut g = empty();
    let d = put(&mut g, DRAGOONS, (2, 2), Facing::N);
    let e = put(&mut g, ENEMY, (2, 6), Facing::S);
    put(&mut g, ENEMY2, (1, 6), Facing::S);
    put(&mut g, "Bagration: Pskov musketeers", (3, 6), Facing::S);
    note_formations(&mut g);
    act(&mut g, Action::Move { unit: d as UnitId, to: (2, 5), facing: Facing::N });
    assert!(g.below_the_table(d, (2, 6)));
    assert!(
        matches!(g.pending.last(), Some(Pending::OpportunityFire { by, chance: true, .. }) if *by as usize == e),
        "{:?}",
        g.pending
    );
    assert_eq!(g.deciding(), Some(Side::Allied));
    // Basic strengths, 2 against 1, row +1: a 1 is A5, which does the firer no harm.
    g.rng = rolling(&[1]);
    let ev = act(&mut g, Action::OpportunityFire);
    let r = rolled(&ev, "chance fire");
    assert_eq!(r.result, grognard::games::austerlitz::text::crt_name(CrtResult::N));
}

#[test]
fn combat_resolution_a_retreat_past_the_front_of_enemy_infantry_provokes_its_fire() {
    let mut g = empty();
    let a = put(&mut g, LINE, (4, 3), Facing::N);
    let d = put(&mut g, ENEMY, (4, 4), Facing::S);
    put(&mut g, LINE3, (3, 3), Facing::N);
    put(&mut g, LINE4, (5, 3), Facing::N);
    // A French unit beside the line of retreat north, its front towards it.
    let watcher = put(&mut g, "St-Hilaire: 14e ligne", (3, 6), Facing::E);
    note_formations(&mut g);
    g.rng = rolling(&[5]);
    act(&mut g, Action::Attack { units: vec![a as UnitId], target: (4, 4), charge: false });
    act(&mut g, Action::Retreat { toward: Facing::N, facing: Facing::S });
    assert_eq!(g.units[d].at, Some((4, 7)));
    assert!(
        matches!(g.pending.last(), Some(Pending::OpportunityFire { by, .. }) if *by as usize == watcher),
        "{:?}",
        g.pending
    );
    assert_eq!(g.deciding(), Some(Side::French), "the firing unit's player decides");
}

#[test]
fn reactions_counter_charge_halves_the_charging_units_basic_factor() {
    let mut g = empty();
    let c = put(&mut g, HEAVY_CAV, (2, 1), Facing::N);
    let d = put(&mut g, ENEMY_CAV, (2, 5), Facing::S);
    act(&mut g, Action::Move { unit: c as UnitId, to: (2, 4), facing: Facing::N });
    act(&mut g, Action::Attack { units: vec![c as UnitId], target: (2, 5), charge: true });
    assert!(matches!(g.pending.last(), Some(Pending::AttackReactions { .. })));
    act(&mut g, Action::CounterCharge);
    let odds = g.odds(&[c], (2, 5), true, true);
    assert_eq!(odds.attack, 2, "3 halved, rounded up, and no charge bonus");
    g.rng = rolling(&[3]);
    act(&mut g, Action::Decline);
    assert!(g.units[d].counter_charged);
}

#[test]
fn reactions_artillery_opportunity_fire_at_a_charge_in_its_field_of_fire() {
    let mut g = empty();
    let c = put(&mut g, HEAVY_CAV, (2, 1), Facing::N);
    put(&mut g, ENEMY, (2, 5), Facing::S);
    let gun = put(&mut g, ENEMY_GUN, (4, 4), Facing::W);
    act(&mut g, Action::Move { unit: c as UnitId, to: (2, 4), facing: Facing::N });
    act(&mut g, Action::Attack { units: vec![c as UnitId], target: (2, 5), charge: true });
    let mut legal = Vec::new();
    g.legal(&mut legal);
    assert!(legal.contains(&Action::ReactFire { gun: gun as UnitId }), "{legal:?}");
    g.rng = rolling(&[6, 6]);
    act(&mut g, Action::ReactFire { gun: gun as UnitId });
    assert!(g.units[c].eliminated, "12 at range 2: E");
    assert!(g.units[gun].smoke && g.units[gun].reacted);
}

// --- Turn, Davout, victory ---

#[test]
fn phases_davout_arrives_in_turn_1_on_1_to_3() {
    for (roll, arrives) in [(3, true), (4, false)] {
        let mut g = empty();
        g.turn = 1;
        g.step = Step::Fire;
        g.rng = rolling(&[roll]);
        let ev = act(&mut g, Action::EndFire);
        let r = rolled(&ev, "Davout's arrival (turn 1: 3 or less)");
        assert_eq!(r.dice, vec![roll]);
        assert_eq!(r.result.contains("arrives"), arrives);
        assert_eq!(g.davout_arrived, arrives);
        let friant = unit(&g, "Friant: 33e ligne");
        let mut legal = Vec::new();
        g.legal(&mut legal);
        assert_eq!(legal.iter().any(|a| matches!(a, Action::Move { unit, .. } if *unit as usize == friant)), arrives);
    }
    let mut g = empty();
    g.turn = 2;
    g.step = Step::Fire;
    g.rng = rolling(&[4]);
    let ev = act(&mut g, Action::EndFire);
    assert!(rolled(&ev, "(turn 2: 4 or less)").result.contains("arrives"), "one more each turn");
}

#[test]
fn phases_step_5_removes_smoke_and_the_phasing_players_dis() {
    let mut g = empty();
    let a = put(&mut g, LINE, (2, 4), Facing::N);
    let e = put(&mut g, ENEMY, (5, 5), Facing::S);
    g.units[a].dis = true;
    g.units[e].dis = true;
    g.units[e].smoke = true;
    g.step = Step::Commands;
    act(&mut g, Action::EndTurn);
    assert!(!g.units[a].dis);
    assert!(g.units[e].dis, "the other side's DIS stays");
    assert!(!g.units[e].smoke, "all smoke comes off");
    assert_eq!((g.turn, g.side), (6, Side::Allied));
}

#[test]
fn check_for_victory_capturing_napoleon_ends_the_game() {
    let mut g = empty();
    g.side = Side::Allied;
    let u = put(&mut g, ENEMY, (2, 6), Facing::S);
    let k = command(&g, "Napoléon");
    g.commands[k].at = Some((2, 5));
    let ev = act(&mut g, Action::Move { unit: u as UnitId, to: (2, 4), facing: Facing::S });
    assert!(ev.iter().any(|e| matches!(e, Event::Victory { winner: Some(Side::Allied), .. })));
    assert!(g.is_over());
}

#[test]
fn check_for_victory_ten_more_eliminated_at_the_end_of_turn_9() {
    let mut g = empty();
    g.turn = 9;
    g.step = Step::Commands;
    g.eliminated = [10, 0];
    act(&mut g, Action::EndTurn);
    assert_eq!(g.winner, Some(Side::French));
    let mut g = empty();
    g.turn = 9;
    g.step = Step::Commands;
    g.eliminated = [9, 0];
    act(&mut g, Action::EndTurn);
    assert!(!g.is_over());
}

#[test]
fn check_for_victory_points_1_a_unit_3_for_artillery_5_for_the_guard_half_for_demoralised() {
    let mut g = empty();
    let mut ev = Vec::new();
    let line = put(&mut g, ENEMY, (12, 3), Facing::W);
    let gun = put(&mut g, ENEMY_GUN, (12, 4), Facing::W);
    let guard = put(&mut g, "Guard: Preobrazhensky", (12, 5), Facing::W);
    let demo = put(&mut g, ENEMY2, (12, 6), Facing::W);
    g.eliminate(line, "t".into(), &mut ev);
    g.eliminate(gun, "t".into(), &mut ev);
    g.eliminate(guard, "t".into(), &mut ev);
    g.units[demo].demoralised = true;
    // In halves: 2 + 6 + 10 + 1.
    assert_eq!(g.points()[0], 19);
}

#[test]
fn demoralization_the_guards_collapse_demoralises_its_side_in_the_following_2_game_turns() {
    let mut g = empty();
    let mut ev = Vec::new();
    let line = put(&mut g, ENEMY, (12, 3), Facing::W);
    for n in ["Guard: Preobrazhensky", "Guard: Semenovsky", "Guard: Izmailovsky"] {
        let u = put(&mut g, n, (13, 3), Facing::W);
        g.eliminate(u, "t".into(), &mut ev);
    }
    assert!(ev.iter().any(|e| matches!(e, Event::GuardCollapse { side: Side::Allied, until: 7 })));
    assert!(!g.is_demoralised(line), "not in the turn of the collapse: \"in the following 2 game turns\"");
    for turn in [6, 7] {
        g.turn = turn;
        assert!(g.is_demoralised(line), "turn {turn}");
    }
    g.turn = 8;
    assert!(!g.is_demoralised(line));
}

// --- Set-up ---

#[test]
fn setup_within_the_sectors_on_ones_side_of_the_red_border() {
    let mut g = setup(scenario("1-historical.ron"), 1);
    assert_eq!(g.deciding(), Some(Side::Allied), "the Allies set up first");
    let u = unit(&g, ENEMY);
    // Bagration's historical sector is 3 (columns 8-11, rows 12-15): only columns 10-11 are Allied.
    assert!(
        refused(&g, Action::Deploy { unit: u as UnitId, at: (9, 13), facing: Facing::W }).words.contains("red border")
    );
    act(&mut g, Action::Deploy { unit: u as UnitId, at: (10, 13), facing: Facing::W });
    let e = refused(
        &g,
        Action::Deploy { unit: unit(&g, "Bagration: Pskov musketeers") as UnitId, at: (10, 13), facing: Facing::W },
    );
    assert_eq!(e.section, AzSection::Stacking);
    act(&mut g, Action::DeployRest);
    assert_eq!(g.deciding(), Some(Side::French));
    act(&mut g, Action::DeployRest);
    assert_eq!((g.turn, g.side, g.step), (1, Side::Allied, Step::Fire));
    for u in 0..g.units.len() {
        if let Some(c) = g.units[u].at {
            assert!(g.own_half(g.side_of(u), c), "{} at {c:?}", g.sc.units[u].name);
        }
    }
}

#[test]
fn setup_soult_places_at_least_2_combat_units_in_each_of_his_5_sectors() {
    let mut g = setup(scenario("1-historical.ron"), 1);
    act(&mut g, Action::DeployRest);
    let soult = command(&g, "Soult");
    let mine: Vec<usize> = (0..g.units.len()).filter(|&u| g.sc.unit_command[u] as usize == soult).collect();
    // Put 11 of his 12 units in sector 8 where they fit, and the refusal comes before a sector
    // could be left short.
    let sector8: Vec<Cell> =
        g.setup_cells(soult).iter().copied().filter(|&c| g.sc.board.space(c).sector == Some(8)).collect();
    let mut placed = 0;
    for (&u, &c) in mine.iter().zip(&sector8) {
        match g.check(
            Mode::Enforced,
            seat_of(Side::French),
            &Action::Deploy { unit: u as UnitId, at: c, facing: Facing::E },
        ) {
            Ok(()) => {
                act(&mut g, Action::Deploy { unit: u as UnitId, at: c, facing: Facing::E });
                placed += 1;
            }
            Err(e) => {
                assert!(e.words.contains("Soult"), "{e}");
                break;
            }
        }
    }
    // 12 units, 4 other sectors needing 2 each: at most 4 in sector 8 (the 2 it needs and 2 more).
    assert_eq!(placed, 4);
}

#[test]
fn the_one_gate_every_viewer_sees_the_whole_board_and_no_one_the_dice() {
    let mut g = setup(scenario("1-historical.ron"), 7);
    let mut ev = Vec::new();
    let seat = seat_of(Side::Allied);
    let ok = checked(&g, Mode::Enforced, seat, &Action::DeployRest).unwrap();
    g.apply(seat, ok, &mut ev);
    let a = g.observe(Viewer::Seat(seat_of(Side::French)));
    let b = g.observe(Viewer::Spectator);
    assert_eq!(a.game, b.game);
    assert_ne!(a.game.rng, g.rng, "the seed never leaves the table");
}

#[test]
fn formations_a_gun_may_join_infantry_in_a_square_which_then_cant_move_and_the_gun_cant_fire() {
    let mut g = empty();
    let inf = put(&mut g, LINE, (2, 5), Facing::N);
    g.units[inf].square = true;
    // The horse battery limbered, its guns pointing south: it drives north onto the square.
    let gun = put(&mut g, HORSE, (2, 3), Facing::S);
    let mut legal = Vec::new();
    g.legal(&mut legal);
    let onto =
        legal.iter().find(|a| matches!(a, Action::Move { unit, to: (2, 5), .. } if *unit as usize == gun)).cloned();
    let Some(onto) = onto else { panic!("a gun may stack with infantry in a square: {legal:?}") };
    act(&mut g, onto);
    assert_eq!(g.units[gun].at, Some((2, 5)));
    assert!(g.cannot_move(inf).is_some_and(|w| w.contains("square")), "the square then can't move");
    put(&mut g, ENEMY, (2, 7), Facing::S);
    assert!(g.shielded(gun));
    let e = refused(&g, Action::Fire { gun: gun as UnitId, target: (2, 7), battery: false });
    assert!(e.to_string().contains("square"), "{e}");
}

#[test]
fn demoralization_dis_and_demoralisation_count_apart_twice_is_dis_twice_or_demoralised_twice() {
    let mut g = empty();
    let u = put(&mut g, ENEMY, (2, 2), Facing::S);
    let mut ev = Vec::new();
    g.disorder(u, "test".into(), &mut ev);
    g.demoralise(u, "test".into(), &mut ev);
    assert!(!g.units[u].eliminated, "one DIS and one demoralisation are not twice either");
    assert!(g.units[u].dis && g.units[u].demoralised);
    // Demoralised twice in one turn, though it recovered between: eliminated.
    let v = put(&mut g, ENEMY2, (3, 2), Facing::S);
    g.demoralise(v, "test".into(), &mut ev);
    g.recover(v, &mut ev);
    assert!(!g.units[v].demoralised);
    g.demoralise(v, "test".into(), &mut ev);
    assert!(g.units[v].eliminated, "demoralised twice in a turn");
}

#[test]
fn demoralization_a_demoralised_unit_moving_over_a_friend_demoralises_and_disorganizes_it_without_killing_it() {
    let mut g = empty();
    let u = put(&mut g, LINE, (2, 4), Facing::N);
    g.units[u].demoralised = true;
    let f = put(&mut g, LINE2, (2, 5), Facing::N);
    act(&mut g, Action::Move { unit: u as UnitId, to: (2, 6), facing: Facing::N });
    assert!(g.units[f].dis, "passed over: DIS");
    assert!(g.units[f].demoralised, "by a demoralised unit: demoralised as well");
    assert!(!g.units[f].eliminated, "one of each is not twice");
}

#[test]
fn artillery_horse_artillery_that_fires_in_step_1_fires_on_the_artillery_table_and_stands() {
    let mut g = empty();
    g.step = Step::Fire;
    let gun = put(&mut g, HORSE, (3, 4), Facing::N);
    put(&mut g, ENEMY, (3, 6), Facing::S);
    assert!(std::ptr::eq(g.fire_table(gun), &g.sc.tables.artillery), "standing, it fires as artillery");
    g.rng = rolling(&[1, 1]);
    act(&mut g, Action::Fire { gun: gun as UnitId, target: (3, 6), battery: false });
    act(&mut g, Action::EndFire);
    assert_eq!(g.step, Step::Move);
    let mut legal = Vec::new();
    g.legal(&mut legal);
    assert!(!legal.iter().any(|a| matches!(a, Action::Move { unit, .. } if *unit as usize == gun)));
    let e = refused(&g, Action::Move { unit: gun as UnitId, to: (3, 3), facing: Facing::N });
    assert!(e.to_string().contains("Horse Artillery Table"), "{e}");
}

#[test]
fn artillery_horse_artillery_fires_and_moves_in_step_2_on_the_horse_artillery_table_and_its_lower_mf() {
    let mut g = empty();
    let gun = put(&mut g, HORSE, (3, 4), Facing::N);
    put(&mut g, ENEMY, (3, 6), Facing::S);
    assert_eq!(g.step, Step::Move);
    assert!(std::ptr::eq(g.fire_table(gun), &g.sc.tables.horse_artillery), "fire then move: the Horse Artillery Table");
    let mut legal = Vec::new();
    g.legal(&mut legal);
    assert!(legal.contains(&Action::Fire { gun: gun as UnitId, target: (3, 6), battery: false }), "fire before moving");
    g.rng = rolling(&[1, 1]);
    act(&mut g, Action::Fire { gun: gun as UnitId, target: (3, 6), battery: false });
    assert_eq!(g.cannot_move(gun), None, "it may still move");
    assert_eq!(g.allowance(gun), g.sc.units[gun].mf.0, "on its lower MF");
    act(&mut g, Action::Move { unit: gun as UnitId, to: (3, 3), facing: Facing::N });
    assert_eq!(g.units[gun].at, Some((3, 3)));
}

#[test]
fn formations_and_commanders_a_command_range_of_6_counts_spaces_stepped_through_not_the_kings_distance() {
    let mut g = empty();
    let k = command(&g, "Lannes");
    assert_eq!(g.sc.commands[k].range, 6);
    // Two squares on one diagonal, six columns and six rows apart: seven steps.
    g.commands[k].at = Some((1, 2));
    assert_eq!(g.sc.board.grid.steps((1, 2), (7, 8)), 7);
    let far = put(&mut g, LINE, (7, 8), Facing::N);
    assert!(!g.in_command(far), "7 spaces away is out of a range of 6");
    assert_eq!(g.rating_of(far), 0);
    // An octagon six steps away is in range.
    g.units[far].at = Some((7, 7));
    assert_eq!(g.sc.board.grid.steps((1, 2), (7, 7)), 6);
    assert!(g.in_command(far));
    assert_eq!(g.rating_of(far), g.sc.commands[k].rating);
}

#[test]
fn cavalry_charge_the_mist_never_takes_more_than_the_charge_adds_dragoons_in_turn_1_charge_at_their_basic_cf() {
    let mut g = empty();
    g.turn = 1;
    let c = put(&mut g, "Walther: dragoons", (2, 1), Facing::N);
    put(&mut g, ENEMY, (2, 5), Facing::S);
    act(&mut g, Action::Move { unit: c as UnitId, to: (2, 4), facing: Facing::N });
    assert!(g.may_charge(c, (2, 5)));
    let charge = g.odds(&[c], (2, 5), true, false);
    let plain = g.odds(&[c], (2, 5), false, false);
    assert_eq!(charge.attack, plain.attack, "+1 for the charge, -1 of the mist's 2: {:?}", charge.modifiers);
    assert!(charge.modifiers.iter().any(|m| m.0 == -1 && m.1.contains("mist")), "{:?}", charge.modifiers);
}

/// Commands: the phasing player may move any commands (step 4), each its MF in spaces whatever
/// the ground, on its own or on top of one of its side's units; never over enemy units, and only
/// one command to a space.
#[test]
fn commands_a_command_moves_its_mf_in_spaces_never_over_enemy_units_nor_onto_another_command() {
    let mut g = empty();
    g.step = Step::Commands;
    let k = command(&g, "Lannes");
    g.commands[k].at = Some((2, 4));
    let mf = g.sc.commands[k].mf as i32;
    put(&mut g, LINE, (2, 5), Facing::N);
    put(&mut g, ENEMY, (3, 5), Facing::S);
    let other = command(&g, "Napoléon");
    g.commands[other].at = Some((1, 5));
    let reach = g.command_reach(k);
    assert!(reach.contains(&(2, 4 + mf)), "{mf} spaces north");
    assert!(!reach.contains(&(2, 5 + mf)), "one space beyond its MF");
    assert!(reach.contains(&(2, 5)), "on top of its own side's unit");
    assert!(!reach.contains(&(3, 5)), "onto an enemy unit");
    assert!(!reach.contains(&(1, 5)), "onto another command");
    assert!(!reach.contains(&(2, 4)), "where it stands");
    // Enemy units on every side: it goes nowhere (an own unit and a command may be passed over).
    let ring: Vec<Cell> = g.sc.board.grid.neighbours((2, 4)).into_iter().map(|(_, c)| c).collect();
    assert_eq!(ring.len(), 8, "an octagon touches eight spaces");
    let allied: Vec<usize> =
        (0..g.units.len()).filter(|&u| g.side_of(u) == Side::Allied && g.kind(u).is_infantry()).take(8).collect();
    for (u, c) in allied.iter().zip(&ring) {
        g.units[*u].at = Some(*c);
    }
    assert_eq!(g.command_reach(k), Vec::<Cell>::new());
}
