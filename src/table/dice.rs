//! Dice that tumble and land on the value the rules drew. The rules roll from the table's seeded
//! RNG and log the values; here the throw is simulated with avian3d in a throwaway physics world,
//! the face that lands up is read off, and the die's visible mesh is turned on its body so that
//! the drawn value is the one that ends on top. The recording is then played back: no snap at
//! the end, and every viewer sees the same throw. Every roll the rules make is thrown (a
//! combat's die as much as a free roll), one after another, the computer's and the other seat's
//! too; meanwhile `Settling` holds the table's result back until the dice rest. View → Dice →
//! quick shows results at once.

use crate::engine::plugin::{ActOutRolls, Logged, Settling, TableSet};
use crate::engine::rng::TableRng;
use crate::engine::rules::Game;
use crate::engine::table::Entry;
use avian3d::prelude::*;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::window::RequestRedraw;
use std::f32::consts::TAU;
use std::marker::PhantomData;
use std::time::Duration;

/// Edge of a die, in table units.
pub const DIE: f32 = 0.5;
/// The centre of the dice tray on the table.
pub const TRAY: Vec3 = Vec3::new(16.6, 0.0, 0.8);
pub const TRAY_HALF: f32 = 2.2;
pub const STEPS_PER_SECOND: f32 = 60.0;

/// The body-local outward normal of the face showing `value` (opposite faces add up to 7).
pub fn face_normal(value: u8) -> Vec3 {
    match value {
        1 => Vec3::Y,
        6 => Vec3::NEG_Y,
        2 => Vec3::X,
        5 => Vec3::NEG_X,
        3 => Vec3::Z,
        _ => Vec3::NEG_Z,
    }
}

/// The value on top for a die body at this rotation: the face whose normal points most upward.
pub fn up_face(rotation: Quat) -> u8 {
    (1..=6).max_by(|&a, &b| (rotation * face_normal(a)).y.total_cmp(&(rotation * face_normal(b)).y)).expect("six faces")
}

/// The rotation of the visible mesh on its body that brings face `wanted` to where face
/// `landed` is. Always a symmetry of the cube, so mesh and collider still match.
pub fn correction(wanted: u8, landed: u8) -> Quat {
    let (from, to) = (face_normal(wanted), face_normal(landed));
    if from.dot(to) < -0.5 {
        // Opposite faces: half a turn about a cube axis perpendicular to both.
        let axis = if from.x.abs() > 0.5 { Vec3::Y } else { Vec3::X };
        Quat::from_axis_angle(axis, std::f32::consts::PI)
    } else {
        Quat::from_rotation_arc(from, to)
    }
}

/// The four walls of the tray as (x, z, width, depth) around its centre, `thickness` thick.
fn tray_walls(thickness: f32) -> [(f32, f32, f32, f32); 4] {
    let long = 2.0 * TRAY_HALF;
    [
        (TRAY_HALF, 0.0, thickness, long),
        (-TRAY_HALF, 0.0, thickness, long),
        (0.0, TRAY_HALF, long, thickness),
        (0.0, -TRAY_HALF, long, thickness),
    ]
}

/// The recorded path of one die: position and rotation of its body at each physics step.
pub type Track = Vec<(Vec3, Quat)>;

/// Throws `count` dice in a fresh headless physics world from parameters drawn from `rng`, and
/// records every step until all have come to rest (or ten seconds have passed).
pub fn simulate_throw(count: usize, rng: &mut TableRng) -> Vec<Track> {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        PhysicsPlugins::default(),
        bevy::asset::AssetPlugin::default(),
        bevy::mesh::MeshPlugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(1.0 / STEPS_PER_SECOND)))
    .insert_resource(Gravity(Vec3::NEG_Y * 9.81 * 3.0))
    // One physics step per recorded step: with the fixed clock's default 64 Hz against 60 updates
    // a second, every fifteenth step held two, and the die jumped there.
    .insert_resource(Time::<Fixed>::from_hz(STEPS_PER_SECOND as f64));
    app.finish();
    // One thread: the throw runs beside the window's own task pools, never waiting on them,
    // and steps in the same order every time.
    for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
        schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    }
    let world = app.world_mut();
    world.spawn((
        RigidBody::Static,
        Collider::cuboid(20.0, 1.0, 20.0),
        Transform::from_translation(TRAY - Vec3::Y * 0.5),
    ));
    for (x, z, w, d) in tray_walls(0.4) {
        world.spawn((
            RigidBody::Static,
            Collider::cuboid(w, 3.0, d),
            Transform::from_translation(TRAY + Vec3::new(x, 1.5, z)),
        ));
    }
    let mut dice = Vec::new();
    for i in 0..count {
        let spread = (i as f32 - (count as f32 - 1.0) / 2.0) * 0.7;
        let pos = TRAY + Vec3::new(-1.4 + rng.unit() * 0.4, 1.2 + rng.unit() * 0.8, spread.clamp(-1.6, 1.6));
        let rot = Quat::from_euler(EulerRot::XYZ, rng.unit() * TAU, rng.unit() * TAU, rng.unit() * TAU);
        let vel = Vec3::new(5.0 + rng.unit() * 3.0, 1.0 + rng.unit() * 2.0, (rng.unit() - 0.5) * 3.0);
        let spin = Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5) * 24.0;
        let e = world
            .spawn((
                RigidBody::Dynamic,
                Collider::cuboid(DIE, DIE, DIE),
                Transform::from_translation(pos).with_rotation(rot),
                LinearVelocity(vel),
                AngularVelocity(spin),
                Friction::new(0.6),
                Restitution::new(0.3),
            ))
            .id();
        dice.push(e);
    }
    let mut tracks: Vec<Track> = vec![Vec::new(); count];
    app.update(); // the first update only initialises time
    let mut still_for = 0;
    for _ in 0..(12.0 * STEPS_PER_SECOND) as usize {
        app.update();
        let world = app.world();
        let mut resting = true;
        for (i, &e) in dice.iter().enumerate() {
            let tf = world.get::<Transform>(e).expect("die body");
            tracks[i].push((tf.translation, tf.rotation));
            let asleep = world.get::<Sleeping>(e).is_some();
            let still = world.get::<LinearVelocity>(e).is_some_and(|v| v.0.length() < 0.03)
                && world.get::<AngularVelocity>(e).is_some_and(|v| v.0.length() < 0.03);
            resting &= asleep || still;
        }
        still_for = if resting { still_for + 1 } else { 0 };
        if still_for >= 20 {
            // A die cocked against a wall or resting on another is nudged until it lies flat on the
            // felt, as a player would; the nudge is part of the recorded throw.
            let cocked: Vec<Entity> = dice
                .iter()
                .copied()
                .filter(|&e| {
                    let tf = app.world().get::<Transform>(e).expect("die body");
                    let flat = (tf.rotation * face_normal(up_face(tf.rotation))).y > 0.98;
                    let on_felt = tf.translation.y < TRAY.y + DIE / 2.0 + 0.05;
                    !(flat && on_felt)
                })
                .collect();
            if cocked.is_empty() {
                break;
            }
            for e in cocked {
                // Lift it and toss it back towards the middle of the tray, spinning.
                let pos = app.world().get::<Transform>(e).expect("die body").translation;
                let inward = (TRAY - pos).with_y(0.0).normalize_or_zero();
                let spin = Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5) * 10.0;
                let lateral = Vec3::new(rng.unit() - 0.5, 0.0, rng.unit() - 0.5);
                let mut entity = app.world_mut().entity_mut(e);
                entity.remove::<Sleeping>();
                entity.insert((AngularVelocity(spin), LinearVelocity(Vec3::Y * 4.0 + inward * 2.0 + lateral)));
            }
            still_for = 0;
        }
    }
    tracks
}

/// The steps of a track at which the die struck something, and how hard (0..1): wherever its
/// velocity changed by more than gravity alone changes it in one step, a contact of the physics
/// pushed it.
pub fn knocks(track: &Track) -> Vec<(usize, f32)> {
    let dt = 1.0 / STEPS_PER_SECOND;
    let gravity = Vec3::NEG_Y * 9.81 * 3.0 * dt;
    let v: Vec<Vec3> = track.windows(2).map(|w| (w[1].0 - w[0].0) / dt).collect();
    let mut out: Vec<(usize, f32)> = Vec::new();
    for (i, w) in v.windows(2).enumerate() {
        let jolt = (w[1] - w[0] - gravity).length();
        // A jolt under 1.5 units/s is the die sliding or settling, not a strike.
        if jolt > 1.5 && out.last().is_none_or(|&(s, _)| i + 2 > s + 4) {
            out.push((i + 2, ((jolt - 1.5) / 12.0).min(1.0)));
        }
    }
    out
}

/// A die being played back on the table, with the steps at which it is heard.
#[derive(Component)]
pub struct RollingDie {
    track: Track,
    started: f32,
    knocks: Vec<(usize, f32)>,
    heard: usize,
}

/// The visible die mesh, a child of the body, turned by the correction.
#[derive(Component)]
pub struct DieFace;

/// A throw being simulated on its own thread, so the window never waits for the physics.
#[derive(Resource)]
struct PendingThrow {
    values: Vec<u8>,
    result: std::sync::Mutex<std::sync::mpsc::Receiver<Vec<Track>>>,
}

/// The dice tray and its dice for game `G`: a roll the rules log is thrown on the table.
pub struct DicePlugin<G>(PhantomData<G>);

impl<G> Default for DicePlugin<G> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<G: Game> Plugin for DicePlugin<G> {
    fn build(&self, app: &mut App) {
        app.init_resource::<DiceRolling>()
            .init_resource::<RollQueue>()
            .insert_resource(ActOutRolls(true))
            .add_systems(Update, act_out_rolls.before(TableSet::Apply))
            .add_systems(Startup, spawn_tray)
            // Queued before the mirror syncs, so a roll's result is held from its first frame.
            .add_systems(Update, queue_rolls::<G>.after(TableSet::See).before(TableSet::Sync))
            .add_systems(Update, (start_roll, spawn_dice, play_back, tray_view).chain().in_set(TableSet::Present));
    }
}

/// The camera of the tray's inset: a small view of the tray in the window's lower left corner
/// while a roll is thrown, so the dice are seen whatever the table's camera frames (the hex and
/// square maps leave the tray beyond the edge of their view).
#[derive(Component)]
pub struct TrayView;

fn tray_view(
    mut commands: Commands,
    mut spawned: Local<bool>,
    settling: Res<Settling>,
    rolling: Res<DiceRolling>,
    mut cams: Query<&mut Camera, With<TrayView>>,
    windows: Query<&Window>,
    director: Option<Res<super::director::Director>>,
) {
    if !*spawned {
        // Spawned after the first frame, so that the table's camera keeps the panels (egui
        // attaches them to the first camera it meets).
        *spawned = true;
        commands.spawn((
            Camera3d::default(),
            super::camera::antialiasing(),
            Camera { order: 1, is_active: false, ..default() },
            Transform::from_translation(TRAY + Vec3::new(0.0, 6.5, 2.6)).looking_at(TRAY, Vec3::Y),
            TrayView,
            Name::new("Dice tray inset"),
        ));
        return;
    }
    let Ok(mut cam) = cams.single_mut() else { return };
    // The broadcast window's director frames the tray itself.
    let want = (settling.active || rolling.0) && director.is_none();
    let Some(window) = windows.iter().next() else { return };
    let (w, h) = (window.physical_width(), window.physical_height());
    let size = UVec2::new((w / 4).max(64), (h * 3 / 10).max(64));
    let viewport = Some(bevy::camera::Viewport {
        physical_position: UVec2::new(12, h.saturating_sub(size.y + 12)),
        physical_size: size,
        ..default()
    });
    if cam.is_active != want {
        cam.is_active = want;
    }
    let differs = cam.viewport.as_ref().map(|v| (v.physical_position, v.physical_size))
        != viewport.as_ref().map(|v| (v.physical_position, v.physical_size));
    if want && differs {
        cam.viewport = viewport;
    }
}

/// View → Dice: thrown (the engine holds each rolling action's result until its dice rest) or
/// quick.
fn act_out_rolls(prefs: Option<Res<super::session::Preferences>>, mut act_out: ResMut<ActOutRolls>) {
    let want = prefs.is_none_or(|s| !s.quick_dice);
    if act_out.0 != want {
        act_out.0 = want;
    }
}

/// Rolls waiting to be thrown, oldest first: their dice and the salt of their throw.
#[derive(Resource, Default)]
pub struct RollQueue(pub std::collections::VecDeque<(Vec<u8>, u64)>);

fn spawn_tray(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let felt = materials.add(Color::srgb(0.12, 0.32, 0.18));
    let wood = materials.add(Color::srgb(0.45, 0.30, 0.18));
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(2.0 * TRAY_HALF, 0.05, 2.0 * TRAY_HALF))),
        MeshMaterial3d(felt),
        Transform::from_translation(TRAY - Vec3::Y * 0.02),
        Name::new("Dice tray"),
    ));
    for (x, z, w, d) in tray_walls(0.2) {
        commands.spawn((
            Mesh3d(meshes.add(Cuboid::new(w, 0.35, d))),
            MeshMaterial3d(wood.clone()),
            Transform::from_translation(TRAY + Vec3::new(x, 0.15, z)),
        ));
    }
}

/// Pip positions on a face, in the face's own 2D coordinates.
fn pips(value: u8) -> Vec<Vec2> {
    let a = 0.26;
    let c = Vec2::ZERO;
    let (tl, tr, bl, br) = (Vec2::new(-a, a), Vec2::new(a, a), Vec2::new(-a, -a), Vec2::new(a, -a));
    let (ml, mr) = (Vec2::new(-a, 0.0), Vec2::new(a, 0.0));
    match value {
        1 => vec![c],
        2 => vec![tl, br],
        3 => vec![tl, c, br],
        4 => vec![tl, tr, bl, br],
        5 => vec![tl, tr, c, bl, br],
        _ => vec![tl, tr, ml, mr, bl, br],
    }
}

/// Queues every roll the rules log (and every free roll), to be thrown one after another; the
/// table's result is held (`Settling`, set by the engine for a table of this window's, here for
/// a host's) until the last of them rests. Quick dice throw nothing.
fn queue_rolls<G: Game>(
    mut logged: MessageReader<Logged<G>>,
    seen: Res<crate::engine::seen::Seen<G>>,
    prefs: Option<Res<super::session::Preferences>>,
    mut queue: ResMut<RollQueue>,
    mut settling: ResMut<Settling>,
) {
    let entries: Vec<&Entry<G::Event>> = logged.read().map(|l| &l.0).collect();
    if prefs.is_some_and(|s| s.quick_dice) {
        return;
    }
    for (k, e) in entries.iter().enumerate() {
        let Some(roll) = e.roll() else { continue };
        // Throw parameters come from the table's salt and the roll's place in the log: the same
        // throw for every viewer and every replay, without drawing on the table's RNG.
        let salt = seen.salt ^ ((seen.moves + k) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        queue.0.push_back((roll.dice.clone(), salt));
        settling.active = true;
    }
}

/// Starts simulating the next queued throw when the tray is free.
fn start_roll(
    mut queue: ResMut<RollQueue>,
    pending: Option<Res<PendingThrow>>,
    rolling: Res<DiceRolling>,
    mut commands: Commands,
) {
    if pending.is_some() || rolling.0 {
        return;
    }
    let Some((values, salt)) = queue.0.pop_front() else { return };
    let mut rng = TableRng::from_seed(salt);
    let count = values.len();
    let (send, result) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(simulate_throw(count, &mut rng));
    });
    commands.insert_resource(PendingThrow { values, result: std::sync::Mutex::new(result) });
}

/// Spawns the dice when their throw is ready: each body follows its recording, and its visible
/// mesh is turned so that the drawn value ends on top.
#[allow(clippy::too_many_arguments)]
fn spawn_dice(
    pending: Option<Res<PendingThrow>>,
    old: Query<Entity, With<RollingDie>>,
    time: Res<Time>,
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(pending) = pending else { return };
    let received =
        pending.result.lock().map_err(|_| std::sync::mpsc::TryRecvError::Disconnected).and_then(|r| r.try_recv());
    let tracks = match received {
        Ok(tracks) => tracks,
        Err(std::sync::mpsc::TryRecvError::Empty) => {
            redraw.write(RequestRedraw); // keep polling while the physics runs
            return;
        }
        Err(std::sync::mpsc::TryRecvError::Disconnected) => {
            error!("the dice throw could not be simulated");
            commands.remove_resource::<PendingThrow>();
            return;
        }
    };
    commands.remove_resource::<PendingThrow>();
    for e in &old {
        commands.entity(e).despawn();
    }
    let values = &pending.values;
    let body = meshes.add(Cuboid::new(DIE, DIE, DIE));
    let pip = meshes.add(Cylinder::new(DIE * 0.09, 0.01));
    let ivory = materials.add(StandardMaterial {
        base_color: Color::srgb(0.95, 0.93, 0.86),
        perceptual_roughness: 0.4,
        ..default()
    });
    let black = materials.add(Color::srgb(0.05, 0.05, 0.05));
    for (track, &value) in tracks.into_iter().zip(values.iter()) {
        let landed = up_face(track.last().expect("recorded").1);
        let first = track[0];
        commands
            .spawn((
                Transform::from_translation(first.0).with_rotation(first.1),
                Visibility::default(),
                RollingDie { knocks: knocks(&track), track, started: time.elapsed_secs(), heard: 0 },
                Name::new(format!("Die showing {value}")),
            ))
            .with_children(|die| {
                die.spawn((
                    Mesh3d(body.clone()),
                    MeshMaterial3d(ivory.clone()),
                    Transform::from_rotation(correction(value, landed)),
                    DieFace,
                ))
                .with_children(|face| {
                    for v in 1..=6u8 {
                        let n = face_normal(v);
                        let (u, w) = (n.any_orthonormal_vector(), n.cross(n.any_orthonormal_vector()));
                        for p in pips(v) {
                            let pos = n * (DIE / 2.0 + 0.003) + (u * p.x + w * p.y) * DIE;
                            face.spawn((
                                Mesh3d(pip.clone()),
                                MeshMaterial3d(black.clone()),
                                Transform::from_translation(pos).with_rotation(Quat::from_rotation_arc(Vec3::Y, n)),
                            ));
                        }
                    }
                });
            });
    }
}

#[allow(clippy::too_many_arguments)]
fn play_back(
    time: Res<Time>,
    mut dice: Query<(&mut RollingDie, &mut Transform)>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut cues: MessageWriter<super::sound::Cue>,
    mut rolling: ResMut<DiceRolling>,
    queue: Res<RollQueue>,
    pending: Option<Res<PendingThrow>>,
    mut settling: ResMut<Settling>,
) {
    let mut moving = false;
    for (mut die, mut tf) in &mut dice {
        let step = ((time.elapsed_secs() - die.started) * STEPS_PER_SECOND) as usize;
        while let Some(&(at, loud)) = die.knocks.get(die.heard)
            && at <= step
        {
            cues.write(super::sound::Cue::Knock(loud));
            die.heard += 1;
        }
        let last = die.track.len() - 1;
        let (pos, rot) = die.track[step.min(last)];
        if tf.translation != pos || tf.rotation != rot {
            tf.translation = pos;
            tf.rotation = rot;
        }
        moving |= step < last;
    }
    if moving {
        redraw.write(RequestRedraw);
    }
    if rolling.0 != moving {
        rolling.0 = moving;
    }
    // The last die of the last queued roll is at rest: the result may show.
    if settling.active && !moving && queue.0.is_empty() && pending.is_none() {
        *settling = Settling::default();
        redraw.write(RequestRedraw);
    }
}

/// Whether dice are tumbling on the table now (the broadcast's director holds still meanwhile).
#[derive(Resource, Default)]
pub struct DiceRolling(pub bool);
