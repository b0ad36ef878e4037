//! The home view frames the board in the part of the window no panel covers, and follows when a
//! panel is opened, closed or resized, as long as the player has not moved the camera away from
//! it (then Space brings the framed view back).

use super::camera::{CameraSet, HomeView, OrbitCamera};
use bevy::prelude::*;
use bevy_egui::egui;

/// The board's extent on the table (x and z of its corners): what the home view frames. A game
/// inserts it when it lays out its board; without it the game's own home view stands.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct BoardExtent(pub Rect);

pub struct FramingPlugin;

impl Plugin for FramingPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, follow_free_space.before(CameraSet));
    }
}

/// A panel's rectangle changes by less than this many pixels as its text grows by a line: not
/// worth moving the table for.
const SETTLE_PX: f32 = 24.0;

/// The largest rectangle of `screen` that overlaps none of `panels`, judged by how large a board
/// of `aspect` (width over height) it holds. Its edges are the screen's or a panel's edges, so
/// trying every combination of them finds it (a window holds a dozen panels at most).
pub fn free_rect(screen: Rect, panels: &[Rect], aspect: f32) -> Rect {
    let panels: Vec<Rect> =
        panels.iter().map(|p| p.intersect(screen)).filter(|p| p.width() > 1.0 && p.height() > 1.0).collect();
    let mut lefts = vec![screen.min.x];
    let mut rights = vec![screen.max.x];
    let mut tops = vec![screen.min.y];
    let mut bottoms = vec![screen.max.y];
    for p in &panels {
        lefts.push(p.max.x);
        rights.push(p.min.x);
        tops.push(p.max.y);
        bottoms.push(p.min.y);
    }
    let holds = |r: &Rect| (r.width() / aspect).min(r.height());
    let mut best = screen;
    let mut best_holds = f32::NEG_INFINITY;
    for &l in &lefts {
        for &r in rights.iter().filter(|&&r| r > l) {
            for &t in &tops {
                for &b in bottoms.iter().filter(|&&b| b > t) {
                    let c = Rect::new(l, t, r, b);
                    // Touching a panel's edge is not overlapping it.
                    let clear = panels.iter().all(|p| {
                        let i = p.intersect(c);
                        i.width() <= 0.5 || i.height() <= 0.5
                    });
                    // Between two that hold as much, the larger area: more room around the board.
                    let (h, area) = (holds(&c), c.width() * c.height());
                    if clear && (h > best_holds + 0.5 || (h > best_holds - 0.5 && area > best.width() * best.height()))
                    {
                        (best, best_holds) = (c, h.max(best_holds));
                    }
                }
            }
        }
    }
    best
}

/// The view at `start`'s angles that shows all of `board` inside `free` (window pixels) with a
/// small margin, as large as it fits, centred in it.
pub fn frame(camera: &Camera, start: OrbitCamera, board: Rect, free: Rect) -> Option<OrbitCamera> {
    let project = |gt: &GlobalTransform, p: Vec3| camera.world_to_viewport(gt, p).ok();
    let on_table = |gt: &GlobalTransform, p: Vec2| {
        let ray = camera.viewport_to_world(gt, p).ok()?;
        ray.intersect_plane(Vec3::ZERO, InfinitePlane3d::new(Vec3::Y)).map(|d| ray.get_point(d))
    };
    frame_with(project, on_table, start, board, free)
}

/// `frame` with the camera's projection given: `project` takes a point of the table to the
/// window, `on_table` a point of the window to the table, each for a camera placed at the
/// transform given.
pub fn frame_with(
    project: impl Fn(&GlobalTransform, Vec3) -> Option<Vec2>,
    on_table: impl Fn(&GlobalTransform, Vec2) -> Option<Vec3>,
    start: OrbitCamera,
    board: Rect,
    free: Rect,
) -> Option<OrbitCamera> {
    let mut view = start;
    view.focus = Vec3::new(board.center().x, 0.0, board.center().y);
    let corners = [board.min, Vec2::new(board.max.x, board.min.y), board.max, Vec2::new(board.min.x, board.max.y)];
    let target = Rect::from_center_size(free.center(), free.size() * 0.96);
    // Distance and focus depend on each other through the perspective: a few rounds of scaling
    // the distance by how much too large the board shows, then sliding the focus so that the
    // board's middle on screen lies in the free space's middle, settle within a pixel.
    for _ in 0..24 {
        let gt = GlobalTransform::from(view.transform());
        let mut shown = Rect::EMPTY;
        for c in corners {
            shown = shown.union_point(project(&gt, Vec3::new(c.x, 0.0, c.y))?);
        }
        let scale = (shown.width() / target.width()).max(shown.height() / target.height());
        let (from, to) = (on_table(&gt, shown.center())?, on_table(&gt, target.center())?);
        view.focus += from - to;
        view.distance = (view.distance * scale).clamp(4.0, 80.0);
        if (scale - 1.0).abs() < 0.002 && from.distance(to) < 0.01 {
            break;
        }
    }
    Some(view)
}

/// The panels' rectangles in window pixels: egui's windows and areas of the middle order (the
/// tooltips, the background and the start screen do not cover the table for good).
fn panel_rects(ctx: &egui::Context) -> Vec<Rect> {
    let zoom = ctx.zoom_factor();
    ctx.memory(|m| {
        m.areas()
            .visible_layer_ids()
            .into_iter()
            .filter(|l| l.order == egui::Order::Middle)
            .filter_map(|l| m.area_rect(l.id))
            .map(|r| Rect::new(r.min.x * zoom, r.min.y * zoom, r.max.x * zoom, r.max.y * zoom))
            .collect()
    })
}

/// Frames the board anew when the free space changes; moves the camera along while it still
/// shows the home view (a player who has turned or zoomed keeps their view).
fn follow_free_space(
    board: Option<Res<BoardExtent>>,
    mut home: ResMut<HomeView>,
    mut cams: Query<(&mut OrbitCamera, &Camera)>,
    windows: Query<&Window>,
    look: Option<Res<super::camera::LookAt>>,
    mut contexts: bevy_egui::EguiContexts,
    mut last: Local<Option<Rect>>,
) {
    let (Some(board), Ok((mut cam, camera)), Some(window)) = (board, cams.single_mut(), windows.iter().next()) else {
        return;
    };
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let screen = Rect::new(0.0, 0.0, window.width(), window.height());
    if screen.width() < 2.0 || camera.logical_viewport_size().is_none() {
        return;
    }
    let aspect = board.0.width() / board.0.height();
    let free = free_rect(screen, &panel_rects(ctx), aspect);
    let moved = |a: Rect, b: Rect| (a.min - b.min).abs().max_element().max((a.max - b.max).abs().max_element());
    if last.is_some_and(|l| moved(l, free) < SETTLE_PX) {
        return;
    }
    let Some(view) = frame(camera, home.view, board.0, free) else { return };
    // A close-up asked for on the command line stays; otherwise follow while at home.
    let at_home = *cam == home.view || last.is_none();
    *last = Some(free);
    home.view = view;
    if at_home && look.is_none() {
        *cam = view;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_free_space_leaves_out_every_panel() {
        let screen = Rect::new(0.0, 0.0, 1280.0, 800.0);
        // An Orders panel down the left, a log at the bottom right, a track at the top middle.
        let orders = Rect::new(6.0, 44.0, 300.0, 700.0);
        let log = Rect::new(900.0, 600.0, 1274.0, 794.0);
        let track = Rect::new(500.0, 6.0, 780.0, 60.0);
        let free = free_rect(screen, &[orders, log, track], 0.75);
        for p in [orders, log, track] {
            let i = p.intersect(free);
            assert!(i.width() <= 0.5 || i.height() <= 0.5, "{free:?} overlaps {p:?}");
        }
        // A board taller than wide goes right of the Orders panel, under the track.
        assert_eq!((free.min.x, free.min.y), (300.0, 60.0), "{free:?}");
        assert!(free.height() >= 540.0, "{free:?}");
        // Without panels, the whole window.
        assert_eq!(free_rect(screen, &[], 0.75), screen);
    }

    /// A pinhole camera of vertical field `fov` over a window of `size`, as Bevy's perspective.
    #[allow(clippy::type_complexity)]
    fn pinhole(
        size: Vec2,
        fov: f32,
    ) -> (impl Fn(&GlobalTransform, Vec3) -> Option<Vec2>, impl Fn(&GlobalTransform, Vec2) -> Option<Vec3>) {
        let f = 1.0 / (fov / 2.0).tan();
        let aspect = size.x / size.y;
        let project = move |gt: &GlobalTransform, p: Vec3| {
            let v = gt.affine().inverse().transform_point3(p);
            (v.z < 0.0).then(|| {
                let ndc = Vec2::new(v.x * f / aspect / -v.z, v.y * f / -v.z);
                Vec2::new((ndc.x + 1.0) / 2.0 * size.x, (1.0 - ndc.y) / 2.0 * size.y)
            })
        };
        let on_table = move |gt: &GlobalTransform, s: Vec2| {
            let ndc = Vec2::new(s.x / size.x * 2.0 - 1.0, 1.0 - s.y / size.y * 2.0);
            let dir = gt.affine().transform_vector3(Vec3::new(ndc.x * aspect / f, ndc.y / f, -1.0));
            let origin = gt.translation();
            (dir.y < 0.0).then(|| origin + dir * (-origin.y / dir.y))
        };
        (project, on_table)
    }

    #[test]
    fn the_home_view_shows_the_whole_board_in_the_free_space() {
        // Leipzig's board seen at its home angles, the Orders panel down the left of the window.
        let size = Vec2::new(1280.0, 800.0);
        let (project, on_table) = pinhole(size, std::f32::consts::FRAC_PI_4);
        let board = Rect::new(-10.0, -7.0, 10.0, 7.0);
        let free = Rect::new(330.0, 40.0, 1274.0, 794.0);
        let start = OrbitCamera { focus: Vec3::ZERO, distance: 27.0, yaw: 0.0, pitch: 1.35 };
        let view = frame_with(&project, &on_table, start, board, free).expect("a view");
        let gt = GlobalTransform::from(view.transform());
        let mut shown = Rect::EMPTY;
        for c in [board.min, Vec2::new(board.max.x, board.min.y), board.max, Vec2::new(board.min.x, board.max.y)] {
            shown = shown.union_point(project(&gt, Vec3::new(c.x, 0.0, c.y)).expect("in front"));
        }
        assert!(free.contains(shown.min) && free.contains(shown.max), "{shown:?} leaves {free:?}");
        // As large as it fits: it fills the free space's width or height within the margin.
        let filled = (shown.width() / free.width()).max(shown.height() / free.height());
        assert!(filled > 0.93, "{shown:?} in {free:?}: {filled}");
        // Centred in it.
        assert!((shown.center() - free.center()).length() < 3.0, "{shown:?} off the middle of {free:?}");
        // The angles are the game's own.
        assert_eq!((view.yaw, view.pitch), (start.yaw, start.pitch));
    }

    #[test]
    fn a_wide_board_prefers_the_wide_space() {
        // A panel down the left third: a wide board takes the rest, not a strip above it.
        let screen = Rect::new(0.0, 0.0, 1200.0, 800.0);
        let side = Rect::new(0.0, 200.0, 400.0, 800.0);
        let free = free_rect(screen, &[side], 2.0);
        assert_eq!(free, Rect::new(400.0, 0.0, 1200.0, 800.0));
    }
}
