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
