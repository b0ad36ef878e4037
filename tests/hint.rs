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

/// Plays `t` at random (seeded) until `wanted` finds an action on the legal list; returns it.
fn play_until<G: grognard::engine::rules::Game>(
    t: &mut grognard::engine::table::Table<G>,
    wanted: impl Fn(&G::Action) -> bool,
) -> G::Action {
    use grognard::engine::rules::Mode;
    use grognard::engine::table::Act;
    let mut rng = grognard::engine::rng::TableRng::from_seed(7);
    let mut legal = Vec::new();
    for _ in 0..5_000 {
        legal.clear();
        t.game.legal_actions(Mode::Enforced, &mut legal);
        if let Some(a) = legal.iter().find(|a| wanted(a)) {
            return a.clone();
        }
        let seat = t.game.active_seat().expect("a decision");
        t.submit(seat, Act::Game(legal[rng.below(legal.len())].clone())).unwrap();
    }
    panic!("the action never came");
}

#[test]
fn a_leipzig_hint_rings_the_hex_of_the_counter_it_moves_and_where_it_goes() {
    use grognard::engine::geometry::SpaceId;
    use grognard::games::leipzig::{self, Action as Lz};
    let p =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/leipzig-1813/1-historical-situation.ron");
    let mut t = leipzig::table_on(std::sync::Arc::new(leipzig::LzScenario::load(&p).unwrap()), 3);
    let moving = play_until(&mut t, |a| matches!(a, Lz::Move { .. }));
    let Lz::Move { unit, to, .. } = &moving else { unreachable!() };
    let from = t.game.hex_of(*unit).expect("a counter on the map");
    let found = [Estimate { action: moving.clone(), visits: 10, win: 0.5, default: true }];
    let Some(Coach::Step(l)) = hint_word(&t.game, &found) else { panic!("a step") };
    assert_eq!(l.at, vec![SpaceId(from.0), SpaceId(to.0)]);
}

#[test]
fn an_austerlitz_hint_rings_the_space_of_the_unit_it_moves_and_where_it_goes() {
    use grognard::engine::geometry::SpaceId;
    use grognard::games::austerlitz::{self, Action as Az};
    let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz/1-historical.ron");
    let mut t = austerlitz::table_on(std::sync::Arc::new(austerlitz::AzScenario::load(&p).unwrap()), 3);
    let moving = play_until(&mut t, |a| matches!(a, Az::Move { .. }));
    let Az::Move { unit, to, .. } = &moving else { unreachable!() };
    let from = t.game.units[*unit as usize].at.expect("a unit on the board");
    let found = [Estimate { action: moving.clone(), visits: 10, win: 0.5, default: true }];
    let Some(Coach::Step(l)) = hint_word(&t.game, &found) else { panic!("a step") };
    let space = |c| SpaceId(t.game.sc.board.index(c) as u16);
    assert_eq!(l.at, vec![space(from), space(*to)]);
}

#[test]
fn a_victory_and_glory_hint_to_play_an_event_rings_the_nations_its_text_names() {
    use grognard::engine::geometry::SpaceId;
    use grognard::games::vg::{self, data::Effect, state::Text};
    let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory/napoleon.ron");
    let sc = std::sync::Arc::new(vg::VgScenario::load(&p).unwrap());
    // A card whose text names a nation (cubes placed there, units recruited, an alliance).
    let named = |e: &Effect| match e {
        Effect::Influence(_, Some(n), _) | Effect::Recruit(_, Some(n), _) | Effect::Alliance(_, n) => Some(*n),
        _ => None,
    };
    let (card, nations) = sc
        .cards
        .iter()
        .enumerate()
        .find_map(|(i, c)| {
            let mut ns: Vec<SpaceId> = Vec::new();
            for n in c.body.iter().filter_map(named) {
                if !ns.contains(&SpaceId(n as u16)) {
                    ns.push(SpaceId(n as u16));
                }
            }
            (!ns.is_empty()).then_some((i, ns))
        })
        .expect("an event naming a nation");
    let t = vg::table_on(sc, 1, None);
    let play = vg::Action::PlayCard { card: card as _, text: Text::Body };
    let found = [Estimate { action: play, visits: 10, win: 0.5, default: true }];
    let Some(Coach::Step(l)) = hint_word(&t.game, &found) else { panic!("a step") };
    assert_eq!(l.at, nations);
}
