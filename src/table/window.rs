//! The window's Bevy set-up, shared by every way it runs: the default plugins with the window
//! titled after the scenario, egui with the panels' frame order, the renderer's settings and the
//! update mode (reactive, so an idle table costs almost no CPU; continuous for a screenshot).

use bevy::prelude::*;
use bevy::render::RenderPlugin;
use bevy::render::settings::WgpuSettings;
use bevy::winit::{UpdateMode, WinitSettings};
use std::time::Duration;

/// egui as every window sets it up, the panels' and the labels' frame order included.
pub fn egui(app: &mut App) -> &mut App {
    app.add_plugins(bevy_egui::EguiPlugin::default())
        // The panels draw labels over pieces where the camera sees them: after this frame's
        // transforms are propagated, or a label trails its piece by a frame while the camera
        // glides (a whole second of glide on a software renderer).
        .configure_sets(
            PostUpdate,
            bevy_egui::EguiPostUpdateSet::EndPass.after(bevy::transform::TransformSystems::Propagate),
        )
        // The glyphs a frame adds to egui's font atlas are written into its image before the
        // image's change is announced, or the renderer learns of them a frame late. Bevy leaves
        // the two unordered (both may change any image); in a window that draws only when
        // something happens, the late frame never comes, and the letters new in the last frame
        // drawn stay blank on screen until the next input: "Army card: ertrand".
        .configure_sets(
            PostUpdate,
            bevy_egui::EguiPostUpdateSet::PostProcessOutput.before(bevy::asset::AssetEventSystems),
        )
}

/// What every game's window shares: Bevy's default plugins with a 1280×800 window titled after
/// the scenario, egui, the table colour, and the update mode — continuous while taking a
/// screenshot, otherwise reactive.
pub fn window_app(app: &mut App, title: String, size: (u32, u32), shooting: bool, broadcast: bool) {
    super::memory::fewer_heaps();
    egui(
        app.add_plugins(
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title,
                        resolution: size.into(),
                        // The broadcast window keeps the size its capture source expects.
                        resizable: !broadcast,
                        ..default()
                    }),
                    ..default()
                })
                .set(RenderPlugin {
                    // Without it the first frames of a screenshot come out black.
                    synchronous_pipeline_compilation: shooting,
                    render_creation: wgpu_settings().into(),
                    ..default()
                })
                // The table's few hundred pieces are put in the instance buffers by the CPU: see
                // `memory::CpuInstancing`.
                .set(bevy::pbr::PbrPlugin { use_gpu_instance_buffer_builder: false, ..default() }),
        ),
    )
    .insert_resource(ClearColor(Color::srgb(0.12, 0.11, 0.10)))
    .add_plugins(super::memory::CpuInstancing)
    .insert_resource(if shooting {
        WinitSettings { focused_mode: UpdateMode::Continuous, unfocused_mode: UpdateMode::Continuous }
    } else if broadcast {
        // Behind the broadcasting software the broadcast window draws as it would in front: an
        // update, a glide or the director's hold still asks for its frames.
        WinitSettings {
            focused_mode: UpdateMode::reactive(Duration::from_secs(3600)),
            unfocused_mode: UpdateMode::reactive(Duration::from_secs(3600)),
        }
    } else {
        // Reactive: no frames while nothing moves; input or an animation's redraw request wakes it.
        // No timed wake-up either (a frame of the printed table costs a software renderer over a
        // second): whatever changes with time — gliding pieces, dice, a computer's pace, a notice
        // fading — asks for its frames while it lasts.
        WinitSettings {
            focused_mode: UpdateMode::reactive(Duration::from_secs(3600)),
            unfocused_mode: UpdateMode::reactive_low_power(Duration::from_secs(3600)),
        }
    });
}

/// The renderer's settings: Bevy's, less wgpu's check of indirect draws, which Bevy's release
/// builds leave out (the draws are Bevy's own) and its debug builds — the one `scripts/run`
/// starts — keep: a software renderer held 8 MiB for it (`GROGNARD_GPU_MEMORY`).
fn wgpu_settings() -> WgpuSettings {
    let mut settings = WgpuSettings::default();
    settings.instance_flags.remove(bevy::render::settings::InstanceFlags::VALIDATION_INDIRECT_CALL);
    settings
}
