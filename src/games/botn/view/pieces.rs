//! Pieces and cards on the table: troop markers, armies, chips, figures, the time indicator, the
//! victory point cannons and every card get a mesh; they glide to where the rules put them.
//! Dragging a troop marker lights its legal destinations (from the legal-action list); a drop
//! elsewhere snaps back and says which rule forbids it.

use super::super::plugin::*;
use super::super::state::MarkerId;
use super::super::{Action, Botn, BotnError, SandboxAction, Side};
use super::board::{FIELD_RADIUS, field_world, time_bar_world, vp_bar_world};
use crate::engine::geometry::SpaceId;
use crate::engine::plugin::{Request, TableSet};
use crate::engine::rules::{Game, Mode};
use crate::engine::seen::Seen;
use crate::engine::table::Act;
use crate::table::glide::{Dragging, PlaceSet, Target};
use crate::table::printed::{PrintedFace, Prints, print_sides};
use crate::table::session::Pointing;
use crate::table::session::Session;
use bevy::prelude::*;

pub fn side_color(side: Side, pale: bool) -> Color {
    match (side, pale) {
        (Side::French, false) => Color::srgb(0.16, 0.30, 0.75),
        (Side::French, true) => Color::srgb(0.55, 0.65, 0.92),
        (Side::Allied, false) => Color::srgb(0.78, 0.18, 0.14),
        (Side::Allied, true) => Color::srgb(0.95, 0.60, 0.55),
    }
}

pub struct PiecesPlugin;

impl Plugin for PiecesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Prints>().init_resource::<SpreadPile>().add_systems(
            Update,
            (dress_pieces, print_faces, place_pieces).chain().in_set(TableSet::Present).in_set(PlaceSet),
        );
    }
}

/// Whether the pointer rests on the discard pile, which then spreads so every card shows.
#[derive(Resource, Default)]
pub struct SpreadPile(pub bool);

/// Hovering a card: what it is (the Alt preview reads it large), and the discard pile spreads.
fn hover_card(
    ev: On<Pointer<Over>>,
    cards: Query<(&Card, &CardPlace, &FaceShown)>,
    seen: Res<Seen<Botn>>,
    mut pointing: ResMut<Pointing>,
    mut pile: ResMut<SpreadPile>,
) {
    let Ok((card, place, shown)) = cards.get(ev.entity) else { return };
    let Some(game) = seen.game() else { return };
    pile.0 = matches!(place, CardPlace::Discard(_));
    pointing.hovered = Some(match (place, shown.0) {
        (CardPlace::DrawPile(_), _) => format!("Draw pile: {} cards", game.draw_pile.len()),
        (_, false) => "A card face down".to_string(),
        (_, true) => {
            let p = super::prints::card_print(game, *card);
            format!(
                "{} — {}\n{}{}",
                p.title,
                p.kind,
                p.body,
                if p.corner.is_empty() { String::new() } else { format!(" ({})", p.corner) }
            )
        }
    });
}

/// On an army standee's back: the front it copies its print from.
#[derive(Component)]
struct PrintedBack(Entity);

/// Prints what each card shows to the mirror's eyes (its face when seen, its back otherwise) and
/// each army's standee at its strength.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn print_faces(
    seen: Res<Seen<Botn>>,
    mut prints: ResMut<Prints>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    cards: Query<(&Card, &FaceShown, &PrintedFace), Or<(Changed<FaceShown>, Added<PrintedFace>)>>,
    armies: Query<(&ArmyPiece, &Strength, &PrintedFace), Or<(Changed<Strength>, Added<PrintedFace>)>>,
    backs: Query<(Entity, &PrintedBack)>,
    figures: Query<(Entity, &MissionFigure, &MeshMaterial3d<StandardMaterial>)>,
    turned: Query<Ref<PrintedFace>, Changed<FaceShown>>,
    mut cues: MessageWriter<crate::table::sound::Cue>,
    mut commands: Commands,
) {
    let Some(game) = seen.game() else { return };
    // A card the eyes already knew turning over is heard; the cards dealt at start are not.
    if turned.iter().any(|face| !face.is_added()) {
        cues.write(crate::table::sound::Cue::Flip);
    }
    for (card, shown, face) in &cards {
        let mat = if shown.0 {
            prints.card_face(&super::prints::card_print(game, *card), &mut images, &mut materials)
        } else {
            prints.card_back(&super::prints::back_print(game, *card), &mut images, &mut materials)
        };
        commands.entity(face.0).insert(MeshMaterial3d(mat));
    }
    // Each revealed mission's counter: its village and points (public once revealed).
    for (e, f, current) in &figures {
        let Some(&m) = game.missions.get(f.0 as usize).filter(|_| f.0 < game.revealed) else { continue };
        let def = &game.sc.missions[m as usize];
        let print = crate::table::printed::CounterPrint {
            name: game.sc.field_name(def.field).to_string(),
            symbol: crate::table::printed::Symbol::None,
            values: format!("{} / {}", def.def.french, def.def.allied),
            ground: [236, 224, 196],
            ink: [120, 36, 28],
        };
        let mat = prints.counter(&print, &mut images, &mut materials);
        if current.0 != mat {
            commands.entity(e).insert(MeshMaterial3d(mat));
        }
    }
    for (army, strength, face) in &armies {
        let print = super::prints::army_print(game, army.0, strength.value, strength.flipped);
        let mat = prints.counter(&print, &mut images, &mut materials);
        commands.entity(face.0).insert(MeshMaterial3d(mat.clone()));
        for (back, of) in &backs {
            if of.0 == face.0 {
                commands.entity(back).insert(MeshMaterial3d(mat.clone()));
            }
        }
    }
}

/// Meshes and materials shared by all pieces, made once.
struct PieceMeshes {
    marker: Handle<Mesh>,
    /// The Allied markers are hexagonal: a shape cue beside the colour, for colour-blind players.
    marker_allied: Handle<Mesh>,
    army: Handle<Mesh>,
    card: Handle<Mesh>,
    chip: Handle<Mesh>,
    figure: Handle<Mesh>,
    cannon: Handle<Mesh>,
    mats: [Handle<StandardMaterial>; 4],
    card_face: Handle<StandardMaterial>,
    /// The printed sides of cards, stickers and counter faces.
    card_print: Handle<Mesh>,
    standee: Handle<Mesh>,
    marker_face: Handle<Mesh>,
    marker_face_allied: Handle<Mesh>,
    brass: Handle<StandardMaterial>,
    grey: Handle<StandardMaterial>,
}

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn dress_pieces(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut store: Local<Option<PieceMeshes>>,
    mut images: ResMut<Assets<Image>>,
    mut prints: ResMut<Prints>,
    seen: Res<Seen<Botn>>,
    markers: Query<(Entity, &Owner, &TroopMarker), Added<TroopMarker>>,
    armies: Query<(Entity, &Owner, &ArmyPiece), Added<ArmyPiece>>,
    cards: Query<(Entity, &Card), Added<Card>>,
    time: Query<Entity, Added<TimeIndicator>>,
    vps: Query<(Entity, &VictoryMarker), Added<VictoryMarker>>,
    chips: Query<Entity, Added<MinusOneChip>>,
    figures: Query<Entity, Added<MissionFigure>>,
) {
    let m = store.get_or_insert_with(|| PieceMeshes {
        marker: meshes.add(Cylinder::new(0.25, 0.14)),
        marker_allied: meshes.add(Cylinder::new(0.27, 0.14).mesh().resolution(6)),
        army: meshes.add(Cuboid::new(0.78, 0.1, 0.78)),
        card: meshes.add(Cuboid::new(0.9, 0.02, 1.3)),
        chip: meshes.add(Cylinder::new(0.16, 0.05)),
        // A revealed mission's marker: a die-cut counter printed with the village and its points.
        figure: meshes.add(crate::table::printed::counter_mesh(0.5, 0.07, 0.02)),
        cannon: meshes.add(Cylinder::new(0.2, 0.3)),
        mats: [
            materials.add(side_color(Side::French, false)),
            materials.add(side_color(Side::French, true)),
            materials.add(side_color(Side::Allied, false)),
            materials.add(side_color(Side::Allied, true)),
        ],
        card_face: materials.add(Color::srgb(0.96, 0.94, 0.86)),
        card_print: meshes.add(Plane3d::new(Vec3::Y, Vec2::new(0.45, 0.65))),
        // A standee's printed card, upright, facing the French seat (+z) on its front.
        standee: meshes.add(Plane3d::new(Vec3::Z, Vec2::splat(0.36))),
        marker_face: meshes
            .add(Circle::new(0.24).mesh().build().rotated_by(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2))),
        marker_face_allied: meshes.add(
            RegularPolygon::new(0.26, 6).mesh().build().rotated_by(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
        ),
        brass: materials.add(StandardMaterial { base_color: Color::srgb(0.85, 0.65, 0.2), metallic: 0.6, ..default() }),
        grey: materials.add(Color::srgb(0.5, 0.5, 0.5)),
    });
    let side_mat = |s: Side| m.mats[s.index() * 2].clone();
    let Some(game) = seen.game() else { return };
    // Markers and armies: a mesh, hover details and dragging; a printed face on each.
    let movable =
        markers.iter().map(|(e, o, t)| (e, o, Some(t.army))).chain(armies.iter().map(|(e, o, _)| (e, o, None)));
    for (e, owner, marker_of) in movable {
        let (mesh, grip) = match (marker_of, owner.0) {
            (Some(_), Side::Allied) => (&m.marker_allied, 0.27),
            (Some(_), Side::French) => (&m.marker, 0.25),
            (None, _) => (&m.army, 0.4),
        };
        commands
            .entity(e)
            .insert((
                Mesh3d(mesh.clone()),
                MeshMaterial3d(side_mat(owner.0)),
                Transform::from_xyz(0.0, -5.0, 0.0),
                crate::table::grip::Grip(grip),
            ))
            .observe(hover_piece)
            .observe(|_: On<Pointer<Out>>, mut s: ResMut<Pointing>, mut army: ResMut<HoveredArmy>| {
                s.hovered = None;
                army.0 = None;
            })
            .observe(drag_start)
            .observe(crate::table::glide::carry)
            .observe(drag_end);
        if let Some(army) = marker_of {
            // A troop marker's face: its army's name, printed on the chip's top.
            let face = if owner.0 == Side::Allied { &m.marker_face_allied } else { &m.marker_face };
            let mat = prints.counter(&super::prints::marker_print(game, army), &mut images, &mut materials);
            commands.spawn((
                Mesh3d(face.clone()),
                MeshMaterial3d(mat),
                Transform::from_xyz(0.0, 0.072, 0.0),
                ChildOf(e),
            ));
        } else {
            // An army is a standee: its printed card upright on a base of its side's colour, the
            // same print on both sides so that either seat reads it. Its print follows its strength.
            let front =
                commands.spawn((Mesh3d(m.standee.clone()), Transform::from_xyz(0.0, 0.41, 0.0), ChildOf(e))).id();
            commands.spawn((
                Mesh3d(m.standee.clone()),
                Transform::from_xyz(0.0, 0.41, -0.002).with_rotation(Quat::from_rotation_y(std::f32::consts::PI)),
                ChildOf(e),
                PrintedBack(front),
            ));
            commands.entity(e).insert(PrintedFace(front));
        }
    }
    for (e, card) in &cards {
        let back = prints.card_back(&super::prints::back_print(game, *card), &mut images, &mut materials);
        commands
            .entity(e)
            .insert((Mesh3d(m.card.clone()), MeshMaterial3d(m.card_face.clone()), Transform::from_xyz(0.0, -5.0, 0.0)))
            .observe(hover_card)
            .observe(|_: On<Pointer<Out>>, mut s: ResMut<Pointing>, mut pile: ResMut<SpreadPile>| {
                s.hovered = None;
                pile.0 = false;
            });
        // The face starts as the back: what it shows is printed when the mirror says it is seen.
        let (face, _) = print_sides(&mut commands, e, m.card_print.clone(), 0.02, back.clone(), back);
        commands.entity(e).insert(PrintedFace(face));
    }
    for e in &time {
        commands.entity(e).insert((
            Mesh3d(m.cannon.clone()),
            MeshMaterial3d(m.brass.clone()),
            Transform::from_xyz(0.0, -5.0, 0.0),
            Pickable::IGNORE,
        ));
    }
    for (e, v) in &vps {
        commands.entity(e).insert((
            Mesh3d(m.cannon.clone()),
            MeshMaterial3d(side_mat(v.side)),
            Transform::from_xyz(0.0, -5.0, 0.0),
            Pickable::IGNORE,
        ));
    }
    for e in &chips {
        commands.entity(e).insert((
            Mesh3d(m.chip.clone()),
            MeshMaterial3d(m.grey.clone()),
            Transform::from_xyz(0.0, -5.0, 0.0),
            Pickable::IGNORE,
        ));
    }
    for e in &figures {
        commands.entity(e).insert((
            Mesh3d(m.figure.clone()),
            MeshMaterial3d(m.card_face.clone()),
            Transform::from_xyz(0.0, -5.0, 0.0),
            Pickable::IGNORE,
        ));
    }
}

/// Where each marker stands within its field: a ring of eight slots around the army's place.
pub fn marker_offset(game: &Botn, marker: MarkerId, field: SpaceId) -> Vec3 {
    let slot = game.markers_at(field).position(|m| m == marker).unwrap_or(0) as f32;
    // Successive slots are 135° apart, so two or three markers never sit side by side.
    let angle = slot * std::f32::consts::TAU * 3.0 / 8.0 - 2.4;
    Vec3::new(angle.cos(), 0.0, angle.sin()) * (FIELD_RADIUS * 0.72)
}

/// Off-board positions: army cards in columns beside the board, decks and the face-up row right.
pub fn card_world(place: CardPlace) -> Option<(Vec3, bool)> {
    let face_up_row = |i: u8| Vec3::new(14.0 + i as f32 * 1.55, 0.0, -6.4);
    Some(match place {
        // Each side's army cards in a row in front of its player: French south, Allied north.
        CardPlace::ArmyCards(Side::French, i, played) => (Vec3::new(-4.5 + i as f32 * 1.6, 0.0, 14.6), !played),
        CardPlace::ArmyCards(Side::Allied, i, played) => (Vec3::new(-5.5 + i as f32 * 1.6, 0.0, -14.8), !played),
        CardPlace::FaceUp(i) => (face_up_row(i), true),
        CardPlace::DrawPile(i) => (Vec3::new(14.0, i as f32 * 0.022, -3.8), false),
        CardPlace::Discard(i) => (Vec3::new(15.2, i as f32 * 0.022, -3.8), true),
        CardPlace::ScoutSupply(i) => (Vec3::new(16.4, i as f32 * 0.022, -3.8), true),
        // Staggered in two rows, so that long village names have room.
        CardPlace::Mission(i) => (Vec3::new(14.0 + i as f32 * 1.55, 0.0, -9.0 - (i % 2) as f32 * 1.5), false),
        CardPlace::Draft(i) => (Vec3::new(14.0 + i as f32 * 1.55, 0.0, -12.0), false),
        CardPlace::Hand(Side::French, i) => (Vec3::new(-1.5 + i as f32 * 1.2, 0.0, 16.4), false),
        CardPlace::Hand(Side::Allied, i) => (Vec3::new(-1.5 + i as f32 * 1.2, 0.0, -16.6), false),
        CardPlace::OutOfGame | CardPlace::MissionBox => return None,
    })
}

/// Where card `i` of a hand of `n` lies, and its turn about the vertical: on an arc in front of the
/// seat, each card a little turned and a little above the one before, so that every card shows.
pub fn hand_fan(side: Side, i: u8, n: usize) -> (Vec3, f32) {
    match side {
        Side::French => crate::table::printed::fan(Vec3::new(1.5, 0.0, 15.9), 1.0, i as usize, n),
        Side::Allied => crate::table::printed::fan(Vec3::new(1.5, 0.0, -16.1), -1.0, i as usize, n),
    }
}

/// Sets each piece's target from the table after every change.
#[allow(clippy::type_complexity)]
fn place_pieces(
    seen: Res<Seen<Botn>>,
    mut q: ParamSet<(
        Query<(Entity, &TroopMarker, &At, Option<&mut Target>)>,
        Query<(Entity, &ArmyPiece, &At, &Strength, Option<&mut Target>)>,
        Query<(Entity, &Card, &CardPlace, &FaceShown, Option<&mut Target>)>,
        Query<(Entity, &TimeIndicator, Option<&mut Target>)>,
        Query<(Entity, &VictoryMarker, Option<&mut Target>)>,
        Query<(Entity, &MinusOneChip, Option<&mut Target>)>,
        Query<(Entity, &MissionFigure, Option<&mut Target>)>,
    )>,
    dragging: Res<Dragging>,
    spread: Res<SpreadPile>,
    mut commands: Commands,
) {
    let Some(game) = seen.game() else { return };
    let hidden = Transform::from_xyz(0.0, -5.0, 0.0);
    let set = |commands: &mut Commands, e: Entity, cur: Option<Mut<Target>>, want: Transform| match cur {
        Some(mut t) if t.0 != want => t.0 = want,
        Some(_) => {}
        None => {
            commands.entity(e).insert(Target(want));
        }
    };
    for (e, m, at, cur) in &mut q.p0() {
        if dragging.entity == Some(e) {
            continue;
        }
        let want = match at.0 {
            Some(f) => {
                Transform::from_translation(field_world(game, f) + marker_offset(game, m.id, f) + Vec3::Y * 0.09)
            }
            None => hidden,
        };
        set(&mut commands, e, cur, want);
    }
    for (e, _a, at, s, cur) in &mut q.p1() {
        if dragging.entity == Some(e) {
            continue;
        }
        let want = match at.0 {
            Some(f) => {
                let rot = if s.flipped { Quat::from_rotation_y(0.2) } else { Quat::IDENTITY };
                Transform::from_translation(field_world(game, f) + Vec3::Y * 0.08).with_rotation(rot)
            }
            None => hidden,
        };
        set(&mut commands, e, cur, want);
    }
    for (e, _c, place, shown, cur) in &mut q.p2() {
        // Cards the eyes may read but that lie face down for everyone else (a hand, secret
        // missions) are turned up for these eyes, as a player lifts the corner of their own cards.
        let own_secret = shown.0 && matches!(place, CardPlace::Hand(..) | CardPlace::Mission(_) | CardPlace::Draft(_));
        let want = match (card_world(*place).map(|(p, up)| (p, up || own_secret)), *place) {
            // A hand fans in front of its seat, as held cards do.
            (Some((_, face_up)), CardPlace::Hand(side, i)) => {
                let rot = if face_up { Quat::IDENTITY } else { Quat::from_rotation_z(std::f32::consts::PI) };
                let (pos, yaw) = hand_fan(side, i, game.hand_size(side));
                Transform::from_translation(pos).with_rotation(Quat::from_rotation_y(yaw) * rot)
            }
            // The discard pile spreads in rows while the pointer rests on it.
            (Some((pos, _)), CardPlace::Discard(i)) if spread.0 => {
                let (col, row) = ((i % 10) as f32, (i / 10) as f32);
                // From the pile's own place, so the pointer stays on it, rightward and toward the
                // seat, above the piles beside it.
                Transform::from_translation(pos + Vec3::new(col * 0.55, 0.2 + i as f32 * 0.003, row * 0.75))
            }
            (Some((pos, face_up)), place) => {
                let rot = if face_up { Quat::IDENTITY } else { Quat::from_rotation_z(std::f32::consts::PI) };
                // A pile is a little uneven, so that each card shows its edge.
                let jitter = match place {
                    CardPlace::DrawPile(i) | CardPlace::Discard(i) | CardPlace::ScoutSupply(i) => {
                        let k = i as f32;
                        Vec3::new(((k * 37.0) % 7.0 - 3.0) * 0.008, 0.0, ((k * 53.0) % 5.0 - 2.0) * 0.008)
                    }
                    _ => Vec3::ZERO,
                };
                Transform::from_translation(pos + jitter + Vec3::Y * 0.02).with_rotation(rot)
            }
            (None, _) => hidden,
        };
        set(&mut commands, e, cur, want);
    }
    for (e, t, cur) in &mut q.p3() {
        set(&mut commands, e, cur, Transform::from_translation(time_bar_world(t.0 as usize) + Vec3::Y * 0.15));
    }
    for (e, v, cur) in &mut q.p4() {
        let off = if v.side == Side::French { Vec3::new(-0.17, 0.15, 0.0) } else { Vec3::new(0.17, 0.15, 0.0) };
        set(&mut commands, e, cur, Transform::from_translation(vp_bar_world(v.points) + off));
    }
    // "-1" chips lie on the armies that lost points after their flip, the rest beside the board.
    let on_armies: Vec<(SpaceId, u8)> = game
        .armies
        .iter()
        .filter_map(|a| a.at.map(|f| (f, a.chips)))
        .flat_map(|(f, n)| (0..n).map(move |k| (f, k)))
        .take(game.sc.minus_one_chips as usize)
        .collect();
    for (e, c, cur) in &mut q.p5() {
        let want = match on_armies.get(c.0 as usize) {
            Some(&(f, k)) => field_world(game, f) + Vec3::new(0.42, 0.2 + k as f32 * 0.05, 0.3),
            None => {
                let spare = c.0 as usize - on_armies.len().min(c.0 as usize);
                Vec3::new(17.6 + (spare % 3) as f32 * 0.4, 0.03, -3.8 + (spare / 3) as f32 * 0.4)
            }
        };
        set(&mut commands, e, cur, Transform::from_translation(want));
    }
    for (e, f, cur) in &mut q.p6() {
        let want = game
            .missions
            .get(f.0 as usize)
            .map(|&m| field_world(game, game.sc.missions[m as usize].field) + Vec3::new(0.78, 0.045, 0.45))
            .unwrap_or(Vec3::Y * -5.0);
        set(&mut commands, e, cur, Transform::from_translation(want));
    }
}

fn hover_piece(
    ev: On<Pointer<Over>>,
    markers: Query<&TroopMarker>,
    armies: Query<&ArmyPiece>,
    seen: Res<Seen<Botn>>,
    mut pointing: ResMut<Pointing>,
    mut hovered: ResMut<HoveredArmy>,
) {
    let Some(game) = seen.game() else { return };
    let e = ev.entity;
    let army = markers.get(e).map(|m| m.army).or_else(|_| armies.get(e).map(|a| a.0));
    let Ok(army) = army else { return };
    hovered.0 = armies.get(e).ok().map(|a| a.0);
    let def = &game.sc.armies[army as usize].def;
    let st = &game.armies[army as usize];
    let kind = if markers.get(e).is_ok() { "troop marker" } else { "army" };
    let mut s = format!(
        "{} — {} of {} ({}, card {})\nUnit: {}   Strength: {}{}",
        def.name,
        kind,
        def.side.name(),
        if st.card_played { "card laid out" } else { "card in hand" },
        def.card,
        game.army_unit(army).name(),
        st.strength,
        if st.flipped { " (flipped)" } else { "" }
    );
    if let Some(f) = markers.get(e).ok().and_then(|m| game.markers[m.id as usize].at) {
        s += &format!("\nOn {}", game.sc.field_name(f));
    }
    pointing.hovered = Some(s);
}

/// Legal destinations of a marker for the seat at the controls, from the legal-action list.
pub fn marker_destinations(
    game: &Botn,
    mode: Mode,
    seat: Option<crate::engine::seats::SeatId>,
    marker: MarkerId,
) -> Vec<(SpaceId, Action)> {
    if mode == Mode::Sandbox {
        return (0..game.sc.fields.len() as u16)
            .map(|f| (SpaceId(f), Action::Sandbox(SandboxAction::MoveMarker { marker, to: Some(SpaceId(f)) })))
            .collect();
    }
    if seat.is_none() || game.active_seat() != seat {
        return Vec::new();
    }
    let mut legal = Vec::new();
    game.legal_actions(mode, &mut legal);
    legal
        .into_iter()
        .filter_map(|a| match &a {
            Action::PlayMovementCard { marker: m, to, .. } | Action::JumpOverArmy { marker: m, to, .. }
                if *m == marker =>
            {
                Some((*to, a))
            }
            Action::PlayWildCard { marker: m, to: Some(to), .. } if *m == marker => Some((*to, a)),
            _ => None,
        })
        .collect()
}

/// Why a marker may not go to `to`: the rules' own refusal of the nearest possible move.
pub fn refusal(
    game: &Botn,
    mode: Mode,
    seat: Option<crate::engine::seats::SeatId>,
    marker: MarkerId,
    to: Option<SpaceId>,
) -> String {
    let Some(seat) = seat else { return "A spectator cannot move pieces".into() };
    let e = game.refuse_drop(mode, seat, marker, to);
    format!("{e} (rule: {})", crate::engine::rules::NamesRule::rule(&e))
}

#[allow(clippy::too_many_arguments)]
fn drag_start(
    ev: On<Pointer<DragStart>>,
    markers: Query<(&TroopMarker, &Transform)>,
    armies: Query<&Transform, With<ArmyPiece>>,
    seen: Res<Seen<Botn>>,
    mut pointing: ResMut<Pointing>,
    mut notice: ResMut<crate::table::session::Notice>,
    session: Res<Session>,
    mut dragging: ResMut<Dragging>,
    mut commands: Commands,
) {
    if ev.button != PointerButton::Primary {
        return;
    }
    let e = ev.entity;
    let Some(game) = seen.game() else { return };
    if let Ok((m, tf)) = markers.get(e) {
        pointing.highlight =
            marker_destinations(game, seen.mode, session.seat(), m.id).into_iter().map(|(f, _)| f).collect();
        dragging.origin = tf.translation;
    } else if let Ok(tf) = armies.get(e) {
        if seen.mode != Mode::Sandbox {
            let e = BotnError::new(
                super::super::actions::rule::MOVEMENT_CARD,
                "armies are never moved, only troop markers",
            );
            notice.refuse(format!("{e} (rule: {})", crate::engine::rules::NamesRule::rule(&e)));
            return;
        }
        dragging.origin = tf.translation;
    } else {
        return;
    }
    dragging.entity = Some(e);
    // The dragged piece must not hide the fields under it from the pointer.
    commands.entity(e).insert(Pickable::IGNORE);
}

#[allow(clippy::too_many_arguments)]
fn drag_end(
    ev: On<Pointer<DragEnd>>,
    mut dragging: ResMut<Dragging>,
    markers: Query<&TroopMarker>,
    armies: Query<&ArmyPiece>,
    cams: Query<(&Camera, &GlobalTransform), Without<crate::table::dice::TrayView>>,
    seen: Res<Seen<Botn>>,
    mut pointing: ResMut<Pointing>,
    mut notice: ResMut<crate::table::session::Notice>,
    session: Res<Session>,
    mut requests: MessageWriter<Request<Botn>>,
    mut commands: Commands,
) {
    if !crate::table::glide::let_go(&mut dragging, &mut commands, ev.entity) {
        return;
    }
    let Some(game) = seen.game() else { return };
    // Where the pointer let go, on the table.
    let pos = crate::table::glide::table_point(&cams, ev.pointer_location.position).unwrap_or(dragging.origin);
    // The field nearest the drop point, if the drop is on one.
    let field = (0..game.sc.fields.len() as u16)
        .map(SpaceId)
        .map(|f| (f, field_world(game, f).xz().distance(pos.xz())))
        .filter(|(_, d)| *d < FIELD_RADIUS * 1.4)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(f, _)| f);
    pointing.highlight.clear();
    let seat = session.seat().or(game.active_seat()).unwrap_or(crate::engine::seats::SeatId(0));
    let request = if let Ok(m) = markers.get(ev.entity) {
        let legal = marker_destinations(game, seen.mode, session.seat(), m.id);
        let home = game.markers[m.id as usize].at;
        match legal.into_iter().find(|(f, _)| Some(*f) == field) {
            Some((_, action)) => Some(action),
            // Put back where it was: nothing to say.
            None if field.is_some() && field == home => None,
            None => {
                let why = refusal(game, seen.mode, session.seat(), m.id, field);
                notice.refuse(why);
                None
            }
        }
    } else if let Ok(a) = armies.get(ev.entity) {
        Some(Action::Sandbox(SandboxAction::MoveArmy { army: a.0, to: field }))
    } else {
        None
    };
    // Without a request the piece snaps back: with the drag over, it glides from the drop point
    // to where the rules still have it.
    if let Some(action) = request {
        notice.clear();
        requests.write(Request::Act { seat, act: Act::Game(action) });
    }
}

/// The army under the pointer, for keys that act on it (F flips it in sandbox mode).
#[derive(Resource, Default)]
pub struct HoveredArmy(pub Option<u8>);
