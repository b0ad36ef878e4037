//! egui overlays: the prompt with the legal actions as buttons, the log with linked names, the
//! tracks, the player aids, the hand, the dice tray, the menu (new game, save, load, resume),
//! the hot-seat hand-over screen, and the labels drawn over the 3D pieces. H or F11 hides all
//! panels for a clean picture; F1 shows the controls.

pub mod overlay;
pub mod panels;
pub mod score;

use crate::engine::plugin::{Outcome, Request};
use crate::games::botn::Botn;
use crate::table::session::Session;
use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use bevy_egui::input::egui_wants_any_keyboard_input;

pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(EguiPrimaryContextPass, (overlay::labels, panels::panels, score::score_windows).chain())
            .add_systems(
                PreUpdate,
                drop_unchanged_modifiers
                    .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
                    .before(bevy_egui::EguiPreUpdateSet::BeginPass),
            )
            .add_systems(
                Update,
                (hotkeys.run_if(not(egui_wants_any_keyboard_input)), remember_refusals, settle_after_input),
            );
    }
}

fn hotkeys(
    keys: Res<ButtonInput<KeyCode>>,
    mut session: ResMut<Session>,
    mut requests: MessageWriter<Request<Botn>>,
    mut commands: Commands,
    mut shots: Local<u32>,
) {
    if keys.just_pressed(KeyCode::F12) {
        // A screenshot of the window, numbered in the working directory.
        use bevy::render::view::screenshot::{Screenshot, save_to_disk};
        *shots += 1;
        let path = format!("grognard-{:03}.png", *shots);
        session.notice = Some(format!("Screenshot saved to {path}"));
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
    }
    if keys.any_just_pressed([KeyCode::KeyH, KeyCode::F11]) {
        session.panels_hidden = !session.panels_hidden;
    }
    if keys.just_pressed(KeyCode::F1) || keys.just_pressed(KeyCode::Slash) {
        session.show_help = !session.show_help;
    }
    if keys.just_pressed(KeyCode::KeyR) && session.handover_to.is_none() {
        let seat = session.seat().unwrap_or(crate::engine::seats::SeatId(0));
        requests.write(Request::Act { seat, act: crate::engine::table::Act::RollDice(session.dice_count) });
    }
    if keys.just_pressed(KeyCode::KeyF)
        && let Some(army) = session.hovered_army
    {
        // F flips the army under the pointer, as on other virtual tables; only by hand in the
        // sandbox, since in a ruled game losses flip armies.
        let seat = session.seat().unwrap_or(crate::engine::seats::SeatId(0));
        let act = crate::engine::table::Act::Game(crate::games::botn::Action::Sandbox(
            crate::games::botn::SandboxAction::FlipArmy { army },
        ));
        requests.write(Request::Act { seat, act });
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        requests.write(Request::Undo);
    }
}

/// bevy_egui 0.42 reports the modifier keys to egui every frame; egui takes any event as a reason
/// to paint again and asks for another frame, so the window would never idle. Only a real change
/// of the modifiers is passed on.
fn drop_unchanged_modifiers(
    mut inputs: Query<&mut bevy_egui::EguiInput>,
    mut last: Local<Option<bevy_egui::egui::Modifiers>>,
) {
    for mut input in &mut inputs {
        input.0.events.retain(|e| match e {
            bevy_egui::egui::Event::ModifiersChanged(m) => {
                let changed = *last != Some(*m);
                *last = Some(*m);
                changed
            }
            _ => true,
        });
    }
}

/// In reactive mode egui sometimes finishes a change (a menu opening, a window resizing) one
/// frame after the click that caused it; a few frames after each press or release let it settle.
fn settle_after_input(
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    mut outcomes: MessageReader<Outcome>,
    mut left: Local<u8>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let input = mouse.get_just_pressed().next().is_some()
        || mouse.get_just_released().next().is_some()
        || keys.get_just_pressed().next().is_some()
        || keys.get_just_released().next().is_some();
    if input || outcomes.read().next().is_some() {
        *left = 3;
    }
    if *left > 0 {
        *left -= 1;
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// A refused request is shown to the player with its rule.
fn remember_refusals(mut outcomes: MessageReader<Outcome>, mut session: ResMut<Session>) {
    for o in outcomes.read() {
        if o.accepted {
            session.notice = None;
        } else {
            session.notice = Some(o.message.clone());
        }
    }
}
