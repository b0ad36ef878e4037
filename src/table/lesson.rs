//! Game → Learn to play: a guided first turn. The game's first new game starts on a fixed seed
//! with the computer (its weakest level) at the other seats; at each decision of the learner's
//! first turn the Orders panel says what to do now and why, with the rule's section, and the
//! places it speaks of are ringed on the table. The rules check every step as always: the coach
//! only speaks, so a learner who does something else is answered from wherever that leads.
//!
//! The coach reads the learner's own legal list and what the whole table may see (the phase,
//! the turn); never what the learner's seat may not see.

use super::TableGame;
pub use super::coach::{Coach, Lesson};
use super::session::Session;
use crate::engine::geometry::SpaceId;
use crate::engine::plugin::TableSet;
use crate::engine::rules::Game;
use crate::engine::seats::SeatId;
use crate::engine::seen::Seen;
use crate::engine::table::Table;
use crate::table::session::Pointing;
use bevy::prelude::*;

/// The seed of every lesson: the same first hand each time, so that what the lesson says of
/// it can be tried again.
pub const LESSON_SEED: u64 = 1813;

/// The coach's word for the table as it stands (None: no lesson).
#[derive(Resource)]
pub struct Coached<G: Game>(pub Option<Coach<G::Action>>);

impl<G: Game> Default for Coached<G> {
    fn default() -> Self {
        Coached(None)
    }
}

/// A ring on the table round a place the lesson speaks of, or a name clicked in the log.
#[derive(Component)]
pub struct Beacon;

pub struct LessonPlugin<G>(std::marker::PhantomData<G>);

impl<G> Default for LessonPlugin<G> {
    fn default() -> Self {
        LessonPlugin(std::marker::PhantomData)
    }
}

impl<G: TableGame> Plugin for LessonPlugin<G> {
    fn build(&self, app: &mut App) {
        app.init_resource::<Coached<G>>()
            .add_systems(Update, (coach::<G>, light_places::<G>).chain().after(TableSet::Apply));
    }
}

/// A new table for the lesson, and the session set for it: the learner is the seat of the first
/// decision, the computer plays the others.
pub fn start_lesson<G: TableGame>(
    game: &G,
    session: &mut Session,
    notice: &mut super::session::Notice,
) -> Result<Table<G>, String> {
    let started = G::start(game, 0, LESSON_SEED, &[], 0)?;
    let seats = started.table.game.seat_names().len();
    // A game that sets its own computer seats (a solo AI) leaves the learner the seat it does not
    // play; otherwise the learner takes the first decision.
    let (learner, computers) = match started.computers {
        Some(c) => {
            let person =
                (0..seats).find(|&k| c.get(k).copied().flatten().is_none()).ok_or("no seat is left to a person")?;
            (SeatId(person as u8), c)
        }
        None => {
            let first = started.table.game.active_seat().ok_or("the game starts with no decision to learn")?;
            (first, (0..seats).map(|k| (k != first.0 as usize).then_some(0)).collect())
        }
    };
    session.set_computers(computers);
    session.lesson = Some(learner);
    session.last_active = Some(learner);
    notice.clear();
    Ok(started.table)
}

/// What the coach says of `table` for the learner `seat`.
pub fn coach_of<G: TableGame>(table: &Table<G>, seat: SeatId) -> Coach<G::Action> {
    coach_on(&table.game, table.mode, seat)
}

/// What the coach says of `game` (a table as the learner's eyes see it) for the learner `seat`.
pub fn coach_on<G: TableGame>(game: &G, mode: crate::engine::rules::Mode, seat: SeatId) -> Coach<G::Action> {
    let mut legal = Vec::new();
    if game.active_seat() == Some(seat) {
        game.legal_actions(mode, &mut legal);
    }
    game.lesson(seat, &legal)
}

fn coach<G: TableGame>(
    table: Res<Seen<G>>,
    session: Res<Session>,
    mut coached: ResMut<Coached<G>>,
    mut seen: Local<Option<(usize, SeatId)>>,
) {
    let Some(seat) = session.lesson else {
        // Only what the lesson said goes with it: the coach box is the hint's otherwise.
        if seen.is_some() {
            coached.0 = None;
            *seen = None;
        }
        return;
    };
    // The coach speaks again only when the table moved on (or the lesson began).
    let Some(game) = table.game() else { return };
    let now = (table.log.len(), seat);
    if *seen == Some(now) && !table.is_changed() {
        return;
    }
    *seen = Some(now);
    let word = coach_on(game, table.mode, seat);
    if coached.0.as_ref() != Some(&word) {
        coached.0 = Some(word);
    }
}

/// Rings the places of the lesson's step and the place of a name clicked in the log.
#[allow(clippy::too_many_arguments)]
fn light_places<G: TableGame>(
    mut commands: Commands,
    seen: Res<Seen<G>>,
    coached: Res<Coached<G>>,
    pointing: Res<Pointing>,
    beacons: Query<Entity, With<Beacon>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut lit: Local<Vec<SpaceId>>,
    mut gold: Local<Option<Handle<StandardMaterial>>>,
) {
    let mut want: Vec<SpaceId> = match &coached.0 {
        Some(Coach::Step(l)) => l.at.clone(),
        _ => Vec::new(),
    };
    want.extend(pointing.focus.filter(|f| !want.contains(f)));
    let Some(game) = seen.game() else { return };
    if *lit == want && !seen.is_changed() {
        return;
    }
    *lit = want.clone();
    for e in &beacons {
        commands.entity(e).despawn();
    }
    let material = gold
        .get_or_insert_with(|| {
            materials.add(StandardMaterial {
                base_color: Color::srgb(1.0, 0.78, 0.15),
                emissive: LinearRgba::rgb(1.6, 1.1, 0.1),
                unlit: true,
                ..default()
            })
        })
        .clone();
    for s in want {
        let Some((at, radius)) = game.space_on_table(s) else { continue };
        commands.spawn((
            Beacon,
            Mesh3d(meshes.add(Torus::new(radius * 0.86, radius))),
            MeshMaterial3d(material.clone()),
            Transform::from_translation(at + Vec3::Y * 0.12),
            Pickable::IGNORE,
            Name::new("Lit place"),
        ));
    }
}

/// What a lesson test needs: the learner follows the coach to the end of the lesson while the
/// other seats play as `other` chooses from their legal list; `mine` answers a step that
/// suggests no order (a move made on the table). Returns the rule sections taught, in order.
#[cfg(test)]
pub fn walk_lesson<G: TableGame>(
    t: &mut Table<G>,
    me: SeatId,
    mut other: impl FnMut(Vec<G::Action>) -> G::Action,
    mut mine: impl FnMut(&Table<G>, &Lesson<G::Action>) -> G::Action,
) -> Vec<String> {
    use crate::engine::table::Act;
    let mut sections = Vec::new();
    for _ in 0..2_000 {
        match coach_of(t, me) {
            Coach::Done => return sections,
            Coach::Waiting(_) => {
                let seat = t.game.active_seat().expect("someone decides while the lesson waits");
                assert_ne!(seat, me, "the lesson waits only on another seat");
                let mut legal = Vec::new();
                t.game.legal_actions(t.mode, &mut legal);
                let a = other(legal);
                t.submit(seat, Act::Game(a)).expect("the other seat's choice is legal");
            }
            Coach::Step(l) => {
                sections.push(l.section.clone());
                let a = l.pick.clone().unwrap_or_else(|| mine(t, &l));
                t.submit(me, Act::Game(a)).expect("the lesson's order is legal");
            }
        }
    }
    panic!("the lesson did not end in 2,000 steps: {sections:?}");
}
