//! The start screen: the game's title and what is being prepared, over the whole window, until
//! the table is drawn. A software renderer compiles the table's shaders in the background for
//! seconds after the first frame (egui's own is ready first), and without this the panels and
//! labels float on black meanwhile. The renderer counts its pipelines not ready yet; the screen
//! goes when none has been waiting for a few frames, once the table's meshes have asked for theirs.

use bevy::prelude::*;
use bevy::render::render_resource::{CachedPipelineState, PipelineCache};
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy_egui::egui;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// What the renderer has told of its pipelines: how many exist, how many are ready, and
/// whether the table has been drawn whole (then it stays so).
#[derive(Resource, Clone, Default)]
pub struct TableReady(Arc<Readiness>);

#[derive(Default)]
pub struct Readiness {
    total: AtomicU32,
    ready: AtomicU32,
    drawn: AtomicBool,
}

impl TableReady {
    pub fn drawn(&self) -> bool {
        self.0.drawn.load(Ordering::Relaxed)
    }
}

/// Render frames before the table may count as drawn (its meshes ask for their pipelines in the
/// first frames), and frames with nothing waiting that make it so.
const FIRST_FRAMES: u32 = 5;
const STEADY_FRAMES: u32 = 3;

pub struct StartPlugin;

impl Plugin for StartPlugin {
    fn build(&self, app: &mut App) {
        let ready = TableReady::default();
        app.insert_resource(ready.clone())
            .add_systems(Update, (keep_drawing, tell_drawn))
            .add_systems(bevy_egui::EguiPrimaryContextPass, start_screen.after(crate::ui::GamePanels));
        if let Some(render) = app.get_sub_app_mut(RenderApp) {
            render.insert_resource(ready).add_systems(Render, count_pipelines.in_set(RenderSystems::Cleanup));
            if std::env::var_os("GROGNARD_GPU_MEMORY").is_some() {
                render.add_systems(Render, report_gpu_memory.in_set(RenderSystems::Cleanup));
            }
        }
    }
}

fn count_pipelines(cache: Res<PipelineCache>, ready: Res<TableReady>, mut frames: Local<(u32, u32)>) {
    let (total, done) =
        cache.pipelines().fold((0, 0), |(t, d), p| (t + 1, d + matches!(p.state, CachedPipelineState::Ok(_)) as u32));
    ready.0.total.store(total, Ordering::Relaxed);
    ready.0.ready.store(done, Ordering::Relaxed);
    frames.0 += 1;
    let waiting = cache.waiting_pipelines().count();
    frames.1 = if waiting == 0 && total > 0 { frames.1 + 1 } else { 0 };
    if frames.0 >= FIRST_FRAMES && frames.1 >= STEADY_FRAMES {
        ready.0.drawn.store(true, Ordering::Relaxed);
    }
}

/// With `GROGNARD_GPU_MEMORY` set, the log says once the table is drawn what the renderer's
/// allocator holds (a software renderer keeps it in the process's memory): in all, in blocks,
/// and the largest allocations by name — what the window's memory is spent on.
fn report_gpu_memory(device: Res<bevy::render::renderer::RenderDevice>, ready: Res<TableReady>, mut told: Local<u32>) {
    // Once, ten frames after the table is drawn, when what it needs has been made.
    if !ready.drawn() || *told > 10 {
        return;
    }
    *told += 1;
    if *told <= 10 {
        return;
    }
    let Some(report) = device.wgpu_device().generate_allocator_report() else {
        info!("gpu memory: the allocator gives no report");
        return;
    };
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    info!(
        "gpu memory: {:.1} MiB allocated in {} allocations, {:.1} MiB reserved in {} blocks",
        mib(report.total_allocated_bytes),
        report.allocations.len(),
        mib(report.total_reserved_bytes),
        report.blocks.len()
    );
    let mut by_name: std::collections::HashMap<&str, (u64, u32)> = std::collections::HashMap::new();
    for a in &report.allocations {
        let e = by_name.entry(a.name.as_str()).or_default();
        e.0 += a.size;
        e.1 += 1;
    }
    let mut named: Vec<_> = by_name.into_iter().collect();
    named.sort_by_key(|(_, (size, _))| std::cmp::Reverse(*size));
    for (name, (size, n)) in named.into_iter().take(20) {
        info!("gpu memory: {:.2} MiB in {n} × {:?}", mib(size), name);
    }
}

/// Frames keep coming until the table is drawn (the window otherwise draws only on input).
fn keep_drawing(ready: Res<TableReady>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    if !ready.drawn() {
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// The log says when the table was first drawn whole, for the README's start-up figure.
fn tell_drawn(ready: Res<TableReady>, mut told: Local<bool>, time: Res<Time<Real>>) {
    if !*told && ready.drawn() {
        *told = true;
        info!("table drawn after {:.2} s", time.elapsed_secs());
        super::memory::give_back_freed();
    }
}

fn start_screen(
    mut contexts: bevy_egui::EguiContexts,
    ready: Res<TableReady>,
    title: Option<Res<StartTitle>>,
) -> Result {
    if ready.drawn() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let (total, done) = (ready.0.total.load(Ordering::Relaxed), ready.0.ready.load(Ordering::Relaxed));
    egui::Area::new(egui::Id::new("start screen"))
        .order(egui::Order::Tooltip)
        .fixed_pos(screen.min)
        .interactable(true)
        .show(ctx, |ui| {
            let (rect, _) = ui.allocate_exact_size(screen.size(), egui::Sense::click_and_drag());
            ui.painter().rect_filled(rect, 0.0, egui::Color32::from_rgb(31, 28, 26));
            let centre = rect.center();
            let title = title.as_ref().map_or("Grognard", |t| t.0.as_str());
            ui.painter().text(
                centre - egui::vec2(0.0, 40.0),
                egui::Align2::CENTER_CENTER,
                title,
                egui::FontId::proportional(30.0),
                egui::Color32::from_rgb(236, 226, 200),
            );
            let what = if total == 0 {
                "Preparing the table…".to_string()
            } else {
                format!("Preparing the table: the renderer's shaders, {done} of {total} ready")
            };
            ui.painter().text(
                centre + egui::vec2(0.0, 6.0),
                egui::Align2::CENTER_CENTER,
                what,
                egui::FontId::proportional(16.0),
                egui::Color32::from_gray(190),
            );
            // The bar: the share of the pipelines ready.
            let bar = egui::Rect::from_center_size(centre + egui::vec2(0.0, 40.0), egui::vec2(320.0, 8.0));
            ui.painter().rect_filled(bar, 3.0, egui::Color32::from_gray(60));
            let share = if total == 0 { 0.0 } else { done as f32 / total as f32 };
            let filled = egui::Rect::from_min_size(bar.min, egui::vec2(bar.width() * share, bar.height()));
            ui.painter().rect_filled(filled, 3.0, egui::Color32::from_rgb(170, 140, 80));
        });
    Ok(())
}

/// The title the start screen shows (the game and the scenario).
#[derive(Resource, Clone)]
pub struct StartTitle(pub String);
