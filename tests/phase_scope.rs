//! The step of play schedules Leipzig's and Austerlitz's windows (issue 31): what the combat
//! panel chose and the hexes it lit belong to the phase, and are gone when the phase ends.
#![cfg(feature = "gui")]
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use grognard::engine::kit::Kit;
use grognard::engine::plugin::TableRes;
use grognard::engine::rng::TableRng;
use grognard::engine::rules::{Game, Mode};
use grognard::engine::table::{Act, Table};
use grognard::games::{austerlitz, leipzig};
use std::sync::Arc;

fn table<G: Kit>() -> Table<G> {
    let file = grognard::engine::scenario::scenarios_root().join(G::ID).join(G::DEFAULT_SCENARIO);
    G::table_on(Arc::new(G::load_scenario(&file).unwrap()), 4, Mode::Enforced)
}

/// Plays random listed orders on the app's table until `done`, then lets the state follow.
fn play_until<G: Game>(app: &mut App, done: impl Fn(&G) -> bool) {
    let mut rng = TableRng::from_seed(4);
    for _ in 0..20_000 {
        let mut res = app.world_mut().resource_mut::<TableRes<G>>();
        let t = &mut res.0;
        if done(&t.game) {
            break;
        }
        let mut legal = Vec::new();
        t.game.legal_actions(t.mode, &mut legal);
        let a = legal[rng.below(legal.len())].clone();
        let seat = t.game.active_seat().unwrap();
        t.submit(seat, Act::Game(a)).unwrap();
    }
    assert!(done(&app.world().resource::<TableRes<G>>().0.game), "never came to the step looked for");
    app.update();
    app.update(); // the state transition applies on the next frame
}

#[test]
fn leipzigs_combat_panel_and_its_lit_hexes_end_with_the_combat_phase() {
    use leipzig::plugin::LzPhase;
    use leipzig::view::{geometry::Lights, panels::CombatPick};
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, leipzig::plugin::LzPlugin, leipzig::view::panels::CombatScope))
        .insert_resource(TableRes(table::<leipzig::Leipzig>()));
    app.update();
    play_until::<leipzig::Leipzig>(&mut app, |g| LzPhase::of(g) == LzPhase::Combat);
    assert_eq!(*app.world().resource::<State<LzPhase>>().get(), LzPhase::Combat);
    let hex = leipzig::data::Hex(500);
    app.world_mut().resource_mut::<CombatPick>().target = Some(hex);
    app.world_mut().resource_mut::<CombatPick>().show_crt = true;
    app.world_mut().resource_mut::<Lights>().hexes.push((hex, leipzig::view::geometry::Light::Target, None));
    app.update();
    assert_eq!(app.world().resource::<CombatPick>().target, Some(hex), "kept while the phase lasts");
    play_until::<leipzig::Leipzig>(&mut app, |g| LzPhase::of(g) != LzPhase::Combat);
    let pick = app.world().resource::<CombatPick>();
    assert_eq!((pick.target, pick.show_crt), (None, true), "the choice goes, the open chart stays");
    assert!(app.world().resource::<Lights>().hexes.is_empty());
}

#[test]
fn austerlitzs_combat_target_ends_with_the_movement_steps() {
    use austerlitz::plugin::AzPhase;
    use austerlitz::view::panels::CombatPick;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, austerlitz::plugin::AzPlugin, austerlitz::view::panels::MoveScope))
        .insert_resource(TableRes(table::<austerlitz::Austerlitz>()));
    app.update();
    play_until::<austerlitz::Austerlitz>(&mut app, |g| AzPhase::of(g) == AzPhase::Move);
    app.world_mut().resource_mut::<CombatPick>().target = Some((5, 5));
    app.update();
    assert_eq!(app.world().resource::<CombatPick>().target, Some((5, 5)));
    play_until::<austerlitz::Austerlitz>(&mut app, |g| AzPhase::of(g) != AzPhase::Move);
    assert_eq!(app.world().resource::<CombatPick>().target, None);
}
