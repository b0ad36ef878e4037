//! What the window's eyes see of the table, worked out once when the table or the eyes change
//! rather than in every frame of every panel: the view through the `Eyes` (`Game::observe`, the
//! one gate for hidden information) and, when the decision is the session's own seat's, its legal
//! orders. The Orders panel and the digit keys read the orders from here.

use super::TableGame;
use super::session::Session;
use crate::engine::plugin::{Eyes, TableRes, TableVersion};
use crate::engine::rules::Game;
use crate::engine::seats::Viewer;
use bevy::prelude::*;

/// The eyes' view of the table and the legal orders of the session's seat, as of the table's
/// last change.
#[derive(Resource)]
pub struct Seen<G: Game> {
    /// Whose eyes the view is through.
    pub eyes: Viewer,
    /// The view (None until the first update).
    pub view: Option<G::View>,
    /// The legal orders when the decision is the session's seat's (empty otherwise).
    pub legal: Vec<G::Action>,
}

impl<G: Game> Default for Seen<G> {
    fn default() -> Self {
        Seen { eyes: Viewer::Spectator, view: None, legal: Vec::new() }
    }
}

/// Works `Seen` out again when the table, its version, the eyes or the session's seat changed.
pub fn see<G: TableGame>(
    table: Res<TableRes<G>>,
    version: Res<TableVersion>,
    eyes: Res<Eyes>,
    session: Res<Session>,
    mut seen: ResMut<Seen<G>>,
    mut seat_seen: Local<Option<Option<crate::engine::seats::SeatId>>>,
) {
    let seat = session.seat();
    let fresh = seen.view.is_none() || *seat_seen != Some(seat);
    if !fresh && !table.is_changed() && !version.is_changed() && !eyes.is_changed() {
        return;
    }
    *seat_seen = Some(seat);
    let game = &table.0.game;
    let mut legal = Vec::new();
    if seat.is_some() && game.active_seat() == seat {
        game.legal_actions(table.0.mode, &mut legal);
    }
    *seen = Seen { eyes: eyes.0, view: Some(game.observe(eyes.0)), legal };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plugin::Request;
    use crate::engine::rules::Mode;
    use crate::engine::seats::SeatId;
    use crate::engine::table::Act;
    use crate::games::botn::{self, Botn};

    #[test]
    fn the_seen_orders_are_the_legal_list_of_the_sessions_seat_and_follow_the_table() {
        let file = crate::engine::scenario::scenarios_root().join("battle-of-the-nations/beginner.ron");
        let table = botn::new_table(&file, 3, Mode::Enforced).unwrap();
        let first = table.game.active_seat().unwrap();
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin, botn::plugin::BotnPlugin))
            .insert_resource(TableRes(table))
            .insert_resource(Session::new(2, std::path::PathBuf::from("j.ron")))
            .insert_resource(Eyes(Viewer::Seat(first)))
            .init_resource::<Seen<Botn>>()
            .add_systems(Update, see::<Botn>.after(crate::engine::plugin::TableSet::Apply));
        app.world_mut().resource_mut::<Session>().viewer = Viewer::Seat(first);
        app.update();
        let legal = |app: &App| {
            let t = &app.world().resource::<TableRes<Botn>>().0;
            let mut l = Vec::new();
            t.game.legal_actions(t.mode, &mut l);
            l
        };
        let seen = app.world().resource::<Seen<Botn>>();
        assert_eq!(seen.legal, legal(&app));
        assert!(!seen.legal.is_empty());
        assert_eq!(seen.view, Some(app.world().resource::<TableRes<Botn>>().0.game.observe(Viewer::Seat(first))));
        // An order taken: the list follows the table.
        let a = seen.legal[0].clone();
        app.world_mut().write_message(Request::<Botn>::Act { seat: first, act: Act::Game(a) });
        app.update();
        let t = &app.world().resource::<TableRes<Botn>>().0;
        let mine = t.game.active_seat() == Some(first);
        let seen = app.world().resource::<Seen<Botn>>();
        assert_eq!(seen.legal, if mine { legal(&app) } else { Vec::new() });
        // The other seat's eyes: no orders while the decision is not theirs.
        let other = SeatId(1 - first.0);
        app.world_mut().resource_mut::<Session>().viewer = Viewer::Seat(other);
        app.world_mut().resource_mut::<Eyes>().0 = Viewer::Seat(other);
        app.update();
        let t = &app.world().resource::<TableRes<Botn>>().0;
        let theirs = t.game.active_seat() == Some(other);
        let seen = app.world().resource::<Seen<Botn>>();
        assert_eq!(seen.eyes, Viewer::Seat(other));
        assert_eq!(seen.legal.is_empty(), !theirs);
    }
}
