//! Leipzig 1813 in the window (gui build): the printed hex map, the counters, the lit hexes and
//! this game's panels (turn track and victory points, combat with its odds, the CRT, the charts'
//! sources), plus what the shared table asks of a game (`TableGame`). Counters are read through
//! the viewer's eyes: a French seat or a spectator sees hidden Allied counters as blanks.

pub mod board;
pub mod counters;
pub mod geometry;
pub mod labels;
pub mod lesson;
pub mod panels;

use super::actions::Action;
use super::ai::LzPlayer;
use super::data;
use super::plugin::{LzPhase, LzPlugin};
use super::state::Leipzig;
use crate::engine::plugin::TableSet;
use crate::engine::rng::TableRng;
use crate::engine::rules::Game;
use crate::engine::seats::{SeatId, Viewer};
use crate::table::camera::{HomeView, OrbitCamera};
use crate::table::printed::Prints;
use crate::table::{NewGame, Started, TableGame};
use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

impl TableGame for Leipzig {
    const LEVELS: &'static [&'static str] = &["beginner", "normal", "strong", "expert"];
    const FREE_COMPUTER_SEATS: bool = true;
    const DIGIT_ORDERS: bool = false;
    const HELP: &'static str = "Drag a counter: the hexes it may reach light up with their cost (cyan: its allowance; amber and red: a forced march, doubled or tripled)\n\
Rest the pointer on a stack: it spreads out and lists every counter · Z: zones of control · C: the Combat Results Table\n\
Combat Phase: click an Enemy hex to plan an attack in the Combat panel (odds, modifiers and column before the die)\n\
Retreats and scatters: click a lit green hex · Right-drag: orbit · Middle-drag or WASD/arrows: pan · Wheel: zoom\n\
Ctrl+Z: undo (back to the last roll or hand-over) · H or F11: hide every panel · F12: screenshot · F1: this help";

    const HINTS: bool = true;

    fn hint(&self, seat: SeatId, rng: &mut TableRng) -> Vec<crate::engine::search::Estimate<Action>> {
        let view = self.observe(Viewer::Seat(seat));
        let budget = LzPlayer::Strong.budget().expect("strong searches");
        crate::engine::search::hint::<Leipzig>(&view, seat, &budget, rng)
    }

    fn places_of(&self, action: &Action) -> Vec<crate::engine::geometry::SpaceId> {
        use crate::engine::geometry::SpaceId;
        // The counter's hex and where it goes; an attack's hexes; where a group enters or retreats.
        let hexes: Vec<super::data::Hex> = match action {
            Action::Move { unit, to, .. } => self.hex_of(*unit).into_iter().chain([*to]).collect(),
            Action::Declare { from, target, .. } => vec![*from, *target],
            Action::Enter { hex, .. } => vec![*hex],
            Action::Retreat { to } => vec![*to],
            _ => Vec::new(),
        };
        hexes.into_iter().map(|h| SpaceId(h.0)).collect()
    }

    fn chance(&self, viewer: Viewer, rng: &mut TableRng) -> Option<f32> {
        Some(crate::engine::search::shown_estimate::<Leipzig>(&self.observe(viewer), SeatId(0), 8, rng))
    }

    fn computer_choice(&self, seat: SeatId, legal: &[Action], level: usize, rng: &mut TableRng) -> Action {
        let player = [LzPlayer::Beginner, LzPlayer::Normal, LzPlayer::Strong, LzPlayer::Expert]
            .get(level)
            .copied()
            .unwrap_or(LzPlayer::Beginner);
        crate::engine::kit::Kit::choose(self, seat, legal, player, rng)
    }

    fn pause_factor(&self) -> f32 {
        // Moves are many and small: the computer marches at a brisker pace than it fights.
        if matches!(self.step, super::state::Step::Move) { 0.3 } else { 1.0 }
    }

    fn action_label(&self, action: &Action) -> String {
        Leipzig::action_label(self, action)
    }

    fn lesson(&self, seat: SeatId, legal: &[Action]) -> crate::table::lesson::Coach<Action> {
        lesson::coach(self, seat, legal)
    }

    fn space_on_table(&self, space: crate::engine::geometry::SpaceId) -> Option<(Vec3, f32)> {
        let geo = geometry::MapGeometry::of(&self.sc.board);
        ((space.0 as usize) < geo.columns * geo.rows)
            .then(|| (geo.world(super::data::Hex(space.0)), geometry::RADIUS * 0.95))
    }

    fn in_orders(&self, action: &Action) -> bool {
        !action.on_map()
    }

    fn prompt(&self) -> String {
        Leipzig::prompt(self)
    }

    fn status(&self) -> String {
        Leipzig::status(self)
    }

    fn standing(&self) -> crate::engine::standing::Standing {
        Leipzig::standing(self)
    }

    fn new_games(_game: &Leipzig) -> Vec<NewGame> {
        scenario_files()
            .into_iter()
            .enumerate()
            .map(|(choice, (_, label))| NewGame { label: format!("New: {label}"), choice })
            .collect()
    }

    fn start(
        _game: &Leipzig,
        choice: usize,
        seed: u64,
        _computers: &[Option<usize>],
        _level: usize,
    ) -> Result<Started<Leipzig>, String> {
        let files = scenario_files();
        let (path, _) = files.get(choice).ok_or("no such scenario")?;
        let t = super::new_table(path, seed).map_err(|e| e.to_string())?;
        Ok(Started { table: t, computers: None })
    }

    fn add_view(app: &mut App) {
        app.add_plugins(LzPlugin)
            .add_plugins(panels::CombatScope)
            .insert_resource(HomeView {
                view: OrbitCamera { focus: Vec3::new(0.0, 0.0, 0.6), distance: 27.0, yaw: 0.0, pitch: 1.35 },
                digit_views: true,
            })
            .init_resource::<Prints>()
            .init_resource::<geometry::Lights>()
            .init_resource::<counters::HoveredHex>()
            .add_systems(Startup, (board::setup_map, counters::setup_counters))
            .add_systems(
                Update,
                (
                    counters::dress_counters,
                    counters::keep_spread,
                    counters::place_counters,
                    counters::retreat_lights.run_if(in_state(LzPhase::Combat)),
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
                    panels::combat_window.run_if(in_state(LzPhase::Combat)),
                    panels::crt_window,
                    panels::data_window,
                    labels::labels,
                    panels::cost_labels,
                    panels::final_score.run_if(in_state(LzPhase::GameOver)),
                )
                    .chain()
                    .in_set(crate::ui::GamePanels),
            );
    }
}

/// The eight scenarios in the game's folder, by their number, with their names.
pub fn scenario_files() -> Vec<(std::path::PathBuf, String)> {
    let dir = crate::engine::scenario::scenarios_root().join(data::GAME_ID);
    let mut out: Vec<(std::path::PathBuf, String)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().is_some_and(|n| n.to_string_lossy().chars().next().is_some_and(|c| c.is_ascii_digit()))
        })
        .filter_map(|p| super::LzScenario::load(&p).ok().map(|sc| (p, sc.name)))
        .collect();
    out.sort();
    out
}
