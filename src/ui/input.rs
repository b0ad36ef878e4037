//! What the window's input systems share with the panels: whether the keyboard is the table's,
//! a button held however briefly within a frame, and the set a game's own panels go in. A leaf:
//! the camera, the start screen and the games read it without reaching the panels.

use bevy::prelude::*;

/// The shared panels draw first in the egui pass; a game's own panels go in this set, after them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GamePanels;

/// Whether a text field or another widget holds the keyboard: the table's shortcut keys then stay
/// silent, so typing a file name never hides the panels or rolls the dice. Written at the end of
/// each egui pass from egui's focus, which lasts as long as the field is being typed in.
#[derive(Resource, Default)]
pub struct KeyboardTaken(pub bool);

/// Whether any of `buttons` is held in this frame, or was, however briefly: on a software
/// renderer a frame lasts a second, and a chord's modifier (Ctrl of Ctrl+Z) or a right-drag can be
/// pressed and let go between two frames, where `pressed` alone never sees it.
pub fn held_this_frame<T: Copy + Eq + std::hash::Hash + Send + Sync + 'static>(
    input: &ButtonInput<T>,
    buttons: impl IntoIterator<Item = T> + Clone,
) -> bool {
    input.any_pressed(buttons.clone()) || input.any_just_pressed(buttons.clone()) || input.any_just_released(buttons)
}

/// Ctrl, held in this frame or pressed and let go within it.
pub fn ctrl_held(keys: &ButtonInput<KeyCode>) -> bool {
    held_this_frame(keys, [KeyCode::ControlLeft, KeyCode::ControlRight])
}

/// Run condition: the keyboard belongs to the table.
pub fn keyboard_free(taken: Res<KeyboardTaken>, wants: Res<bevy_egui::input::EguiWantsInput>) -> bool {
    !taken.0 && !wants.wants_any_keyboard_input()
}
