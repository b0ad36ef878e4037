//! Victory & Glory as Bevy systems, headless: the engine plugin applies requests, the step of play
//! is a Bevy `States`, and every nation and unit is an entity whose plain components follow the
//! table after each change (the window adds meshes to these same entities). Units are mirrored
//! from what the `Eyes` may see (`Game::observe`): a unit the eyes may not identify is placed among
//! its nation's unseen units by id order alone, so its entity tells nothing of where it really is.

use super::data::{NationId, Player};
use super::observe::{UnitFace, VgView};
use super::state::{Loc, Pending, Phase, UnitId, Vg};
use crate::engine::plugin::{EnginePlugin, Eyes, SyncNeed, TableSet, TableVersion, sync_need};
use crate::engine::seen::Seen;
use bevy::prelude::*;

/// The step of play.
#[derive(States, Default, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VgPhase {
    /// A player plays a card.
    #[default]
    Play,
    /// Units are being committed to a campaign.
    Commit,
    /// A card's choice is open (influence, recruiting, losses, alliance, En Avant!).
    Decide,
    /// The end of an era: campaigns resolve, then scoring.
    EraEnd,
    /// A campaign is being fought on the miniatures table.
    Tabletop,
    GameOver,
}

impl VgPhase {
    pub fn of(game: &Vg) -> VgPhase {
        match (game.phase, game.pending.first()) {
            (Phase::GameOver, _) => VgPhase::GameOver,
            (_, Some(Pending::TabletopResult { .. })) => VgPhase::Tabletop,
            (_, Some(Pending::Commit { .. })) => VgPhase::Commit,
            (Phase::EraEnd, _) => VgPhase::EraEnd,
            (_, Some(_)) => VgPhase::Decide,
            (_, None) => VgPhase::Play,
        }
    }
}

/// A nation of the map.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct NationSpace(pub NationId);

/// Influence cubes in a nation: [French, British].
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Influence(pub [u8; 2]);

/// The player a Major Nation is allied to.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlliedTo(pub Option<Player>);

/// A military unit of Appendix A.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitPiece(pub UnitId);

/// Where the unit is, and whether the eyes of the mirror know which unit it is.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitAt(pub Loc, pub bool);

/// Where each unit lies as a view shows it: the known where they are, the hidden of each nation
/// given that nation's unseen ids in order, the rest in the unused stack.
pub fn unit_places(view: &VgView) -> Vec<UnitAt> {
    let units = &view.sc.units;
    let mut out: Vec<Option<UnitAt>> = vec![None; units.len()];
    let mut hidden: Vec<(NationId, Loc)> = Vec::new();
    for &(loc, face) in &view.units {
        match face {
            UnitFace::Known(u) => {
                if let Some(slot) = out.get_mut(u as usize) {
                    *slot = Some(UnitAt(loc, true));
                }
            }
            UnitFace::Hidden { nation } => hidden.push((nation, loc)),
        }
    }
    for (nation, loc) in hidden {
        if let Some(slot) = (0..units.len()).find(|&u| out[u].is_none() && units[u].nation == nation) {
            out[slot] = Some(UnitAt(loc, false));
        }
    }
    out.into_iter().map(|p| p.unwrap_or(UnitAt(Loc::Pool, false))).collect()
}

pub struct VgPlugin;

impl Plugin for VgPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((EnginePlugin::<Vg>::default(), crate::engine::seen::SeenPlugin::<Vg>::default()))
            .init_state::<VgPhase>()
            .add_systems(Update, sync_entities.in_set(TableSet::Sync));
    }
}

/// Spawns the nations and units for a table's scenario, and keeps their components and the phase
/// in step with the table.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn sync_entities(
    mut commands: Commands,
    seen: Option<Res<Seen<Vg>>>,
    version: Res<TableVersion>,
    eyes: Res<Eyes>,
    mut last: Local<Option<(u64, usize)>>,
    mut next_phase: ResMut<NextState<VgPhase>>,
    phase: Res<State<VgPhase>>,
    existing: Query<Entity, Or<(With<NationSpace>, With<UnitPiece>)>>,
    mut nations: Query<(&NationSpace, &mut Influence, &mut AlliedTo)>,
    mut units: Query<(&UnitPiece, &mut UnitAt)>,
) {
    let Some(seen) = seen else { return };
    let (Some(game), Some(view)) = (seen.game(), seen.view.as_ref()) else { return };
    let need = sync_need(&game.sc, seen.is_changed() || eyes.is_changed(), &version, &mut last);
    if need == SyncNeed::Nothing {
        return;
    }
    let wanted = VgPhase::of(game);
    if *phase.get() != wanted {
        next_phase.set(wanted);
    }
    let places = unit_places(view);
    if need == SyncNeed::Respawn {
        for e in &existing {
            commands.entity(e).despawn();
        }
        for (i, n) in game.sc.nations.iter().enumerate() {
            commands.spawn((
                NationSpace(i as NationId),
                Influence(game.influence[i]),
                AlliedTo(game.allies[i]),
                Name::new(n.name.clone()),
            ));
        }
        for (u, at) in places.into_iter().enumerate() {
            let nation = &game.sc.nations[game.unit_nation(u as UnitId) as usize].name;
            commands.spawn((UnitPiece(u as UnitId), at, Name::new(format!("{nation} unit"))));
        }
        return;
    }
    for (n, mut inf, mut ally) in &mut nations {
        let (want_inf, want_ally) = (Influence(game.influence[n.0 as usize]), AlliedTo(game.allies[n.0 as usize]));
        if *inf != want_inf {
            *inf = want_inf;
        }
        if *ally != want_ally {
            *ally = want_ally;
        }
    }
    for (u, mut at) in &mut units {
        let want = places[u.0 as usize];
        if *at != want {
            *at = want;
        }
    }
}
