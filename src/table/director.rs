//! The broadcast window's director: how it chooses the view (`--director`) and where its camera
//! is going. Its systems are the broadcast's; the dice read whether it frames the tray.

use super::camera::OrbitCamera;
use crate::engine::seats::SeatId;
use bevy::prelude::*;

/// A framing of the table: where the camera looks and from how far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot {
    pub focus: Vec3,
    pub distance: f32,
}

/// How the director chooses the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirectorMode {
    /// Frames what each action touched, back to the overview between turns.
    Auto,
    /// Frames only the actions of one seat.
    Follow(SeatId),
    /// Leaves the camera to the streamer's stored views (Ctrl+1..4 stores, 1..4 recalls).
    Fixed,
}

impl DirectorMode {
    /// `auto`, `fixed`, or `follow:SEAT` by a seat's name (or a word of it).
    pub fn parse(s: &str, seats: &[&str]) -> Result<DirectorMode, String> {
        match s {
            "auto" => Ok(DirectorMode::Auto),
            "fixed" => Ok(DirectorMode::Fixed),
            _ => {
                let name =
                    s.strip_prefix("follow:").ok_or_else(|| format!("--director {s}: auto, fixed or follow:SEAT"))?;
                let n = name.to_lowercase();
                let fits: Vec<usize> = (0..seats.len()).filter(|&k| seats[k].to_lowercase().contains(&n)).collect();
                match fits.as_slice() {
                    [k] => Ok(DirectorMode::Follow(SeatId(*k as u8))),
                    _ => Err(format!("--director {s}: expected follow: and one of {}", seats.join(", "))),
                }
            }
        }
    }
}

/// The director camera's state.
#[derive(Resource)]
pub struct Director {
    pub mode: DirectorMode,
    /// Where the camera is going, if anywhere.
    pub goal: Option<OrbitCamera>,
    /// The last action's framing (for the checks), and every framing so far.
    pub shots: Vec<Shot>,
    /// When the last shot was taken (seconds of the app's clock).
    pub shot_at: f32,
    /// The turn passed: back to the overview once the last shot has been seen.
    pub(super) overview_due: bool,
    pub(super) last_active: Option<SeatId>,
    /// A roll is being acted out and the tray is framed: the result follows once the dice rest.
    pub(super) tray: bool,
}

impl Director {
    pub fn new(mode: DirectorMode) -> Director {
        Director {
            mode,
            goal: None,
            shots: Vec::new(),
            shot_at: 0.0,
            overview_due: false,
            last_active: None,
            tray: false,
        }
    }
}
