//! Austerlitz's board on the table: where each space lies in the world, the printed board of
//! squares and octagons painted from the board's data (see `table::octmap`), the room, and the
//! lit spaces (a unit's reach with its cost, a gun's field of fire with what blocks it, retreats).

use super::super::data::{Cell, Crossing, Terrain};
use super::super::state::Austerlitz;
use super::geometry::{BoardGeometry, Light, Lights, PITCH};
use crate::engine::seen::Seen;
use crate::table::octmap::{OCT_HALF, OctMapSpec, OctTerrain, SQUARE_HALF};
use bevy::prelude::*;

/// Pixels of the printed board between neighbouring centres.
const PX: f32 = 96.0;

/// The printed board's spec, from the board's data.
pub fn board_spec(game: &Austerlitz) -> OctMapSpec {
    let b = &game.sc.board;
    let mut streams = Vec::new();
    for c in b.cells() {
        for (_, n) in b.grid.neighbours(c) {
            if n.0 > c.0 || (n.0 == c.0 && n.1 > c.1) {
                match b.crossing(c, n) {
                    Crossing::Open => {}
                    Crossing::Stream => streams.push((c, n, false)),
                    Crossing::Bridge => streams.push((c, n, true)),
                }
            }
        }
    }
    let r = b.red_border;
    OctMapSpec {
        columns: b.grid.width,
        rows: b.grid.height,
        pitch: PX,
        terrain: b
            .spaces
            .iter()
            .map(|s| match s.terrain {
                Terrain::Clear => OctTerrain::Clear,
                Terrain::Town => OctTerrain::Town,
                Terrain::Castle => OctTerrain::Castle,
                Terrain::Woods => OctTerrain::Woods,
                Terrain::Pond => OctTerrain::Pond,
            })
            .collect(),
        level: b.spaces.iter().map(|s| s.level).collect(),
        ridge: b.spaces.iter().map(|s| s.ridge).collect(),
        streams,
        road: b.road.clone(),
        sectors: {
            let mut s: Vec<(u8, (i32, i32, i32, i32))> = Vec::new();
            for c in b.cells() {
                if let Some(n) = b.space(c).sector {
                    match s.iter_mut().find(|x| x.0 == n) {
                        Some(x) => {
                            x.1 = (x.1.0.min(c.0), x.1.1.min(c.1), x.1.2.max(c.0), x.1.3.max(c.1));
                        }
                        None => s.push((n, (c.0, c.1, c.0, c.1))),
                    }
                }
            }
            s
        },
        red_lines: vec![r.french_max_x as f32, r.allied_min_x as f32 - 1.0],
        arrow: {
            let (dx, dy) = b.davout_entry.facing.offset();
            Some((b.davout_entry.at, (dx, dy), "Davout".into()))
        },
        names: {
            let mut seen: Vec<String> = Vec::new();
            let mut out = Vec::new();
            for c in b.cells() {
                if let Some(n) = &b.space(c).name
                    && !seen.contains(n)
                    && b.space(c).terrain != Terrain::Castle
                {
                    seen.push(n.clone());
                    out.push((c, n.clone(), matches!(b.space(c).terrain, Terrain::Town | Terrain::Castle)));
                }
            }
            out
        },
        title: ("Austerlitz, 2 December 1805".into(), "The Battle of the Three Emperors · a space about 500 m".into()),
        seed: 1805,
    }
}

/// The lit spaces' materials.
#[derive(Resource)]
pub struct Overlay {
    pub reach: Handle<StandardMaterial>,
    pub far: Handle<StandardMaterial>,
    pub target: Handle<StandardMaterial>,
    pub seen: Handle<StandardMaterial>,
    pub blocked: Handle<StandardMaterial>,
    pub retreat: Handle<StandardMaterial>,
}

#[derive(Component)]
pub struct Lit;

/// The board sheet (clicks on it choose a lit space).
#[derive(Component)]
pub struct BoardSheet;

pub fn setup_board(
    mut commands: Commands,
    seen: Res<Seen<Austerlitz>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    let Some(game) = seen.game() else { return };
    let geo = BoardGeometry::of(&game.sc.board);
    let spec = board_spec(game);
    let started = std::time::Instant::now();
    let key = format!("octmap-{}-{}", crate::table::octmap::PAINTER, crate::engine::digest::digest_of(&spec));
    let (map, cached) =
        crate::table::paint::cached(&key, &crate::table::paint::cache_dir(), || crate::table::octmap::paint(&spec));
    info!(
        "Austerlitz board: {}×{} {} in {:.2} s",
        map.width(),
        map.height(),
        if cached { "read from the cache" } else { "painted" },
        started.elapsed().as_secs_f32()
    );
    let margin = spec.margin() / PX * PITCH;
    let (w, d) = (geo.width + 2.0 * margin, geo.depth + 2.0 * margin);
    crate::table::paint::spawn_room(
        &mut commands,
        &mut meshes,
        &mut materials,
        &mut images,
        ((w + 9.0, d + 7.0), (0.0, 0.5)),
        ((w + 6.0, d + 4.5), (0.0, 0.6)),
    );
    commands
        .spawn((
            BoardSheet,
            Mesh3d(meshes.add(Plane3d::new(Vec3::Y, Vec2::new(w / 2.0, d / 2.0)))),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color_texture: Some(images.add(crate::table::paint::to_image(&map))),
                perceptual_roughness: 0.95,
                ..default()
            })),
            Transform::from_xyz(0.0, -0.045, 0.0),
            Name::new("Austerlitz board"),
        ))
        .observe(super::counters::click_board);
    // The board and both sides' trays beside it (`counters::rebuild`: units waiting to set up
    // or arrive, the eliminated in a row under them), so that no panel hides a waiting unit.
    commands.insert_resource(crate::table::framing::BoardExtent(Rect::new(
        -w / 2.0 - 2.7,
        -d / 2.0,
        w / 2.0 + 2.4,
        d / 2.0 + 1.4,
    )));
    let lit = |materials: &mut Assets<StandardMaterial>, c: Color| {
        materials.add(StandardMaterial { base_color: c, alpha_mode: AlphaMode::Blend, unlit: true, ..default() })
    };
    commands.insert_resource(Overlay {
        reach: lit(&mut materials, Color::srgba(0.1, 0.85, 0.95, 0.4)),
        far: lit(&mut materials, Color::srgba(0.98, 0.7, 0.1, 0.4)),
        target: lit(&mut materials, Color::srgba(0.95, 0.1, 0.1, 0.5)),
        seen: lit(&mut materials, Color::srgba(0.95, 0.85, 0.2, 0.3)),
        blocked: lit(&mut materials, Color::srgba(0.3, 0.3, 0.35, 0.45)),
        retreat: lit(&mut materials, Color::srgba(0.2, 0.9, 0.3, 0.45)),
    });
    commands.insert_resource(geo);
}

pub fn draw_lights(
    mut commands: Commands,
    lights: Res<Lights>,
    overlay: Option<Res<Overlay>>,
    geo: Option<Res<BoardGeometry>>,
    old: Query<Entity, With<Lit>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let (Some(overlay), Some(geo)) = (overlay, geo) else { return };
    if !lights.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let mut groups: Vec<(Handle<StandardMaterial>, Vec<Cell>)> = Vec::new();
    for (c, light, _) in &lights.cells {
        let mat = match light {
            Light::Reach => overlay.reach.clone(),
            Light::Far => overlay.far.clone(),
            Light::Target => overlay.target.clone(),
            Light::Seen => overlay.seen.clone(),
            Light::Blocked => overlay.blocked.clone(),
            Light::Retreat => overlay.retreat.clone(),
        };
        match groups.iter_mut().find(|(m, _)| *m == mat) {
            Some((_, list)) => list.push(*c),
            None => groups.push((mat, vec![*c])),
        }
    }
    for (mat, cells) in groups {
        commands.spawn((
            Lit,
            Mesh3d(meshes.add(cells_mesh(&geo, &cells))),
            MeshMaterial3d(mat),
            Transform::from_xyz(0.0, -0.03, 0.0),
            Pickable::IGNORE,
        ));
    }
}

/// The spaces' shapes (a little inside them) as one mesh.
fn cells_mesh(geo: &BoardGeometry, cells: &[Cell]) -> Mesh {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::{Indices, PrimitiveTopology};
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    for &c in cells {
        let centre = geo.world(c);
        let k = PITCH * 0.9;
        let outline: Vec<(f32, f32)> = if (c.0 + c.1) % 2 == 0 {
            let (a, b) = (SQUARE_HALF * k, OCT_HALF * k);
            vec![(-a, -b), (a, -b), (b, -a), (b, a), (a, b), (-a, b), (-b, a), (-b, -a)]
        } else {
            let a = SQUARE_HALF * k;
            vec![(-a, -a), (a, -a), (a, a), (-a, a)]
        };
        let base = positions.len() as u32;
        positions.push(centre.to_array());
        for (x, z) in &outline {
            positions.push([centre.x + x, 0.0, centre.z + z]);
        }
        let n = outline.len() as u32;
        for i in 0..n {
            indices.extend([base, base + 1 + (i + 1) % n, base + 1 + i]);
        }
    }
    let count = positions.len();
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 1.0, 0.0]; count])
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, vec![[0.0, 0.0]; count])
        .with_inserted_indices(Indices::U32(indices))
}
