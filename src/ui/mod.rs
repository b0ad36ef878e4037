//! egui overlays every game shares: the menu (new game, computer seats, save, load, resume, view),
//! the orders panel with the legal actions as buttons, the log with linked names, the dice, the
//! notices, the hot-seat hand-over screen, the help, the sandbox's pieces by hand, and the hotkeys. H or F11 hides all panels
//! for a clean picture; F1 shows the controls. A game's own panels live in its `view` folder.

pub mod hand;
pub mod input;
pub mod panels;

use crate::engine::plugin::{Outcome, Request};
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::table::Act;
use crate::table::TableGame;
use crate::table::session::Session;
use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use std::marker::PhantomData;

pub use input::{GamePanels, KeyboardTaken, ctrl_held, held_this_frame, keyboard_free};
pub use panels::viewers;

/// The shared panels and hotkeys for game `G`.
pub struct UiPlugin<G>(PhantomData<G>);

impl<G> Default for UiPlugin<G> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

fn note_keyboard(mut contexts: bevy_egui::EguiContexts, mut taken: ResMut<KeyboardTaken>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let now = ctx.egui_wants_keyboard_input() || ctx.memory(|m| m.focused().is_some());
    if taken.0 != now {
        taken.0 = now;
    }
    Ok(())
}

impl<G: TableGame> Plugin for UiPlugin<G> {
    fn build(&self, app: &mut App) {
        app.init_resource::<KeyboardTaken>()
            .init_resource::<crate::table::session::JoinForm>()
            .init_resource::<crate::table::session::Preferences>()
            .add_systems(EguiPrimaryContextPass, note_keyboard.after(GamePanels))
            .add_systems(EguiPrimaryContextPass, panels::panels::<G>.before(GamePanels))
            .add_systems(EguiPrimaryContextPass, hand::hand_panel::<G>.after(panels::panels::<G>).before(GamePanels))
            .add_systems(
                PreUpdate,
                drop_unchanged_modifiers
                    .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
                    .before(bevy_egui::EguiPreUpdateSet::BeginPass),
            )
            .add_systems(Update, (hotkeys::<G>.run_if(keyboard_free), settle_after_input))
            // After the rules: the frame that draws the table an order changed has its answer too,
            // and no longer says the order is on its way.
            .add_systems(Update, remember_refusals.after(crate::engine::plugin::TableSet::Apply));
        if G::DIGIT_ORDERS {
            app.add_systems(Update, number_keys::<G>.run_if(keyboard_free));
        }
    }
}

fn hotkeys<G: TableGame>(
    keys: Res<ButtonInput<KeyCode>>,
    mut notice: ResMut<crate::table::session::Notice>,
    mut session: ResMut<Session>,
    mut prefs: ResMut<crate::table::session::Preferences>,
    mut requests: MessageWriter<Request<G>>,
    mut commands: Commands,
    mut shots: Local<u32>,
) {
    if keys.just_pressed(KeyCode::F12) {
        // A screenshot of the window, numbered, in the screenshots folder beside the journal (never
        // the working directory, which may be anywhere).
        use bevy::render::view::screenshot::{Screenshot, save_to_disk};
        let dir = session.journal_path.with_file_name("screenshots");
        let stamp =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        *shots += 1;
        let path = dir.join(format!("grognard-{stamp}-{:03}.png", *shots));
        match std::fs::create_dir_all(&dir) {
            Ok(()) => {
                notice.inform(format!("Screenshot saved to {}", path.display()));
                commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
            }
            Err(e) => notice.refuse(format!("Could not make {}: {e}", dir.display())),
        }
    }
    if keys.any_just_pressed([KeyCode::KeyH, KeyCode::F11]) {
        session.panels_hidden = !session.panels_hidden;
    }
    if keys.just_pressed(KeyCode::F1) || keys.just_pressed(KeyCode::Slash) {
        prefs.show_help = !prefs.show_help;
    }
    if keys.just_pressed(KeyCode::KeyR) && session.handover_to.is_none() {
        let seat = session.seat().unwrap_or(SeatId(0));
        requests.write(Request::Act { seat, act: Act::RollDice(prefs.dice_count) });
    }
    if ctrl_held(&keys) && keys.just_pressed(KeyCode::KeyZ) {
        requests.write(Request::Undo);
    }
}

/// Keys 1 to 9 take the first nine orders listed, for play from the keyboard (in games whose
/// camera leaves the digits free).
fn number_keys<G: TableGame>(
    keys: Res<ButtonInput<KeyCode>>,
    session: Res<Session>,
    memory: Res<crate::table::session::PanelMemory>,
    seen: Res<crate::engine::seen::Seen<G>>,
    mut requests: MessageWriter<Request<G>>,
) {
    const DIGITS: [KeyCode; 9] = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    let Some(i) = DIGITS.iter().position(|k| keys.just_pressed(*k)) else { return };
    if ctrl_held(&keys) {
        return;
    }
    let Some(game) = seen.game() else { return };
    let Some(seat) = game.active_seat() else { return };
    if session.viewer != Viewer::Seat(seat)
        || session.computer_at(seat).is_some()
        || session.handover_to.is_some()
        || game.orders_elsewhere().is_some()
    {
        return;
    }
    // The key the orders panel shows for each order (kept while its list is open).
    let key = i as u8 + 1;
    let Some((label, _)) = memory.order_keys.iter().find(|(_, k)| *k == key) else { return };
    if let Some(a) = seen.legal.iter().find(|a| game.action_label(a) == *label).cloned() {
        requests.write(Request::Act { seat, act: Act::Game(a) });
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
fn remember_refusals(
    mut outcomes: MessageReader<Outcome>,
    mut notice: ResMut<crate::table::session::Notice>,
    mut memory: ResMut<crate::table::session::PanelMemory>,
) {
    for o in outcomes.read() {
        // The order on its way has its answer: the list takes the next.
        memory.order_sent = None;
        if o.accepted && o.message.is_empty() {
            notice.clear();
        } else if o.accepted {
            // Done, with a word for the player (a save written).
            notice.inform(o.message.clone());
        } else {
            notice.refuse(o.message.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chord_pressed_and_let_go_between_two_frames_is_still_a_chord() {
        // Ctrl down, Z down, Z up, Ctrl up, all before the frame reads the keys.
        let mut keys = ButtonInput::<KeyCode>::default();
        keys.press(KeyCode::ControlLeft);
        keys.press(KeyCode::KeyZ);
        keys.release(KeyCode::KeyZ);
        keys.release(KeyCode::ControlLeft);
        assert!(!keys.pressed(KeyCode::ControlLeft), "what the window read before");
        assert!(ctrl_held(&keys) && keys.just_pressed(KeyCode::KeyZ));
        // The next frame, nothing is held any more.
        keys.clear();
        assert!(!ctrl_held(&keys));
        // A right-drag within one frame.
        let mut mouse = ButtonInput::<MouseButton>::default();
        mouse.press(MouseButton::Right);
        mouse.release(MouseButton::Right);
        assert!(held_this_frame(&mouse, [MouseButton::Right]));
    }
}
