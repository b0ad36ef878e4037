//! Pieces glide to where the rules put them: a game's view sets each piece's `Target`, and one
//! system moves it there smoothly, keeping frames coming only while something moves. The piece
//! in the player's hand (`Dragging`) stays where the hand holds it.

use crate::engine::plugin::TableSet;
use bevy::prelude::*;
use bevy::window::RequestRedraw;

/// Where a piece should be; the glide system moves it there.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Target(pub Transform);

/// The piece being dragged, and where it came from.
#[derive(Resource, Default)]
pub struct Dragging {
    pub entity: Option<Entity>,
    pub origin: Vec3,
}

pub struct GlidePlugin;

impl Plugin for GlidePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Dragging>().add_systems(Update, glide.in_set(TableSet::Present).after(PlaceSet));
    }
}

/// The systems that set the pieces' targets; gliding runs after them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlaceSet;

/// Moves pieces smoothly to their targets and keeps frames coming while anything moves.
pub fn glide(
    time: Res<Time>,
    dragging: Res<Dragging>,
    mut q: Query<(Entity, &Target, &mut Transform)>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut cues: MessageWriter<super::sound::Cue>,
) {
    let k = 1.0 - (-14.0 * time.delta_secs().min(0.1)).exp();
    let mut moving = false;
    let mut landed = false;
    for (e, target, mut tf) in &mut q {
        if dragging.entity == Some(e) {
            continue; // the hand holds it
        }
        let d = target.0.translation - tf.translation;
        let snap = d.length() < 0.002 && tf.rotation.angle_between(target.0.rotation) < 0.002;
        if snap {
            if *tf != target.0 {
                *tf = target.0;
                landed = true;
            }
            continue;
        }
        // Pieces leaving or joining the table jump; pieces on it glide.
        if tf.translation.y < -4.0 || target.0.translation.y < -4.0 {
            *tf = target.0;
            continue;
        }
        moving = true;
        tf.translation += d * k;
        tf.rotation = tf.rotation.slerp(target.0.rotation, k);
    }
    if moving {
        redraw.write(RequestRedraw);
    }
    // One tap however many pieces came to rest together.
    if landed {
        cues.write(super::sound::Cue::SetDown);
    }
}

/// The piece in the player's hand follows the pointer, riding well above the table so that its
/// shadow under it shows where it would land (an observer of `Pointer<Drag>` on a game's pieces).
pub fn carry(
    ev: On<Pointer<Drag>>,
    dragging: Res<Dragging>,
    cams: Query<(&Camera, &GlobalTransform), Without<crate::table::dice::TrayView>>,
    mut tfs: Query<&mut Transform>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if dragging.entity != Some(ev.entity) {
        return;
    }
    let Ok((cam, cam_tf)) = cams.single() else { return };
    let Ok(ray) = cam.viewport_to_world(cam_tf, ev.pointer_location.position) else { return };
    let Some(d) = ray.intersect_plane(Vec3::Y * 0.9, InfinitePlane3d::new(Vec3::Y)) else { return };
    if let Ok(mut tf) = tfs.get_mut(ev.entity) {
        tf.translation = ray.get_point(d);
        redraw.write(RequestRedraw);
    }
}

/// Where on the table (its plane, y = 0) the pointer at `screen` points, if anywhere.
pub fn table_point(
    cams: &Query<(&Camera, &GlobalTransform), Without<crate::table::dice::TrayView>>,
    screen: Vec2,
) -> Option<Vec3> {
    let (cam, cam_tf) = cams.single().ok()?;
    let ray = cam.viewport_to_world(cam_tf, screen).ok()?;
    ray.intersect_plane(Vec3::ZERO, InfinitePlane3d::new(Vec3::Y)).map(|d| ray.get_point(d))
}

/// The piece `entity` is let go, if it was the one in hand: the hand is empty and the piece can be
/// picked again. Whether it was in hand.
pub fn let_go(dragging: &mut Dragging, commands: &mut Commands, entity: Entity) -> bool {
    if dragging.entity != Some(entity) {
        return false;
    }
    dragging.entity = None;
    commands.entity(entity).remove::<Pickable>();
    true
}
