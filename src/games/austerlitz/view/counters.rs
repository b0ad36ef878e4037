//! Austerlitz's pieces on the table: printed counters (the unit's name, its symbol, MF and CF, the
//! Guard's crown; the demoralised side lighter), a triangle on each showing the way it moves,
//! marker chips for DIS, square and smoke, commands on top of their units, units waiting to set
//! up or to arrive in trays beside the board. Picking a unit up lights the spaces it may reach
//! (cyan where it may face the way it is turned in the hand, amber where only another way), Q and
//! E turn it in the hand (the cost is printed on each space), dropping it asks the rules. A click
//! on a gun lights its field of fire (targets red, the rest yellow, a blocked line of sight grey
//! with what blocks it); a click on a lit target fires; a click on an enemy opens the combat
//! panel.

use super::super::actions::Action;
use super::super::data::{Cell, Kind, Nation};
use super::super::plugin::{Piece, PieceAt};
use super::super::state::{Austerlitz, Pending, Step};
use super::geometry::{BoardGeometry, Light, Lights};
use crate::engine::geometry::Facing;
use crate::engine::plugin::Request;
use crate::engine::rules::{Game, Mode};
use crate::engine::seats::SeatId;
use crate::engine::seen::Seen;
use crate::engine::table::Act;
use crate::table::glide::{Dragging, Target};
use crate::table::printed::{CounterPrint, Prints, Symbol};
use crate::table::session::Pointing;
use crate::table::session::Session;
use bevy::prelude::*;

pub const SIZE: f32 = 0.42;
pub const THICK: f32 = 0.05;
const COMMAND: f32 = 0.3;

#[derive(Resource)]
pub struct PieceMeshes {
    pub unit: Handle<Mesh>,
    pub command: Handle<Mesh>,
    pub edge: Handle<StandardMaterial>,
    pub triangle: Handle<Mesh>,
    pub arrow: Handle<StandardMaterial>,
    pub chip: Handle<Mesh>,
}

/// The facing of the piece in hand (Q and E turn it), and the gun whose field of fire is shown.
#[derive(Resource, Default)]
pub struct Hand {
    pub facing: Option<Facing>,
    pub gun: Option<u8>,
}

/// A marker chip on a unit (DIS, square, smoke).
#[derive(Component)]
pub struct Marker;

/// The triangle on a counter.
#[derive(Component)]
pub struct Arrow;

pub fn setup_pieces(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::{Indices, PrimitiveTopology};
    // A flat triangle pointing to −z (north), at the counter's front edge.
    let t = Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(
            Mesh::ATTRIBUTE_POSITION,
            vec![[0.0, 0.0, -0.2], [0.07, 0.0, -0.1], [-0.07, 0.0, -0.1]],
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 1.0, 0.0]; 3])
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, vec![[0.0, 0.0]; 3])
        .with_inserted_indices(Indices::U32(vec![0, 2, 1]));
    commands.insert_resource(PieceMeshes {
        unit: meshes.add(crate::table::printed::counter_mesh(SIZE, THICK, 0.012)),
        command: meshes.add(crate::table::printed::counter_mesh(COMMAND, THICK, 0.01)),
        edge: materials.add(StandardMaterial { base_color: Color::srgb(0.8, 0.76, 0.66), ..default() }),
        triangle: meshes.add(t),
        arrow: materials.add(StandardMaterial {
            base_color: Color::srgb(1.0, 0.85, 0.1),
            unlit: true,
            cull_mode: None,
            ..default()
        }),
        chip: meshes.add(crate::table::printed::counter_mesh(0.2, 0.02, 0.005)),
    });
}

fn ground(nation: Nation) -> [u8; 3] {
    match nation {
        Nation::French => [52, 84, 160],
        Nation::Russian => [54, 112, 70],
        Nation::Austrian => [226, 222, 206],
    }
}

/// A unit's print: its side's colour (lighter when demoralised), its name, symbol and factors
/// (MF left, CF right; artillery's CF in brackets, defence only).
pub fn print_of(game: &Austerlitz, piece: Piece, demoralised: bool) -> CounterPrint {
    match piece {
        Piece::Unit(u) => {
            let d = &game.sc.units[u as usize];
            let nation = game.nation_of(u as usize);
            let mut ground = ground(nation);
            let mut ink = if nation == Nation::Austrian { [30, 26, 22] } else { [250, 246, 236] };
            if demoralised {
                ground = ground.map(|c| c / 2 + 120);
                ink = [40, 34, 28];
            }
            let short = d.name.split(':').next_back().unwrap_or(&d.name).trim().to_string();
            let mf = if d.mf.0 == d.mf.1 { d.mf.1.to_string() } else { format!("{}/{}", d.mf.0, d.mf.1) };
            let cf = if d.kind.is_artillery() { format!("({})", d.cf) } else { d.cf.to_string() };
            CounterPrint {
                name: if d.guard { format!("♛ {short}") } else { short },
                symbol: match d.kind {
                    Kind::Line | Kind::Light => Symbol::Infantry,
                    Kind::Dragoons | Kind::LightCav | Kind::HeavyCav => Symbol::Cavalry,
                    _ => Symbol::Artillery,
                },
                values: format!("{mf}  {cf}"),
                ground,
                ink,
            }
        }
        Piece::Command(k) => {
            let c = &game.sc.commands[k as usize];
            let g = ground(c.nation);
            CounterPrint {
                name: c.name.clone(),
                symbol: Symbol::Leader,
                values: format!("{} · {}", c.rating, c.range),
                ground: g.map(|x| x / 2 + 100),
                ink: [30, 24, 18],
            }
        }
    }
}

fn chip_print(text: &str) -> CounterPrint {
    CounterPrint {
        name: text.into(),
        symbol: Symbol::None,
        values: String::new(),
        ground: [236, 232, 220],
        ink: [170, 30, 20],
    }
}

/// Gives each piece its token and its triangle.
pub fn dress_pieces(
    mut commands: Commands,
    meshes: Option<Res<PieceMeshes>>,
    new: Query<(Entity, &Piece), Without<Mesh3d>>,
) {
    let Some(meshes) = meshes else { return };
    for (e, piece) in &new {
        let (token, size) = if matches!(piece, Piece::Unit(_)) {
            (meshes.unit.clone(), SIZE)
        } else {
            (meshes.command.clone(), COMMAND)
        };
        commands
            .entity(e)
            .insert((
                Mesh3d(token),
                MeshMaterial3d(meshes.edge.clone()),
                Transform::from_xyz(0.0, -5.0, 0.0),
                Visibility::Hidden,
                crate::table::grip::Grip(size * 0.5),
            ))
            .observe(hover_piece)
            .observe(|_: On<Pointer<Out>>, mut pointing: ResMut<Pointing>| pointing.hovered = None)
            .observe(drag_start)
            .observe(crate::table::glide::carry)
            .observe(drag_end)
            .observe(click_piece);
        if matches!(piece, Piece::Unit(_)) {
            commands.entity(e).with_children(|c| {
                c.spawn((
                    Arrow,
                    Mesh3d(meshes.triangle.clone()),
                    MeshMaterial3d(meshes.arrow.clone()),
                    Transform::from_xyz(0.0, THICK / 2.0 + 0.004, 0.0),
                    Pickable::IGNORE,
                ));
            });
        }
    }
}

/// Where each piece lies and how it faces: on its space (an artillery unit stacked with
/// infantry a little aside, a command on top), in its side's tray while waiting or gone.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn place_pieces(
    mut commands: Commands,
    seen: Res<Seen<Austerlitz>>,
    geo: Option<Res<BoardGeometry>>,
    dragging: Res<Dragging>,
    meshes: Option<Res<PieceMeshes>>,
    mut prints: ResMut<Prints>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    changed: Query<(Entity, &Piece, &PieceAt, Option<&Children>), Changed<PieceAt>>,
    all: Query<(Entity, &Piece, &PieceAt)>,
    markers: Query<Entity, With<Marker>>,
    mut vis: Query<&mut Visibility, With<Piece>>,
) {
    let (Some(geo), Some(meshes)) = (geo, meshes) else { return };
    if changed.is_empty() {
        return;
    }
    let Some(game) = seen.game() else { return };
    for (e, piece, at, children) in &changed {
        let face = prints.counter(&print_of(game, *piece, at.demoralised), &mut images, &mut materials);
        commands.entity(e).insert(MeshMaterial3d(face));
        if let Ok(mut v) = vis.get_mut(e) {
            *v = Visibility::Visible;
        }
        // Markers: redone for this piece.
        for c in children.into_iter().flatten() {
            if markers.contains(*c) {
                commands.entity(*c).despawn();
            }
        }
        let marks: Vec<&str> = [(at.dis, "DIS"), (at.square, "SQUARE"), (at.smoke, "SMOKE")]
            .into_iter()
            .filter(|(on, _)| *on)
            .map(|(_, t)| t)
            .collect();
        for (k, m) in marks.into_iter().enumerate() {
            let mat = prints.counter(&chip_print(m), &mut images, &mut materials);
            commands.entity(e).with_children(|c| {
                c.spawn((
                    Marker,
                    Mesh3d(meshes.chip.clone()),
                    MeshMaterial3d(mat),
                    Transform::from_xyz(SIZE * 0.32, THICK / 2.0 + 0.012 + k as f32 * 0.022, SIZE * 0.32),
                    Pickable::IGNORE,
                ));
            });
        }
    }
    // Places: everything, since a piece's neighbours decide its offset.
    let mut trays = [0usize; 2];
    let mut here: std::collections::HashMap<Cell, usize> = Default::default();
    let mut entries: Vec<(Entity, Piece, PieceAt)> = all.iter().map(|(e, p, a)| (e, *p, *a)).collect();
    // Units first (infantry before artillery), commands on top.
    entries.sort_by_key(|(_, p, _)| match p {
        Piece::Unit(u) => (0, u8::from(game.kind(*u as usize).is_artillery()), *u),
        Piece::Command(k) => (2, 0, *k),
    });
    for (e, piece, at) in entries {
        if dragging.entity == Some(e) {
            continue;
        }
        let (pos, rot) = match at.at {
            Some(c) => {
                let n = here.entry(c).or_insert(0);
                let k = *n;
                *n += 1;
                let centre = geo.world(c);
                let lift = THICK / 2.0 + k as f32 * (THICK + 0.006);
                let off = Vec3::new(0.05 * k as f32, lift, 0.05 * k as f32);
                let f = match piece {
                    Piece::Unit(u) if game.kind(u as usize).is_artillery() => {
                        // The triangle shows where a battery moves: away from its guns.
                        super::super::state::rotate(at.facing, 4)
                    }
                    _ => at.facing,
                };
                (centre + off, BoardGeometry::rotation(f))
            }
            None => {
                let (side, gone) = match piece {
                    Piece::Unit(u) => (game.side_of(u as usize).index(), game.units[u as usize].eliminated),
                    Piece::Command(k) => {
                        (game.sc.commands[k as usize].side.index(), game.commands[k as usize].captured)
                    }
                };
                let k = trays[side];
                trays[side] += 1;
                let x0 = if side == 0 { -geo.width / 2.0 - 2.4 } else { geo.width / 2.0 + 0.5 };
                let mut pos =
                    Vec3::new(x0 + (k % 4) as f32 * 0.48, THICK / 2.0, -geo.depth / 2.0 + 0.3 + (k / 4) as f32 * 0.48);
                if gone {
                    // Eliminated units and captured commands lie in a row under the tray.
                    pos.z = geo.depth / 2.0 + 1.0 + (k / 8) as f32 * 0.3;
                    pos.x = x0 + (k % 8) as f32 * 0.25;
                }
                (pos, Quat::IDENTITY)
            }
        };
        commands.entity(e).insert(Target(Transform::from_translation(pos).with_rotation(rot)));
    }
}

fn hover_piece(
    ev: On<Pointer<Over>>,
    pieces: Query<(&Piece, &PieceAt)>,
    seen: Res<Seen<Austerlitz>>,
    mut pointing: ResMut<Pointing>,
) {
    let Ok((piece, at)) = pieces.get(ev.entity) else { return };
    let Some(g) = seen.game() else { return };
    let mut lines = Vec::new();
    match piece {
        Piece::Unit(u) => {
            let u = *u as usize;
            let d = &g.sc.units[u];
            lines.push(format!(
                "{} — {}{}",
                g.unit_label(u as u8),
                d.kind.name(),
                if d.guard { ", Guard" } else { "" }
            ));
            lines.push(format!(
                "MF {}{} · CF {}",
                d.mf.1,
                if d.mf.0 != d.mf.1 { format!(" ({} to attack or fire)", d.mf.0) } else { String::new() },
                d.cf
            ));
            if let Some(c) = at.at {
                lines.push(format!("on {} facing {}", g.cell_name(c), super::super::text::facing_name(at.facing)));
                if let Some(f) = g.formation_kind(u) {
                    lines.push(format!("in a {f:?} formation").to_lowercase());
                }
                lines.push(format!("command rating in range: {}", g.rating_of(u)));
            }
            for (on, t) in [(at.dis, "DIS"), (at.demoralised, "demoralised"), (at.smoke, "smoke")] {
                if on {
                    lines.push(t.into());
                }
            }
        }
        Piece::Command(k) => {
            let c = &g.sc.commands[*k as usize];
            lines.push(format!(
                "{} — rating {}, range {}, MF {}{}",
                c.name,
                c.rating,
                c.range,
                c.mf,
                if c.supreme { ", supreme commander" } else { "" }
            ));
        }
    }
    pointing.hovered = Some(lines.join("\n"));
}

/// The spaces a piece may be put on now by the seat at the controls: (space, front, action, cost).
pub fn piece_targets(
    game: &Austerlitz,
    seat: Option<SeatId>,
    piece: Piece,
) -> Vec<(Cell, Option<Facing>, Action, Option<u8>)> {
    if seat.is_none() || game.active_seat() != seat || !game.pending.is_empty() {
        return Vec::new();
    }
    let mut legal = Vec::new();
    let mut out = Vec::new();
    match piece {
        Piece::Unit(u) => {
            let probe = match game.step {
                Step::Setup => Action::Deploy { unit: u, at: (0, 0), facing: Facing::N },
                _ => Action::Move { unit: u, to: (0, 0), facing: Facing::N },
            };
            game.legal_for(Some(&probe), &mut legal);
            let reach = game.reach(u as usize);
            for a in legal {
                match a {
                    Action::Deploy { unit, at, facing } if unit == u => out.push((at, Some(facing), a, None)),
                    Action::Move { unit, to, facing } if unit == u => {
                        let cost = reach.iter().find(|(c, f, _)| *c == to && *f == facing).map(|x| x.2.spent);
                        out.push((to, Some(facing), a, cost));
                    }
                    _ => {}
                }
            }
        }
        Piece::Command(k) => {
            game.legal(&mut legal);
            for a in legal {
                match a {
                    Action::PlaceCommand { command, at } | Action::MoveCommand { command, to: at } if command == k => {
                        out.push((at, None, a, None))
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// The lights of a piece in hand: each space with its cheapest cost, cyan where it may face
/// the way it is turned in the hand.
pub fn hand_lights(
    targets: &[(Cell, Option<Facing>, Action, Option<u8>)],
    held: Option<Facing>,
) -> Vec<(Cell, Light, Option<String>)> {
    let mut out: Vec<(Cell, Light, Option<String>)> = Vec::new();
    for (c, f, _, cost) in targets {
        let this = f.is_none() || *f == held;
        let label = cost.map(|x| x.to_string());
        match out.iter_mut().find(|(x, ..)| x == c) {
            Some(slot) => {
                if this {
                    *slot = (*c, Light::Reach, label);
                }
            }
            None => out.push((*c, if this { Light::Reach } else { Light::Far }, label)),
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn drag_start(
    ev: On<Pointer<DragStart>>,
    pieces: Query<(&Piece, &PieceAt, &Transform)>,
    seen: Res<Seen<Austerlitz>>,
    mut notice: ResMut<crate::table::session::Notice>,
    session: Res<Session>,
    mut dragging: ResMut<Dragging>,
    mut lights: ResMut<Lights>,
    mut hand: ResMut<Hand>,
    mut commands: Commands,
) {
    if ev.button != PointerButton::Primary {
        return;
    }
    let Ok((piece, at, tf)) = pieces.get(ev.entity) else { return };
    let Some(game) = seen.game() else { return };
    let targets = piece_targets(game, session.seat(), *piece);
    // In a sandbox the deciding seat's hand picks up any piece (the rules may light none).
    let by_hand = seen.mode == Mode::Sandbox && session.seat().is_some() && game.active_seat() == session.seat();
    if targets.is_empty() && !by_hand {
        let g = game;
        let why = match (session.seat(), piece) {
            (None, _) => "A spectator cannot move pieces".to_string(),
            (Some(_), _) if g.active_seat() != session.seat() => format!("Not your decision now: {}", g.prompt()),
            (Some(_), Piece::Unit(u)) => match g.cannot_move(*u as usize) {
                Some(why) => format!("{} can't move: {why} (rule: Movement)", g.unit_label(*u)),
                None => format!("{} can't move now: {}", g.unit_label(*u), g.prompt()),
            },
            (Some(_), Piece::Command(_)) => format!("Commands move in step 4: {}", g.prompt()),
        };
        notice.refuse(why);
        return;
    }
    hand.facing = Some(at.facing);
    hand.gun = None;
    lights.cells = hand_lights(&targets, hand.facing);
    dragging.origin = tf.translation;
    dragging.entity = Some(ev.entity);
    commands.entity(ev.entity).insert(Pickable::IGNORE);
}

/// Q and E turn the piece in hand by 45° (the lights follow: cyan where it may stand so turned);
/// F forms the infantry unit in hand into a square or takes it out of one (its whole MF; the
/// table refuses it, naming the rule, where it may not).
#[allow(clippy::too_many_arguments)]
pub fn turn_in_hand(
    keyboard: Res<ButtonInput<KeyCode>>,
    dragging: Res<Dragging>,
    mut hand: ResMut<Hand>,
    seen: Res<Seen<Austerlitz>>,
    session: Res<Session>,
    pieces: Query<&Piece>,
    mut tfs: Query<&mut Transform, With<Piece>>,
    mut lights: ResMut<Lights>,
    mut requests: MessageWriter<Request<Austerlitz>>,
) {
    let Some(e) = dragging.entity else { return };
    if keyboard.just_pressed(KeyCode::KeyF)
        && let Ok(Piece::Unit(u)) = pieces.get(e)
    {
        let seat = session.seat().unwrap_or(SeatId(0));
        requests.write(Request::Act { seat, act: Act::Game(Action::Square { unit: *u }) });
        return;
    }
    let turn = if keyboard.just_pressed(KeyCode::KeyE) {
        1
    } else if keyboard.just_pressed(KeyCode::KeyQ) {
        -1
    } else {
        return;
    };
    let Ok(piece) = pieces.get(e) else { return };
    let f = super::super::state::rotate(hand.facing.unwrap_or(Facing::N), turn);
    hand.facing = Some(f);
    if let Ok(mut tf) = tfs.get_mut(e) {
        tf.rotation = BoardGeometry::rotation(f);
    }
    let Some(game) = seen.game() else { return };
    let targets = piece_targets(game, session.seat(), *piece);
    lights.cells = hand_lights(&targets, hand.facing);
}

#[allow(clippy::too_many_arguments)]
fn drag_end(
    ev: On<Pointer<DragEnd>>,
    mut dragging: ResMut<Dragging>,
    pieces: Query<(&Piece, &PieceAt)>,
    cams: Query<(&Camera, &GlobalTransform), Without<crate::table::dice::TrayView>>,
    geo: Option<Res<BoardGeometry>>,
    seen: Res<Seen<Austerlitz>>,
    mut notice: ResMut<crate::table::session::Notice>,
    session: Res<Session>,
    mut lights: ResMut<Lights>,
    hand: Res<Hand>,
    mut requests: MessageWriter<Request<Austerlitz>>,
    mut commands: Commands,
) {
    if !crate::table::glide::let_go(&mut dragging, &mut commands, ev.entity) {
        return;
    }
    lights.cells.clear();
    let (Ok((piece, at)), Some(geo)) = (pieces.get(ev.entity), geo) else { return };
    let pos = crate::table::glide::table_point(&cams, ev.pointer_location.position).unwrap_or(dragging.origin);
    let Some(cell) = geo.cell_at(pos) else { return };
    if at.at == Some(cell) && hand.facing == Some(at.facing) {
        return; // put back as it was
    }
    let Some(game) = seen.game() else { return };
    let targets = piece_targets(game, session.seat(), *piece);
    let here: Vec<_> = targets.into_iter().filter(|(c, ..)| *c == cell).collect();
    // The way it is turned in the hand, or else the cheapest way it may stand there.
    let chosen = here
        .iter()
        .find(|(_, f, ..)| f.is_none() || *f == hand.facing)
        .or_else(|| here.iter().min_by_key(|(_, _, _, cost)| cost.unwrap_or(0)));
    let seat = session.seat().unwrap_or(SeatId(0));
    match chosen {
        Some((_, _, action, _)) => {
            notice.clear();
            requests.write(Request::Act { seat, act: Act::Game(action.clone()) });
        }
        // Where the rules offer nothing, a sandbox's hand puts the piece down all the same.
        None if seen.mode == Mode::Sandbox => {
            notice.clear();
            let put = match *piece {
                Piece::Unit(u) => game.hand_put(false, u, cell),
                Piece::Command(k) => game.hand_put(true, k, cell),
            };
            requests.write(Request::Act { seat, act: Act::Hand(put) });
        }
        None => {
            let g = game;
            let probe = match (piece, g.step) {
                (Piece::Unit(u), Step::Setup) => {
                    Action::Deploy { unit: *u, at: cell, facing: hand.facing.unwrap_or(Facing::N) }
                }
                (Piece::Unit(u), _) => Action::Move { unit: *u, to: cell, facing: hand.facing.unwrap_or(Facing::N) },
                (Piece::Command(k), Step::Setup) => Action::PlaceCommand { command: *k, at: cell },
                (Piece::Command(k), _) => Action::MoveCommand { command: *k, to: cell },
            };
            let why = match g.check(seen.mode, seat, &probe) {
                Err(e) => format!("{e}"),
                Ok(()) => "not there".into(),
            };
            notice.refuse(why);
        }
    }
}

/// A click on the board: a lit target of the gun in hand is fired at; an enemy unit's space
/// opens the combat panel.
pub fn click_board(
    ev: On<Pointer<Click>>,
    geo: Option<Res<BoardGeometry>>,
    seen: Res<Seen<Austerlitz>>,
    session: Res<Session>,
    requests: MessageWriter<Request<Austerlitz>>,
    hand: ResMut<Hand>,
    pick: ResMut<super::panels::CombatPick>,
) {
    if ev.button != PointerButton::Primary {
        return;
    }
    let (Some(geo), Some(pos)) = (geo, ev.hit.position) else { return };
    let Some(cell) = geo.cell_at(pos) else { return };
    choose_cell(cell, None, &seen, &session, requests, hand, pick);
}

fn click_piece(
    ev: On<Pointer<Click>>,
    pieces: Query<(&Piece, &PieceAt)>,
    seen: Res<Seen<Austerlitz>>,
    session: Res<Session>,
    requests: MessageWriter<Request<Austerlitz>>,
    hand: ResMut<Hand>,
    pick: ResMut<super::panels::CombatPick>,
) {
    if ev.button != PointerButton::Primary {
        return;
    }
    if let Ok((piece, PieceAt { at: Some(cell), .. })) = pieces.get(ev.entity)
        && let Some(game) = seen.game()
    {
        let gun = match piece {
            Piece::Unit(u) if game.kind(*u as usize).is_artillery() => Some(*u),
            _ => None,
        };
        choose_cell(*cell, gun, &seen, &session, requests, hand, pick);
    }
}

fn choose_cell(
    cell: Cell,
    gun: Option<u8>,
    seen: &Seen<Austerlitz>,
    session: &Session,
    mut requests: MessageWriter<Request<Austerlitz>>,
    mut hand: ResMut<Hand>,
    mut pick: ResMut<super::panels::CombatPick>,
) {
    let Some(g) = seen.game() else { return };
    let Some(seat) = session.seat() else { return };
    if g.active_seat() != Some(seat) {
        return;
    }
    let mut legal = Vec::new();
    g.legal_actions(seen.mode, &mut legal);
    // A shot of the gun in hand at this space.
    if let Some(h) = hand.gun
        && let Some(a) = legal
            .iter()
            .find(|a| matches!(a, Action::Fire { gun, target, battery: false } if *gun == h && *target == cell))
    {
        requests.write(Request::Act { seat, act: Act::Game(a.clone()) });
        hand.gun = None;
        return;
    }
    // An own gun: show its field of fire.
    if let Some(u) = gun
        && g.side_of(u as usize) == g.side
    {
        hand.gun = if hand.gun == Some(u) { None } else { Some(u) };
        return;
    }
    if legal.iter().any(|a| matches!(a, Action::Attack { target, .. } if *target == cell)) {
        pick.target = Some(cell);
    }
}

/// Lights the field of fire of the gun in hand, the retreats waiting, and the combat target.
pub fn fire_lights(
    seen: Res<Seen<Austerlitz>>,
    session: Res<Session>,
    dragging: Res<Dragging>,
    hand: Res<Hand>,
    pick: Res<super::panels::CombatPick>,
    mut lights: ResMut<Lights>,
) {
    if dragging.entity.is_some() {
        return;
    }
    let Some(g) = seen.game() else { return };
    let mine = session.seat().is_some() && g.active_seat() == session.seat();
    let mut want: Vec<(Cell, Light, Option<String>)> = Vec::new();
    if let Some(gun) = hand.gun {
        let u = gun as usize;
        for (c, rows) in g.field_of_fire(u) {
            let enemy = g.holder(c).is_some_and(|s| s != g.side_of(u));
            let blocked = g.los_blocked(u, c);
            let light = match (&blocked, g.fire_refusal(u, c, false).is_none()) {
                (_, true) if mine => Light::Target,
                (Some(_), _) => Light::Blocked,
                _ => Light::Seen,
            };
            let label = match blocked {
                Some((_, what)) => Some(format!("× {what}")),
                None if enemy => Some(format!("range {}", g.fire_range(rows, c))),
                None => None,
            };
            want.push((c, light, label));
        }
    }
    if mine && let Some(Pending::Retreat { units, .. }) = g.pending.last() {
        let start = units.first().and_then(|&u| g.units[u as usize].at);
        for (_, path, _) in g.retreat_choices() {
            if let Some(end) = path.last().copied().or(start) {
                want.push((end, Light::Retreat, None));
            }
        }
    }
    if let Some(t) = pick.target {
        want.push((t, Light::Target, None));
    }
    if lights.cells != want {
        lights.cells = want;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_in_hand_lights_where_it_may_face_the_way_it_is_turned() {
        let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/austerlitz/1-historical.ron");
        let mut t = crate::games::austerlitz::new_table(std::path::Path::new(scenario), 4).unwrap();
        t.submit(SeatId(1), Act::Game(Action::DeployRest)).unwrap();
        t.submit(SeatId(0), Act::Game(Action::DeployRest)).unwrap();
        t.submit(SeatId(1), Act::Game(Action::EndFire)).unwrap();
        let g = &t.game;
        let u = (0..g.units.len())
            .find(|&u| {
                g.side_of(u) == super::super::super::Side::Allied && g.kind(u) == Kind::Line && !g.reach(u).is_empty()
            })
            .unwrap();
        let targets = piece_targets(&t.game, Some(SeatId(1)), Piece::Unit(u as u8));
        assert!(!targets.is_empty());
        let lights = hand_lights(&targets, Some(Facing::W));
        for (c, light, cost) in &lights {
            let westward = targets.iter().any(|(x, f, ..)| x == c && *f == Some(Facing::W));
            assert_eq!(*light == Light::Reach, westward, "{c:?}");
            assert!(cost.is_some());
        }
        for (_, _, a, _) in &targets {
            assert!(g.check(crate::engine::rules::Mode::Enforced, SeatId(1), a).is_ok(), "{a:?}");
        }
    }
}
