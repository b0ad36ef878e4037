//! The rules as Bevy systems, headless: requests in, table and entities out, phases as states.
mod common;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use common::*;
use grognard::engine::plugin::{Outcome, Request, TableRes};
use grognard::engine::table::Act;
use grognard::games::botn::data::District;
use grognard::games::botn::plugin::*;
use grognard::games::botn::{Action, Botn};

fn app(seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, BotnPlugin)).insert_resource(TableRes(new_table(seed)));
    app.update();
    app
}

fn send(app: &mut App, seat: grognard::engine::seats::SeatId, action: Action) -> Vec<Outcome> {
    app.world_mut().write_message(Request::<Botn>::Act { seat, act: Act::Game(action) });
    app.update();
    app.update(); // the state transition applies on the next frame
    let msgs = app.world().resource::<Messages<Outcome>>();
    msgs.iter_current_update_messages()
        .cloned()
        .collect::<Vec<_>>()
        .into_iter()
        .chain(msgs.get_cursor().read(msgs).cloned())
        .collect()
}

#[test]
fn the_table_is_mirrored_as_entities() {
    let mut app = app(41);
    let world = app.world_mut();
    assert_eq!(world.query::<&Field>().iter(world).count(), 47);
    assert_eq!(world.query::<&TroopMarker>().iter(world).count(), 53);
    assert_eq!(world.query::<&ArmyPiece>().iter(world).count(), 19);
    // 40 action + 6 scout + 25 mission + 19 army cards.
    assert_eq!(world.query::<&Card>().iter(world).count(), 90);
    assert_eq!(world.query::<&MinusOneChip>().iter(world).count(), 6);
    assert_eq!(world.query::<&TimeIndicator>().iter(world).count(), 1);
    assert_eq!(world.query::<&VictoryMarker>().iter(world).count(), 2);
    let in_hands = world.query::<&CardPlace>().iter(world).filter(|p| matches!(p, CardPlace::Hand(..))).count();
    assert_eq!(in_hands, 8);
    assert_eq!(*world.resource::<State<BotnPhase>>().get(), BotnPhase::Preparation);
}

#[test]
fn requests_apply_through_the_message_and_phases_follow() {
    let mut app = app(42);
    send(&mut app, FRENCH, Action::DraftDistrict(District::North));
    let keep = app.world().resource::<TableRes<Botn>>().0.game.draft_pair[0];
    send(&mut app, FRENCH, Action::KeepMission(keep));
    send(&mut app, FRENCH, Action::DraftDistrict(District::East));
    let keep = app.world().resource::<TableRes<Botn>>().0.game.draft_pair[0];
    send(&mut app, FRENCH, Action::KeepMission(keep));
    assert_eq!(*app.world().resource::<State<BotnPhase>>().get(), BotnPhase::Actions);
    let marmont = app.world().resource::<TableRes<Botn>>().0.game.sc.army_id("Marmont").unwrap() as u8;
    send(&mut app, FRENCH, Action::LayOutArmyCard { army: marmont, skip: vec![] });
    let world = app.world_mut();
    let on_board: Vec<_> = world
        .query::<(&TroopMarker, &At)>()
        .iter(world)
        .filter(|(m, at)| m.army == marmont && at.0.is_some())
        .collect();
    assert_eq!(on_board.len(), 3);
    // A refused request reports its rule and changes nothing.
    let before = app.world().resource::<TableRes<Botn>>().0.digest();
    let outcomes = send(&mut app, ALLIED, Action::DrawBlind);
    assert!(outcomes.iter().any(|o| !o.accepted && o.message.contains("Napoléon (French)'s decision")), "{outcomes:?}");
    assert_eq!(app.world().resource::<TableRes<Botn>>().0.digest(), before);
}

/// The cards the mirror shows, sorted: (card, place, face seen).
fn mirror(app: &mut App) -> Vec<(String, String, bool)> {
    let world = app.world_mut();
    let mut out: Vec<_> = world
        .query::<(&Card, &CardPlace, &FaceShown)>()
        .iter(world)
        .map(|(c, p, f)| (format!("{c:?}"), format!("{p:?}"), f.0))
        .collect();
    out.sort();
    out
}

fn with_eyes(app: &mut App, viewer: grognard::engine::seats::Viewer) {
    app.world_mut().resource_mut::<grognard::engine::plugin::Eyes>().0 = viewer;
    app.update();
}

#[test]
fn a_blind_draw_moves_one_back_from_the_pile_to_the_hand_and_no_other() {
    // The cards a spectator cannot tell apart stay where they lay: a draw from the blind pile
    // (rule 7: "Draw an Action Card from the blind pile") takes the pile's top card to the hand,
    // and the other backs in the pile and the hands do not slide (they once were dealt afresh in
    // id order, so a dozen moved at every draw and the broadcast's director framed them all).
    use grognard::engine::seats::Viewer;
    let mut table = new_table(45);
    let mut k = 0;
    while !legal(&table).contains(&Action::DrawBlind) {
        play_random(&mut table, 1, 45 + k);
        k += 1;
    }
    let mut app = app(1);
    app.world_mut().resource_mut::<TableRes<Botn>>().0 = table.clone();
    app.update();
    with_eyes(&mut app, Viewer::Spectator);
    let before = mirror(&mut app);
    let side = grognard::engine::rules::Game::active_seat(&table.game).unwrap();
    send(&mut app, side, Action::DrawBlind);
    let after = mirror(&mut app);
    let moved: Vec<_> = before.iter().zip(&after).filter(|(b, a)| b != a).collect();
    assert_eq!(moved.len(), 1, "one card moves: {moved:?}");
    let ((_, from, seen_before), (_, to, seen_after)) = moved[0];
    assert!(from.starts_with("DrawPile") && to.starts_with("Hand"), "{from} to {to}");
    assert!(!seen_before && !seen_after, "a back, and a back it stays to the spectator");
}

#[test]
fn the_mirror_shows_only_what_its_eyes_may_see() {
    use grognard::engine::seats::Viewer;
    use grognard::games::botn::state::HandCard;
    let mut table = new_table(43);
    play_random(&mut table, 60, 43);
    let game = table.game.clone();
    let mut app = app(1);
    app.world_mut().resource_mut::<TableRes<Botn>>().0 = table;
    app.update();
    // The spectator's mirror: no face in a hand, the pile or a hidden mission is seen, and each
    // place holds one card.
    with_eyes(&mut app, Viewer::Spectator);
    let spectator = mirror(&mut app);
    for (card, place, seen) in &spectator {
        if place.starts_with("Hand") || place.starts_with("DrawPile") {
            assert!(!seen, "{card} at {place} shows its face to the spectator");
        }
    }
    let mut places: Vec<&String> =
        spectator.iter().map(|(_, p, _)| p).filter(|p| !p.starts_with("OutOfGame") && *p != "MissionBox").collect();
    let count = places.len();
    places.dedup();
    assert_eq!(places.len(), count, "two cards share a place");
    let in_hands = spectator.iter().filter(|(_, p, _)| p.starts_with("Hand")).count();
    assert_eq!(in_hands, game.hands[0].len() + game.hands[1].len());
    // Napoléon's mirror: his own hand, card for card, face up to him.
    with_eyes(&mut app, Viewer::Seat(FRENCH));
    let world = app.world_mut();
    let mut own: Vec<(u8, HandCard)> = world
        .query::<(&Card, &CardPlace, &FaceShown)>()
        .iter(world)
        .filter_map(|(c, p, f)| match (c, p) {
            (Card::Action(id), CardPlace::Hand(grognard::games::botn::Side::French, i)) => {
                assert!(f.0);
                Some((*i, HandCard::Action(*id)))
            }
            (Card::Scout(_), CardPlace::Hand(grognard::games::botn::Side::French, i)) => Some((*i, HandCard::Scout)),
            _ => None,
        })
        .collect();
    own.sort_by_key(|(i, _)| *i);
    assert_eq!(own.into_iter().map(|(_, c)| c).collect::<Vec<_>>(), game.hands[0]);
    // Re-dealing what the spectator cannot see (the two hands swapped in content is not
    // possible, so the draw pile is reordered) leaves the spectator's mirror unchanged.
    let mut other = game.clone();
    other.draw_pile.reverse();
    app.world_mut().resource_mut::<TableRes<Botn>>().0.game = other;
    with_eyes(&mut app, Viewer::Spectator);
    app.update();
    assert_eq!(mirror(&mut app), spectator);
}

#[test]
fn a_table_opened_mid_game_shows_its_revealed_missions_at_once() {
    // A game played until Napoléon has revealed missions, then opened in a fresh app.
    let mut t = new_table(5);
    let mut seed = 0;
    while t.game.revealed < 2 && !grognard::engine::rules::Game::is_over(&t.game) {
        seed += 1;
        play_random(&mut t, 1, seed);
    }
    assert!(t.game.revealed >= 2);
    let revealed = t.game.revealed as usize;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, BotnPlugin)).insert_resource(TableRes(t));
    app.update();
    let world = app.world_mut();
    let figures: Vec<u8> = world.query::<&MissionFigure>().iter(world).map(|f| f.0).collect();
    assert_eq!(figures.len(), revealed, "one marker per revealed mission, before any action");
}
