//! The board drawn from the scenario's geometry: a field disc per area, coloured by terrain, roads
//! between adjacent fields, the time bar and the victory point bar. Fields are pickable so that a
//! dragged piece can be dropped on them and hovering tells their name and terrain.

use super::super::Botn;
use super::super::data::Terrain;
use super::super::plugin::Field;
use crate::engine::geometry::SpaceId;
use crate::engine::plugin::TableSet;
use crate::engine::seen::Seen;
use crate::table::session::Pointing;
use bevy::prelude::*;

/// World units per kilometre of the map.
pub const SCALE: f32 = 1.0;
pub const FIELD_RADIUS: f32 = 0.62;

/// The table position of a point of the map (x east, y north in km).
pub fn map_to_world(pos: (f32, f32)) -> Vec3 {
    Vec3::new(pos.0 * SCALE, 0.0, -pos.1 * SCALE)
}

pub fn field_world(game: &Botn, f: SpaceId) -> Vec3 {
    map_to_world(game.sc.fields[f.0 as usize].pos)
}

/// The world position of space `i` of the time bar (along the south edge).
pub fn time_bar_world(i: usize) -> Vec3 {
    Vec3::new(-6.6 + i as f32 * 0.78, 0.0, 12.6)
}

/// The world position of point `p` of the victory point bar (along the north edge, two rows).
pub fn vp_bar_world(p: u8) -> Vec3 {
    let p = p as f32;
    Vec3::new(-6.6 + (p % 20.0) * 0.88, 0.0, -12.4 - (p / 20.0).floor() * 0.8)
}

pub fn terrain_color(t: Terrain) -> Color {
    match t {
        Terrain::Plain => Color::srgb(0.80, 0.76, 0.50),
        Terrain::River => Color::srgb(0.38, 0.60, 0.78),
        Terrain::Forest => Color::srgb(0.30, 0.52, 0.28),
        Terrain::Hill => Color::srgb(0.66, 0.50, 0.34),
    }
}

/// Materials the board reuses, so lighting a field is a handle swap, not a new material.
#[derive(Resource)]
pub struct BoardMaterials {
    pub terrain: [Handle<StandardMaterial>; 4],
    pub highlight: Handle<StandardMaterial>,
    pub focus: Handle<StandardMaterial>,
}

pub struct BoardPlugin;

impl Plugin for BoardPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, setup_board)
            .add_systems(Update, (dress_fields, light_fields).chain().in_set(TableSet::Present));
    }
}

/// What the battlefield's map is painted from: each field's terrain around its place (the city of
/// Leipzig built up), the roads between adjacent fields, and water along the fields by a river.
/// Map units are the table's (x east, z south).
pub fn map_spec(game: &Botn) -> crate::table::paint::MapSpec {
    use crate::table::paint::{Fill, MapSpec, Region};
    let sc = &game.sc;
    let at = |f: SpaceId| {
        let w = field_world(game, f);
        (w.x, w.z)
    };
    let regions = sc
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (color, fill) = match f.terrain {
                _ if f.name == "Leipzig" => ([196, 160, 130], Fill::Town),
                Terrain::Plain => ([214, 200, 140], Fill::Open),
                Terrain::River => ([150, 190, 150], Fill::Open),
                Terrain::Forest => ([92, 140, 84], Fill::Wood),
                Terrain::Hill => ([186, 150, 104], Fill::Heights),
            };
            Region { at: at(SpaceId(i as u16)), color, fill }
        })
        .collect();
    // The rivers from the table map (their real courses) when the scenario folder has one; else
    // water bending between adjacent river villages.
    let map = crate::engine::tablemap::TableMap::beside(&sc.path);
    let mut roads = Vec::new();
    let mut rivers: Vec<(Vec<(f32, f32)>, f32)> = map
        .iter()
        .flat_map(|m| {
            m.rivers.iter().map(move |r| {
                let course = r.course.iter().map(|p| m.to_table(*p)).map(|(x, z)| (x * SCALE, z * SCALE)).collect();
                (course, r.width * SCALE)
            })
        })
        .collect();
    let drawn = !rivers.is_empty();
    for a in 0..sc.fields.len() {
        for &b in sc.graph.neighbours(SpaceId(a as u16)) {
            if (b.0 as usize) <= a {
                continue;
            }
            let (pa, pb) = (at(SpaceId(a as u16)), at(b));
            roads.push((pa, pb));
            if !drawn && sc.fields[a].terrain == Terrain::River && sc.fields[b.0 as usize].terrain == Terrain::River {
                // The water bends between the two villages, off the road.
                let mid = ((pa.0 + pb.0) / 2.0 + (pb.1 - pa.1) * 0.15, (pa.1 + pb.1) / 2.0 - (pb.0 - pa.0) * 0.15);
                rivers.push((vec![pa, mid, pb], 0.12));
            }
        }
    }
    MapSpec {
        width: 768,
        height: 1046,
        extent: (-8.0, -14.3, 13.0, 14.3),
        paper: [236, 226, 200],
        regions,
        reach: 2.4,
        roads,
        rivers,
        land: Vec::new(),
        // In the empty south-west corner and north-east, clear of the villages.
        cartouche: Some(crate::table::paint::Cartouche {
            title: "Battle of the Nations".into(),
            subtitle: "Leipzig, 16–19 October 1813".into(),
            credit: None,
            at: (-3.9, 10.3),
        }),
        compass: Some((11.4, -9.6)),
        cells: track_cells(game),
        seed: 1813,
    }
}

/// The time bar (fight days red, dated spaces darker, each labelled under it) and the victory
/// point track (every fifth point numbered), printed on the map.
fn track_cells(game: &Botn) -> Vec<crate::table::paint::Cell> {
    use crate::table::paint::Cell;
    let flat = |w: Vec3| (w.x, w.z);
    let mut cells: Vec<Cell> = game
        .sc
        .time
        .iter()
        .enumerate()
        .map(|(i, t)| Cell {
            at: flat(time_bar_world(i)),
            size: (0.66, 0.66),
            color: if t.fight {
                [178, 64, 56]
            } else if t.date.is_some() {
                [153, 128, 92]
            } else {
                [199, 184, 153]
            },
            label: if t.label == "·" { String::new() } else { t.label.clone() },
            inside: false,
        })
        .collect();
    cells.extend((0..=game.sc.victory_points).map(|p| Cell {
        at: flat(vp_bar_world(p)),
        size: (0.74, 0.62),
        color: if p % 5 == 0 { [186, 170, 140] } else { [206, 192, 160] },
        label: if p % 5 == 0 { p.to_string() } else { String::new() },
        inside: true,
    }));
    cells
}

fn setup_board(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
    seen: Res<Seen<Botn>>,
) {
    let Some(game) = seen.game() else { return };
    // The places on the painted map: a faint wash of their terrain's colour inside a printed ring,
    // so that the painting shows through.
    let terrain = Terrain::ALL.map(|t| {
        materials.add(StandardMaterial {
            base_color: terrain_color(t).with_alpha(0.22),
            alpha_mode: AlphaMode::Blend,
            perceptual_roughness: 0.9,
            ..default()
        })
    });
    // Lit destinations in cyan: far from every terrain colour (the forest's green included).
    let highlight = materials.add(StandardMaterial {
        base_color: Color::srgb(0.3, 0.85, 1.0),
        emissive: LinearRgba::rgb(0.05, 0.45, 0.7),
        ..default()
    });
    let focus = materials.add(StandardMaterial {
        base_color: Color::srgb(1.0, 0.85, 0.2),
        emissive: LinearRgba::rgb(0.6, 0.5, 0.0),
        ..default()
    });
    commands.insert_resource(BoardMaterials { terrain, highlight, focus });

    // The wooden table, and the battlefield painted from the scenario's data.
    let (table, felt) = (((60.0, 44.0), (6.0, 0.0)), ((42.0, 38.0), (5.0, 0.0)));
    crate::table::paint::spawn_room(&mut commands, &mut meshes, &mut materials, &mut images, table, felt);
    let sheet = materials.add(StandardMaterial { base_color: Color::srgb(0.93, 0.89, 0.78), ..default() });
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(21.0, 0.1, 28.6))),
        MeshMaterial3d(sheet),
        Transform::from_xyz(2.5, -0.1, 0.0),
        Pickable::IGNORE,
        Name::new("Board"),
    ));
    // The board and the rows of army cards before each player (`pieces::card_world`).
    commands.insert_resource(crate::table::framing::BoardExtent(Rect::new(-8.0, -15.5, 13.0, 15.3)));
    let spec = map_spec(game);
    crate::table::paint::spawn_map(&mut commands, &mut meshes, &mut materials, &mut images, &spec, "Board map");
    // The time bar and the victory point track are printed on the map (`map_spec`).
}

/// Gives each field entity its disc, coloured by terrain, with hover details.
fn dress_fields(
    mut commands: Commands,
    fields: Query<(Entity, &Field), Added<Field>>,
    seen: Res<Seen<Botn>>,
    mats: Res<BoardMaterials>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(game) = seen.game() else { return };
    let disc = meshes.add(Cylinder::new(FIELD_RADIUS, 0.06));
    let ring = meshes.add(
        Annulus::new(FIELD_RADIUS - 0.07, FIELD_RADIUS)
            .mesh()
            .resolution(48)
            .build()
            .rotated_by(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
    );
    let ink = materials.add(StandardMaterial {
        base_color: Color::srgb(0.30, 0.24, 0.18),
        perceptual_roughness: 0.9,
        ..default()
    });
    for (e, f) in &fields {
        commands.spawn((
            Mesh3d(ring.clone()),
            MeshMaterial3d(ink.clone()),
            Transform::from_xyz(0.0, 0.032, 0.0),
            Pickable::IGNORE,
            ChildOf(e),
        ));
        let def = &game.sc.fields[f.0.0 as usize];
        let ti = Terrain::ALL.iter().position(|t| *t == def.terrain).unwrap_or(0);
        commands
            .entity(e)
            .insert((
                Mesh3d(disc.clone()),
                MeshMaterial3d(mats.terrain[ti].clone()),
                Transform::from_translation(field_world(game, f.0)),
            ))
            .observe(
                |over: On<Pointer<Over>>,
                 fields: Query<&Field>,
                 seen: Res<Seen<Botn>>,
                 mut pointing: ResMut<Pointing>| {
                    if let Ok(f) = fields.get(over.entity)
                        && let Some(game) = seen.game()
                    {
                        pointing.hovered = Some(describe_field(game, f.0));
                    }
                },
            )
            .observe(|_: On<Pointer<Out>>, mut pointing: ResMut<Pointing>| pointing.hovered = None);
    }
}

pub fn describe_field(game: &Botn, f: SpaceId) -> String {
    let def = &game.sc.fields[f.0 as usize];
    let mut s = format!("{} — {} ({:?} district)", def.name, def.terrain.name(), def.district);
    if let Some(a) = game.army_at(f) {
        s += &format!("\nArmy: {}", game.army_name(a));
    }
    let markers: Vec<&str> = game.markers_at(f).map(|m| game.army_name(game.markers[m as usize].army)).collect();
    if !markers.is_empty() {
        s += &format!("\nMarkers: {}", markers.join(", "));
    }
    s
}

/// Lights the legal destinations of a dragged piece and a field picked in the log.
fn light_fields(
    pointing: Res<Pointing>,
    seen: Res<Seen<Botn>>,
    mats: Res<BoardMaterials>,
    mut fields: Query<(&Field, &mut MeshMaterial3d<StandardMaterial>)>,
) {
    if !pointing.is_changed() && !seen.is_changed() {
        return;
    }
    let Some(game) = seen.game() else { return };
    for (f, mut m) in &mut fields {
        let want = if pointing.focus == Some(f.0) {
            mats.focus.clone()
        } else if pointing.highlight.contains(&f.0) {
            mats.highlight.clone()
        } else {
            let t = game.sc.fields[f.0.0 as usize].terrain;
            mats.terrain[Terrain::ALL.iter().position(|x| *x == t).unwrap_or(0)].clone()
        };
        if m.0 != want {
            m.0 = want;
        }
    }
}
