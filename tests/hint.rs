//! The Orders panel's hint in words (`table::hint::hint_word`): the best order with its chance to
//! win, the next two with theirs, the best one framed in the list.
#![cfg(feature = "gui")]
use grognard::engine::search::Estimate;
use grognard::games::botn::Action;
use grognard::table::hint::hint_word;
use grognard::table::lesson::Coach;

#[test]
fn a_hint_names_the_best_order_with_its_chance_and_the_next_two() {
    let sc = std::sync::Arc::new(
        grognard::games::botn::Scenario::load(&grognard::games::botn::data::default_scenario_path()).unwrap(),
    );
    let t = grognard::games::botn::table_on(sc, 1, grognard::engine::rules::Mode::Enforced);
    let e = |action: Action, win: f32| Estimate { action, visits: 10, win, default: false };
    let found = [e(Action::DrawBlind, 0.62), e(Action::SwapFaceUp, 0.551), e(Action::Pass, 0.3), e(Action::Pass, 0.1)];
    let Some(Coach::Step(l)) = hint_word(&t.game, &found) else { panic!("a step") };
    assert!(l.now.starts_with("Strong would play: ") && l.now.ends_with("(62% to win)"), "{}", l.now);
    assert_eq!(l.why.matches('%').count(), 2, "the next two, each with its chance: {}", l.why);
    assert!(l.why.contains("(55%)") && l.why.contains("(30%)"), "{}", l.why);
    assert_eq!(l.pick, Some(Action::DrawBlind), "the best order is framed in the list");
    assert_eq!(hint_word(&t.game, &[]), None, "no candidates, no hint");
}

#[test]
fn a_hint_rings_on_the_table_the_field_of_the_marker_it_moves_and_where_it_goes() {
    use grognard::engine::rules::{Game, Mode};
    use grognard::engine::table::Act;
    let sc = std::sync::Arc::new(
        grognard::games::botn::Scenario::load(&grognard::games::botn::data::default_scenario_path()).unwrap(),
    );
    let mut t = grognard::games::botn::table_on(sc, 4, Mode::Enforced);
    let mut rng = grognard::engine::rng::TableRng::from_seed(4);
    // Play on at random until a movement card may be played.
    let mut legal = Vec::new();
    let moving = loop {
        legal.clear();
        t.game.legal_actions(Mode::Enforced, &mut legal);
        if let Some(a @ Action::PlayMovementCard { .. }) =
            legal.iter().find(|a| matches!(a, Action::PlayMovementCard { .. }))
        {
            break a.clone();
        }
        assert!(!t.game.is_over(), "a movement card is played before the end");
        let seat = t.game.active_seat().unwrap();
        let a = legal[rng.below(legal.len())].clone();
        t.submit(seat, Act::Game(a)).unwrap();
    };
    let Action::PlayMovementCard { marker, to, .. } = &moving else { unreachable!() };
    let from = t.game.markers[*marker as usize].at.expect("a marker on the board");
    let found = [Estimate { action: moving.clone(), visits: 10, win: 0.5, default: true }];
    let Some(Coach::Step(l)) = hint_word(&t.game, &found) else { panic!("a step") };
    assert_eq!(l.at, vec![from, *to], "the marker's field and its destination are ringed");
    // An order with no place on the board (drawing a card) rings nothing.
    let draw = [Estimate { action: Action::DrawBlind, visits: 10, win: 0.5, default: true }];
    let Some(Coach::Step(l)) = hint_word(&t.game, &draw) else { panic!("a step") };
    assert!(l.at.is_empty());
}

#[test]
fn a_victory_and_glory_hint_rings_the_nation_its_order_acts_on() {
    use grognard::engine::geometry::SpaceId;
    use grognard::games::vg;
    let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory/napoleon.ron");
    let sc = std::sync::Arc::new(vg::VgScenario::load(&p).unwrap());
    let t = vg::table_on(sc, 1, None);
    let found = [Estimate { action: vg::Action::PlaceInfluence(3), visits: 10, win: 0.5, default: true }];
    let Some(Coach::Step(l)) = hint_word(&t.game, &found) else { panic!("a step") };
    assert_eq!(l.at, vec![SpaceId(3)]);
}
