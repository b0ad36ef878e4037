//! Where a press takes a piece: a picking backend of the table's own, beside Bevy's mesh picking.
//! A piece is taken by a press anywhere on it or on its label, however small it is drawn (a
//! troop marker at the default zoom is about 10 px: it is gripped within `MIN_GRIP_PX` of its
//! centre), and by the press where it was made, not where the pointer has got to by the time a
//! slow frame reads it: Bevy's picking judges a press by what lies under the pointer at the end
//! of the frame, so on a software renderer (a frame a second) a press followed by the start of
//! the drag in the same frame fell on the table beyond the piece.

use super::camera::OrbitCamera;
use super::glide::Dragging;
use bevy::picking::PickingSystems;
use bevy::picking::backend::{HitData, PointerHits};
use bevy::picking::pointer::{PointerAction, PointerButton, PointerId, PointerInput, PointerLocation};
use bevy::prelude::*;

/// A piece the hand may take: the radius of its footprint on the table, in world units.
#[derive(Component, Clone, Copy, Debug)]
pub struct Grip(pub f32);

/// The smallest radius, in logical pixels, within which a piece is gripped.
pub const MIN_GRIP_PX: f32 = 12.0;

/// The pieces' own labels as drawn last frame, each with its piece (logical pixels).
#[derive(Resource, Default, Debug)]
pub struct LabelGrips(pub Vec<(Entity, Rect)>);

/// Above the meshes of the table's camera (order 0), below egui's panels (0.6).
const GRIP_ORDER: f32 = 0.5;

pub struct GripPlugin;

impl Plugin for GripPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LabelGrips>()
            .add_systems(PreUpdate, grip_backend.in_set(PickingSystems::Backend))
            .add_systems(Update, report_lifts)
            .add_observer(report_takes);
    }
}

/// The piece under a screen point, by the rules of this module: a label containing it first;
/// else, of the pieces drawn under it, the upper one (as a ray would find the top of a pile);
/// else the piece whose centre is nearest within `MIN_GRIP_PX`. `pieces` are (entity, centre on
/// screen, radius on screen, height on the table).
pub fn piece_at(at: Vec2, pieces: &[(Entity, Vec2, f32, f32)], labels: &[(Entity, Rect)]) -> Option<Entity> {
    if let Some((e, _)) = labels.iter().rev().find(|(e, r)| r.contains(at) && pieces.iter().any(|p| p.0 == *e)) {
        return Some(*e);
    }
    let under = pieces.iter().filter(|p| p.1.distance(at) <= p.2).max_by(|a, b| a.3.total_cmp(&b.3));
    if let Some(p) = under {
        return Some(p.0);
    }
    pieces
        .iter()
        .map(|p| (p.0, p.1.distance(at)))
        .filter(|(_, d)| *d <= MIN_GRIP_PX)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(e, _)| e)
}

/// Where the pickup script wants the pieces written (`GROGNARD_GRIPS`), read once.
struct GripsFile(Option<std::ffi::OsString>);

impl Default for GripsFile {
    fn default() -> Self {
        Self(std::env::var_os("GROGNARD_GRIPS"))
    }
}

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn grip_backend(
    pointers: Query<(&PointerId, &PointerLocation)>,
    mut inputs: MessageReader<PointerInput>,
    cams: Query<(Entity, &Camera, &GlobalTransform), With<OrbitCamera>>,
    grips: Query<(Entity, &Grip, &GlobalTransform, Option<&Pickable>, &InheritedVisibility)>,
    labels: Res<LabelGrips>,
    dragging: Option<Res<Dragging>>,
    mut out: MessageWriter<PointerHits>,
    grips_file: Local<GripsFile>,
) {
    // Where this frame's presses were made, pointer by pointer.
    let mut pressed_at: Vec<(PointerId, Vec2)> = Vec::new();
    for input in inputs.read() {
        if matches!(input.action, PointerAction::Press(PointerButton::Primary)) {
            pressed_at.retain(|(p, _)| *p != input.pointer_id);
            pressed_at.push((input.pointer_id, input.location.position));
        }
    }
    // A piece in hand: the table under it is what the pointer is over.
    if dragging.is_some_and(|d| d.entity.is_some()) {
        return;
    }
    let Ok((cam_entity, cam, cam_tf)) = cams.single() else { return };
    let right = cam_tf.right().as_vec3();
    let pieces: Vec<(Entity, Vec2, f32, f32)> = grips
        .iter()
        .filter(|(_, _, tf, pickable, visible)| {
            visible.get() && tf.translation().y > -1.0 && pickable.is_none_or(|p| p.is_hoverable)
        })
        .filter_map(|(e, grip, tf, _, _)| {
            let c = tf.translation();
            let centre = cam.world_to_viewport(cam_tf, c).ok()?;
            let edge = cam.world_to_viewport(cam_tf, c + right * grip.0).ok()?;
            Some((e, centre, centre.distance(edge), c.y))
        })
        .collect();
    // For the pickup script (`scripts/pickup-test.py`): where each piece is drawn, and its size.
    if let Some(path) = &grips_file.0 {
        let lines: String = pieces
            .iter()
            .filter_map(|(e, c, r, y)| {
                Some(format!("{} {:.0} {:.0} {:.1} {} {:.3}\n", e.to_bits(), c.x, c.y, r, grips.get(*e).ok()?.1.0, y))
            })
            .chain(
                labels
                    .0
                    .iter()
                    .map(|(e, r)| format!("label {} {:.0} {:.0}\n", e.to_bits(), r.center().x, r.center().y)),
            )
            .collect();
        let _ = std::fs::write(path, lines);
    }
    for (pointer, location) in &pointers {
        let Some(loc) = location.location() else { continue };
        let at = pressed_at.iter().find(|(p, _)| p == pointer).map_or(loc.position, |(_, at)| *at);
        if cam.logical_viewport_rect().is_some_and(|r| !r.contains(at)) {
            continue;
        }
        let Some(e) = piece_at(at, &pieces, &labels.0) else { continue };
        let Ok((_, _, tf, _, _)) = grips.get(e) else { continue };
        let depth = cam_tf.translation().distance(tf.translation());
        let hit = HitData::new(cam_entity, depth, Some(tf.translation()), None);
        out.write(PointerHits::new(*pointer, vec![(e, hit)], cam.order as f32 + GRIP_ORDER));
    }
}

/// The log says when a press reaches a piece and starts to drag it ("took ENTITY"): the game then
/// lifts it, or refuses with the rule that keeps it where it is (another side's counter).
fn report_takes(ev: On<Pointer<DragStart>>, grips: Query<(), With<Grip>>) {
    if grips.contains(ev.entity) {
        info!("took {}", ev.entity.to_bits());
    }
}

/// The log says when a piece is taken in hand ("lifted ENTITY"), for the pickup script.
fn report_lifts(dragging: Option<Res<Dragging>>, mut last: Local<Option<Entity>>) {
    let now = dragging.and_then(|d| d.entity);
    if now != *last {
        if let Some(e) = now {
            info!("lifted {}", e.to_bits());
        }
        *last = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_press_takes_the_nearest_piece_within_its_grip_its_label_first() {
        let (a, b, c) =
            (Entity::from_bits(1 << 32 | 1), Entity::from_bits(1 << 32 | 2), Entity::from_bits(1 << 32 | 3));
        // Two markers 10 px wide, 16 px apart; a label beside the first.
        let pieces = [(a, Vec2::new(100.0, 100.0), 5.0, 0.1), (b, Vec2::new(116.0, 100.0), 5.0, 0.1)];
        let label = Rect::new(80.0, 110.0, 120.0, 122.0);
        let labels = [(a, label)];
        // A press 9 px off a 10 px marker still takes it (within MIN_GRIP_PX).
        assert_eq!(piece_at(Vec2::new(100.0, 91.0), &pieces, &labels), Some(a));
        // Between the two, the nearer wins.
        assert_eq!(piece_at(Vec2::new(110.0, 100.0), &pieces, &labels), Some(b));
        // On the label, its piece, even where another piece is nearer.
        assert_eq!(piece_at(Vec2::new(115.0, 112.0), &pieces, &labels), Some(a));
        // Far from both: nothing (the table keeps its own picking).
        assert_eq!(piece_at(Vec2::new(200.0, 200.0), &pieces, &labels), None);
        // Two at one place: the upper one.
        let stack = [(a, Vec2::new(50.0, 50.0), 20.0, 0.1), (c, Vec2::new(50.0, 50.0), 20.0, 0.3)];
        assert_eq!(piece_at(Vec2::new(52.0, 50.0), &stack, &[]), Some(c));
        // A label of a piece not on the table any more grips nothing.
        assert_eq!(piece_at(Vec2::new(100.0, 115.0), &pieces[1..], &labels), None);
    }
}
