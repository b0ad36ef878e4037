//! A printed board of squares and octagons (window build only), as tactical boards print it: the
//! checkerboard of octagons (where x + y is even) and squares between them, terrain per space on
//! mottled paper (levels of ground shaded darker as they rise, contour lines where the ground
//! rises, ridges hachured, towns, a castle, woods, frozen ponds), a stream along the sides it
//! crosses with its bridges, a road from centre to centre, the game sectors with their numbers,
//! the red set-up border, an entry arrow, names, a title. Painted once and cached by the spec's
//! digest (see `paint::cached`).
//!
//! The shapes: a square's side is 0.8 of the pitch between neighbouring centres; an octagon's
//! four long sides touch the squares, its four short ones the diagonal octagons.

use super::print::{Align, Face, Printer};
use fastnoise_lite::{FastNoiseLite, FractalType, NoiseType};
use serde::Serialize;
use tiny_skia::{Paint, PathBuilder, Pixmap, Stroke, StrokeDash, Transform};

/// What a space holds, as the board prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum OctTerrain {
    Clear,
    Town,
    Castle,
    Woods,
    Pond,
}

/// The painter's own version, part of a cached picture's name.
pub const PAINTER: u32 = 2;

/// Half a square's side, in pitches.
pub const SQUARE_HALF: f32 = 0.4;
/// Half an octagon's width across its flats, in pitches.
pub const OCT_HALF: f32 = 1.0 - SQUARE_HALF;

/// A space of the board: column and row.
pub type Space = (i32, i32);

/// What a board is painted from. Spaces are numbered row by row from the south-west corner
/// (`y * columns + x`); y grows north, up the picture.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OctMapSpec {
    pub columns: i32,
    pub rows: i32,
    /// Pixels between neighbouring centres.
    pub pitch: f32,
    pub terrain: Vec<OctTerrain>,
    pub level: Vec<u8>,
    pub ridge: Vec<bool>,
    /// Stream sides: the two spaces, and whether a bridge crosses.
    pub streams: Vec<(Space, Space, bool)>,
    pub road: Vec<(i32, i32)>,
    /// Sectors: number and (x0, y0, x1, y1).
    pub sectors: Vec<(u8, (i32, i32, i32, i32))>,
    /// The red set-up border: it runs between column x and x + 1 for each x listed.
    pub red_lines: Vec<f32>,
    /// An arrow entering a space from a direction (dx, dy).
    pub arrow: Option<(Space, Space, String)>,
    pub names: Vec<((i32, i32), String, bool)>,
    pub title: (String, String),
    pub seed: i32,
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

fn polygon(points: &[(f32, f32)]) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    pb.move_to(points[0].0, points[0].1);
    for p in &points[1..] {
        pb.line_to(p.0, p.1);
    }
    pb.close();
    pb.finish()
}

fn segment(a: (f32, f32), b: (f32, f32)) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    pb.move_to(a.0, a.1);
    pb.line_to(b.0, b.1);
    pb.finish()
}

impl OctMapSpec {
    /// The margin round the board, in pixels (for the title and the arrow).
    pub fn margin(&self) -> f32 {
        self.pitch * 1.2
    }

    pub fn size(&self) -> (u32, u32) {
        let m = self.margin();
        (
            (self.columns as f32 * self.pitch + 2.0 * m).ceil() as u32,
            (self.rows as f32 * self.pitch + 2.0 * m).ceil() as u32,
        )
    }

    /// A space's centre in pixels (north up).
    pub fn centre(&self, (x, y): (i32, i32)) -> (f32, f32) {
        let m = self.margin();
        (m + (x as f32 + 0.5) * self.pitch, m + ((self.rows - 1 - y) as f32 + 0.5) * self.pitch)
    }

    fn is_octagon(&self, (x, y): (i32, i32)) -> bool {
        (x + y).rem_euclid(2) == 0
    }

    /// A space's outline, in pixels, scaled by `k` about its centre.
    pub fn outline(&self, c: (i32, i32), k: f32) -> Vec<(f32, f32)> {
        let (cx, cy) = self.centre(c);
        let p = self.pitch * k;
        if self.is_octagon(c) {
            let (a, b) = (SQUARE_HALF * p, OCT_HALF * p);
            vec![(-a, -b), (a, -b), (b, -a), (b, a), (a, b), (-a, b), (-b, a), (-b, -a)]
                .into_iter()
                .map(|(x, y)| (cx + x, cy + y))
                .collect()
        } else {
            let a = SQUARE_HALF * p;
            vec![(cx - a, cy - a), (cx + a, cy - a), (cx + a, cy + a), (cx - a, cy + a)]
        }
    }

    /// The side two neighbouring spaces share, in pixels.
    pub fn side(&self, a: (i32, i32), b: (i32, i32)) -> Option<((f32, f32), (f32, f32))> {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
            return None;
        }
        let (ax, ay) = self.centre(a);
        let (bx, by) = self.centre(b);
        let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
        let p = self.pitch;
        if dx != 0 && dy != 0 {
            // Two octagons' short side, across the diagonal.
            let h = (OCT_HALF - SQUARE_HALF) * p / 2.0;
            let (ux, uy) = (dx as f32, dy as f32);
            // Perpendicular to the diagonal in picture coordinates (y flipped).
            let (px, py) = (ux, uy);
            return Some(((mx - px * h, my - py * h), (mx + px * h, my + py * h)));
        }
        let a = SQUARE_HALF * p;
        if dx != 0 { Some(((mx, my - a), (mx, my + a))) } else { Some(((mx - a, my), (mx + a, my))) }
    }
}

/// Paints the board.
pub fn paint(spec: &OctMapSpec) -> Pixmap {
    let (w, h) = spec.size();
    let mut p = Pixmap::new(w, h).expect("a board of some size");
    let mottle = noise(spec.seed, 0.004);
    let grain = noise(spec.seed.wrapping_add(3), 0.05);
    {
        let pixels = p.pixels_mut();
        for y in 0..h {
            for x in 0..w {
                let t =
                    0.5 + 0.3 * mottle.get_noise_2d(x as f32, y as f32) + 0.12 * grain.get_noise_2d(x as f32, y as f32);
                let c = [230.0 - 14.0 * t, 224.0 - 14.0 * t, 196.0 - 18.0 * t].map(|v| v.clamp(0.0, 255.0) as u8);
                pixels[(y * w + x) as usize] =
                    tiny_skia::PremultipliedColorU8::from_rgba(c[0], c[1], c[2], 255).expect("opaque");
            }
        }
    }
    let id = Transform::identity();
    let r = spec.pitch;
    let mut printer = Printer::new();
    let cells: Vec<(i32, i32)> = (0..spec.rows).flat_map(|y| (0..spec.columns).map(move |x| (x, y))).collect();
    let idx = |c: (i32, i32)| (c.1 * spec.columns + c.0) as usize;
    // Ground: meadow, darker and browner as it rises; then what stands on it.
    for &c in &cells {
        let i = idx(c);
        let Some(path) = polygon(&spec.outline(c, 0.985)) else { continue };
        let ground = match spec.level[i] {
            0 => [188, 198, 140],
            1 => [196, 172, 118],
            _ => [172, 138, 92],
        };
        p.fill_path(&path, &paint_of(ground, 210), tiny_skia::FillRule::Winding, id, None);
        let (x, y) = spec.centre(c);
        match spec.terrain[i] {
            OctTerrain::Clear => {}
            OctTerrain::Pond => {
                p.fill_path(&path, &paint_of([196, 220, 236], 255), tiny_skia::FillRule::Winding, id, None);
                // Cracks in the ice.
                let ink = paint_of([120, 150, 180], 200);
                let s = Stroke { width: r * 0.02, ..Stroke::default() };
                for (a, b) in [((-0.3, -0.1), (0.1, 0.15)), ((0.1, 0.15), (0.35, -0.05)), ((0.1, 0.15), (0.0, 0.4))] {
                    if let Some(seg) = segment((x + a.0 * r, y + a.1 * r), (x + b.0 * r, y + b.1 * r)) {
                        p.stroke_path(&seg, &ink, &s, id, None);
                    }
                }
            }
            OctTerrain::Woods => {
                p.fill_path(&path, &paint_of([82, 120, 64], 230), tiny_skia::FillRule::Winding, id, None);
                let tree = paint_of([40, 74, 34], 255);
                for k in 0..7 {
                    let a = k as f32 * 0.9;
                    let (tx, ty) = (x + (a.cos() * 0.25) * r, y + (a.sin() * 0.22) * r);
                    let mut pb = PathBuilder::new();
                    pb.push_circle(tx, ty, r * 0.08);
                    if let Some(cc) = pb.finish() {
                        p.fill_path(&cc, &tree, tiny_skia::FillRule::Winding, id, None);
                    }
                }
            }
            OctTerrain::Town | OctTerrain::Castle => {
                let (roof, size) =
                    if spec.terrain[i] == OctTerrain::Town { ([168, 62, 44], 0.13) } else { ([110, 104, 98], 0.22) };
                for (dx, dy) in [(-0.18, -0.12), (0.14, -0.16), (-0.06, 0.14), (0.2, 0.12)] {
                    if spec.terrain[i] == OctTerrain::Castle && (dx, dy) != (-0.18, -0.12) {
                        continue;
                    }
                    let (bx, by) =
                        if spec.terrain[i] == OctTerrain::Castle { (x, y) } else { (x + dx * r, y + dy * r) };
                    if let Some(rect) =
                        tiny_skia::Rect::from_xywh(bx - size * r, by - size * r, 2.0 * size * r, 2.0 * size * r)
                    {
                        p.fill_rect(rect, &paint_of(roof, 245), id, None);
                    }
                }
                if spec.terrain[i] == OctTerrain::Castle {
                    // Crenellations: the walled country house.
                    let ink = paint_of([50, 44, 40], 255);
                    for k in 0..4 {
                        let x0 = x - 0.22 * r + k as f32 * 0.13 * r;
                        if let Some(rect) = tiny_skia::Rect::from_xywh(x0, y - 0.3 * r, 0.07 * r, 0.08 * r) {
                            p.fill_rect(rect, &ink, id, None);
                        }
                    }
                }
            }
        }
        if spec.ridge[i] {
            // Hachures falling from the crest.
            let ink = paint_of([100, 70, 40], 190);
            let s = Stroke { width: r * 0.035, ..Stroke::default() };
            for k in 0..4 {
                let dx = (k as f32 - 1.5) * r * 0.16;
                if let Some(seg) = segment((x + dx, y - r * 0.05), (x + dx * 1.3, y + r * 0.2)) {
                    p.stroke_path(&seg, &ink, &s, id, None);
                }
            }
        }
    }
    // Outlines of every space.
    let grid = paint_of([70, 60, 40], 120);
    let thin = Stroke { width: (r * 0.02).max(1.0), ..Stroke::default() };
    for &c in &cells {
        if let Some(path) = polygon(&spec.outline(c, 1.0)) {
            p.stroke_path(&path, &grid, &thin, id, None);
        }
    }
    // Contour lines where the ground rises between neighbours.
    let contour = paint_of([120, 76, 36], 235);
    let heavy = Stroke { width: r * 0.07, line_cap: tiny_skia::LineCap::Round, ..Stroke::default() };
    for &c in &cells {
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let n = (c.0 + dx, c.1 + dy);
            if n.0 >= spec.columns || n.1 < 0 || n.1 >= spec.rows {
                continue;
            }
            if dx != 0 && dy != 0 && !spec.is_octagon(c) {
                continue;
            }
            if spec.level[idx(c)] != spec.level[idx(n)]
                && let Some((a, b)) = spec.side(c, n)
                && let Some(seg) = segment(a, b)
            {
                p.stroke_path(&seg, &contour, &heavy, id, None);
            }
        }
    }
    // The road from centre to centre.
    let road = Stroke {
        width: r * 0.1,
        line_cap: tiny_skia::LineCap::Round,
        dash: StrokeDash::new(vec![r * 0.22, r * 0.1], 0.0),
        ..Stroke::default()
    };
    for w2 in spec.road.windows(2) {
        if let Some(seg) = segment(spec.centre(w2[0]), spec.centre(w2[1])) {
            p.stroke_path(&seg, &paint_of([120, 60, 36], 230), &road, id, None);
        }
    }
    // The stream along the sides it crosses; bridges across.
    let water = paint_of([52, 96, 168], 240);
    let river = Stroke { width: r * 0.11, line_cap: tiny_skia::LineCap::Round, ..Stroke::default() };
    for &(a, b, _) in &spec.streams {
        if let Some((u, v)) = spec.side(a, b)
            && let Some(seg) = segment(u, v)
        {
            p.stroke_path(&seg, &water, &river, id, None);
        }
    }
    let timber = paint_of([74, 50, 32], 255);
    let deck = Stroke { width: r * 0.14, ..Stroke::default() };
    for &(a, b, bridged) in &spec.streams {
        if bridged {
            let (ca, cb) = (spec.centre(a), spec.centre(b));
            let mid = ((ca.0 + cb.0) / 2.0, (ca.1 + cb.1) / 2.0);
            if let Some(seg) = segment((mid.0 - r * 0.16, mid.1), (mid.0 + r * 0.16, mid.1)) {
                p.stroke_path(&seg, &timber, &deck, id, None);
            }
        }
    }
    // Sectors: dashed borders and their numbers in the north-west corner.
    let sector_ink = paint_of([60, 50, 90], 150);
    let dashed = Stroke { width: r * 0.03, dash: StrokeDash::new(vec![r * 0.15, r * 0.1], 0.0), ..Stroke::default() };
    for (n, (x0, y0, x1, y1)) in &spec.sectors {
        let (ax, ay) = spec.centre((*x0, *y1));
        let (bx, by) = spec.centre((*x1, *y0));
        let hp = r / 2.0;
        if let Some(rect) = tiny_skia::Rect::from_ltrb(ax - hp, ay - hp, bx + hp, by + hp) {
            let mut pb = PathBuilder::new();
            pb.push_rect(rect);
            if let Some(path) = pb.finish() {
                p.stroke_path(&path, &sector_ink, &dashed, id, None);
            }
        }
        printer.line(
            &mut p,
            Face::Bold,
            r * 0.3,
            &n.to_string(),
            ax - hp + r * 0.2,
            ay - hp + r * 0.32,
            Align::Centre,
            [60, 50, 90, 220],
        );
    }
    // The red set-up border.
    let red = Stroke { width: r * 0.06, dash: StrokeDash::new(vec![r * 0.3, r * 0.12], 0.0), ..Stroke::default() };
    for &lx in &spec.red_lines {
        let m = spec.margin();
        let x = m + (lx + 1.0) * r;
        if let Some(seg) = segment((x, m), (x, m + spec.rows as f32 * r)) {
            p.stroke_path(&seg, &paint_of([200, 30, 30], 230), &red, id, None);
        }
    }
    // The entry arrow.
    if let Some((at, (dx, dy), label)) = &spec.arrow {
        let (x, y) = spec.centre(*at);
        let (ux, uy) = (*dx as f32, -(*dy as f32));
        let tail = (x - ux * r * 1.1, y - uy * r * 1.1);
        let head = (x - ux * r * 0.45, y - uy * r * 0.45);
        let s = Stroke { width: r * 0.12, ..Stroke::default() };
        if let Some(seg) = segment(tail, head) {
            p.stroke_path(&seg, &paint_of([190, 30, 30], 255), &s, id, None);
        }
        let (px, py) = (-uy, ux);
        if let Some(tri) = polygon(&[
            (head.0 + ux * r * 0.2, head.1 + uy * r * 0.2),
            (head.0 + px * r * 0.18, head.1 + py * r * 0.18),
            (head.0 - px * r * 0.18, head.1 - py * r * 0.18),
        ]) {
            p.fill_path(&tri, &paint_of([190, 30, 30], 255), tiny_skia::FillRule::Winding, id, None);
        }
        printer.line(
            &mut p,
            Face::Bold,
            r * 0.28,
            label,
            tail.0 + r * 0.9,
            tail.1 + r * 0.05,
            Align::Centre,
            [150, 20, 20, 255],
        );
    }
    // Names under their spaces, with a paper halo.
    for (at, name, major) in &spec.names {
        let (x, y) = spec.centre(*at);
        let px = if *major { r * 0.3 } else { r * 0.24 };
        let base = y + r * 0.42;
        let width = printer.width(Face::Bold, px, name);
        if let Some(rect) = tiny_skia::Rect::from_xywh(x - width / 2.0 - 3.0, base - px * 0.85, width + 6.0, px * 1.1) {
            p.fill_rect(rect, &paint_of([240, 234, 210], 190), id, None);
        }
        printer.line(&mut p, Face::Bold, px, name, x, base, Align::Centre, [36, 26, 20, 255]);
    }
    let (title, subtitle) = &spec.title;
    let m = spec.margin();
    printer.line(&mut p, Face::Bold, r * 0.5, title, w as f32 / 2.0, m * 0.55, Align::Centre, [40, 28, 20, 255]);
    printer.line(&mut p, Face::Regular, r * 0.28, subtitle, w as f32 / 2.0, m * 0.9, Align::Centre, [60, 46, 34, 255]);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> OctMapSpec {
        OctMapSpec {
            columns: 4,
            rows: 3,
            pitch: 40.0,
            terrain: vec![OctTerrain::Clear; 12],
            level: vec![0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1],
            ridge: vec![false; 12],
            streams: vec![((1, 1), (2, 1), false)],
            road: vec![(0, 0), (1, 0)],
            sectors: vec![(1, (0, 0, 3, 2))],
            red_lines: vec![1.0],
            arrow: None,
            names: Vec::new(),
            title: ("T".into(), "S".into()),
            seed: 1,
        }
    }

    #[test]
    fn octagons_and_squares_share_their_sides() {
        let s = tiny();
        let ((ax, ay), (bx, by)) = s.side((1, 1), (2, 1)).unwrap();
        assert!((ax - bx).abs() < 0.01, "a vertical side between east-west neighbours");
        assert!(((ay - by).abs() - 2.0 * SQUARE_HALF * s.pitch).abs() < 0.01, "as long as the square's side");
        // The octagon's flat reaches the square's side.
        let oct = s.outline((0, 0), 1.0);
        let sq = s.outline((1, 0), 1.0);
        let right = oct.iter().map(|p| p.0).fold(f32::MIN, f32::max);
        let left = sq.iter().map(|p| p.0).fold(f32::MAX, f32::min);
        assert!((right - left).abs() < 0.01);
    }

    #[test]
    fn the_stream_is_blue_and_the_heights_brown() {
        let s = tiny();
        let p = paint(&s);
        let ((ax, ay), (bx, by)) = s.side((1, 1), (2, 1)).unwrap();
        let c = p.pixel(((ax + bx) / 2.0) as u32, ((ay + by) / 2.0 + 3.0) as u32).unwrap();
        assert!(c.blue() as u16 > c.red() as u16 + 40, "water: {c:?}");
        let (x, y) = s.centre((3, 1));
        let c = p.pixel(x as u32 + 10, y as u32 + 10).unwrap();
        assert!(c.red() > c.blue() + 40, "heights: {c:?}");
    }
}
