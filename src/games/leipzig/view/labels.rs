//! Leipzig 1813's labels on the map where its print is too small to read (the default view of a
//! whole scenario shows a counter at about 12 px): each stack's top counter on a chip of its
//! side's colour, as the eyes may see it (a blank stays "?"), with the stack's size; then the
//! victory cities' names set around the chips, so that no name lies under a stack. A press on a
//! chip takes its counter (`grip`).

use super::super::Leipzig;
use super::super::plugin::{Counter, CounterAt, Place};
use super::super::state::What;
use super::geometry::MapGeometry;
use crate::engine::seen::Seen;
use crate::table::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// Pixels across a counter from which its printed face reads by itself.
const READABLE: f32 = 34.0;

/// What a chip says of a counter as the eyes see it.
fn chip_text(game: &Leipzig, side: super::super::Side, what: What) -> String {
    match what {
        What::Blank => "?".to_string(),
        What::Leader(n) => game.sc.leader(side, n).map(|l| l.name.clone()).unwrap_or_default(),
        What::Type(t) => {
            let ty = &game.sc.types[t as usize];
            match ty.kind {
                super::super::data::Kind::Supply => "S".to_string(),
                super::super::data::Kind::Depot => "D".to_string(),
                _ => ty.id.clone(),
            }
        }
    }
}

#[allow(clippy::type_complexity)]
pub fn labels(
    mut contexts: EguiContexts,
    seen: Res<Seen<Leipzig>>,
    session: Res<Session>,
    geo: Option<Res<MapGeometry>>,
    cams: Query<(&Camera, &GlobalTransform), Without<crate::table::dice::TrayView>>,
    counters: Query<(Entity, &Counter, &CounterAt, &GlobalTransform)>,
    mut grips: ResMut<crate::table::grip::LabelGrips>,
) -> Result {
    let Some(geo) = geo else { return Ok(()) };
    if session.covered() || session.panels_hidden {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let Ok((cam, cam_tf)) = cams.single() else { return Ok(()) };
    let Some(game) = seen.game() else { return Ok(()) };
    let zoom = ctx.zoom_factor();
    let to_screen = |p: Vec3| cam.world_to_viewport(cam_tf, p).ok().map(|v| egui::pos2(v.x / zoom, v.y / zoom));
    // Near enough, the print speaks for itself.
    let across = to_screen(Vec3::ZERO).zip(to_screen(Vec3::X * super::geometry::HEX)).map(|(a, b)| (b - a).length());
    if across.is_none_or(|d| d >= READABLE) {
        if !grips.0.is_empty() {
            grips.0.clear();
        }
        return Ok(());
    }
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, egui::Id::new("lz-labels")));
    let mut labels = crate::table::layout::LabelPainter::new(&painter);
    // The stacks: the counter drawn highest on each hex is the one a press takes.
    let mut tops: std::collections::BTreeMap<u16, (Entity, &Counter, &CounterAt, Vec3, usize)> = Default::default();
    for (e, c, at, tf) in &counters {
        let Place::Map(h) = at.place else { continue };
        let p = tf.translation();
        let entry = tops.entry(h.0).or_insert((e, c, at, p, 0));
        entry.4 += 1;
        if p.y > entry.3.y {
            (entry.0, entry.1, entry.2, entry.3) = (e, c, at, p);
        }
    }
    for (e, c, at, p, n) in tops.values() {
        let side = game.units[c.0 as usize].side;
        let mut text = chip_text(game, side, at.what);
        if *n > 1 {
            text.push_str(&format!(" +{}", n - 1));
        }
        let [r, g, b] = match side {
            super::super::Side::French => [40, 70, 150],
            super::super::Side::Allied => [125, 80, 40],
        };
        if let Some(s) = to_screen(*p + Vec3::Y * 0.05) {
            labels.fixed_for(*e, s, &text, 10.0, egui::Color32::WHITE, Some(egui::Color32::from_rgb(r, g, b)));
        }
    }
    // The victory cities' names, set clear of the chips.
    let paper = Some(egui::Color32::from_rgba_unmultiplied(245, 240, 225, 215));
    for (name, _) in &game.sc.victory.cities {
        if let Some(h) = game.sc.board.place(name)
            && let Some(s) = to_screen(geo.world(h))
        {
            labels.placed(s + egui::vec2(0.0, 12.0), name, 11.0, egui::Color32::from_rgb(30, 24, 18), paper);
        }
    }
    grips.0 = labels.take_grips();
    Ok(())
}
