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
