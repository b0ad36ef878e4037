//! Leipzig 1813 as Bevy systems, headless: the engine plugin applies requests, the step of play
//! is a Bevy `States`, and every counter is an entity whose plain components follow the table
//! after each change, read through the `Eyes` (`Game::observe`): a counter the eyes may not
//! identify is mirrored as a blank. The window adds meshes to these same entities.

use super::data::Hex;
use super::state::{Leipzig, Status, Step, UnitId, What};
use crate::engine::plugin::{EnginePlugin, Eyes, SyncNeed, TableSet, TableVersion, sync_need};
use crate::engine::seen::Seen;
use bevy::prelude::*;

/// The step of play, for systems that belong to one.
#[derive(States, Default, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LzPhase {
    #[default]
    Deploy,
    Movement,
    Combat,
    GameOver,
}

impl LzPhase {
    pub fn of(game: &Leipzig) -> LzPhase {
        match game.step {
            Step::Deploy(_) => LzPhase::Deploy,
            Step::Enter | Step::Move | Step::March | Step::Build => LzPhase::Movement,
            Step::Declare | Step::RetreatBefore | Step::DefendSupply | Step::Resolve | Step::Consume => LzPhase::Combat,
            Step::Over => LzPhase::GameOver,
        }
    }
}

/// Where a counter is, for the mirror.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Map(Hex),
    /// Waiting to be deployed or to enter as a reinforcement.
    Waiting,
    Gone,
}

/// A counter of the order of battle.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counter(pub UnitId);

/// Where the counter is and what the eyes see of it (a blank where they may not identify it).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CounterAt {
    pub place: Place,
    pub what: What,
    pub dispersed: bool,
}

pub struct LzPlugin;

impl Plugin for LzPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((EnginePlugin::<Leipzig>::default(), crate::engine::seen::SeenPlugin::<Leipzig>::default()))
            .init_state::<LzPhase>()
            .add_systems(Update, sync_entities.in_set(TableSet::Sync));
    }
}

/// The mirror of one view: each counter's place and face.
pub fn counters_of(view: &Leipzig) -> Vec<CounterAt> {
    view.units
        .iter()
        .map(|u| CounterAt {
            place: match (&u.status, u.hex) {
                (Status::OnMap, Some(h)) => Place::Map(h),
                (Status::Deploy { .. } | Status::Arriving(_) | Status::Away { .. }, _) => Place::Waiting,
                _ => Place::Gone,
            },
            what: u.what,
            dispersed: u.dispersed.is_some(),
        })
        .collect()
}

/// Spawns a counter entity for every counter of the table (breakdowns add counters), and keeps
/// their components and the phase in step with the table.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn sync_entities(
    mut commands: Commands,
    seen: Option<Res<Seen<Leipzig>>>,
    version: Res<TableVersion>,
    eyes: Res<Eyes>,
    mut last: Local<Option<(u64, usize)>>,
    mut next_phase: ResMut<NextState<LzPhase>>,
    phase: Res<State<LzPhase>>,
    existing: Query<Entity, With<Counter>>,
    mut counters: Query<(&Counter, &mut CounterAt)>,
) {
    let Some(seen) = seen else { return };
    let (Some(game), Some(view)) = (seen.game(), seen.view.as_ref()) else { return };
    let need = sync_need(&game.sc, seen.is_changed() || eyes.is_changed(), &version, &mut last);
    if need == SyncNeed::Nothing {
        return;
    }
    let wanted = LzPhase::of(game);
    if *phase.get() != wanted {
        next_phase.set(wanted);
    }
    let places = counters_of(&view.game);
    let mut have = 0;
    if need == SyncNeed::Respawn {
        for e in &existing {
            commands.entity(e).despawn();
        }
    } else {
        for (c, mut at) in &mut counters {
            have = have.max(c.0 as usize + 1);
            if let Some(want) = places.get(c.0 as usize)
                && *at != *want
            {
                *at = *want;
            }
        }
    }
    for (u, at) in places.into_iter().enumerate().skip(have) {
        let side = game.units[u].side.name();
        commands.spawn((Counter(u as UnitId), at, Name::new(format!("{side} counter"))));
    }
}
