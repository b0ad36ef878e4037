//! Victory & Glory in the window (gui build): the map of nations with influence cubes, the armies
//! in front of each player, holding areas and campaigns as unit blocks, and this game's panels
//! (tracks, hand, campaigns, the miniatures battle sheet with its result entry), plus what the
//! shared table asks of a game (`TableGame`). Units and hands are read through the viewer's eyes.

pub mod lesson;
mod map;

use super::ai::{self, VgPlayer};
use super::miniatures;
use super::observe::UnitFace;
use super::plugin::{UnitAt, UnitPiece, VgPhase, VgPlugin};
use super::rules::seat_of;
use super::state::{Loc, Pending, Phase, Vg};
use super::text::{action_label, card_text, prompt};
use super::{Action, Player};
use crate::engine::plugin::Eyes;
use crate::engine::plugin::{Request, TableSet, TableVersion};
use crate::engine::rng::TableRng;
use crate::engine::rules::Game;
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::seen::Seen;
use crate::engine::standing::{Score, Standing};
use crate::engine::table::Act;
use crate::table::camera::{HomeView, OrbitCamera};
use crate::table::printed::{BackPrint, CardPrint, CounterPrint, Prints, Symbol, fan, print_sides};
use crate::table::session::Session;
use crate::table::{NewGame, Started, TableGame};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use map::{Geo, Palette, army_world, nation_color};
use std::path::Path;

impl TableGame for Vg {
    const OWN_WINDOW: Option<fn(&Path, &crate::engine::entry::WindowOptions) -> i32> = Some(super::kit::open_window);
    // The campaigns' panel holds the top right and the log the bottom: the By hand panel sits
    // between them.
    const HAND_PANEL: (bevy_egui::egui::Align2, [f32; 2]) = (bevy_egui::egui::Align2::RIGHT_CENTER, [-6.0, -30.0]);

    // The book's solo AI first (section XV), then the levels every game has.
    const LEVELS: &'static [&'static str] = &["solo AI", "beginner", "normal", "strong", "expert"];
    // The computer's side is part of the game (the solo AI's by section XV): chosen with a new game.
    const FREE_COMPUTER_SEATS: bool = false;
    const DIGIT_ORDERS: bool = true;
    const HELP: &'static str = "Right-drag: orbit · Middle-drag or WASD/arrows: pan · Wheel: zoom · Space: reset view\n\
1..9: take the first nine orders · R: roll dice in the tray · Ctrl+Z: undo (back to the last draw or hand-over)\n\
H or F11: hide every panel (the clean picture for streaming: a spectator's view, no hand) · F12: screenshot · F1: this help";

    const HINTS: bool = true;

    fn hint(&self, seat: SeatId, rng: &mut TableRng) -> Vec<crate::engine::search::Estimate<Action>> {
        let view = self.observe(Viewer::Seat(seat));
        crate::engine::search::hint::<Vg>(&view, seat, &ai::STRONG, rng)
    }

    fn chance(&self, viewer: Viewer, rng: &mut TableRng) -> Option<f32> {
        Some(crate::engine::search::shown_estimate::<Vg>(&self.observe(viewer), SeatId(0), 8, rng))
    }

    fn computer_choice(&self, seat: SeatId, legal: &[Action], level: usize, rng: &mut TableRng) -> Action {
        let player = [VgPlayer::Solo, VgPlayer::Beginner, VgPlayer::Normal, VgPlayer::Strong, VgPlayer::Expert]
            .get(level)
            .copied()
            .unwrap_or(VgPlayer::Normal);
        crate::engine::kit::Kit::choose(self, seat, legal, player, rng)
    }

    fn action_label(&self, action: &Action) -> String {
        action_label(self, action)
    }

    fn lesson(&self, seat: SeatId, legal: &[Action]) -> crate::table::lesson::Coach<Action> {
        lesson::coach(self, seat, legal)
    }

    fn space_on_table(&self, space: crate::engine::geometry::SpaceId) -> Option<(Vec3, f32)> {
        // A Victory & Glory space is a nation, ringed round its name on the map.
        ((space.0 as usize) < self.sc.nations.len()).then(|| (map::Geo::of(self).nation(space.0 as u8), 0.9))
    }

    fn places_of(&self, action: &Action) -> Vec<crate::engine::geometry::SpaceId> {
        use crate::engine::geometry::SpaceId;
        // An event card: the nations its text names (influence, recruits, an alliance).
        if let Action::PlayCard { card, text } = action {
            use crate::games::vg::data::Effect;
            let Some(c) = self.sc.cards.get(*card as usize) else { return Vec::new() };
            let effects: &[Effect] = match text {
                crate::games::vg::state::Text::Body => &c.body,
                crate::games::vg::state::Text::Bottom => c.bottom.as_slice(),
            };
            let mut out: Vec<SpaceId> = Vec::new();
            for e in effects {
                if let Effect::Influence(_, Some(n), _) | Effect::Recruit(_, Some(n), _) | Effect::Alliance(_, n) = e {
                    let s = SpaceId(*n as u16);
                    if !out.contains(&s) {
                        out.push(s);
                    }
                }
            }
            return out;
        }
        // The nation a card or an order acts on (a campaign at sea has none).
        let nation = match action {
            Action::PlaceInfluence(n) | Action::RemoveInfluence(n) | Action::RecruitFrom(n) | Action::Ally(n) => {
                Some(*n)
            }
            Action::PlayCampaign { card } => {
                self.sc.cards.get(*card as usize).and_then(|c| c.campaign.as_ref()).and_then(|c| c.region)
            }
            Action::Resolve(c) | Action::FightOnTable(c) | Action::TabletopResult { campaign: c, .. } => {
                self.campaigns.get(*c as usize).and_then(|c| c.region)
            }
            _ => None,
        };
        nation.map(|n| SpaceId(n as u16)).into_iter().collect()
    }

    fn prompt(&self) -> String {
        prompt(self)
    }

    fn status(&self) -> String {
        let era = &self.sc.eras[(self.era as usize).min(self.sc.eras.len() - 1)];
        let Standing { turn: Some((_, round)), score: Some(score) } = self.standing() else { unreachable!() };
        format!("Round {round} of 9 · {} ({}) · {score}", era.name, era.years)
    }

    fn standing(&self) -> Standing {
        let score = Score::two("VP", ("France", self.vp[0] as f32), ("Britain", self.vp[1] as f32));
        // After the ninth round the game is over: its status stays on the last round.
        Standing { turn: Some(("Round", (self.round as u32 + 1).min(9))), score: Some(score) }
    }

    fn orders_elsewhere(&self) -> Option<&'static str> {
        matches!(self.pending.first(), Some(Pending::TabletopResult { .. }))
            .then_some("Fight the battle with the battle sheet, then enter its result there.")
    }

    fn new_games(_game: &Vg) -> Vec<NewGame> {
        ["New: you play France, the computer Britain", "New: you play Britain, the computer France", "New: two players"]
            .iter()
            .enumerate()
            .map(|(choice, l)| NewGame { label: l.to_string(), choice })
            .collect()
    }

    fn start(
        game: &Vg,
        choice: usize,
        seed: u64,
        _computers: &[Option<usize>],
        level: usize,
    ) -> Result<Started<Vg>, String> {
        let computer = [Some(Player::Britain), Some(Player::France), None].get(choice).copied().flatten();
        // The solo AI (level 0) plays the solo game of section XV; a level plays a table of two.
        let solo = computer.filter(|_| level == 0);
        let t = super::table_on(game.sc.clone(), seed, solo);
        let computers = Player::BOTH.iter().map(|&p| (Some(p) == computer).then_some(level)).collect();
        Ok(Started { table: t, computers: Some(computers) })
    }

    fn add_view(app: &mut App) {
        app.add_plugins(VgPlugin)
            .init_resource::<BattleEntry>()
            .insert_resource(HomeView {
                view: OrbitCamera { focus: Vec3::new(2.5, 0.0, 0.6), distance: 43.0, yaw: 0.0, pitch: 1.3 },
                digit_views: false,
            })
            .init_resource::<Prints>()
            .add_systems(Startup, map::setup_map)
            .add_systems(Update, (dress_units, rebuild_pieces).chain().in_set(TableSet::Present))
            .add_systems(OnExit(VgPhase::Tabletop), |mut entry: ResMut<BattleEntry>| *entry = BattleEntry::default())
            .add_systems(
                EguiPrimaryContextPass,
                (
                    labels,
                    panels,
                    battle_window.run_if(in_state(VgPhase::Tabletop)),
                    final_score.run_if(in_state(VgPhase::GameOver)),
                )
                    .chain()
                    .in_set(crate::ui::GamePanels),
            );
    }
}

/// The tabletop result being typed in: winner, whether losses are converted, losses per side.
#[derive(Resource, Default)]
pub struct BattleEntry {
    pub winner: Option<Player>,
    pub convert: bool,
    pub lost: [u16; 2],
}

/// A piece drawn for the current table; all are rebuilt when the table changes.
#[derive(Component)]
struct Piece;

/// Where each unit stands on the table (by where the mirror has it) and which way its sticker
/// faces, or None when it is in the unused stack. As blocks do for the player across the table,
/// a block shows these eyes its sticker only where they know the unit, its blank back otherwise;
/// in a holding area it lies face up or face down. Blocks in one place stand in rows, each showing
/// its edge.
fn unit_place(game: &Vg, geo: &Geo, places: &[(Loc, bool)]) -> Vec<Option<(Vec3, Quat)>> {
    let mut army_slots = [0usize; 2];
    let mut counts = std::collections::HashMap::new();
    // Leaning back a little, as blocks stand in a rack, so they read from above.
    let lean = Quat::from_rotation_x(-0.5);
    let facing = |known: bool| if known { lean } else { Quat::from_rotation_y(std::f32::consts::PI) * lean };
    (0..places.len())
        .map(|u| match places[u].0 {
            Loc::Pool => None,
            Loc::Army(p) => {
                let i = army_slots[p.index()];
                army_slots[p.index()] += 1;
                Some((army_world(p, i) + Vec3::Y * 0.23, facing(places[u].1)))
            }
            Loc::Holding => {
                let n = game.sc.units[u].nation;
                let k = counts.entry(("h", n as i32)).or_insert(0);
                *k += 1;
                let lying = Quat::from_rotation_x(if places[u].1 { -1.0 } else { 1.0 } * std::f32::consts::FRAC_PI_2);
                Some((
                    geo.nation(n) + Vec3::new(1.45 + (*k % 2) as f32 * 0.47, 0.09, -0.2 + (*k / 2) as f32 * 0.5),
                    lying,
                ))
            }
            Loc::Campaign(c, p) => {
                let k = counts.entry(("c", c as i32 * 2 + p as i32)).or_insert(0);
                *k += 1;
                let side: f32 = if p == Player::France { 0.75 } else { -0.75 };
                Some((
                    campaign_world(game, geo, c)
                        + Vec3::new(-0.75 + (*k % 4) as f32 * 0.47, 0.23, side + (*k / 4) as f32 * 0.3 * side.signum()),
                    facing(places[u].1),
                ))
            }
        })
        .collect()
}

/// Where a campaign's battle marker stands: on its region (or the sea); several campaigns in one
/// region sit around it, each on its own spot.
fn campaign_world(game: &Vg, geo: &Geo, c: u8) -> Vec3 {
    let region = game.campaigns[c as usize].region;
    let centre = match region {
        Some(n) => geo.nation(n),
        None => geo.sea,
    };
    let slot = game.open_campaigns().iter().filter(|&&o| o < c && game.campaigns[o as usize].region == region).count();
    let angle = slot as f32 * std::f32::consts::FRAC_PI_3;
    centre + if slot == 0 { Vec3::ZERO } else { Vec3::new(angle.cos(), 0.0, angle.sin()) * 3.0 }
}

/// On a unit block: its sticker, printed when these eyes know the unit, blank otherwise.
#[derive(Component)]
struct Sticker(Entity);

fn unit_symbol(kind: super::data::UnitKind) -> Symbol {
    match kind {
        super::data::UnitKind::Infantry => Symbol::Infantry,
        super::data::UnitKind::Cavalry => Symbol::Cavalry,
        super::data::UnitKind::Artillery => Symbol::Artillery,
        super::data::UnitKind::Navy => Symbol::Navy,
    }
}

fn rgb(c: Color) -> [u8; 3] {
    let [r, g, b, _] = c.to_srgba().to_u8_array();
    [r, g, b]
}

/// A unit's sticker: its nation, its kind's symbol and its value.
fn unit_print(game: &Vg, u: u8) -> CounterPrint {
    let d = &game.sc.units[u as usize];
    let name = game.sc.nation_name(d.nation).to_string();
    let ground = rgb(nation_color(&name));
    let light = ground.iter().map(|&c| c as u32).sum::<u32>() > 500;
    CounterPrint {
        name,
        symbol: unit_symbol(d.kind),
        values: d.value.to_string(),
        ground,
        ink: if light { [30, 24, 18] } else { [255, 255, 255] },
    }
}

/// Gives each unit entity of the rules plugin its block, in its nation's colour, with a sticker.
fn dress_units(
    mut commands: Commands,
    seen: Res<Seen<Vg>>,
    palette: Option<Res<Palette>>,
    units: Query<(Entity, &UnitPiece), Without<Mesh3d>>,
) {
    let (Some(palette), Some(game)) = (palette, seen.game()) else { return };
    for (e, u) in &units {
        let n = game.unit_nation(u.0) as usize;
        let sticker = commands
            .spawn((
                Mesh3d(palette.sticker.clone()),
                MeshMaterial3d(palette.nations[n].clone()),
                Transform::from_xyz(0.0, 0.0, 0.082),
                ChildOf(e),
            ))
            .id();
        commands.entity(e).insert((
            Mesh3d(palette.block.clone()),
            MeshMaterial3d(palette.wood.clone()),
            Transform::default(),
            Visibility::Hidden,
            Sticker(sticker),
        ));
    }
}

/// Places the unit blocks, prints their stickers as far as the eyes know them, and redraws the
/// influence cubes, the campaigns' battle markers and the hands after every change.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn rebuild_pieces(
    mut commands: Commands,
    seen: Res<Seen<Vg>>,
    version: Res<TableVersion>,
    palette: Option<Res<Palette>>,
    geo: Option<Res<Geo>>,
    eyes: Res<Eyes>,
    mut prints: ResMut<Prints>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    pieces: Query<Entity, With<Piece>>,
    mut units: Query<(&UnitPiece, &UnitAt, &Sticker, &mut Transform, &mut Visibility)>,
    mut done: Local<Option<(u64, usize, Viewer)>>,
) {
    let (Some(palette), Some(geo)) = (palette, geo) else { return };
    let dressed = units.iter().count();
    if *done == Some((version.0, dressed, eyes.0)) && !seen.is_changed() {
        return;
    }
    *done = Some((version.0, dressed, eyes.0));
    for e in &pieces {
        commands.entity(e).despawn();
    }
    let (Some(game), Some(view)) = (seen.game(), seen.view.as_ref()) else { return };
    let mut mirror = vec![(Loc::Pool, false); game.sc.units.len()];
    for (u, at, _, _, _) in &units {
        if let Some(slot) = mirror.get_mut(u.0 as usize) {
            *slot = (at.0, at.1);
        }
    }
    let places = unit_place(game, &geo, &mirror);
    for (u, at, sticker, mut tf, mut vis) in &mut units {
        match places.get(u.0 as usize).copied().flatten() {
            Some((pos, rot)) => {
                tf.translation = pos;
                tf.rotation = rot;
                *vis = Visibility::Visible;
            }
            None => *vis = Visibility::Hidden,
        }
        // The mirror knows a unit's identity only where these eyes may: a blank sticker else.
        let mat = if at.1 {
            prints.counter(&unit_print(game, u.0), &mut images, &mut materials)
        } else {
            palette.nations[game.unit_nation(u.0) as usize].clone()
        };
        commands.entity(sticker.0).insert(MeshMaterial3d(mat));
    }
    for (n, c) in game.influence.iter().enumerate() {
        let centre = geo.nation(n as u8);
        for (side, count) in c.iter().enumerate() {
            for k in 0..*count as usize {
                let mat = if side == 0 { palette.french.clone() } else { palette.british.clone() };
                let x = if side == 0 { -0.75 } else { 0.55 };
                commands.spawn((
                    Piece,
                    Mesh3d(palette.cube.clone()),
                    MeshMaterial3d(mat),
                    Transform::from_translation(
                        centre + Vec3::new(x + (k % 3) as f32 * 0.23, 0.1 + (k / 3) as f32 * 0.21, 0.55),
                    ),
                ));
            }
        }
    }
    // Each open campaign: a round battle marker printed with its battle's name.
    for c in game.open_campaigns() {
        let name = game.card_name(game.campaigns[c as usize].card).trim_start_matches("Battle of ").to_string();
        let print = CounterPrint {
            name,
            symbol: Symbol::Battle,
            values: String::new(),
            ground: [150, 40, 30],
            ink: [250, 240, 220],
        };
        let top = prints.counter(&print, &mut images, &mut materials);
        let at = campaign_world(game, &geo, c);
        commands
            .spawn((
                Piece,
                Mesh3d(palette.marker.clone()),
                MeshMaterial3d(palette.wood.clone()),
                Transform::from_translation(at + Vec3::Y * 0.06),
            ))
            .with_child((
                Mesh3d(palette.marker_face.clone()),
                MeshMaterial3d(top),
                Transform::from_xyz(0.0, 0.062, 0.0),
            ));
    }
    // The hands, through the eyes: printed cards fanned in front of their seat where the eyes may
    // read them, backs otherwise.
    let back = prints.card_back(
        &BackPrint { title: "Victory & Glory".into(), colour: [40, 60, 100] },
        &mut images,
        &mut materials,
    );
    for p in Player::BOTH {
        let (centre, outward) =
            if p == Player::France { (Vec3::new(9.0, 0.0, 16.2), 1.0) } else { (Vec3::new(9.0, 0.0, -16.4), -1.0) };
        let cards: Vec<Option<u16>> = match &view.hands[p.index()] {
            Ok(cards) => cards.iter().map(|&c| Some(c)).collect(),
            Err(n) => vec![None; *n],
        };
        for (i, card) in cards.iter().enumerate() {
            let (pos, yaw) = fan(centre, outward, i, cards.len());
            let face = match card {
                Some(c) => prints.card_face(&card_print(game, *c), &mut images, &mut materials),
                None => back.clone(),
            };
            let e = commands
                .spawn((
                    Piece,
                    Mesh3d(palette.card.clone()),
                    MeshMaterial3d(palette.wood.clone()),
                    // Printed to read from the camera's side, where every seat looks from.
                    Transform::from_translation(pos).with_rotation(Quat::from_rotation_y(yaw)),
                ))
                .id();
            print_sides(&mut commands, e, palette.card_plane.clone(), 0.02, face, back.clone());
        }
    }
}

/// A Victory & Glory card's printed face.
fn card_print(game: &Vg, c: u16) -> CardPrint {
    let card = &game.sc.cards[c as usize];
    let (kind, body) = super::text::card_print_text(game, c);
    CardPrint {
        title: card.name.clone(),
        kind,
        body,
        corner: String::new(),
        provenance: if card.source.is_some() { "rulebook" } else { "reconstructed" }.to_string(),
        accent: if card.campaign.is_some() { [130, 45, 35] } else { [45, 70, 110] },
    }
}

/// Names, victory points and cube counts on the map; unit values the viewer may see.
fn labels(
    mut contexts: EguiContexts,
    seen: Res<Seen<Vg>>,
    session: Res<Session>,
    cams: Query<(&Camera, &GlobalTransform), Without<crate::table::dice::TrayView>>,
    blocks: Query<(&UnitPiece, &UnitAt, &GlobalTransform, &Visibility)>,
    geo: Option<Res<Geo>>,
) -> Result {
    let Some(geo) = geo else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let Ok((cam, cam_tf)) = cams.single() else { return Ok(()) };
    let Some(game) = seen.game() else { return Ok(()) };
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, egui::Id::new("vg-labels")));
    // egui's points are the window's pixels divided by the panel size setting.
    let zoom = ctx.zoom_factor();
    let to_screen = |p: Vec3| cam.world_to_viewport(cam_tf, p).ok().map(|v| egui::pos2(v.x / zoom, v.y / zoom));
    // Pieces' own labels first (fixed on them), then the places' names set around them, so that
    // no two labels meet.
    let mut labels = crate::table::layout::LabelPainter::new(&painter);
    let dark = Some(egui::Color32::from_black_alpha(170));
    for (b, at, tf, vis) in &blocks {
        if *vis == Visibility::Hidden {
            continue;
        }
        // The mirror knows a unit's identity only where these eyes may.
        let p = tf.translation();
        if to_screen(p).zip(to_screen(p + Vec3::X * 0.42)).is_some_and(|(a, b)| (b - a).length() >= 30.0) {
            continue;
        }
        let d = &game.sc.units[b.0 as usize];
        let s = if at.1 { format!("{}{}", &d.kind.name()[..1], d.value) } else { "?".to_string() };
        // Set where it meets no other block's: blocks stand close in a nation, and their
        // labels ran together ("C2A2N2") or over one another.
        if let Some(p) = to_screen(tf.translation() + Vec3::Y * 0.15) {
            labels.placed_plain(p, &s, 10.5, egui::Color32::WHITE, dark);
        }
    }
    if session.viewer == Viewer::Spectator
        && let Some(p) = to_screen(Vec3::new(2.5, 0.0, 13.0))
    {
        let note = "Spectator view: hands and face-down units are not shown";
        labels.fixed(p, note, 11.0, egui::Color32::from_gray(230), Some(egui::Color32::from_black_alpha(120)));
    }
    let era = game.era as usize;
    let paper = Some(egui::Color32::from_rgba_unmultiplied(245, 240, 225, 215));
    for (i, n) in game.sc.nations.iter().enumerate() {
        if let Some(p) = to_screen(geo.nation(i as u8) + Vec3::new(0.0, 0.0, -1.5)) {
            let c = game.influence[i];
            let ally = match game.allies[i] {
                Some(p) => format!("\nallied to {}", p.name()),
                None => String::new(),
            };
            // Two short lines rather than one long one: a long line pushed aside by its
            // neighbours' lay over the next country (Germany's in the Channel).
            let text = format!("{}\n{} VP this era · F {} / B {}{ally}", n.name, n.era_vp(era), c[0], c[1]);
            labels.placed(p, &text, 12.0, egui::Color32::from_rgb(30, 24, 18), paper);
        }
    }
    for c in game.open_campaigns() {
        // Close enough to read the battle marker's print, it speaks for itself.
        let at = campaign_world(game, &geo, c);
        if to_screen(at).zip(to_screen(at + Vec3::X)).is_some_and(|(a, b)| (b - a).length() >= 60.0) {
            continue;
        }
        if let Some(p) = to_screen(at + Vec3::new(0.0, 0.3, 0.8)) {
            let red = Some(egui::Color32::from_rgba_unmultiplied(120, 30, 20, 200));
            labels.placed(p, game.card_name(game.campaigns[c as usize].card), 11.0, egui::Color32::WHITE, red);
        }
    }
    for (label, pos) in [
        ("France's army", army_world(Player::France, 0) + Vec3::new(-0.2, 0.0, 0.7)),
        ("Britain's army", army_world(Player::Britain, 0) + Vec3::new(-0.2, 0.0, -0.6)),
        ("The sea (naval campaigns)", geo.sea + Vec3::new(0.0, 0.0, -1.9)),
    ] {
        if let Some(p) = to_screen(pos) {
            labels.placed(p, label, 12.0, egui::Color32::WHITE, Some(egui::Color32::from_black_alpha(160)));
        }
    }
    Ok(())
}

/// The tracks, the hand and the campaigns, read through the viewer's eyes.
fn panels(mut contexts: EguiContexts, seen: Res<Seen<Vg>>, session: Res<Session>, windows: Query<&Window>) -> Result {
    if session.covered() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    // Everything through the gate: the eyes' view (the session's viewer, the panel being drawn).
    let (Some(game), Some(view)) = (seen.game(), seen.view.as_ref()) else { return Ok(()) };
    let height = windows.iter().next().map(|w| w.height()).unwrap_or(800.0);
    // The computer's seat says who plays it: the solo AI, or a level.
    let ai = |p: Player| match session.computer_at(seat_of(p)) {
        Some(0) => " (AI)".to_string(),
        Some(l) => format!(" ({})", <Vg as TableGame>::LEVELS.get(l).copied().unwrap_or("computer")),
        None => String::new(),
    };
    egui::Window::new("Victory & Glory track")
        .anchor(egui::Align2::CENTER_TOP, [0.0, 6.0])
        .title_bar(false)
        .resizable(false)
        .show(&ctx, |ui| {
            let era = &game.sc.eras[view.era as usize];
            let status = match view.phase {
                Phase::EraEnd => format!("End of the era · {} ({}): campaigns, then scoring", era.name, era.years),
                Phase::GameOver => "The game is over".to_string(),
                _ => format!(
                    "Round {} of 9 · {} ({}) · {} to play",
                    view.round + 1,
                    era.name,
                    era.years,
                    view.turn.name()
                ),
            };
            ui.label(egui::RichText::new(status).strong());
            egui::Grid::new("tracks").show(ui, |ui| {
                for h in ["", "VP", "Economy", "Leadership", "Cards played", "Own units"] {
                    ui.label(h);
                }
                ui.end_row();
                for p in Player::BOTH {
                    ui.label(format!("{}{}", p.name(), ai(p)));
                    ui.label(view.vp[p.index()].to_string());
                    ui.label(view.economy[p.index()].to_string());
                    ui.label(view.leadership[p.index()].to_string());
                    ui.label(format!("{} / {}", view.played[p.index()], view.quota[p.index()]));
                    ui.label(game.national_units(p).to_string());
                    ui.end_row();
                }
            });
        });
    egui::Window::new("Hand")
        .anchor(egui::Align2::LEFT_BOTTOM, [6.0, -6.0])
        .default_width(420.0)
        .resizable(false)
        .show(&ctx, |ui| {
            egui::ScrollArea::vertical().max_height(height * 0.22).show(ui, |ui| {
                for p in Player::BOTH {
                    match &view.hands[p.index()] {
                        Ok(cards) => {
                            ui.label(egui::RichText::new(format!("{}'s hand", p.name())).strong());
                            // At the body's size: the hand is what a seat reads most.
                            for &c in cards {
                                ui.label(card_text(game, c));
                            }
                        }
                        Err(count) => {
                            ui.label(format!("{} holds {count} cards", p.name()));
                        }
                    }
                    if session.viewer == Viewer::Seat(seat_of(p)) && !view.in_front[p.index()].is_empty() {
                        ui.label(egui::RichText::new("In front of you (campaigns to reinforce):").strong());
                        for &c in &view.in_front[p.index()] {
                            ui.label(card_text(game, c));
                        }
                    }
                }
            });
        });
    egui::Window::new("Campaigns")
        .anchor(egui::Align2::RIGHT_TOP, [-6.0, 6.0])
        .default_width(380.0)
        .resizable(false)
        .show(&ctx, |ui| {
            let open = game.open_campaigns();
            if open.is_empty() {
                ui.label(egui::RichText::new("No campaign is open").small());
            }
            for c in open {
                let camp = &view.campaigns[c as usize];
                let side = |p: Player| -> String {
                    let faces: Vec<UnitFace> =
                        view.units.iter().filter(|(loc, _)| *loc == Loc::Campaign(c, p)).map(|(_, f)| *f).collect();
                    let known: Vec<String> = faces
                        .iter()
                        .filter_map(|f| match f {
                            UnitFace::Known(u) => Some(game.unit_label(*u)),
                            UnitFace::Hidden { .. } => None,
                        })
                        .collect();
                    let hidden = faces.len() - known.len();
                    match (known.is_empty(), hidden) {
                        (_, 0) => known.join(", "),
                        (true, n) => format!("{n} unit(s) face down"),
                        (false, n) => format!("{} and {n} face down", known.join(", ")),
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
        });
    Ok(())
}

fn final_score(mut contexts: EguiContexts, seen: Res<Seen<Vg>>, session: Res<Session>) -> Result {
    if session.panels_hidden || session.resume_offer {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let Some(game) = seen.game() else { return Ok(()) };
    egui::Window::new("Final score").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).resizable(false).show(
        &ctx,
        |ui| {
            ui.heading(prompt(game));
        },
    );
    Ok(())
}

/// The miniatures battle sheet of the campaign being fought on the tabletop, and its result.
fn battle_window(
    mut contexts: EguiContexts,
    seen: Res<Seen<Vg>>,
    mut notice: ResMut<crate::table::session::Notice>,
    session: Res<Session>,
    mut entry: ResMut<BattleEntry>,
    mut requests: MessageWriter<Request<Vg>>,
) -> Result {
    let Some(game) = seen.game() else { return Ok(()) };
    let Some(Pending::TabletopResult { campaign: c, entries, .. }) = game.pending.first().cloned() else {
        return Ok(());
    };
    let Some(chooser) = game.tabletop_seat() else { return Ok(()) };
    if session.covered() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let sheet = miniatures::battle_sheet(game, c);
    egui::Window::new(format!("Battle sheet — {} ({})", sheet.campaign, sheet.region))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 30.0])
        .default_width(560.0)
        .resizable(false)
        .show(&ctx, |ui| {
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
                // Beside the journal (the folder the window keeps its games in), not wherever
                // the program happened to be started.
                let dir = session.journal_path.parent().map(|d| d.join("battle-sheets")).unwrap_or("battle-sheets".into());
                match miniatures::export(&sheet, &dir, &stem) {
                    Ok([h, r]) => notice.inform(format!("Battle sheet written: {} and {}", h.display(), r.display())),
                    Err(e) => notice.refuse(format!("Could not write the battle sheet: {e}")),
                }
            }
            ui.separator();
            ui.label(egui::RichText::new("The result of the tabletop battle").strong());
            if let Some(e) = entries {
                // Across machines: each seat enters what it saw; the other's entry stands here.
                match e[chooser.other().index()] {
                    Some(other) => ui.label(format!(
                        "{} entered: {}. {}: enter the same to agree, or what you saw — nothing applies until you agree.",
                        chooser.other().name(),
                        crate::games::vg::rules::entry_words(other),
                        chooser.name()
                    )),
                    None => ui.label(format!("{} enters first; then {} confirms it.", chooser.name(), chooser.other().name())),
                };
            }
            let before = (entry.winner, entry.convert, entry.lost);
            ui.horizontal(|ui| {
                ui.label("Winner:");
                ui.radio_value(&mut entry.winner, Some(Player::France), "France");
                ui.radio_value(&mut entry.winner, Some(Player::Britain), "Britain");
            });
            ui.checkbox(&mut entry.convert, "Convert the tabletop losses at the corps ratio (both players agree)");
            if entry.convert {
                ui.horizontal(|ui| {
                    ui.label("Tabletop units lost — France:");
                    ui.add(egui::DragValue::new(&mut entry.lost[0]).range(0..=200));
                    ui.label("Britain:");
                    ui.add(egui::DragValue::new(&mut entry.lost[1]).range(0..=200));
                });
            }
            if (entry.winner, entry.convert, entry.lost) != before {
                notice.clear(); // an old refusal no longer applies to the changed entry
            }
            if ui.button("Enter the result").clicked() {
                let lost = entry.convert.then_some(entry.lost);
                requests.write(Request::Act {
                    seat: seat_of(chooser),
                    act: Act::Game(Action::TabletopResult { campaign: c, winner: entry.winner, lost }),
                });
            }
            if let Some(n) = &notice.text {
                ui.colored_label(notice.colour(), n);
            }
        });
    Ok(())
}
