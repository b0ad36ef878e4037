//! One gate for hidden information, as a property over many random games of every game: at every
//! step and for every viewer (each player, the spectator), the view of the table does not change
//! when everything that viewer may not see is changed (the pile's order and contents, the other
//! hand, hidden missions or units, the table's future chance), it does show the viewer's own
//! secrets, and a computer player's sample of the unseen agrees with the view.
mod common;
#[path = "common/scramble.rs"]
mod scramble;
use grognard::engine::rng::TableRng;
use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::{SeatId, Viewer};
use grognard::engine::table::{Act, Table};
use grognard::games::botn;
use grognard::games::leipzig;
use grognard::games::vg;
use grognard::games::vg::state::Loc;
use scramble::{scramble_botn, scramble_leipzig, scramble_vg};
use std::sync::Arc;

const VIEWERS: [Viewer; 3] = [Viewer::Seat(SeatId(0)), Viewer::Seat(SeatId(1)), Viewer::Spectator];

/// Writes a case count straight to stderr, past the test harness's capture, so CI's log shows
/// how many games a property covered.
fn report(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn cases(default: u64) -> u64 {
    std::env::var("GROGNARD_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Plays random games, calling `check(game, rng)` at every position.
fn every_position<G: Game>(
    games: u64,
    new_table: impl Fn(u64) -> Table<G>,
    mut check: impl FnMut(&G, &mut TableRng),
) -> u64 {
    let mut positions = 0;
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut t = new_table(seed);
        let mut rng = TableRng::from_seed(seed ^ 0x0b5e);
        while !t.game.is_over() {
            check(&t.game, &mut rng);
            positions += 1;
            t.game.legal_actions(t.mode, &mut legal);
            let seat = t.game.active_seat().unwrap();
            t.submit(seat, Act::Game(legal[rng.below(legal.len())].clone())).unwrap();
        }
        check(&t.game, &mut rng);
    }
    positions
}

#[test]
fn battle_of_the_nations_views_show_nothing_a_seat_may_not_see() {
    let sc = Arc::new(botn::Scenario::load(&common::scenario_path()).unwrap());
    let mut hidden_changed = 0;
    let positions = every_position(
        cases(1000),
        |seed| botn::table_on(sc.clone(), seed, Mode::Enforced),
        |g, rng| {
            for viewer in VIEWERS {
                let view = g.observe(viewer);
                let other = scramble_botn(g, viewer, rng);
                hidden_changed += (other.draw_pile != g.draw_pile || other.hands != g.hands) as u32;
                assert_eq!(other.observe(viewer), view, "{viewer:?} sees something hidden from it");
                assert_eq!(view.sample(rng).observe(viewer), view, "a sample disagrees with the view");
                if let Viewer::Seat(s) = viewer {
                    let own: Vec<_> = g.hands[s.0 as usize].iter().map(|c| Some(*c)).collect();
                    assert_eq!(view.hands[s.0 as usize], own, "a seat sees its own hand");
                }
                if viewer == Viewer::Seat(SeatId(0)) {
                    assert!(view.missions.iter().all(Option::is_some), "Napoléon sees his missions");
                } else {
                    let shown = view.missions.iter().filter(|m| m.is_some()).count();
                    assert_eq!(shown, g.revealed as usize, "only revealed missions are seen");
                }
            }
        },
    );
    report(format_args!("views of Battle of the Nations: {positions} positions, 3 viewers each"));
    assert!(hidden_changed > 0, "the scrambles changed hidden cards");
}

#[test]
fn victory_and_glory_views_show_nothing_a_seat_may_not_see() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory/napoleon.ron");
    let sc = Arc::new(vg::VgScenario::load(&path).unwrap());
    let mut hidden_changed = 0;
    let positions = every_position(
        cases(250),
        |seed| vg::table_on(sc.clone(), seed, None),
        |g, rng| {
            for viewer in VIEWERS {
                let view = g.observe(viewer);
                let other = scramble_vg(g, viewer, rng);
                hidden_changed += (other.units != g.units || other.hands != g.hands) as u32;
                assert_eq!(other.observe(viewer), view, "{viewer:?} sees something hidden from it");
                assert_eq!(view.sample(rng).observe(viewer), view, "a sample disagrees with the view");
                if let Viewer::Seat(s) = viewer {
                    assert_eq!(view.hands[s.0 as usize], Ok(g.hands[s.0 as usize].clone()), "own hand seen");
                    let p = vg::rules::player_of(s);
                    for u in g.army(p) {
                        assert!(view.units.contains(&(Loc::Army(p), vg::observe::UnitFace::Known(u))));
                    }
                }
            }
        },
    );
    report(format_args!("views of Victory & Glory: {positions} positions, 3 viewers each"));
    assert!(hidden_changed > 0, "the scrambles changed hidden cards or units");
}

#[test]
fn leipzig_views_show_no_hidden_allied_counter_to_the_french_or_spectators() {
    let mut hidden_changed = 0;
    let mut blanks = 0;
    for file in ["1-historical-situation.ron", "8-the-campaign.ron"] {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/leipzig-1813").join(file);
        let sc = Arc::new(leipzig::LzScenario::load(&path).unwrap());
        let positions = every_position(
            cases(4),
            |seed| leipzig::table_on(sc.clone(), seed),
            |g, rng| {
                for viewer in VIEWERS {
                    let view = g.observe(viewer);
                    let other = scramble_leipzig(g, viewer, rng);
                    hidden_changed += other.units.iter().zip(&g.units).any(|(a, b)| a.what != b.what) as u32;
                    assert_eq!(other.observe(viewer), view, "{viewer:?} sees something hidden from it");
                    assert_eq!(view.sample(rng).observe(viewer), view, "a sample disagrees with the view");
                    if viewer == Viewer::Seat(SeatId(1)) {
                        assert_eq!(view.blanks(), 0, "the Allies see all their own counters");
                    }
                    blanks += view.blanks();
                }
            },
        );
        report(format_args!("views of Leipzig {file}: {positions} positions, 3 viewers each"));
    }
    assert!(hidden_changed > 0 && blanks > 0, "hidden counters were there to scramble");
}

#[test]
fn leipzig_french_choices_depend_only_on_what_the_french_see() {
    // Reconnaissance: the French are offered moves, retreats and attacks on the zones and
    // counters they may examine, so the list is the same whatever the blanks are (a list that
    // changed with them would tell the French what they hide). Every French decision of random
    // games, against the same table with the hidden counters dealt otherwise.
    let path =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/leipzig-1813/1-historical-situation.ron");
    let sc = Arc::new(leipzig::LzScenario::load(&path).unwrap());
    let french = Viewer::Seat(SeatId(0));
    let (mut compared, mut differed) = (0, 0);
    every_position(
        cases(20),
        |seed| leipzig::table_on(sc.clone(), seed),
        |g, rng| {
            if g.active_seat() != Some(SeatId(0)) {
                return;
            }
            let (mut mine, mut other) = (Vec::new(), Vec::new());
            g.legal_actions(Mode::Enforced, &mut mine);
            let s = scramble_leipzig(g, french, rng);
            differed += s.units.iter().zip(&g.units).any(|(a, b)| a.what != b.what) as u32;
            s.legal_actions(Mode::Enforced, &mut other);
            if mine != other {
                panic!(
                    "the French legal list changed with what they may not see: {:?} became {:?}",
                    common::only_in(&mine, &other),
                    common::only_in(&other, &mine)
                );
            }
            // What a window at a host's table offers: the table rebuilt from the French view alone.
            let view = serde_json::to_value(g.observe(french)).unwrap();
            let rebuilt = g.rebuilt_from_view(&view, rng).unwrap();
            rebuilt.legal_actions(Mode::Enforced, &mut other);
            if mine != other {
                panic!(
                    "the French legal list differs on the table rebuilt from their view: {:?} became {:?} ({:?})",
                    common::only_in(&mine, &other),
                    common::only_in(&other, &mine),
                    g.step
                );
            }
            compared += 1;
        },
    );
    report(format_args!("Leipzig French legal lists: {compared} positions compared"));
    assert!(compared > 1000 && differed > 0);
}

#[test]
fn austerlitz_views_are_the_whole_board_for_everyone_and_never_the_tables_chance() {
    // Austerlitz hides no unit: every viewer sees the same board; the table's chance (which
    // decides every future die) changed changes no view.
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz/1-historical.ron");
    let sc = Arc::new(grognard::games::austerlitz::AzScenario::load(&path).unwrap());
    let positions = every_position(
        cases(3),
        |seed| grognard::games::austerlitz::table_on(sc.clone(), seed),
        |g, rng| {
            let views: Vec<_> = VIEWERS.iter().map(|&v| g.observe(v)).collect();
            assert_eq!(views[0].game, views[2].game);
            assert_eq!(views[1].game, views[2].game);
            let mut other = g.clone();
            other.rng = TableRng::from_seed(rng.below(1 << 30) as u64);
            assert_eq!(other.observe(Viewer::Spectator), views[2], "the view carries the table's chance");
            assert_eq!(views[2].game.units, g.units);
        },
    );
    report(format_args!("views of Austerlitz: {positions} positions, 3 viewers each"));
}
