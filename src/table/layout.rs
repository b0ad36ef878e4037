//! Label placement for any game's table: each label is set near its anchor where it collides
//! with no label already placed and no reserved spot (a piece, a panel); failing that it is tried
//! smaller, then left out — a label never lies over another. Labels are placed in priority order
//! (the caller's order), so the important ones get their first choice.

/// A rectangle on the screen, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub min: (f32, f32),
    pub max: (f32, f32),
}

impl Rect {
    pub fn centered(centre: (f32, f32), size: (f32, f32)) -> Rect {
        Rect {
            min: (centre.0 - size.0 / 2.0, centre.1 - size.1 / 2.0),
            max: (centre.0 + size.0 / 2.0, centre.1 + size.1 / 2.0),
        }
    }

    pub fn overlaps(&self, o: &Rect) -> bool {
        self.min.0 < o.max.0 && o.min.0 < self.max.0 && self.min.1 < o.max.1 && o.min.1 < self.max.1
    }

    pub fn size(&self) -> (f32, f32) {
        (self.max.0 - self.min.0, self.max.1 - self.min.1)
    }

    pub fn centre(&self) -> (f32, f32) {
        ((self.min.0 + self.max.0) / 2.0, (self.min.1 + self.max.1) / 2.0)
    }
}

/// Where a label was set: its rectangle and the scale of its text (1 = as asked).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub rect: Rect,
    pub scale: f32,
}

/// Places labels one by one. `reserve` keeps a spot free of labels (a piece, a panel).
#[derive(Default)]
pub struct Layout {
    taken: Vec<Rect>,
    /// The screen, when known: a label must lie inside it.
    pub bounds: Option<Rect>,
}

impl Layout {
    pub fn new(bounds: Option<Rect>) -> Self {
        Self { taken: Vec::new(), bounds }
    }

    /// Keeps `r` free of labels from now on.
    pub fn reserve(&mut self, r: Rect) {
        self.taken.push(r);
    }

    fn free(&self, r: &Rect) -> bool {
        let inside = self
            .bounds
            .is_none_or(|b| r.min.0 >= b.min.0 && r.min.1 >= b.min.1 && r.max.0 <= b.max.0 && r.max.1 <= b.max.1);
        inside && !self.taken.iter().any(|t| t.overlaps(r))
    }

    /// Sets a label of `size` near `anchor`: centred on it, else below, above, to the sides, then a
    /// little farther; else at 80% of its size; else not at all (None).
    pub fn place(&mut self, anchor: (f32, f32), size: (f32, f32)) -> Option<Placed> {
        for scale in [1.0, 0.8] {
            let (w, h) = (size.0 * scale, size.1 * scale);
            let step_y = h + 2.0;
            let step_x = w / 2.0 + 6.0;
            let offsets = [
                (0.0, 0.0),
                (0.0, step_y),
                (0.0, -step_y),
                (step_x, 0.0),
                (-step_x, 0.0),
                (step_x, step_y),
                (-step_x, step_y),
                (step_x, -step_y),
                (-step_x, -step_y),
                (0.0, 2.0 * step_y),
                (0.0, -2.0 * step_y),
            ];
            for (dx, dy) in offsets {
                let r = Rect::centered((anchor.0 + dx, anchor.1 + dy), (w, h));
                if self.free(&r) {
                    self.taken.push(r);
                    return Some(Placed { rect: r, scale });
                }
            }
        }
        None
    }
}

/// The name of the serif family (the shipped DejaVu Serif) in egui, for the names of places.
pub const SERIF: &str = "serif";

/// Gives egui the serif family once (it takes effect from the next frame), and the same DejaVu
/// Serif as the last fallback of the panels' own fonts: a character egui's fonts lack (an
/// arrow, say) is drawn from it instead of as a box.
pub fn add_serif(ctx: &bevy_egui::egui::Context) {
    use bevy_egui::egui::{
        FontData, FontFamily,
        epaint::text::{FontInsert, FontPriority, InsertFontFamily},
    };
    let family = FontFamily::Name(SERIF.into());
    if ctx.fonts(|f| f.families().contains(&family)) || ctx.data(|d| d.get_temp::<bool>(SERIF.into()).is_some()) {
        return;
    }
    ctx.data_mut(|d| d.insert_temp(SERIF.into(), true));
    ctx.add_font(FontInsert::new(
        SERIF,
        FontData::from_static(super::print::serif_bytes()),
        vec![
            InsertFontFamily { family, priority: FontPriority::Highest },
            InsertFontFamily { family: FontFamily::Proportional, priority: FontPriority::Lowest },
            InsertFontFamily { family: FontFamily::Monospace, priority: FontPriority::Lowest },
        ],
    ));
}

/// Labels drawn with egui through a `Layout`: a piece's own label is fixed on it (and keeps its
/// spot free), a place's name is set where it collides with nothing.
pub struct LabelPainter<'a> {
    painter: &'a bevy_egui::egui::Painter,
    pub layout: Layout,
    serif: bool,
    /// The pieces' own labels drawn, each with its piece, in logical pixels (for `grip`).
    grips: Vec<(bevy::prelude::Entity, bevy::math::Rect)>,
}

impl<'a> LabelPainter<'a> {
    /// A painter for labels on the whole screen, keeping clear of the windows and panels egui
    /// drew last frame (so that no name runs under a panel).
    pub fn new(painter: &'a bevy_egui::egui::Painter) -> Self {
        use bevy_egui::egui::Order;
        let screen = painter.clip_rect();
        let bounds = Rect { min: (screen.min.x, screen.min.y), max: (screen.max.x, screen.max.y) };
        let mut layout = Layout::new(Some(bounds));
        let ctx = painter.ctx();
        let panels: Vec<_> = ctx.memory(|m| {
            m.areas()
                .visible_layer_ids()
                .into_iter()
                .filter(|l| matches!(l.order, Order::Middle | Order::Foreground))
                .filter_map(|l| m.area_rect(l.id))
                .collect()
        });
        for r in panels {
            layout.reserve(Rect { min: (r.min.x, r.min.y), max: (r.max.x, r.max.y) });
        }
        let serif = ctx.fonts(|f| f.families().contains(&bevy_egui::egui::FontFamily::Name(SERIF.into())));
        Self { painter, layout, serif, grips: Vec::new() }
    }

    fn galley(&self, text: &str, size: f32, fg: bevy_egui::egui::Color32) -> std::sync::Arc<bevy_egui::egui::Galley> {
        self.painter.layout_no_wrap(text.to_string(), bevy_egui::egui::FontId::proportional(size), fg)
    }

    /// Places' names are set in the serif, once egui has it.
    fn name_galley(
        &self,
        text: &str,
        size: f32,
        fg: bevy_egui::egui::Color32,
    ) -> std::sync::Arc<bevy_egui::egui::Galley> {
        use bevy_egui::egui::{FontFamily, FontId};
        if !self.serif {
            return self.galley(text, size, fg);
        }
        self.painter.layout_no_wrap(text.to_string(), FontId::new(size * 1.05, FontFamily::Name(SERIF.into())), fg)
    }

    fn draw(
        &self,
        rect: Rect,
        galley: std::sync::Arc<bevy_egui::egui::Galley>,
        fg: bevy_egui::egui::Color32,
        bg: Option<bevy_egui::egui::Color32>,
    ) {
        use bevy_egui::egui;
        let r = egui::Rect::from_min_max(egui::pos2(rect.min.0, rect.min.1), egui::pos2(rect.max.0, rect.max.1));
        if let Some(bg) = bg {
            self.painter.rect_filled(r.expand(1.5), 2.0, bg);
        }
        self.painter.galley(r.min, galley, fg);
    }

    /// The size a label's text takes in the panels' font (egui points).
    pub fn text_size(&self, text: &str, size: f32) -> (f32, f32) {
        let s = self.galley(text, size, bevy_egui::egui::Color32::WHITE).size();
        (s.x, s.y)
    }

    /// A label centred on `pos`, whatever lies there (a piece's own label); its box is kept free
    /// of the labels placed after it. Returns the size of its text.
    pub fn fixed(
        &mut self,
        pos: bevy_egui::egui::Pos2,
        text: &str,
        size: f32,
        fg: bevy_egui::egui::Color32,
        bg: Option<bevy_egui::egui::Color32>,
    ) -> (f32, f32) {
        let galley = self.galley(text, size, fg);
        let s = galley.size();
        let rect = Rect::centered((pos.x, pos.y), (s.x + 3.0, s.y + 3.0));
        self.layout.reserve(rect);
        let inner = Rect::centered((pos.x, pos.y), (s.x, s.y));
        self.draw(inner, galley, fg, bg);
        (s.x, s.y)
    }

    /// A piece's own label (as `fixed`): a press on it takes the piece.
    pub fn fixed_for(
        &mut self,
        piece: bevy::prelude::Entity,
        pos: bevy_egui::egui::Pos2,
        text: &str,
        size: f32,
        fg: bevy_egui::egui::Color32,
        bg: Option<bevy_egui::egui::Color32>,
    ) {
        let s = self.fixed(pos, text, size, fg, bg);
        self.grip(piece, (pos.x, pos.y), s);
    }

    /// A piece's own label set near `pos` where it meets no other label and no reserved spot
    /// (the pieces themselves, when reserved first), moved or shrunk as `placed` does, in the
    /// panels' font: a press on it takes the piece. Left out (false) if it cannot be placed.
    pub fn chip_for(
        &mut self,
        piece: bevy::prelude::Entity,
        pos: bevy_egui::egui::Pos2,
        text: &str,
        size: f32,
        fg: bevy_egui::egui::Color32,
        bg: Option<bevy_egui::egui::Color32>,
    ) -> bool {
        let Some((centre, size)) = self.placed_plain(pos, text, size, fg, bg) else { return false };
        self.grip(piece, centre, size);
        true
    }

    /// A label in the panels' font near `pos`, moved or shrunk so that it meets no other (as
    /// `placed`, which sets places' names in the serif): where it went and its size, if drawn.
    pub fn placed_plain(
        &mut self,
        pos: bevy_egui::egui::Pos2,
        text: &str,
        size: f32,
        fg: bevy_egui::egui::Color32,
        bg: Option<bevy_egui::egui::Color32>,
    ) -> Option<((f32, f32), (f32, f32))> {
        self.place_in(false, pos, text, size, fg, bg)
    }

    /// Sets a label near `pos` where it meets no other, in the serif (`name`) or the panels' font:
    /// where it went and its size, if drawn.
    fn place_in(
        &mut self,
        name: bool,
        pos: bevy_egui::egui::Pos2,
        text: &str,
        size: f32,
        fg: bevy_egui::egui::Color32,
        bg: Option<bevy_egui::egui::Color32>,
    ) -> Option<((f32, f32), (f32, f32))> {
        let galley = |me: &Self, size| if name { me.name_galley(text, size, fg) } else { me.galley(text, size, fg) };
        let s = galley(self, size).size();
        let p = self.layout.place((pos.x, pos.y), (s.x + 3.0, s.y + 3.0))?;
        let g = galley(self, size * p.scale);
        let (centre, dims) = (p.rect.centre(), (g.size().x, g.size().y));
        self.draw(Rect::centered(centre, dims), g, fg, bg);
        Some((centre, dims))
    }

    /// Remembers a piece's label, centred at `centre` with its text `size` (egui points), where a
    /// press takes the piece (logical pixels).
    fn grip(&mut self, piece: bevy::prelude::Entity, centre: (f32, f32), size: (f32, f32)) {
        let zoom = self.painter.ctx().zoom_factor();
        let half = bevy::math::Vec2::new(size.0 + 3.0, size.1 + 3.0) * 0.5 * zoom;
        let centre = bevy::math::Vec2::new(centre.0, centre.1) * zoom;
        self.grips.push((piece, bevy::math::Rect::from_center_half_size(centre, half)));
    }

    /// The pieces' labels drawn by this painter, for the table's grip (`grip::LabelGrips`).
    pub fn take_grips(&mut self) -> Vec<(bevy::prelude::Entity, bevy::math::Rect)> {
        std::mem::take(&mut self.grips)
    }

    /// A label near `pos`, moved or shrunk so that it collides with no other (left out if it
    /// cannot be placed). Returns whether it was drawn.
    pub fn placed(
        &mut self,
        pos: bevy_egui::egui::Pos2,
        text: &str,
        size: f32,
        fg: bevy_egui::egui::Color32,
        bg: Option<bevy_egui::egui::Color32>,
    ) -> bool {
        self.place_in(true, pos, text, size, fg, bg).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placed_labels_never_overlap_and_each_stays_near_its_anchor() {
        // Forty labels crowded around a few anchors, as nation and campaign names are.
        let mut layout = Layout::new(Some(Rect { min: (0.0, 0.0), max: (1280.0, 800.0) }));
        layout.reserve(Rect::centered((640.0, 400.0), (40.0, 40.0)));
        let mut placed = Vec::new();
        for i in 0..40 {
            let anchor = (600.0 + (i % 4) as f32 * 20.0, 380.0 + (i % 3) as f32 * 15.0);
            if let Some(p) = layout.place(anchor, (120.0, 16.0)) {
                let (cx, cy) = p.rect.centre();
                assert!((cx - anchor.0).abs() <= 130.0 && (cy - anchor.1).abs() <= 40.0, "{p:?} far from {anchor:?}");
                placed.push(p.rect);
            }
        }
        assert!(placed.len() >= 10, "most labels find a place: {}", placed.len());
        for (i, a) in placed.iter().enumerate() {
            assert!(!a.overlaps(&Rect::centered((640.0, 400.0), (40.0, 40.0))), "a label over a reserved spot");
            for b in &placed[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn a_label_moves_before_it_shrinks_and_shrinks_before_it_is_left_out() {
        let mut layout = Layout::new(None);
        let first = layout.place((100.0, 100.0), (50.0, 10.0)).unwrap();
        assert_eq!((first.rect.centre(), first.scale), ((100.0, 100.0), 1.0));
        let second = layout.place((100.0, 100.0), (50.0, 10.0)).unwrap();
        assert_eq!(second.scale, 1.0);
        assert_ne!(second.rect.centre(), (100.0, 100.0), "moved, not stacked");
        // With the screen only as big as two labels, a third does not fit at all.
        let mut tight = Layout::new(Some(Rect { min: (0.0, 0.0), max: (50.0, 24.0) }));
        assert!(tight.place((25.0, 6.0), (50.0, 10.0)).is_some());
        assert!(tight.place((25.0, 6.0), (50.0, 10.0)).is_some());
        assert!(tight.place((25.0, 6.0), (50.0, 10.0)).is_none());
    }
}
