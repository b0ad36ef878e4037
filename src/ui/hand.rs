//! The By hand panel of a sandbox table, the same for every game (`engine::sandbox`): find a
//! piece, find a place, put it there, turn it over or take it off; and back to the rules. It reads
//! only what the eyes see (`Seen`: the mode, the pieces through the view, the places), never the
//! table, and every move goes to the table as a request, so that it is checked, logged, saved and
//! undone like an order.

use crate::engine::plugin::Request;
use crate::engine::rules::Mode;
use crate::engine::sandbox::{HandMove, HandPiece};
use crate::engine::seen::Seen;
use crate::engine::table::Act;
use crate::table::TableGame;
use crate::table::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// What the panel has chosen and typed.
#[derive(Default)]
pub struct HandChoice {
    piece: Option<u32>,
    place: Option<u32>,
    find_piece: String,
    find_place: String,
}

/// The rows a list shows at once.
const ROWS: f32 = 7.0;

/// Whether `text` contains every word of `find`, ignoring case.
pub fn matches(text: &str, find: &str) -> bool {
    let text = text.to_lowercase();
    find.split_whitespace().all(|w| text.contains(&w.to_lowercase()))
}

/// A piece's line in the list: its name and where it lies.
pub fn piece_line(piece: &HandPiece, places: &[String]) -> String {
    match piece.at.and_then(|p| places.get(p as usize)) {
        Some(place) => {
            format!("{} — {place}{}", piece.name, if piece.flipped == Some(true) { " (turned)" } else { "" })
        }
        None => format!("{} — off the table", piece.name),
    }
}

pub fn hand_panel<G: TableGame>(
    mut contexts: EguiContexts,
    seen: Res<Seen<G>>,
    session: Res<Session>,
    window: Option<Res<crate::table::broadcast::BroadcastWindow>>,
    offer: Res<crate::table::session::ResumeOffer<G>>,
    mut requests: MessageWriter<Request<G>>,
    mut choice: Local<HandChoice>,
) -> Result {
    if seen.mode != Mode::Sandbox
        || session.panels_hidden
        || window.is_some()
        || session.handover_to.is_some()
        || offer.0.is_some()
        || seen.pieces.is_empty()
    {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let Some(seat) = session.seat() else { return Ok(()) };
    let places = &seen.places;
    let c = &mut *choice;
    if c.piece.is_some_and(|p| p as usize >= seen.pieces.len()) {
        c.piece = None;
    }
    let mut send = |act: Act<G::Action>| {
        requests.write(Request::Act { seat, act });
    };
    egui::Window::new("Pieces by hand")
        .anchor(G::HAND_PANEL.0, G::HAND_PANEL.1)
        .default_width(300.0)
        .resizable(false)
        .show(&ctx, |ui| {
            ui.label(
                egui::RichText::new(
                    "Sandbox: the rules are silent. Every move is logged, saved and taken back with Undo like an order.",
                )
                .small(),
            );
            let lines = (0..seen.pieces.len() as u32).map(|p| (p, piece_line(&seen.pieces[p as usize], places)));
            if let Some(p) = pick(ui, "hand pieces", "find a piece", &mut c.find_piece, lines, c.piece) {
                c.piece = Some(p);
                c.place = None;
            }
            if let Some(a) = G::hand_extras(ui) {
                send(Act::Game(a));
            }
            if let Some(p) = c.piece {
                let piece = &seen.pieces[p as usize];
                ui.separator();
                let names = piece.goes.clone().filter_map(|o| places.get(o as usize).map(|n| (o, n.clone())));
                if let Some(o) = pick(ui, "hand places", "find a place", &mut c.find_place, names, c.place) {
                    c.place = Some(o);
                }
                if let Some(mv) = moves(ui, p, piece, c.place) {
                    send(Act::Hand(mv));
                }
            } else {
                ui.label(egui::RichText::new("Choose a piece to move it.").small());
            }
            ui.separator();
            if ui
                .button("Back to the rules")
                .on_hover_text("The rules are enforced from here on, if they accept the position")
                .clicked()
            {
                send(Act::Hand(HandMove::Enforce));
            }
        });
    Ok(())
}

/// A list found by a few letters (`find`), `ROWS` lines at a time: the item clicked.
fn pick(
    ui: &mut egui::Ui,
    salt: &str,
    hint: &str,
    find: &mut String,
    items: impl Iterator<Item = (u32, String)>,
    chosen: Option<u32>,
) -> Option<u32> {
    ui.add(egui::TextEdit::singleline(find).hint_text(hint));
    let found: Vec<(u32, String)> = items.filter(|(_, line)| matches(line, find)).collect();
    let row = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
    let mut clicked = None;
    egui::ScrollArea::vertical().id_salt(salt).max_height(row * ROWS).show_rows(ui, row, found.len(), |ui, rows| {
        for (id, line) in &found[rows] {
            if ui.selectable_label(chosen == Some(*id), line).clicked() {
                clicked = Some(*id);
            }
        }
    });
    clicked
}

/// The moves a hand may make with piece `p` (put on the chosen `place`, turn over, take off,
/// turn its front): the one clicked.
fn moves(ui: &mut egui::Ui, p: u32, piece: &HandPiece, place: Option<u32>) -> Option<HandMove> {
    let mut mv = None;
    ui.horizontal_wrapped(|ui| {
        let put = place.filter(|&on| piece.at != Some(on));
        if ui.add_enabled(put.is_some(), egui::Button::new("Put there")).clicked()
            && let Some(on) = put
        {
            mv = Some(HandMove::Put { piece: p, on });
        }
        if piece.flipped.is_some() && ui.button("Turn over").clicked() {
            mv = Some(HandMove::Flip { piece: p });
        }
        if piece.removable && piece.at.is_some() && ui.button("Take off").clicked() {
            mv = Some(HandMove::Remove { piece: p });
        }
        if piece.turns && piece.at.is_some() {
            for (label, clockwise) in [("Turn left", false), ("Turn right", true)] {
                if ui.button(label).on_hover_text("Turn its front by the smallest step its space allows").clicked() {
                    mv = Some(HandMove::Turn { piece: p, clockwise });
                }
            }
        }
    });
    mv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_finds_every_word_in_any_case() {
        assert!(matches("Blue IV Corps — Hill Town (2215)", "town iv"));
        assert!(!matches("Blue IV Corps — Hill Town (2215)", "town vi"));
        assert!(matches("anything", ""));
    }
}
