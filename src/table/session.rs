//! What the window knows beyond the rules: who is looking, what is hovered and lit, the last
//! refusal, whether panels are hidden, the hot-seat hand-over and the computer's seats. The same
//! for every game.

use crate::engine::geometry::SpaceId;
use crate::engine::seats::{SeatId, Viewer};
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
    pub journal_path: PathBuf,
    /// An unfinished game was found in the journal: offered for resuming before anything else.
    pub resume_offer: bool,
    /// Something to tell the player at the pointer and in the prompt (a refusal, a save).
    pub notice: Option<String>,
    pub hovered: Option<String>,
    /// Spaces lit up (the legal destinations of a dragged piece, a fight's armies).
    pub highlight: Vec<SpaceId>,
    /// A space whose name was clicked in the log, lit for a moment.
    pub focus: Option<SpaceId>,
    pub panels_hidden: bool,
    pub show_help: bool,
    pub dice_count: u8,
    pub save_path: String,
    /// Screenshot mode: the file, and frames to wait before taking it.
    pub screenshot: Option<(PathBuf, u32)>,
    /// The computer's strength at each seat (an index into the game's levels), None for a person.
    pub computers: Vec<Option<usize>>,
    /// Seconds between two computer moves.
    pub pace: f32,
}

impl Session {
    pub fn new(seats: usize, journal_path: PathBuf) -> Self {
        Self {
            viewer: Viewer::Seat(SeatId(0)),
            hotseat: true,
            handover_to: None,
            last_active: None,
            journal_path,
            resume_offer: false,
            notice: None,
            hovered: None,
            highlight: Vec::new(),
            focus: None,
            panels_hidden: false,
            show_help: false,
            dice_count: 2,
            save_path: "grognard-save.ron".to_string(),
            screenshot: None,
            computers: vec![None; seats],
            pace: 0.7,
        }
    }

    /// The computer takes these seats; a person at a seat left keeps the view there, so no
    /// hand-over screen is needed; with every seat taken the view is the spectator's.
    pub fn set_computers(&mut self, computers: Vec<Option<usize>>) {
        self.handover_to = None;
        let people: Vec<usize> = (0..computers.len()).filter(|&s| computers[s].is_none()).collect();
        self.computers = computers;
        match people.as_slice() {
            [] => {
                self.hotseat = false;
                self.viewer = Viewer::Spectator;
            }
            [one] => {
                self.hotseat = false;
                self.viewer = Viewer::Seat(SeatId(*one as u8));
            }
            _ => self.hotseat = true,
        }
    }

    /// The computer's level at `seat`, if it plays there.
    pub fn computer_at(&self, seat: SeatId) -> Option<usize> {
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
