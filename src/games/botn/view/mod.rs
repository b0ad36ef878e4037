//! Battle of the Nations in the window (gui build): the board, its pieces and cards, their labels,
//! the fight and score windows and this game's panels, plus what the shared table asks of a game
//! (`TableGame`): labels, prompt, log lines, computer players and new games.

pub mod board;
pub mod labels;
pub mod lesson;
pub mod panels;
pub mod pieces;
pub mod prints;
pub mod score;

use super::ai::{self, Player};
use super::plugin::BotnPlugin;
use super::state::Step;
use super::text::{self};
use super::{Action, Botn, SandboxAction};
use crate::engine::rng::TableRng;
use crate::engine::rules::{Game, Mode};
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::standing::{Score, Standing};
use crate::engine::table::Act;
use crate::table::{NewGame, Started, TableGame};
use bevy::prelude::*;

impl TableGame for Botn {
    const LEVELS: &'static [&'static str] = &["beginner", "normal", "strong", "expert"];
    const FREE_COMPUTER_SEATS: bool = true;
    const DIGIT_ORDERS: bool = false;
    const HELP: &'static str = "Right-drag: orbit · Middle-drag or WASD/arrows: pan · Wheel: zoom · Space: reset view\n\
Ctrl+1..4: store a view · 1..4: recall it · Drag a troop marker: its legal fields light up\n\
R: roll the dice in the tray · Ctrl+Z: undo (back to the last roll, draw, reveal or hand-over)\n\
F: flip the army under the pointer (sandbox) · Alt: a large preview of what is under the pointer\n\
H or F11: hide every panel (the clean picture for streaming: a spectator's view, no hand) · F12: screenshot · F1: this help";

    const HINTS: bool = true;

    fn hint(&self, seat: SeatId, rng: &mut TableRng) -> Vec<crate::engine::search::Estimate<Action>> {
        let view = self.observe(Viewer::Seat(seat));
        crate::engine::search::hint::<Botn>(&view, seat, &ai::STRONG, rng)
    }

    fn chance(&self, viewer: Viewer, rng: &mut TableRng) -> Option<f32> {
        Some(crate::engine::search::shown_estimate::<Botn>(&self.observe(viewer), SeatId(0), 8, rng))
    }

    fn computer_choice(&self, seat: SeatId, legal: &[Action], level: usize, rng: &mut TableRng) -> Action {
        let player = Player::COMPUTER.get(level).copied().unwrap_or(Player::Normal);
        crate::engine::kit::Kit::choose(self, seat, legal, player, rng)
    }

    fn pause_factor(&self) -> f32 {
        // A fight's allocation or a scoring choice gets a longer look before the computer decides.
        if matches!(self.step, Step::Fight | Step::Scoring) { 4.0 } else { 1.0 }
    }

    fn action_label(&self, action: &Action) -> String {
        text::action_label(self, action)
    }

    fn lesson(&self, seat: SeatId, legal: &[Action]) -> crate::table::lesson::Coach<Action> {
        lesson::coach(self, seat, legal)
    }

    fn space_on_table(&self, space: crate::engine::geometry::SpaceId) -> Option<(Vec3, f32)> {
        ((space.0 as usize) < self.sc.fields.len())
            .then(|| (board::field_world(self, space), board::FIELD_RADIUS + 0.12))
    }

    fn places_of(&self, action: &Action) -> Vec<crate::engine::geometry::SpaceId> {
        // A marker's field and where it goes; the villages of an army card; an army's field.
        let marker = |m: &u8| self.markers.get(*m as usize).and_then(|m| m.at);
        let army = |a: &u8| self.armies.get(*a as usize).and_then(|a| a.at);
        match action {
            Action::KeepMission(m) => self.sc.missions.get(*m as usize).map(|m| m.field).into_iter().collect(),
            Action::LayOutArmyCard { army, skip } => {
                self.sc.armies[*army as usize].villages.iter().copied().filter(|v| !skip.contains(v)).collect()
            }
            Action::PlayTerrainCard { marker: m, .. } | Action::PlayScoutCard { marker: m } => {
                marker(m).into_iter().collect()
            }
            Action::PlayMovementCard { marker: m, to, .. } | Action::JumpOverArmy { marker: m, to, .. } => {
                marker(m).into_iter().chain([*to]).collect()
            }
            Action::PlayWildCard { marker: m, to, .. } => marker(m).into_iter().chain(*to).collect(),
            // An army about to be placed stands where its last markers are.
            Action::PlaceArmy { army: a } => {
                self.markers.iter().filter(|m| m.army == *a && !m.removed).filter_map(|m| m.at).collect()
            }
            Action::ChooseUnit { army: a, .. } => army(a).into_iter().collect(),
            Action::AllocateHit { target, .. } => army(target).into_iter().collect(),
            Action::AssignToMission { army: a, mission_army } => {
                army(a).into_iter().chain(army(mission_army)).collect()
            }
            _ => Vec::new(),
        }
    }

    fn prompt(&self) -> String {
        text::prompt(self)
    }

    fn status(&self) -> String {
        let date = self.current_date().unwrap_or("before 14.10.");
        let score = self.standing().score.expect("always scored");
        format!("Turn {} · {} · {date} · {score}", self.turn, self.active.name())
    }

    fn standing(&self) -> Standing {
        let score = Score::two("VP", ("French", self.vp[0] as f32), ("Allied", self.vp[1] as f32));
        Standing { turn: Some(("Turn", self.turn as u32)), score: Some(score) }
    }

    fn hand_extras(ui: &mut bevy_egui::egui::Ui) -> Option<Action> {
        // The time marker and every army and marker are the kit's pieces; a blind draw is this
        // game's own (F flips the army under the pointer, and any piece may be dragged).
        ui.label(
            bevy_egui::egui::RichText::new("Drag any piece on the table; F flips the army under the pointer.").small(),
        );
        ui.button("Draw a card blind").clicked().then_some(Action::Sandbox(super::actions::SandboxAction::DrawBlind))
    }

    fn new_games(game: &Botn) -> Vec<NewGame> {
        // (Choice 2, the sandbox, is the menu's own for every game now.)
        let mut out: Vec<NewGame> = ["New beginner game", "New advanced game"]
            .iter()
            .enumerate()
            .map(|(choice, l)| NewGame { label: l.to_string(), choice })
            .collect();
        if game.is_over() && game.grey_cannon.is_none() {
            // Alternative conditions to win: the same players, roles swapped.
            let first = game.vp[super::Side::French.index()];
            out.push(NewGame { label: format!("Return game, roles swapped (grey cannon at {first})"), choice: 3 });
        }
        out
    }

    fn start(
        game: &Botn,
        choice: usize,
        seed: u64,
        computers: &[Option<usize>],
        _level: usize,
    ) -> Result<Started<Botn>, String> {
        let here = &game.sc.path;
        let (file, mode) = match choice {
            0 => (here.with_file_name("beginner.ron"), Mode::Enforced),
            1 => (here.with_file_name("advanced.ron"), Mode::Enforced),
            _ => (here.clone(), Mode::Enforced),
        };
        let mut t = super::new_table(&file, seed, mode).map_err(|e| e.to_string())?;
        if choice != 3 {
            return Ok(Started { table: t, computers: None });
        }
        let french_points = game.vp[super::Side::French.index()];
        t.submit(SeatId(0), Act::Game(Action::SetGreyCannon { french_points }))
            .map_err(|e| format!("Return game: {e}"))?;
        let swapped = computers.iter().rev().copied().collect();
        Ok(Started { table: t, computers: Some(swapped) })
    }

    fn add_view(app: &mut App) {
        app.add_plugins(BotnPlugin).add_plugins(BotnViewPlugin);
    }
}

/// This game's presentation.
pub struct BotnViewPlugin;

impl Plugin for BotnViewPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<pieces::HoveredArmy>()
            .add_plugins((board::BoardPlugin, pieces::PiecesPlugin, score::ScorePlugin))
            .add_systems(
                bevy_egui::EguiPrimaryContextPass,
                (labels::labels, panels::panels).chain().in_set(crate::ui::GamePanels),
            )
            .add_systems(Update, flip_key.run_if(crate::ui::keyboard_free));
    }
}

/// F flips the army under the pointer, as on other virtual tables; only by hand in the sandbox,
/// since in a ruled game losses flip armies.
fn flip_key(
    keys: Res<ButtonInput<KeyCode>>,
    hovered: Res<pieces::HoveredArmy>,
    session: Res<crate::table::session::Session>,
    mut requests: MessageWriter<crate::engine::plugin::Request<Botn>>,
) {
    if keys.just_pressed(KeyCode::KeyF)
        && let Some(army) = hovered.0
    {
        let seat = session.seat().unwrap_or(SeatId(0));
        let act = Act::Game(Action::Sandbox(SandboxAction::FlipArmy { army }));
        requests.write(crate::engine::plugin::Request::Act { seat, act });
    }
}
