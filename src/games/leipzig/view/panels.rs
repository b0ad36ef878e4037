//! Leipzig 1813's panels: the turn record track and victory points, the combat panel (choose a
//! hex-group and its target: the odds with every modifier and the CRT column before the die), the
//! Combat Results Table with its column lit, where each chart's values come from, and the costs
//! on lit hexes.

use super::super::actions::Action;
use super::super::data::{Hex, Side};
use super::super::plugin::LzPhase;
use super::super::state::{Leipzig, Step, UnitId};
use super::geometry::{Lights, MapGeometry};
use crate::engine::plugin::Request;
use crate::engine::rules::Game;
use crate::engine::rules::Section;
use crate::engine::seats::Viewer;
use crate::engine::seen::Seen;
use crate::engine::table::Act;
use crate::table::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The Combat Phase's own state in the window, scoped to the phase (the step of play schedules
/// it): the combat panel's choice and the lit hexes of retreats and targets are cleared when the
/// phase ends, and the combat panel and the retreat lights run only in it (`view/mod.rs`).
pub struct CombatScope;

impl Plugin for CombatScope {
    fn build(&self, app: &mut App) {
        app.init_resource::<CombatPick>().init_resource::<Lights>().add_systems(OnExit(LzPhase::Combat), end_combat);
    }
}

/// The Combat Phase is over: nothing chosen in its panel, no retreat or target lit.
fn end_combat(mut pick: ResMut<CombatPick>, mut lights: ResMut<Lights>) {
    let CombatPick { show_crt, show_data, .. } = *pick;
    *pick = CombatPick { show_crt, show_data, ..CombatPick::default() };
    lights.hexes.clear();
}

/// The combat panel's choice: the target hex, the attacking hex, its units, leaders, supply.
#[derive(Resource, Default)]
pub struct CombatPick {
    pub target: Option<Hex>,
    pub from: Option<Hex>,
    pub units: Vec<UnitId>,
    pub leaders: bool,
    pub supply: Option<UnitId>,
    pub show_crt: bool,
    pub show_data: bool,
}

/// Keys of this game: Z shows the zones of control, C the Combat Results Table.
pub fn keys(
    keyboard: Res<ButtonInput<KeyCode>>,
    taken: Option<Res<crate::ui::KeyboardTaken>>,
    mut lights: ResMut<Lights>,
    mut pick: ResMut<CombatPick>,
) {
    if taken.is_some_and(|t| t.0) {
        return;
    }
    if keyboard.just_pressed(KeyCode::KeyZ) {
        lights.show_zoc = !lights.show_zoc;
    }
    if keyboard.just_pressed(KeyCode::KeyC) {
        pick.show_crt = !pick.show_crt;
    }
}

fn half(h: u32) -> String {
    super::super::text::half(h)
}

/// The costs of the lit hexes, printed on them.
pub fn cost_labels(
    mut contexts: EguiContexts,
    lights: Res<Lights>,
    geo: Option<Res<MapGeometry>>,
    cams: Query<(&Camera, &GlobalTransform), Without<crate::table::dice::TrayView>>,
) -> Result {
    let Some(geo) = geo else { return Ok(()) };
    if lights.hexes.iter().all(|(_, _, c)| c.is_none()) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let Ok((cam, cam_tf)) = cams.single() else { return Ok(()) };
    let zoom = ctx.zoom_factor();
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, egui::Id::new("lz-costs")));
    for (h, _, cost) in &lights.hexes {
        let Some(c) = cost else { continue };
        if let Ok(v) = cam.world_to_viewport(cam_tf, geo.world(*h)) {
            painter.text(
                egui::pos2(v.x / zoom, v.y / zoom),
                egui::Align2::CENTER_CENTER,
                c.to_string(),
                egui::FontId::proportional(12.0),
                egui::Color32::from_rgb(20, 20, 30),
            );
        }
    }
    Ok(())
}

/// The turn record track, the victory points and the special rules in force.
pub fn track(
    mut contexts: EguiContexts,
    seen: Res<Seen<Leipzig>>,
    session: Res<Session>,
    mut pick: ResMut<CombatPick>,
) -> Result {
    if session.covered() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let Some(g) = seen.game() else { return Ok(()) };
    let vp = g.victory_points(g.step == Step::Over);
    egui::Window::new("Leipzig 1813 track")
        .anchor(egui::Align2::CENTER_TOP, [0.0, 6.0])
        .title_bar(false)
        .resizable(false)
        .show(&ctx, |ui| {
            ui.label(egui::RichText::new(format!("{} · {}", g.sc.name, g.waiting_for())).strong());
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 2.0;
                for t in g.sc.first_turn..=g.sc.last_turn {
                    let now = t == g.turn;
                    let text = egui::RichText::new(format!("{t}")).size(11.0);
                    let text = if now { text.strong().color(egui::Color32::WHITE) } else { text };
                    let fill = if now {
                        egui::Color32::from_rgb(150, 40, 30)
                    } else if g.armistice.is_some_and(|a| t >= a && t <= a + 11) {
                        egui::Color32::from_rgb(200, 190, 150)
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
            let mut notes = vec![format!("VP French {} · Allied {}", vp[0], vp[1])];
            if g.reconnaissance() && g.step != Step::Over {
                notes.push("reconnaissance: Allied counters are blanks to the French".into());
            }
            if g.armistice_on() {
                notes.push("armistice".into());
            }
            if g.rebellion {
                notes.push("German rebellion".into());
            }
            if g.austria_open() {
                notes.push("Austria at war".into());
            } else {
                notes.push("Austria closed".into());
            }
            if g.bavaria {
                notes.push("Bavaria has defected".into());
            }
            ui.label(egui::RichText::new(notes.join(" · ")).small());
            ui.horizontal(|ui| {
                ui.toggle_value(&mut pick.show_crt, "CRT (C)");
                ui.toggle_value(&mut pick.show_data, "Charts' sources");
                ui.label(egui::RichText::new("Z: zones of control").small());
            });
        });
    Ok(())
}

/// The Combat Results Table, the column of the chosen attack lit, the last result marked.
pub fn crt_window(
    mut contexts: EguiContexts,
    seen: Res<Seen<Leipzig>>,
    session: Res<Session>,
    mut pick: ResMut<CombatPick>,
) -> Result {
    if session.covered() || !pick.show_crt {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let Some(g) = seen.game() else { return Ok(()) };
    let crt = &g.sc.charts.crt;
    let lit = chosen_odds(g, &pick, session.viewer).map(|(_, _, pct)| crt.column(pct));
    // The last combat's roll: its column (as the roll names it) and its die.
    let last = seen.log.iter().rev().filter_map(|l| l.roll.as_ref()).find_map(|r| {
        let t = r.table.as_ref().filter(|t| t.name == "Combat Results Table")?;
        let col = t.column.as_deref()?.trim_start_matches("column ").trim_start_matches('≤').trim_end_matches('%');
        let col = col.parse::<u16>().ok()?;
        Some((col, *r.dice.first()?))
    });
    let mut open = pick.show_crt;
    egui::Window::new("Combat Results Table")
        .open(&mut open)
        .anchor(egui::Align2::RIGHT_BOTTOM, [-6.0, -6.0])
        .resizable(false)
        .show(&ctx, |ui| {
            egui::Grid::new("crt").striped(true).show(ui, |ui| {
                ui.label("die");
                for (i, c) in crt.columns.iter().enumerate() {
                    let t = egui::RichText::new(if i == 0 { format!("≤{c}%") } else { format!("{c}%") }).strong();
                    ui.label(if Some(i) == lit {
                        t.background_color(egui::Color32::from_rgb(200, 160, 40))
                    } else {
                        t
                    });
                }
                ui.end_row();
                for (r, row) in crt.rows.iter().enumerate() {
                    ui.label(format!("{}", r + 1));
                    for (i, res) in row.iter().enumerate() {
                        let mut t = egui::RichText::new(res.code());
                        if Some(i) == lit {
                            t = t.background_color(egui::Color32::from_rgb(90, 75, 20));
                        }
                        if last == Some((crt.columns[i], r as u8 + 1)) {
                            t = t.strong().color(egui::Color32::from_rgb(255, 90, 70));
                        }
                        ui.label(t);
                    }
                    ui.end_row();
                }
            });
            ui.label(egui::RichText::new(crt.provenance.label()).small());
            ui.label(egui::RichText::new(format!("Printed: {}", crt.printed)).small());
        });
    pick.show_crt = open;
    Ok(())
}

/// Where each chart's values come from (rulebook or reconstruction, with the reason).
pub fn data_window(
    mut contexts: EguiContexts,
    seen: Res<Seen<Leipzig>>,
    session: Res<Session>,
    mut pick: ResMut<CombatPick>,
) -> Result {
    if session.covered() || !pick.show_data {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let Some(game) = seen.game() else { return Ok(()) };
    let sc = &game.sc;
    let mut open = pick.show_data;
    egui::Window::new("Where the charts come from").open(&mut open).default_width(520.0).show(&ctx, |ui| {
        egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
            for (what, p) in [
                ("Map", &sc.board.provenance),
                ("Counters", &sc.types_provenance),
                ("Supply units", &sc.supply_provenance),
                ("Leaders", &sc.leaders_provenance),
                ("Combat Results Table", &sc.charts.crt.provenance),
                ("Forced March Tables", &sc.charts.forced_march.provenance),
                ("Terrain Effects Chart", &sc.charts.terrain.provenance),
                ("Mountain passes", &sc.charts.terrain.pass_provenance),
                ("Deployment", &sc.deployment_provenance),
                ("Victory Point Schedule", &sc.victory.provenance),
            ] {
                ui.label(egui::RichText::new(what).strong());
                ui.label(egui::RichText::new(p.label()).small());
            }
            ui.label(egui::RichText::new("The hollow dot").strong());
            ui.label(egui::RichText::new(&sc.charts.forced_march.hollow_dot).small());
            ui.label(egui::RichText::new("How the map was drawn").strong());
            ui.label(egui::RichText::new(&sc.board.derivation).small());
            let rows = sc.reinforcements.iter().filter(|r| r.provenance.is_reconstructed()).count();
            ui.label(egui::RichText::new("Reinforcement Chart").strong());
            ui.label(
                egui::RichText::new(format!(
                    "{} rows, {rows} reconstructed (the chart is cut off after turn 3)",
                    sc.reinforcements.len()
                ))
                .small(),
            );
        });
    });
    pick.show_data = open;
    Ok(())
}

/// Whether the chosen attack's odds depend on a counter `viewer` may not examine: one attacked,
/// or one beside the attacked hexes (a supply unit that could support the defence).
fn hidden_defence(g: &Leipzig, pick: &CombatPick, viewer: Viewer) -> bool {
    let (Some(from), Some(target)) = (pick.from, pick.target) else { return false };
    let s = super::super::rules::zoc::Situation::of(g);
    let b = &g.sc.board;
    g.attack_targets(&s, from, target).into_iter().any(|t| {
        std::iter::once(t)
            .chain(b.neighbours(t).map(|(_, n)| n))
            .any(|h| g.at(h).any(|u| !g.seen_by(u as usize, viewer)))
    })
}

/// The chosen attack's strengths and ratio (defender supplied where he could be), if complete
/// and if `viewer` may know them.
fn chosen_odds(g: &Leipzig, pick: &CombatPick, viewer: Viewer) -> Option<(u32, u32, u32)> {
    if hidden_defence(g, pick, viewer) {
        return None;
    }
    let (from, target) = (pick.from?, pick.target?);
    let units = pick_units(g, pick);
    if units.is_empty() {
        return None;
    }
    let b = &g.sc.board;
    let sortie = b.is_fortress(from);
    let river = !sortie && b.side(from, target) == super::super::data::Hexside::River;
    let (a, _) = g.attack_strength(&units, pick.supply.is_some(), sortie);
    let s = super::super::rules::zoc::Situation::of(g);
    let targets = g.attack_targets(&s, from, target);
    let (d, _) = g.defense_strength(&targets, targets.iter().all(|&t| g.defender_could_supply(t)), river);
    Some((a, d, Leipzig::percent(a, d)))
}

fn pick_units(g: &Leipzig, pick: &CombatPick) -> Vec<UnitId> {
    let Some(from) = pick.from else { return Vec::new() };
    let mut units: Vec<UnitId> = g.at(from).filter(|u| pick.units.contains(u) && g.is_combat(*u)).collect();
    if pick.leaders && !g.sc.board.is_fortress(from) {
        units.extend(g.at(from).filter(|&u| g.attack_ready(u) && g.is_leader(u)));
    }
    units
}

/// The combat panel: in the Combat Phase, choose the target, the attacking hex, its units and
/// supply; the odds with every modifier and the CRT column are shown before anything is declared.
/// In the resolution segment, each declared attack with its odds, resolved in the order chosen.
pub fn combat_window(
    mut contexts: EguiContexts,
    seen: Res<Seen<Leipzig>>,
    mut notice: ResMut<crate::table::session::Notice>,
    session: Res<Session>,
    mut pick: ResMut<CombatPick>,
    mut requests: MessageWriter<Request<Leipzig>>,
) -> Result {
    let Some(g) = seen.game() else { return Ok(()) };
    if session.covered() || !matches!(g.step, Step::Declare | Step::Resolve) {
        if g.step != Step::Declare && pick.target.is_some() {
            pick.target = None;
            pick.from = None;
        }
        return Ok(());
    }
    let Some(seat) = session.seat() else { return Ok(()) };
    if g.active_seat() != Some(seat) || session.computer_at(seat).is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let board = &g.sc.board;
    egui::Window::new("Combat").anchor(egui::Align2::RIGHT_TOP, [-6.0, 6.0]).default_width(380.0).resizable(false).show(&ctx, |ui| {
        if g.step == Step::Resolve {
            ui.label(egui::RichText::new("Resolve the declared attacks in the order you wish").strong());
            for (i, a) in g.attacks.iter().enumerate().filter(|(_, a)| !a.resolved) {
                let (att, _) = g.attack_strength(&a.units, a.supply.is_some(), a.sortie);
                let supplied = a.targets.iter().all(|t| g.defended.iter().any(|(d, s)| d == t && s.is_some()));
                let (def, why) = g.defense_strength(&a.targets, supplied, a.river);
                let pct = Leipzig::percent(att, def);
                let col = g.sc.charts.crt.columns[g.sc.charts.crt.column(pct)];
                let names: Vec<String> = a.targets.iter().map(|&t| g.hex_name(t)).collect();
                ui.label(format!("On {} from {}: {} against {} = {pct}%: the {col}% column", names.join(", "), g.hex_name(a.from), half(att), half(def)));
                for w in why {
                    ui.label(egui::RichText::new(format!("  · {w}")).small());
                }
                if ui.button("Resolve: roll the die").clicked() {
                    requests.write(Request::Act { seat, act: Act::Game(Action::Resolve { attack: i as u8 }) });
                }
                ui.separator();
            }
            return;
        }
        let Some(target) = pick.target else {
            ui.label("Click an Enemy hex next to your counters to plan an attack on it.");
            return;
        };
        let mut legal = Vec::new();
        g.legal_actions(seen.mode, &mut legal);
        let froms = Action::attack_froms(&legal, target);
        ui.label(egui::RichText::new(format!("Target: {}", g.hex_name(target))).strong());
        if froms.is_empty() {
            ui.label("No hex-group of yours may attack it now.");
            return;
        }
        if pick.from.is_none_or(|f| !froms.contains(&f)) {
            pick.from = Some(froms[0]);
            pick.units = g.at(froms[0]).filter(|&u| g.attack_ready(u) && g.is_combat(u)).collect();
            pick.supply = super::super::rules::supply::supply_near(g, g.side, froms[0]).first().copied();
            pick.leaders = true;
        }
        ui.horizontal_wrapped(|ui| {
            ui.label("From:");
            for &f in &froms {
                if ui.selectable_label(pick.from == Some(f), g.hex_name(f)).clicked() && pick.from != Some(f) {
                    pick.from = Some(f);
                    pick.units = g.at(f).filter(|&u| g.attack_ready(u) && g.is_combat(u)).collect();
                    pick.supply = super::super::rules::supply::supply_near(g, g.side, f).first().copied();
                }
            }
        });
        let from = pick.from.expect("chosen above");
        for u in g.at(from).filter(|&u| g.attack_ready(u) && g.is_combat(u)).collect::<Vec<_>>() {
            let mut on = pick.units.contains(&u);
            if ui.checkbox(&mut on, g.unit_name(u, session.viewer)).changed() {
                if on { pick.units.push(u) } else { pick.units.retain(|x| *x != u) }
            }
        }
        let leaders: Vec<UnitId> = g.at(from).filter(|&u| g.attack_ready(u) && g.is_leader(u)).collect();
        if !leaders.is_empty() && !board.is_fortress(from) {
            let names: Vec<String> = leaders.iter().map(|&u| g.name(u)).collect();
            ui.checkbox(&mut pick.leaders, format!("with {}", names.join(", ")));
        }
        let supplies = super::super::rules::supply::supply_near(g, g.side, from);
        if board.is_fortress(from) {
            ui.label(egui::RichText::new("A sortie from a fortress: supplied, basic strength, against every adjacent Enemy hex").small());
        } else {
            ui.horizontal_wrapped(|ui| {
                ui.label("Supply:");
                ui.radio_value(&mut pick.supply, None, "none (halved)");
                for s in supplies {
                    ui.radio_value(&mut pick.supply, Some(s), g.hex_name(g.hex_of(s).unwrap_or(from)));
                }
            });
        }
        let units = pick_units(g, &pick);
        if hidden_defence(g, &pick, session.viewer) {
            ui.separator();
            ui.label("The defender (or a supply unit that could support him) is a blank: the odds are known once the attack is declared, which commits you to it (Reconnaissance).");
        }
        if let Some((a, d, pct)) = chosen_odds(g, &pick, session.viewer) {
            let crt = &g.sc.charts.crt;
            let col = crt.columns[crt.column(pct)];
            ui.separator();
            ui.label(egui::RichText::new(format!("{} against {} = {pct}%: the {}{col}% column", half(a), half(d), if crt.column(pct) == 0 { "≤" } else { "" })).strong());
            let s = super::super::rules::zoc::Situation::of(g);
            let targets = g.attack_targets(&s, from, target);
            let river = !board.is_fortress(from) && board.side(from, target) == super::super::data::Hexside::River;
            let (_, mut why) = g.attack_strength(&units, pick.supply.is_some(), board.is_fortress(from));
            why.extend(g.defense_strength(&targets, targets.iter().all(|&t| g.defender_could_supply(t)), river).1);
            for w in why {
                ui.label(egui::RichText::new(format!("· {w}")).small());
            }
            ui.label(egui::RichText::new("The defender is counted supplied where a supply unit could reach him; he decides after any retreat before combat.").small());
            let row: Vec<String> = crt.rows.iter().enumerate().map(|(r, row)| format!("{}: {}", r + 1, row[crt.column(pct)].code())).collect();
            ui.label(egui::RichText::new(format!("The column: {}", row.join("  "))).monospace());
        }
        let action = Action::Declare { from, units, target, supply: if board.is_fortress(from) { None } else { pick.supply } };
        let ok = legal.contains(&action);
        if ui.add_enabled(ok, egui::Button::new("Declare this attack")).clicked() {
            requests.write(Request::Act { seat, act: Act::Game(action.clone()) });
            pick.target = None;
            pick.from = None;
        }
        if !ok && let Err(e) = g.check(seen.mode, seat, &action) {
            ui.colored_label(egui::Color32::from_rgb(220, 80, 60), format!("{e} (rule: {})", e.section.heading()));
        }
        if ui.button("Clear").clicked() {
            pick.target = None;
            pick.from = None;
            notice.clear();
        }
    });
    Ok(())
}

/// The final result.
pub fn final_score(mut contexts: EguiContexts, seen: Res<Seen<Leipzig>>, session: Res<Session>) -> Result {
    // Scheduled in the GameOver phase only.
    if session.panels_hidden || session.resume_offer {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let Some(g) = seen.game() else { return Ok(()) };
    egui::Window::new("Final result").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).resizable(false).show(
        &ctx,
        |ui| {
            ui.heading(g.prompt());
            ui.label(format!(
                "Divisions and leaders destroyed: French {} · Allied {}",
                g.unit_vp[Side::French.index()],
                g.unit_vp[Side::Allied.index()]
            ));
        },
    );
    Ok(())
}
