//! Austerlitz as Bevy systems, headless: the engine plugin applies requests, the step of play is
//! a Bevy `States`, and every unit and command is an entity whose plain components follow the
//! table after each change, read through the `Eyes` (`Game::observe`). The window adds meshes to
//! these same entities.

use super::data::Cell;
use super::state::{Austerlitz, Step};
use crate::engine::geometry::Facing;
use crate::engine::plugin::{EnginePlugin, Eyes, SyncNeed, TableSet, TableVersion, sync_need};
use crate::engine::seen::Seen;
use bevy::prelude::*;

/// The step of play, for systems that belong to one.
#[derive(States, Default, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AzPhase {
    #[default]
    Setup,
    Fire,
    Move,
    Commands,
    GameOver,
}

impl AzPhase {
    pub fn of(g: &Austerlitz) -> AzPhase {
        match g.step {
            Step::Setup => AzPhase::Setup,
            Step::Fire => AzPhase::Fire,
            Step::Move | Step::ArtilleryMove => AzPhase::Move,
            Step::Commands => AzPhase::Commands,
            Step::Over => AzPhase::GameOver,
        }
    }
}

/// A unit or a command of the order of battle.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    Unit(u8),
    Command(u8),
}

/// Where a piece is and how it stands: its space (None: off the board), its front, its markers.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceAt {
    pub at: Option<Cell>,
    pub facing: Facing,
    pub square: bool,
    pub dis: bool,
    pub demoralised: bool,
    pub smoke: bool,
}

pub struct AzPlugin;

impl Plugin for AzPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            EnginePlugin::<Austerlitz>::default(),
            crate::engine::seen::SeenPlugin::<Austerlitz>::default(),
        ))
        .init_state::<AzPhase>()
        .add_systems(Update, sync_entities.in_set(TableSet::Sync));
    }
}

/// The mirror of one view: each unit's and then each command's place.
pub fn pieces_of(view: &Austerlitz) -> Vec<(Piece, PieceAt)> {
    let mut out: Vec<(Piece, PieceAt)> = view
        .units
        .iter()
        .enumerate()
        .map(|(u, x)| {
            (
                Piece::Unit(u as u8),
                PieceAt {
                    at: if x.eliminated { None } else { x.at },
                    facing: x.facing,
                    square: x.square,
                    dis: x.dis,
                    demoralised: view.is_demoralised(u),
                    smoke: x.smoke,
                },
            )
        })
        .collect();
    out.extend(view.commands.iter().enumerate().map(|(k, c)| {
        (
            Piece::Command(k as u8),
            PieceAt {
                at: if c.captured { None } else { c.at },
                facing: Facing::N,
                square: false,
                dis: false,
                demoralised: false,
                smoke: false,
            },
        )
    }));
    out
}

/// Spawns an entity for every piece and keeps their components and the phase in step with the
/// table.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn sync_entities(
    mut commands: Commands,
    seen: Option<Res<Seen<Austerlitz>>>,
    version: Res<TableVersion>,
    eyes: Res<Eyes>,
    mut last: Local<Option<(u64, usize)>>,
    mut next_phase: ResMut<NextState<AzPhase>>,
    phase: Res<State<AzPhase>>,
    existing: Query<Entity, With<Piece>>,
    mut pieces: Query<(&Piece, &mut PieceAt)>,
) {
    let Some(seen) = seen else { return };
    let (Some(game), Some(view)) = (seen.game(), seen.view.as_ref()) else { return };
    let need = sync_need(&game.sc.0, seen.is_changed() || eyes.is_changed(), &version, &mut last);
    if need == SyncNeed::Nothing {
        return;
    }
    let wanted = AzPhase::of(game);
    if *phase.get() != wanted {
        next_phase.set(wanted);
    }
    let places = pieces_of(&view.game);
    if need == SyncNeed::Respawn || existing.is_empty() {
        for e in &existing {
            commands.entity(e).despawn();
        }
        for (piece, at) in places {
            let name = match piece {
                Piece::Unit(u) => game.unit_label(u),
                Piece::Command(k) => game.sc.commands[k as usize].name.clone(),
            };
            commands.spawn((piece, at, Name::new(name)));
        }
        return;
    }
    let units = game.units.len();
    for (piece, mut at) in &mut pieces {
        // `pieces_of` lists the units, then the commands.
        let i = match *piece {
            Piece::Unit(u) => u as usize,
            Piece::Command(k) => units + k as usize,
        };
        if let Some((_, want)) = places.get(i)
            && *at != *want
        {
            *at = *want;
        }
    }
}
