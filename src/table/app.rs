//! Builds and runs the window: Bevy's default plugins, mesh picking, egui, the rules plugin and
//! the table's presentation plugins, in reactive mode so an idle table costs almost no CPU.

use super::session::Session;
use crate::engine::journal::{Journal, default_journal_path};
use crate::engine::plugin::{JournalRes, TableRes, TableVersion};
use crate::engine::rules::{Game, Mode};
use crate::engine::save::{SaveFile, looks_like_save};
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::table::Table;
use crate::games::botn::ai::Player;
use crate::games::botn::plugin::BotnPlugin;
use crate::games::botn::{self, Action, Botn};
use bevy::prelude::*;
use bevy::render::RenderPlugin;
use bevy::render::settings::WgpuSettings;
use bevy::winit::{UpdateMode, WinitSettings};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Loads a scenario (new game) or a save (replayed) into a table.
pub fn load_table(file: &Path, seed: u64, mode: Mode) -> Result<Table<Botn>, String> {
    let text = crate::engine::scenario::read_text(file).map_err(|e| e.to_string())?;
    if looks_like_save(&text) {
        let save = SaveFile::<Action>::read(file).map_err(|e| e.to_string())?;
        botn::load_save(&save, file).map_err(|e| e.to_string())
    } else {
        botn::new_table(file, seed, mode).map_err(|e| e.to_string())
    }
}

/// A seed for a new game started without one: the clock's seconds.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(1)
}

pub fn run(
    file: &Path,
    seed: Option<u64>,
    sandbox: bool,
    screenshot: Option<(PathBuf, String)>,
    computers: [Option<Player>; 2],
    pace: f32,
) -> i32 {
    let seed = seed.unwrap_or_else(clock_seed);
    let mode = if sandbox { Mode::Sandbox } else { Mode::Enforced };
    let table = match load_table(file, seed, mode) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let journal_path = default_journal_path();
    let mut session = Session::new(table.game.sc.path.clone(), journal_path.clone());
    let mut journal = JournalRes(None);
    if let Some((out, seat)) = &screenshot {
        session.viewer = match seat.as_str() {
            "french" => Viewer::Seat(SeatId(0)),
            "allied" => Viewer::Seat(SeatId(1)),
            _ => Viewer::Spectator,
        };
        session.hotseat = false;
        session.screenshot = Some((out.clone(), 8));
    } else {
        // A journal of an unfinished game is offered for resuming before it is replaced.
        match Journal::read::<Action>(&journal_path) {
            Ok(old) if !old.log.is_empty() => session.resume_offer = Some(old),
            _ => journal.0 = start_journal(&journal_path, &table),
        }
    }
    session.last_active = table.game.active_seat();
    if let Some(s) = table.game.active_seat()
        && session.hotseat
    {
        session.viewer = Viewer::Seat(s);
    }
    if computers.iter().any(Option::is_some) {
        session.set_computers(computers);
    }
    session.pace = pace;

    let mut app = App::new();
    let shooting = session.screenshot.is_some();
    window_app(&mut app, &table.game.sc.name, shooting);
    app.add_plugins(MeshPickingPlugin)
        .insert_resource(TableRes(table))
        .insert_resource(journal)
        .insert_resource(session)
        .add_plugins(BotnPlugin)
        .add_plugins((
            super::camera::CameraPlugin,
            super::board::BoardPlugin,
            super::pieces::PiecesPlugin,
            super::dice::DicePlugin,
            super::computer::ComputerPlugin,
            crate::ui::UiPlugin,
        ))
        .add_systems(Update, (follow_active_seat, take_screenshot));
    if std::env::var_os("GROGNARD_DEBUG_FRAMES").is_some() {
        app.add_systems(Last, debug_frames);
    }
    app.run();
    0
}

/// What every game's window shares: Bevy's default plugins with a 1280×800 window titled after
/// the scenario, egui, the table colour, and the update mode — continuous while taking a
/// screenshot, otherwise reactive.
pub fn window_app(app: &mut App, scenario_name: &str, shooting: bool) {
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: format!("Grognard — {scenario_name}"),
                    resolution: (1280, 800).into(),
                    ..default()
                }),
                ..default()
            })
            .set(RenderPlugin {
                // Without it the first frames of a screenshot come out black.
                synchronous_pipeline_compilation: shooting,
                render_creation: WgpuSettings::default().into(),
                ..default()
            }),
    )
    .add_plugins(bevy_egui::EguiPlugin::default())
    .insert_resource(ClearColor(Color::srgb(0.12, 0.11, 0.10)))
    .insert_resource(if shooting {
        WinitSettings { focused_mode: UpdateMode::Continuous, unfocused_mode: UpdateMode::Continuous }
    } else {
        // Reactive: no frames while nothing moves; input or an animation's redraw request wakes it.
        WinitSettings {
            focused_mode: UpdateMode::reactive(Duration::from_secs(5)),
            unfocused_mode: UpdateMode::reactive_low_power(Duration::from_secs(60)),
        }
    });
}

/// Starts a fresh journal holding this table's log so far.
pub fn start_journal(path: &Path, table: &Table<Botn>) -> Option<Journal> {
    match Journal::create(path, &botn::save_of(table)) {
        Ok(j) => Some(j),
        Err(e) => {
            error!("cannot write the journal {}: {e}", path.display());
            None
        }
    }
}

/// Hot-seat: when the decision passes to the other seat, cover the table until they are ready.
fn follow_active_seat(table: Res<TableRes<Botn>>, version: Res<TableVersion>, mut session: ResMut<Session>) {
    if !version.is_changed() && !table.is_changed() {
        return;
    }
    let active = table.0.game.active_seat();
    if session.hotseat && active != session.last_active {
        session.last_active = active;
        if let Some(seat) = active
            && session.viewer != Viewer::Seat(seat)
        {
            session.handover_to = Some(seat);
            session.viewer = Viewer::Seat(seat);
        }
    }
}

fn take_screenshot(
    mut commands: Commands,
    mut session: ResMut<Session>,
    mut exit: MessageWriter<AppExit>,
    mut waited: Local<u32>,
) {
    screenshot_step(&mut commands, &mut session.screenshot, &mut waited, &mut exit);
}

/// Screenshot mode, one frame at a time: after `frames` frames the window is captured to the file
/// of `job`, and once it is written the app leaves (with an error if it never is). Both games'
/// windows use it.
pub fn screenshot_step(
    commands: &mut Commands,
    job: &mut Option<(PathBuf, u32)>,
    waited: &mut u32,
    exit: &mut MessageWriter<AppExit>,
) {
    let Some((path, frames)) = job.clone() else { return };
    *waited += 1;
    if *waited == frames {
        use bevy::render::view::screenshot::{Screenshot, save_to_disk};
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone()));
    }
    // The capture completes a frame or two later; give it time, then leave.
    if *waited > frames + 6 && path.exists() {
        *job = None;
        exit.write(AppExit::Success);
    }
    if *waited > frames + 600 {
        error!("the screenshot {} was not written", path.display());
        exit.write(AppExit::error());
    }
}

/// Diagnostics (GROGNARD_DEBUG_FRAMES=1): logs every drawn frame's redraw requests, to check that
/// an idle table draws nothing.
fn debug_frames(
    mut redraws: MessageReader<bevy::window::RequestRedraw>,
    time: Res<Time>,
    mut frames: Local<u64>,
    moving: Query<(Option<&Name>, &super::pieces::Target, &Transform)>,
) {
    *frames += 1;
    for (name, target, tf) in &moving {
        if target.0 != *tf {
            info!("still moving: {name:?} {:?} -> {:?}", tf, target.0);
        }
    }
    info!("frame {} at {:.2}s, {} redraw requests", *frames, time.elapsed_secs(), redraws.read().count());
}
