//! The Victory & Glory table in the window: the map of nations with influence cubes, the armies
//! in front of each player, holding areas and campaigns as unit blocks, and the egui panels (orders,
//! hand, tracks, campaigns, log, the miniatures battle sheet with its result entry). The solo AI's
//! seat plays by itself at a readable pace; everything goes through `Request`s and the rules.

use super::camera::CameraPlugin;
use crate::engine::journal::{Journal, default_journal_path};
use crate::engine::plugin::{JournalRes, Outcome, Request, TableRes, TableSet, TableVersion};
use crate::engine::rng::TableRng;
use crate::engine::rules::Game;
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::table::{Act, Entry, Table};
use crate::games::vg::ai::{self, VgPlayer};
use crate::games::vg::data::NationKind;
use crate::games::vg::miniatures;
use crate::games::vg::plugin::{UnitPiece, VgPlugin};
use crate::games::vg::rules::{player_of, seat_of};
use crate::games::vg::state::{Loc, Pending, Phase, Vg};
use crate::games::vg::text::{action_label, card_text, prompt};
use crate::games::vg::{self, Action, Player};
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::path::{Path, PathBuf};

#[derive(Resource)]
pub struct VgSession {
    pub viewer: Viewer,
    /// The solo AI's side.
    pub ai: Option<Player>,
    pub pace: f32,
    pub notice: Option<String>,
    pub panels_hidden: bool,
    /// Two people at one table: the screen is covered when the decision passes to the other.
    pub handover_to: Option<SeatId>,
    last_active: Option<SeatId>,
    /// The tabletop result being typed in: winner, whether losses are converted, losses per side.
    pub result_winner: Option<Player>,
    pub result_convert: bool,
    pub result_lost: [u16; 2],
    pub export_dir: PathBuf,
    pub screenshot: Option<(PathBuf, u32)>,
    /// Asked from the Game menu: a new game (the solo AI's side, if any), or a save.
    pub new_game: Option<Option<Player>>,
    pub save_path: String,
    pub save_now: bool,
}

/// A piece drawn for the current table; all are rebuilt when the table changes.
#[derive(Component)]
struct Piece;

#[derive(Resource)]
struct Palette {
    unit: Handle<Mesh>,
    cube: Handle<Mesh>,
    french: Handle<StandardMaterial>,
    british: Handle<StandardMaterial>,
    nations: Vec<Handle<StandardMaterial>>,
}

fn nation_world(game: &Vg, n: u8) -> Vec3 {
    let (x, y) = game.sc.nations[n as usize].pos;
    Vec3::new(x, 0.0, -y)
}

fn army_world(p: Player, i: usize) -> Vec3 {
    let z = if p == Player::France { 10.0 } else { -11.0 };
    Vec3::new(-3.0 + (i % 16) as f32 * 0.62, 0.12, z + (i / 16) as f32 * 0.5)
}

fn nation_color(name: &str) -> Color {
    match name {
        "France" => Color::srgb(0.15, 0.25, 0.75),
        "Britain" => Color::srgb(0.75, 0.12, 0.12),
        "Austria" => Color::srgb(0.85, 0.85, 0.85),
        "Prussia" => Color::srgb(0.35, 0.2, 0.45),
        "Russia" => Color::srgb(0.15, 0.5, 0.2),
        "Spain" => Color::srgb(0.9, 0.78, 0.15),
        "Germany" => Color::srgb(0.45, 0.7, 0.9),
        "Italy" => Color::srgb(0.95, 0.55, 0.15),
        "Poland" => Color::srgb(0.8, 0.35, 0.45),
        _ => Color::srgb(0.6, 0.6, 0.55),
    }
}

pub fn run(table: Table<Vg>, ai: Option<Player>, pace: f32, screenshot: Option<(PathBuf, String)>) -> i32 {
    // A solo save keeps its AI on the same side.
    let ai = ai.or(table.game.solo);
    let journal_path = default_journal_path().with_file_name("vg-journal.ron");
    let journal = if screenshot.is_some() {
        JournalRes(None)
    } else {
        match Journal::create(&journal_path, &vg::save_of(&table)) {
            Ok(j) => JournalRes(Some(j)),
            Err(e) => {
                error!("cannot write the journal {}: {e}", journal_path.display());
                JournalRes(None)
            }
        }
    };
    let human = ai.map(Player::other).unwrap_or(table.game.turn);
    let viewer = match screenshot.as_ref().map(|s| s.1.as_str()) {
        Some("spectator") => Viewer::Spectator,
        Some("britain" | "allied") => Viewer::Seat(SeatId(1)),
        Some(_) => Viewer::Seat(SeatId(0)),
        None => Viewer::Seat(seat_of(human)),
    };
    let shooting = screenshot.is_some();
    let session = VgSession {
        viewer,
        ai,
        pace,
        notice: None,
        panels_hidden: false,
        handover_to: None,
        last_active: table.game.active_seat(),
        result_winner: None,
        result_convert: false,
        result_lost: [0, 0],
        export_dir: PathBuf::from("battle-sheets"),
        screenshot: screenshot.map(|(p, _)| (p, 8)),
        new_game: None,
        save_path: "vg-save.ron".to_string(),
        save_now: false,
    };
    let mut app = App::new();
    super::app::window_app(&mut app, &table.game.sc.name, shooting);
    app.add_plugins(VgPlugin)
        .add_plugins(CameraPlugin)
        .insert_resource(TableRes(table))
        .insert_resource(journal)
        .insert_resource(session)
        .insert_resource(super::camera::HomeView {
            view: super::camera::OrbitCamera { focus: Vec3::new(2.5, 0.0, 0.0), distance: 37.0, yaw: 0.0, pitch: 1.3 },
            digit_views: false,
        })
        .add_systems(Startup, setup_map)
        .add_systems(Update, (computer_moves.before(TableSet::Apply), notices, follow_seat))
        .add_systems(Update, (dress_units, rebuild_pieces).chain().in_set(TableSet::Present))
        .add_systems(Update, game_menu.before(TableSet::Apply))
        .add_systems(
            Update,
            (hotkeys, take_screenshot, number_keys.run_if(not(bevy_egui::input::egui_wants_any_keyboard_input))),
        )
        .add_systems(EguiPrimaryContextPass, (labels, panels).chain());
    app.run();
    0
}

/// Loads a V&G scenario (new game, `ai` naming the solo AI's side) or save, for the window.
pub fn load(file: &Path, seed: u64, ai: Option<Player>) -> Result<Table<Vg>, String> {
    let text = crate::engine::scenario::read_text(file).map_err(|e| e.to_string())?;
    if crate::engine::save::looks_like_save(&text) {
        let save = crate::engine::save::SaveFile::<Action>::read(file).map_err(|e| e.to_string())?;
        vg::load_save(&save, file).map_err(|e| e.to_string())
    } else {
        vg::new_table(file, seed, ai).map_err(|e| e.to_string())
    }
}

fn setup_map(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    table: Res<TableRes<Vg>>,
) {
    let game = &table.0.game;
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(60.0, 0.4, 44.0))),
        MeshMaterial3d(materials.add(StandardMaterial { base_color: Color::srgb(0.33, 0.22, 0.14), ..default() })),
        Transform::from_xyz(2.0, -0.45, 0.0),
        Name::new("Table top"),
    ));
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(26.0, 0.1, 28.0))),
        MeshMaterial3d(materials.add(StandardMaterial { base_color: Color::srgb(0.80, 0.84, 0.86), ..default() })),
        Transform::from_xyz(1.5, -0.1, 0.0),
        Name::new("Map of Europe"),
    ));
    for (i, n) in game.sc.nations.iter().enumerate() {
        let base = nation_color(&n.name).to_srgba();
        let tint = Color::srgb(0.75 + base.red * 0.25, 0.72 + base.green * 0.25, 0.62 + base.blue * 0.25);
        let radius = match n.kind {
            NationKind::Player => 1.5,
            NationKind::Major => 1.35,
            NationKind::Minor => 1.1,
        };
        commands.spawn((
            Mesh3d(meshes.add(Cylinder::new(radius, 0.06))),
            MeshMaterial3d(materials.add(StandardMaterial { base_color: tint, ..default() })),
            Transform::from_translation(nation_world(game, i as u8)),
            Name::new(n.name.clone()),
        ));
    }
    let (sx, sy) = game.sc.seas_pos;
    commands.spawn((
        Mesh3d(meshes.add(Cylinder::new(1.6, 0.05))),
        MeshMaterial3d(materials.add(StandardMaterial { base_color: Color::srgb(0.3, 0.45, 0.7), ..default() })),
        Transform::from_xyz(sx, 0.0, -sy),
        Name::new("The sea"),
    ));
    let nations = game
        .sc
        .nations
        .iter()
        .map(|n| materials.add(StandardMaterial { base_color: nation_color(&n.name), ..default() }))
        .collect();
    commands.insert_resource(Palette {
        unit: meshes.add(Cuboid::new(0.5, 0.22, 0.36)),
        cube: meshes.add(Cuboid::new(0.2, 0.2, 0.2)),
        french: materials.add(StandardMaterial { base_color: Color::srgb(0.15, 0.3, 0.9), ..default() }),
        british: materials.add(StandardMaterial { base_color: Color::srgb(0.85, 0.1, 0.1), ..default() }),
        nations,
    });
}

/// Where each unit stands on the table, or None when it is in the unused stack.
fn unit_place(game: &Vg) -> Vec<Option<Vec3>> {
    let mut army_slots = [0usize; 2];
    let mut counts = std::collections::HashMap::new();
    (0..game.units.len())
        .map(|u| match game.units[u] {
            Loc::Pool => None,
            Loc::Army(p) => {
                let i = army_slots[p.index()];
                army_slots[p.index()] += 1;
                Some(army_world(p, i))
            }
            Loc::Holding => {
                let n = game.sc.units[u].nation;
                let k = counts.entry(("h", n as i32)).or_insert(0);
                *k += 1;
                Some(
                    nation_world(game, n) + Vec3::new(1.5 + (*k % 2) as f32 * 0.55, 0.12, 0.1 + (*k / 2) as f32 * 0.42),
                )
            }
            Loc::Campaign(c, p) => {
                let k = counts.entry(("c", c as i32 * 2 + p as i32)).or_insert(0);
                *k += 1;
                let side: f32 = if p == Player::France { 0.45 } else { -0.45 };
                Some(
                    campaign_world(game, c)
                        + Vec3::new(-1.0 + (*k % 4) as f32 * 0.55, 0.3, side + (*k / 4) as f32 * 0.4 * side.signum()),
                )
            }
        })
        .collect()
}

/// Where a campaign's units stand: on its region (or the sea); several campaigns in one region
/// sit around it, each on its own spot.
fn campaign_world(game: &Vg, c: u8) -> Vec3 {
    let region = game.campaigns[c as usize].region;
    let centre = match region {
        Some(n) => nation_world(game, n),
        None => Vec3::new(game.sc.seas_pos.0, 0.0, -game.sc.seas_pos.1),
    };
    let slot = game.open_campaigns().iter().filter(|&&o| o < c && game.campaigns[o as usize].region == region).count();
    let angle = slot as f32 * std::f32::consts::FRAC_PI_3;
    centre + if slot == 0 { Vec3::ZERO } else { Vec3::new(angle.cos(), 0.0, angle.sin()) * 3.0 }
}

/// Gives each unit entity of the rules plugin its block, in its nation's colour.
fn dress_units(
    mut commands: Commands,
    table: Res<TableRes<Vg>>,
    palette: Option<Res<Palette>>,
    units: Query<(Entity, &UnitPiece), Without<Mesh3d>>,
) {
    let Some(palette) = palette else { return };
    for (e, u) in &units {
        let n = table.0.game.unit_nation(u.0) as usize;
        commands.entity(e).insert((
            Mesh3d(palette.unit.clone()),
            MeshMaterial3d(palette.nations[n].clone()),
            Transform::default(),
            Visibility::Hidden,
        ));
    }
}

/// Places the unit blocks and redraws the influence cubes after every change.
#[allow(clippy::type_complexity)]
fn rebuild_pieces(
    mut commands: Commands,
    table: Res<TableRes<Vg>>,
    version: Res<TableVersion>,
    palette: Option<Res<Palette>>,
    pieces: Query<Entity, With<Piece>>,
    mut units: Query<(&UnitPiece, &mut Transform, &mut Visibility)>,
    mut done: Local<Option<(u64, usize)>>,
) {
    let Some(palette) = palette else { return };
    let dressed = units.iter().count();
    if *done == Some((version.0, dressed)) && !table.is_changed() {
        return;
    }
    *done = Some((version.0, dressed));
    for e in &pieces {
        commands.entity(e).despawn();
    }
    let game = &table.0.game;
    let places = unit_place(game);
    for (u, mut tf, mut vis) in &mut units {
        match places.get(u.0 as usize).copied().flatten() {
            Some(pos) => {
                tf.translation = pos;
                *vis = Visibility::Visible;
            }
            None => *vis = Visibility::Hidden,
        }
    }
    for (n, c) in game.influence.iter().enumerate() {
        let centre = nation_world(game, n as u8);
        for (side, count) in c.iter().enumerate() {
            for k in 0..*count as usize {
                let mat = if side == 0 { palette.french.clone() } else { palette.british.clone() };
                let x = if side == 0 { -0.75 } else { 0.55 };
                commands.spawn((
                    Piece,
                    Mesh3d(palette.cube.clone()),
                    MeshMaterial3d(mat),
                    Transform::from_translation(
                        centre + Vec3::new(x + (k % 3) as f32 * 0.23, 0.13 + (k / 3) as f32 * 0.21, 0.55),
                    ),
                ));
            }
        }
    }
}

/// Carries out the Game menu's requests: a new game on the same scenario, or a save.
fn game_menu(mut table: ResMut<TableRes<Vg>>, mut journal: ResMut<JournalRes>, mut session: ResMut<VgSession>) {
    if let Some(ai) = session.new_game.take() {
        let seed = super::app::clock_seed();
        let t = vg::table_on(table.0.game.sc.clone(), seed, ai);
        let path = journal.0.as_ref().map(|j| j.path().to_path_buf());
        if let Some(path) = path {
            journal.0 = Journal::create(&path, &vg::save_of(&t)).ok();
        }
        session.ai = ai;
        session.viewer = Viewer::Seat(seat_of(ai.map(Player::other).unwrap_or(t.game.turn)));
        session.last_active = t.game.active_seat();
        session.notice = None;
        table.0 = t;
    }
    if std::mem::take(&mut session.save_now) {
        let path = PathBuf::from(&session.save_path);
        session.notice = Some(match vg::save_of(&table.0).write(&path) {
            Ok(()) => format!("Saved to {}", path.display()),
            Err(e) => format!("Could not save {}: {e}", path.display()),
        });
    }
}

fn computer_moves(
    time: Res<Time>,
    table: Res<TableRes<Vg>>,
    session: Res<VgSession>,
    mut requests: MessageWriter<Request<Vg>>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut waited: Local<f32>,
    mut rng: Local<Option<TableRng>>,
) {
    let game = &table.0.game;
    let (Some(ai), Some(seat)) = (session.ai, game.active_seat()) else { return };
    if seat != seat_of(ai) {
        *waited = 0.0;
        return;
    }
    if !super::computer::paced(&time, &mut waited, session.pace, &mut redraw) {
        return;
    }
    let mut legal = Vec::new();
    game.legal_actions(table.0.mode, &mut legal);
    if legal.is_empty() {
        return;
    }
    let rng = rng.get_or_insert_with(|| TableRng::from_seed(table.0.seed ^ 0x501_0a1));
    // The AI decides on what its seat may see.
    let eyes = Viewer::Seat(seat_of(ai));
    let action = ai::choose(|| game.observe(eyes), &legal, VgPlayer::Solo, rng);
    info!("AI ({}): {}", ai.name(), action_label(game, &action));
    requests.write(Request::Act { seat, act: Act::Game(action) });
}

fn notices(mut outcomes: MessageReader<Outcome>, mut session: ResMut<VgSession>) {
    for o in outcomes.read() {
        session.notice = if o.accepted { None } else { Some(o.message.clone()) };
    }
}

/// Two people at one table: the view follows the decision, behind a hand-over screen.
fn follow_seat(table: Res<TableRes<Vg>>, mut session: ResMut<VgSession>) {
    if session.ai.is_some() || session.screenshot.is_some() {
        return;
    }
    let active = table.0.game.active_seat();
    if active != session.last_active {
        session.last_active = active;
        if let Some(seat) = active
            && session.viewer != Viewer::Seat(seat)
        {
            session.handover_to = Some(seat);
            session.viewer = Viewer::Seat(seat);
        }
    }
}

fn hotkeys(keys: Res<ButtonInput<KeyCode>>, mut session: ResMut<VgSession>, mut commands: Commands, mut n: Local<u32>) {
    if keys.just_pressed(KeyCode::KeyH) || keys.just_pressed(KeyCode::F11) {
        session.panels_hidden = !session.panels_hidden;
    }
    if keys.just_pressed(KeyCode::F12) {
        use bevy::render::view::screenshot::{Screenshot, save_to_disk};
        *n += 1;
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(format!("grognard-vg-{}.png", *n)));
    }
}

/// Keys 1 to 9 take the first nine orders listed, for play from the keyboard.
fn number_keys(
    keys: Res<ButtonInput<KeyCode>>,
    table: Res<TableRes<Vg>>,
    session: Res<VgSession>,
    mut requests: MessageWriter<Request<Vg>>,
) {
    const DIGITS: [KeyCode; 9] = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    let Some(i) = DIGITS.iter().position(|k| keys.just_pressed(*k)) else { return };
    if keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]) {
        return;
    }
    let game = &table.0.game;
    let Some(seat) = game.active_seat() else { return };
    if session.viewer != Viewer::Seat(seat) || session.ai == Some(player_of(seat)) || session.handover_to.is_some() {
        return;
    }
    let mut legal = Vec::new();
    game.legal_actions(table.0.mode, &mut legal);
    if let Some(a) = legal.get(i) {
        requests.write(Request::Act { seat, act: Act::Game(a.clone()) });
    }
}

fn take_screenshot(
    mut commands: Commands,
    mut session: ResMut<VgSession>,
    mut exit: MessageWriter<AppExit>,
    mut waited: Local<u32>,
) {
    super::app::screenshot_step(&mut commands, &mut session.screenshot, &mut waited, &mut exit);
}

/// Names, victory points and cube counts on the map; unit values the viewer may see.
fn labels(
    mut contexts: EguiContexts,
    table: Res<TableRes<Vg>>,
    session: Res<VgSession>,
    cams: Query<(&Camera, &GlobalTransform)>,
    blocks: Query<(&UnitPiece, &GlobalTransform, &Visibility)>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((cam, cam_tf)) = cams.single() else { return Ok(()) };
    let game = &table.0.game;
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, egui::Id::new("vg-labels")));
    let to_screen = |p: Vec3| cam.world_to_viewport(cam_tf, p).ok().map(|v| egui::pos2(v.x, v.y));
    let text = |pos: egui::Pos2, s: &str, size: f32, fg: egui::Color32, bg: egui::Color32| {
        let galley = painter.layout_no_wrap(s.to_string(), egui::FontId::proportional(size), fg);
        let rect = egui::Align2::CENTER_CENTER.anchor_size(pos, galley.size());
        painter.rect_filled(rect.expand(1.5), 2.0, bg);
        painter.galley(rect.min, galley, fg);
    };
    let era = game.era as usize;
    for (i, n) in game.sc.nations.iter().enumerate() {
        if let Some(p) = to_screen(nation_world(game, i as u8) + Vec3::new(0.0, 0.0, -1.5)) {
            let c = game.influence[i];
            let ally = match game.allies[i] {
                Some(p) => format!(" · allied to {}", p.name()),
                None => String::new(),
            };
            text(
                p,
                &format!("{} — {} VP this era · F {} / B {}{ally}", n.name, n.era_vp(era), c[0], c[1]),
                12.0,
                egui::Color32::from_rgb(30, 24, 18),
                egui::Color32::from_rgba_unmultiplied(245, 240, 225, 215),
            );
        }
    }
    for (label, pos) in [
        ("France's army", army_world(Player::France, 0) + Vec3::new(-0.2, 0.0, 0.7)),
        ("Britain's army", army_world(Player::Britain, 0) + Vec3::new(-0.2, 0.0, -0.6)),
        ("The sea (naval campaigns)", Vec3::new(game.sc.seas_pos.0, 0.0, -game.sc.seas_pos.1 - 1.9)),
    ] {
        if let Some(p) = to_screen(pos) {
            text(p, label, 12.0, egui::Color32::WHITE, egui::Color32::from_black_alpha(160));
        }
    }
    for c in game.open_campaigns() {
        if let Some(p) = to_screen(campaign_world(game, c) + Vec3::new(0.0, 0.3, 1.25)) {
            text(
                p,
                game.card_name(game.campaigns[c as usize].card),
                11.0,
                egui::Color32::WHITE,
                egui::Color32::from_rgba_unmultiplied(120, 30, 20, 200),
            );
        }
    }
    for (b, tf, vis) in &blocks {
        if *vis == Visibility::Hidden {
            continue;
        }
        let u = b.0;
        let seen = match game.units[u as usize] {
            Loc::Army(p) => session.viewer == Viewer::Seat(seat_of(p)),
            Loc::Campaign(c, p) => game.campaigns[c as usize].revealed || session.viewer == Viewer::Seat(seat_of(p)),
            Loc::Holding => true,
            Loc::Pool => false,
        };
        let d = &game.sc.units[u as usize];
        let s = if seen { format!("{}{}", &d.kind.name()[..1], d.value) } else { "?".to_string() };
        if let Some(p) = to_screen(tf.translation() + Vec3::Y * 0.15) {
            text(p, &s, 10.5, egui::Color32::WHITE, egui::Color32::from_black_alpha(170));
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn panels(
    mut contexts: EguiContexts,
    table: Res<TableRes<Vg>>,
    mut session: ResMut<VgSession>,
    mut requests: MessageWriter<Request<Vg>>,
    windows: Query<&Window>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let game = &table.0.game;
    if let Some(seat) = session.handover_to {
        if crate::ui::panels::handover_screen(&ctx, player_of(seat).name()) {
            session.handover_to = None;
        }
        return Ok(());
    }
    if session.panels_hidden {
        return Ok(());
    }
    let height = windows.iter().next().map(|w| w.height()).unwrap_or(800.0);
    let my_seat = match session.viewer {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    // Orders.
    egui::Window::new("Orders").anchor(egui::Align2::LEFT_TOP, [6.0, 6.0]).default_width(360.0).resizable(false).show(
        &ctx,
        |ui| {
            ui.collapsing("Game", |ui| {
                ui.horizontal_wrapped(|ui| {
                    if ui.button("New: solo, AI Britain").clicked() {
                        session.new_game = Some(Some(Player::Britain));
                    }
                    if ui.button("New: solo, AI France").clicked() {
                        session.new_game = Some(Some(Player::France));
                    }
                    if ui.button("New: two players").clicked() {
                        session.new_game = Some(None);
                    }
                });
                ui.horizontal(|ui| {
                    ui.text_edit_singleline(&mut session.save_path);
                    if ui.button("Save").clicked() {
                        session.save_now = true;
                    }
                });
                ui.label(egui::RichText::new("A save opens with: grognard play <file>").small());
            });
            ui.label(egui::RichText::new(prompt(game)).strong());
            if let Some(n) = &session.notice {
                ui.colored_label(egui::Color32::from_rgb(220, 70, 60), n);
            }
            let active = game.active_seat();
            if active.is_some()
                && active == my_seat
                && !matches!(game.pending.first(), Some(Pending::TabletopResult { .. }))
            {
                let mut legal = Vec::new();
                game.legal_actions(table.0.mode, &mut legal);
                ui.label(egui::RichText::new("Keys 1-9 take the first nine orders").small());
                egui::ScrollArea::vertical().max_height(height * 0.45).show(ui, |ui| {
                    for (i, a) in legal.into_iter().enumerate() {
                        let label = if i < 9 {
                            format!("{}. {}", i + 1, action_label(game, &a))
                        } else {
                            action_label(game, &a)
                        };
                        if ui.add(egui::Button::new(label).wrap()).clicked() {
                            requests.write(Request::Act { seat: active.expect("checked"), act: Act::Game(a) });
                        }
                    }
                });
            } else if matches!(game.pending.first(), Some(Pending::TabletopResult { .. })) {
                ui.label("Fight the battle with the battle sheet, then enter its result there.");
            } else if let Some(a) = active {
                let who = player_of(a);
                ui.label(format!(
                    "Waiting for {}{}",
                    who.name(),
                    if session.ai == Some(who) { " (the solo AI)" } else { "" }
                ));
            }
            if table.0.can_undo() && ui.button("Undo").clicked() {
                requests.write(Request::Undo);
            }
        },
    );
    // Tracks.
    egui::Window::new("Victory & Glory track")
        .anchor(egui::Align2::CENTER_TOP, [0.0, 6.0])
        .title_bar(false)
        .resizable(false)
        .show(&ctx, |ui| {
            let era = &game.sc.eras[game.era as usize];
            let status = match game.phase {
                Phase::EraEnd => format!("End of the era · {} ({}): campaigns, then scoring", era.name, era.years),
                Phase::GameOver => "The game is over".to_string(),
                _ => format!(
                    "Round {} of 9 · {} ({}) · {} to play",
                    game.round + 1,
                    era.name,
                    era.years,
                    game.turn.name()
                ),
            };
            ui.label(egui::RichText::new(status).strong());
            egui::Grid::new("tracks").show(ui, |ui| {
                for h in ["", "VP", "Economy", "Leadership", "Cards played", "Own units"] {
                    ui.label(h);
                }
                ui.end_row();
                for p in Player::BOTH {
                    ui.label(format!("{}{}", p.name(), if session.ai == Some(p) { " (AI)" } else { "" }));
                    ui.label(game.vp[p.index()].to_string());
                    ui.label(game.economy[p.index()].to_string());
                    ui.label(game.leadership[p.index()].to_string());
                    ui.label(format!("{} / {}", game.played[p.index()], game.quota[p.index()]));
                    ui.label(game.national_units(p).to_string());
                    ui.end_row();
                }
            });
        });
    // Hand.
    egui::Window::new("Hand")
        .anchor(egui::Align2::LEFT_BOTTOM, [6.0, -6.0])
        .default_width(420.0)
        .resizable(false)
        .show(&ctx, |ui| {
            egui::ScrollArea::vertical().max_height(height * 0.22).show(ui, |ui| match session.viewer {
                Viewer::Seat(s) => {
                    let p = player_of(s);
                    ui.label(egui::RichText::new(format!("{}'s hand", p.name())).strong());
                    for &c in &game.hands[p.index()] {
                        ui.label(egui::RichText::new(card_text(game, c)).small());
                    }
                    if !game.in_front[p.index()].is_empty() {
                        ui.label(egui::RichText::new("In front of you (campaigns to reinforce):").strong());
                        for &c in &game.in_front[p.index()] {
                            ui.label(egui::RichText::new(card_text(game, c)).small());
                        }
                    }
                    ui.label(format!("{} holds {} cards", p.other().name(), game.hands[p.other().index()].len()));
                }
                Viewer::Spectator => {
                    for p in Player::BOTH {
                        ui.label(format!("{}: {} cards", p.name(), game.hands[p.index()].len()));
                    }
                }
            });
        });
    // Campaigns and log.
    egui::Window::new("Campaigns and log")
        .anchor(egui::Align2::RIGHT_BOTTOM, [-6.0, -6.0])
        .default_width(380.0)
        .resizable(false)
        .show(&ctx, |ui| {
            for c in game.open_campaigns() {
                let camp = &game.campaigns[c as usize];
                let side = |p: Player| -> String {
                    let units = game.committed(c, p);
                    if camp.revealed || session.viewer == Viewer::Seat(seat_of(p)) {
                        units.iter().map(|&u| game.unit_label(u)).collect::<Vec<_>>().join(", ")
                    } else {
                        format!("{} unit(s) face down", units.len())
                    }
                };
                ui.label(
                    egui::RichText::new(format!("{} {}", game.card_name(camp.card), game.region_name(c))).strong(),
                );
                ui.label(
                    egui::RichText::new(format!(
                        "France: {} · Britain: {}",
                        side(Player::France),
                        side(Player::Britain)
                    ))
                    .small(),
                );
                if camp.revealed {
                    ui.label(
                        egui::RichText::new(format!(
                            "Battle strength: France {} · Britain {}",
                            game.battle_strength(c, Player::France),
                            game.battle_strength(c, Player::Britain)
                        ))
                        .small(),
                    );
                }
            }
            ui.separator();
            egui::ScrollArea::vertical().stick_to_bottom(true).max_height(height * 0.3).show(ui, |ui| {
                for e in table.0.entries.iter().rev().take(150).collect::<Vec<_>>().into_iter().rev() {
                    if let Entry::Game { event, .. } = e {
                        ui.label(egui::RichText::new(event).small());
                    }
                }
            });
        });
    // The miniatures battle sheet and its result.
    if let Some(Pending::TabletopResult { campaign, chooser }) = game.pending.first().cloned() {
        battle_window(&ctx, game, campaign, chooser, &mut session, &mut requests);
    }
    if game.phase == Phase::GameOver {
        egui::Window::new("Final score").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).resizable(false).show(
            &ctx,
            |ui| {
                ui.heading(prompt(game));
            },
        );
    }
    Ok(())
}

fn battle_window(
    ctx: &egui::Context,
    game: &Vg,
    c: u8,
    chooser: Player,
    session: &mut VgSession,
    requests: &mut MessageWriter<Request<Vg>>,
) {
    let sheet = miniatures::battle_sheet(game, c);
    egui::Window::new(format!("Battle sheet — {} ({})", sheet.campaign, sheet.region))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 30.0])
        .default_width(560.0)
        .resizable(false)
        .show(ctx, |ui| {
            ui.columns(2, |cols| {
                for (i, s) in sheet.sides.iter().enumerate() {
                    let ui = &mut cols[i];
                    ui.label(egui::RichText::new(s.player.name()).strong().size(16.0));
                    ui.label(format!(
                        "Leadership {}: Command Rating {}, {} general(s)",
                        s.leadership, s.command_rating, s.generals
                    ));
                    for corps in &s.corps {
                        let parts: Vec<String> =
                            corps.units.iter().map(|(n, k, st)| format!("{k} {n} ({st})")).collect();
                        ui.label(
                            egui::RichText::new(format!("{} — {}: {}", corps.unit, corps.quality, parts.join(" + ")))
                                .small(),
                        );
                    }
                    ui.label(format!("{} tabletop units, {} stands", s.tabletop_units, s.stands));
                    ui.label(
                        egui::RichText::new(format!("Wins by eliminating {} enemy units (50%)", s.to_win)).strong(),
                    );
                }
            });
            ui.separator();
            if ui.button("Export the sheet (printable HTML + RON)").clicked() {
                let stem = sheet.campaign.to_lowercase().replace(|ch: char| !ch.is_alphanumeric(), "-");
                session.notice = Some(match miniatures::export(&sheet, &session.export_dir, &stem) {
                    Ok([h, r]) => format!("Battle sheet written: {} and {}", h.display(), r.display()),
                    Err(e) => format!("Could not write the battle sheet: {e}"),
                });
            }
            ui.separator();
            ui.label(egui::RichText::new("The result of the tabletop battle").strong());
            let before = (session.result_winner, session.result_convert, session.result_lost);
            ui.horizontal(|ui| {
                ui.label("Winner:");
                ui.radio_value(&mut session.result_winner, Some(Player::France), "France");
                ui.radio_value(&mut session.result_winner, Some(Player::Britain), "Britain");
            });
            ui.checkbox(
                &mut session.result_convert,
                "Convert the tabletop losses at the corps ratio (both players agree)",
            );
            if session.result_convert {
                ui.horizontal(|ui| {
                    ui.label("Tabletop units lost — France:");
                    ui.add(egui::DragValue::new(&mut session.result_lost[0]).range(0..=200));
                    ui.label("Britain:");
                    ui.add(egui::DragValue::new(&mut session.result_lost[1]).range(0..=200));
                });
            }
            if (session.result_winner, session.result_convert, session.result_lost) != before {
                session.notice = None; // an old refusal no longer applies to the changed entry
            }
            if ui.button("Enter the result").clicked() {
                let lost = session.result_convert.then_some(session.result_lost);
                requests.write(Request::Act {
                    seat: seat_of(chooser),
                    act: Act::Game(Action::TabletopResult { campaign: c, winner: session.result_winner, lost }),
                });
            }
            if let Some(n) = &session.notice {
                ui.colored_label(egui::Color32::from_rgb(220, 70, 60), n);
            }
        });
}
