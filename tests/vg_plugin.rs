//! Victory & Glory as Bevy systems, headless: requests in, table and entities out, the step of
//! play as a state.
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use grognard::engine::plugin::{Outcome, Request, TableRes};
use grognard::engine::seats::SeatId;
use grognard::engine::table::Act;
use grognard::games::vg::plugin::*;
use grognard::games::vg::state::{Loc, Text};
use grognard::games::vg::{self, Action, Player, Vg};
use std::path::PathBuf;

fn app(seed: u64) -> App {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory/napoleon.ron");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, VgPlugin))
        .insert_resource(TableRes(vg::new_table(&p, seed, None).unwrap()));
    app.update();
    app
}

fn send(app: &mut App, seat: SeatId, action: Action) -> Vec<Outcome> {
    app.world_mut().write_message(Request::<Vg>::Act { seat, act: Act::Game(action) });
    app.update();
    app.update();
    let msgs = app.world().resource::<Messages<Outcome>>();
    msgs.get_cursor().read(msgs).cloned().collect()
}

#[test]
fn nations_and_units_are_entities_and_follow_the_table() {
    let mut app = app(1);
    let world = app.world_mut();
    assert_eq!(world.query::<&NationSpace>().iter(world).count(), 11);
    assert_eq!(world.query::<&UnitPiece>().iter(world).count(), 89);
    let in_front = world.query::<&UnitAt>().iter(world).filter(|a| a.0 == Loc::Army(Player::Britain)).count();
    assert_eq!(in_front, 9, "4 British and 5 Austrian units");
    assert_eq!(*world.resource::<State<VgPhase>>().get(), VgPhase::Play);
    // Britain plays a bottom text of two influence cubes: a decision is open.
    let game = &app.world().resource::<TableRes<Vg>>().0.game;
    let card = game.sc.cards.iter().position(|c| c.name == "Second Coalition Formed").unwrap() as u16;
    {
        let t = &mut app.world_mut().resource_mut::<TableRes<Vg>>().0;
        t.game.deck.retain(|&c| c != card);
        t.game.hands[1].push(card);
    }
    send(&mut app, SeatId(1), Action::PlayCard { card, text: Text::Bottom });
    assert_eq!(*app.world().resource::<State<VgPhase>>().get(), VgPhase::Decide);
    let egypt = app.world().resource::<TableRes<Vg>>().0.game.sc.nation_id("Egypt").unwrap();
    send(&mut app, SeatId(1), Action::PlaceInfluence(egypt));
    let world = app.world_mut();
    let cubes = world.query::<(&NationSpace, &Influence)>().iter(world).find(|(n, _)| n.0 == egypt).unwrap().1.0;
    assert_eq!(cubes, [0, 1]);
    // A refused request names its rule and changes nothing.
    let before = app.world().resource::<TableRes<Vg>>().0.digest();
    let out = send(&mut app, SeatId(0), Action::PlaceInfluence(egypt));
    assert!(out.iter().any(|o| !o.accepted && o.message.contains("Britain's decision")), "{out:?}");
    assert_eq!(app.world().resource::<TableRes<Vg>>().0.digest(), before);
}
