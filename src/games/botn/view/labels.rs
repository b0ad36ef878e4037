//! Labels drawn over the 3D table: field names, the army on each troop marker and army, card
//! faces that the viewer may see, the time bar's dates. Drawn on egui's background layer, so
//! they never take a click from the table.

use super::super::Botn;
use super::super::plugin::*;
use super::board::{time_bar_world, vp_bar_world};
use super::pieces::side_color;
use crate::engine::seats::Viewer;
use crate::engine::seen::Seen;
use crate::table::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The horizontal direction from the nearest field centre to a marker.
fn markers_outward(pos: Vec3, fields: &Query<(&Field, &GlobalTransform)>) -> Vec3 {
    let centre = fields
        .iter()
        .map(|(_, tf)| tf.translation())
        .min_by(|a, b| a.xz().distance(pos.xz()).total_cmp(&b.xz().distance(pos.xz())))
        .unwrap_or(pos);
    (pos - centre).with_y(0.0).normalize_or_zero()
}

/// A card title broken into short lines, to fit the card's face.
fn card_face(title: &str) -> String {
    title.replace(": ", "\n").replace('/', "/\n")
}

/// The name on a troop marker's chip: the army's name when short, else its first letters — at
/// least six, and as many as it takes to tell it from every other army (Kleist, Klenau).
fn chip_name(game: &Botn, army: u8) -> String {
    let name = game.army_name(army);
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= 8 {
        return name.to_string();
    }
    let others: Vec<Vec<char>> =
        (0..game.sc.armies.len() as u8).filter(|&a| a != army).map(|a| game.army_name(a).chars().collect()).collect();
    let unique = (6..chars.len()).find(|&k| others.iter().all(|o| o.len() < k || o[..k] != chars[..k]));
    let k = unique.unwrap_or(chars.len());
    chars[..k].iter().collect::<String>() + if k < chars.len() { "." } else { "" }
}

/// On-screen widths (egui points) from which a piece's print is read without a label.
const READABLE_CARD: f32 = 110.0;
const READABLE_CHIP: f32 = 46.0;
const READABLE_STANDEE: f32 = 70.0;
const READABLE_TRACK: f32 = 48.0;

#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn labels(
    mut contexts: EguiContexts,
    seen: Res<Seen<Botn>>,
    session: Res<Session>,
    cams: Query<(&Camera, &GlobalTransform), Without<crate::table::dice::TrayView>>,
    fields: Query<(&Field, &GlobalTransform)>,
    markers: Query<(Entity, &TroopMarker, &GlobalTransform)>,
    armies: Query<(Entity, &ArmyPiece, &Strength, &GlobalTransform)>,
    cards: Query<(&Card, &CardPlace, &FaceShown, &GlobalTransform)>,
    spread: Res<super::pieces::SpreadPile>,
    mut grips: ResMut<crate::table::grip::LabelGrips>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((cam, cam_tf)) = cams.single() else { return Ok(()) };
    let Some(game) = seen.game() else { return Ok(()) };
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, egui::Id::new("table-labels")));
    // egui's points are the window's pixels divided by the panel size setting.
    let zoom = ctx.zoom_factor();
    let to_screen = |p: Vec3| cam.world_to_viewport(cam_tf, p).ok().map(|v| egui::pos2(v.x / zoom, v.y / zoom));
    // Pieces' and cards' own labels are fixed on them; the fields' names are set last, around them,
    // so that no two labels meet.
    let mut labels = crate::table::layout::LabelPainter::new(&painter);
    let dark = egui::Color32::from_rgb(30, 24, 18);
    // The markers themselves first: no label is set over one (a 10 px marker under its
    // neighbour's name could be neither seen nor taken).
    for (_, _, tf) in &markers {
        let p = tf.translation();
        if p.y < -1.0 {
            continue;
        }
        if let Some((a, b)) = to_screen(p).zip(to_screen(p + Vec3::X * 0.27)) {
            let r = (b - a).length().max(4.0);
            labels.layout.reserve(crate::table::layout::Rect::centered((a.x, a.y), (2.0 * r, 2.0 * r)));
        }
    }
    // Each marker carries its army's name on a chip of its side's colour.
    for (e, m, tf) in &markers {
        if tf.translation().y < -1.0 {
            continue;
        }
        // Close enough to read the printed face, the chip speaks for itself.
        let p = tf.translation();
        if to_screen(p).zip(to_screen(p + Vec3::X * 0.5)).is_some_and(|(a, b)| (b - a).length() >= READABLE_CHIP) {
            continue;
        }
        // The label sits on the outer side of the marker, away from the field's other markers.
        let out = markers_outward(tf.translation(), &fields);
        if let Some(p) = to_screen(tf.translation() + out * 0.25 + Vec3::Y * 0.1) {
            // The chip wears the colour of the side's pieces on the table.
            let [r, g, b, _] = side_color(game.army_side(m.army), false).to_srgba().to_u8_array();
            let bg = egui::Color32::from_rgb(r, g, b);
            labels.chip_for(e, p, &chip_name(game, m.army), 10.5, egui::Color32::WHITE, Some(bg));
        }
    }
    for (e, a, s, tf) in &armies {
        if tf.translation().y < -1.0 {
            continue;
        }
        let p = tf.translation();
        if to_screen(p).zip(to_screen(p + Vec3::X * 0.72)).is_some_and(|(a, b)| (b - a).length() >= READABLE_STANDEE) {
            continue;
        }
        if let Some(p) = to_screen(tf.translation() + Vec3::Y * 0.2) {
            labels.fixed_for(
                e,
                p,
                &format!("{} {}", game.army_name(a.0), s.value),
                12.0,
                egui::Color32::WHITE,
                Some(egui::Color32::from_black_alpha(150)),
            );
        }
    }
    // Card faces the viewer may see: the mirror of the table knows only those. The piles'
    // counts first, fixed on their piles; the other cards' labels then set around them, so that
    // none overprints another ("Pile 28" over "Scout ×6" and the discard pile).
    let piles_first = |(_, place, _, _): &(&Card, &CardPlace, &FaceShown, &GlobalTransform)| {
        !matches!(place, CardPlace::DrawPile(0) | CardPlace::ScoutSupply(0))
    };
    let mut ordered: Vec<_> = cards.iter().collect();
    ordered.sort_by_key(piles_first);
    for (card, place, shown, tf) in ordered {
        if tf.translation().y < -1.0 {
            continue;
        }
        let label = match (card, place) {
            (_, CardPlace::DrawPile(0)) => Some(format!("Pile {}", game.draw_pile.len())),
            _ if !shown.0 => None,
            (Card::Action(c), CardPlace::FaceUp(_) | CardPlace::Discard(_)) => {
                Some(card_face(&game.sc.action_cards[*c as usize].title()))
            }
            (Card::Action(c), CardPlace::Hand(..)) => Some(card_face(&game.sc.action_cards[*c as usize].title())),
            (Card::Scout(_), CardPlace::ScoutSupply(0)) => Some(format!("Scout ×{}", game.scout_supply)),
            (Card::Scout(_), CardPlace::Hand(..)) => Some("Scout".to_string()),
            (Card::Mission(m), CardPlace::Mission(_) | CardPlace::Draft(_)) => {
                let def = &game.sc.missions[*m as usize];
                // Long names break at the hyphen so neighbouring cards' labels do not meet.
                let name = game.sc.field_name(def.field).replace('-', "-\n");
                Some(format!("{name}\n{} / {}", def.def.french, def.def.allied))
            }
            (Card::Army(a), CardPlace::ArmyCards(_, _, played)) => {
                let def = &game.sc.armies[*a as usize].def;
                // From afar the row of army cards shows only their numbers, so labels never overlap.
                let p = tf.translation();
                let room = to_screen(p).zip(to_screen(p + Vec3::X * 1.6)).map(|(a, b)| b.x - a.x).unwrap_or(0.0);
                Some(if *played {
                    format!("{}\n(used)", def.card)
                } else if room < 70.0 {
                    def.card.to_string()
                } else {
                    format!("{} {}\n{} {}", def.card, def.name, def.unit.name(), def.strength)
                })
            }
            _ => None,
        };
        // Close enough to read the printed card, the card speaks for itself; the piles' counts
        // are not printed and always show.
        let p = tf.translation();
        let width = to_screen(p).zip(to_screen(p + Vec3::X * 0.9)).map(|(a, b)| (b - a).length()).unwrap_or(0.0);
        let pile = matches!(place, CardPlace::DrawPile(0) | CardPlace::ScoutSupply(0));
        // A spread pile is there to show its faces: no labels over them.
        if spread.0 && matches!(place, CardPlace::Discard(_)) {
            continue;
        }
        if let Some(label) = label.filter(|_| pile || width < READABLE_CARD)
            && let Some(p) = to_screen(tf.translation() + Vec3::Y * 0.05)
        {
            let paper = Some(egui::Color32::from_rgba_unmultiplied(250, 246, 232, 230));
            if pile {
                labels.fixed(p, &label, 9.0, dark, paper);
            } else {
                labels.placed_plain(p, &label, 9.0, dark, paper);
            }
        }
    }
    // The tracks' labels are printed on the map; close enough to read the print, these give way.
    let track_readable = to_screen(time_bar_world(0))
        .zip(to_screen(time_bar_world(1)))
        .is_some_and(|(a, b)| (b - a).length() >= READABLE_TRACK);
    // A date that would meet the label before it ("Watch" and "14.10.") goes a line lower, as
    // the print does (`paint::draw_cells`).
    let mut right_of_last = f32::NEG_INFINITY;
    for (i, t) in game.sc.time.iter().enumerate() {
        if !track_readable
            && t.label != "·"
            && let Some(mut p) = to_screen(time_bar_world(i) + Vec3::new(0.0, 0.0, 0.6))
        {
            let color = if t.fight { egui::Color32::from_rgb(150, 30, 25) } else { dark };
            let (w, h) = labels.text_size(&t.label, 10.0);
            if p.x - w / 2.0 < right_of_last + 3.0 {
                p.y += h;
            } else {
                right_of_last = p.x + w / 2.0;
            }
            labels.fixed(p, &t.label, 10.0, color, None);
        }
    }
    for p in (0..=game.sc.victory_points).step_by(5) {
        if !track_readable && let Some(s) = to_screen(vp_bar_world(p) + Vec3::new(0.0, 0.0, 0.45)) {
            labels.fixed(s, &p.to_string(), 9.0, egui::Color32::from_gray(220), None);
        }
    }
    if session.viewer == Viewer::Spectator
        && let Some(p) = to_screen(Vec3::new(2.5, 0.0, 14.3))
    {
        // Set where it meets no card's label (it lay under the army cards' numbers).
        labels.placed_plain(
            p,
            "Spectator view: hands and hidden missions are not shown",
            11.0,
            egui::Color32::from_gray(230),
            None,
        );
    }
    // Field names under each disc.
    for (f, tf) in &fields {
        if let Some(p) = to_screen(tf.translation() + Vec3::new(0.0, 0.0, 0.78)) {
            let paper = Some(egui::Color32::from_rgba_unmultiplied(240, 232, 210, 200));
            labels.placed(p, game.sc.field_name(f.0), 11.0, dark, paper);
        }
    }
    grips.0 = labels.take_grips();
    Ok(())
}
