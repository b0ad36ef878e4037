//! Made for streaming. A window playing a table here feeds its public form to a broadcast feed
//! (`net::feed`: the spectator's view and log behind the streamer's delay) and may open the
//! broadcast window: another window of this program, watching that feed as a spectator — so it
//! holds nothing the spectator may not see, whatever the player's window shows — at a fixed size
//! for a capture source, with no panels, a director camera that frames each action and an
//! overlay legible at 720p. Over the network the broadcast window watches the host, which keeps
//! the delay.

use super::TableGame;
use super::camera::{HomeView, OrbitCamera};
pub use super::director::{Director, DirectorMode, Shot};
use super::glide::Target;
use crate::engine::entry::StreamOptions;
use crate::engine::plugin::{Aside, TableRes, TableVersion};
use crate::engine::rng::TableRng;
use crate::engine::seats::{SeatId, Viewer};
use crate::net::feed::{Feed, FeedInfo};
use crate::net::proto::{Delay, Summary};
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy_egui::{EguiContexts, egui};
use std::collections::HashMap;

/// Side colours that stay apart for colour-blind viewers (Okabe and Ito's palette): blue and
/// orange, then bluish green and vermilion for a third and fourth seat.
pub const SIDE_COLOURS: [egui::Color32; 4] = [
    egui::Color32::from_rgb(0, 114, 178),
    egui::Color32::from_rgb(230, 159, 0),
    egui::Color32::from_rgb(0, 158, 115),
    egui::Color32::from_rgb(213, 94, 0),
];

/// The feed of this window's table (and the broadcast window it opened, if any).
#[derive(Resource)]
pub struct Broadcaster {
    feed: Feed,
    /// Records already sent, as JSON (to tell an undo or a new table from new actions).
    kept: Vec<serde_json::Value>,
    /// The log in a spectator's words, as sent so far.
    lines: Vec<String>,
    /// The last roll sent, in words and whole.
    last_roll: Option<(String, crate::engine::roll::Roll)>,
    delay: Delay,
    child: Option<std::process::Child>,
}

impl Drop for Broadcaster {
    fn drop(&mut self) {
        // The broadcast window goes with the window that feeds it.
        if let Some(c) = &mut self.child {
            let _ = c.kill();
        }
    }
}

impl Broadcaster {
    /// Starts the feed of `table` (on `stream.feed`, or any free port of this machine) and, with
    /// `open_window`, the broadcast window watching it.
    pub fn start<G: TableGame>(
        table: &crate::engine::table::Table<G>,
        stream: &StreamOptions,
        open_window: bool,
    ) -> Result<Broadcaster, String> {
        let address = match stream.feed.as_deref() {
            None => "127.0.0.1:0".to_string(),
            Some(a) if a.parse::<u16>().is_ok() => format!("127.0.0.1:{a}"),
            Some(a) => a.to_string(),
        };
        let seats = table.game.seat_names().iter().map(|s| s.to_string()).collect();
        let info = FeedInfo { seats, scenario_hash: table.game.scenario().hash, delay: stream.delay };
        let feed = Feed::start(&address, info)?;
        info!("broadcast feed on {}", feed.url());
        let mut b = Broadcaster {
            feed,
            kept: Vec::new(),
            lines: Vec::new(),
            last_roll: None,
            delay: stream.delay,
            child: None,
        };
        if open_window {
            b.open_window(table, stream)?;
        }
        Ok(b)
    }

    pub fn url(&self) -> String {
        self.feed.url()
    }

    /// Opens the broadcast window: this program again, watching the feed as a spectator.
    pub fn open_window<G: TableGame>(
        &mut self,
        table: &crate::engine::table::Table<G>,
        stream: &StreamOptions,
    ) -> Result<(), String> {
        if let Some(c) = &mut self.child
            && c.try_wait().ok().flatten().is_none()
        {
            return Ok(()); // already open
        }
        let (w, h) = stream.broadcast.unwrap_or((1920, 1080));
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let child = std::process::Command::new(exe)
            .arg("play")
            .arg(&table.game.scenario().path)
            .args(["--join", &self.feed.url(), "--spectate", "--broadcast", &format!("{w}x{h}")])
            .args(["--director", &stream.director])
            .spawn()
            .map_err(|e| format!("the broadcast window did not open: {e}"))?;
        self.child = Some(child);
        Ok(())
    }
}

/// The public table in a few words: read off a table rebuilt from the spectator's view alone, so
/// nothing in it can come from what a spectator may not see.
pub fn summary_of<G: TableGame>(
    spectator_view: &serde_json::Value,
    like: &G,
    lines: &[String],
    last_roll: Option<&(String, crate::engine::roll::Roll)>,
    delay: Delay,
) -> Option<Summary> {
    let g = like.rebuilt_from_view(spectator_view, &mut TableRng::from_seed(1)).ok()?;
    let names = g.seat_names();
    Some(Summary {
        game: G::NAME.to_string(),
        scenario: g.scenario().name,
        score: g.standing().score.map(|s| s.to_string()),
        status: g.status(),
        turn_of: g.active_seat().and_then(|s| names.get(s.0 as usize)).map(|s| s.to_string()),
        last_roll: last_roll.map(|(text, _)| text.clone()),
        roll: last_roll.map(|(_, roll)| Box::new(roll.clone())),
        captions: lines.iter().rev().take(3).rev().cloned().collect(),
        over: g.is_over(),
        delay,
        chance: g.chance(Viewer::Spectator, &mut TableRng::from_seed(2)).map(chances),
    })
}

/// Both seats' chances from the first seat's, to the hundredth.
pub fn chances(first: f32) -> Vec<f32> {
    let r = |p: f32| (p * 100.0).round() / 100.0;
    vec![r(first), r(1.0 - first)]
}

/// After each change of the table: its spectator's update to the feed (the whole log again after
/// an undo or a new table).
pub fn feed_table<G: TableGame>(table: Res<TableRes<G>>, version: Res<TableVersion>, b: Option<ResMut<Broadcaster>>) {
    let Some(mut b) = b else { return };
    if !table.is_changed() && !version.is_changed() && !b.is_added() {
        return;
    }
    let t = &table.0;
    let records: Vec<serde_json::Value> =
        t.records.iter().map(|r| serde_json::to_value(r).expect("a record is plain data")).collect();
    let same = b.kept.iter().zip(&records).take_while(|(a, b)| a == b).count();
    let restart = b.is_added() || same < b.kept.len();
    if !restart && records.len() == b.kept.len() {
        return; // nothing new: the window's own view changed
    }
    let since = if restart { 0 } else { b.kept.len() as u64 };
    let mut u = crate::net::play::table_update(t, Viewer::Spectator, since);
    u.restart = restart;
    if restart {
        b.lines.clear();
        b.last_roll = None;
    }
    b.lines.extend(u.log.iter().map(|l| l.text.clone()));
    if let Some(l) = u.log.iter().rev().find(|l| l.roll.is_some()) {
        b.last_roll = Some((l.text.clone(), l.roll.clone().expect("found")));
    }
    u.summary = summary_of(&u.view, &t.game, &b.lines, b.last_roll.as_ref(), b.delay);
    b.feed.send(u);
    b.kept = records;
}

/// The menu's View → Broadcast window (and the command line's --broadcast or --feed): starts the
/// feed and the window when asked.
pub fn broadcast_on_request<G: TableGame>(
    mut commands: Commands,
    table: Res<TableRes<G>>,
    mut notice: ResMut<crate::table::session::Notice>,
    mut ask: ResMut<BroadcastAsk>,
    b: Option<ResMut<Broadcaster>>,
    stream: Res<StreamSettings>,
) {
    if !ask.asked {
        return;
    }
    ask.asked = false;
    let mut opts = stream.0.clone();
    opts.delay = ask.delay;
    match b {
        Some(mut b) => {
            if let Err(e) = b.open_window(&table.0, &opts) {
                notice.refuse(e);
            }
        }
        None => match Broadcaster::start(&table.0, &opts, true) {
            Ok(b) => {
                notice.inform(format!("Broadcast window opened; stream tools may read {}", b.url()));
                commands.insert_resource(b);
            }
            Err(e) => notice.refuse(e),
        },
    }
}

/// The streaming options the window was opened with.
#[derive(Resource, Clone, Default)]
pub struct StreamSettings(pub StreamOptions);

// ---- The broadcast window ----

/// View → Broadcast window: whether it was asked for, and the delay it is to keep (the menu's
/// slider, from `--delay`).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct BroadcastAsk {
    pub asked: bool,
    pub delay: crate::net::proto::Delay,
}

/// Present in the broadcast window (no panels, only the overlay): its size and its director.
#[derive(Resource, Clone, Copy, Debug)]
pub struct BroadcastWindow {
    pub size: (u32, u32),
}

/// How long a framed action stays on screen before the camera may go back to the overview.
pub const HOLD_SECONDS: f32 = 3.5;

/// The framing of a set of points of the table: their middle, from far enough to hold them all
/// with a margin, never further than the overview.
pub fn frame(points: &[Vec3], overview: &OrbitCamera) -> Option<Shot> {
    let first = *points.first()?;
    let (mut lo, mut hi) = (first, first);
    for p in points {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    let extent = (hi.x - lo.x).max(hi.z - lo.z);
    let focus = Vec3::new((lo.x + hi.x) / 2.0, 0.0, (lo.z + hi.z) / 2.0);
    let distance = (extent * 1.7 + 11.0).clamp(11.0, overview.distance);
    Some(Shot { focus, distance })
}

/// Where each piece was last sent and which face it showed, as the director last saw them.
#[derive(Default)]
pub struct Seen {
    places: HashMap<Entity, Vec3>,
    faces: HashMap<Entity, AssetId<StandardMaterial>>,
}

type Faces<'w, 's> = Query<
    'w,
    's,
    (Entity, &'static GlobalTransform, &'static MeshMaterial3d<StandardMaterial>, Has<Aside>),
    Changed<MeshMaterial3d<StandardMaterial>>,
>;

/// Watches what each action changed on the table — pieces sent somewhere else (a move, a
/// retreat, a card played or drawn), taken off (a loss) or turned over (a reveal) — and frames
/// it; when the turn passes, the overview follows. A piece counts when its place or its face
/// differs from the one seen before (the views set every piece's place again on a relayout).
#[allow(clippy::too_many_arguments)]
pub fn director_watch<G: TableGame>(
    time: Res<Time>,
    eyes: Res<crate::engine::seen::Seen<G>>,
    home: Res<HomeView>,
    mut director: ResMut<Director>,
    placed: Query<(Entity, &Target, Has<Aside>), Changed<Target>>,
    faces: Faces,
    mut seen: Local<Seen>,
    mut redraw: MessageWriter<RequestRedraw>,
    settling: Option<Res<crate::engine::plugin::Settling>>,
) {
    let now = time.elapsed_secs();
    let d = &mut *director;
    // A roll the rules made is thrown: the tray first; the table holds its result until the
    // dice rest (`Settling`), and then the result is framed like any change.
    let acting_out = settling.is_some_and(|s| s.active);
    let framing_now = match d.mode {
        DirectorMode::Auto => true,
        DirectorMode::Follow(seat) => d.last_active == Some(seat),
        DirectorMode::Fixed => false,
    };
    if acting_out && !d.tray && framing_now {
        let c = super::dice::TRAY;
        let shot = Shot { focus: Vec3::new(c.x, 0.0, c.z), distance: 11.0 };
        d.shots.push(shot);
        d.shot_at = now;
        d.goal = Some(OrbitCamera { focus: shot.focus, distance: shot.distance, ..home.view });
    }
    d.tray = acting_out;
    let active = eyes.game().and_then(|g| g.active_seat());
    let actor = d.last_active;
    // What moved on the field of play, and what beside it (cards, tracks: see `Aside`).
    let (mut points, mut aside) = (Vec::new(), Vec::new());
    let on_table = |p: Vec3| p.y > -4.0;
    for (e, target, beside) in &placed {
        let to = target.0.translation;
        if let Some(from) = seen.places.insert(e, to)
            && from.distance(to) > 0.01
        {
            let list = if beside { &mut aside } else { &mut points };
            list.extend([from, to].into_iter().filter(|&p| on_table(p)));
        }
    }
    for (e, at, material, beside) in &faces {
        if let Some(before) = seen.faces.insert(e, material.id())
            && before != material.id()
            && on_table(at.translation())
        {
            if beside { &mut aside } else { &mut points }.push(at.translation());
        }
    }
    if points.is_empty() {
        points = aside;
    }
    let framing = match d.mode {
        DirectorMode::Auto => true,
        DirectorMode::Follow(seat) => actor == Some(seat),
        DirectorMode::Fixed => false,
    };
    // A whole table respawned (a new game) is no single action to frame.
    if framing
        && points.len() <= 80
        && let Some(shot) = frame(&points, &home.view)
    {
        d.shots.push(shot);
        d.shot_at = now;
        d.goal = Some(OrbitCamera { focus: shot.focus, distance: shot.distance, ..home.view });
    }
    if active != d.last_active {
        d.last_active = active;
        d.overview_due = true;
    }
    if d.mode == DirectorMode::Fixed {
        // The streamer's own views (Ctrl+1..4 stores one, 1..4 recalls it): the director keeps
        // its hands off the camera.
        d.goal = None;
        d.overview_due = false;
    } else if d.overview_due {
        if now - d.shot_at >= HOLD_SECONDS {
            d.overview_due = false;
            d.goal = Some(home.view);
        } else {
            // Frames until the hold is over, so the overview comes without an input.
            redraw.write(RequestRedraw);
        }
    }
}

/// Glides the camera to the director's goal at a readable pace (to the tray while a roll is
/// thrown, then to its result).
pub fn director_glide(
    time: Res<Time>,
    mut director: ResMut<Director>,
    mut cams: Query<&mut OrbitCamera>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(goal) = director.goal else { return };
    let Ok(mut cam) = cams.single_mut() else { return };
    let k = 1.0 - (-2.4 * time.delta_secs().min(0.1)).exp();
    let close = cam.focus.distance(goal.focus) < 0.02
        && (cam.distance - goal.distance).abs() < 0.02
        && (cam.yaw - goal.yaw).abs() < 0.002
        && (cam.pitch - goal.pitch).abs() < 0.002;
    if close {
        *cam = goal;
        director.goal = None;
        return;
    }
    let next = OrbitCamera {
        focus: cam.focus.lerp(goal.focus, k),
        distance: cam.distance + (goal.distance - cam.distance) * k,
        yaw: cam.yaw + (goal.yaw - cam.yaw) * k,
        pitch: cam.pitch + (goal.pitch - cam.pitch) * k,
    };
    *cam = next;
    redraw.write(RequestRedraw);
}

/// The director's mode from the keyboard in the broadcast window: F9 automatic, F10 fixed (the
/// views stored with Ctrl+1..4 and recalled with 1..4), F5 to F8 follow the first to fourth seat.
pub fn director_keys<G: TableGame>(keys: Res<ButtonInput<KeyCode>>, mut director: ResMut<Director>) {
    let seats = G::SEATS.len();
    let mode = if keys.just_pressed(KeyCode::F9) {
        Some(DirectorMode::Auto)
    } else if keys.just_pressed(KeyCode::F10) {
        Some(DirectorMode::Fixed)
    } else {
        [KeyCode::F5, KeyCode::F6, KeyCode::F7, KeyCode::F8]
            .iter()
            .position(|k| keys.just_pressed(*k))
            .filter(|&k| k < seats)
            .map(|k| DirectorMode::Follow(SeatId(k as u8)))
    };
    if let Some(m) = mode
        && director.mode != m
    {
        director.mode = m;
    }
}

/// The broadcast's overlay: the game, turn, phase and score in a banner; whose turn in that
/// side's colour; the delay; the last roll; the last lines of the log as captions. Sized from
/// the window's height so that a 1080p picture scaled to 720p still reads.
pub fn overlay<G: TableGame>(
    mut contexts: EguiContexts,
    seen: Res<crate::engine::seen::Seen<G>>,
    remote: Option<Res<super::remote::Remote>>,
    windows: Query<&Window>,
    mut chance: Local<Option<Option<f32>>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let h = windows.iter().next().map_or(1080.0, |w| w.height());
    let Some(g) = seen.game() else { return Ok(()) };
    // The chance to win from what a spectator sees, worked out once a position.
    if chance.is_none() || seen.is_changed() {
        *chance = Some(g.chance(Viewer::Spectator, &mut TableRng::from_seed(2)));
    }
    let chance = chance.flatten();
    let px = |size: f32| size * h / 1080.0 / ctx.pixels_per_point();
    let names = g.seat_names();
    let lines: Vec<String> = match &remote {
        Some(r) => r.log.clone(),
        None => seen.log.iter().map(|l| l.text()).collect(),
    };
    // The last roll from the roll entries themselves, never from the words of the log.
    let last_roll: Option<(String, crate::engine::roll::Roll)> = match &remote {
        Some(r) => r.last_roll.clone(),
        None => seen.log.iter().rev().find_map(|l| Some((l.text(), l.roll.clone()?))),
    };
    let delay = remote.as_ref().map(|r| r.delay).unwrap_or_default();
    let panel = egui::Color32::from_rgba_unmultiplied(16, 14, 12, 215);
    let title = G::NAME.to_string();
    egui::Area::new(egui::Id::new("broadcast banner")).anchor(egui::Align2::LEFT_TOP, [px(24.0), px(20.0)]).show(
        &ctx,
        |ui| {
            egui::Frame::new().fill(panel).inner_margin(px(16.0)).corner_radius(px(10.0)).show(ui, |ui| {
                ui.set_max_width(px(1150.0));
                ui.label(egui::RichText::new(title).size(px(26.0)).color(egui::Color32::from_gray(200)));
                // The status without its score, then the score on a line of its own.
                let status = g.status();
                let score = g.standing().score.map(|s| s.to_string());
                let rest: Vec<&str> = status.split(" · ").filter(|p| Some(p.to_string()) != score).collect();
                ui.label(egui::RichText::new(rest.join(" · ")).size(px(34.0)).strong().color(egui::Color32::WHITE));
                if let Some(score) = score {
                    ui.label(
                        egui::RichText::new(score).size(px(36.0)).strong().color(egui::Color32::from_rgb(240, 228, 66)),
                    );
                }
                if let Some(p) = chance.filter(|_| !g.is_over()) {
                    let c = chances(p);
                    let text = format!(
                        "Chance to win: {} {:.0}% · {} {:.0}%",
                        names.first().copied().unwrap_or("?"),
                        c[0] * 100.0,
                        names.get(1).copied().unwrap_or("?"),
                        c[1] * 100.0
                    );
                    ui.label(egui::RichText::new(text).size(px(24.0)).color(egui::Color32::from_gray(210)));
                }
            });
        },
    );
    egui::Area::new(egui::Id::new("broadcast turn")).anchor(egui::Align2::RIGHT_TOP, [-px(24.0), px(20.0)]).show(
        &ctx,
        |ui| {
            ui.with_layout(egui::Layout::top_down(egui::Align::Max), |ui| {
                let (text, colour) = match g.active_seat() {
                    Some(s) if !g.is_over() => (
                        format!("{} to play", names.get(s.0 as usize).copied().unwrap_or("?")),
                        SIDE_COLOURS[s.0 as usize % SIDE_COLOURS.len()],
                    ),
                    _ => ("Game over".to_string(), egui::Color32::from_gray(90)),
                };
                egui::Frame::new().fill(colour).inner_margin(px(14.0)).corner_radius(px(10.0)).show(ui, |ui| {
                    ui.label(egui::RichText::new(text).size(px(36.0)).strong().color(egui::Color32::WHITE));
                });
                if delay != Delay::default() {
                    let mut parts = Vec::new();
                    if delay.actions > 0 {
                        parts.push(format!("{} moves", delay.actions));
                    }
                    if delay.seconds > 0 {
                        parts.push(if delay.seconds.is_multiple_of(60) {
                            format!("{} min", delay.seconds / 60)
                        } else {
                            format!("{} s", delay.seconds)
                        });
                    }
                    ui.add_space(px(10.0));
                    egui::Frame::new()
                        .fill(egui::Color32::from_rgb(240, 228, 66))
                        .inner_margin(px(10.0))
                        .corner_radius(px(8.0))
                        .show(ui, |ui| {
                            ui.label(
                                egui::RichText::new(format!("Delayed {}", parts.join(" and ")))
                                    .size(px(28.0))
                                    .strong()
                                    .color(egui::Color32::BLACK),
                            );
                        });
                }
                if let Some((roll, _)) = &last_roll {
                    ui.add_space(px(10.0));
                    egui::Frame::new().fill(panel).inner_margin(px(12.0)).corner_radius(px(8.0)).show(ui, |ui| {
                        ui.set_max_width(px(620.0));
                        ui.label(egui::RichText::new("Last roll").size(px(24.0)).color(egui::Color32::from_gray(190)));
                        ui.label(egui::RichText::new(roll).size(px(28.0)).color(egui::Color32::WHITE));
                    });
                }
            });
        },
    );
    let captions: Vec<&String> = lines.iter().rev().take(3).collect();
    if !captions.is_empty() {
        egui::Area::new(egui::Id::new("broadcast captions"))
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -px(28.0)])
            .show(&ctx, |ui| {
                egui::Frame::new().fill(panel).inner_margin(px(16.0)).corner_radius(px(10.0)).show(ui, |ui| {
                    ui.set_max_width(px(1500.0));
                    for (i, line) in captions.iter().rev().enumerate() {
                        let newest = i + 1 == captions.len();
                        let colour = if newest { egui::Color32::WHITE } else { egui::Color32::from_gray(175) };
                        ui.label(egui::RichText::new(*line).size(px(if newest { 32.0 } else { 27.0 })).color(colour));
                    }
                });
            });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_framing_holds_every_point_and_never_goes_beyond_the_overview() {
        let home = OrbitCamera::default();
        let near = frame(&[Vec3::new(1.0, 0.1, 1.0), Vec3::new(3.0, 0.1, 2.0)], &home).unwrap();
        assert_eq!(near.focus, Vec3::new(2.0, 0.0, 1.5));
        assert!(near.distance < home.distance && near.distance >= 11.0);
        let far = frame(&[Vec3::new(-40.0, 0.0, 0.0), Vec3::new(40.0, 0.0, 0.0)], &home).unwrap();
        assert_eq!(far.distance, home.distance);
        assert!(frame(&[], &home).is_none());
    }

    #[test]
    fn a_director_mode_is_named_on_the_command_line() {
        let seats = ["Napoléon (French)", "Allied"];
        assert_eq!(DirectorMode::parse("auto", &seats), Ok(DirectorMode::Auto));
        assert_eq!(DirectorMode::parse("fixed", &seats), Ok(DirectorMode::Fixed));
        assert_eq!(DirectorMode::parse("follow:french", &seats), Ok(DirectorMode::Follow(SeatId(0))));
        assert!(DirectorMode::parse("follow:prussia", &seats).is_err());
        assert!(DirectorMode::parse("wild", &seats).is_err());
    }
}
