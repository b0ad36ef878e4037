//! The window's memory where the C library is glibc: a software renderer keeps the GPU's memory
//! in the process, and glibc gives each thread that allocates at once a heap of its own (up to
//! eight a core), which keeps what the table's painting freed. Two heaps are enough for a window
//! that draws a frame at a time, and once the table is drawn the freed pages go back to the
//! system. The renderer puts the pieces in its instance buffers on the CPU. Measured in
//! docs/changes.md (issue 27, memory).

use bevy::prelude::*;
use bevy::render::batching::gpu_preprocessing::{GpuPreprocessingMode, GpuPreprocessingSupport};

/// The renderer's instance buffers built by the CPU, as Bevy does where a GPU has no compute
/// shaders, instead of by its compute passes (culling included): a table of a few hundred pieces
/// in view as a whole gains nothing from them, and without their pipelines a software renderer
/// holds 16 MiB less (VmRSS of Battle of the Nations at idle, 437 → 421 MiB). `PbrPlugin` is told so
/// too (`use_gpu_instance_buffer_builder`); this makes the render world agree, since Bevy
/// measures the device's support again when the renderer starts.
pub struct CpuInstancing;

impl Plugin for CpuInstancing {
    fn build(&self, app: &mut App) {
        if let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp) {
            render.add_systems(
                bevy::render::RenderStartup,
                (|mut support: ResMut<GpuPreprocessingSupport>| {
                    support.max_supported_mode = GpuPreprocessingMode::None;
                })
                .after(bevy::render::init_gpu_resource::<GpuPreprocessingSupport>),
            );
        }
    }
}

/// Before the app starts its threads: at most two malloc heaps.
pub fn fewer_heaps() {
    crate::net::limits::fewer_heaps();
}

/// Once the table is drawn: the pages the painting and loading freed go back to the system.
pub fn give_back_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator's heaps to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}
