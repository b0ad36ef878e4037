//! Printed pieces, for any game's table: card faces and backs, counter faces and block stickers
//! drawn from data into pictures (`print` sets the text), and the meshes that carry them — a card
//! as a thin box with its face on top and its back below, a counter or block with its sticker.
//! Each picture is made once per distinct print and shared by every piece that shows it.

use super::print::{Align, Face, Printer};
use bevy::prelude::*;
use std::collections::HashMap;
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform as Tf};

/// A card's printed face.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CardPrint {
    /// The big line at the top.
    pub title: String,
    /// The card's kind, in the band under the title ("Action", "Mission — North").
    pub kind: String,
    /// The text of the card.
    pub body: String,
    /// A number or value printed large in the corners ("7", "4 / 5").
    pub corner: String,
    /// Where the card's values come from: `rulebook` or `reconstructed`.
    pub provenance: String,
    /// The colour of the title band.
    pub accent: [u8; 3],
}

/// A card back: the game's name over a pattern in `colour`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BackPrint {
    pub title: String,
    pub colour: [u8; 3],
}

/// A counter's or block's printed face: a name, a unit symbol and its values, on its side's colour.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CounterPrint {
    pub name: String,
    pub symbol: Symbol,
    pub values: String,
    pub ground: [u8; 3],
    pub ink: [u8; 3],
}

/// The NATO-style unit symbols printed on counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    Infantry,
    Cavalry,
    Artillery,
    Navy,
    /// A leader or army headquarters: a flag.
    Leader,
    /// A battle: crossed sabres.
    Battle,
    None,
}

/// Card faces are 256 × 368 pixels (the cards' 0.9 × 1.3 proportion, halving evenly for mipmaps).
pub const CARD_PX: (u32, u32) = (256, 368);
const STOCK: [u8; 3] = [246, 240, 222];
const INK: [u8; 4] = [34, 28, 22, 255];

fn paint_of(c: [u8; 3], a: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c[0], c[1], c[2], a);
    p.anti_alias = true;
    p
}

fn rounded(x: f32, y: f32, w: f32, h: f32, r: f32) -> tiny_skia::Path {
    let mut pb = PathBuilder::new();
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    pb.quad_to(x + w, y, x + w, y + r);
    pb.line_to(x + w, y + h - r);
    pb.quad_to(x + w, y + h, x + w - r, y + h);
    pb.line_to(x + r, y + h);
    pb.quad_to(x, y + h, x, y + h - r);
    pb.line_to(x, y + r);
    pb.quad_to(x, y, x + r, y);
    pb.close();
    pb.finish().expect("a rounded rectangle")
}

/// Prints a card face.
pub fn card_face(printer: &mut Printer, card: &CardPrint) -> Pixmap {
    let (w, h) = (CARD_PX.0 as f32, CARD_PX.1 as f32);
    let mut p = Pixmap::new(CARD_PX.0, CARD_PX.1).expect("a card");
    p.fill(tiny_skia::Color::from_rgba8(STOCK[0], STOCK[1], STOCK[2], 255));
    // A printed frame inside the margin, and the title band in the card's colour.
    let frame = rounded(10.0, 10.0, w - 20.0, h - 20.0, 12.0);
    p.stroke_path(
        &frame,
        &paint_of([90, 75, 55], 255),
        &Stroke { width: 3.0, ..Stroke::default() },
        Tf::identity(),
        None,
    );
    let band = Rect::from_xywh(16.0, 16.0, w - 32.0, 92.0).expect("a band");
    p.fill_rect(band, &paint_of(card.accent, 255), Tf::identity(), None);
    let light = card.accent.iter().map(|&c| c as u32).sum::<u32>() > 480;
    let on_band = if light { INK } else { [250, 246, 234, 255] };
    let title_px = printer.fit(Face::Bold, 40.0, &card.title, w - 48.0);
    let lines = printer.wrap(Face::Bold, title_px, &card.title, w - 48.0);
    if lines.len() > 1 {
        printer.paragraph(&mut p, Face::Bold, 30.0, &card.title, (24.0, 56.0), w - 48.0, 2, Align::Centre, on_band);
    } else {
        printer.line(&mut p, Face::Bold, title_px, &card.title, w / 2.0, 74.0, Align::Centre, on_band);
    }
    let kind_px = printer.fit(Face::Regular, 22.0, &card.kind, w - 40.0);
    printer.line(&mut p, Face::Regular, kind_px, &card.kind, w / 2.0, 138.0, Align::Centre, INK);
    printer.paragraph(&mut p, Face::Regular, 24.0, &card.body, (26.0, 180.0), w - 52.0, 5, Align::Centre, INK);
    if !card.corner.is_empty() {
        let px = printer.fit(Face::Bold, 44.0, &card.corner, w - 60.0);
        printer.line(&mut p, Face::Bold, px, &card.corner, w / 2.0, h - 58.0, Align::Centre, INK);
    }
    // The provenance mark: R for the rulebook's values, a hollow r for a reconstruction.
    let mark = if card.provenance == "rulebook" { "R" } else { "r" };
    printer.line(
        &mut p,
        Face::Regular,
        20.0,
        &format!("{mark} · {}", card.provenance),
        w / 2.0,
        h - 24.0,
        Align::Centre,
        [110, 95, 75, 255],
    );
    p
}

/// Prints a card back.
pub fn card_back(printer: &mut Printer, back: &BackPrint) -> Pixmap {
    let (w, h) = (CARD_PX.0 as f32, CARD_PX.1 as f32);
    let mut p = Pixmap::new(CARD_PX.0, CARD_PX.1).expect("a card");
    let c = back.colour;
    p.fill(tiny_skia::Color::from_rgba8(c[0], c[1], c[2], 255));
    // A lattice of thin diagonal lines, as on printed card backs, inside a light frame.
    let lighter = c.map(|v| (v as u32 + 40).min(255) as u8);
    let mut pb = PathBuilder::new();
    let mut k = -h;
    while k < w + h {
        pb.move_to(k, 0.0);
        pb.line_to(k + h, h);
        pb.move_to(k + h, 0.0);
        pb.line_to(k, h);
        k += 18.0;
    }
    if let Some(path) = pb.finish() {
        p.stroke_path(
            &path,
            &paint_of(lighter, 160),
            &Stroke { width: 1.5, ..Stroke::default() },
            Tf::identity(),
            None,
        );
    }
    let frame = rounded(14.0, 14.0, w - 28.0, h - 28.0, 14.0);
    p.stroke_path(
        &frame,
        &paint_of([240, 228, 196], 255),
        &Stroke { width: 5.0, ..Stroke::default() },
        Tf::identity(),
        None,
    );
    let oval = PathBuilder::from_oval(Rect::from_xywh(30.0, h / 2.0 - 60.0, w - 60.0, 120.0).expect("an oval"))
        .expect("an oval");
    p.fill_path(&oval, &paint_of(c.map(|v| v / 2), 255), FillRule::Winding, Tf::identity(), None);
    p.stroke_path(
        &oval,
        &paint_of([240, 228, 196], 255),
        &Stroke { width: 3.0, ..Stroke::default() },
        Tf::identity(),
        None,
    );
    printer.paragraph(
        &mut p,
        Face::Bold,
        30.0,
        &back.title,
        (40.0, h / 2.0 - 8.0),
        w - 80.0,
        2,
        Align::Centre,
        [240, 228, 196, 255],
    );
    p
}

/// Counter faces and block stickers are 128 × 128 pixels.
pub const COUNTER_PX: u32 = 128;

/// Prints a counter face (or a block's sticker): the name on top, the unit symbol in the middle,
/// the values at the bottom.
pub fn counter_face(printer: &mut Printer, c: &CounterPrint) -> Pixmap {
    let s = COUNTER_PX as f32;
    let mut p = Pixmap::new(COUNTER_PX, COUNTER_PX).expect("a counter");
    p.fill(tiny_skia::Color::from_rgba8(c.ground[0], c.ground[1], c.ground[2], 255));
    let ink = [c.ink[0], c.ink[1], c.ink[2], 255];
    let inner = rounded(5.0, 5.0, s - 10.0, s - 10.0, 8.0);
    p.stroke_path(&inner, &paint_of(c.ink, 200), &Stroke { width: 2.0, ..Stroke::default() }, Tf::identity(), None);
    if c.values.is_empty() {
        // A round chip or marker: the name across the middle, where the face is widest, and the
        // symbol under it.
        let name_px = printer.fit(Face::Bold, 32.0, &c.name, s - 20.0);
        printer.line(&mut p, Face::Bold, name_px, &c.name, s / 2.0, 58.0, Align::Centre, ink);
        symbol(&mut p, c.symbol, (s / 2.0, 84.0), (40.0, 24.0), c.ink);
        return p;
    }
    let name_px = printer.fit(Face::Bold, 30.0, &c.name, s - 16.0);
    printer.line(&mut p, Face::Bold, name_px, &c.name, s / 2.0, 36.0, Align::Centre, ink);
    symbol(&mut p, c.symbol, (s / 2.0, 66.0), (52.0, 30.0), c.ink);
    {
        let px = printer.fit(Face::Bold, 30.0, &c.values, s - 16.0);
        printer.line(&mut p, Face::Bold, px, &c.values, s / 2.0, s - 14.0, Align::Centre, ink);
    }
    p
}

/// Draws a unit symbol in a box `size` centred at `centre`.
fn symbol(p: &mut Pixmap, symbol: Symbol, centre: (f32, f32), size: (f32, f32), ink: [u8; 3]) {
    if symbol == Symbol::None {
        return;
    }
    let (x, y, w, h) = (centre.0 - size.0 / 2.0, centre.1 - size.1 / 2.0, size.0, size.1);
    let paint = paint_of(ink, 255);
    let stroke = Stroke { width: 2.5, ..Stroke::default() };
    let Some(r) = Rect::from_xywh(x, y, w, h) else { return };
    let mut pb = PathBuilder::new();
    match symbol {
        Symbol::Infantry => {
            pb.push_rect(r);
            pb.move_to(x, y);
            pb.line_to(x + w, y + h);
            pb.move_to(x + w, y);
            pb.line_to(x, y + h);
        }
        Symbol::Cavalry => {
            pb.push_rect(r);
            pb.move_to(x, y + h);
            pb.line_to(x + w, y);
        }
        Symbol::Artillery => {
            pb.push_rect(r);
            pb.push_circle(centre.0, centre.1, h * 0.2);
        }
        Symbol::Navy => {
            // An anchor: a shank, a stock and a curved crown.
            pb.move_to(centre.0, y);
            pb.line_to(centre.0, y + h);
            pb.move_to(centre.0 - w * 0.2, y + h * 0.25);
            pb.line_to(centre.0 + w * 0.2, y + h * 0.25);
            pb.move_to(centre.0 - w * 0.35, y + h * 0.6);
            pb.quad_to(centre.0, y + h * 1.2, centre.0 + w * 0.35, y + h * 0.6);
        }
        Symbol::Leader => {
            pb.move_to(x + w * 0.3, y + h);
            pb.line_to(x + w * 0.3, y);
            pb.line_to(x + w * 0.8, y + h * 0.25);
            pb.line_to(x + w * 0.3, y + h * 0.5);
        }
        Symbol::Battle => {
            // Two sabres crossed, each with a short guard near its hilt.
            for (from, to) in [((x, y + h), (x + w, y)), ((x + w, y + h), (x, y))] {
                pb.move_to(from.0, from.1);
                pb.line_to(to.0, to.1);
                let (gx, gy) = (from.0 + (to.0 - from.0) * 0.2, from.1 + (to.1 - from.1) * 0.2);
                let (nx, ny) = ((to.1 - from.1) * 0.12, -(to.0 - from.0) * 0.12);
                pb.move_to(gx - nx, gy - ny);
                pb.line_to(gx + nx, gy + ny);
            }
        }
        Symbol::None => {}
    }
    if let Some(path) = pb.finish() {
        p.stroke_path(&path, &paint, &stroke, Tf::identity(), None);
    }
}

/// A counter: a square token `size` wide and `thickness` thick whose top edges are bevelled by
/// `bevel`. The top face maps the whole print (UV 0..1); the bevels, sides and bottom map its
/// corner, so a counter face's ground colour runs down its edges as on die-cut cardboard.
pub fn counter_mesh(size: f32, thickness: f32, bevel: f32) -> Mesh {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::{Indices, PrimitiveTopology};
    let (h, top, low, bottom) = (size / 2.0, thickness / 2.0, thickness / 2.0 - bevel, -thickness / 2.0);
    let inner = h - bevel;
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut normals: Vec<[f32; 3]> = Vec::new();
    let mut uvs: Vec<[f32; 2]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    let mut quad = |corners: [[f32; 3]; 4], uv: [[f32; 2]; 4]| {
        let [a, b, c, _] = corners.map(Vec3::from);
        let n = (b - a).cross(c - a).normalize();
        let base = positions.len() as u32;
        positions.extend(corners);
        normals.extend([n.to_array(); 4]);
        uvs.extend(uv);
        indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    };
    let corner = [[0.0, 0.0]; 4];
    // The top, seen from above: x right, z toward the viewer, the print's top row at -z.
    quad(
        [[-inner, top, -inner], [-inner, top, inner], [inner, top, inner], [inner, top, -inner]],
        [[0.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0]],
    );
    quad([[-h, bottom, -h], [h, bottom, -h], [h, bottom, h], [-h, bottom, h]], corner);
    // Four sides, each a bevel above a straight edge, turning about the vertical.
    for k in 0..4 {
        let turn = Quat::from_rotation_y(k as f32 * std::f32::consts::FRAC_PI_2);
        let p = |x: f32, y: f32, z: f32| (turn * Vec3::new(x, y, z)).to_array();
        quad([p(-inner, top, inner), p(-h, low, h), p(h, low, h), p(inner, top, inner)], corner);
        quad([p(-h, low, h), p(-h, bottom, h), p(h, bottom, h), p(h, low, h)], corner);
    }
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices))
}

/// Materials of printed pictures, made once per distinct print and shared.
#[derive(Resource, Default)]
pub struct Prints {
    printer: Printer,
    made: HashMap<String, Handle<StandardMaterial>>,
}

impl Prints {
    /// The material showing the picture `key`, made by `make` the first time it is asked for.
    pub fn material(
        &mut self,
        key: &str,
        make: impl FnOnce(&mut Printer) -> Pixmap,
        images: &mut Assets<Image>,
        materials: &mut Assets<StandardMaterial>,
    ) -> Handle<StandardMaterial> {
        if let Some(m) = self.made.get(key) {
            return m.clone();
        }
        let picture = make(&mut self.printer);
        let m = materials.add(StandardMaterial {
            base_color_texture: Some(images.add(super::paint::to_image(&picture))),
            perceptual_roughness: 0.8,
            ..default()
        });
        self.made.insert(key.to_string(), m.clone());
        m
    }

    pub fn card_face(
        &mut self,
        c: &CardPrint,
        images: &mut Assets<Image>,
        materials: &mut Assets<StandardMaterial>,
    ) -> Handle<StandardMaterial> {
        let key = format!("card {c:?}");
        self.material(&key, |p| card_face(p, c), images, materials)
    }

    pub fn card_back(
        &mut self,
        b: &BackPrint,
        images: &mut Assets<Image>,
        materials: &mut Assets<StandardMaterial>,
    ) -> Handle<StandardMaterial> {
        let key = format!("back {b:?}");
        self.material(&key, |p| card_back(p, b), images, materials)
    }

    pub fn counter(
        &mut self,
        c: &CounterPrint,
        images: &mut Assets<Image>,
        materials: &mut Assets<StandardMaterial>,
    ) -> Handle<StandardMaterial> {
        let key = format!("counter {c:?}");
        self.material(&key, |p| counter_face(p, c), images, materials)
    }
}

/// The printed face of a card or counter: a child plane on the piece's top (`up`) or underside.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrintedSide {
    pub up: bool,
}

/// Where card `i` of a hand of `n` lies, and its turn about the vertical: on an arc about `centre`
/// in front of its seat (`outward` +1 for the south seat, -1 for the north), each card a little
/// turned and a little above the one before, so that every card shows.
pub fn fan(centre: Vec3, outward: f32, i: usize, n: usize) -> (Vec3, f32) {
    let step = 0.09_f32.min(0.9 / n.max(1) as f32);
    let a = (i as f32 - (n.max(1) - 1) as f32 / 2.0) * step;
    let radius = 9.0;
    // The arc bends away from the board at its ends.
    let pos = centre + Vec3::new(radius * a.sin(), 0.03 + i as f32 * 0.004, outward * radius * (1.0 - a.cos()));
    (pos, -a * outward)
}

/// On a piece: the child that carries its printed face, whose material changes with what it shows.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrintedFace(pub Entity);

/// Spawns the two printed sides of a flat piece of `size` (x, z) and `thickness` under `parent`,
/// with the given materials; returns (face, back) entities.
pub fn print_sides(
    commands: &mut Commands,
    parent: Entity,
    plane: Handle<Mesh>,
    thickness: f32,
    face: Handle<StandardMaterial>,
    back: Handle<StandardMaterial>,
) -> (Entity, Entity) {
    let up = commands
        .spawn((
            Mesh3d(plane.clone()),
            MeshMaterial3d(face),
            Transform::from_xyz(0.0, thickness / 2.0 + 0.002, 0.0),
            PrintedSide { up: true },
            Pickable::IGNORE,
            ChildOf(parent),
        ))
        .id();
    // The underside is the same plane turned over about the piece's long axis (z), as a card is
    // turned over in the hand, so its back reads the right way up when the card lies face down.
    let down = commands
        .spawn((
            Mesh3d(plane),
            MeshMaterial3d(back),
            Transform::from_xyz(0.0, -thickness / 2.0 - 0.002, 0.0)
                .with_rotation(Quat::from_rotation_z(std::f32::consts::PI)),
            PrintedSide { up: false },
            Pickable::IGNORE,
            ChildOf(parent),
        ))
        .id();
    (up, down)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_has_its_print_on_a_bevelled_top_and_faces_outward() {
        use bevy::mesh::VertexAttributeValues;
        let m = counter_mesh(1.0, 0.2, 0.04);
        let Some(VertexAttributeValues::Float32x3(pos)) = m.attribute(Mesh::ATTRIBUTE_POSITION) else { panic!() };
        let Some(VertexAttributeValues::Float32x3(nor)) = m.attribute(Mesh::ATTRIBUTE_NORMAL) else { panic!() };
        let Some(VertexAttributeValues::Float32x2(uv)) = m.attribute(Mesh::ATTRIBUTE_UV_0) else { panic!() };
        // 2 faces and 4 sides of two quads: 10 quads of 4 corners and 2 triangles.
        assert_eq!((pos.len(), m.indices().unwrap().len()), (40, 60));
        // The top carries the whole print and is smaller than the base by the bevel.
        let top: Vec<usize> = (0..pos.len()).filter(|&i| nor[i] == [0.0, 1.0, 0.0]).collect();
        assert_eq!(top.len(), 4);
        assert!(top.iter().all(|&i| pos[i][1] == 0.1 && pos[i][0].abs() == 0.46));
        let mut corners: Vec<[f32; 2]> = top.iter().map(|&i| uv[i]).collect();
        corners.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(corners, [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]);
        // Every face points away from the middle (so none is culled from outside).
        for q in 0..10 {
            let c = (0..4).map(|k| Vec3::from(pos[q * 4 + k])).sum::<Vec3>() / 4.0;
            assert!(c.dot(Vec3::from(nor[q * 4])) > 0.0, "quad {q} faces inward");
        }
    }

    fn dark(p: &Pixmap, y0: u32, y1: u32) -> usize {
        (y0..y1)
            .flat_map(|y| (0..p.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| p.pixel(x, y).unwrap().red() < 100)
            .count()
    }

    #[test]
    fn a_card_face_prints_its_title_kind_text_and_corner() {
        let mut printer = Printer::new();
        let card = CardPrint {
            title: "Probstheida".into(),
            kind: "Mission — Center".into(),
            body: "Hold the village at the end of the game".into(),
            corner: "4 / 5".into(),
            provenance: "reconstructed".into(),
            accent: [120, 40, 30],
        };
        let p = card_face(&mut printer, &card);
        assert_eq!((p.width(), p.height()), CARD_PX);
        // Ink in the kind line, the body and the corner; the band is the card's colour.
        assert!(dark(&p, 120, 145) > 100, "kind line");
        assert!(dark(&p, 160, 260) > 300, "body");
        assert!(dark(&p, 280, 320) > 150, "corner values");
        let band = p.pixel(20, 20).unwrap();
        assert_eq!((band.red(), band.green(), band.blue()), (120, 40, 30));
        // Another title prints another face.
        let other = card_face(&mut printer, &CardPrint { title: "Wachau".into(), ..card });
        assert_ne!(p.data(), other.data());
    }

    #[test]
    fn a_counter_face_prints_its_name_symbol_and_values_on_its_ground() {
        let mut printer = Printer::new();
        let c = CounterPrint {
            name: "Ney".into(),
            symbol: Symbol::Infantry,
            values: "5".into(),
            ground: [40, 76, 190],
            ink: [255, 255, 255],
        };
        let p = counter_face(&mut printer, &c);
        let white = |y0: u32, y1: u32| {
            (y0..y1)
                .flat_map(|y| (0..p.width()).map(move |x| (x, y)))
                .filter(|&(x, y)| p.pixel(x, y).unwrap().red() > 200)
                .count()
        };
        assert!(white(12, 40) > 100, "name");
        assert!(white(50, 82) > 100, "symbol");
        assert!(white(92, 118) > 50, "values");
        let ground = p.pixel(64, 45).unwrap();
        assert_eq!((ground.red(), ground.blue()), (40, 190));
        // A round marker (no values) carries its name across the middle, clear of the rim.
        let round =
            counter_face(&mut printer, &CounterPrint { values: String::new(), name: "Poniatowski".into(), ..c });
        let white_in = |y0: u32, y1: u32| {
            // Inside the printed frame's sides.
            (y0..y1)
                .flat_map(|y| (16..112).map(move |x| (x, y)))
                .filter(|&(x, y)| round.pixel(x, y).unwrap().red() > 200)
                .count()
        };
        assert!(white_in(36, 64) > 150, "name across the middle");
        assert!(white_in(12, 30) < 20, "nothing printed near the top rim");
    }
}
