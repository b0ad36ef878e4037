//! The camera, with the controls players know from Tabletop Simulator: right-drag orbits,
//! middle-drag (or WASD / arrows) pans, the wheel zooms, Space resets, Ctrl+1..4 stores a view
//! and 1..4 recalls it (for streamers). Input over egui panels is left to egui.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_pointer_input;

/// Where the camera looks from: a point on the table, a distance and two angles.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    pub focus: Vec3,
    pub distance: f32,
    /// Rotation about the vertical axis, radians.
    pub yaw: f32,
    /// Angle above the table, radians.
    pub pitch: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self { focus: Vec3::new(4.4, 0.0, 1.6), distance: 41.0, yaw: 0.0, pitch: 1.2 }
    }
}

impl OrbitCamera {
    pub fn transform(&self) -> Transform {
        let offset = Vec3::new(
            self.distance * self.pitch.cos() * self.yaw.sin(),
            self.distance * self.pitch.sin(),
            self.distance * self.pitch.cos() * self.yaw.cos(),
        );
        Transform::from_translation(self.focus + offset).looking_at(self.focus, Vec3::Y)
    }
}

/// Up to four stored views.
#[derive(Resource, Default)]
pub struct SavedViews(pub [Option<OrbitCamera>; 4]);

/// The view Space returns to, and whether the digit keys store and recall views (a game that
/// uses the digits for its orders turns that off).
#[derive(Resource, Clone, Copy)]
pub struct HomeView {
    pub view: OrbitCamera,
    pub digit_views: bool,
}

impl Default for HomeView {
    fn default() -> Self {
        Self { view: OrbitCamera::default(), digit_views: true }
    }
}

pub struct CameraPlugin;

/// The camera's own systems (input, then placing the camera): a director moving it runs before.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CameraSet;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<SavedViews>().init_resource::<HomeView>().add_systems(Startup, spawn_camera).add_systems(
            Update,
            (
                orbit_with_mouse.run_if(not(egui_wants_any_pointer_input)),
                keys.run_if(crate::ui::keyboard_free),
                apply_orbit,
            )
                .chain()
                .in_set(CameraSet),
        );
    }
}

/// A view to open on instead of the home view: a point of the table (x, z) and a distance
/// (`grognard screenshot --look`, for close-ups).
#[derive(Resource, Clone, Copy, Debug)]
pub struct LookAt(pub Vec3, pub f32);

/// Edges smoothed by FXAA, a pass over the finished picture, instead of Bevy's 4× multisampling:
/// a software renderer shades every sample of a multisampled frame (a Leipzig screenshot under
/// llvmpipe 12.0 → 7.9 s) and the two multisampled targets take 32 MiB of the renderer's memory at
/// 1280×800 (the allocator's report, `GROGNARD_GPU_MEMORY`: 85 → 56 MiB allocated). The panels
/// are drawn after it and keep their sharp letters.
pub fn antialiasing() -> (Msaa, bevy::anti_alias::fxaa::Fxaa) {
    (Msaa::Off, bevy::anti_alias::fxaa::Fxaa::default())
}

fn spawn_camera(mut commands: Commands, home: Res<HomeView>, look: Option<Res<LookAt>>) {
    let mut orbit = home.view;
    if let Some(look) = look {
        (orbit.focus, orbit.distance) = (look.0, look.1);
    }
    commands.spawn((Camera3d::default(), antialiasing(), orbit.transform(), orbit, Name::new("Table camera")));
    // Shadow maps of 1024 texels, not Bevy's 2048: a software renderer keeps them in memory
    // (about 50 MiB less at idle, VmRSS of a Battle of the Nations window 543 → 489 MiB), and a
    // table lit from above shows no difference at the distances it is seen from.
    commands.insert_resource(bevy::light::DirectionalLightShadowMap { size: 1024 });
    // The table has no point or spot light, but Bevy makes their shadow cube map all the same:
    // 24 MiB at its default size (the renderer's allocator report, `GROGNARD_GPU_MEMORY`).
    commands.insert_resource(bevy::light::PointLightShadowMap { size: 16 });
    // One warm key light that casts the shadows, a cool fill from the other side so that nothing
    // goes black, and a little ambient light: a room lit by a lamp over the table.
    commands.spawn((
        DirectionalLight {
            color: Color::srgb(1.0, 0.93, 0.82),
            illuminance: 8500.0,
            shadow_maps_enabled: true,
            ..default()
        },
        // Two cascades, not four: the table lies within a few tens of units of the camera, and
        // each cascade is a 1024² map kept in memory (4 MiB).
        bevy::light::CascadeShadowConfigBuilder { num_cascades: 2, ..default() }.build(),
        Transform::from_xyz(-8.0, 20.0, 10.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight { color: Color::srgb(0.80, 0.86, 1.0), illuminance: 2200.0, ..default() },
        Transform::from_xyz(10.0, 12.0, -8.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight { brightness: 380.0, ..default() });
}

/// How far the pointer moved this frame: the cursor's own moves, which every system reports
/// (a remote desktop, Xvfb driven by xdotool: they send no raw device motion, and a drag read
/// from that alone turned nothing); the raw motion where the cursor did not move (grabbed).
fn pointer_motion(cursor: &mut MessageReader<bevy::window::CursorMoved>, raw: &AccumulatedMouseMotion) -> Vec2 {
    let moved: Vec2 = cursor.read().filter_map(|c| c.delta).sum();
    if moved != Vec2::ZERO { moved } else { raw.delta }
}

/// Whether a panel lies under the window point `p` (logical pixels): egui's own background, which
/// it spreads under the whole window to catch clicks, is the table, not a panel.
fn panel_at(ctx: &bevy_egui::egui::Context, p: Vec2) -> bool {
    let pos = bevy_egui::egui::pos2(p.x, p.y) / ctx.zoom_factor();
    ctx.layer_id_at(pos).is_some_and(|l| l.order != bevy_egui::egui::Order::Background)
}

fn orbit_with_mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    mut cursor: MessageReader<bevy::window::CursorMoved>,
    scroll: Res<AccumulatedMouseScroll>,
    mut cams: Query<(&mut OrbitCamera, &Camera, &GlobalTransform)>,
    windows: Query<&Window>,
    mut contexts: bevy_egui::EguiContexts,
) {
    let Ok((mut cam, camera, cam_tf)) = cams.single_mut() else { return };
    let delta = pointer_motion(&mut cursor, &motion);
    // Held now or within this frame: a right-drag let go before a slow frame ends still turns.
    if crate::ui::held_this_frame(&buttons, [MouseButton::Right]) && delta != Vec2::ZERO {
        cam.yaw -= delta.x * 0.005;
        cam.pitch = (cam.pitch + delta.y * 0.004).clamp(0.25, 1.55);
    }
    if crate::ui::held_this_frame(&buttons, [MouseButton::Middle]) && delta != Vec2::ZERO {
        let scale = cam.distance * 0.0015;
        let (s, c) = cam.yaw.sin_cos();
        let right = Vec3::new(c, 0.0, -s);
        let forward = Vec3::new(-s, 0.0, -c);
        cam.focus += (-right * delta.x + forward * delta.y) * scale;
    }
    // The wheel over a panel scrolls the panel. egui's own "wants the pointer" comes from the
    // last frame's hover, which a software renderer's slow frames can miss when the pointer has
    // just arrived: ask which panel lies under the pointer now.
    let mut over_panel = || {
        let (Some(w), Ok(ctx)) = (windows.iter().next(), contexts.ctx_mut()) else { return false };
        w.cursor_position().is_some_and(|p| panel_at(ctx, p))
    };
    if scroll.delta.y != 0.0 && !over_panel() {
        let lines = match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 80.0,
        };
        let before = cam.distance;
        cam.distance = (cam.distance * (1.0 - lines * 0.08)).clamp(4.0, 80.0);
        // Towards the point of the table under the pointer, as in map viewers: that point stays
        // under the pointer while the rest of the table grows around it.
        let under = windows
            .iter()
            .next()
            .and_then(|w| w.cursor_position())
            .and_then(|p| camera.viewport_to_world(cam_tf, p).ok())
            .and_then(|ray| ray.intersect_plane(Vec3::ZERO, InfinitePlane3d::new(Vec3::Y)).map(|d| ray.get_point(d)));
        if let Some(point) = under {
            let focus = cam.focus;
            cam.focus = point + (focus - point) * (cam.distance / before);
        }
    }
}

fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut cams: Query<&mut OrbitCamera>,
    mut views: ResMut<SavedViews>,
    home: Res<HomeView>,
) {
    let Ok(mut cam) = cams.single_mut() else { return };
    let step = cam.distance * 0.8 * time.delta_secs();
    let (s, c) = cam.yaw.sin_cos();
    let right = Vec3::new(c, 0.0, -s);
    let forward = Vec3::new(-s, 0.0, -c);
    let mut pan = Vec3::ZERO;
    if keys.any_pressed([KeyCode::KeyW, KeyCode::ArrowUp]) {
        pan += forward;
    }
    if keys.any_pressed([KeyCode::KeyS, KeyCode::ArrowDown]) {
        pan -= forward;
    }
    if keys.any_pressed([KeyCode::KeyA, KeyCode::ArrowLeft]) {
        pan -= right;
    }
    if keys.any_pressed([KeyCode::KeyD, KeyCode::ArrowRight]) {
        pan += right;
    }
    if pan != Vec3::ZERO {
        cam.focus += pan * step;
    }
    if keys.just_pressed(KeyCode::Space) {
        *cam = home.view;
    }
    if !home.digit_views {
        return;
    }
    let ctrl = crate::ui::ctrl_held(&keys);
    for (i, key) in [KeyCode::Digit1, KeyCode::Digit2, KeyCode::Digit3, KeyCode::Digit4].into_iter().enumerate() {
        if keys.just_pressed(key) {
            if ctrl {
                views.0[i] = Some(*cam);
            } else if let Some(v) = views.0[i] {
                *cam = v;
            }
        }
    }
}

fn apply_orbit(mut cams: Query<(&OrbitCamera, &mut Transform), Changed<OrbitCamera>>) {
    for (orbit, mut tf) in &mut cams {
        *tf = orbit.transform();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy_egui::egui;

    #[test]
    fn the_wheel_over_the_table_is_not_over_a_panel() {
        // egui spreads an interactable background under the whole window: the table is there.
        let ctx = egui::Context::default();
        let input = || egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0))),
            ..Default::default()
        };
        for _ in 0..2 {
            let mut out = ctx.run_ui(input(), |ui| {
                egui::Window::new("Orders").fixed_pos([10.0, 10.0]).show(ui.ctx(), |ui| ui.label("End the turn"));
            });
            out.textures_delta.clear();
        }
        assert!(ctx.layer_id_at(egui::pos2(500.0, 400.0)).is_some(), "egui's background answers everywhere");
        assert!(panel_at(&ctx, Vec2::new(30.0, 30.0)), "over the Orders window");
        assert!(!panel_at(&ctx, Vec2::new(500.0, 400.0)), "over the table");
    }
}
