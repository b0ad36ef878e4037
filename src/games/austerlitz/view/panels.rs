//! Austerlitz's panels: the turn track (mist turns, Davout's window, the points), the combat
//! panel (every attack the phasing player may make on the chosen space, each with its CF
//! difference, every modifier and its reason, the die modifiers and the CRT row before the die),
//! the tables with where their values come from, and the costs on lit spaces.

use super::super::actions::Action;
use super::super::data::{Cell, CrtResult, FireResult};
use super::super::plugin::AzPhase;
use super::super::state::{Austerlitz, Step};
use super::geometry::{BoardGeometry, Lights};
use crate::engine::plugin::Request;
use crate::engine::rules::Game;
use crate::engine::seen::Seen;
use crate::engine::table::Act;
use crate::table::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The movement step's own state in the window, scoped to it (the step of play schedules it):
/// the combat panel, where a unit's attack is chosen during its move, runs only in the movement
/// steps (`view/mod.rs`), and its target is forgotten when they end.
pub struct MoveScope;

impl Plugin for MoveScope {
    fn build(&self, app: &mut App) {
        app.init_resource::<CombatPick>().add_systems(OnExit(AzPhase::Move), end_move);
    }
}

/// The movement steps are over: no combat target chosen.
fn end_move(mut pick: ResMut<CombatPick>) {
    pick.target = None;
}

/// The combat panel's target, and the tables window.
#[derive(Resource, Default)]
pub struct CombatPick {
    pub target: Option<Cell>,
    pub show_tables: bool,
}

/// T shows the tables.
pub fn keys(
    keyboard: Res<ButtonInput<KeyCode>>,
    taken: Option<Res<crate::ui::KeyboardTaken>>,
    mut pick: ResMut<CombatPick>,
) {
    if taken.is_some_and(|t| t.0) {
        return;
    }
    if keyboard.just_pressed(KeyCode::KeyT) {
        pick.show_tables = !pick.show_tables;
    }
}

/// The labels of lit spaces (a cost, what blocks a line of sight), printed on them.
pub fn cell_labels(
    mut contexts: EguiContexts,
    lights: Res<Lights>,
    geo: Option<Res<BoardGeometry>>,
    cams: Query<(&Camera, &GlobalTransform), Without<crate::table::dice::TrayView>>,
) -> Result {
    let Some(geo) = geo else { return Ok(()) };
    if lights.cells.iter().all(|(_, _, l)| l.is_none()) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let Ok((cam, cam_tf)) = cams.single() else { return Ok(()) };
    let zoom = ctx.zoom_factor();
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, egui::Id::new("az-labels")));
    for (c, _, label) in &lights.cells {
        let Some(text) = label else { continue };
        if let Ok(v) = cam.world_to_viewport(cam_tf, geo.world(*c)) {
            painter.text(
                egui::pos2(v.x / zoom, v.y / zoom),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(12.0),
                egui::Color32::from_rgb(20, 20, 30),
            );
        }
    }
    Ok(())
}

/// The turn track and the points.
pub fn track(
    mut contexts: EguiContexts,
    seen: Res<Seen<Austerlitz>>,
    session: Res<Session>,
    mut pick: ResMut<CombatPick>,
) -> Result {
    if session.covered() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let Some(g) = seen.game() else { return Ok(()) };
    egui::Window::new("Austerlitz track")
        .anchor(egui::Align2::CENTER_TOP, [0.0, 6.0])
        .title_bar(false)
        .resizable(false)
        .show(&ctx, |ui| {
            ui.label(egui::RichText::new(g.prompt()).strong());
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 2.0;
                for t in 1..=g.sc.tables.victory.last_turn {
                    let now = t == g.turn;
                    let text = egui::RichText::new(format!("{t}")).size(11.0);
                    let text = if now { text.strong().color(egui::Color32::WHITE) } else { text };
                    let fill = if now {
                        egui::Color32::from_rgb(150, 40, 30)
                    } else if g.sc.tables.mist(t).is_some() {
                        egui::Color32::from_rgb(150, 160, 175)
                    } else if t == g.sc.tables.victory.sudden_death_turn {
                        egui::Color32::from_rgb(160, 120, 40)
                    } else if t < g.turn {
                        egui::Color32::from_gray(90)
                    } else {
                        egui::Color32::from_gray(50)
                    };
                    egui::Frame::new()
                        .fill(fill)
                        .inner_margin(egui::Margin::symmetric(3, 1))
                        .show(ui, |ui| ui.label(text));
                }
            });
            ui.label(egui::RichText::new(g.status()).small());
            ui.horizontal(|ui| {
                if ui.button("Tables (T)").clicked() {
                    pick.show_tables = !pick.show_tables;
                }
                ui.label(egui::RichText::new("grey turns: mist · gold: turn 9's check").small());
            });
        });
    Ok(())
}

fn crt_cell(r: CrtResult) -> String {
    match r {
        CrtResult::AE => "AE".into(),
        CrtResult::AR(n) => format!("A{n}"),
        CrtResult::N => "–".into(),
        CrtResult::DR(n) => format!("D{n}"),
        CrtResult::DE => "DE".into(),
    }
}

fn fire_cell(r: FireResult) -> String {
    match r {
        FireResult::N => "–".into(),
        FireResult::R(n) => n.to_string(),
        FireResult::E => "E".into(),
    }
}

/// The combat panel: the attacks on the chosen space, each with its reckoning.
pub fn combat_window(
    mut contexts: EguiContexts,
    seen: Res<Seen<Austerlitz>>,
    session: Res<Session>,
    mut pick: ResMut<CombatPick>,
    mut requests: MessageWriter<Request<Austerlitz>>,
) -> Result {
    let Some(g) = seen.game() else { return Ok(()) };
    let Some(target) = pick.target else { return Ok(()) };
    let Some(seat) = session.seat() else { return Ok(()) };
    if session.covered() || g.step != Step::Move || g.active_seat() != Some(seat) || !g.pending.is_empty() {
        pick.target = None;
        return Ok(());
    }
    let mut legal = Vec::new();
    g.legal_actions(seen.mode, &mut legal);
    let attacks: Vec<&Action> =
        legal.iter().filter(|a| matches!(a, Action::Attack { target: t, .. } if *t == target)).collect();
    if attacks.is_empty() {
        pick.target = None;
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let mut close = false;
    egui::Window::new("Combat")
        .anchor(egui::Align2::RIGHT_TOP, [-6.0, 6.0])
        .default_width(400.0)
        .resizable(false)
        .show(&ctx, |ui| {
            ui.label(egui::RichText::new(format!("Attacks on {}", g.cell_name(target))).strong());
            egui::ScrollArea::vertical().max_height(520.0).show(ui, |ui| {
                for a in attacks {
                    let Action::Attack { units, charge, .. } = a else { continue };
                    let list: Vec<usize> = units.iter().map(|&u| u as usize).collect();
                    let odds = g.odds(&list, target, *charge, false);
                    let row = g.sc.tables.crt_row(odds.difference());
                    ui.label(g.action_label(a));
                    for (m, why) in &odds.modifiers {
                        let text = if *m == 0 { format!("  · {why}") } else { format!("  · {m:+} {why}") };
                        ui.label(egui::RichText::new(text).small());
                    }
                    for (m, why) in &odds.die_modifiers {
                        ui.label(egui::RichText::new(format!("  · die {m:+}: {why}")).small());
                    }
                    if let Some(row) = row {
                        let cells: Vec<String> = row.results.iter().map(|r| crt_cell(*r)).collect();
                        ui.label(
                            egui::RichText::new(format!("  CRT row {:+}: {}", row.difference, cells.join(" ")))
                                .small()
                                .strong(),
                        );
                    }
                    if odds.attacker_safe {
                        ui.label(
                            egui::RichText::new("  · struck in flank or rear: the attacker's adverse results are N")
                                .small(),
                        );
                    }
                    if ui.button(if *charge { "Charge: roll the die" } else { "Attack: roll the die" }).clicked() {
                        requests.write(Request::Act { seat, act: Act::Game(a.clone()) });
                        close = true;
                    }
                    ui.separator();
                }
            });
            if ui.button("Close").clicked() {
                close = true;
            }
        });
    if close {
        pick.target = None;
    }
    Ok(())
}

/// The tables, each row marked with where it comes from.
pub fn tables_window(mut contexts: EguiContexts, seen: Res<Seen<Austerlitz>>, mut pick: ResMut<CombatPick>) -> Result {
    if !pick.show_tables {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let Some(game) = seen.game() else { return Ok(()) };
    let t = &game.sc.tables;
    let mut open = true;
    egui::Window::new("Austerlitz tables").open(&mut open).anchor(egui::Align2::RIGHT_BOTTOM, [-6.0, -6.0]).show(
        &ctx,
        |ui| {
            let mark = |p: &crate::engine::scenario::Provenance| {
                if p.is_reconstructed() { "reconstructed" } else { "rulebook" }
            };
            ui.label(egui::RichText::new("Attack Combat Results Table (1 die)").strong());
            egui::Grid::new("az-crt").striped(true).show(ui, |ui| {
                ui.label("CF diff.");
                for d in 1..=6 {
                    ui.label(d.to_string());
                }
                ui.label("source");
                ui.end_row();
                for r in &t.crt {
                    ui.label(format!("{:+}", r.difference));
                    for x in &r.results {
                        ui.label(crt_cell(*x));
                    }
                    ui.label(egui::RichText::new(mark(&r.provenance)).small());
                    ui.end_row();
                }
            });
            for (title, table) in [
                ("Artillery Table (2 dice, +1 12-pdr)", &t.artillery),
                ("Horse Artillery Table (moving and firing)", &t.horse_artillery),
            ] {
                ui.separator();
                ui.label(egui::RichText::new(title).strong());
                egui::Grid::new(title).striped(true).show(ui, |ui| {
                    ui.label("range");
                    for d in 2..=12 {
                        ui.label(d.to_string());
                    }
                    ui.label("source");
                    ui.end_row();
                    let mut from = 1;
                    for r in &table.rows {
                        ui.label(if from == r.range { r.range.to_string() } else { format!("{from}–{}", r.range) });
                        from = r.range + 1;
                        for x in &r.results {
                            ui.label(fire_cell(*x));
                        }
                        ui.label(egui::RichText::new(mark(&r.provenance)).small());
                        ui.end_row();
                    }
                });
            }
            ui.separator();
            ui.label(
                egui::RichText::new("Counter-battery (1 die): 1-2 turned, 3-5 turned and demoralised, 6 eliminated")
                    .small(),
            );
            ui.label(egui::RichText::new("Numbers are spaces of retreat (5 also demoralises); E eliminated").small());
            ui.separator();
            ui.collapsing("Where the data comes from", |ui| {
                for (what, p) in game.sc.provenance() {
                    ui.label(egui::RichText::new(format!("{what}: {}", p.label())).small());
                }
            });
        },
    );
    if !open {
        pick.show_tables = false;
    }
    Ok(())
}

/// The final result, in the middle of the table.
pub fn final_score(mut contexts: EguiContexts, seen: Res<Seen<Austerlitz>>, session: Res<Session>) -> Result {
    // Scheduled in the GameOver phase only.
    let Some(g) = seen.game() else { return Ok(()) };
    if session.covered() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    egui::Window::new("Final result").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).resizable(false).show(
        &ctx,
        |ui| {
            ui.label(egui::RichText::new(g.prompt()).size(18.0).strong());
            ui.label(g.status());
        },
    );
    Ok(())
}
