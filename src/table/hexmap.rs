//! A printed hex map (window build only): terrain per hex on mottled paper, the hex grid and
//! its numbers, rivers along hexsides with their bridges, borders and demarcation lines along
//! hexsides, fortresses ringed as printed maps ring them, names set in the shipped serif, a title
//! cartouche. Flat-topped hexes in columns, every second column half a hex lower (the layout of
//! SPI's maps). Painted once and cached by the spec's digest (see `paint::cached`).

use super::print::{Align, Face, Printer};
use fastnoise_lite::{FastNoiseLite, FractalType, NoiseType};
use serde::Serialize;
use tiny_skia::{Paint, PathBuilder, Pixmap, Stroke, StrokeDash, Transform};

/// What a hex holds, as the map prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum HexTerrain {
    Clear,
    City,
    Fortress,
    Mountain,
    Pass,
}

/// The painter's own version, part of a cached picture's name: a change to the painting makes
/// every cached map stale.
pub const PAINTER: u32 = 2;

/// What a hex map is painted from. Hexes are numbered row by row (`row * columns + column`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HexMapSpec {
    pub columns: usize,
    pub rows: usize,
    /// A hex's corner radius in pixels.
    pub radius: f32,
    pub terrain: Vec<HexTerrain>,
    /// Hexes of a neutral or foreign country, tinted and hatched.
    pub foreign: Vec<bool>,
    /// River hexsides: the two hexes, and whether a bridge crosses.
    pub rivers: Vec<(usize, usize, bool)>,
    /// National borders (heavy dashes) and demarcation lines (light dots) along hexsides.
    pub borders: Vec<(usize, usize)>,
    pub lines: Vec<(usize, usize)>,
    /// Names at hexes: (hex, name, a major place).
    pub names: Vec<(usize, String, bool)>,
    /// Lettering of regions (mountain ranges): (hex, text).
    pub lettering: Vec<(usize, String)>,
    pub title: (String, String),
    pub seed: i32,
}

impl HexMapSpec {
    pub fn size(&self) -> (u32, u32) {
        let r = self.radius;
        let w = (self.columns as f32 * 1.5 + 0.5) * r;
        let h = (self.rows as f32 + 0.5) * 3f32.sqrt() * r;
        (w.ceil() as u32, h.ceil() as u32)
    }

    /// A hex's centre in pixels.
    pub fn centre(&self, hex: usize) -> (f32, f32) {
        let (c, row) = (hex % self.columns, hex / self.columns);
        let r = self.radius;
        let h = 3f32.sqrt() * r;
        (r + c as f32 * 1.5 * r, h / 2.0 + row as f32 * h + if c % 2 == 1 { h / 2.0 } else { 0.0 })
    }

    fn corners(&self, hex: usize) -> [(f32, f32); 6] {
        let (x, y) = self.centre(hex);
        std::array::from_fn(|k| {
            let a = k as f32 * std::f32::consts::FRAC_PI_3;
            (x + self.radius * a.cos(), y + self.radius * a.sin())
        })
    }

    /// The two corners two neighbouring hexes share.
    pub fn side(&self, a: usize, b: usize) -> Option<((f32, f32), (f32, f32))> {
        let cb = self.corners(b);
        let shared: Vec<(f32, f32)> =
            self.corners(a).into_iter().filter(|p| cb.iter().any(|q| (p.0 - q.0).hypot(p.1 - q.1) < 0.5)).collect();
        (shared.len() == 2).then(|| (shared[0], shared[1]))
    }
}

fn paint_of(c: [u8; 3], a: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c[0], c[1], c[2], a);
    p.anti_alias = true;
    p
}

fn noise(seed: i32, frequency: f32) -> FastNoiseLite {
    let mut n = FastNoiseLite::with_seed(seed);
    n.set_noise_type(Some(NoiseType::OpenSimplex2));
    n.set_frequency(Some(frequency));
    n.set_fractal_type(Some(FractalType::FBm));
    n.set_fractal_octaves(Some(3));
    n
}

fn hex_path(corners: &[(f32, f32); 6]) -> tiny_skia::Path {
    let mut pb = PathBuilder::new();
    pb.move_to(corners[0].0, corners[0].1);
    for c in &corners[1..] {
        pb.line_to(c.0, c.1);
    }
    pb.close();
    pb.finish().expect("a hexagon")
}

fn segment(a: (f32, f32), b: (f32, f32)) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    pb.move_to(a.0, a.1);
    pb.line_to(b.0, b.1);
    pb.finish()
}

/// Paints the map.
pub fn paint(spec: &HexMapSpec) -> Pixmap {
    let (w, h) = spec.size();
    let mut p = Pixmap::new(w, h).expect("a map of some size");
    // Paper, mottled.
    let mottle = noise(spec.seed, 0.004);
    let grain = noise(spec.seed.wrapping_add(3), 0.05);
    {
        let pixels = p.pixels_mut();
        for y in 0..h {
            for x in 0..w {
                let t =
                    0.5 + 0.3 * mottle.get_noise_2d(x as f32, y as f32) + 0.12 * grain.get_noise_2d(x as f32, y as f32);
                let c = [232.0 - 14.0 * t, 226.0 - 14.0 * t, 196.0 - 18.0 * t].map(|v| v.clamp(0.0, 255.0) as u8);
                pixels[(y * w + x) as usize] =
                    tiny_skia::PremultipliedColorU8::from_rgba(c[0], c[1], c[2], 255).expect("opaque");
            }
        }
    }
    let id = Transform::identity();
    let r = spec.radius;
    let mut printer = Printer::new();
    // Terrain.
    for (i, t) in spec.terrain.iter().enumerate() {
        let corners = spec.corners(i);
        let path = hex_path(&corners);
        let (x, y) = spec.centre(i);
        match t {
            HexTerrain::Clear | HexTerrain::City | HexTerrain::Fortress => {
                p.fill_path(&path, &paint_of([196, 206, 150], 70), tiny_skia::FillRule::Winding, id, None);
            }
            HexTerrain::Mountain | HexTerrain::Pass => {
                let tone = if *t == HexTerrain::Pass { [186, 160, 118] } else { [160, 128, 92] };
                p.fill_path(&path, &paint_of(tone, 200), tiny_skia::FillRule::Winding, id, None);
                // Hachures: short strokes falling from a ridge, as engraved maps show relief.
                let ink = paint_of([92, 66, 42], 170);
                let stroke = Stroke { width: r * 0.05, ..Stroke::default() };
                for k in 0..5 {
                    let dx = (k as f32 - 2.0) * r * 0.3;
                    let top = y - r * 0.35 + (k % 2) as f32 * r * 0.12;
                    if let Some(s) = segment((x + dx - r * 0.1, top), (x + dx + r * 0.08, top + r * 0.45)) {
                        p.stroke_path(&s, &ink, &stroke, id, None);
                    }
                }
                if *t == HexTerrain::Pass {
                    // The road through the pass.
                    let road = Stroke {
                        width: r * 0.12,
                        dash: StrokeDash::new(vec![r * 0.25, r * 0.15], 0.0),
                        ..Stroke::default()
                    };
                    if let Some(s) = segment((x - r * 0.8, y + r * 0.2), (x + r * 0.8, y - r * 0.2)) {
                        p.stroke_path(&s, &paint_of([120, 40, 30], 230), &road, id, None);
                    }
                }
            }
        }
        if spec.foreign.get(i).copied().unwrap_or(false) {
            p.fill_path(&path, &paint_of([120, 110, 120], 45), tiny_skia::FillRule::Winding, id, None);
            let hatch = paint_of([110, 90, 110], 60);
            let stroke = Stroke { width: r * 0.04, ..Stroke::default() };
            for k in -2..=2 {
                let dx = k as f32 * r * 0.35;
                if let Some(s) = segment((x + dx - r * 0.4, y + r * 0.6), (x + dx + r * 0.4, y - r * 0.6)) {
                    p.stroke_path(&s, &hatch, &stroke, id, None);
                }
            }
        }
    }
    // The hex grid.
    let grid = paint_of([70, 60, 40], 90);
    let thin = Stroke { width: (r * 0.035).max(1.0), ..Stroke::default() };
    for i in 0..spec.terrain.len() {
        p.stroke_path(&hex_path(&spec.corners(i)), &grid, &thin, id, None);
    }
    // Hex numbers, small, at the top of each hex, as on the printed map (under the rivers).
    let number_px = r * 0.3;
    for i in 0..spec.terrain.len() {
        let (x, y) = spec.centre(i);
        let label = format!("{:02}{:02}", i % spec.columns + 1, i / spec.columns + 1);
        printer.line(&mut p, Face::Regular, number_px, &label, x, y - r * 0.55, Align::Centre, [70, 60, 45, 150]);
    }
    // Rivers along hexsides, bridges across them.
    let water = paint_of([52, 96, 168], 235);
    let river = Stroke { width: r * 0.2, line_cap: tiny_skia::LineCap::Round, ..Stroke::default() };
    for &(a, b, _) in &spec.rivers {
        if let Some((u, v)) = spec.side(a, b)
            && let Some(s) = segment(u, v)
        {
            p.stroke_path(&s, &water, &river, id, None);
        }
    }
    let timber = paint_of([70, 50, 35], 255);
    let deck = Stroke { width: r * 0.16, ..Stroke::default() };
    for &(a, b, bridged) in &spec.rivers {
        if !bridged {
            continue;
        }
        let (ca, cb) = (spec.centre(a), spec.centre(b));
        let mid = ((ca.0 + cb.0) / 2.0, (ca.1 + cb.1) / 2.0);
        let (dx, dy) = ((cb.0 - ca.0) * 0.22, (cb.1 - ca.1) * 0.22);
        if let Some(s) = segment((mid.0 - dx, mid.1 - dy), (mid.0 + dx, mid.1 + dy)) {
            p.stroke_path(&s, &timber, &deck, id, None);
        }
    }
    // Borders and demarcation lines.
    let border = Stroke { width: r * 0.14, dash: StrokeDash::new(vec![r * 0.45, r * 0.2], 0.0), ..Stroke::default() };
    for &(a, b) in &spec.borders {
        if let Some((u, v)) = spec.side(a, b)
            && let Some(s) = segment(u, v)
        {
            p.stroke_path(&s, &paint_of([60, 40, 70], 220), &border, id, None);
        }
    }
    let dotted = Stroke {
        width: r * 0.16,
        line_cap: tiny_skia::LineCap::Round,
        dash: StrokeDash::new(vec![0.1, r * 0.3], 0.0),
        ..Stroke::default()
    };
    for &(a, b) in &spec.lines {
        if let Some((u, v)) = spec.side(a, b)
            && let Some(s) = segment(u, v)
        {
            p.stroke_path(&s, &paint_of([170, 40, 30], 230), &dotted, id, None);
        }
    }
    // Cities: a red town block; fortresses ringed by a heavy hexside, as the rules describe them.
    for (i, t) in spec.terrain.iter().enumerate() {
        let (x, y) = spec.centre(i);
        match t {
            HexTerrain::City | HexTerrain::Fortress => {
                let mut pb = PathBuilder::new();
                pb.push_circle(x, y - r * 0.05, r * 0.32);
                if let Some(c) = pb.finish() {
                    p.fill_path(&c, &paint_of([176, 52, 40], 235), tiny_skia::FillRule::Winding, id, None);
                }
                if *t == HexTerrain::Fortress {
                    let ring = Stroke { width: r * 0.14, ..Stroke::default() };
                    p.stroke_path(&hex_path(&spec.corners(i)), &paint_of([40, 30, 25], 245), &ring, id, None);
                }
            }
            _ => {}
        }
    }
    // Names: major places larger and bold, set under their hex with a paper halo.
    for (hex, name, major) in &spec.names {
        let (x, y) = spec.centre(*hex);
        let (face, px) = if *major { (Face::Bold, r * 1.05) } else { (Face::Bold, r * 0.8) };
        let base = y + r * 0.9 + px * 0.8;
        let width = printer.width(face, px, name);
        let halo = tiny_skia::Rect::from_xywh(x - width / 2.0 - r * 0.1, base - px * 0.85, width + r * 0.2, px * 1.1);
        if let Some(rect) = halo {
            p.fill_rect(rect, &paint_of([240, 234, 210], 200), id, None);
        }
        printer.line(&mut p, face, px, name, x, base, Align::Centre, [36, 26, 20, 255]);
    }
    for (hex, text) in &spec.lettering {
        let (x, y) = spec.centre(*hex);
        let spaced: String = text.to_uppercase().chars().flat_map(|c| [c, ' ']).collect();
        printer.line(&mut p, Face::Bold, r * 0.6, spaced.trim_end(), x, y + r * 0.2, Align::Centre, [92, 58, 34, 200]);
    }
    // The title cartouche in the north-west corner.
    let (title, subtitle) = &spec.title;
    let box_w = (printer.width(Face::Bold, r * 0.9, title).max(printer.width(Face::Regular, r * 0.5, subtitle)) + r)
        .min(w as f32 * 0.5);
    if let Some(rect) = tiny_skia::Rect::from_xywh(r * 0.6, r * 0.6, box_w, r * 2.0) {
        p.fill_rect(rect, &paint_of([246, 240, 222], 235), id, None);
        let mut pb = PathBuilder::new();
        pb.push_rect(rect);
        if let Some(frame) = pb.finish() {
            p.stroke_path(
                &frame,
                &paint_of([60, 40, 30], 255),
                &Stroke { width: r * 0.08, ..Stroke::default() },
                id,
                None,
            );
        }
        printer.line(
            &mut p,
            Face::Bold,
            r * 0.9,
            title,
            r * 0.6 + box_w / 2.0,
            r * 1.6,
            Align::Centre,
            [40, 28, 20, 255],
        );
        printer.line(
            &mut p,
            Face::Regular,
            r * 0.5,
            subtitle,
            r * 0.6 + box_w / 2.0,
            r * 2.3,
            Align::Centre,
            [60, 46, 34, 255],
        );
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> HexMapSpec {
        HexMapSpec {
            columns: 4,
            rows: 3,
            radius: 20.0,
            terrain: vec![
                HexTerrain::Clear,
                HexTerrain::Clear,
                HexTerrain::Clear,
                HexTerrain::Fortress,
                HexTerrain::Clear,
                HexTerrain::Clear,
                HexTerrain::City,
                HexTerrain::Mountain,
                HexTerrain::Clear,
                HexTerrain::Clear,
                HexTerrain::Pass,
                HexTerrain::Clear,
            ],
            foreign: vec![false; 12],
            rivers: vec![(6, 10, false), (5, 9, true)],
            borders: Vec::new(),
            lines: Vec::new(),
            names: vec![(3, "Fort".into(), true)],
            lettering: Vec::new(),
            title: ("T".into(), "S".into()),
            seed: 1,
        }
    }

    #[test]
    fn neighbouring_hexes_share_one_side_and_distant_ones_none() {
        let s = tiny();
        assert!(s.side(0, 4).is_some(), "0101 and 0102 are one above the other");
        assert!(s.side(0, 1).is_some(), "0101 and 0201 touch (0201 half a hex lower)");
        assert!(s.side(0, 2).is_none());
        assert!(s.side(0, 5).is_none(), "0202 lies below 0201, apart from 0101");
    }

    #[test]
    fn a_river_hexside_is_painted_blue_and_a_mountain_brown() {
        let s = tiny();
        let p = paint(&s);
        let px = |x: f32, y: f32| p.pixel(x as u32, y as u32).expect("inside");
        // Away from the cartouche in the north-west corner.
        let ((ax, ay), (bx, by)) = s.side(6, 10).unwrap();
        let river = px((ax + bx) / 2.0, (ay + by) / 2.0);
        assert!(river.blue() as u16 > river.red() as u16 + 40, "blue water: {river:?}");
        let (mx, my) = s.centre(7);
        let m = px(mx + 6.0, my + 6.0);
        assert!(m.red() as u16 > m.blue() as u16 + 30 && m.red() < 210, "brown mountain: {m:?}");
    }
}
