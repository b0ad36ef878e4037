//! Opens the window for any game as the command line asks: reads the lesson, the replay, the
//! host's seat, the screenshot and the computer's seats into a session (`open`), then builds the
//! app from the window (`window`), the plugins of the way it runs (`modes`) and the game's view.

use super::TableGame;
pub use super::session::ResumeOffer;
use super::session::Session;
use crate::engine::journal::{Journal, default_journal_path};
use crate::engine::plugin::{Eyes, JournalRes, Request, TableRes};
pub use crate::engine::rng::clock_seed;
use crate::engine::seats::Viewer;
use crate::engine::table::Table;
use bevy::prelude::*;
use std::path::Path;

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
    match build::<G>(table, &setup) {
        Ok(mut app) => {
            app.run();
            0
        }
        Err(e) => {
            eprintln!("{e}");
            2
        }
    }
}

/// What the command line opens, read before the window: the session, the table (a lesson's, a
/// replay's start), and the pieces of the way the window runs.
struct Opening<G: TableGame> {
    session: Session,
    table: Table<G>,
    journal: JournalRes,
    offer: Option<crate::engine::save::SaveFile<G::Action>>,
    replay: Option<super::replay::Replay<G>>,
    remote: Option<super::remote::Remote>,
    /// The screenshot's file.
    shot: Option<std::path::PathBuf>,
}

/// Reads the command line's lesson, replay, host's seat, screenshot and computer seats into a
/// session; an error for what does not fit.
fn open<G: TableGame>(table: Table<G>, setup: &super::WindowSetup) -> Result<Opening<G>, String> {
    let journal_path = default_journal_path().with_file_name(setup.journal_name);
    let seats = table.game.seat_names().len();
    let mut session = Session::new(seats, journal_path.clone());
    let table = match setup.learn {
        false => table,
        true => super::lesson::start_lesson(&table.game, &mut session, &mut super::session::Notice::default())
            .map_err(|e| format!("--learn: {e}"))?,
    };
    // The replay view: the save on a timeline, from its start.
    let (table, replay) = match &setup.stream.replay {
        None => (table, None),
        Some(file) => {
            let save = crate::engine::save::SaveFile::<G::Action>::read(file).map_err(|e| e.to_string())?;
            let (replay, start) = super::replay::Replay::<G>::open(save, file)?;
            session.hotseat = false;
            session.viewer = Viewer::Spectator;
            session.spectator_only = !replay.over;
            (start, Some(replay))
        }
    };
    let remote = match &setup.remote {
        None => None,
        Some(crate::engine::entry::RemoteSeat { url, seat, code, public, notify, clock }) => {
            let names = table.game.seat_names();
            let seat = match seat {
                None => None,
                Some(name) => Some(
                    seat_named(names, name)
                        .ok_or_else(|| format!("--seat {name}: expected one of {}", names.join(", ")))?,
                ),
            };
            let mut remote = super::remote::Remote::new(url, seat, code.clone(), *public);
            // A table this seat opens is played on this file's scenario, as a host names it.
            remote.scenario = Some(crate::net::host::scenario_key(G::ID, &table.game.scenario().path));
            remote.notify = notify.clone();
            remote.clock = clock.clone();
            remote.questions = setup.questions;
            Some(remote)
        }
    };
    let mut journal = JournalRes::default();
    let mut offer = None;
    let mut shot = None;
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
        shot = Some(out.clone());
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
            return Err("--computer: at a host's table the computer plays this window's own seat only".into());
        }
        session.computers = (0..seats).map(|k| setup.computers.get(k).copied().flatten().filter(|_| own(k))).collect();
    } else if setup.computers.iter().any(Option::is_some) && setup.screenshot.is_none() {
        session.set_computers(setup.computers.clone());
    } else {
        session.computers = setup.computers.clone();
    }
    session.pace = setup.pace;
    if setup.stream.clean {
        session.panels_hidden = true;
    }
    Ok(Opening { session, table, journal, offer, replay, remote, shot })
}

/// The window's app for the command line: the window, the table's plugins and the plugins of the
/// way it runs (`modes`), the game's own view.
fn build<G: TableGame>(table: Table<G>, setup: &super::WindowSetup) -> Result<App, String> {
    use super::modes::*;
    let Opening { mut session, table, journal, offer, replay, remote, shot } = open::<G>(table, setup)?;
    // The broadcast window: a spectator at a host's (or a feed's) table, asked for --broadcast.
    let broadcast = match (&remote, setup.stream.broadcast) {
        (Some(r), Some(size)) if r.seat.is_none() => Some(size),
        _ => None,
    };
    let director = super::broadcast::DirectorMode::parse(&setup.stream.director, table.game.seat_names())?;
    if broadcast.is_some() {
        session.panels_hidden = true;
    }
    let table_path = table.game.scenario().path;
    let local = remote.is_none() && setup.screenshot.is_none();
    let broadcaster = match local && (setup.stream.broadcast.is_some() || setup.stream.feed.is_some()) {
        false => None,
        true => Some(super::broadcast::Broadcaster::start(&table, &setup.stream, setup.stream.broadcast.is_some())?),
    };
    let mut app = App::new();
    let shooting = shot.is_some();
    let name = table.game.scenario().name;
    match broadcast {
        Some(size) => super::window::window_app(&mut app, format!("Grognard broadcast — {name}"), size, shooting, true),
        None => super::window::window_app(&mut app, format!("Grognard — {name}"), (1280, 800), shooting, false),
    }
    if let Some([x, z, d]) = setup.look {
        app.insert_resource(super::camera::LookAt(Vec3::new(x, 0.0, z), d));
    }
    app.add_plugins(MeshPickingPlugin)
        .insert_resource(super::start::StartTitle(format!("Grognard — {name}")))
        .insert_resource(Eyes(session.viewer))
        .insert_resource(TableRes(table))
        .insert_resource(journal)
        .insert_resource(session)
        .insert_resource(super::session::Preferences { ui_scale: setup.ui_scale, ..default() })
        .insert_resource(ResumeOffer::<G>(offer))
        .insert_resource(super::broadcast::BroadcastAsk { asked: false, delay: setup.stream.delay })
        .add_plugins(TablePlugin::<G>::default());
    if let Some(path) = shot {
        app.add_plugins(ScreenshotPlugin(path));
    }
    if let Some(size) = broadcast {
        app.insert_resource(super::broadcast::BroadcastWindow { size })
            .insert_resource(super::broadcast::Director::new(director))
            .add_plugins(BroadcastWindowPlugin::<G>::default());
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
        app.insert_resource(super::broadcast::StreamSettings(setup.stream.clone()))
            .add_plugins(StreamPlugin::<G>::default());
        if let Some(b) = broadcaster {
            app.insert_resource(b);
        }
    }
    if let Some(replay) = replay {
        app.insert_resource(replay).add_plugins(ReplayPlugin::<G>::default());
    }
    if let Some(r) = remote {
        app.insert_resource(r).add_plugins(RemoteSeatPlugin::<G>::default());
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
    Ok(app)
}

/// The journal's game, if there is one worth resuming: of this game, begun, still loadable, and not
/// over (a finished game is in its journal until the next one starts, and is no "unfinished game").
pub fn resumable<G: TableGame>(journal_path: &Path) -> Option<crate::engine::save::SaveFile<G::Action>> {
    let old = Journal::read::<G::Action>(journal_path).ok()?;
    let begun = !old.log.is_empty() && old.game == G::ID;
    (begun && G::load_save(&old, journal_path).is_ok_and(|t| !t.game.is_over())).then_some(old)
}

/// Replaces the table through the engine (a new game, a load, a resume): the journal restarts.
pub fn replace<G: TableGame>(requests: &mut MessageWriter<Request<G>>, table: Table<G>) {
    requests.write(Request::Replace(Box::new(table)));
}

/// Opens the window on a scenario or a save as the command line asks (`Kit::open_window`, for
/// every game that opens as a table of seats): the computer's seats and level, the screenshot's
/// eyes, the sandbox; the exit code.
pub fn open_window<G: crate::engine::kit::Kit + TableGame>(
    file: &std::path::Path,
    o: &crate::engine::entry::WindowOptions,
) -> i32 {
    use crate::engine::rules::Mode;
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
                questions: G::QUESTIONS,
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
