//! Printing: text set in the fonts shipped in `assets/fonts` (DejaVu Serif Condensed, regular and
//! bold) and drawn into `tiny-skia` pixmaps — map names and cartouches, counter and card faces.
//! Glyphs are rasterised by `swash`, which Bevy's own text already builds, so printing adds no
//! crate to the build.

use swash::FontRef;
use swash::scale::{Render, ScaleContext, Source};
use swash::zeno::{Format, Vector};
use tiny_skia::{Pixmap, PremultipliedColorU8};

static SERIF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSerifCondensed.ttf");
static SERIF_BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSerifCondensed-Bold.ttf");

/// The regular serif, for the window's own labels (egui).
pub fn serif_bytes() -> &'static [u8] {
    SERIF
}

/// Which of the shipped faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    Regular,
    Bold,
}

fn font(face: Face) -> FontRef<'static> {
    let bytes = match face {
        Face::Regular => SERIF,
        Face::Bold => SERIF_BOLD,
    };
    FontRef::from_index(bytes, 0).expect("the shipped font parses")
}

/// A printer: keeps the glyph scaler's caches between strings.
#[derive(Default)]
pub struct Printer {
    context: ScaleContext,
}

/// How a line is set against its x: from its left edge or around its centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Centre,
}

impl Printer {
    pub fn new() -> Self {
        Self::default()
    }

    /// The width of `text` set at `px` pixels to the em.
    pub fn width(&self, face: Face, px: f32, text: &str) -> f32 {
        let f = font(face);
        let charmap = f.charmap();
        let metrics = f.glyph_metrics(&[]).scale(px);
        text.chars().map(|c| metrics.advance_width(charmap.map(c))).sum()
    }

    /// The largest size not above `px` at which `text` fits in `max_width` (never below half).
    pub fn fit(&self, face: Face, px: f32, text: &str, max_width: f32) -> f32 {
        let w = self.width(face, px, text);
        if w <= max_width { px } else { (px * max_width / w).max(px / 2.0) }
    }

    /// Draws one line of `text` with its baseline at `y`, in `color` (straight RGBA).
    #[allow(clippy::too_many_arguments)]
    pub fn line(
        &mut self,
        pixmap: &mut Pixmap,
        face: Face,
        px: f32,
        text: &str,
        x: f32,
        y: f32,
        align: Align,
        color: [u8; 4],
    ) {
        let f = font(face);
        let charmap = f.charmap();
        let metrics = f.glyph_metrics(&[]).scale(px);
        let mut pen = match align {
            Align::Left => x,
            Align::Centre => x - self.width(face, px, text) / 2.0,
        };
        let mut scaler = self.context.builder(f).size(px).hint(false).build();
        for c in text.chars() {
            let glyph = charmap.map(c);
            let (whole, fraction) = (pen.floor(), pen - pen.floor());
            if let Some(image) = Render::new(&[Source::Outline])
                .format(Format::Alpha)
                .offset(Vector::new(fraction, 0.0))
                .render(&mut scaler, glyph)
            {
                let p = image.placement;
                let left = whole as i32 + p.left;
                let top = y.round() as i32 - p.top;
                blend_mask(pixmap, &image.data, p.width, p.height, left, top, color);
            }
            pen += metrics.advance_width(glyph);
        }
    }

    /// Sets `text` in lines no wider than `width`, breaking between words, from the top line's
    /// baseline `y` down, shrinking the size (to half at most) until it fits in `max_lines`.
    /// Returns the baseline below the last line.
    #[allow(clippy::too_many_arguments)]
    pub fn paragraph(
        &mut self,
        pixmap: &mut Pixmap,
        face: Face,
        px: f32,
        text: &str,
        (x, y): (f32, f32),
        width: f32,
        max_lines: usize,
        align: Align,
        color: [u8; 4],
    ) -> f32 {
        let mut size = px;
        let mut lines = self.wrap(face, size, text, width);
        while lines.len() > max_lines && size > px / 2.0 {
            size *= 0.9;
            lines = self.wrap(face, size, text, width);
        }
        let mut baseline = y;
        for l in lines.iter().take(max_lines) {
            let s = self.fit(face, size, l, width);
            let lx = if align == Align::Centre { x + width / 2.0 } else { x };
            self.line(pixmap, face, s, l, lx, baseline, align, color);
            baseline += size * 1.15;
        }
        baseline
    }

    /// `text` broken into lines no wider than `width` at `px` (a word longer than a line gets a
    /// line of its own).
    pub fn wrap(&self, face: Face, px: f32, text: &str, width: f32) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut current = String::new();
        for word in text.split_whitespace() {
            let candidate = if current.is_empty() { word.to_string() } else { format!("{current} {word}") };
            if self.width(face, px, &candidate) <= width || current.is_empty() {
                current = candidate;
            } else {
                lines.push(std::mem::replace(&mut current, word.to_string()));
            }
        }
        if !current.is_empty() {
            lines.push(current);
        }
        lines
    }
}

/// Lays an alpha mask over the pixmap at (left, top) in `color`, source over.
fn blend_mask(pixmap: &mut Pixmap, mask: &[u8], w: u32, h: u32, left: i32, top: i32, color: [u8; 4]) {
    let (pw, ph) = (pixmap.width() as i32, pixmap.height() as i32);
    let pixels = pixmap.pixels_mut();
    for my in 0..h as i32 {
        let py = top + my;
        if py < 0 || py >= ph {
            continue;
        }
        for mx in 0..w as i32 {
            let px = left + mx;
            if px < 0 || px >= pw {
                continue;
            }
            let coverage = mask[(my * w as i32 + mx) as usize] as f32 / 255.0;
            let a = coverage * color[3] as f32 / 255.0;
            if a <= 0.0 {
                continue;
            }
            let d = &mut pixels[(py * pw + px) as usize];
            let over = |s: u8, dst: u8| (s as f32 * a + dst as f32 * (1.0 - a)).round() as u8;
            let alpha = (255.0 * a + d.alpha() as f32 * (1.0 - a)).round() as u8;
            let (r, g, b) = (over(color[0], d.red()), over(color[1], d.green()), over(color[2], d.blue()));
            *d = PremultipliedColorU8::from_rgba(r.min(alpha), g.min(alpha), b.min(alpha), alpha).unwrap_or(*d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ink(p: &Pixmap) -> usize {
        p.pixels().iter().filter(|c| c.red() < 128).count()
    }

    #[test]
    fn a_printed_line_inks_the_pixmap_where_it_is_set() {
        let mut p = Pixmap::new(200, 40).unwrap();
        p.fill(tiny_skia::Color::WHITE);
        let mut printer = Printer::new();
        printer.line(&mut p, Face::Bold, 24.0, "Printed", 10.0, 30.0, Align::Left, [0, 0, 0, 255]);
        assert!(ink(&p) > 200, "{} dark pixels", ink(&p));
        let w = printer.width(Face::Bold, 24.0, "Printed");
        // Nothing right of where the line ends.
        let beyond = (0..40).flat_map(|y| ((10.0 + w + 3.0) as u32..200).map(move |x| (x, y)));
        assert!(beyond.into_iter().all(|(x, y)| p.pixel(x, y).unwrap().red() > 200));
    }

    #[test]
    fn a_paragraph_breaks_between_words_and_fits_its_width() {
        let printer = Printer::new();
        let lines = printer.wrap(Face::Regular, 14.0, "France gains Spain as an ally when it has the majority", 90.0);
        assert!(lines.len() >= 3, "{lines:?}");
        assert!(
            lines
                .iter()
                .all(|l| !l.contains("  ") && printer.width(Face::Regular, 14.0, l) <= 90.0 || !l.contains(' '))
        );
        assert_eq!(lines.join(" "), "France gains Spain as an ally when it has the majority");
        assert!(printer.fit(Face::Regular, 20.0, "Schwarzenberg", 40.0) < 20.0);
    }
}
