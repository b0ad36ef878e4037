//! The map painter, for any game's table: turns a board's data into a painted texture at start —
//! terrain regions around their places with ragged, noise-warped edges, shading on hills, tree
//! speckle in woods, water, paper grain, roads as dashed tracks and rivers as flowing lines of
//! varying width — with `fastnoise-lite` for the noise and `tiny-skia` for the strokes. The picture
//! is cached on disk by the digest of what it is painted from, so a second start is instant.

use fastnoise_lite::{FastNoiseLite, FractalType, NoiseType};
use serde::Serialize;
use std::path::{Path, PathBuf};
use tiny_skia::{Paint, PathBuilder, Pixmap, Stroke, StrokeDash, Transform};

/// A space of a printed track: its centre and size (map units), its colour, and the label printed
/// under it (or inside it, when `inside`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    pub at: (f32, f32),
    pub size: (f32, f32),
    pub color: [u8; 3],
    pub label: String,
    pub inside: bool,
}

/// How a region is painted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Fill {
    Open,
    Wood,
    Heights,
    Water,
    Town,
}

/// One region of the map: its place (map units) and its colour and fill.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Region {
    pub at: (f32, f32),
    pub color: [u8; 3],
    pub fill: Fill,
}

/// What a map is painted from. Positions are map units; `extent` is the rectangle the picture
/// covers (min x, min y, max x, max y); y grows down the picture.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MapSpec {
    pub width: u32,
    pub height: u32,
    pub extent: (f32, f32, f32, f32),
    pub paper: [u8; 3],
    pub regions: Vec<Region>,
    /// A region's colour reaches this far from its place (map units); paper beyond.
    pub reach: f32,
    pub roads: Vec<((f32, f32), (f32, f32))>,
    /// Rivers from source to mouth, each with its width at the mouth (map units).
    pub rivers: Vec<(Vec<(f32, f32)>, f32)>,
    /// Coastlines: polygons of land (map units). When there are any, land and sea are decided by
    /// them, the regions colour the land only, and their borders are drawn as borders.
    pub land: Vec<Vec<(f32, f32)>>,
    /// A cartouche with the map's title and a line under it, centred at a place (map units).
    pub cartouche: Option<Cartouche>,
    /// A compass rose at a place (map units), north up the picture.
    pub compass: Option<(f32, f32)>,
    /// Printed track spaces (a time bar, a victory point track): boxes with a label under them.
    pub cells: Vec<Cell>,
    pub seed: i32,
}

impl MapSpec {
    fn to_px(&self, p: (f32, f32)) -> (f32, f32) {
        let (x0, y0, x1, y1) = self.extent;
        ((p.0 - x0) / (x1 - x0) * self.width as f32, (p.1 - y0) / (y1 - y0) * self.height as f32)
    }

    fn to_map(&self, px: f32, py: f32) -> (f32, f32) {
        let (x0, y0, x1, y1) = self.extent;
        (x0 + px / self.width as f32 * (x1 - x0), y0 + py / self.height as f32 * (y1 - y0))
    }
}

fn noise(seed: i32, frequency: f32, octaves: i32) -> FastNoiseLite {
    let mut n = FastNoiseLite::with_seed(seed);
    n.set_noise_type(Some(NoiseType::OpenSimplex2));
    n.set_frequency(Some(frequency));
    n.set_fractal_type(Some(FractalType::FBm));
    n.set_fractal_octaves(Some(octaves));
    n
}

fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]
}

/// Paints the map.
pub fn paint(spec: &MapSpec) -> Pixmap {
    let (w, h) = (spec.width, spec.height);
    let mut pixmap = Pixmap::new(w, h).expect("a map of some size");
    let warp = noise(spec.seed, 0.9, 3);
    let grain = noise(spec.seed.wrapping_add(1), 8.0, 2);
    let relief = noise(spec.seed.wrapping_add(2), 1.6, 4);
    let trees = noise(spec.seed.wrapping_add(3), 14.0, 1);
    let paper = spec.paper.map(|c| c as f32 / 255.0);
    // The coastlines' paths, built once: they make the land mask and are inked after.
    let coasts: Vec<tiny_skia::Path> = spec.land.iter().filter_map(|p| land_path(spec, p)).collect();
    let land = land_mask(spec, &coasts);
    let sea = [0.30, 0.49, 0.64];
    let pixels = pixmap.pixels_mut();
    for py in 0..h {
        for px in 0..w {
            let (mx, my) = spec.to_map(px as f32 + 0.5, py as f32 + 0.5);
            if let Some(mask) = &land {
                // Geographic map: sea where the coastlines say, the regions' colours on land.
                let a = mask.data()[(py * w + px) as usize] as f32 / 255.0;
                let waves = 0.5 + 0.5 * relief.get_noise_2d(mx * 3.0, my * 0.8);
                let water = mix(sea, [0.46, 0.62, 0.74], 0.35 * waves);
                let ground = if a > 0.0 { land_colour(spec, &warp, &relief, mx, my, paper) } else { water };
                let c = mix(water, ground, a);
                let g = 1.0 + 0.05 * grain.get_noise_2d(mx, my);
                let c = c.map(|v| ((v * g).clamp(0.0, 1.0) * 255.0) as u8);
                pixels[(py * w + px) as usize] = tiny_skia::ColorU8::from_rgba(c[0], c[1], c[2], 255).premultiply();
                continue;
            }
            // Borders between regions wander: the nearest place is found from a warped point.
            let (wx, wy) = (mx + 0.45 * warp.get_noise_2d(mx, my), my + 0.45 * warp.get_noise_2d(my + 31.7, mx - 11.3));
            let mut best = (f32::MAX, f32::MAX, 0usize);
            for (i, r) in spec.regions.iter().enumerate() {
                let d = (r.at.0 - wx).powi(2) + (r.at.1 - wy).powi(2);
                if d < best.0 {
                    best = (d, best.0, i);
                } else if d < best.1 {
                    best.1 = d;
                }
            }
            let mut c = paper;
            if let Some(r) = spec.regions.get(best.2) {
                let d = best.0.sqrt();
                let base = r.color.map(|v| v as f32 / 255.0);
                // Fading into the paper at the region's reach.
                let t = ((spec.reach - d) / (spec.reach * 0.25)).clamp(0.0, 1.0);
                let mut fill = base;
                match r.fill {
                    Fill::Wood => {
                        let k = trees.get_noise_2d(mx, my);
                        if k > 0.15 {
                            fill = mix(base, [0.12, 0.25, 0.12], 0.45);
                        }
                    }
                    Fill::Heights => {
                        // Light from the north-west on a noise relief.
                        let e = 0.02;
                        let slope = relief.get_noise_2d(mx + e, my + e) - relief.get_noise_2d(mx - e, my - e);
                        fill = mix(
                            base,
                            if slope > 0.0 { [1.0, 0.95, 0.85] } else { [0.30, 0.22, 0.15] },
                            (slope.abs() * 9.0).min(0.5),
                        );
                    }
                    Fill::Water => {
                        fill = mix(base, [0.85, 0.92, 1.0], 0.15 * (relief.get_noise_2d(mx * 3.0, my) + 1.0))
                    }
                    Fill::Town => {
                        let k = trees.get_noise_2d(mx * 0.7, my * 0.7);
                        if k > 0.3 {
                            fill = mix(base, [0.45, 0.25, 0.2], 0.5);
                        }
                    }
                    Fill::Open => {}
                }
                c = mix(paper, fill, t);
                // A thin darker seam where two regions meet.
                let seam = best.1.sqrt() - d;
                if seam < 0.05 && t > 0.5 {
                    c = mix(c, [0.25, 0.2, 0.15], 0.25);
                }
            }
            let g = 1.0 + 0.06 * grain.get_noise_2d(mx, my);
            let c = c.map(|v| ((v * g).clamp(0.0, 1.0) * 255.0) as u8);
            pixels[(py * w + px) as usize] = tiny_skia::ColorU8::from_rgba(c[0], c[1], c[2], 255).premultiply();
        }
    }
    let px_per_unit = w as f32 / (spec.extent.2 - spec.extent.0);
    draw_coasts(&coasts, &mut pixmap);
    // Rivers: a flowing line through the midpoints of the course, widening from a third of its
    // width at the source to all of it at the mouth.
    let mut water = Paint::default();
    water.set_color_rgba8(70, 120, 170, 235);
    water.anti_alias = true;
    for (course, width) in &spec.rivers {
        let pts: Vec<(f32, f32)> = course.iter().map(|p| spec.to_px(*p)).collect();
        let n = pts.len().saturating_sub(1).max(1) as f32;
        for i in 0..pts.len().saturating_sub(1) {
            let mid = |a: (f32, f32), b: (f32, f32)| ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            let start = if i == 0 { pts[0] } else { mid(pts[i - 1], pts[i]) };
            let end = if i + 2 == pts.len() { pts[i + 1] } else { mid(pts[i], pts[i + 1]) };
            let mut pb = PathBuilder::new();
            pb.move_to(start.0, start.1);
            pb.quad_to(pts[i].0, pts[i].1, end.0, end.1);
            if i == 0 {
                pb = PathBuilder::new();
                pb.move_to(start.0, start.1);
                pb.line_to(end.0, end.1);
            }
            let Some(path) = pb.finish() else { continue };
            let w = px_per_unit * width * (0.35 + 0.65 * (i as f32 + 1.0) / n);
            let stroke = Stroke { width: w.max(1.0), line_cap: tiny_skia::LineCap::Round, ..Stroke::default() };
            pixmap.stroke_path(&path, &water, &stroke, Transform::identity(), None);
        }
    }
    // Roads: dashed tracks between places.
    let mut road = Paint::default();
    road.set_color_rgba8(110, 80, 50, 200);
    road.anti_alias = true;
    let dash = StrokeDash::new(vec![px_per_unit * 0.22, px_per_unit * 0.12], 0.0);
    let stroke = Stroke { width: px_per_unit * 0.05, dash, ..Stroke::default() };
    for (a, b) in &spec.roads {
        let (a, b) = (spec.to_px(*a), spec.to_px(*b));
        let mut pb = PathBuilder::new();
        pb.move_to(a.0, a.1);
        pb.line_to(b.0, b.1);
        if let Some(path) = pb.finish() {
            pixmap.stroke_path(&path, &road, &stroke, Transform::identity(), None);
        }
    }
    let mut printer = super::print::Printer::new();
    draw_cells(spec, &mut pixmap, &mut printer, px_per_unit);
    if let Some(c) = &spec.cartouche {
        cartouche(&mut pixmap, &mut printer, c, spec.to_px(c.at));
    }
    if let Some(at) = spec.compass {
        compass(&mut pixmap, &mut printer, spec.to_px(at), px_per_unit);
    }
    pixmap
}

fn land_path(spec: &MapSpec, polygon: &[(f32, f32)]) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    for (i, p) in polygon.iter().enumerate() {
        let (x, y) = spec.to_px(*p);
        if i == 0 { pb.move_to(x, y) } else { pb.line_to(x, y) }
    }
    pb.close();
    pb.finish()
}

/// Where the land lies, from the coastlines (None when the map has none).
fn land_mask(spec: &MapSpec, coasts: &[tiny_skia::Path]) -> Option<tiny_skia::Mask> {
    if spec.land.is_empty() {
        return None;
    }
    let mut mask = tiny_skia::Mask::new(spec.width, spec.height)?;
    for path in coasts {
        mask.fill_path(path, tiny_skia::FillRule::Winding, true, Transform::identity());
    }
    Some(mask)
}

/// The colour of land at a point of a geographic map: its nearest region's tint, shaded by a
/// gentle relief, fading to a neutral ground beyond the regions' reach, with borders between
/// regions drawn as a fine dark line.
fn land_colour(
    spec: &MapSpec,
    warp: &FastNoiseLite,
    relief: &FastNoiseLite,
    mx: f32,
    my: f32,
    paper: [f32; 3],
) -> [f32; 3] {
    let (wx, wy) = (mx + 0.35 * warp.get_noise_2d(mx, my), my + 0.35 * warp.get_noise_2d(my + 31.7, mx - 11.3));
    let mut best = (f32::MAX, f32::MAX, None);
    for r in spec.regions.iter().filter(|r| r.fill != Fill::Water) {
        let d = (r.at.0 - wx).powi(2) + (r.at.1 - wy).powi(2);
        if d < best.0 {
            best = (d, best.0, Some(r));
        } else if d < best.1 {
            best.1 = d;
        }
    }
    let ground = mix(paper, [0.80, 0.74, 0.58], 0.5);
    let Some(r) = best.2 else { return ground };
    let d = best.0.sqrt();
    let t = ((spec.reach - d) / (spec.reach * 0.3)).clamp(0.0, 1.0);
    let e = 0.03;
    let slope = relief.get_noise_2d(mx + e, my + e) - relief.get_noise_2d(mx - e, my - e);
    let base = mix(
        r.color.map(|v| v as f32 / 255.0),
        if slope > 0.0 { [1.0, 0.97, 0.9] } else { [0.35, 0.3, 0.25] },
        (slope.abs() * 5.0).min(0.25),
    );
    let mut c = mix(ground, base, t);
    if best.1.sqrt() - d < 0.06 && t > 0.5 {
        c = mix(c, [0.30, 0.22, 0.18], 0.6);
    }
    c
}

/// Coastlines: a soft shallows band, then a fine ink line.
fn draw_coasts(paths: &[tiny_skia::Path], pixmap: &mut Pixmap) {
    let mut shallows = Paint::default();
    shallows.set_color_rgba8(40, 70, 90, 40);
    shallows.anti_alias = true;
    let mut ink = Paint::default();
    ink.set_color_rgba8(45, 55, 60, 230);
    ink.anti_alias = true;
    for path in paths {
        pixmap.stroke_path(path, &shallows, &Stroke { width: 6.0, ..Stroke::default() }, Transform::identity(), None);
    }
    for path in paths {
        pixmap.stroke_path(path, &ink, &Stroke { width: 1.3, ..Stroke::default() }, Transform::identity(), None);
    }
}

/// Printed track spaces: a box in its colour with a fine frame and its label in the serif.
fn draw_cells(spec: &MapSpec, pixmap: &mut Pixmap, printer: &mut super::print::Printer, px_per_unit: f32) {
    use super::print::{Align, Face};
    let mut ink = Paint::default();
    ink.set_color_rgba8(70, 50, 35, 255);
    ink.anti_alias = true;
    // The right end of the last label printed under a cell of each row (its top in pixels): a label
    // that would meet it ("Watch" against "14.10.") goes a line lower.
    let mut last_under: Vec<(f32, f32)> = Vec::new();
    for c in &spec.cells {
        let (x, y) = spec.to_px(c.at);
        let (w, h) = (c.size.0 * px_per_unit, c.size.1 * px_per_unit);
        let Some(rect) = tiny_skia::Rect::from_xywh(x - w / 2.0, y - h / 2.0, w, h) else { continue };
        let mut fill = Paint::default();
        fill.set_color_rgba8(c.color[0], c.color[1], c.color[2], 255);
        pixmap.fill_rect(rect, &fill, Transform::identity(), None);
        pixmap.stroke_path(
            &PathBuilder::from_rect(rect),
            &ink,
            &Stroke { width: 1.2, ..Stroke::default() },
            Transform::identity(),
            None,
        );
        if c.label.is_empty() {
            continue;
        }
        let dark = [60, 40, 28, 255];
        let px = printer.fit(Face::Bold, h * 0.5, &c.label, w * if c.inside { 0.9 } else { 1.6 });
        let mut baseline = if c.inside { y + px * 0.35 } else { y + h / 2.0 + px * 1.05 };
        if !c.inside {
            let half = printer.width(Face::Bold, px, &c.label) / 2.0;
            let row = y - h / 2.0;
            match last_under.iter_mut().find(|(top, _)| (*top - row).abs() < 1.0) {
                Some((_, right)) => {
                    if x - half < *right + px * 0.3 {
                        baseline += px * 1.1;
                        // The lower line does not block the next label's upper one.
                    } else {
                        *right = x + half;
                    }
                }
                None => last_under.push((row, x + half)),
            }
        }
        printer.line(pixmap, Face::Bold, px, &c.label, x, baseline, Align::Centre, dark);
    }
}

/// A map's title panel: its title, a line under it, and the sources' credit in small print (where
/// printed maps carry theirs; as a label over the map it lay on the cartouche).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cartouche {
    pub title: String,
    pub subtitle: String,
    /// Small print under the title, wrapped to the title's width.
    pub credit: Option<String>,
    /// Its centre (map units).
    pub at: (f32, f32),
}

/// A cartouche: a framed paper panel with the title in bold serif, a line under it and the credit.
fn cartouche(pixmap: &mut Pixmap, printer: &mut super::print::Printer, c: &Cartouche, at: (f32, f32)) {
    use super::print::{Align, Face};
    let (title, subtitle) = (c.title.as_str(), c.subtitle.as_str());
    let tpx = 28.0_f32.min(pixmap.width() as f32 / 22.0);
    let spx = tpx * 0.55;
    let cpx = tpx * 0.36;
    let text_w = printer.width(Face::Bold, tpx, title).max(printer.width(Face::Regular, spx, subtitle));
    let credit = c.credit.as_deref().map(|t| printer.wrap(Face::Regular, cpx, t, text_w)).unwrap_or_default();
    let credit_w = credit.iter().map(|t| printer.width(Face::Regular, cpx, t)).fold(0.0, f32::max);
    let w = text_w.max(credit_w) + tpx * 1.6;
    let h = tpx * 2.6 + credit.len() as f32 * cpx * 1.3 + if credit.is_empty() { 0.0 } else { cpx * 0.5 };
    let (x, y) = (at.0 - w / 2.0, at.1 - h / 2.0);
    let Some(rect) = tiny_skia::Rect::from_xywh(x, y, w, h) else { return };
    let mut paper = Paint::default();
    paper.set_color_rgba8(244, 236, 214, 235);
    pixmap.fill_rect(rect, &paper, Transform::identity(), None);
    let mut ink = Paint::default();
    ink.set_color_rgba8(70, 50, 35, 255);
    ink.anti_alias = true;
    for (inset, width) in [(3.0, 2.0), (7.0, 0.8)] {
        if let Some(r) = tiny_skia::Rect::from_xywh(x + inset, y + inset, w - 2.0 * inset, h - 2.0 * inset) {
            let path = PathBuilder::from_rect(r);
            pixmap.stroke_path(&path, &ink, &Stroke { width, ..Stroke::default() }, Transform::identity(), None);
        }
    }
    let dark = [60, 40, 28, 255];
    printer.line(pixmap, Face::Bold, tpx, title, at.0, y + tpx * 1.25, Align::Centre, dark);
    printer.line(pixmap, Face::Regular, spx, subtitle, at.0, y + tpx * 2.1, Align::Centre, dark);
    for (i, credit) in credit.iter().enumerate() {
        let baseline = y + tpx * 2.1 + cpx * (1.9 + 1.3 * i as f32);
        printer.line(pixmap, Face::Regular, cpx, credit, at.0, baseline, Align::Centre, dark);
    }
}

/// A compass rose: an eight-pointed star with the north point dark and an N above it.
fn compass(pixmap: &mut Pixmap, printer: &mut super::print::Printer, at: (f32, f32), px_per_unit: f32) {
    use super::print::{Align, Face};
    let r = (px_per_unit * 1.2).clamp(24.0, 60.0);
    let mut ink = Paint::default();
    ink.set_color_rgba8(70, 50, 35, 255);
    ink.anti_alias = true;
    let mut light = Paint::default();
    light.set_color_rgba8(236, 226, 200, 255);
    light.anti_alias = true;
    for k in 0..8 {
        let a = k as f32 * std::f32::consts::FRAC_PI_4 - std::f32::consts::FRAC_PI_2;
        let len = if k % 2 == 0 { r } else { r * 0.55 };
        let side = r * 0.14;
        let tip = (at.0 + a.cos() * len, at.1 + a.sin() * len);
        let l = (
            at.0 + (a - std::f32::consts::FRAC_PI_2).cos() * side,
            at.1 + (a - std::f32::consts::FRAC_PI_2).sin() * side,
        );
        let rr = (
            at.0 + (a + std::f32::consts::FRAC_PI_2).cos() * side,
            at.1 + (a + std::f32::consts::FRAC_PI_2).sin() * side,
        );
        // Each point in two halves, one dark and one light, as engraved roses are.
        for (half, paint) in [(l, &ink), (rr, &light)] {
            let mut pb = PathBuilder::new();
            pb.move_to(at.0, at.1);
            pb.line_to(half.0, half.1);
            pb.line_to(tip.0, tip.1);
            pb.close();
            if let Some(path) = pb.finish() {
                pixmap.fill_path(&path, paint, tiny_skia::FillRule::Winding, Transform::identity(), None);
                pixmap.stroke_path(
                    &path,
                    &ink,
                    &Stroke { width: 0.8, ..Stroke::default() },
                    Transform::identity(),
                    None,
                );
            }
        }
    }
    printer.line(pixmap, Face::Bold, r * 0.5, "N", at.0, at.1 - r - r * 0.12, Align::Centre, [60, 40, 28, 255]);
}

/// A picture of `width`×`height` opaque pixels, each coloured by `colour(x, y)` with x and y
/// running from 0 to 1 across it.
fn shade(width: u32, height: u32, colour: impl Fn(f32, f32) -> [f32; 3]) -> Pixmap {
    let mut pixmap = Pixmap::new(width, height).expect("a picture of some size");
    let pixels = pixmap.pixels_mut();
    for py in 0..height {
        for px in 0..width {
            let c =
                colour(px as f32 / width as f32, py as f32 / height as f32).map(|v| (v.clamp(0.0, 1.0) * 255.0) as u8);
            pixels[(py * width + px) as usize] = tiny_skia::ColorU8::from_rgba(c[0], c[1], c[2], 255).premultiply();
        }
    }
    pixmap
}

/// A wooden table top: long grain along x with knots and a varnish sheen, `width`×`height` pixels.
pub fn wood(width: u32, height: u32, seed: i32) -> Pixmap {
    let rings = noise(seed, 3.0, 3);
    let fibre = noise(seed.wrapping_add(7), 40.0, 2);
    let (dark, light) = ([0.26, 0.16, 0.09], [0.46, 0.30, 0.17]);
    shade(width, height, |x, y| {
        let x = x * 4.0;
        // Grain: bands across y, bent by the rings' noise, with fine fibres along x.
        let band = ((y * 60.0 + 2.5 * rings.get_noise_2d(x * 0.6, y * 2.0)).sin() + 1.0) / 2.0;
        let t = (0.65 * band + 0.35 * (fibre.get_noise_2d(x * 0.2, y * 30.0) + 1.0) / 2.0).clamp(0.0, 1.0);
        mix(dark, light, t)
    })
}

/// A felt mat: a green baize with a fine nap and soft mottling, `width`×`height` pixels.
pub fn felt(width: u32, height: u32, seed: i32) -> Pixmap {
    let mottle = noise(seed, 2.5, 3);
    let nap = noise(seed.wrapping_add(5), 90.0, 1);
    let (dark, light) = ([0.05, 0.14, 0.09], [0.09, 0.21, 0.13]);
    shade(width, height, |x, y| {
        let t = (0.5 + 0.35 * mottle.get_noise_2d(x, y) + 0.25 * nap.get_noise_2d(x, y)).clamp(0.0, 1.0);
        mix(dark, light, t)
    })
}

/// A picture from the cache in `dir` under `key`, or made by `make` and cached. The second value
/// says whether the cache served it.
pub fn cached(key: &str, dir: &Path, make: impl FnOnce() -> Pixmap) -> (Pixmap, bool) {
    let file: PathBuf = dir.join(format!("{key}.png"));
    if let Ok(bytes) = std::fs::read(&file)
        && let Ok(p) = Pixmap::decode_png(&bytes)
    {
        return (p, true);
    }
    let p = make();
    if let Ok(bytes) = p.encode_png() {
        // A cache that cannot be written only costs the next start its time.
        let _ = std::fs::create_dir_all(dir).and_then(|_| std::fs::write(&file, bytes));
    }
    (p, false)
}

/// The painted map, from the cache in `dir` when it was painted before from the same spec;
/// painted and cached otherwise. The second value says whether the cache served it.
pub fn painted(spec: &MapSpec, dir: &Path) -> (Pixmap, bool) {
    let key = crate::engine::digest::digest_of(spec);
    let file: PathBuf = dir.join(format!("map-{key}.png"));
    if let Ok(bytes) = std::fs::read(&file)
        && let Ok(p) = Pixmap::decode_png(&bytes)
        && p.width() == spec.width
        && p.height() == spec.height
    {
        return (p, true);
    }
    let p = paint(spec);
    if let Ok(bytes) = p.encode_png() {
        // A cache that cannot be written only costs the next start its time.
        let _ = std::fs::create_dir_all(dir).and_then(|_| std::fs::write(&file, bytes));
    }
    (p, false)
}

/// Where the table's pictures are cached: `cache/` beside the journal.
pub fn cache_dir() -> PathBuf {
    crate::engine::journal::default_journal_path().with_file_name("cache")
}

/// Where a rectangle lies on the table: its size (width along x, depth along z) and its centre.
pub type Area = ((f32, f32), (f32, f32));

/// The room every game's table stands in: a wooden table top over `table` (its top at
/// y = -0.25) and on it a felt mat over `felt`, for the board and the cards to lie on.
pub fn spawn_room(
    commands: &mut bevy::prelude::Commands,
    meshes: &mut bevy::prelude::Assets<bevy::prelude::Mesh>,
    materials: &mut bevy::prelude::Assets<bevy::prelude::StandardMaterial>,
    images: &mut bevy::prelude::Assets<bevy::image::Image>,
    table: Area,
    felt_area: Area,
) {
    use bevy::prelude::*;
    let dir = cache_dir();
    let wood_picture = cached("wood-1024x512-2", &dir, || wood(1024, 512, 1)).0;
    let felt_picture = cached("felt-512x512-2", &dir, || felt(512, 512, 3)).0;
    // (picture, area, thickness, height of its middle, roughness, reflectance, name)
    let slabs = [
        (wood_picture, table, 0.4, -0.45, 0.55, 0.5, "Table top"),
        (felt_picture, felt_area, 0.02, -0.24, 1.0, 0.1, "Felt mat"),
    ];
    for (picture, ((w, d), (x, z)), thickness, y, roughness, reflectance, name) in slabs {
        commands.spawn((
            Mesh3d(meshes.add(Cuboid::new(w, thickness, d))),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color_texture: Some(images.add(to_image(&picture))),
                perceptual_roughness: roughness,
                reflectance,
                ..default()
            })),
            Transform::from_xyz(x, y, z),
            Pickable::IGNORE,
            Name::new(name),
        ));
    }
}

/// Paints (or reads from the cache) the map of `spec` and lays it on the table as a sheet over
/// the spec's extent (map units are the table's x and z).
pub fn spawn_map(
    commands: &mut bevy::prelude::Commands,
    meshes: &mut bevy::prelude::Assets<bevy::prelude::Mesh>,
    materials: &mut bevy::prelude::Assets<bevy::prelude::StandardMaterial>,
    images: &mut bevy::prelude::Assets<bevy::image::Image>,
    spec: &MapSpec,
    name: &str,
) {
    use bevy::prelude::*;
    let started = std::time::Instant::now();
    let (map, cached) = painted(spec, &cache_dir());
    let how = if cached { "read from the cache" } else { "painted" };
    info!("{name}: {}×{} {how} in {:.2} s", map.width(), map.height(), started.elapsed().as_secs_f32());
    let (x0, z0, x1, z1) = spec.extent;
    commands.spawn((
        Mesh3d(meshes.add(Plane3d::new(Vec3::Y, Vec2::new((x1 - x0) / 2.0, (z1 - z0) / 2.0)))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color_texture: Some(images.add(to_image(&map))),
            perceptual_roughness: 0.95,
            ..default()
        })),
        Transform::from_xyz((x0 + x1) / 2.0, -0.045, (z0 + z1) / 2.0),
        Pickable::IGNORE,
        Name::new(name.to_string()),
    ));
}

/// The pixmap as a Bevy image: sRGB, with its mipmaps made here (a 2×2 average per level) and a
/// trilinear, anisotropic sampler, so printed text stays crisp close up and readable far away.
pub fn to_image(p: &Pixmap) -> bevy::image::Image {
    use bevy::asset::RenderAssetUsages;
    use bevy::image::{ImageFilterMode, ImageSampler, ImageSamplerDescriptor};
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
    // tiny-skia keeps premultiplied colour, which is what filtering wants; the pictures are opaque
    // or printed on opaque stock, so it is the same as straight.
    let (mut w, mut h) = (p.width(), p.height());
    let mut data = p.data().to_vec();
    let mut level = data.clone();
    let mut levels = 1;
    while w > 1 && h > 1 && w % 2 == 0 && h % 2 == 0 {
        let (nw, nh) = (w / 2, h / 2);
        let mut next = vec![0u8; (nw * nh * 4) as usize];
        for y in 0..nh {
            for x in 0..nw {
                for c in 0..4 {
                    let at = |dx: u32, dy: u32| level[(((2 * y + dy) * w + 2 * x + dx) * 4 + c) as usize] as u32;
                    next[((y * nw + x) * 4 + c) as usize] = ((at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1) + 2) / 4) as u8;
                }
            }
        }
        data.extend_from_slice(&next);
        (level, w, h) = (next, nw, nh);
        levels += 1;
    }
    let mut image = bevy::image::Image::new(
        Extent3d { width: p.width(), height: p.height(), depth_or_array_layers: 1 },
        TextureDimension::D2,
        p.data().to_vec(),
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    image.data = Some(data);
    image.texture_descriptor.mip_level_count = levels;
    image.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
        mipmap_filter: ImageFilterMode::Linear,
        anisotropy_clamp: 8,
        ..ImageSamplerDescriptor::linear()
    });
    image
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> MapSpec {
        MapSpec {
            width: 96,
            height: 64,
            extent: (0.0, 0.0, 6.0, 4.0),
            paper: [235, 225, 200],
            regions: vec![
                Region { at: (1.0, 1.0), color: [200, 190, 120], fill: Fill::Open },
                Region { at: (4.5, 1.0), color: [70, 130, 70], fill: Fill::Wood },
                Region { at: (2.5, 3.0), color: [90, 140, 190], fill: Fill::Water },
            ],
            reach: 1.6,
            roads: vec![((1.0, 1.0), (4.5, 1.0))],
            rivers: vec![(vec![(0.0, 3.5), (3.0, 2.8), (6.0, 3.6)], 0.1)],
            land: Vec::new(),
            cartouche: None,
            compass: None,
            cells: Vec::new(),
            seed: 3,
        }
    }

    #[test]
    fn the_map_shows_each_terrain_where_its_region_lies() {
        let s = spec();
        let p = paint(&s);
        let at = |x: f32, y: f32| {
            let (px, py) = s.to_px((x, y));
            p.pixel(px as u32, py as u32).unwrap().demultiply()
        };
        let (open, wood, water) = (at(1.2, 1.3), at(4.7, 1.4), at(2.3, 3.3));
        assert!(open.red() > open.blue(), "open ground is warm: {open:?}");
        assert!(wood.green() > wood.red() && wood.green() > wood.blue(), "wood is green: {wood:?}");
        assert!(water.blue() > water.red(), "water is blue: {water:?}");
        // Not one flat colour: the grain and the relief vary it.
        let distinct: std::collections::HashSet<[u8; 3]> =
            p.pixels().iter().map(|c| [c.red(), c.green(), c.blue()]).collect();
        assert!(distinct.len() > 500, "{} colours", distinct.len());
    }

    #[test]
    fn coastlines_divide_land_from_sea_and_are_inked() {
        // An island in the middle of the map: land inside its coast, sea outside, a dark line on it.
        let mut s = spec();
        s.regions = vec![Region { at: (3.0, 2.0), color: [200, 180, 120], fill: Fill::Open }];
        s.rivers.clear();
        s.roads.clear();
        s.land = vec![vec![(2.0, 1.0), (4.0, 1.0), (4.0, 3.0), (2.0, 3.0)]];
        let p = paint(&s);
        let at = |x: f32, y: f32| {
            let (px, py) = s.to_px((x, y));
            p.pixel(px as u32, py as u32).unwrap().demultiply()
        };
        let (land, sea) = (at(3.0, 2.0), at(0.6, 0.5));
        assert!(land.red() > land.blue(), "land is warm: {land:?}");
        assert!(sea.blue() > sea.red() + 30, "sea is blue: {sea:?}");
        let coast = at(2.0, 2.0);
        assert!(coast.red() < land.red() - 40 && coast.green() < 140, "the coast is inked: {coast:?}");
        // Without coastlines the same regions paint no sea at all.
        s.land.clear();
        let q = paint(&s);
        let (px, py) = s.to_px((3.0, 2.0));
        let c = q.pixel(px as u32, py as u32).unwrap().demultiply();
        assert!(c.red() > c.blue());
    }

    #[test]
    fn a_map_painted_once_comes_from_the_cache_the_second_time() {
        let dir = tempfile::tempdir().unwrap();
        let (first, cached) = painted(&spec(), dir.path());
        assert!(!cached);
        let (second, cached) = painted(&spec(), dir.path());
        assert!(cached);
        assert_eq!(first.data(), second.data());
    }
}
