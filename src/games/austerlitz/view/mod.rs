//! Austerlitz in the window (gui build): the printed board of squares and octagons, the counters
//! with their facing and markers, the lit spaces, and this game's panels (turn track, combat with
//! every modifier, the tables), plus what the shared table asks of a game (`TableGame`).

pub mod board;
pub mod counters;
pub mod geometry;
pub mod lesson;
pub mod panels;

use super::actions::Action;
use super::ai::AzPlayer;
use super::data;
use super::plugin::{AzPhase, AzPlugin};
use super::state::Austerlitz;
use crate::engine::plugin::TableSet;
use crate::engine::rng::TableRng;
use crate::engine::rules::Game;
use crate::engine::seats::{SeatId, Viewer};
use crate::table::camera::{HomeView, OrbitCamera};
use crate::table::printed::Prints;
use crate::table::{NewGame, Started, TableGame};
use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

impl TableGame for Austerlitz {
    const LEVELS: &'static [&'static str] = &["beginner", "normal", "strong", "expert"];
    const FREE_COMPUTER_SEATS: bool = true;
    const DIGIT_ORDERS: bool = false;
    const HELP: &'static str = "Drag a unit: the spaces it may reach light up with their cost (cyan: it may face the way it is turned in your hand; amber: only another way) · Q / E while holding: turn it 45° · F while holding: form or leave a square\n\
Drop it on its own space turned another way: it turns in place · Set-up: drag units from the trays onto your sectors\n\
Click a gun: its field of fire lights up (red: targets, yellow: in sight, grey: blocked, with what blocks) · click a red space to fire\n\
Click an enemy next to your units: the Combat panel lists each attack with every modifier and the CRT row · T: the tables\n\
Retreats, reactions and the ends of steps: the Orders list · Right-drag: orbit · Middle-drag or WASD/arrows: pan · Wheel: zoom\n\
Ctrl+Z: undo (back to the last roll or hand-over) · H or F11: hide every panel · F12: screenshot · F1: this help";

    const HINTS: bool = true;

    fn hint(&self, seat: SeatId, rng: &mut TableRng) -> Vec<crate::engine::search::Estimate<Action>> {
        let view = self.observe(Viewer::Seat(seat));
        let budget = AzPlayer::Strong.budget().expect("strong searches");
        crate::engine::search::hint::<Austerlitz>(&view, seat, &budget, rng)
    }

    fn places_of(&self, action: &Action) -> Vec<crate::engine::geometry::SpaceId> {
        use crate::engine::geometry::SpaceId;
        // The unit's space and where it goes; what a gun or an attack strikes.
        let at = |u: &u8| self.units.get(*u as usize).and_then(|u| u.at);
        let cells: Vec<super::data::Cell> = match action {
            Action::Move { unit, to, .. } => at(unit).into_iter().chain([*to]).collect(),
            Action::Fire { gun, target, .. } => at(gun).into_iter().chain([*target]).collect(),
            Action::Attack { target, .. } => vec![*target],
            Action::Square { unit } => at(unit).into_iter().collect(),
            _ => Vec::new(),
        };
        cells.into_iter().map(|c| SpaceId(self.sc.board.index(c) as u16)).collect()
    }

    fn chance(&self, viewer: Viewer, rng: &mut TableRng) -> Option<f32> {
        Some(crate::engine::search::shown_estimate::<Austerlitz>(&self.observe(viewer), SeatId(0), 8, rng))
    }

    fn computer_choice(&self, seat: SeatId, legal: &[Action], level: usize, rng: &mut TableRng) -> Action {
        let player = [AzPlayer::Beginner, AzPlayer::Normal, AzPlayer::Strong, AzPlayer::Expert]
            .get(level)
            .copied()
            .unwrap_or(AzPlayer::Beginner);
        crate::engine::kit::Kit::choose(self, seat, legal, player, rng)
    }

    fn pause_factor(&self) -> f32 {
        if matches!(self.step, super::state::Step::Move | super::state::Step::Setup) { 0.4 } else { 1.0 }
    }

    fn action_label(&self, action: &Action) -> String {
        Austerlitz::action_label(self, action)
    }

    fn lesson(&self, seat: SeatId, legal: &[Action]) -> crate::table::lesson::Coach<Action> {
        lesson::coach(self, seat, legal)
    }

    fn space_on_table(&self, space: crate::engine::geometry::SpaceId) -> Option<(Vec3, f32)> {
        let b = &self.sc.board;
        let cell = b.cell_of(space.0 as usize);
        b.contains(cell).then(|| (geometry::BoardGeometry::of(b).world(cell), geometry::PITCH * 0.48))
    }

    fn in_orders(&self, action: &Action) -> bool {
        !matches!(
            action,
            Action::Move { .. }
                | Action::Deploy { .. }
                | Action::PlaceCommand { .. }
                | Action::MoveCommand { .. }
                | Action::Square { .. }
        )
    }

    fn prompt(&self) -> String {
        Austerlitz::prompt(self)
    }

    fn status(&self) -> String {
        Austerlitz::status(self)
    }

    fn standing(&self) -> crate::engine::standing::Standing {
        Austerlitz::standing(self)
    }

    fn new_games(_game: &Austerlitz) -> Vec<NewGame> {
        scenario_files()
            .into_iter()
            .enumerate()
            .map(|(choice, (_, label))| NewGame { label: format!("New: {label}"), choice })
            .collect()
    }

    fn start(
        _game: &Austerlitz,
        choice: usize,
        seed: u64,
        _computers: &[Option<usize>],
        _level: usize,
    ) -> Result<Started<Austerlitz>, String> {
        let files = scenario_files();
        let (path, _) = files.get(choice).ok_or("no such scenario")?;
        let t = super::new_table(path, seed).map_err(|e| e.to_string())?;
        Ok(Started { table: t, computers: None })
    }

    fn add_view(app: &mut App) {
        app.add_plugins(AzPlugin)
            .add_plugins(panels::MoveScope)
            .insert_resource(HomeView {
                view: OrbitCamera { focus: Vec3::new(0.0, 0.0, 0.5), distance: 16.5, yaw: 0.0, pitch: 1.2 },
                digit_views: true,
            })
            .init_resource::<Prints>()
            .init_resource::<geometry::Lights>()
            .init_resource::<counters::Hand>()
            .add_systems(Startup, (board::setup_board, counters::setup_pieces))
            .add_systems(
                Update,
                (
                    counters::dress_pieces,
                    counters::place_pieces,
                    counters::turn_in_hand,
                    counters::fire_lights,
                    board::draw_lights,
                    panels::keys,
                )
                    .chain()
                    .in_set(TableSet::Present)
                    .before(crate::table::glide::PlaceSet),
            )
            .add_systems(
                EguiPrimaryContextPass,
                (
                    panels::track,
                    panels::combat_window.run_if(in_state(AzPhase::Move)),
                    panels::tables_window,
                    panels::cell_labels,
                    panels::final_score.run_if(in_state(AzPhase::GameOver)),
                )
                    .chain()
                    .in_set(crate::ui::GamePanels),
            );
    }
}

/// The scenarios in the game's folder, by their number, with their names.
pub fn scenario_files() -> Vec<(std::path::PathBuf, String)> {
    let dir = crate::engine::scenario::scenarios_root().join(data::GAME_ID);
    let mut out: Vec<(std::path::PathBuf, String)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().is_some_and(|n| n.to_string_lossy().chars().next().is_some_and(|c| c.is_ascii_digit()))
        })
        .filter_map(|p| super::AzScenario::load(&p).ok().map(|sc| (p, sc.name)))
        .collect();
    out.sort();
    out
}
