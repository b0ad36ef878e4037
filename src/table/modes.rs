//! One plugin per way the window runs, each small and tested alone: every table
//! (`TablePlugin`: the camera, the dice, the panels, the computer, the hot-seat's eyes), a local
//! table that may open the broadcast window or a feed (`StreamPlugin`), a seat or a spectator at a
//! host's table (`RemoteSeatPlugin`), the replay timeline (`ReplayPlugin`), the broadcast window
//! (`BroadcastWindowPlugin`) and the screenshot (`ScreenshotPlugin`). `app::run` reads the command
//! line and picks them.

use super::TableGame;
use super::session::Session;
use crate::engine::plugin::{Eyes, HostsTable, TableRes, TableSet, TableVersion};
use crate::engine::seats::Viewer;
use bevy::prelude::*;
use std::marker::PhantomData;
use std::path::PathBuf;

/// Declares a plugin generic over the game, with its `Default`.
macro_rules! game_plugin {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        pub struct $name<G>(PhantomData<G>);

        impl<G> Default for $name<G> {
            fn default() -> Self {
                Self(PhantomData)
            }
        }
    };
}

game_plugin! {
    /// What every window of a table runs: the camera and its framing, the lesson and the hint, the
    /// pieces in the hand, the start screen, the sound, the dice, the shared panels, the computer's
    /// moves, the eyes the table is drawn through (the hot-seat's cover included) and what they see
    /// (`Seen`). Expects `TableRes<G>`, `Session` and `Eyes`.
    TablePlugin
}

impl<G: TableGame> Plugin for TablePlugin<G> {
    fn build(&self, app: &mut App) {
        app.init_resource::<super::computer::Thinking>()
            .init_resource::<super::session::Pointing>()
            .init_resource::<super::session::PanelMemory>()
            .init_resource::<super::session::Notice>()
            .init_resource::<super::broadcast::BroadcastAsk>()
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
                    super::computer::computer_moves::<G>.before(TableSet::Apply),
                    // Between the rules and the mirror: the frame a decision passes to the other
                    // seat already draws the table through the cover's eyes.
                    // What the eyes see is worked out once they are settled (`TableSet::See`).
                    (follow_active_seat::<G>, lend_eyes).chain().after(TableSet::Apply).before(TableSet::See),
                    warm_up,
                ),
            );
    }
}

game_plugin! {
    /// A local table's streaming: View → Broadcast window opens a broadcast window on a feed of this
    /// table, and `--feed`/`--broadcast` serve it from the start. Expects `StreamSettings` (and a
    /// `Broadcaster` where one was started).
    StreamPlugin
}

impl<G: TableGame> Plugin for StreamPlugin<G> {
    fn build(&self, app: &mut App) {
        app.init_resource::<super::broadcast::BroadcastAsk>().init_resource::<super::session::Notice>().add_systems(
            Update,
            (super::broadcast::broadcast_on_request::<G>, super::broadcast::feed_table::<G>)
                .chain()
                .after(TableSet::Apply),
        );
    }
}

game_plugin! {
    /// A seat (or a spectator) at a host's table: the host holds the table, this window sends its
    /// seat's orders and draws what the host sends. Expects `Remote`.
    RemoteSeatPlugin
}

impl<G: TableGame> Plugin for RemoteSeatPlugin<G> {
    fn build(&self, app: &mut App) {
        app.insert_resource(HostsTable)
            .init_resource::<super::session::Notice>()
            .add_systems(Startup, super::remote::connect)
            .add_systems(Update, (super::remote::receive::<G>, super::remote::send::<G>).in_set(TableSet::Apply));
    }
}

game_plugin! {
    /// The replay: a save on a timeline, the table following it, every order refused. Expects
    /// `Replay<G>`.
    ReplayPlugin
}

impl<G: TableGame> Plugin for ReplayPlugin<G> {
    fn build(&self, app: &mut App) {
        app.insert_resource(HostsTable)
            .init_resource::<super::session::Notice>()
            .add_systems(Update, (super::replay::refuse::<G>, super::replay::follow::<G>).in_set(TableSet::Apply))
            .add_systems(bevy_egui::EguiPrimaryContextPass, super::replay::timeline::<G>.after(crate::ui::GamePanels));
    }
}

game_plugin! {
    /// The broadcast window: a spectator at a host's (or a feed's) table, no panels, the director's
    /// camera and the overlay. Expects `BroadcastWindow` and `Director`.
    BroadcastWindowPlugin
}

impl<G: TableGame> Plugin for BroadcastWindowPlugin<G> {
    fn build(&self, app: &mut App) {
        use super::broadcast::{director_glide, director_keys, director_watch, overlay};
        app.add_systems(
            Update,
            (director_keys::<G>, director_watch::<G>, director_glide)
                .chain()
                .after(TableSet::Present)
                .before(super::camera::CameraSet),
        )
        .add_systems(bevy_egui::EguiPrimaryContextPass, overlay::<G>.after(crate::ui::GamePanels));
    }
}

/// The screenshot: once the table is drawn whole, a picture of the window to this file, then the
/// app leaves.
pub struct ScreenshotPlugin(pub PathBuf);

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        // Two frames after the table is drawn whole: the pictures of all four games at the 8th
        // frame were the same, pixel for pixel, and each frame costs about 2 s under a software
        // renderer.
        app.insert_resource(super::session::ScreenshotJob(Some((self.0.clone(), 2))))
            .add_systems(Update, take_screenshot);
    }
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

/// The first seconds after start draw continuously: the renderer compiles its pipelines in the
/// background, and in reactive mode nothing else would ask for the frames that show the table.
fn warm_up(time: Res<Time<Real>>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    // Wall-clock time: the game clock advances at most a quarter second a frame, and a slow first
    // frame must not stretch the warm-up.
    if time.elapsed_secs() < 20.0 {
        redraw.write(bevy::window::RequestRedraw);
    }
}

fn take_screenshot(
    mut commands: Commands,
    mut job: ResMut<super::session::ScreenshotJob>,
    mut exit: MessageWriter<AppExit>,
    mut waited: Local<u32>,
    ready: Res<super::start::TableReady>,
) {
    // The frames are counted from the first in which the table is drawn whole (not the start
    // screen).
    if !ready.drawn() {
        return;
    }
    screenshot_step(&mut commands, &mut job.0, &mut waited, &mut exit);
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
pub(super) fn debug_frames(
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
