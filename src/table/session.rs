//! What the window knows beyond the rules: who is looking, what is hovered and highlighted, the
//! last refusal, whether panels are hidden, the hot-seat hand-over and the resume offer.

use crate::engine::geometry::SpaceId;
use crate::engine::save::SaveFile;
use crate::engine::seats::{SeatId, Viewer};
use crate::games::botn::Action;
use crate::games::botn::ai::Player;
use bevy::prelude::*;
use std::path::PathBuf;

#[derive(Resource)]
pub struct Session {
    /// Whose eyes the table is drawn through.
    pub viewer: Viewer,
    /// Hot-seat: the viewer follows the active seat, with a hand-over screen between seats.
    pub hotseat: bool,
    /// Set when the active seat changed: the screen is covered until the next player clicks.
    pub handover_to: Option<SeatId>,
    pub last_active: Option<SeatId>,
    pub scenario_path: PathBuf,
    pub journal_path: PathBuf,
    /// Something to tell the player at the pointer and in the prompt (a refusal, a save).
    pub notice: Option<String>,
    pub hovered: Option<String>,
    /// The army under the pointer, for keys that act on it (F flips it in sandbox mode).
    pub hovered_army: Option<u8>,
    /// Fields lit up as legal destinations of the piece being dragged.
    pub highlight: Vec<SpaceId>,
    /// A field name clicked in the log, lit for a moment.
    pub focus: Option<SpaceId>,
    pub panels_hidden: bool,
    pub show_help: bool,
    pub dice_count: u8,
    pub save_path: String,
    /// A journal found at start: offered for resuming.
    pub resume_offer: Option<SaveFile<Action>>,
    /// Screenshot mode: the file, and frames to wait before taking it.
    pub screenshot: Option<(PathBuf, u32)>,
    /// The seats the computer plays, and how well (both: the computer plays itself, to watch).
    pub computers: [Option<Player>; 2],
    /// Seconds between two computer moves.
    pub pace: f32,
    /// The log index of the last fight whose result window was closed.
    pub fight_closed: Option<usize>,
}

impl Session {
    pub fn new(scenario_path: PathBuf, journal_path: PathBuf) -> Self {
        Self {
            viewer: Viewer::Seat(SeatId(0)),
            hotseat: true,
            handover_to: None,
            last_active: None,
            scenario_path,
            journal_path,
            notice: None,
            hovered: None,
            hovered_army: None,
            highlight: Vec::new(),
            focus: None,
            panels_hidden: false,
            show_help: false,
            dice_count: 2,
            save_path: "grognard-save.ron".to_string(),
            resume_offer: None,
            screenshot: None,
            computers: [None, None],
            pace: 0.7,
            fight_closed: None,
        }
    }

    /// The computer takes these seats; a person at the other seat keeps the view there, so no
    /// hand-over screen is needed; with both seats taken the view is the spectator's.
    pub fn set_computers(&mut self, computers: [Option<Player>; 2]) {
        self.computers = computers;
        self.handover_to = None;
        match computers {
            [None, None] => self.hotseat = true,
            [Some(_), Some(_)] => {
                self.hotseat = false;
                self.viewer = Viewer::Spectator;
            }
            [a, _] => {
                self.hotseat = false;
                self.viewer = Viewer::Seat(SeatId(if a.is_some() { 1 } else { 0 }));
            }
        }
    }

    /// The computer's level at `seat`, if it plays there.
    pub fn computer_at(&self, seat: SeatId) -> Option<Player> {
        self.computers.get(seat.0 as usize).copied().flatten()
    }

    /// The seat of the person at the controls (a spectator controls nothing).
    pub fn seat(&self) -> Option<SeatId> {
        match self.viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }
}
