//! Leipzig 1813's map on the table: where each hex lies in the world, the printed hex map
//! painted from the board's data (terrain, rivers and bridges, the Austrian border, the
//! armistice line, names), the room, and the lit hexes (destinations with their cost, retreats,
//! zones of control on demand).

use super::super::data::{Hex, Hexside, Terrain};
use super::super::state::Leipzig;
use super::geometry::{Light, Lights, MapGeometry, RADIUS};
use crate::engine::seen::Seen;
use crate::table::hexmap::{HexMapSpec, HexTerrain};
use bevy::prelude::*;

/// Pixels of the printed map per hex corner radius.
const PX: f32 = 30.0;

/// The printed map's spec, from the board's data.
pub fn map_spec(game: &Leipzig) -> HexMapSpec {
    let b = &game.sc.board;
    let mut rivers = Vec::new();
    let mut borders = Vec::new();
    let mut lines = Vec::new();
    for i in 0..b.len() {
        let h = Hex(i as u16);
        for (_, n) in b.neighbours(h) {
            if n.0 as usize <= i {
                continue;
            }
            match b.side(h, n) {
                Hexside::River => rivers.push((i, n.0 as usize, false)),
                Hexside::Bridge => rivers.push((i, n.0 as usize, true)),
                Hexside::Open => {}
            }
            if b.austria[i] != b.austria[n.0 as usize] {
                borders.push((i, n.0 as usize));
            }
            if b.allied_side[i] != b.allied_side[n.0 as usize] {
                lines.push((i, n.0 as usize));
            }
        }
    }
    let major = ["Berlin", "Dresden", "Leipzig", "Breslau", "Prague"];
    HexMapSpec {
        columns: b.columns,
        rows: b.rows,
        radius: PX,
        terrain: b
            .terrain
            .iter()
            .map(|t| match t {
                Terrain::Clear => HexTerrain::Clear,
                Terrain::City => HexTerrain::City,
                Terrain::Fortress => HexTerrain::Fortress,
                Terrain::Mountain => HexTerrain::Mountain,
                Terrain::Pass => HexTerrain::Pass,
            })
            .collect(),
        foreign: b.austria.clone(),
        rivers,
        borders,
        lines,
        names: b.places.iter().map(|(n, h)| (h.0 as usize, n.clone(), major.contains(&n.as_str()))).collect(),
        lettering: b.ranges.iter().map(|(n, h)| (h.0 as usize, n.clone())).collect(),
        title: ("Leipzig 1813".into(), "The campaign in Saxony and Silesia · 10 km a hex".into()),
        seed: 1813,
    }
}

/// The lit hexes and their materials.
#[derive(Resource)]
pub struct Overlay {
    pub normal: Handle<StandardMaterial>,
    pub double: Handle<StandardMaterial>,
    pub triple: Handle<StandardMaterial>,
    pub retreat: Handle<StandardMaterial>,
    pub target: Handle<StandardMaterial>,
    pub zoc: [Handle<StandardMaterial>; 2],
}

/// A lit hex (despawned when the lights change).
#[derive(Component)]
pub struct Lit;

/// The map sheet (clicks on it choose a lit hex).
#[derive(Component)]
pub struct MapSheet;

/// Lays the room, paints (or reads from the cache) the printed map and lays it on the table.
pub fn setup_map(
    mut commands: Commands,
    seen: Res<Seen<Leipzig>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    let Some(game) = seen.game() else { return };
    let geo = MapGeometry::of(&game.sc.board);
    let spec = map_spec(game);
    let started = std::time::Instant::now();
    let key = format!("hexmap-{}-{}", crate::table::hexmap::PAINTER, crate::engine::digest::digest_of(&spec));
    let (map, cached) =
        crate::table::paint::cached(&key, &crate::table::paint::cache_dir(), || crate::table::hexmap::paint(&spec));
    info!(
        "Leipzig map: {}×{} {} in {:.2} s",
        map.width(),
        map.height(),
        if cached { "read from the cache" } else { "painted" },
        started.elapsed().as_secs_f32()
    );
    crate::table::paint::spawn_room(
        &mut commands,
        &mut meshes,
        &mut materials,
        &mut images,
        ((geo.width + 12.0, geo.depth + 10.0), (0.0, 0.5)),
        ((geo.width + 7.0, geo.depth + 6.0), (0.0, 0.8)),
    );
    commands
        .spawn((
            MapSheet,
            Mesh3d(meshes.add(Plane3d::new(Vec3::Y, Vec2::new(geo.width / 2.0, geo.depth / 2.0)))),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color_texture: Some(images.add(crate::table::paint::to_image(&map))),
                perceptual_roughness: 0.95,
                ..default()
            })),
            Transform::from_xyz(0.0, -0.045, 0.0),
            Name::new("Leipzig 1813 map"),
        ))
        .observe(super::counters::click_map);
    commands.insert_resource(crate::table::framing::BoardExtent(Rect::from_center_size(
        Vec2::ZERO,
        Vec2::new(geo.width, geo.depth),
    )));
    let lit = |materials: &mut Assets<StandardMaterial>, c: Color| {
        materials.add(StandardMaterial { base_color: c, alpha_mode: AlphaMode::Blend, unlit: true, ..default() })
    };
    commands.insert_resource(Overlay {
        normal: lit(&mut materials, Color::srgba(0.1, 0.85, 0.95, 0.38)),
        double: lit(&mut materials, Color::srgba(0.98, 0.7, 0.1, 0.38)),
        triple: lit(&mut materials, Color::srgba(0.95, 0.25, 0.15, 0.38)),
        retreat: lit(&mut materials, Color::srgba(0.2, 0.9, 0.3, 0.45)),
        target: lit(&mut materials, Color::srgba(0.95, 0.1, 0.1, 0.5)),
        zoc: [
            lit(&mut materials, Color::srgba(0.15, 0.3, 0.95, 0.25)),
            lit(&mut materials, Color::srgba(0.6, 0.35, 0.1, 0.3)),
        ],
    });
    commands.insert_resource(geo);
}

/// Redraws the lit hexes when they change.
#[allow(clippy::too_many_arguments)]
pub fn draw_lights(
    mut commands: Commands,
    lights: Res<Lights>,
    overlay: Option<Res<Overlay>>,
    geo: Option<Res<MapGeometry>>,
    seen: Res<Seen<Leipzig>>,
    session: Res<crate::table::session::Session>,
    old: Query<Entity, With<Lit>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let (Some(overlay), Some(geo)) = (overlay, geo) else { return };
    if !lights.is_changed() && !seen.is_changed() && !session.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let mut all = lights.hexes.clone();
    if lights.show_zoc {
        // Only the zones the viewer may know of: a blank's zone would tell a combat unit from a
        // supply wagon.
        let Some(game) = seen.game() else { return };
        let s = super::super::rules::zoc::Situation::seen_from(game, session.viewer);
        for side in 0..2 {
            for (i, z) in s.zoc[side].iter().enumerate() {
                if *z != super::super::rules::zoc::Zoc::None {
                    all.push((Hex(i as u16), Light::Zoc(side), None));
                }
            }
        }
    }
    // One mesh a colour: hundreds of lit hexes are a few draws, not hundreds of entities.
    let mut groups: Vec<(Handle<StandardMaterial>, Vec<Hex>)> = Vec::new();
    for (h, light, _) in all {
        let mat = match light {
            Light::Normal => overlay.normal.clone(),
            Light::Double => overlay.double.clone(),
            Light::Triple => overlay.triple.clone(),
            Light::Retreat => overlay.retreat.clone(),
            Light::Target => overlay.target.clone(),
            Light::Zoc(s) => overlay.zoc[s].clone(),
        };
        match groups.iter_mut().find(|(m, _)| *m == mat) {
            Some((_, list)) => list.push(h),
            None => groups.push((mat, vec![h])),
        }
    }
    for (mat, hexes) in groups {
        commands.spawn((
            Lit,
            Mesh3d(meshes.add(hexes_mesh(&geo, &hexes))),
            MeshMaterial3d(mat),
            Transform::from_xyz(0.0, -0.03, 0.0),
            Pickable::IGNORE,
        ));
    }
}

/// Flat-topped hexagons (a little inside their hex) on the table, as one mesh.
fn hexes_mesh(geo: &MapGeometry, hexes: &[Hex]) -> Mesh {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::{Indices, PrimitiveTopology};
    let mut positions: Vec<[f32; 3]> = Vec::with_capacity(hexes.len() * 7);
    let mut indices: Vec<u32> = Vec::with_capacity(hexes.len() * 18);
    for &h in hexes {
        let c = geo.world(h);
        let base = positions.len() as u32;
        positions.push(c.to_array());
        for k in 0..6 {
            let a = k as f32 * std::f32::consts::FRAC_PI_3;
            positions.push([c.x + RADIUS * 0.92 * a.cos(), 0.0, c.z + RADIUS * 0.92 * a.sin()]);
        }
        for k in 0..6u32 {
            // Counter-clockwise seen from above (+y), so the faces look up.
            indices.extend([base, base + 1 + (k + 1) % 6, base + 1 + k]);
        }
    }
    let n = positions.len();
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 1.0, 0.0]; n])
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, vec![[0.0, 0.0]; n])
        .with_inserted_indices(Indices::U32(indices))
}
