//! Leipzig 1813's counters on the table: printed die-cut counters (size, NATO symbol,
//! strength-movement; leaders with their bonuses; supply and depots), stacked on their hexes with
//! their edges showing, spread out when the pointer rests on a stack (the tooltip lists every
//! counter of it), waiting counters in trays beside the map; picking a counter up lights the
//! hexes it may go to with their cost, dropping it asks the rules; a click on a lit hex chooses a
//! retreat or a target.

use super::super::actions::Action;
use super::super::data::{Hex, Kind, Side, Size};
use super::super::plugin::{Counter, CounterAt, Place};
use super::super::state::{Leipzig, March, What};
use super::geometry::{Light, Lights, MapGeometry};
use crate::engine::plugin::Request;
use crate::engine::rules::Section;
use crate::engine::rules::{Game, Mode};
use crate::engine::seats::SeatId;
use crate::engine::seen::Seen;
use crate::engine::table::Act;
use crate::table::glide::{Dragging, Target};
use crate::table::printed::{CounterPrint, Prints, Symbol};
use crate::table::session::Pointing;
use crate::table::session::Session;
use bevy::prelude::*;

pub const SIZE: f32 = 0.4;
pub const THICK: f32 = 0.05;

#[derive(Resource)]
pub struct CounterMeshes {
    pub token: Handle<Mesh>,
    pub edge: Handle<StandardMaterial>,
}

/// The hex whose stack the pointer rests on (spread out).
#[derive(Resource, Default, PartialEq)]
pub struct HoveredHex(pub Option<Hex>);

pub fn setup_counters(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.insert_resource(CounterMeshes {
        token: meshes.add(crate::table::printed::counter_mesh(SIZE, THICK, 0.012)),
        edge: materials.add(StandardMaterial { base_color: Color::srgb(0.8, 0.76, 0.66), ..default() }),
    });
}

fn side_ground(side: Side) -> [u8; 3] {
    match side {
        Side::French => [58, 92, 168],
        Side::Allied => [150, 104, 62],
    }
}

/// A counter's print as the eyes see it: a blank is the side's colour with a question mark; a
/// dispersed counter is shown inverted (its back, marked so).
pub fn print_of(game: &Leipzig, side: Side, what: What, dispersed: bool) -> CounterPrint {
    let ground = side_ground(side);
    let ink = [250, 246, 236];
    let mut p = match what {
        What::Blank => CounterPrint { name: "?".into(), symbol: Symbol::None, values: String::new(), ground, ink },
        What::Leader(n) => {
            let l = game.sc.leader(side, n);
            CounterPrint {
                name: l.map(|l| l.name.clone()).unwrap_or_default(),
                symbol: Symbol::Leader,
                values: l
                    .map(|l| format!("{}·{} ({})", l.offense, l.defense, game.sc.leader_movement))
                    .unwrap_or_default(),
                ground: [ground[0] / 2 + 100, ground[1] / 2 + 100, ground[2] / 2 + 100],
                ink: [30, 24, 18],
            }
        }
        What::Type(t) => {
            let ty = &game.sc.types[t as usize];
            match ty.kind {
                Kind::Supply | Kind::Depot => CounterPrint {
                    name: if ty.kind == Kind::Supply { "SUPPLY".into() } else { "DEPOT".into() },
                    symbol: Symbol::None,
                    values: format!("({})-{}", ty.strength, ty.movement),
                    ground,
                    ink,
                },
                Kind::Infantry | Kind::Cavalry => CounterPrint {
                    name: match ty.size {
                        Size::Division => "XX",
                        Size::Corps => "XXX",
                        Size::Army => "XXXX",
                    }
                    .into(),
                    symbol: if ty.kind == Kind::Infantry { Symbol::Infantry } else { Symbol::Cavalry },
                    values: ty.id.clone(),
                    ground,
                    ink,
                },
            }
        }
    };
    if dispersed {
        p.name = "DISPERSED".into();
        p.ground = p.ground.map(|c| c / 2);
    }
    p
}

/// Gives each counter entity its token.
pub fn dress_counters(
    mut commands: Commands,
    meshes: Option<Res<CounterMeshes>>,
    new: Query<Entity, (With<Counter>, Without<Mesh3d>)>,
) {
    let Some(meshes) = meshes else { return };
    for e in &new {
        commands
            .entity(e)
            .insert((
                Mesh3d(meshes.token.clone()),
                MeshMaterial3d(meshes.edge.clone()),
                Transform::from_xyz(0.0, -3.0, 0.0),
                Visibility::Hidden,
                crate::table::grip::Grip(SIZE * 0.5),
            ))
            .observe(hover_counter)
            // Leaving a counter does not close its spread stack (the pointer crosses the gaps
            // between the spread counters on its way to one): `keep_spread` closes it when the
            // pointer leaves the ring.
            .observe(|_: On<Pointer<Out>>, mut pointing: ResMut<Pointing>| {
                pointing.hovered = None;
            })
            .observe(drag_start)
            .observe(crate::table::glide::carry)
            .observe(drag_end)
            .observe(click_counter);
    }
}

/// Where each counter lies: stacked on its hex (each a little above and beside the one below,
/// so every edge shows), spread round its hex while hovered, in its side's tray while waiting.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn place_counters(
    mut commands: Commands,
    seen: Res<Seen<Leipzig>>,
    geo: Option<Res<MapGeometry>>,
    hovered: Res<HoveredHex>,
    dragging: Res<Dragging>,
    mut prints: ResMut<Prints>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut q: Query<(Entity, &Counter, &CounterAt, &mut Visibility, Option<&Target>, &Transform), Changed<CounterAt>>,
    all: Query<(Entity, &Counter, &CounterAt)>,
    mut last: Local<Option<(Option<Hex>, usize)>>,
) {
    let Some(geo) = geo else { return };
    let Some(game) = seen.game() else { return };
    let count = all.iter().count();
    let relayout = *last != Some((hovered.0, count)) || !q.is_empty();
    *last = Some((hovered.0, count));
    // Faces: only for counters whose view changed.
    for (e, c, at, mut vis, _, _) in &mut q {
        let side = game.units[c.0 as usize].side;
        let face = prints.counter(&print_of(game, side, at.what, at.dispersed), &mut images, &mut materials);
        commands.entity(e).insert(MeshMaterial3d(face));
        *vis = if at.place == Place::Gone { Visibility::Hidden } else { Visibility::Visible };
    }
    if !relayout {
        return;
    }
    let mut stacks: std::collections::BTreeMap<Hex, Vec<(Entity, u16)>> = Default::default();
    let mut trays: [Vec<(Entity, u16)>; 2] = [Vec::new(), Vec::new()];
    for (e, c, at) in &all {
        match at.place {
            Place::Map(h) => stacks.entry(h).or_default().push((e, c.0)),
            Place::Waiting => trays[game.units[c.0 as usize].side.index()].push((e, c.0)),
            Place::Gone => {}
        }
    }
    let mut set = |e: Entity, pos: Vec3| {
        if dragging.entity == Some(e) {
            return;
        }
        commands.entity(e).insert(Target(Transform::from_translation(pos)));
    };
    for (h, mut list) in stacks {
        // Combat units at the bottom, leaders and supply on top, as players stack them.
        list.sort_by_key(|&(_, u)| (!game.is_combat(u), u));
        let centre = geo.world(h);
        let spread = hovered.0 == Some(h) && list.len() > 1;
        let n = list.len();
        for (k, (e, _)) in list.into_iter().enumerate() {
            let pos = if spread {
                let a = k as f32 / n as f32 * std::f32::consts::TAU;
                let r = spread_radius(n);
                centre + Vec3::new(r * a.cos(), 0.35, r * a.sin())
            } else {
                centre + Vec3::new(0.03 * k as f32, THICK / 2.0 + k as f32 * (THICK + 0.004), -0.03 * k as f32)
            };
            set(e, pos);
        }
    }
    for (side, tray) in trays.into_iter().enumerate() {
        let x0 = if side == 0 { -geo.width / 2.0 - 2.6 } else { geo.width / 2.0 + 0.6 };
        for (k, (e, _)) in tray.into_iter().enumerate() {
            let pos = Vec3::new(x0 + (k % 4) as f32 * 0.5, THICK / 2.0, -geo.depth / 2.0 + 0.6 + (k / 4) as f32 * 0.5);
            set(e, pos);
        }
    }
}

/// How far round its hex a stack of `n` counters spreads.
fn spread_radius(n: usize) -> f32 {
    0.28 + 0.04 * n as f32
}

/// A spread stack stays open while the pointer is over its ring (or a piece of it is in hand),
/// and closes when the pointer leaves it.
pub fn keep_spread(
    mut hovered: ResMut<HoveredHex>,
    geo: Option<Res<MapGeometry>>,
    windows: Query<&Window>,
    cams: Query<(&Camera, &GlobalTransform), Without<crate::table::dice::TrayView>>,
    dragging: Res<Dragging>,
    all: Query<&CounterAt>,
) {
    let (Some(h), Some(geo)) = (hovered.0, geo) else { return };
    if dragging.entity.is_some() {
        return;
    }
    let n = all.iter().filter(|at| at.place == Place::Map(h)).count();
    let inside = windows
        .single()
        .ok()
        .and_then(|w| w.cursor_position())
        .and_then(|p| crate::table::glide::table_point(&cams, p))
        .is_some_and(|p| p.xz().distance(geo.world(h).xz()) <= spread_radius(n) + SIZE);
    if !inside {
        hovered.0 = None;
    }
}

/// Resting the pointer on a counter spreads its stack and lists it (the stack inspector).
fn hover_counter(
    ev: On<Pointer<Over>>,
    counters: Query<(&Counter, &CounterAt)>,
    seen: Res<Seen<Leipzig>>,
    mut pointing: ResMut<Pointing>,
    session: Res<Session>,
    mut hovered: ResMut<HoveredHex>,
) {
    let Ok((c, at)) = counters.get(ev.entity) else { return };
    let Some(game) = seen.game() else { return };
    let viewer = session.viewer;
    match at.place {
        Place::Map(h) => {
            hovered.0 = Some(h);
            let mut lines = vec![game.hex_name(h)];
            for (c2, at2) in &counters {
                if at2.place == Place::Map(h) {
                    lines.push(format!(
                        "· {}{}",
                        game.unit_name(c2.0, viewer),
                        if at2.dispersed { " (dispersed)" } else { "" }
                    ));
                }
            }
            pointing.hovered = Some(lines.join("\n"));
        }
        _ => pointing.hovered = Some(format!("{} (waiting to enter)", game.unit_name(c.0, viewer))),
    }
}

/// The hexes a counter may be put on now by the seat at the controls, each with its action and
/// light: moves (by march), deployment, entry, retreat before combat.
pub fn counter_targets(game: &Leipzig, seat: Option<SeatId>, u: u16) -> Vec<(Hex, Action, Light, Option<u8>)> {
    if seat.is_none() || game.active_seat() != seat {
        return Vec::new();
    }
    let mut legal = Vec::new();
    // Every march: a drop beyond the allowance is a forced march (with a supply unit if one is near).
    game.legal(Some(&Action::Move { unit: u, to: Hex(0), march: March::Triple, supply: None }), &mut legal);
    let s = super::super::rules::zoc::Situation::as_seen_by(game, game.side);
    let costs: std::collections::HashMap<Hex, u8> =
        game.all_destinations(&s, u, March::Triple).into_iter().map(|(h, c, _)| (h, c)).collect();
    let mut out: Vec<(Hex, Action, Light, Option<u8>)> = Vec::new();
    for a in legal.drain(..) {
        if let Action::Move { to, march, supply, .. } = a {
            // One action a hex: the march with a supply unit before the tables.
            if out.iter().any(|(h, ..)| *h == to) {
                if supply.is_some()
                    && let Some(slot) = out.iter_mut().find(|(h, ..)| *h == to)
                {
                    slot.1 = a.clone();
                }
                continue;
            }
            let light = match march {
                March::Normal => Light::Normal,
                March::Double => Light::Double,
                March::Triple => Light::Triple,
            };
            out.push((to, a.clone(), light, costs.get(&to).copied()));
        }
    }
    for like in [
        Action::Deploy { unit: u, hex: Hex(0) },
        Action::Enter { unit: u, hex: Hex(0) },
        Action::RetreatBefore { unit: u, to: Hex(0) },
    ] {
        game.legal(Some(&like), &mut legal);
        for a in legal.drain(..) {
            match a {
                Action::Deploy { unit, hex } | Action::Enter { unit, hex } if unit == u => {
                    out.push((hex, a, Light::Normal, None))
                }
                Action::RetreatBefore { unit, to } if unit == u => out.push((to, a, Light::Retreat, None)),
                _ => {}
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn drag_start(
    ev: On<Pointer<DragStart>>,
    counters: Query<(&Counter, &Transform)>,
    seen: Res<Seen<Leipzig>>,
    mut notice: ResMut<crate::table::session::Notice>,
    session: Res<Session>,
    mut dragging: ResMut<Dragging>,
    mut lights: ResMut<Lights>,
    mut commands: Commands,
) {
    if ev.button != PointerButton::Primary {
        return;
    }
    let Ok((c, tf)) = counters.get(ev.entity) else { return };
    let Some(game) = seen.game() else { return };
    let targets = counter_targets(game, session.seat(), c.0);
    // In a sandbox the deciding seat's hand picks up any counter (the rules may light none).
    let by_hand = seen.mode == Mode::Sandbox && session.seat().is_some() && game.active_seat() == session.seat();
    if targets.is_empty() && !by_hand {
        let why = match session.seat() {
            None => "A spectator cannot move counters".to_string(),
            Some(_) if game.units[c.0 as usize].side != game.deciding().unwrap_or(Side::French) => {
                format!("That counter is not yours to move now: {}", game.waiting_for())
            }
            Some(seat) => {
                let probe = Action::Move {
                    unit: c.0,
                    to: game.units[c.0 as usize].hex.unwrap_or(Hex(0)),
                    march: March::Normal,
                    supply: None,
                };
                match game.check(seen.mode, seat, &probe) {
                    Err(e) => format!("{e} (rule: {})", e.section.heading()),
                    Ok(()) => "That counter has nowhere to go".into(),
                }
            }
        };
        notice.refuse(why);
        return;
    }
    lights.hexes = targets.into_iter().map(|(h, _, l, c)| (h, l, c)).collect();
    dragging.origin = tf.translation;
    dragging.entity = Some(ev.entity);
    commands.entity(ev.entity).insert(Pickable::IGNORE);
}

#[allow(clippy::too_many_arguments)]
fn drag_end(
    ev: On<Pointer<DragEnd>>,
    mut dragging: ResMut<Dragging>,
    counters: Query<&Counter>,
    cams: Query<(&Camera, &GlobalTransform), Without<crate::table::dice::TrayView>>,
    geo: Option<Res<MapGeometry>>,
    seen: Res<Seen<Leipzig>>,
    mut notice: ResMut<crate::table::session::Notice>,
    session: Res<Session>,
    mut lights: ResMut<Lights>,
    mut requests: MessageWriter<Request<Leipzig>>,
    mut commands: Commands,
) {
    if !crate::table::glide::let_go(&mut dragging, &mut commands, ev.entity) {
        return;
    }
    lights.hexes.clear();
    let (Ok(c), Some(geo)) = (counters.get(ev.entity), geo) else { return };
    let pos = crate::table::glide::table_point(&cams, ev.pointer_location.position).unwrap_or(dragging.origin);
    let Some(hex) = geo.hex_at(pos) else { return };
    let Some(game) = seen.game() else { return };
    if game.hex_of(c.0) == Some(hex) {
        return; // put back where it was
    }
    let targets = counter_targets(game, session.seat(), c.0);
    match targets.into_iter().find(|(h, ..)| *h == hex) {
        Some((_, action, ..)) => {
            notice.clear();
            let seat = session.seat().unwrap_or(SeatId(0));
            requests.write(Request::Act { seat, act: Act::Game(action) });
        }
        // Where the rules offer nothing, a sandbox's hand puts the counter down all the same.
        None if seen.mode == Mode::Sandbox
            && let Some(seat) = session.seat() =>
        {
            notice.clear();
            requests.write(Request::Act { seat, act: Act::Hand(Leipzig::hand_put(c.0, hex)) });
        }
        None => {
            let seat = session.seat().unwrap_or(SeatId(0));
            let probe = Action::Move { unit: c.0, to: hex, march: March::Normal, supply: None };
            let why = match game.check(seen.mode, seat, &probe) {
                Err(e) => format!("{e} (rule: {})", e.section.heading()),
                Ok(()) => "not there".into(),
            };
            notice.refuse(why);
        }
    }
}

/// A click on the map chooses a lit hex: a retreat's way, or the target of the combat panel.
pub fn click_map(
    ev: On<Pointer<Click>>,
    geo: Option<Res<MapGeometry>>,
    seen: Res<Seen<Leipzig>>,
    session: Res<Session>,
    requests: MessageWriter<Request<Leipzig>>,
    combat: ResMut<super::panels::CombatPick>,
) {
    if ev.button != PointerButton::Primary {
        return;
    }
    let (Some(geo), Some(pos)) = (geo, ev.hit.position) else { return };
    let Some(hex) = geo.hex_at(pos) else { return };
    choose_hex(hex, &seen, &session, requests, combat);
}

/// A click on a counter chooses its hex, as a click on the map there would.
fn click_counter(
    ev: On<Pointer<Click>>,
    counters: Query<&CounterAt>,
    seen: Res<Seen<Leipzig>>,
    session: Res<Session>,
    requests: MessageWriter<Request<Leipzig>>,
    combat: ResMut<super::panels::CombatPick>,
) {
    if ev.button != PointerButton::Primary {
        return;
    }
    if let Ok(CounterAt { place: Place::Map(hex), .. }) = counters.get(ev.entity) {
        choose_hex(*hex, &seen, &session, requests, combat);
    }
}

fn choose_hex(
    hex: Hex,
    seen: &Seen<Leipzig>,
    session: &Session,
    mut requests: MessageWriter<Request<Leipzig>>,
    mut combat: ResMut<super::panels::CombatPick>,
) {
    let Some(game) = seen.game() else { return };
    let Some(seat) = session.seat() else { return };
    if game.active_seat() != Some(seat) {
        return;
    }
    let mut legal = Vec::new();
    game.legal_actions(seen.mode, &mut legal);
    if let Some(a) = legal.iter().find(|a| matches!(a, Action::Retreat { to } if *to == hex)) {
        requests.write(Request::Act { seat, act: Act::Game(a.clone()) });
        return;
    }
    if legal.iter().any(|a| matches!(a, Action::Declare { target, .. } if *target == hex)) {
        combat.target = Some(hex);
    }
}

/// Lights the hexes a pending retreat may go to, and the combat panel's target.
pub fn retreat_lights(
    seen: Res<Seen<Leipzig>>,
    session: Res<Session>,
    dragging: Res<Dragging>,
    combat: Res<super::panels::CombatPick>,
    mut lights: ResMut<Lights>,
) {
    if dragging.entity.is_some() {
        return;
    }
    let Some(game) = seen.game() else { return };
    let mine = session.seat().is_some() && game.active_seat() == session.seat();
    let mut want: Vec<(Hex, Light, Option<u8>)> = Vec::new();
    if mine && !game.pending.is_empty() {
        let mut legal = Vec::new();
        game.legal_actions(seen.mode, &mut legal);
        want.extend(legal.iter().filter_map(|a| match a {
            Action::Retreat { to } => Some((*to, Light::Retreat, None)),
            _ => None,
        }));
    }
    if let Some(t) = combat.target {
        want.push((t, Light::Target, None));
    }
    if lights.hexes != want {
        lights.hexes = want;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::table::Act;

    #[test]
    fn a_counter_dropped_beyond_its_allowance_makes_a_forced_march() {
        let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/leipzig-1813/1-historical-situation.ron");
        let mut t = crate::games::leipzig::new_table(std::path::Path::new(scenario), 4).unwrap();
        t.submit(SeatId(1), Act::Game(Action::DeployRest)).unwrap();
        let game = &t.game;
        let mover = game.on_map(Side::French).find(|&u| game.can_move(u) && game.is_combat(u)).expect("a French corps");
        let targets = counter_targets(&t.game, Some(SeatId(0)), mover);
        let forced: Vec<&(Hex, Action, Light, Option<u8>)> =
            targets.iter().filter(|(_, _, light, _)| *light != Light::Normal).collect();
        assert!(!forced.is_empty(), "hexes beyond the allowance are lit and take a drop");
        for (hex, action, light, _) in forced {
            let Action::Move { to, march, .. } = action else { panic!("a move: {action:?}") };
            assert_eq!(to, hex);
            assert_eq!(*light == Light::Double, *march == March::Double);
            assert!(game.check(crate::engine::rules::Mode::Enforced, SeatId(0), action).is_ok());
        }
        assert!(
            targets
                .iter()
                .any(|(_, a, l, _)| *l == Light::Normal && matches!(a, Action::Move { march: March::Normal, .. }))
        );
    }
}
