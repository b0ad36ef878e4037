//! What the window does with a dragged marker, without drawing: the lit destinations come from the
//! legal-action list, and a refused drop names the rule.
#![cfg(feature = "gui")]
mod common;
use common::*;
use grognard::engine::rules::Mode;
use grognard::engine::table::Act;
use grognard::games::botn::view::pieces::{marker_destinations, refusal};
use grognard::games::botn::{self, Action};

#[test]
fn dragged_marker_lights_its_legal_fields_and_a_bad_drop_names_the_rule() {
    let mut t = after_draft(51);
    let murat = army(&t, "Murat");
    t.submit(FRENCH, Act::Game(Action::LayOutArmyCard { army: murat, skip: vec![] })).unwrap();
    let wachau = field(&t, "Wachau");
    let marker = t.game.markers_on_board(murat).find(|(_, f)| *f == wachau).unwrap().0;
    // Give Napoléon a cavalry movement card so that Murat's markers can move.
    let cav = (0..40u8)
        .find(|&c| t.game.sc.action_cards[c as usize].title() == "Move: cavalry" && t.game.draw_pile.contains(&c))
        .unwrap();
    t.game.draw_pile.retain(|c| *c != cav);
    t.game.hands[0].push(grognard::games::botn::state::HandCard::Action(cav));
    let lit: Vec<&str> = {
        let mut v: Vec<_> = marker_destinations(&t.game, t.mode, Some(FRENCH), marker)
            .into_iter()
            .map(|(f, _)| t.game.sc.field_name(f))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    assert_eq!(lit, ["Cröbern", "Güldengossa", "Markkleeberg", "Meusdorf"]);
    // The other seat and a spectator get nothing to light.
    assert!(marker_destinations(&t.game, t.mode, Some(ALLIED), marker).is_empty());
    assert!(marker_destinations(&t.game, t.mode, None, marker).is_empty());
    // Dropped on Galgenberg (holding another Murat marker) or far away: the rule is named.
    let why = refusal(&t.game, t.mode, Some(FRENCH), marker, Some(field(&t, "Galgenberg")));
    assert!(why.contains("already holds a marker of Murat") && why.contains("3. Play a Movement Card"), "{why}");
    let why = refusal(&t.game, t.mode, Some(FRENCH), marker, Some(field(&t, "Taucha")));
    assert!(why.contains("not adjacent"), "{why}");
    let why = refusal(&t.game, t.mode, Some(FRENCH), marker, None);
    assert!(why.contains("off the board"), "{why}");
    // In the sandbox every field is open.
    let sandbox = botn::new_table(&scenario_path(), 51, Mode::Sandbox).unwrap();
    assert_eq!(marker_destinations(&sandbox.game, sandbox.mode, None, 0).len(), 47);
}
