//! Victory & Glory's map of Europe: where each nation, the sea and the armies lie on the table
//! (from the table map's geography, `map.ron`, when the scenario folder has one; from the
//! scenario's schematic places otherwise), the painted map itself, and the table it lies on.

use super::super::Player;
use super::super::data::NationKind;
use super::super::state::Vg;
use crate::engine::seen::Seen;
use crate::engine::tablemap::TableMap;
use crate::table::paint::{Fill, MapSpec, Region};
use bevy::prelude::*;

/// Where things lie on the table: each nation's place, the sea of naval campaigns, and the
/// coastlines (table units) when the map has geography.
#[derive(Resource, Clone, Debug)]
pub struct Geo {
    pub nations: Vec<Vec3>,
    pub sea: Vec3,
    pub land: Vec<Vec<(f32, f32)>>,
    pub credit: Option<String>,
}

impl Geo {
    /// The geography of the game's scenario folder, or its schematic places.
    pub fn of(game: &Vg) -> Geo {
        let map = TableMap::beside(&game.sc.path);
        let schematic = |(x, y): (f32, f32)| Vec3::new(x, 0.0, -y);
        let place = |name: &str, fallback: (f32, f32)| {
            map.as_ref().and_then(|m| m.place(name)).map(|(x, z)| Vec3::new(x, 0.0, z)).unwrap_or(schematic(fallback))
        };
        Geo {
            nations: game.sc.nations.iter().map(|n| place(&n.name, n.pos)).collect(),
            sea: place("The sea", game.sc.seas_pos),
            land: map
                .as_ref()
                .map(|m| m.land.iter().map(|poly| poly.iter().map(|p| m.to_table(*p)).collect()).collect())
                .unwrap_or_default(),
            credit: map.map(|m| m.credit),
        }
    }

    pub fn nation(&self, n: u8) -> Vec3 {
        self.nations.get(n as usize).copied().unwrap_or(Vec3::ZERO)
    }
}

/// The row of a player's army in front of their seat, off the map's edge.
pub fn army_world(p: Player, i: usize) -> Vec3 {
    let z = if p == Player::France { 15.0 } else { -15.2 };
    Vec3::new(
        -3.0 + (i % 16) as f32 * 0.62,
        0.0,
        z + (i / 16) as f32 * 0.55 * if p == Player::France { 1.0 } else { -1.0 },
    )
}

pub fn nation_color(name: &str) -> Color {
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

/// What the map of Europe is painted from. With coastlines: the land in each nation's tint around
/// its place, borders where two nations' lands meet, the sea beyond the coast. Without: land
/// around each nation and sea regions on a grid wherever no nation lies within reach.
pub fn map_spec(game: &Vg, geo: &Geo) -> MapSpec {
    let land: Vec<(f32, f32)> =
        (0..game.sc.nations.len()).map(|n| (geo.nation(n as u8).x, geo.nation(n as u8).z)).collect();
    let mut regions: Vec<Region> = game
        .sc
        .nations
        .iter()
        .zip(&land)
        .map(|(n, &at)| {
            let c = nation_color(&n.name).to_srgba();
            let tint =
                [0.50 + c.red * 0.42, 0.48 + c.green * 0.42, 0.40 + c.blue * 0.42].map(|v| (v.min(1.0) * 255.0) as u8);
            Region { at, color: tint, fill: Fill::Open }
        })
        .collect();
    let sea = [70, 110, 150];
    if geo.land.is_empty() {
        let mut z = -13.5;
        while z <= 13.5 {
            let mut x = -11.0;
            while x <= 14.0 {
                if land.iter().all(|l| (l.0 - x).hypot(l.1 - z) > 3.4) {
                    regions.push(Region { at: (x, z), color: sea, fill: Fill::Water });
                }
                x += 1.6;
            }
            z += 1.6;
        }
        regions.push(Region { at: (geo.sea.x, geo.sea.z), color: sea, fill: Fill::Water });
    }
    MapSpec {
        width: 832,
        height: 896,
        extent: (-11.5, -14.0, 14.5, 14.0),
        paper: [222, 214, 190],
        regions,
        reach: if geo.land.is_empty() { 3.4 } else { 5.0 },
        roads: Vec::new(),
        rivers: Vec::new(),
        land: geo.land.clone(),
        // Over the Sahara and in the Atlantic: where the panels of the default view leave room.
        // The coastlines' credit printed in it, as a printed map carries its sources.
        cartouche: Some(crate::table::paint::Cartouche {
            title: "Victory & Glory: Napoleon".into(),
            subtitle: "Europe, 1796–1815".into(),
            credit: geo.credit.as_deref().and_then(|c| c.split(';').next()).map(str::to_string),
            at: (1.5, 12.7),
        }),
        compass: Some((-10.0, 3.2)),
        cells: Vec::new(),
        seed: 1796,
    }
}

pub fn setup_map(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
    seen: Res<Seen<Vg>>,
) {
    let Some(game) = seen.game() else { return };
    let geo = Geo::of(game);
    let (table, felt) = (((60.0, 46.0), (2.0, 0.0)), ((38.0, 38.0), (2.0, 0.0)));
    crate::table::paint::spawn_room(&mut commands, &mut meshes, &mut materials, &mut images, table, felt);
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(26.0, 0.1, 28.0))),
        MeshMaterial3d(materials.add(StandardMaterial { base_color: Color::srgb(0.80, 0.84, 0.86), ..default() })),
        Transform::from_xyz(1.5, -0.1, 0.0),
        Pickable::IGNORE,
        Name::new("Map of Europe"),
    ));
    // The map and the two hands fanned beyond its ends (`rebuild_pieces`), so that a seat sees
    // its own cards whole.
    commands.insert_resource(crate::table::framing::BoardExtent(Rect::new(-11.5, -17.2, 14.5, 17.2)));
    let spec = map_spec(game, &geo);
    crate::table::paint::spawn_map(
        &mut commands,
        &mut meshes,
        &mut materials,
        &mut images,
        &spec,
        "Painted map of Europe",
    );
    // Each nation's place: a printed ring, larger for the players and the major powers.
    let ink = materials.add(StandardMaterial {
        base_color: Color::srgb(0.30, 0.24, 0.18),
        perceptual_roughness: 0.9,
        ..default()
    });
    for (i, n) in game.sc.nations.iter().enumerate() {
        let radius = match n.kind {
            NationKind::Player => 1.3,
            NationKind::Major => 1.15,
            NationKind::Minor => 0.95,
        };
        commands.spawn((
            Mesh3d(
                meshes.add(
                    Annulus::new(radius - 0.06, radius)
                        .mesh()
                        .resolution(64)
                        .build()
                        .rotated_by(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
                ),
            ),
            MeshMaterial3d(ink.clone()),
            Transform::from_translation(geo.nation(i as u8) + Vec3::Y * 0.0),
            Pickable::IGNORE,
            Name::new(n.name.clone()),
        ));
    }
    commands.spawn((
        Mesh3d(
            meshes.add(
                Annulus::new(1.5, 1.56)
                    .mesh()
                    .resolution(64)
                    .build()
                    .rotated_by(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
            ),
        ),
        MeshMaterial3d(materials.add(StandardMaterial { base_color: Color::srgb(0.2, 0.3, 0.45), ..default() })),
        Transform::from_translation(geo.sea),
        Pickable::IGNORE,
        Name::new("The sea"),
    ));
    let nations = game
        .sc
        .nations
        .iter()
        .map(|n| {
            materials.add(StandardMaterial {
                base_color: nation_color(&n.name),
                perceptual_roughness: 0.7,
                ..default()
            })
        })
        .collect();
    commands.insert_resource(Palette {
        block: meshes.add(Cuboid::new(0.42, 0.46, 0.16)),
        sticker: meshes.add(Plane3d::new(Vec3::Z, Vec2::new(0.18, 0.2))),
        cube: meshes.add(Cuboid::new(0.2, 0.2, 0.2)),
        marker: meshes.add(Cylinder::new(0.5, 0.12)),
        marker_face: meshes
            .add(Circle::new(0.46).mesh().build().rotated_by(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2))),
        card: meshes.add(Cuboid::new(0.9, 0.02, 1.3)),
        card_plane: meshes.add(Plane3d::new(Vec3::Y, Vec2::new(0.45, 0.65))),
        french: materials.add(StandardMaterial { base_color: Color::srgb(0.15, 0.3, 0.9), ..default() }),
        british: materials.add(StandardMaterial { base_color: Color::srgb(0.85, 0.1, 0.1), ..default() }),
        wood: materials.add(StandardMaterial {
            base_color: Color::srgb(0.62, 0.45, 0.28),
            perceptual_roughness: 0.6,
            ..default()
        }),
        nations,
    });
    commands.insert_resource(geo);
}

/// The meshes and materials the pieces are drawn with, made once with the map.
#[derive(Resource)]
pub struct Palette {
    /// A unit is a wooden block standing on its edge, its sticker toward its owner.
    pub(super) block: Handle<Mesh>,
    pub(super) sticker: Handle<Mesh>,
    pub(super) cube: Handle<Mesh>,
    /// A campaign's battle marker: a round wooden token with its printed top.
    pub(super) marker: Handle<Mesh>,
    pub(super) marker_face: Handle<Mesh>,
    pub(super) card: Handle<Mesh>,
    pub(super) card_plane: Handle<Mesh>,
    pub(super) french: Handle<StandardMaterial>,
    pub(super) british: Handle<StandardMaterial>,
    pub(super) wood: Handle<StandardMaterial>,
    pub(super) nations: Vec<Handle<StandardMaterial>>,
}
