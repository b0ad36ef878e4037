//! This game's panels: the hand and Napoléon's missions (read through the seat's view), the
//! tracks, and the player aids with the data's provenance.

use super::super::data::Variant;
use super::super::state::HandCard;
use super::super::text::card_name;
use super::super::{Botn, Side};
use crate::engine::seen::Seen;
use crate::table::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

pub fn panels(mut contexts: EguiContexts, seen: Res<Seen<Botn>>, session: Res<Session>) -> Result {
    if session.covered() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    // Everything about cards and missions comes through the gate: what these eyes may see.
    let (Some(game), Some(view)) = (seen.game(), seen.view.as_ref()) else { return Ok(()) };
    egui::Window::new("Hand")
        .anchor(egui::Align2::LEFT_BOTTOM, [6.0, -6.0])
        .default_width(290.0)
        .resizable(false)
        .show(&ctx, |ui| {
            // The viewer's own hand first.
            let sides = match session.seat() {
                Some(seat) if super::super::state::side_of(seat) == Side::Allied => [Side::Allied, Side::French],
                _ => [Side::French, Side::Allied],
            };
            for side in sides {
                let hand = &view.hands[side.index()];
                if hand.iter().all(Option::is_some) && !hand.is_empty() {
                    ui.label(egui::RichText::new(side.name()).strong());
                    let cards: Vec<String> = hand.iter().flatten().map(|c: &HandCard| card_name(game, *c)).collect();
                    ui.label(cards.join(" · "));
                } else {
                    ui.label(format!("{} holds {} cards", side.name(), hand.len()));
                }
            }
            if !view.missions.is_empty() {
                ui.separator();
                ui.label("Napoléon's missions:");
                for (i, m) in view.missions.iter().enumerate() {
                    let revealed = i < view.revealed as usize;
                    let text = match m {
                        Some(m) => {
                            let d = &game.sc.missions[*m as usize];
                            format!(
                                "{:?}: {} ({} / {}){}",
                                d.def.district,
                                game.sc.field_name(d.field),
                                d.def.french,
                                d.def.allied,
                                if revealed { " — revealed" } else { "" }
                            )
                        }
                        None => "hidden".to_string(),
                    };
                    ui.label(text);
                }
            }
        });

    egui::Window::new("Tracks").anchor(egui::Align2::CENTER_TOP, [0.0, 6.0]).title_bar(false).resizable(false).show(
        &ctx,
        |ui| {
            let date = game.current_date().unwrap_or("before 14.10.");
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(format!("Turn {} · {}", view.turn, view.active.name())).strong());
                ui.separator();
                let label = game.time_label();
                ui.label(if label == date || view.time == 0 || game.past_last_date() {
                    format!("Time {label} ({date})")
                } else {
                    format!("Time: after {date}, space {} of {}", view.time, game.sc.time.len() - 1)
                });
                ui.add(egui::ProgressBar::new(view.time as f32 / (game.sc.time.len() - 1) as f32).desired_width(90.0));
                ui.separator();
                ui.label(format!("VP French {} · Allied {}", view.vp[0], view.vp[1]));
                if let Some(grey) = view.grey_cannon {
                    ui.label(format!("· grey cannon {grey}"));
                }
            });
            let fights: Vec<String> = game
                .sc
                .time
                .iter()
                .filter(|t| t.fight)
                .enumerate()
                .map(|(i, t)| {
                    format!("{} {}", t.label, if i < view.fights_done as usize { "fought" } else { "to come" })
                })
                .collect();
            ui.label(
                egui::RichText::new(format!(
                    "{} game · fights: {} · draw pile {} · discards {} · scouts {} · -1 chips {}",
                    if game.sc.variant == Variant::Advanced { "Advanced" } else { "Beginner" },
                    fights.join(", "),
                    view.draw_pile,
                    view.discard.len(),
                    view.scout_supply,
                    view.minus_one_supply
                ))
                .small(),
            );
        },
    );

    egui::Window::new("Player aids")
        .anchor(egui::Align2::RIGHT_TOP, [-6.0, 6.0])
        .default_width(300.0)
        .default_open(false)
        .show(&ctx, |ui| {
            let aids = &game.sc.aids;
            ui.label(egui::RichText::new("5 actions per turn").strong());
            for a in &aids.actions {
                ui.label(format!("• {a}"));
            }
            ui.separator();
            ui.label(egui::RichText::new("Terrain values (advanced game)").strong());
            egui::Grid::new("terrain-values").striped(true).show(ui, |ui| {
                for h in ["", "Artillery", "Infantry", "Cavalry"] {
                    ui.label(h);
                }
                ui.end_row();
                for r in &aids.terrain_values {
                    ui.label(r.terrain.name());
                    for v in [r.artillery, r.infantry, r.cavalry] {
                        ui.label(format!("{v:+}"));
                    }
                    ui.end_row();
                }
            });
            ui.separator();
            ui.label(egui::RichText::new("Where the data comes from").strong());
            let p = &game.sc.provenance;
            for (what, prov) in [
                ("Board", &p.board),
                ("Adjacency", &p.adjacency),
                ("Armies", &p.armies),
                ("Missions", &p.missions),
                ("Action deck", &p.actions),
                ("Scout cards", &p.scouts),
                ("Time bar", &p.time),
                ("VP bar", &p.victory_points),
            ] {
                ui.label(egui::RichText::new(format!("{what}: {}", prov.label())).small());
            }
        });

    Ok(())
}
