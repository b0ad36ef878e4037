//! Builds and runs the window for any game: Bevy's default plugins, mesh picking, egui, the
//! rules plugin, the shared table and UI and the game's own view, in reactive mode so an idle
//! table costs almost no CPU.

use super::TableGame;
pub use super::session::ResumeOffer;
use super::session::Session;
use crate::engine::journal::{Journal, default_journal_path};
use crate::engine::plugin::{Eyes, JournalRes, Request, TableRes, TableVersion};
pub use crate::engine::rng::clock_seed;
use crate::engine::seats::Viewer;
use crate::engine::table::Table;
use bevy::prelude::*;
use bevy::render::RenderPlugin;
use bevy::render::settings::WgpuSettings;
use bevy::winit::{UpdateMode, WinitSettings};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A seat by its name, whole or a word of it ("french" for "Napoléon (French)"), if only one fits.
fn seat_named(names: &[&str], asked: &str) -> Option<u8> {
    let asked = asked.to_lowercase();
    if let Some(k) = names.iter().position(|s| s.to_lowercase() == asked) {
        return Some(k as u8);
    }
    let fits: Vec<usize> = (0..names.len()).filter(|&k| names[k].to_lowercase().contains(&asked)).collect();
    (fits.len() == 1).then(|| fits[0] as u8)
}

/// Opens the window on `table` and runs it until it closes; the exit code.
pub fn run<G: TableGame>(table: Table<G>, setup: super::WindowSetup) -> i32 {
    let journal_path = default_journal_path().with_file_name(setup.journal_name);
    let seats = table.game.seat_names().len();
    let mut session = Session::new(seats, journal_path.clone());
    let table = match setup.learn {
        false => table,
        true => match super::lesson::start_lesson(&table, &mut session) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("--learn: {e}");
                return 2;
            }
        },
    };
    // The replay view: the save on a timeline, from its start.
    let (table, replay) = match &setup.stream.replay {
        None => (table, None),
        Some(file) => {
            let opened = crate::engine::save::SaveFile::<G::Action>::read(file)
                .map_err(|e| e.to_string())
                .and_then(|save| super::replay::Replay::<G>::open(save, file));
            match opened {
                Ok((replay, start)) => {
                    session.hotseat = false;
                    session.viewer = Viewer::Spectator;
                    session.spectator_only = !replay.over;
                    (start, Some(replay))
                }
                Err(e) => {
                    eprintln!("{e}");
                    return 2;
                }
            }
        }
    };
    let mut journal = JournalRes::default();
    let mut offer = None;
    let remote = match &setup.remote {
        None => None,
        Some(crate::engine::entry::RemoteSeat { url, seat, code, public }) => {
            let names = table.game.seat_names();
            let seat = match seat {
                None => None,
                Some(name) => match seat_named(names, name) {
                    Some(k) => Some(k),
                    None => {
                        eprintln!("--seat {name}: expected one of {}", names.join(", "));
                        return 2;
                    }
                },
            };
            Some(super::remote::Remote::new(url, seat, code.clone(), *public))
        }
    };
    if let Some(r) = &remote {
        // A host's table: this seat's eyes only, no computer, no hand-over, no local journal.
        session.hotseat = false;
        session.viewer = r.seat.map_or(Viewer::Spectator, |k| Viewer::Seat(crate::engine::seats::SeatId(k)));
    } else if replay.is_some() {
        // A replay writes no journal: the save it shows is already a file.
    } else if let Some((out, viewer)) = &setup.screenshot {
        // A lesson is seen through the learner's eyes.
        if session.lesson.is_none() {
            session.viewer = *viewer;
        }
        session.hotseat = false;
        // Two frames after the table is drawn whole: the pictures of all four games at the 8th frame
        // were the same, pixel for pixel, and each frame costs about 2 s under a software renderer.
        session.screenshot = Some((out.clone(), 2));
    } else {
        journal.path = Some(journal_path.clone());
        // A journal of an unfinished game is offered for resuming before it is replaced.
        match resumable::<G>(&journal_path) {
            Some(old) => {
                offer = Some(old);
                session.resume_offer = true;
            }
            None => journal.start(&table),
        }
    }
    session.last_active = table.game.active_seat();
    if let Some(s) = table.game.active_seat()
        && session.hotseat
        && replay.is_none()
    {
        session.viewer = Viewer::Seat(s);
    }
    if session.lesson.is_some() {
        // The lesson set the computer's seats.
    } else if let Some(r) = &remote {
        // The computer may play this window's own seat, reading the table rebuilt from its view.
        let own = |k: usize| r.seat == Some(k as u8);
        if (0..seats).any(|k| setup.computers.get(k).copied().flatten().is_some() && !own(k)) {
            eprintln!("--computer: at a host's table the computer plays this window's own seat only");
            return 2;
        }
        session.computers = (0..seats).map(|k| setup.computers.get(k).copied().flatten().filter(|_| own(k))).collect();
    } else if setup.computers.iter().any(Option::is_some) && setup.screenshot.is_none() {
        session.set_computers(setup.computers.clone());
    } else {
        session.computers = setup.computers.clone();
    }
    session.pace = setup.pace;
    session.broadcast_delay = setup.stream.delay;
    session.ui_scale = setup.ui_scale;

    // The broadcast window: a spectator at a host's (or a feed's) table, asked for --broadcast.
    let broadcast = match (&remote, setup.stream.broadcast) {
        (Some(r), Some(size)) if r.seat.is_none() => Some(size),
        _ => None,
    };
    let director = match super::broadcast::DirectorMode::parse(&setup.stream.director, table.game.seat_names()) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    if broadcast.is_some() {
        session.panels_hidden = true;
        session.broadcast = true;
    }
    if setup.stream.clean {
        session.panels_hidden = true;
    }
    let table_path = table.game.scenario().path;
    let local = remote.is_none() && setup.screenshot.is_none();
    let broadcaster = match local && (setup.stream.broadcast.is_some() || setup.stream.feed.is_some()) {
        false => None,
        true => match super::broadcast::Broadcaster::start(&table, &setup.stream, setup.stream.broadcast.is_some()) {
            Ok(b) => Some(b),
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        },
    };
    let mut app = App::new();
    let shooting = session.screenshot.is_some();
    let name = table.game.scenario().name;
    match broadcast {
        Some(size) => window_app(&mut app, format!("Grognard broadcast — {name}"), size, shooting, true),
        None => window_app(&mut app, format!("Grognard — {name}"), (1280, 800), shooting, false),
    }
    if let Some([x, z, d]) = setup.look {
        app.insert_resource(super::camera::LookAt(Vec3::new(x, 0.0, z), d));
    }
    app.add_plugins(MeshPickingPlugin)
        .insert_resource(super::start::StartTitle(format!("Grognard — {name}")))
        .insert_resource(Eyes(session.viewer))
        .init_resource::<super::computer::Thinking>()
        .insert_resource(TableRes(table))
        .insert_resource(journal)
        .insert_resource(session)
        .insert_resource(ResumeOffer::<G>(offer))
        .add_plugins((
            super::camera::CameraPlugin,
            super::framing::FramingPlugin,
            super::lesson::LessonPlugin::<G>::default(),
            super::hint::HintPlugin::<G>::default(),
            super::glide::GlidePlugin,
            super::grip::GripPlugin,
            super::start::StartPlugin,
            super::sound::SoundPlugin,
            super::dice::DicePlugin::<G>::default(),
            crate::ui::UiPlugin::<G>::default(),
        ))
        .add_systems(
            Update,
            (
                super::computer::computer_moves::<G>.before(crate::engine::plugin::TableSet::Apply),
                // Between the rules and the mirror: the frame a decision passes to the other seat
                // already draws the table through the cover's eyes.
                (follow_active_seat::<G>, lend_eyes)
                    .chain()
                    .after(crate::engine::plugin::TableSet::Apply)
                    .before(crate::engine::plugin::TableSet::Sync),
                take_screenshot,
                warm_up,
            ),
        );
    if let Some(size) = broadcast {
        app.insert_resource(super::broadcast::BroadcastWindow { size })
            .insert_resource(super::broadcast::Director::new(director))
            .add_systems(
                Update,
                (
                    super::broadcast::director_keys::<G>,
                    super::broadcast::director_watch::<G>,
                    super::broadcast::director_glide,
                )
                    .chain()
                    .after(crate::engine::plugin::TableSet::Present)
                    .before(super::camera::CameraSet),
            )
            .add_systems(
                bevy_egui::EguiPrimaryContextPass,
                super::broadcast::overlay::<G>.after(crate::ui::GamePanels),
            );
    } else if let Some(r) = remote.as_ref().filter(|r| r.seat.is_some() && setup.stream.broadcast.is_some()) {
        // A seat at a host's table: the broadcast window watches the host, which keeps the delay.
        let (w, h) = setup.stream.broadcast.expect("asked for");
        let args = [
            "play".to_string(),
            table_path.display().to_string(),
            "--join".to_string(),
            r.url.clone(),
            "--spectate".to_string(),
            "--broadcast".to_string(),
            format!("{w}x{h}"),
            "--director".to_string(),
            setup.stream.director.clone(),
        ];
        // A private table is watched with a code: the seat's own token serves, handed over in
        // the environment (never on a command line others may read).
        if let Err(e) = super::remote::spawn_with_code(&args, r.watch_code()) {
            eprintln!("the broadcast window did not open: {e}");
        }
    } else if local {
        app.insert_resource(super::broadcast::StreamSettings(setup.stream.clone())).add_systems(
            Update,
            (super::broadcast::broadcast_on_request::<G>, super::broadcast::feed_table::<G>)
                .chain()
                .after(crate::engine::plugin::TableSet::Apply),
        );
        if let Some(b) = broadcaster {
            app.insert_resource(b);
        }
    }
    if let Some(replay) = replay {
        app.insert_resource(replay)
            .insert_resource(crate::engine::plugin::HostsTable)
            .add_systems(
                Update,
                (super::replay::refuse::<G>, super::replay::follow::<G>).in_set(crate::engine::plugin::TableSet::Apply),
            )
            .add_systems(bevy_egui::EguiPrimaryContextPass, super::replay::timeline::<G>.after(crate::ui::GamePanels));
    }
    if let Some(r) = remote {
        app.insert_resource(r)
            .insert_resource(crate::engine::plugin::HostsTable)
            .add_systems(Startup, super::remote::connect)
            .add_systems(
                Update,
                (super::remote::receive::<G>, super::remote::send::<G>).in_set(crate::engine::plugin::TableSet::Apply),
            );
    }
    G::add_view(&mut app);
    let started = std::time::Instant::now();
    app.add_systems(Last, move |mut frames: Local<u32>| {
        // Start-up time, for the README's figure: from opening the window to its first frame.
        *frames += 1;
        if *frames == 1 {
            info!("first frame after {:.2} s", started.elapsed().as_secs_f32());
        }
    });
    if std::env::var_os("GROGNARD_DEBUG_FRAMES").is_some() {
        app.add_systems(Last, debug_frames);
    }
    app.run();
    0
}

/// The entity mirror draws the table through the session's eyes — a spectator's while the resume
/// offer covers a table nobody has sat down at yet, and while the hand-over screen covers it, so
/// that nothing the last seat saw lies on the table under the cover, whatever frame shows; and in
/// the clean picture (H), made for a stream, unless the player asked for their hand in it.
fn lend_eyes(session: Res<Session>, mut eyes: ResMut<Eyes>) {
    let clean = session.panels_hidden && !session.hand_in_clean_picture;
    let covered = session.resume_offer || session.handover_to.is_some() || clean;
    let want = if covered { Viewer::Spectator } else { session.viewer };
    if session.is_changed() && eyes.0 != want {
        eyes.0 = want;
    }
}

/// The journal's game, if there is one worth resuming: of this game, begun, still loadable, and not
/// over (a finished game is in its journal until the next one starts, and is no "unfinished game").
pub fn resumable<G: TableGame>(journal_path: &Path) -> Option<crate::engine::save::SaveFile<G::Action>> {
    let old = Journal::read::<G::Action>(journal_path).ok()?;
    let begun = !old.log.is_empty() && old.game == G::ID;
    (begun && G::load_save(&old, journal_path).is_ok_and(|t| !t.game.is_over())).then_some(old)
}

/// The first seconds after start draw continuously: the renderer compiles its pipelines in the
/// background, and in reactive mode nothing else would ask for the frames that show the table.
fn warm_up(time: Res<Time<Real>>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    // Wall-clock time: the game clock advances at most a quarter second a frame, and a slow first
    // frame must not stretch the warm-up.
    if time.elapsed_secs() < 20.0 {
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// Replaces the table through the engine (a new game, a load, a resume): the journal restarts.
pub fn replace<G: TableGame>(requests: &mut MessageWriter<Request<G>>, table: Table<G>) {
    requests.write(Request::Replace(Box::new(table)));
}

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

/// Hot-seat: when the decision passes to the other seat, cover the table until they are ready.
fn follow_active_seat<G: TableGame>(table: Res<TableRes<G>>, version: Res<TableVersion>, mut session: ResMut<Session>) {
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
    ready: Res<super::start::TableReady>,
) {
    // The frames are counted from the first in which the table is drawn whole (not the start
    // screen).
    if !ready.drawn() {
        return;
    }
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
        // An older picture at that path would read as this one written.
        let _ = std::fs::remove_file(&path);
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone()));
    }
    // The capture completes a frame or two later and is written whole in the frame it arrives
    // (bevy's `save_to_disk` observer): leave once the file is there.
    if *waited > frames && path.exists() {
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
    moving: Query<(Option<&Name>, &super::glide::Target, &Transform)>,
) {
    *frames += 1;
    for (name, target, tf) in &moving {
        if target.0 != *tf {
            info!("still moving: {name:?} {:?} -> {:?}", tf, target.0);
        }
    }
    info!("frame {} at {:.2}s, {} redraw requests", *frames, time.elapsed_secs(), redraws.read().count());
}

/// Opens the window on a scenario or a save as the command line asks (`Kit::open_window`, for
/// every game that opens as a table of seats): the computer's seats and level, the screenshot's
/// eyes, the sandbox where the game has one; the exit code.
pub fn open_window<G: crate::engine::kit::Kit + TableGame>(
    file: &std::path::Path,
    o: &crate::engine::entry::WindowOptions,
) -> i32 {
    use crate::engine::rules::Mode;
    if o.sandbox && !G::SANDBOX {
        eprintln!("--sandbox: {} has no sandbox mode", G::NAME);
        return 2;
    }
    let (computers, screenshot) = match seats_asked::<G>(o) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let seed = o.seed.unwrap_or_else(clock_seed);
    let mode = if o.sandbox { Mode::Sandbox } else { Mode::Enforced };
    match G::load(file, seed, mode) {
        Ok(table) => run(
            table,
            crate::table::WindowSetup {
                screenshot,
                computers,
                pace: o.pace,
                journal_name: G::JOURNAL,
                ui_scale: o.ui_scale,
                look: o.look,
                remote: o.remote.clone(),
                stream: o.stream.clone(),
                learn: o.learn,
            },
        ),
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// The seats the computer plays, at which of the window's levels (`--computer SEAT|both`,
/// `--level`, by default `normal`), and the eyes of `--screenshot` (`--seat`): seats by any of
/// the game's names for them, levels by the window's names or the command line's.
#[allow(clippy::type_complexity)]
pub fn seats_asked<G: crate::engine::kit::Kit + TableGame>(
    o: &crate::engine::entry::WindowOptions,
) -> Result<(Vec<Option<usize>>, Option<(std::path::PathBuf, crate::engine::seats::Viewer)>), String> {
    use crate::engine::seats::{SeatId, Viewer};
    let sides = G::SEATS;
    let levels = G::LEVELS;
    let list = sides.join(", ");
    let level = match o.level.as_deref() {
        None => levels.iter().position(|l| *l == "normal").unwrap_or(0),
        Some(l) => levels
            .iter()
            .position(|x| x.eq_ignore_ascii_case(l))
            .or_else(|| G::player_named(l).and_then(|p| levels.iter().position(|x| *x == G::player_label(p))))
            .ok_or_else(|| format!("--level {l}: expected {}", levels.join(", ")))?,
    };
    let computers = match o.computer.as_deref() {
        None => vec![None; sides.len()],
        Some("both") => vec![Some(level); sides.len()],
        Some(seat) => match G::seat_named(seat) {
            Some(i) => (0..sides.len()).map(|k| (k == i).then_some(level)).collect(),
            None => return Err(format!("--computer {seat}: expected {list} or both")),
        },
    };
    let screenshot = match &o.screenshot {
        None => None,
        Some((out, seat)) if seat == "spectator" => Some((out.clone(), Viewer::Spectator)),
        Some((out, seat)) => match G::seat_named(seat) {
            Some(i) => Some((out.clone(), Viewer::Seat(SeatId(i as u8)))),
            None => return Err(format!("--seat {seat}: expected {list} or spectator")),
        },
    };
    Ok((computers, screenshot))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::seats::SeatId;

    #[test]
    fn the_table_under_the_hand_over_and_resume_covers_is_seen_as_a_spectator_sees_it() {
        let mut app = App::new();
        app.insert_resource(Session::new(2, PathBuf::from("j.ron"))).insert_resource(Eyes(Viewer::Spectator));
        app.add_systems(Update, lend_eyes);
        let seat = |app: &mut App, s| {
            let mut session = app.world_mut().resource_mut::<Session>();
            session.viewer = Viewer::Seat(SeatId(s));
        };
        seat(&mut app, 0);
        app.update();
        assert_eq!(app.world().resource::<Eyes>().0, Viewer::Seat(SeatId(0)));
        // The decision passes to seat 1: until they say they are ready, nobody's eyes.
        app.world_mut().resource_mut::<Session>().handover_to = Some(SeatId(1));
        app.update();
        assert_eq!(app.world().resource::<Eyes>().0, Viewer::Spectator);
        app.world_mut().resource_mut::<Session>().handover_to = None;
        seat(&mut app, 1);
        app.update();
        assert_eq!(app.world().resource::<Eyes>().0, Viewer::Seat(SeatId(1)));
        // The resume offer covers a table nobody has sat down at.
        app.world_mut().resource_mut::<Session>().resume_offer = true;
        app.update();
        assert_eq!(app.world().resource::<Eyes>().0, Viewer::Spectator);
    }

    #[test]
    fn the_clean_picture_shows_the_table_through_a_spectators_eyes_unless_the_player_wants_their_hand() {
        let mut app = App::new();
        app.insert_resource(Session::new(2, PathBuf::from("j.ron"))).insert_resource(Eyes(Viewer::Spectator));
        app.add_systems(Update, lend_eyes);
        app.world_mut().resource_mut::<Session>().viewer = Viewer::Seat(SeatId(0));
        app.update();
        assert_eq!(app.world().resource::<Eyes>().0, Viewer::Seat(SeatId(0)));
        // H: a picture made for a stream is safe to broadcast.
        app.world_mut().resource_mut::<Session>().panels_hidden = true;
        app.update();
        assert_eq!(app.world().resource::<Eyes>().0, Viewer::Spectator);
        // The player asks for their own hand in the clean picture.
        app.world_mut().resource_mut::<Session>().hand_in_clean_picture = true;
        app.update();
        assert_eq!(app.world().resource::<Eyes>().0, Viewer::Seat(SeatId(0)));
        // H again: the panels and the player's eyes are back.
        let mut s = app.world_mut().resource_mut::<Session>();
        s.panels_hidden = false;
        s.hand_in_clean_picture = false;
        app.update();
        assert_eq!(app.world().resource::<Eyes>().0, Viewer::Seat(SeatId(0)));
    }
}
