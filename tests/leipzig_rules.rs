//! Leipzig 1813's rules, one test per rule with the rulebook section in its name, and every worked
//! example of the book with its numbers. Positions are built on an emptied map of a shipped
//! scenario; dice are forced by choosing the table's seed.

use grognard::engine::rng::TableRng;
use grognard::engine::rules::{Game, Mode, NamesRule, checked};
use grognard::engine::seats::{SeatId, Viewer};
use grognard::games::leipzig::actions::{Action, Event};
use grognard::games::leipzig::data::{CrtResult, Hex, Hexside, LzScenario, Side, Terrain};
use grognard::games::leipzig::rules::{seat_of, setup, zoc::Situation};
use grognard::games::leipzig::state::{Leipzig, March, Pending, Status, Step, UnitId, What};
use std::path::PathBuf;
use std::sync::Arc;

fn scenario(file: &str) -> Arc<LzScenario> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/leipzig-1813").join(file);
    Arc::new(LzScenario::load(&p).expect("a shipped scenario loads"))
}

/// Scenario 5's table with every counter taken off: the French to move on turn 25.
fn empty(file: &str) -> Leipzig {
    let (mut g, _) = setup(scenario(file), 1);
    g.units.clear();
    g.pending.clear();
    g.attacks.clear();
    g.step = Step::Move;
    g.side = Side::French;
    g.turn = g.sc.first_turn + 1;
    g
}

fn summer() -> Leipzig {
    empty("5-historical-summer.ron")
}

fn put(g: &mut Leipzig, side: Side, ty: &str, h: Hex) -> UnitId {
    let t = g.sc.type_index(ty).expect("a type");
    let u = g.add_unit(side, What::Type(t), Status::OnMap);
    g.units[u as usize].hex = Some(h);
    g.units[u as usize].revealed = true;
    u
}

fn leader(g: &mut Leipzig, side: Side, n: u8, h: Hex) -> UnitId {
    let u = g.add_unit(side, What::Leader(n), Status::OnMap);
    g.units[u as usize].hex = Some(h);
    g.units[u as usize].revealed = true;
    u
}

fn place(g: &Leipzig, name: &str) -> Hex {
    g.sc.board.place(name).expect("a place")
}

/// A clear hex with every hex within `r` clear, on the map and without rivers.
fn open_ground(g: &Leipzig, r: u32) -> Hex {
    let b = &g.sc.board;
    (0..b.len() as u16)
        .map(Hex)
        .find(|&h| {
            let (c, row) = b.col_row(h);
            c > 4
                && row > 4
                && c + 5 < b.columns
                && row + 5 < b.rows
                && (0..b.len() as u16).map(Hex).filter(|&x| b.distance(h, x) <= r).all(|x| {
                    matches!(b.terrain(x), Terrain::Clear | Terrain::City)
                        && !b.austria[x.0 as usize]
                        && b.neighbours(x).all(|(_, n)| b.side(x, n) == Hexside::Open)
                })
        })
        .expect("open ground")
}

/// The neighbour of `h` in direction `d` (0 north, then clockwise).
fn nb(g: &Leipzig, h: Hex, d: usize) -> Hex {
    g.sc.board.neighbours[h.0 as usize][d].expect("on the map")
}

/// A river hexside (or bridged one) between two clear hexes away from the edges.
fn river_side(g: &Leipzig, kind: Hexside) -> (Hex, Hex) {
    let b = &g.sc.board;
    for i in 0..b.len() {
        let h = Hex(i as u16);
        let (c, r) = b.col_row(h);
        if c < 3 || r < 3 || c + 3 > b.columns || r + 3 > b.rows || b.terrain(h) != Terrain::Clear {
            continue;
        }
        for (_, n) in b.neighbours(h) {
            if b.side(h, n) == kind && b.terrain(n) == Terrain::Clear && !b.austria[i] && !b.austria[n.0 as usize] {
                return (h, n);
            }
        }
    }
    panic!("no such hexside")
}

/// A generator whose first d6 rolls are `rolls`.
fn rolling(rolls: &[u8]) -> TableRng {
    (0..100_000u64)
        .find(|&s| {
            let mut r = TableRng::from_seed(s);
            rolls.iter().all(|&x| r.d6() == x)
        })
        .map(TableRng::from_seed)
        .expect("a seed")
}

fn act(g: &mut Leipzig, a: Action) -> Vec<Event> {
    let side = g.deciding().expect("a decision");
    let seat = seat_of(side);
    let mut ev = Vec::new();
    let ok = checked(g, Mode::Enforced, seat, &a).unwrap_or_else(|e| panic!("{a:?} refused: {e} ({:?})", e.section));
    let _ = g.apply(seat, ok, &mut ev);
    ev
}

fn refused(g: &Leipzig, a: Action) -> grognard::games::leipzig::LzError {
    let side = g.deciding().expect("a decision");
    g.check(Mode::Enforced, seat_of(side), &a).expect_err("refused")
}

fn dests(g: &Leipzig, u: UnitId, m: March) -> Vec<(Hex, u8)> {
    g.destinations(&Situation::of(g), u, m)
}

fn cost_to(g: &Leipzig, u: UnitId, h: Hex) -> Option<u8> {
    dests(g, u, March::Normal).into_iter().find(|(x, _)| *x == h).map(|(_, c)| c)
}

// ---- Movement and the Terrain Effects Chart ----

/// A decision asks for the map and a counter's search several times (the draw, the check, the
/// walk), so both are kept between questions (`Situation`'s kept maps, `Leipzig::reach`'s kept
/// searches): every change to the counters, and to the hexes emptied by an overrun, must be seen
/// by the next question, or a move would be judged on the table as it was.
#[test]
fn movement_the_kept_map_and_search_see_every_change_of_the_counters_and_the_overrun_hexes() {
    let mut g = summer();
    let h = open_ground(&g, 4);
    let u = put(&mut g, Side::French, "2-5", h);
    let first = Situation::of(&g);
    assert!(std::rc::Rc::ptr_eq(&first, &Situation::of(&g)), "nothing changed: the same map");
    let east = nb(&g, h, 1);
    let beyond = nb(&g, east, 1);
    assert_eq!(cost_to(&g, u, beyond), Some(2));
    // An Allied counter on the hex: a map of its own, and no move into it.
    let e = put(&mut g, Side::Allied, "2-5", beyond);
    assert!(!std::rc::Rc::ptr_eq(&first, &Situation::of(&g)), "a counter came: another map");
    assert_eq!(cost_to(&g, u, beyond), None, "no move into an Enemy-occupied hex");
    // Taken off again: the way is open as before.
    g.units[e as usize].status = Status::Gone(grognard::games::leipzig::state::Gone::Destroyed);
    assert_eq!(cost_to(&g, u, beyond), Some(2));
    // A hex emptied by an overrun costs more to enter, on the same map.
    let map = Situation::of(&g);
    g.overrun.push(east);
    assert!(std::rc::Rc::ptr_eq(&map, &Situation::of(&g)), "the counters stand as they stood");
    assert_eq!(cost_to(&g, u, east), Some(1 + g.sc.charts.terrain.overrun_enter));
}

/// A move's check asks the list's tests of its own hex alone (`move_listed`): a hex off the map
/// is refused by the Movement rule, a march that is not the smallest covering the cost by the
/// Forced March rule, as the list leaves them out, and the table is untouched.
#[test]
fn movement_a_moves_check_refuses_what_the_list_leaves_out_off_the_map_included() {
    let mut g = summer();
    let h = open_ground(&g, 3);
    let u = put(&mut g, Side::French, "5-4", h);
    let two = nb(&g, nb(&g, h, 0), 0);
    let before = format!("{:?}", g.units);
    for to in [Hex(u16::MAX), Hex(g.sc.board.len() as u16)] {
        let e = refused(&g, Action::Move { unit: u, to, march: March::Normal, supply: None });
        assert_eq!(e.section, grognard::games::leipzig::actions::rule::MOVEMENT, "{to:?}: {e}");
    }
    let e = refused(&g, Action::Move { unit: u, to: two, march: March::Double, supply: None });
    assert_eq!(
        e.section,
        grognard::games::leipzig::actions::rule::FORCED_MARCH,
        "a double march for a normal move: {e}"
    );
    assert_eq!(format!("{:?}", g.units), before, "nothing moved");
    act(&mut g, Action::Move { unit: u, to: two, march: March::Normal, supply: None });
    assert_eq!(g.units[u as usize].hex, Some(two));
}

#[test]
fn movement_case_a_one_mp_per_clear_hex_and_never_beyond_the_allowance() {
    let mut g = summer();
    let h = open_ground(&g, 3);
    let u = put(&mut g, Side::French, "5-4", h);
    let two = nb(&g, nb(&g, h, 0), 0);
    assert_eq!(cost_to(&g, u, two), Some(2));
    let far: Vec<_> = dests(&g, u, March::Normal).into_iter().filter(|(x, _)| g.sc.board.distance(h, *x) > 4).collect();
    assert!(far.is_empty(), "a 5-4 reaches no hex five away: {far:?}");
}

#[test]
fn terrain_effects_chart_river_hexside_costs_three_more_and_a_bridge_nothing() {
    let mut g = summer();
    let (a, b) = river_side(&g, Hexside::River);
    let u = put(&mut g, Side::French, "2-5", a);
    assert_eq!(cost_to(&g, u, b), Some(4), "1 MP clear + 3 MP river");
    let mut g = summer();
    let (a, b) = river_side(&g, Hexside::Bridge);
    let u = put(&mut g, Side::French, "2-5", a);
    assert_eq!(cost_to(&g, u, b), Some(1), "a bridge has no penalty");
}

#[test]
fn terrain_effects_chart_mountains_cost_five_and_bar_cavalry() {
    let mut g = summer();
    let b = &g.sc.board;
    let (h, m) = (0..b.len() as u16)
        .map(Hex)
        .find_map(|h| {
            (b.terrain(h) == Terrain::Clear && !b.austria[h.0 as usize])
                .then(|| {
                    b.neighbours(h).find(|&(_, n)| {
                        b.terrain(n) == Terrain::Mountain && b.side(h, n) == Hexside::Open && !b.austria[n.0 as usize]
                    })
                })
                .flatten()
                .map(|(_, n)| (h, n))
        })
        .expect("a mountain next to clear ground");
    let inf = put(&mut g, Side::French, "2-5", h);
    assert_eq!(cost_to(&g, inf, m), Some(5));
    g.units[inf as usize].status = Status::Gone(grognard::games::leipzig::state::Gone::Replaced);
    let cav = put(&mut g, Side::French, "1-8", h);
    assert_eq!(cost_to(&g, cav, m), None, "cavalry prohibited in mountains");
    let e = refused(&g, Action::Move { unit: cav, to: m, march: March::Normal, supply: None });
    assert!(e.words.contains("cavalry"), "{e}");
}

#[test]
fn movement_rule_g_never_into_enemy_units() {
    let mut g = summer();
    let h = open_ground(&g, 2);
    let u = put(&mut g, Side::French, "2-5", h);
    let e_hex = nb(&g, nb(&g, h, 0), 0);
    put(&mut g, Side::Allied, "2-5", e_hex);
    assert_eq!(cost_to(&g, u, e_hex), None);
    let e = refused(&g, Action::Move { unit: u, to: e_hex, march: March::Normal, supply: None });
    assert!(e.words.contains("Enemy units"), "{e}");
}

// ---- Zones of Control ----

#[test]
fn zones_of_control_case_a_infantry_stops_in_a_partial_zone() {
    let mut g = summer();
    let h = open_ground(&g, 4);
    let u = put(&mut g, Side::French, "2-5", h);
    let zone = nb(&g, h, 0);
    let at = nb(&g, zone, 0);
    put(&mut g, Side::Allied, "2-5", at); // partial zone on `zone`
    assert_eq!(cost_to(&g, u, zone), Some(1));
    let s = Situation::of(&g);
    let r = g.reach(&s, u, 5);
    assert!(r.stops(zone), "the infantry must stop on entering a controlled hex");
}

#[test]
fn zones_of_control_case_b_cavalry_goes_through_a_partial_zone_at_two_more_and_stops_in_a_total_one() {
    let mut g = summer();
    let h = open_ground(&g, 4);
    let cav = put(&mut g, Side::French, "1-8", h);
    let zone = nb(&g, h, 0);
    // Two Allied infantry units either side of the way north: `zone` and the hex beyond it are
    // both partially controlled, and every way round passes through their zones too.
    let (e1, e2) = (nb(&g, zone, 1), nb(&g, zone, 5));
    let inf = put(&mut g, Side::Allied, "2-5", e1);
    put(&mut g, Side::Allied, "2-5", e2);
    let s = Situation::of(&g);
    let via = g.reach(&s, cav, 8);
    assert!(!via.stops(zone), "cavalry may move on through a partial zone");
    let next = nb(&g, zone, 0);
    assert_eq!(via.cost(zone), Some(1));
    assert_eq!(via.cost(next), Some(4), "1 into the zone, 2 to leave it, 1 into the next hex");
    // No leaving penalty from a controlled hex the unit began in.
    g.units[cav as usize].hex = Some(zone);
    let s = Situation::of(&g);
    assert_eq!(g.reach(&s, cav, 8).cost(next), Some(1));
    g.units[cav as usize].hex = Some(h);
    // A total zone (cavalry) stops it.
    g.units[inf as usize].what = What::Type(g.sc.type_index("1-8").unwrap());
    let s = Situation::of(&g);
    assert!(g.reach(&s, cav, 8).stops(zone), "a total zone stops cavalry");
}

#[test]
fn zones_of_control_case_c_not_across_an_unbridged_river_but_across_a_bridge() {
    let mut g = summer();
    let (a, b) = river_side(&g, Hexside::River);
    put(&mut g, Side::Allied, "1-8", a);
    let s = Situation::of(&g);
    assert_eq!(s.zoc[Side::Allied.index()][b.0 as usize], grognard::games::leipzig::rules::zoc::Zoc::None);
    let mut g = summer();
    let (a, b) = river_side(&g, Hexside::Bridge);
    put(&mut g, Side::Allied, "1-8", a);
    let s = Situation::of(&g);
    assert_eq!(s.zoc[Side::Allied.index()][b.0 as usize], grognard::games::leipzig::rules::zoc::Zoc::Total);
}

#[test]
fn fortress_and_siege_case_d_no_zone_into_or_out_of_a_fortress() {
    let mut g = summer();
    let f = place(&g, "Magdeburg");
    put(&mut g, Side::Allied, "1-8", f);
    let s = Situation::of(&g);
    for (_, n) in g.sc.board.neighbours(f) {
        assert_eq!(
            s.zoc[1][n.0 as usize],
            grognard::games::leipzig::rules::zoc::Zoc::None,
            "units in a fortress exert no zone"
        );
    }
    let mut g = summer();
    let n = g.sc.board.neighbours(f).find(|&(_, n)| g.sc.board.side(f, n) == Hexside::Open).unwrap().1;
    put(&mut g, Side::Allied, "1-8", n);
    let s = Situation::of(&g);
    assert_eq!(
        s.zoc[1][f.0 as usize],
        grognard::games::leipzig::rules::zoc::Zoc::None,
        "no zone reaches into a fortress"
    );
}

// ---- Stacking, breakdown, supply ----

#[test]
fn stacking_case_b_combat_units_end_stacked_only_with_a_supply_unit_near() {
    let mut g = summer();
    let h = open_ground(&g, 3);
    let a = put(&mut g, Side::French, "2-5", h);
    let target = nb(&g, h, 0);
    put(&mut g, Side::French, "1-8", target);
    assert_eq!(cost_to(&g, a, target), None, "no supply near: may not end stacked");
    let e = refused(&g, Action::Move { unit: a, to: target, march: March::Normal, supply: None });
    assert_eq!(e.rule(), "Stacking and Unit Breakdown");
    let near = nb(&g, target, 1);
    put(&mut g, Side::French, "S", near);
    assert_eq!(cost_to(&g, a, target), Some(2), "1 MP + 1 MP for entering a friendly combat unit (case C)");
}

#[test]
fn stacking_case_c_leaving_a_friendly_combat_unit_costs_one_more_but_not_in_a_fortress() {
    let mut g = summer();
    let h = open_ground(&g, 3);
    let a = put(&mut g, Side::French, "2-5", h);
    put(&mut g, Side::French, "2-5", h);
    put(&mut g, Side::French, "S", h);
    assert_eq!(cost_to(&g, a, nb(&g, h, 3)), Some(2), "1 MP clear + 1 MP leaving the stack");
    let mut g = summer();
    let f = place(&g, "Magdeburg");
    let a = put(&mut g, Side::French, "2-5", f);
    put(&mut g, Side::French, "2-5", f);
    let out =
        g.sc.board
            .neighbours(f)
            .find(|&(_, n)| g.sc.board.side(f, n) == Hexside::Open && g.sc.board.terrain(n) == Terrain::Clear)
            .unwrap()
            .1;
    assert_eq!(cost_to(&g, a, out), Some(1), "no penalty moving out of a fortress (Fortress, case C)");
}

#[test]
fn stacking_and_unit_breakdown_example_an_18_2_breaks_into_six_2_5s_with_three_mp_left() {
    let mut g = summer();
    let h = open_ground(&g, 2);
    let army = put(&mut g, Side::French, "18-2", h);
    put(&mut g, Side::French, "S", h);
    let ev = act(&mut g, Action::Breakdown { unit: army });
    let Event::BrokeDown { into, .. } = &ev[0] else { panic!("{ev:?}") };
    assert_eq!(into.len(), 3);
    for &corps in into.clone().iter() {
        assert_eq!(g.ty(corps).unwrap().id, "5-4");
        act(&mut g, Action::Breakdown { unit: corps });
    }
    let divisions: Vec<UnitId> = g.at(h).filter(|&u| g.ty(u).is_some_and(|t| t.id == "2-5")).collect();
    assert_eq!(divisions.len(), 6);
    for u in divisions {
        assert_eq!(g.movement(u) - g.units[u as usize].spent, 3, "five less the two steps");
    }
}

#[test]
fn stacking_and_unit_breakdown_not_after_movement_has_begun_and_build_up_costs_one_mp() {
    let mut g = summer();
    let h = open_ground(&g, 3);
    let corps = put(&mut g, Side::French, "5-4", h);
    let south = nb(&g, h, 3);
    let other = put(&mut g, Side::French, "2-5", south);
    let to = nb(&g, south, 3);
    act(&mut g, Action::Move { unit: other, to, march: March::Normal, supply: None });
    assert!(refused(&g, Action::Breakdown { unit: corps }).rule().contains("Stacking"));
    // Two 2-5s stacked build a 5-4 at the end of movement, one MP spent.
    let mut g = summer();
    let a = put(&mut g, Side::French, "2-5", h);
    let b = put(&mut g, Side::French, "2-5", h);
    put(&mut g, Side::French, "S", south);
    act(&mut g, Action::EndMovement);
    assert_eq!(g.step, Step::Build);
    let ev = act(&mut g, Action::Build { units: vec![a, b] });
    let Event::BuiltUp { into, .. } = ev[0] else { panic!() };
    assert_eq!(g.ty(into).unwrap().id, "5-4");
    assert_eq!(g.units[into as usize].spent, 1);
}

#[test]
fn supply_case_e_a_depot_breaks_into_two_supply_units_only_while_counters_are_left() {
    let mut g = summer();
    let h = open_ground(&g, 1);
    let d = put(&mut g, Side::French, "D", h);
    for i in 0..9 {
        let x = put(&mut g, Side::French, "S", Hex(i));
        let _ = x;
    }
    assert!(!g.can_break_down(d), "nine supply units in play leave one counter: not enough for two");
    g.units.truncate(g.units.len() - 1);
    assert!(g.can_break_down(d));
    let ev = act(&mut g, Action::Breakdown { unit: d });
    let Event::BrokeDown { into, .. } = &ev[0] else { panic!() };
    assert_eq!(into.len(), 2);
    assert!(into.iter().all(|&u| g.ty(u).unwrap().id == "S"));
}

#[test]
fn supply_case_a_out_of_supply_halved_but_never_below_one() {
    let mut g = summer();
    let h = open_ground(&g, 1);
    let corps = put(&mut g, Side::French, "5-4", h);
    let north = nb(&g, h, 0);
    let div = put(&mut g, Side::French, "1-8", north);
    assert_eq!(g.attack_strength(&[corps], true, false).0, 10);
    assert_eq!(g.attack_strength(&[corps], false, false).0, 5, "5 halved is 2.5 (five half points)");
    assert_eq!(g.attack_strength(&[div], false, false).0, 2, "1 halved stays 1");
}

// ---- Combat and Leaders: the worked examples ----

#[test]
fn how_to_use_the_crt_example_one_5_4_against_a_3_7_is_167_percent_the_160_column() {
    let mut g = summer();
    let h = open_ground(&g, 1);
    let a = put(&mut g, Side::French, "5-4", h);
    let t = nb(&g, h, 0);
    put(&mut g, Side::Allied, "3-7", t);
    let att = g.attack_strength(&[a], true, false).0;
    let def = g.defense_strength(&[t], true, false).0;
    assert_eq!((att, def), (10, 6), "5 against 3");
    let pct = Leipzig::percent(att, def);
    assert_eq!(pct, 166, "5/3 = 166.7%, rounded down (the book prints 167%)");
    assert_eq!(g.sc.charts.crt.columns[g.sc.charts.crt.column(pct)], 160);
}

#[test]
fn how_to_use_the_crt_example_two_napoleon_an_18_2_and_a_5_4_make_46_against_18_in_a_fortress() {
    let mut g = summer();
    let f = place(&g, "Magdeburg");
    let from =
        g.sc.board
            .neighbours(f)
            .find(|&(_, n)| g.sc.board.side(f, n) == Hexside::Open && g.sc.board.terrain(n) == Terrain::Clear)
            .unwrap()
            .1;
    let army = put(&mut g, Side::French, "18-2", from);
    let corps = put(&mut g, Side::French, "5-4", from);
    let nap = leader(&mut g, Side::French, 1, from);
    put(&mut g, Side::Allied, "5-4", f);
    put(&mut g, Side::Allied, "1-8", f);
    let (att, why) = g.attack_strength(&[army, corps, nap], true, false);
    assert_eq!(att, 92, "46 attack points: 23 and Napoléon's 23 of 25 ({why:?})");
    let (def, _) = g.defense_strength(&[f], true, false);
    assert_eq!(def, 36, "18 defence points: (5 + 1) tripled");
    let pct = Leipzig::percent(att, def);
    assert_eq!(pct, 255, "46/18 (the book prints 225%; either way the 200% column)");
    assert_eq!(g.sc.charts.crt.columns[g.sc.charts.crt.column(pct)], 200);
}

#[test]
fn leaders_case_b_example_napoleon_adds_18_of_25_to_an_18_2_making_36() {
    let mut g = summer();
    let h = open_ground(&g, 1);
    let army = put(&mut g, Side::French, "18-2", h);
    let nap = leader(&mut g, Side::French, 1, h);
    assert_eq!(g.sc.leader(Side::French, 1).unwrap().offense, 25);
    assert_eq!(g.attack_strength(&[army, nap], true, false).0, 72);
}

#[test]
fn leaders_case_b_example_two_18_2s_with_napoleon_make_61() {
    let mut g = summer();
    let h = open_ground(&g, 1);
    let a = put(&mut g, Side::French, "18-2", h);
    let b = put(&mut g, Side::French, "18-2", h);
    let nap = leader(&mut g, Side::French, 1, h);
    assert_eq!(g.attack_strength(&[a, b, nap], true, false).0, 122, "36 + 25 = 61");
}

#[test]
fn leaders_case_b_defence_bonus_is_multiplied_by_terrain_and_case_c_alone_a_leader_defends_with_1() {
    let mut g = summer();
    let f = place(&g, "Dresden");
    put(&mut g, Side::Allied, "5-4", f);
    leader(&mut g, Side::Allied, 1, f);
    let bonus = g.sc.leader(Side::Allied, 1).unwrap().defense.min(5) as u32;
    assert_eq!(g.defense_strength(&[f], true, false).0, (5 + bonus) * 2 * 3, "tripled with the leader's bonus");
    let mut g = summer();
    let h = open_ground(&g, 1);
    leader(&mut g, Side::Allied, 4, h);
    assert_eq!(g.defense_strength(&[h], true, false).0, 2, "a leader alone defends with 1");
}

#[test]
fn combat_case_f_percentages_round_down_260_percent_is_the_200_column() {
    let g = summer();
    let crt = &g.sc.charts.crt;
    assert_eq!(Leipzig::percent(52, 20), 260);
    assert_eq!(crt.columns[crt.column(260)], 200);
    assert_eq!(crt.columns[crt.column(79)], 60, "everything under 80% is the 60%-or-less column");
    assert_eq!(crt.columns[crt.column(999)], 500);
}

#[test]
fn terrain_effects_chart_river_no_attack_below_160_percent_and_the_defender_doubled() {
    let mut g = summer();
    let (a, b) = river_side(&g, Hexside::River);
    let weak = put(&mut g, Side::French, "2-5", a);
    put(&mut g, Side::Allied, "2-5", b);
    g.step = Step::Declare;
    let mut list = Vec::new();
    g.legal_actions(Mode::Enforced, &mut list);
    assert!(!list.iter().any(|x| matches!(x, Action::Declare { .. })), "2 against 2 doubled is 50%: no attack");
    let e = refused(&g, Action::Declare { from: a, units: vec![weak], target: b, supply: None });
    assert_eq!(e.rule(), "Combat");
    put(&mut g, Side::French, "18-2", a);
    g.legal_actions(Mode::Enforced, &mut list);
    assert!(list.iter().any(|x| matches!(x, Action::Declare { .. })), "18 against 4: allowed");
}

fn declare_and_resolve(
    g: &mut Leipzig,
    from: Hex,
    units: Vec<UnitId>,
    target: Hex,
    supply: Option<UnitId>,
    die: u8,
) -> Vec<Event> {
    g.step = Step::Declare;
    act(g, Action::Declare { from, units, target, supply });
    act(g, Action::EndDeclarations);
    if g.step == Step::RetreatBefore {
        act(g, Action::EndRetreats);
    }
    while g.step == Step::DefendSupply {
        let hex = target;
        act(g, Action::DefendSupply { hex, supply: None });
    }
    g.rng = rolling(&[die]);
    act(g, Action::Resolve { attack: 0 })
}

#[test]
fn fortress_and_siege_case_a_only_dx_affects_units_in_a_fortress() {
    let mut g = summer();
    let f = place(&g, "Magdeburg");
    let from =
        g.sc.board
            .neighbours(f)
            .find(|&(_, n)| g.sc.board.side(f, n) == Hexside::Open && g.sc.board.terrain(n) == Terrain::Clear)
            .unwrap()
            .1;
    let a = put(&mut g, Side::French, "18-2", from);
    let b = put(&mut g, Side::French, "18-2", from);
    let d = put(&mut g, Side::Allied, "5-4", f);
    // 18 + 18 unsupplied against 5 tripled: 120%, a column of dispersals and a scatter.
    let pct = Leipzig::percent(g.attack_strength(&[a, b], false, false).0, g.defense_strength(&[f], true, false).0);
    assert_eq!(pct, 120);
    let col = g.sc.charts.crt.column(pct);
    let die = (1..=6)
        .find(|&r| matches!(g.sc.charts.crt.rows[r as usize - 1][col], CrtResult::Ds | CrtResult::Dd(_)))
        .expect("a D result");
    let ev = declare_and_resolve(&mut g, from, vec![a, b], f, None, die);
    assert!(
        ev.iter().any(|e| matches!(e, Event::Rolled(r) if r.rule == "How to Use the Combat Results Table")),
        "{ev:?}"
    );
    assert_eq!(g.hex_of(d), Some(f), "a scatter or dispersal does not touch a fortress's garrison");
    assert!(g.units[d as usize].dispersed.is_none());
}

#[test]
fn crt_half_ex_the_defender_eliminated_the_attacker_loses_half_the_divisions_rounded_up() {
    let mut g = summer();
    let h = open_ground(&g, 2);
    let t = nb(&g, h, 0);
    let a = put(&mut g, Side::French, "5-4", h);
    let b = put(&mut g, Side::French, "5-4", h);
    let d = put(&mut g, Side::Allied, "5-4", t);
    // Two corps against one, all out of supply: 200%.
    let att = g.attack_strength(&[a, b], false, false).0;
    let def = g.defense_strength(&[t], false, false).0;
    assert_eq!(Leipzig::percent(att, def), 200);
    let col = g.sc.charts.crt.column(200);
    let die = (1..=6)
        .find(|&r| g.sc.charts.crt.rows[r as usize - 1][col] == CrtResult::HalfEx)
        .expect("a ½ex at this column");
    declare_and_resolve(&mut g, h, vec![a, b], t, None, die);
    assert!(!g.units[d as usize].on_map(), "the defender is eliminated");
    assert_eq!(g.pending, vec![Pending::Lose { attack: Some(0), divisions: 1 }], "half of 2, the attacker's choice");
    // The French player picks a corps: it is broken down, and he picks one of its divisions.
    act(&mut g, Action::Remove { unit: b });
    let piece = g.at(h).find(|&u| g.divisions(u) == 1).expect("a division of the broken-down corps");
    act(&mut g, Action::Remove { unit: piece });
    assert!(g.pending.is_empty());
    assert!(g.units[a as usize].on_map(), "the other corps is untouched");
    let left: u16 = g.at(h).map(|u| g.divisions(u)).sum();
    assert_eq!(left, 4 - 1, "the defender lost 2 divisions: the attacker loses 1 (a 5-4 broken down, one 2-5 gone)");
    assert_eq!(g.unit_vp[Side::French.index()], 2, "one point a division destroyed");
    assert_eq!(g.unit_vp[Side::Allied.index()], 1);
}

#[test]
fn combat_case_k_scattering_breaks_down_to_divisions_and_none_end_stacked() {
    let mut g = summer();
    let h = open_ground(&g, 5);
    let t = nb(&g, h, 0);
    let a = put(&mut g, Side::French, "5-4", h);
    let a2 = put(&mut g, Side::French, "2-5", h);
    let d = put(&mut g, Side::Allied, "5-4", t);
    // 2.5 + 1 against 2.5, all out of supply: 140%.
    let att = g.attack_strength(&[a, a2], false, false).0;
    let def = g.defense_strength(&[t], false, false).0;
    assert_eq!(Leipzig::percent(att, def), 140);
    let col = g.sc.charts.crt.column(140);
    let die = (1..=6).find(|&r| g.sc.charts.crt.rows[r as usize - 1][col] == CrtResult::Ds).expect("a Ds here");
    declare_and_resolve(&mut g, h, vec![a, a2], t, None, die);
    assert!(!g.units[d as usize].on_map(), "the corps was broken down");
    // The Allied player places each scattered division.
    while let Some(side) = g.pending_side() {
        assert_eq!(side, Side::Allied);
        let mut list = Vec::new();
        g.legal_actions(Mode::Enforced, &mut list);
        act(&mut g, list[0].clone());
    }
    let allied: Vec<UnitId> = g.on_map(Side::Allied).collect();
    assert_eq!(allied.len(), 2);
    let hexes: Vec<Hex> = allied.iter().map(|&u| g.hex_of(u).unwrap()).collect();
    assert_ne!(hexes[0], hexes[1], "none may end stacked");
    for &u in &allied {
        assert_eq!(
            g.sc.board.distance(t, g.hex_of(u).unwrap()),
            5,
            "a 2-5 retreats its full five hexes on open ground"
        );
        assert!(g.units[u as usize].dispersed.is_some());
    }
}

#[test]
fn retreat_order_of_preference_b_allied_units_retreat_towards_their_edges() {
    let mut g = summer();
    let h = open_ground(&g, 3);
    put(&mut g, Side::Allied, "2-5", h);
    let s = Situation::of(&g);
    let opts = g.retreat_options(&s, Side::Allied, h, 2, false);
    let here = g.sc.board.edge_distance(h, Side::Allied);
    assert!(!opts.is_empty());
    assert!(
        opts.iter().all(|&x| g.sc.board.edge_distance(x, Side::Allied) < here),
        "every option nearer an Allied edge"
    );
    let f = g.retreat_options(&s, Side::French, h, 2, false);
    assert!(f.iter().all(|&x| g.sc.board.col_row(x).0 < g.sc.board.col_row(h).0), "French retreat west");
}

#[test]
fn retreat_order_of_preference_a_through_the_fewest_enemy_controlled_hexes() {
    let mut g = summer();
    let h = open_ground(&g, 4);
    put(&mut g, Side::Allied, "2-5", h);
    // French infantry controlling every hex two to the west but one.
    let west = nb(&g, nb(&g, h, 4), 5);
    put(&mut g, Side::French, "2-5", west);
    let s = Situation::of(&g);
    let opts = g.retreat_options(&s, Side::Allied, h, 1, false);
    for o in &opts {
        assert_eq!(
            s.zoc[0][o.0 as usize],
            grognard::games::leipzig::rules::zoc::Zoc::None,
            "an uncontrolled hex is open, so only such are offered"
        );
    }
}

#[test]
fn combat_case_j_retreat_before_combat_its_full_allowance_then_dispersed_not_at_500_percent() {
    let mut g = summer();
    let h = open_ground(&g, 5);
    let t = nb(&g, h, 0);
    let a = put(&mut g, Side::French, "5-4", h);
    let d = put(&mut g, Side::Allied, "2-5", t);
    g.step = Step::Declare;
    act(&mut g, Action::Declare { from: h, units: vec![a], target: t, supply: None });
    act(&mut g, Action::EndDeclarations);
    assert_eq!(g.step, Step::RetreatBefore);
    let mut list = Vec::new();
    g.legal_actions(Mode::Enforced, &mut list);
    let Some(Action::RetreatBefore { to, .. }) =
        list.iter().find(|x| matches!(x, Action::RetreatBefore { .. })).cloned()
    else {
        panic!("{list:?}")
    };
    assert!(list.iter().all(|x| !matches!(x, Action::RetreatBefore { to, .. } if g.sc.board.distance(t, *to) > 5)));
    act(&mut g, Action::RetreatBefore { unit: d, to });
    assert!(g.units[d as usize].dispersed.is_some(), "dispersed after retreating");
    // At 500% a non-cavalry unit may not retreat before combat.
    let mut g = summer();
    let a = put(&mut g, Side::French, "18-2", h);
    put(&mut g, Side::French, "S", h);
    put(&mut g, Side::Allied, "2-5", t);
    g.step = Step::Declare;
    let sup = g.at(h).find(|&u| g.is_supply(u));
    act(&mut g, Action::Declare { from: h, units: vec![a], target: t, supply: sup });
    act(&mut g, Action::EndDeclarations);
    assert_ne!(g.step, Step::RetreatBefore, "18 against 2 is 900%: no retreat before combat");
}

#[test]
fn how_to_use_the_crt_auto_eliminates_during_movement_but_never_cavalry() {
    let mut g = summer();
    let h = open_ground(&g, 3);
    let t = nb(&g, h, 0);
    put(&mut g, Side::French, "18-2", h);
    put(&mut g, Side::French, "S", h);
    let d = put(&mut g, Side::Allied, "2-5", t);
    act(&mut g, Action::Overrun { from: h, target: t });
    assert!(!g.units[d as usize].on_map());
    assert!(g.overrun.contains(&t));
    let mut g = summer();
    put(&mut g, Side::French, "18-2", h);
    put(&mut g, Side::Allied, "1-8", t);
    let e = refused(&g, Action::Overrun { from: h, target: t });
    assert!(e.rule().contains("Auto"), "{e}");
}

// ---- Forced March ----

#[test]
fn forced_march_example_a_2_5_tripling_rolls_2_then_4_and_completes_its_march_dispersed() {
    let mut g = summer();
    let h = open_ground(&g, 0);
    let u = put(&mut g, Side::French, "2-5", h);
    let far =
        dests(&g, u, March::Triple).into_iter().find(|(_, c)| *c > 10 && *c <= 15).expect("a hex beyond ten MP").0;
    g.rng = rolling(&[2, 4]);
    let ev = act(&mut g, Action::Move { unit: u, to: far, march: March::Triple, supply: None });
    assert!(
        ev.iter().any(|e| matches!(e, Event::Rolled(r) if r.dice == [2] && r.result.contains("table M"))),
        "{ev:?}"
    );
    assert_eq!(g.step, Step::March, "the player may stop or roll the M table");
    act(&mut g, Action::ContinueMarch);
    assert_eq!(g.hex_of(u), Some(far), "completes the march");
    assert!(g.units[u as usize].dispersed.is_some(), "dispersed at the end");
}

#[test]
fn forced_march_halting_at_a_subsidiary_table_stops_after_the_smaller_allowance() {
    let mut g = summer();
    let h = open_ground(&g, 0);
    let u = put(&mut g, Side::French, "2-5", h);
    let far = dests(&g, u, March::Triple).into_iter().find(|(_, c)| *c > 10).unwrap().0;
    g.rng = rolling(&[2]);
    act(&mut g, Action::Move { unit: u, to: far, march: March::Triple, supply: None });
    act(&mut g, Action::HaltMarch);
    assert!(g.units[u as usize].spent <= 10);
    assert!(g.units[u as usize].dispersed.is_none());
}

#[test]
fn forced_march_triple_is_for_infantry_only_and_a_supply_unit_replaces_the_table() {
    let mut g = summer();
    let h = open_ground(&g, 1);
    let cav = put(&mut g, Side::French, "1-8", h);
    assert!(dests(&g, cav, March::Triple).is_empty());
    let south = nb(&g, h, 3);
    let inf = put(&mut g, Side::French, "2-5", south);
    let south2 = nb(&g, south, 3);
    let s = put(&mut g, Side::French, "S", south2);
    let far = dests(&g, inf, March::Double).into_iter().find(|(_, c)| *c > 5).unwrap().0;
    let before = g.rng.clone();
    let ev = act(&mut g, Action::Move { unit: inf, to: far, march: March::Double, supply: Some(s) });
    assert!(ev.iter().any(|e| matches!(e, Event::MarchFree { .. })));
    assert_eq!(g.rng, before, "no die rolled");
    assert_eq!(g.hex_of(inf), Some(far));
    act(&mut g, Action::EndMovement);
    assert!(!g.units[s as usize].on_map(), "the supply unit is removed at the end of the Movement Phase");
}

#[test]
fn spring_deployment_notes_the_gotha_units_force_march_without_the_tables_on_the_first_turn() {
    let (g, _) = setup(scenario("1-historical-situation.ron"), 3);
    let mut t = grognard::engine::table::Table::new(g, 3, Mode::Enforced);
    t.submit(SeatId(1), grognard::engine::table::Act::Game(Action::DeployRest)).unwrap();
    let g = &t.game;
    assert_eq!((g.step, g.side, g.turn), (Step::Move, Side::French, 1));
    let gotha = place(g, "Gotha");
    let u = g.at(gotha).find(|&u| g.is_combat(u)).unwrap();
    assert!(g.free_march(u));
}

// ---- Special rules, reconnaissance, victory ----

#[test]
fn special_game_rules_saxon_garrison_neither_moves_nor_is_attacked_before_turn_3() {
    let (g, _) = setup(scenario("1-historical-situation.ron"), 3);
    let torgau = place(&g, "Torgau");
    let sax: Vec<UnitId> = g.at(torgau).collect();
    assert!(!sax.is_empty() && sax.iter().all(|&u| g.units[u as usize].garrison));
    let mut g = g;
    g.step = Step::Move;
    g.side = Side::French;
    assert!(sax.iter().all(|&u| !g.can_move(u)));
    g.turn = 3;
    assert!(sax.iter().any(|&u| g.can_move(u)));
}

#[test]
fn scenario_1_no_units_may_enter_austria() {
    let mut g = empty("1-historical-situation.ron");
    let (h, a) = austrian_border(&g);
    let u = put(&mut g, Side::French, "1-8", h);
    assert_eq!(cost_to(&g, u, a), None);
    assert_eq!(
        refused(&g, Action::Move { unit: u, to: a, march: March::Normal, supply: None }).rule(),
        "Scenarios: no units may enter Austria"
    );
}

#[test]
fn reconnaissance_the_french_and_spectators_see_allied_blanks_the_allies_see_all_and_no_view_holds_the_seed() {
    let (g, _) = setup(scenario("1-historical-situation.ron"), 9);
    let mut t = grognard::engine::table::Table::new(g, 9, Mode::Enforced);
    t.submit(SeatId(1), grognard::engine::table::Act::Game(Action::DeployRest)).unwrap();
    let g = &t.game;
    let french = g.observe(Viewer::Seat(SeatId(0)));
    let allied = g.observe(Viewer::Seat(SeatId(1)));
    let spectator = g.observe(Viewer::Spectator);
    let hidden = g.on_map(Side::Allied).filter(|&u| !g.units[u as usize].revealed).count();
    assert!(hidden > 10, "most Allied units are unseen at the start");
    assert_eq!(french.blanks(), g.units.iter().filter(|u| u.side == Side::Allied && !u.revealed).count());
    assert_eq!(spectator.blanks(), french.blanks());
    assert_eq!(allied.blanks(), 0);
    for v in [&french, &allied, &spectator] {
        assert_eq!(v.game.rng, TableRng::from_seed(0), "the table's chance is never in a view");
    }
    for (real, seen) in g.units.iter().zip(&french.game.units) {
        if real.side == Side::Allied && !real.revealed {
            assert_eq!(seen.what, What::Blank, "no hidden Allied counter's type reaches the French view");
        }
    }
    assert!(
        g.units.iter().any(|u| u.side == Side::Allied && u.revealed),
        "those next to French units at the start are examined"
    );
}

#[test]
fn reconnaissance_a_french_cavalry_unit_exposes_the_allied_units_it_passes() {
    let mut g = empty("1-historical-situation.ron");
    let h = open_ground(&g, 4);
    let cav = put(&mut g, Side::French, "1-8", h);
    let three = nb(&g, nb(&g, nb(&g, h, 0), 0), 0);
    let e = put(&mut g, Side::Allied, "2-5", three);
    g.units[e as usize].revealed = false;
    assert!(!g.seen_by(e as usize, Viewer::Seat(SeatId(0))));
    let to = nb(&g, nb(&g, h, 0), 0);
    let ev = act(&mut g, Action::Move { unit: cav, to, march: March::Normal, supply: None });
    assert!(ev.iter().any(|x| matches!(x, Event::Revealed { units } if units.contains(&e))), "{ev:?}");
    assert!(g.units[e as usize].scouted);
}

#[test]
fn reconnaissance_an_attack_across_a_river_on_blanks_is_offered_and_judged_at_160_percent_once_examined() {
    // The French may examine Allied counters when they attack, which commits them (Reconnaissance);
    // across a river no attack may be made under 160% (Terrain Effects Chart). On a blank they
    // cannot judge the odds, so the declaration is offered whatever the blank is, and once it is
    // examined an attack under 160% is not made.
    let mut g = empty("1-historical-situation.ron");
    assert!(g.reconnaissance());
    let (a, b) = river_side(&g, Hexside::River);
    let weak = put(&mut g, Side::French, "2-5", a);
    let e = put(&mut g, Side::Allied, "2-5", b);
    g.units[e as usize].revealed = false;
    g.step = Step::Declare;
    let declare = Action::Declare { from: a, units: vec![weak], target: b, supply: None };
    for ty in ["2-5", "1-8"] {
        let (_, legal) = french_moves_with(&g, e, ty);
        assert!(legal.contains(&declare), "offered on a blank, whatever it is ({ty})");
    }
    let ev = act(&mut g, declare.clone());
    assert!(ev.iter().any(|x| matches!(x, Event::Revealed { units } if units.contains(&e))), "{ev:?}");
    assert!(ev.iter().any(|x| matches!(x, Event::NoCombat { .. })), "2 against 2 doubled is 50%: no attack: {ev:?}");
    assert!(g.attacks.is_empty());
    assert!(g.units[weak as usize].attacked, "the examination committed the attacker");
    // Examined, the same attack is no longer offered by a second unit.
    let again = put(&mut g, Side::French, "2-5", a);
    let mut legal = Vec::new();
    g.legal_actions(Mode::Enforced, &mut legal);
    assert!(!legal.iter().any(|x| matches!(x, Action::Declare { units, .. } if units.contains(&again))));
}

#[test]
fn reconnaissance_a_blank_beside_a_river_target_counts_as_a_supply_unit_for_the_160_percent() {
    // The 160% across a river is judged against the strongest defence (Terrain Effects Chart,
    // River), which a supply unit in reach makes stronger. The French cannot tell whether an
    // Allied blank beside the target is a supply unit (Reconnaissance), so the declarations they
    // are offered are the same whatever it is: the blank counts as one. Judged on the real
    // counters, the list told them what the blank was.
    let mut g = empty("1-historical-situation.ron");
    assert!(g.reconnaissance());
    let (a, b) = river_side(&g, Hexside::River);
    put(&mut g, Side::Allied, "2-5", b);
    let beside = (0..6).map(|d| nb(&g, b, d)).find(|&h| h != a && !g.sc.board.adjacent(h, a)).unwrap();
    let blank = put(&mut g, Side::Allied, "2-5", beside);
    g.units[blank as usize].revealed = false;
    g.step = Step::Declare;
    // Two 5-4s without supply attack at 5 (halved): 125% against the 2-5 doubled by the river
    // if it is supplied, 250% if not.
    for attackers in [&["5-4", "5-4"][..], &["5-4", "3-7"], &["2-5"], &["18-2"]] {
        let mut t = g.clone();
        for ty in attackers {
            put(&mut t, Side::French, ty, a);
        }
        let declared = |ty: &str| {
            let (_, legal) = french_moves_with(&t, blank, ty);
            legal.into_iter().filter(|x| matches!(x, Action::Declare { .. })).collect::<Vec<_>>()
        };
        assert_eq!(declared("S"), declared("2-5"), "{attackers:?}: the same offer whatever the blank is");
    }
}

/// The French legal list with the Allied counter `e` hidden and dealt as type `ty`.
fn french_moves_with(g: &Leipzig, e: UnitId, ty: &str) -> (Leipzig, Vec<Action>) {
    let mut g = g.clone();
    g.units[e as usize].what = What::Type(g.sc.type_index(ty).unwrap());
    let mut legal = Vec::new();
    g.legal_actions(Mode::Enforced, &mut legal);
    (g, legal)
}

#[test]
fn reconnaissance_a_french_move_is_chosen_on_the_zones_the_french_see_and_a_hidden_zone_stops_it_on_contact() {
    // A French infantry unit marches north past an Allied blank whose zone (if it is a combat
    // unit) lies across the way. The French cannot tell a cavalry corps from a supply wagon, so
    // the moves they are offered are the same whatever the blank is; the hidden zone acts as the
    // counter is walked, as the Allied player says "stop" at the table.
    let mut g = empty("1-historical-situation.ron");
    assert!(g.reconnaissance());
    let h = open_ground(&g, 4);
    let u = put(&mut g, Side::French, "2-5", h);
    let zone = nb(&g, h, 0);
    let beyond = nb(&g, nb(&g, zone, 0), 0);
    let side_hex = nb(&g, zone, 1);
    let e = put(&mut g, Side::Allied, "1-8", side_hex);
    g.units[e as usize].revealed = false;
    let go = Action::Move { unit: u, to: beyond, march: March::Normal, supply: None };
    let (cavalry, offered) = french_moves_with(&g, e, "1-8");
    assert!(offered.contains(&go), "the French plan on the zones they see");
    for ty in ["2-5", "S"] {
        assert_eq!(french_moves_with(&g, e, ty).1, offered, "the list does not depend on what the blank is ({ty})");
    }
    // A hidden cavalry corps: stopped on entering its total zone.
    let mut g1 = cavalry;
    let ev = act(&mut g1, go.clone());
    assert!(ev.contains(&Event::ZoneStop { unit: u, at: zone }), "{ev:?}");
    assert_eq!(g1.hex_of(u), Some(zone));
    assert!(g1.units[u as usize].moved);
    let line = g1.event_text(&Event::ZoneStop { unit: u, at: zone }, Viewer::Spectator);
    assert!(line.contains("stopped") && line.contains("zone of control"), "{line}");
    // A hidden supply unit exerts no zone: the move goes the whole way.
    let (mut g2, _) = french_moves_with(&g, e, "S");
    let ev = act(&mut g2, go.clone());
    assert!(!ev.iter().any(|x| matches!(x, Event::ZoneStop { .. })), "{ev:?}");
    assert_eq!(g2.hex_of(u), Some(beyond));
    // Once examined, the cavalry's zone is known: the way goes round it (4 MP, not 2) and the
    // counter arrives.
    let mut g3 = g.clone();
    g3.units[e as usize].revealed = true;
    let ev = act(&mut g3, go);
    assert!(ev.iter().any(|x| matches!(x, Event::Moved { to, cost: 4, .. } if *to == beyond)), "{ev:?}");
    assert_eq!(g3.hex_of(u), Some(beyond));
}

#[test]
fn reconnaissance_an_allied_attack_shows_its_attackers_to_the_french_defender() {
    // Whether a French unit may retreat before combat depends on the attack's odds (Combat,
    // case J II): the attacking blanks are examined when the attack is declared.
    let mut g = empty("1-historical-situation.ron");
    g.side = Side::Allied;
    g.step = Step::Declare;
    let h = open_ground(&g, 4);
    put(&mut g, Side::French, "2-5", h);
    let from = nb(&g, h, 0);
    let a = put(&mut g, Side::Allied, "5-4", from);
    g.units[a as usize].revealed = false;
    assert!(!g.seen_by(a as usize, Viewer::Seat(SeatId(0))));
    let ev = act(&mut g, Action::Declare { from, units: vec![a], target: h, supply: None });
    assert!(ev.iter().any(|x| matches!(x, Event::Revealed { units } if units.contains(&a))), "{ev:?}");
    assert!(g.seen_by(a as usize, Viewer::Seat(SeatId(0))));
}

#[test]
fn how_to_win_victory_points_cities_by_last_occupier_destroyed_divisions_and_a_besieged_fortress() {
    let mut g = summer();
    let vp0 = g.victory_points(true);
    // Summer owners: Dresden and Leipzig French (15 + 10), Berlin, Breslau and Prague Allied.
    assert_eq!(vp0, [25, 40]);
    let berlin = place(&g, "Berlin");
    put(&mut g, Side::French, "2-5", berlin);
    let mut ev = Vec::new();
    g.update_owners(&mut ev);
    assert_eq!(g.victory_points(true), [35, 30], "Berlin taken");
    // Besieged: the garrison's every neighbour held or controlled by the Enemy.
    let mut g = summer();
    let dresden = place(&g, "Dresden");
    put(&mut g, Side::French, "5-4", dresden);
    for (_, n) in g.sc.board.neighbours(dresden).collect::<Vec<_>>() {
        put(&mut g, Side::Allied, "1-8", n);
    }
    let vp = g.victory_points(true);
    assert_eq!(vp[1], 40 + 15 + 1, "the besieger scores Dresden and half the 2 divisions inside");
}

#[test]
fn campaign_german_rebellion_begins_on_turn_15_unless_an_armistice_was_called() {
    let (mut g, _) = setup(scenario("8-the-campaign.ron"), 5);
    g.turn = 14;
    g.side = Side::Allied;
    g.step = Step::Resolve;
    let mut ev = Vec::new();
    g.finish_combat(&mut ev);
    assert!(g.rebellion && ev.iter().any(|e| matches!(e, Event::Rebellion)));
    let (mut g, _) = setup(scenario("8-the-campaign.ron"), 5);
    g.turn = 14;
    g.armistice = Some(4);
    g.side = Side::Allied;
    g.step = Step::Resolve;
    g.finish_combat(&mut Vec::new());
    assert!(!g.rebellion);
}

#[test]
fn campaign_armistice_brings_austria_in_and_stops_all_combat() {
    let (g, _) = setup(scenario("8-the-campaign.ron"), 5);
    let mut t = grognard::engine::table::Table::new(g, 5, Mode::Enforced);
    t.submit(SeatId(1), grognard::engine::table::Act::Game(Action::DeployRest)).unwrap();
    let g = &mut t.game;
    assert!(!g.can_armistice(), "not before turn 4");
    g.turn = 4;
    assert!(g.can_armistice());
    let ev = act(g, Action::Armistice);
    assert!(ev.iter().any(|e| matches!(e, Event::AustriaIntervenes)));
    assert!(g.austria_at_war);
    g.step = Step::Declare;
    let mut list = Vec::new();
    g.legal_actions(Mode::Enforced, &mut list);
    assert!(list.iter().all(|a| !matches!(a, Action::Declare { .. })));
}

#[test]
fn special_game_rules_bavarian_defection_when_the_french_fall_behind() {
    let mut g = summer();
    g.turn = 26;
    g.side = Side::Allied;
    g.step = Step::Resolve;
    g.unit_vp[1] = 30;
    let mut ev = Vec::new();
    g.finish_combat(&mut ev);
    assert!(g.bavaria && ev.iter().any(|e| matches!(e, Event::BavariaDefects)));
    assert!(g.extra.iter().any(|r| r.turn == 27 && r.infantry == 6 && r.cavalry == 2));
}

#[test]
fn an_illegal_action_names_its_rule_and_leaves_the_table_untouched() {
    let (g, _) = setup(scenario("1-historical-situation.ron"), 3);
    let mut t = grognard::engine::table::Table::new(g, 3, Mode::Enforced);
    let before = t.digest();
    let e = t.submit(SeatId(0), grognard::engine::table::Act::Game(Action::EndMovement)).unwrap_err();
    assert!(e.to_string().contains("rule:"), "{e}");
    assert_eq!(t.digest(), before);
}

#[test]
fn reconnaissance_a_save_handed_to_the_french_player_holds_no_seed_and_no_hidden_counter() {
    let (g, _) = setup(scenario("1-historical-situation.ron"), 12);
    let mut t = grognard::engine::table::Table::new(g, 12, Mode::Enforced);
    t.submit(SeatId(1), grognard::engine::table::Act::Game(Action::DeployRest)).unwrap();
    let french = Viewer::Seat(SeatId(0));
    let text = grognard::engine::save::seat_save_of(&t, french);
    assert!(text.contains("Blank") && !text.contains("log:"), "{}", &text[..300]);
    let real_chance = ron::to_string(&t.game.rng).unwrap();
    let seed_words: String = real_chance.chars().filter(|c| c.is_ascii_digit() || *c == ',').collect();
    let shown: String = text.chars().filter(|c| c.is_ascii_digit() || *c == ',').collect();
    assert!(!shown.contains(&seed_words), "the table's chance is not in the seat's save");
    // The same save whatever the hidden counters really are.
    let mut other = t.clone();
    let hidden: Vec<usize> = (0..t.game.units.len()).filter(|&u| !t.game.seen_by(u, french)).collect();
    assert!(hidden.len() > 10);
    let whats: Vec<What> = hidden.iter().map(|&u| t.game.units[u].what).collect();
    for (k, &u) in hidden.iter().enumerate() {
        other.game.units[u].what = whats[(k + 1) % whats.len()];
    }
    other.game.rng = TableRng::from_seed(99);
    assert_ne!(other.digest(), t.digest());
    assert_eq!(grognard::engine::save::seat_save_of(&other, french), text);
    // The Allies' own save shows every counter.
    assert!(!grognard::engine::save::seat_save_of(&t, Viewer::Seat(SeatId(1))).contains("Blank"));
}

#[test]
fn supply_case_c_supply_used_in_combat_goes_at_the_end_of_the_combat_phase_a_depot_leaving_a_supply_unit() {
    let mut g = summer();
    let h = open_ground(&g, 2);
    let t = nb(&g, h, 0);
    let a = put(&mut g, Side::French, "5-4", h);
    let south = nb(&g, h, 3);
    let depot = put(&mut g, Side::French, "D", south);
    put(&mut g, Side::Allied, "2-5", t);
    g.step = Step::Declare;
    act(&mut g, Action::Declare { from: h, units: vec![a], target: t, supply: Some(depot) });
    assert!(g.units[depot as usize].on_map(), "still there during the phase");
    act(&mut g, Action::EndDeclarations);
    while g.step == Step::RetreatBefore || g.step == Step::DefendSupply {
        let mut list = Vec::new();
        g.legal_actions(Mode::Enforced, &mut list);
        act(&mut g, list.last().unwrap().clone());
    }
    g.rng = rolling(&[1]);
    let mut list = Vec::new();
    while g.side == Side::French && !matches!(g.step, Step::Enter | Step::Move) {
        g.legal_actions(Mode::Enforced, &mut list);
        act(&mut g, list[0].clone());
    }
    assert!(!g.units[depot as usize].on_map(), "the depot was used");
    let replaced = g.on_map(Side::French).filter(|&u| g.ty(u).is_some_and(|t| t.id == "S")).count();
    assert_eq!(replaced, 1, "a depot used as a source of supply leaves a supply unit");
}

#[test]
fn fortress_and_siege_case_b_six_divisions_stack_in_a_fortress_without_supply_a_seventh_needs_it() {
    let mut g = summer();
    let f = place(&g, "Magdeburg");
    put(&mut g, Side::French, "5-4", f);
    put(&mut g, Side::French, "5-4", f);
    let out =
        g.sc.board
            .neighbours(f)
            .find(|&(_, n)| g.sc.board.side(f, n) == Hexside::Open && g.sc.board.terrain(n) == Terrain::Clear)
            .unwrap()
            .1;
    let third = put(&mut g, Side::French, "5-4", out);
    assert!(cost_to(&g, third, f).is_some(), "three corps, six divisions: no supply needed");
    g.units[third as usize].what = What::Type(g.sc.type_index("18-2").unwrap());
    assert!(cost_to(&g, third, f).is_none(), "an army on top of two corps is ten divisions");
}

#[test]
fn fortress_and_siege_case_e_a_sortie_attacks_every_adjacent_enemy_hex_at_basic_strength() {
    let mut g = summer();
    let f = place(&g, "Magdeburg");
    let a = put(&mut g, Side::French, "5-4", f);
    leader(&mut g, Side::French, 1, f);
    let open: Vec<Hex> =
        g.sc.board
            .neighbours(f)
            .filter(|&(_, n)| g.sc.board.side(f, n) == Hexside::Open)
            .map(|(_, n)| n)
            .take(2)
            .collect();
    for &n in &open {
        put(&mut g, Side::Allied, "2-5", n);
    }
    g.step = Step::Declare;
    let mut list = Vec::new();
    g.legal_actions(Mode::Enforced, &mut list);
    let sorties: Vec<&Action> = list.iter().filter(|x| matches!(x, Action::Declare { .. })).collect();
    assert!(!sorties.is_empty());
    assert!(
        sorties.iter().all(
            |x| matches!(x, Action::Declare { units, supply: None, .. } if !units.iter().any(|&u| g.is_leader(u)))
        ),
        "basic strength: no leader, no supply needed"
    );
    act(&mut g, Action::Declare { from: f, units: vec![a], target: open[0], supply: None });
    assert_eq!(g.attacks[0].targets.len(), 2, "every adjacent Enemy hex at once");
    assert!(g.attacks[0].sortie);
}

#[test]
fn combat_case_c_a_unit_attacks_once_and_a_hex_is_attacked_again_only_from_another_hex() {
    let mut g = summer();
    let h = open_ground(&g, 3);
    let t = nb(&g, h, 0);
    let a = put(&mut g, Side::French, "5-4", h);
    let b = put(&mut g, Side::French, "5-4", h);
    put(&mut g, Side::French, "S", h);
    let other = nb(&g, t, 1);
    let c = put(&mut g, Side::French, "5-4", other);
    put(&mut g, Side::Allied, "2-5", t);
    g.step = Step::Declare;
    act(&mut g, Action::Declare { from: h, units: vec![a], target: t, supply: None });
    let e = refused(&g, Action::Declare { from: h, units: vec![a], target: t, supply: None });
    assert_eq!(e.rule(), "Combat");
    let e = refused(&g, Action::Declare { from: h, units: vec![b], target: t, supply: None });
    assert_eq!(e.rule(), "Combat", "from the same hex the stack attacks together or not at all");
    act(&mut g, Action::Declare { from: other, units: vec![c], target: t, supply: None });
    assert_eq!(g.attacks.len(), 2);
}

#[test]
fn how_to_use_the_crt_the_attacker_advances_only_across_a_river_or_into_a_fortress() {
    // Open ground: a Dx leaves the hex empty and nobody advances.
    let mut g = summer();
    let h = open_ground(&g, 2);
    let t = nb(&g, h, 0);
    let a = put(&mut g, Side::French, "18-2", h);
    put(&mut g, Side::French, "18-2", h);
    let d = put(&mut g, Side::Allied, "2-5", t);
    let crt = g.sc.charts.crt.clone();
    let pct = Leipzig::percent(g.attack_strength(&[a], false, false).0, g.defense_strength(&[t], false, false).0);
    let die = (1..=6)
        .find(|&r| matches!(crt.rows[r as usize - 1][crt.column(pct)], CrtResult::Dx | CrtResult::Auto))
        .unwrap();
    declare_and_resolve(&mut g, h, vec![a], t, None, die);
    assert!(!g.units[d as usize].on_map());
    assert!(g.pending.is_empty(), "no advance on open ground");
    // Across a river: the attacker may advance.
    let mut g = summer();
    let (x, y) = river_side(&g, Hexside::River);
    let a = put(&mut g, Side::French, "18-2", x);
    let d = put(&mut g, Side::Allied, "2-5", y);
    let pct = Leipzig::percent(g.attack_strength(&[a], false, false).0, g.defense_strength(&[y], false, true).0);
    let die = (1..=6)
        .find(|&r| matches!(crt.rows[r as usize - 1][crt.column(pct)], CrtResult::Dx | CrtResult::Auto))
        .unwrap();
    declare_and_resolve(&mut g, x, vec![a], y, None, die);
    assert!(!g.units[d as usize].on_map());
    act(&mut g, Action::Advance);
    assert_eq!(g.hex_of(a), Some(y));
}

#[test]
fn how_to_use_the_crt_the_attacker_chooses_which_of_his_units_advance() {
    let mut g = summer();
    let crt = g.sc.charts.crt.clone();
    let (x, y) = river_side(&g, Hexside::River);
    let a = put(&mut g, Side::French, "18-2", x);
    let b = put(&mut g, Side::French, "5-4", x);
    let c = put(&mut g, Side::French, "2-5", x);
    let d = put(&mut g, Side::Allied, "2-5", y);
    let pct = Leipzig::percent(g.attack_strength(&[a, b, c], false, false).0, g.defense_strength(&[y], false, true).0);
    let die = (1..=6)
        .find(|&r| matches!(crt.rows[r as usize - 1][crt.column(pct)], CrtResult::Dx | CrtResult::Auto))
        .unwrap();
    declare_and_resolve(&mut g, x, vec![a, b, c], y, None, die);
    assert!(!g.units[d as usize].on_map());
    let mut list = Vec::new();
    g.legal_actions(Mode::Enforced, &mut list);
    for u in [a, b, c] {
        assert!(list.contains(&Action::AdvanceOne { unit: u }), "{list:?}");
    }
    // The corps and the division cross; the army stays to hold the bank.
    act(&mut g, Action::AdvanceOne { unit: b });
    act(&mut g, Action::AdvanceOne { unit: c });
    act(&mut g, Action::StayPut);
    assert!(g.pending.is_empty());
    assert_eq!((g.hex_of(a), g.hex_of(b), g.hex_of(c)), (Some(x), Some(y), Some(y)));
    // A counter that did not attack may not advance.
    let mut g = summer();
    let a = put(&mut g, Side::French, "18-2", x);
    let other = put(&mut g, Side::French, "2-5", x);
    put(&mut g, Side::Allied, "2-5", y);
    declare_and_resolve(&mut g, x, vec![a], y, None, die);
    let e = refused(&g, Action::AdvanceOne { unit: other });
    assert_eq!(e.rule(), "Combat");
}

#[test]
fn supply_case_c_the_player_chooses_which_supply_unit_keeps_a_stack_together() {
    let mut g = summer();
    let h = open_ground(&g, 2);
    put(&mut g, Side::French, "5-4", h);
    put(&mut g, Side::French, "2-5", h);
    let (n0, n3) = (nb(&g, h, 0), nb(&g, h, 3));
    let s1 = put(&mut g, Side::French, "S", n0);
    let depot = put(&mut g, Side::French, "D", n3);
    act(&mut g, Action::EndMovement);
    act(&mut g, Action::EndDeclarations);
    assert_eq!(g.step, Step::Consume, "the stack on {h:?} has two supply units to choose from");
    let mut list = Vec::new();
    g.legal_actions(Mode::Enforced, &mut list);
    assert_eq!(list, vec![Action::UseSupply { unit: s1 }, Action::UseSupply { unit: depot }]);
    // He keeps his supply unit and spends the depot (it becomes a supply unit where it stood).
    let ev = act(&mut g, Action::UseSupply { unit: depot });
    assert!(ev.iter().any(|e| matches!(e, Event::DepotReplaced { depot: x, supply: Some(_) } if *x == depot)));
    assert!(g.units[s1 as usize].on_map(), "the supply unit not chosen stays");
    assert!(!g.units[depot as usize].on_map());
    assert_eq!(g.side, Side::Allied, "the French player-turn is over");
    // With one supply unit next to it there is nothing to choose.
    let mut g = summer();
    put(&mut g, Side::French, "5-4", h);
    put(&mut g, Side::French, "2-5", h);
    let only = put(&mut g, Side::French, "S", n0);
    act(&mut g, Action::EndMovement);
    act(&mut g, Action::EndDeclarations);
    assert_eq!(g.side, Side::Allied);
    assert!(!g.units[only as usize].on_map(), "the only supply unit is used up");
}

#[test]
fn german_rebellion_the_french_player_chooses_the_two_divisions_he_removes() {
    let mut g = empty("8-the-campaign.ron");
    let h = open_ground(&g, 3);
    let corps = put(&mut g, Side::French, "5-4", h);
    let (n1, n2) = (nb(&g, h, 0), nb(&g, nb(&g, h, 0), 0));
    let div = put(&mut g, Side::French, "2-5", n1);
    let army = put(&mut g, Side::French, "18-2", n2);
    g.rebellion = true;
    g.side = Side::Allied;
    g.step = Step::Resolve;
    g.finish_combat(&mut Vec::new()); // the next turn's French player-turn begins
    assert_eq!(g.deciding(), Some(Side::French));
    assert_eq!(g.pending, vec![Pending::Lose { attack: None, divisions: 2 }]);
    let mut list = Vec::new();
    g.legal_actions(Mode::Enforced, &mut list);
    for u in [corps, div, army] {
        assert!(list.contains(&Action::Remove { unit: u }), "any French combat unit: {list:?}");
    }
    // Not the smallest first: he gives up the corps and keeps the division.
    act(&mut g, Action::Remove { unit: corps });
    assert!(g.pending.is_empty(), "two divisions removed");
    assert!(!g.units[corps as usize].on_map());
    assert!(g.units[div as usize].on_map() && g.units[army as usize].on_map());
    assert_eq!(g.unit_vp[Side::Allied.index()], 0, "the rebellion's levy scores nothing");
}

#[test]
fn combat_case_k_a_dispersal_ends_after_one_complete_friendly_movement_and_combat_phase() {
    let mut g = summer();
    let h = open_ground(&g, 1);
    let u = put(&mut g, Side::French, "2-5", h);
    let mut ev = Vec::new();
    g.disperse(u, &mut ev); // dispersed in the French Movement Phase (as by a forced march)
    act(&mut g, Action::EndMovement);
    act(&mut g, Action::EndDeclarations); // the French Combat Phase passes
    assert!(g.units[u as usize].dispersed.is_some());
    // The Allied player-turn, then the next French Movement Phase: the unit may not move.
    let mut list = Vec::new();
    while g.side == Side::Allied || g.step != Step::Move {
        g.legal_actions(Mode::Enforced, &mut list);
        let a = list
            .iter()
            .find(|a| matches!(a, Action::EndMovement | Action::EndDeclarations | Action::EndBuild))
            .cloned()
            .unwrap_or(list[0].clone());
        act(&mut g, a);
    }
    assert!(!g.can_move(u), "dispersed: it does not move in the next Movement Phase");
    act(&mut g, Action::EndMovement);
    assert!(g.units[u as usize].dispersed.is_none(), "recovered: it may attack in this Combat Phase");
}

#[test]
fn how_to_win_esm_a_complete_group_off_the_east_edge_scores_and_a_partial_one_does_not() {
    let mut g = empty("1-historical-situation.ron");
    g.turn = 13;
    let b = &g.sc.board;
    let edge = (0..b.len() as u16)
        .map(Hex)
        .find(|&h| {
            b.on_edge(h, grognard::games::leipzig::data::Edge::East)
                && b.terrain(h) == Terrain::Clear
                && b.allied_side[h.0 as usize]
        })
        .unwrap();
    let before = g.victory_points(false)[0];
    let army = put(&mut g, Side::French, "18-2", edge);
    let nap = leader(&mut g, Side::French, 1, edge);
    let s = put(&mut g, Side::French, "S", edge);
    act(&mut g, Action::Exit { unit: army });
    act(&mut g, Action::Exit { unit: nap });
    assert_eq!(g.victory_points(false)[0], before, "six divisions and a leader are not yet a group");
    act(&mut g, Action::Exit { unit: s });
    assert_eq!(g.victory_points(false)[0], before + 6, "ESM: six points for the group");
}

#[test]
fn reinforcements_due_at_a_city_held_by_the_enemy_do_not_appear() {
    let mut g = empty("1-historical-situation.ron");
    g.turn = 1;
    let berlin = place(&g, "Berlin");
    put(&mut g, Side::French, "2-5", berlin);
    g.side = Side::French;
    g.step = Step::Resolve;
    let mut ev = Vec::new();
    g.finish_combat(&mut ev); // the Allied player-turn of turn 1 begins: 1i and S are due at Berlin
    assert!(ev.iter().any(|e| matches!(e, Event::Delayed { side: Side::Allied, .. })), "{ev:?}");
    assert_eq!(g.arriving().count(), 0);
}

#[test]
fn reinforcements_bring_the_rest_in_places_every_arrival_on_an_entry_hex_of_its_own() {
    let mut g = empty("1-historical-situation.ron");
    g.turn = 1;
    g.side = Side::French;
    g.step = Step::Resolve;
    g.finish_combat(&mut Vec::new()); // the Allied player-turn of turn 1: 1i and S due at Berlin
    let arriving: Vec<UnitId> = g.arriving().collect();
    assert_eq!(arriving.len(), 2);
    assert_eq!(g.step, Step::Enter);
    act(&mut g, Action::EnterRest);
    let berlin = place(&g, "Berlin");
    for u in arriving {
        assert_eq!(g.hex_of(u), Some(berlin), "the chart's city is their only entry hex");
    }
    assert_eq!(g.step, Step::Move);
}

#[test]
fn austrian_intervention_when_french_combat_losses_are_twice_the_allies_from_turn_6() {
    let (mut g, _) = setup(scenario("8-the-campaign.ron"), 5);
    g.turn = 6;
    g.side = Side::Allied;
    g.step = Step::Resolve;
    g.combat_losses = [4, 2];
    let mut ev = Vec::new();
    g.finish_combat(&mut ev);
    assert!(g.austria_at_war && ev.iter().any(|e| matches!(e, Event::AustriaIntervenes)));
    assert_eq!(
        g.step,
        Step::Deploy(Side::Allied),
        "the Austrian army deploys around Prague at the start of the next turn"
    );
    assert!(g.to_deploy(Side::Allied).count() >= 7);
}

/// The campaign's empty map during an armistice called on turn 6, `side` to move.
fn armistice_on(side: Side) -> Leipzig {
    let (mut g, _) = setup(scenario("8-the-campaign.ron"), 5);
    g.units.clear();
    g.pending.clear();
    g.turn = 6;
    g.side = side;
    g.step = Step::Move;
    g.armistice = Some(6);
    g.austria_at_war = true;
    g
}

#[test]
fn armistice_every_unit_withdraws_towards_its_side_of_the_line_and_none_recrosses_it() {
    let mut g = armistice_on(Side::French);
    let b = &g.sc.board;
    // A French division deep on the Allied side, well away from any fortress.
    let stray = (0..b.len() as u16)
        .map(Hex)
        .find(|&h| b.from_side[0][h.0 as usize] >= 4 && b.terrain(h) == Terrain::Clear)
        .expect("a hex far on the Allied side");
    let u = put(&mut g, Side::French, "2-5", stray);
    let e = refused(&g, Action::EndMovement);
    assert_eq!(e.rule(), "Special Campaign-Game Rules: Armistice", "{e}");
    let dests = dests(&g, u, March::Normal);
    assert!(!dests.is_empty());
    let here = g.sc.board.from_side[0][stray.0 as usize];
    for (h, _) in &dests {
        let d = g.sc.board.from_side[0][h.0 as usize];
        assert!(d < here || g.sc.board.is_fortress(*h), "every move brings it nearer its side");
    }
    // On its own side, a unit may not cross back.
    let mut g2 = g.clone();
    g2.units.clear();
    let home = (0..g2.sc.board.len() as u16)
        .map(Hex)
        .find(|&h| {
            let b = &g2.sc.board;
            b.armistice_side(h, Side::French)
                && b.terrain(h) == Terrain::Clear
                && b.neighbours(h).any(|(_, n)| {
                    !b.armistice_side(n, Side::French) && b.terrain(n) == Terrain::Clear && !b.is_fortress(n)
                })
        })
        .unwrap();
    let v = put(&mut g2, Side::French, "1-8", home);
    assert!(
        dests_of(&g2, v)
            .iter()
            .all(|(h, _)| g2.sc.board.armistice_side(*h, Side::French) || g2.sc.board.is_fortress(*h))
    );
    act(&mut g2, Action::EndMovement);
}

fn dests_of(g: &Leipzig, u: UnitId) -> Vec<(Hex, u8)> {
    dests(g, u, March::Normal)
}

#[test]
fn armistice_allied_units_leave_by_the_east_edge_and_come_back_in_austria_eight_turns_later() {
    let mut g = armistice_on(Side::Allied);
    let b = &g.sc.board;
    let edge = (0..b.len() as u16)
        .map(Hex)
        .find(|&h| {
            b.on_edge(h, grognard::games::leipzig::data::Edge::East)
                && b.allied_side[h.0 as usize]
                && b.terrain(h) == Terrain::Clear
        })
        .unwrap();
    let u = put(&mut g, Side::Allied, "2-5", edge);
    let ev = act(&mut g, Action::Exit { unit: u });
    assert!(ev.iter().any(|e| matches!(e, Event::Detour { back: 14, .. })), "{ev:?}");
    assert!(matches!(g.units[u as usize].status, Status::Away { back: 14, .. }));
    // Without the armistice there is no way round.
    let (mut h, _) = setup(scenario("8-the-campaign.ron"), 5);
    h.units.clear();
    h.turn = 6;
    h.side = Side::Allied;
    h.step = Step::Move;
    let v = put(&mut h, Side::Allied, "2-5", edge);
    assert!(refused(&h, Action::Exit { unit: v }).rule().contains("Victory"));
    // Eight turns later it enters on the east edge in Austria.
    g.turn = 14;
    g.side = Side::French;
    g.step = Step::Resolve;
    let mut ev = Vec::new();
    g.finish_combat(&mut ev);
    assert_eq!(g.step, Step::Enter);
    let entries = g.entry_hexes(u);
    assert!(!entries.is_empty() && entries.iter().all(|&x| g.sc.board.austria[x.0 as usize]));
}

/// Plays every decision with the first legal action until the Allied player-turn begins.
fn play_to_allied_turn(g: &mut Leipzig) {
    let mut list = Vec::new();
    while g.side == Side::French && !g.is_over() {
        list.clear();
        g.legal_actions(Mode::Enforced, &mut list);
        act(g, list[0].clone());
    }
}

#[test]
fn supply_case_c_i_a_supply_unit_allocated_to_a_defence_is_removed_at_the_end_of_that_combat_phase() {
    let mut g = summer();
    let h = open_ground(&g, 3);
    let t = nb(&g, h, 0);
    let a = put(&mut g, Side::French, "5-4", h);
    put(&mut g, Side::Allied, "2-5", t);
    let behind = nb(&g, t, 0);
    let sup = put(&mut g, Side::Allied, "S", behind);
    g.step = Step::Declare;
    act(&mut g, Action::Declare { from: h, units: vec![a], target: t, supply: None });
    act(&mut g, Action::EndDeclarations);
    if g.step == Step::RetreatBefore {
        act(&mut g, Action::EndRetreats);
    }
    assert_eq!(g.step, Step::DefendSupply);
    act(&mut g, Action::DefendSupply { hex: t, supply: Some(sup) });
    assert!(g.units[sup as usize].on_map(), "it supports every defence of the phase");
    g.rng = rolling(&[6]);
    play_to_allied_turn(&mut g);
    assert_eq!(g.side, Side::Allied);
    assert!(!g.units[sup as usize].on_map(), "used for a defence: removed at the end of the Combat Phase");
    assert_eq!(g.units[sup as usize].status, Status::Gone(grognard::games::leipzig::state::Gone::Consumed));
}

#[test]
fn stacking_case_b_i_units_moved_together_to_be_combined_are_recombined_at_the_end_of_the_movement_phase() {
    let mut g = summer();
    let h = open_ground(&g, 3);
    let a = put(&mut g, Side::French, "2-5", h);
    let from = nb(&g, nb(&g, h, 3), 3);
    let b = put(&mut g, Side::French, "2-5", from);
    // Two hexes and one MP for entering a friendly combat unit: three of five, two left.
    act(&mut g, Action::Move { unit: b, to: h, march: March::Normal, supply: None });
    assert!(g.moved_any);
    // No supply near: the stack is legal only because it is about to be combined.
    act(&mut g, Action::EndMovement);
    assert_eq!(g.step, Step::Build, "the recombination is offered at the end of the Movement Phase");
    let e = refused(&g, Action::EndBuild);
    assert_eq!(e.rule(), "Stacking and Unit Breakdown", "a stack neither recombined nor supplied is not legal: {e}");
    let ev = act(&mut g, Action::Build { units: vec![a, b] });
    let Event::BuiltUp { into, .. } = ev[0] else { panic!("{ev:?}") };
    assert_eq!(g.ty(into).unwrap().id, "5-4");
    act(&mut g, Action::EndBuild);
    assert_eq!(g.step, Step::Declare);
}

#[test]
fn stacking_case_b_i_a_unit_may_join_others_to_be_combined_only_with_a_movement_point_left() {
    let mut g = summer();
    let h = open_ground(&g, 4);
    put(&mut g, Side::French, "2-5", h);
    // Four hexes and one MP for entering: all five spent, none left to combine.
    let far = (0..4).fold(h, |x, _| nb(&g, x, 3));
    let b = put(&mut g, Side::French, "2-5", far);
    assert_eq!(cost_to(&g, b, h), None, "arriving with no MP left it could neither combine nor stack");
    let near = nb(&g, nb(&g, nb(&g, h, 3), 3), 3);
    let c = put(&mut g, Side::French, "2-5", near);
    assert_eq!(cost_to(&g, c, h), Some(4), "three hexes and one MP for entering: one left to combine");
}

#[test]
fn retreat_order_of_preference_a_after_combat_a_friendly_hex_in_an_enemy_zone_counts_as_enemy_controlled() {
    let g0 = {
        let mut g = summer();
        let h = open_ground(&g, 5);
        put(&mut g, Side::Allied, "2-5", h);
        g
    };
    let h = g0.units[0].hex.unwrap();
    let b = &g0.sc.board;
    let opts0 = g0.retreat_options(&Situation::of(&g0), Side::Allied, h, 2, false);
    assert!(opts0.len() > 1, "{opts0:?}");
    // A friend on one way out, a French division beside it but away from another way.
    let (x, f, y) = opts0
        .iter()
        .find_map(|&x| {
            b.neighbours(x)
                .map(|(_, f)| f)
                .filter(|&f| b.distance(f, h) >= 3)
                .find_map(|f| opts0.iter().copied().find(|&y| y != x && b.distance(y, f) >= 3).map(|y| (x, f, y)))
        })
        .expect("a friend's hex, a French hex and another way");
    let mut g = g0.clone();
    put(&mut g, Side::Allied, "2-5", x);
    put(&mut g, Side::French, "2-5", f);
    let s = Situation::of(&g);
    assert_ne!(s.enemy_zoc(Side::Allied, x), grognard::games::leipzig::rules::zoc::Zoc::None);
    let opts = g.retreat_options(&s, Side::Allied, h, 2, false);
    assert!(opts.contains(&y), "the free way is open");
    assert!(!opts.contains(&x), "the friend's hex is in the French zone: one Enemy-controlled hex more");
}

#[test]
fn terrain_effects_chart_a_bridged_river_hexside_doubles_the_defender_and_bars_attacks_below_160_percent() {
    let mut g = summer();
    let (h, n) = river_side(&g, Hexside::Bridge);
    let a = put(&mut g, Side::French, "5-4", h);
    let sup = g.sc.board.neighbours(h).map(|(_, x)| x).find(|&x| x != n && !g.sc.board.adjacent(x, n)).unwrap();
    let s = put(&mut g, Side::French, "S", sup);
    put(&mut g, Side::Allied, "5-4", n);
    g.step = Step::Declare;
    // 5 supplied against 5 halved (no Allied supply) is 200% on open ground, 100% across the bridge.
    let e = refused(&g, Action::Declare { from: h, units: vec![a], target: n, supply: Some(s) });
    assert_eq!(e.rule(), "Combat", "{e}");
    let mut list = Vec::new();
    g.legal_actions(Mode::Enforced, &mut list);
    assert!(!list.iter().any(|x| matches!(x, Action::Declare { target, .. } if *target == n)));
    // An army across the bridge: the attack is across a river, the defender doubled.
    let mut g = summer();
    let army = put(&mut g, Side::French, "18-2", h);
    let s = put(&mut g, Side::French, "S", sup);
    put(&mut g, Side::Allied, "5-4", n);
    g.step = Step::Declare;
    act(&mut g, Action::Declare { from: h, units: vec![army], target: n, supply: Some(s) });
    assert!(g.attacks[0].river, "a bridged hexside is a river hexside for combat and the advance after it");
    let (plain, _) = g.defense_strength(&[n], false, false);
    let (across, why) = g.defense_strength(&[n], false, g.attacks[0].river);
    assert_eq!(across, 2 * plain);
    assert!(why.iter().any(|w| w.contains("doubled")), "{why:?}");
}

/// A clear hex outside Austria with an open clear hexside into it (scenario 1).
fn austrian_border(g: &Leipzig) -> (Hex, Hex) {
    let b = &g.sc.board;
    (0..b.len() as u16)
        .map(Hex)
        .find_map(|h| {
            (!b.austria[h.0 as usize] && b.terrain(h) == Terrain::Clear)
                .then(|| {
                    b.neighbours(h).find(|&(_, n)| {
                        b.austria[n.0 as usize] && b.terrain(n) == Terrain::Clear && b.side(h, n) == Hexside::Open
                    })
                })
                .flatten()
                .map(|(_, n)| (h, n))
        })
        .expect("a border")
}

#[test]
fn scenario_1_units_forced_to_enter_austria_by_a_retreat_are_eliminated_and_the_log_says_so() {
    let mut g = empty("1-historical-situation.ron");
    let (h, _) = austrian_border(&g);
    let d = put(&mut g, Side::Allied, "2-5", h);
    // Every way out but into Austria is held by the French.
    let outside: Vec<Hex> =
        g.sc.board.neighbours(h).map(|(_, n)| n).filter(|n| !g.sc.board.austria[n.0 as usize]).collect();
    for &n in &outside {
        put(&mut g, Side::French, "2-5", n);
    }
    g.pending.push(Pending::Retreat { units: vec![d], from: h, hexes: 1 });
    let s = Situation::of(&g);
    assert!(g.retreat_options(&s, Side::Allied, h, 1, false).is_empty(), "Austria stays closed to a retreat");
    assert!(g.forced_into_austria(&s, Side::Allied, h, 1, false));
    let mut ev = Vec::new();
    g.settle_pending(&mut ev);
    assert!(!g.units[d as usize].on_map());
    assert!(
        ev.iter().any(|e| matches!(e, Event::Lost { unit, why: grognard::games::leipzig::actions::Loss::Austria, .. } if *unit == d)),
        "{ev:?}"
    );
    let text = g.event_text(ev.iter().find(|e| matches!(e, Event::Lost { .. })).unwrap(), Viewer::Spectator);
    assert!(text.contains("eliminated entering Austria"), "{text}");
    // With a way out that avoids Austria the stack takes it: no elimination.
    let mut g = empty("1-historical-situation.ron");
    let d = put(&mut g, Side::Allied, "2-5", h);
    g.pending.push(Pending::Retreat { units: vec![d], from: h, hexes: 1 });
    let s = Situation::of(&g);
    assert!(
        !g.forced_into_austria(&s, Side::Allied, h, 1, false)
            || !g.retreat_options(&s, Side::Allied, h, 1, false).is_empty()
    );
    let mut ev = Vec::new();
    g.settle_pending(&mut ev);
    assert!(g.units[d as usize].on_map());
}

#[test]
fn leaders_case_b_several_leaders_in_one_stack_share_one_cap_the_units_own_strength() {
    // "this addition may not exceed the actual Combat Strength … of the units it is stacked
    // with": the leaders' additions together, so a stack is at most doubled however many
    // leaders ride with it.
    let mut g = summer();
    let h = open_ground(&g, 1);
    let d = put(&mut g, Side::French, "2-5", h);
    let nap = leader(&mut g, Side::French, 1, h);
    let other = leader(&mut g, Side::French, 2, h);
    assert!(g.sc.leader(Side::French, 2).unwrap().offense >= 2);
    assert_eq!(g.attack_strength(&[d, nap], true, false).0, 8, "2 + 2 of Napoleon's 25");
    let (both, why) = g.attack_strength(&[d, nap, other], true, false);
    assert_eq!(both, 8, "two leaders add no more than one: 2 + 2, not 2 + 2 + 2");
    assert!(why.iter().any(|w| w.contains("capped by the units' 2")), "{why:?}");
    // Three 18-2s: Napoleon's 25 and the second leader's bonus both fit under 54.
    let mut g = summer();
    let armies: Vec<UnitId> = (0..3).map(|_| put(&mut g, Side::French, "18-2", h)).collect();
    let nap = leader(&mut g, Side::French, 1, h);
    let other = leader(&mut g, Side::French, 2, h);
    let second = g.sc.leader(Side::French, 2).unwrap().offense as u32;
    let units: Vec<UnitId> = armies.iter().copied().chain([nap, other]).collect();
    assert_eq!(g.attack_strength(&units, true, false).0, 2 * (54 + 25 + second));
}

#[test]
fn how_to_win_half_points_for_the_units_in_a_besieged_city_drop_the_fraction() {
    // "One-half of the normal points are also received for any Enemy units in a besieged
    // city": the units' points are added, then halved, and a half point is not scored: the
    // units are not destroyed, and the rulebook rounds up only the attacker's ½ex loss.
    let mut g = summer();
    let dresden = place(&g, "Dresden");
    put(&mut g, Side::French, "5-4", dresden);
    put(&mut g, Side::French, "2-5", dresden);
    for (_, n) in g.sc.board.neighbours(dresden).collect::<Vec<_>>() {
        put(&mut g, Side::Allied, "1-8", n);
    }
    assert_eq!(g.victory_points(true)[1], 40 + 15 + 1, "three divisions inside: one and a half, scored 1");
    leader(&mut g, Side::French, 3, dresden);
    assert_eq!(g.victory_points(true)[1], 40 + 15 + 2, "three divisions and a leader: 2");
}

#[test]
fn campaign_armistice_is_announced_at_the_beginning_of_the_french_player_turn_before_reinforcements() {
    let (g, _) = setup(scenario("8-the-campaign.ron"), 5);
    let mut t = grognard::engine::table::Table::new(g, 5, Mode::Enforced);
    t.submit(SeatId(1), grognard::engine::table::Act::Game(Action::DeployRest)).unwrap();
    let g = &mut t.game;
    g.turn = 4;
    // Two French reinforcements waiting to be placed.
    let ty = g.sc.type_index("2-5").unwrap();
    let r1 =
        g.add_unit(Side::French, What::Type(ty), Status::Arriving(grognard::games::leipzig::data::Entry::WestEdge));
    g.add_unit(Side::French, What::Type(ty), Status::Arriving(grognard::games::leipzig::data::Entry::WestEdge));
    g.step = Step::Enter;
    let mut list = Vec::new();
    g.legal_actions(Mode::Enforced, &mut list);
    assert!(list.contains(&Action::Armistice), "offered before the reinforcements are placed");
    let hex = g.entry_hexes(r1)[0];
    act(g, Action::Enter { unit: r1, hex });
    assert_eq!(g.step, Step::Enter);
    let e = refused(g, Action::Armistice);
    assert_eq!(e.rule(), "Special Campaign-Game Rules: Armistice");
    act(g, Action::EnterRest);
    assert_eq!(g.step, Step::Move);
    assert!(!g.can_armistice(), "the player-turn has begun: not after the reinforcements either");
}
