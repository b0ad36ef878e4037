//! The fight and final-score windows: during a fight, the points each army is taking and the hit
//! waiting for its defender (whose armies light up on the board); at the end, every mission with
//! its armies, supporters, opponents and values, the points to each side, the winner, and after a
//! return game the two-game result.

use super::super::plugin::BotnPhase;
use super::super::state::Step;
use super::super::{Botn, Event, Side};
use super::board::{FIELD_RADIUS, field_world};
use crate::engine::seen::{Line, Seen};
use crate::table::session::Pointing;
use crate::table::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The windows of a fight and of the final score, scheduled by the step of play.
pub struct ScorePlugin;

impl Plugin for ScorePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FightClosed>()
            .add_systems(Update, light_fight.run_if(in_state(BotnPhase::Fight)))
            .add_systems(OnEnter(BotnPhase::Fight), ring_the_fight)
            .add_systems(OnExit(BotnPhase::Fight), |mut pointing: ResMut<Pointing>| pointing.highlight.clear())
            .add_systems(
                EguiPrimaryContextPass,
                (
                    fight_window.run_if(in_state(BotnPhase::Fight)),
                    last_fight_window.run_if(not(in_state(BotnPhase::Fight))),
                    score_window.run_if(in_state(BotnPhase::Scoring).or_else(in_state(BotnPhase::GameOver))),
                )
                    .in_set(crate::ui::GamePanels),
            );
    }
}

/// The log index of the last fight whose result window was closed.
#[derive(Resource, Default)]
pub struct FightClosed(pub Option<usize>);

/// Lights the fields of the hit being allocated: its attacker and the armies it may strike.
fn light_fight(seen: Res<Seen<Botn>>, mut pointing: ResMut<Pointing>) {
    let Some(game) = seen.game() else { return };
    let Some(hit) = game.hits.first() else { return };
    let fields: Vec<_> =
        hit.targets.iter().chain([&hit.attacker]).filter_map(|&a| game.armies[a as usize].at).collect();
    if pointing.highlight != fields {
        pointing.highlight = fields;
    }
}

/// A red ring under every army in the fight, for as long as the fight lasts: the rings belong to
/// the fight's state and go with it.
fn ring_the_fight(
    mut commands: Commands,
    seen: Res<Seen<Botn>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(game) = seen.game() else { return };
    let ring = meshes.add(Torus::new(FIELD_RADIUS * 0.95, FIELD_RADIUS * 1.12));
    let red = materials.add(StandardMaterial {
        base_color: Color::srgb(0.75, 0.08, 0.05),
        emissive: LinearRgba::rgb(0.6, 0.05, 0.02),
        ..default()
    });
    for army in 0..game.armies.len() as u8 {
        let Some(field) = game.armies[army as usize].at else { continue };
        if game.enemies_touching(army).is_empty() {
            continue;
        }
        commands.spawn((
            Mesh3d(ring.clone()),
            MeshMaterial3d(red.clone()),
            Transform::from_translation(field_world(game, field) + Vec3::Y * 0.04),
            DespawnOnExit(BotnPhase::Fight),
            Name::new(format!("Fight ring of {}", game.army_name(army))),
        ));
    }
}

/// The last fight's result stays on screen until closed (or the next fight), so a fight that
/// needed no choice is seen too.
fn last_fight_window(
    mut contexts: EguiContexts,
    seen: Res<Seen<Botn>>,
    session: Res<Session>,
    mut closed: ResMut<FightClosed>,
) -> Result {
    if session.covered() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let Some(game) = seen.game() else { return Ok(()) };
    let Some((end, lines)) = last_fight(&seen.log, game) else { return Ok(()) };
    if closed.0 == Some(end) {
        return Ok(());
    }
    let date = lines.first().cloned().unwrap_or_default();
    egui::Window::new(date)
        .id(egui::Id::new("last-fight"))
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -6.0])
        .resizable(false)
        .collapsible(false)
        .show(&ctx, |ui| {
            for l in &lines[1..] {
                ui.label(l);
            }
            if ui.button("Close").clicked() {
                closed.0 = Some(end);
            }
        });
    Ok(())
}

/// The last fight in the log: the index of its end, a title and one line per army that lost.
fn last_fight(entries: &[Line<Botn>], game: &Botn) -> Option<(usize, Vec<String>)> {
    let event = |e: &Line<Botn>| e.event.clone();
    let end = entries.iter().rposition(|e| matches!(event(e), Some(Event::FightEnded)))?;
    let start = entries[..end].iter().rposition(|e| matches!(event(e), Some(Event::FightBegan { .. })))?;
    let mut lines = Vec::new();
    for e in &entries[start..end] {
        match event(e) {
            Some(Event::FightBegan { date, armies }) => {
                lines.push(format!("Fight of {date}"));
                lines.push(if armies == 0 {
                    "No army was in contact with the enemy: nobody fought.".to_string()
                } else {
                    format!("{armies} armies were in contact with the enemy.")
                });
            }
            Some(Event::ArmyDamaged { army, points, strength, .. }) => lines.push(format!(
                "{} ({}) lost {points}{}",
                game.army_name(army),
                game.army_side(army).name(),
                if strength >= 1 { format!(": strength {strength}") } else { String::new() }
            )),
            Some(Event::ArmyRemoved { army, .. }) => {
                lines.push(format!("{} fell below strength 1 and left the board", game.army_name(army)))
            }
            _ => {}
        }
    }
    Some((end, lines))
}

fn fight_window(mut contexts: EguiContexts, seen: Res<Seen<Botn>>, session: Res<Session>) -> Result {
    if session.covered() {
        return Ok(());
    }
    let Some(game) = seen.game() else { return Ok(()) };
    // The step of play changes a frame before its Bevy state follows.
    if game.step != Step::Fight || game.hits.is_empty() {
        return Ok(());
    }
    let ctx = &contexts.ctx_mut()?.clone();
    let date = game.sc.time.iter().filter(|t| t.fight).nth(game.fights_done as usize - 1).map(|t| t.label.clone());
    egui::Window::new(format!("Fight of {}", date.unwrap_or_default()))
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -6.0])
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
            ui.label("Points taken so far (one per enemy army in contact):");
            egui::Grid::new("fight").striped(true).show(ui, |ui| {
                for (a, &d) in game.damage.iter().enumerate() {
                    if d == 0 {
                        continue;
                    }
                    let a = a as u8;
                    let st = &game.armies[a as usize];
                    ui.label(format!("{} ({})", game.army_name(a), game.army_side(a).name()));
                    ui.label(format!("−{d}"));
                    let left = st.strength - d as i8;
                    ui.label(if left < 1 { "falls".to_string() } else { format!("strength {left}") });
                    ui.end_row();
                }
            });
            for (i, hit) in game.hits.iter().enumerate() {
                let names: Vec<&str> = hit.targets.iter().map(|&t| game.army_name(t)).collect();
                let text = format!(
                    "{} {}'s point: {} chooses among {}",
                    if i == 0 { "Now:" } else { "Then:" },
                    game.army_name(hit.attacker),
                    game.army_side(hit.attacker).other().name(),
                    names.join(", ")
                );
                ui.label(if i == 0 { egui::RichText::new(text).strong() } else { egui::RichText::new(text) });
            }
        });
    Ok(())
}

fn score_window(mut contexts: EguiContexts, seen: Res<Seen<Botn>>, session: Res<Session>) -> Result {
    let Some(game) = seen.game() else { return Ok(()) };
    if session.covered() || (game.step == Step::GameOver && game.results.is_empty()) {
        return Ok(());
    }
    let ctx = &contexts.ctx_mut()?.clone();
    let title = if game.step == Step::GameOver { "Final score" } else { "Final scoring" };
    egui::Window::new(title).anchor(egui::Align2::CENTER_CENTER, [0.0, 40.0]).resizable(false).collapsible(true).show(
        ctx,
        |ui| {
            egui::Grid::new("missions").striped(true).num_columns(6).show(ui, |ui| {
                for h in ["Mission", "French", "", "Allied", "", "Points"] {
                    ui.label(egui::RichText::new(h).strong());
                }
                ui.end_row();
                for r in &game.results {
                    let m = &game.sc.missions[r.mission as usize];
                    ui.label(format!("{} ({:?})", game.sc.field_name(m.field), m.def.district));
                    let french: Vec<&str> = r.army.iter().chain(&r.support).map(|&a| game.army_name(a)).collect();
                    ui.label(if french.is_empty() { "no army".to_string() } else { french.join(" + ") });
                    ui.label(r.french.to_string());
                    let allied: Vec<&str> = r.opponents.iter().map(|&a| game.army_name(a)).collect();
                    ui.label(if allied.is_empty() { "—".to_string() } else { allied.join(" + ") });
                    ui.label(r.allied.to_string());
                    ui.label(if r.fulfilled {
                        egui::RichText::new(format!("French +{}", m.def.french)).color(egui::Color32::LIGHT_BLUE)
                    } else {
                        egui::RichText::new(format!("Allied +{}", m.def.allied)).color(egui::Color32::LIGHT_RED)
                    });
                    ui.end_row();
                }
            });
            if game.step == Step::Scoring {
                ui.label("Supporting and opposing armies that touch two mission armies are being assigned.");
                return;
            }
            ui.separator();
            let (f, a) = (game.vp[Side::French.index()], game.vp[Side::Allied.index()]);
            let winner = if f > a { "Napoléon wins" } else { "Schwarzenberg wins" };
            ui.heading(format!("French {f} — Allied {a}: {winner}"));
            ui.label(egui::RichText::new("Victory points: one per own army placed, plus the missions above.").small());
            if let Some(first) = game.grey_cannon {
                let result = match game.match_winner() {
                    Some(Some(Side::French)) => "this game's Napoléon scored more as the French and wins the match",
                    Some(Some(Side::Allied)) => {
                        "the first game's Napoléon scored more as the French and wins the match"
                    }
                    _ => "a tie: there is no winner of the match",
                };
                ui.label(format!("Return game: grey cannon {first}, Napoléon now {f} — {result}."));
            }
        },
    );
    Ok(())
}
