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
    /// The clean picture (H): no panels, and the table through a spectator's eyes, so a picture
    /// made for a stream shows no hand and no secret mission...
    pub panels_hidden: bool,
    /// ...unless the player asks for their own hand in it (View menu).
    pub hand_in_clean_picture: bool,
    pub save_path: String,
    /// The computer's strength at each seat (an index into the game's levels), None for a person.
    pub computers: Vec<Option<usize>>,
    /// The level the Game menu holds for the computer of a new game where the game sets its
    /// computer's seat itself (an index into the game's levels; None: `normal`).
    pub new_level: Option<usize>,
    /// Seconds between two computer moves.
    pub pace: f32,
    /// The View menu offers the spectator's eyes only (the replay of an unfinished game).
    pub spectator_only: bool,
    /// Learn to play: the learner's seat, while the lesson lasts.
    pub lesson: Option<SeatId>,
}

/// Something to tell the player at the pointer and in the prompt: a refusal with its rule, or news
/// (a save written). Any system may say it without holding the `Session`.
#[derive(Resource, Default, Debug)]
pub struct Notice {
    pub text: Option<String>,
    /// Whether it is news rather than a refusal (shown in green, not red).
    pub news: bool,
}

impl Notice {
    /// Tells the player something that went wrong (a refusal, a file not written): shown in red.
    pub fn refuse(&mut self, text: impl Into<String>) {
        self.text = Some(text.into());
        self.news = false;
    }

    /// Tells the player news (a save written, a screenshot taken).
    pub fn inform(&mut self, text: impl Into<String>) {
        self.text = Some(text.into());
        self.news = true;
    }

    /// Nothing to tell any more (an order taken, a new game).
    pub fn clear(&mut self) {
        self.text = None;
    }

    /// The colour a panel writes the notice in: green for news, red for a refusal.
    pub fn colour(&self) -> bevy_egui::egui::Color32 {
        if self.news {
            bevy_egui::egui::Color32::from_rgb(90, 180, 110)
        } else {
            bevy_egui::egui::Color32::from_rgb(200, 60, 50)
        }
    }
}

/// What the pointer and the table's lights show: kept apart from the `Session`, so that a piece
/// hovered changes this alone and the systems that follow the session (the eyes, the lights of a
/// hand-over) are not woken by every movement of the mouse.
#[derive(Resource, Default)]
pub struct Pointing {
    /// What is under the pointer, in words (a tip beside it; Alt shows it large).
    pub hovered: Option<String>,
    /// Spaces lit up (the legal destinations of a dragged piece, a fight's armies).
    pub highlight: Vec<SpaceId>,
    /// A space whose name was clicked in the log, lit for a moment.
    pub focus: Option<SpaceId>,
}

/// What the panels keep from one frame to the next: the frames counted (every frame, which is why
/// it is not the `Session`: the systems that follow the session would wake in every frame), the
/// Orders list as it was on screen, the digit keys of its orders, the order on its way, and how
/// long the log was.
#[derive(Resource, Default)]
pub struct PanelMemory {
    /// The panels' frames, counted, and the frame of the last press of a mouse button.
    pub frame: u64,
    pub press_frame: u64,
    /// The Orders list as drawn: a digest of its buttons, the frame it was first drawn in, and the
    /// last frame it was drawn in.
    pub orders_since: (u64, u64, u64),
    /// An order sent from the panels and not answered yet: its words and when it left (seconds).
    pub order_sent: Option<(String, f32)>,
    /// The digit key of each listed order (by its label), kept while its list is open.
    pub order_keys: Vec<(String, u8)>,
    /// The log's length when last shown, so the log follows its newest line.
    pub log_seen: usize,
}

/// Why a click on the Orders list ordered nothing, for the player.
pub const CLICK_BEFORE_LIST: &str =
    "The list changed before your click reached it: nothing was ordered. Look, and click again.";

impl PanelMemory {
    /// Takes a click on the Orders list's button `label` if the press that made it was made on
    /// the list as it was on screen (not on one laid out after it, in a frame not yet shown) and
    /// no other order is on its way: then it is sent (Ok(true)). An order on its way: Ok(false),
    /// nothing to say; a press made on another list: the words to tell the player.
    pub fn take_order_click(&mut self, label: &str, now: f32) -> Result<bool, &'static str> {
        if self.order_sent.is_some() {
            return Ok(false);
        }
        if self.press_frame < self.orders_since.1 + FRAMES_TO_SCREEN {
            return Err(CLICK_BEFORE_LIST);
        }
        self.order_sent = Some((label.to_string(), now));
        Ok(true)
    }

    /// The Orders list drawn this frame, as the digest of its buttons' words.
    pub fn orders_drawn(&mut self, digest: u64) {
        // A list that comes back after frames without it is new on screen too.
        if self.orders_since.0 != digest || self.orders_since.2 + 1 < self.frame {
            self.orders_since.0 = digest;
            self.orders_since.1 = self.frame;
        }
        self.orders_since.2 = self.frame;
    }
}

/// The player's settings of the window (View menu, F1): the panels' size, the controls shown, the
/// sound, how the dice are thrown, how many the Roll button throws.
#[derive(Resource)]
pub struct Preferences {
    pub show_help: bool,
    /// The size of panels and text: 1 as designed, more for a 4K screen, less for a 720p stream.
    pub ui_scale: f32,
    /// Whether the table is heard (dice, cards, pieces).
    pub sound: bool,
    /// View → Dice: every roll the rules make thrown in the tray (false), or quick: the result
    /// at once, for long sessions.
    pub quick_dice: bool,
    pub dice_count: u8,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences { show_help: false, ui_scale: 1.0, sound: true, quick_dice: false, dice_count: 2 }
    }
}

/// Screenshot mode: the file, and the frames to wait once the table is drawn whole before
/// taking it (`modes::ScreenshotPlugin`).
#[derive(Resource, Default)]
pub struct ScreenshotJob(pub Option<(PathBuf, u32)>);

/// Game → Across machines: the table's address, the seat to take (None: watch), the invitation
/// code of a private table (empty: none, or opening a table), and the tables this machine holds
/// seats at, with whose turn it is (filled by a thread).
#[derive(Resource)]
pub struct JoinForm {
    pub url: String,
    pub seat: Option<u8>,
    pub code: String,
    /// A table this window opens: its clock (`days:2+5`, `live:30+10`; empty: none), listed
    /// for anyone or private, and the seat's notification address (a webhook; empty: none).
    pub clock: String,
    pub public: bool,
    pub notify: String,
    pub my_tables: std::sync::Arc<std::sync::Mutex<Vec<MyTable>>>,
    /// The host's public tables, as it last listed them (or why it did not).
    pub public_tables: std::sync::Arc<std::sync::Mutex<Result<Vec<crate::net::proto::TableInfo>, String>>>,
}

impl Default for JoinForm {
    fn default() -> Self {
        JoinForm {
            url: "ws://127.0.0.1:7813/evening".to_string(),
            seat: Some(0),
            code: String::new(),
            clock: String::new(),
            public: false,
            notify: String::new(),
            my_tables: Default::default(),
            public_tables: std::sync::Arc::new(std::sync::Mutex::new(Ok(Vec::new()))),
        }
    }
}

/// Frames between the one a list is first laid out in and the first in which a press may have been
/// made looking at it: the renderer draws a frame while the next one is being prepared, and the
/// picture of a frame is on screen only after that.
pub const FRAMES_TO_SCREEN: u64 = 2;

impl Session {
    pub fn new(seats: usize, journal_path: PathBuf) -> Self {
        Self {
            viewer: Viewer::Seat(SeatId(0)),
            hotseat: true,
            handover_to: None,
            last_active: None,
            journal_path,
            resume_offer: false,
            panels_hidden: false,
            hand_in_clean_picture: false,
            save_path: "grognard-save.ron".to_string(),
            computers: vec![None; seats],
            new_level: None,
            pace: 0.7,
            spectator_only: false,
            lesson: None,
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

    /// Whether a game's own panels stay away: the clean picture, the hand-over screen or the
    /// resume offer covers the table.
    pub fn covered(&self) -> bool {
        self.panels_hidden || self.handover_to.is_some() || self.resume_offer
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

/// Digit keys for a list of orders: an order listed before keeps its key while its list is open
/// (so pressing 1 repeatedly does not take different orders as the list shrinks), new orders take
/// the lowest free keys 1 to 9, and a list that shares no order with the previous one is numbered
/// afresh.
pub fn order_keys(previous: &[(String, u8)], labels: &[String]) -> Vec<(String, u8)> {
    let kept: Vec<(String, u8)> = if labels.iter().any(|l| previous.iter().any(|(p, _)| p == l)) {
        previous.iter().filter(|(p, _)| labels.contains(p)).cloned().collect()
    } else {
        Vec::new()
    };
    let mut out = kept.clone();
    let mut free = (1..=9u8).filter(|k| !kept.iter().any(|(_, x)| x == k));
    for l in labels {
        if !kept.iter().any(|(p, _)| p == l)
            && let Some(k) = free.next()
        {
            out.push((l.clone(), k));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn an_order_keeps_its_key_while_its_list_is_open() {
        let first = order_keys(&[], &labels(&["commit A", "commit B", "commit C"]));
        assert_eq!(first, vec![("commit A".into(), 1), ("commit B".into(), 2), ("commit C".into(), 3)]);
        // A committed: B and C keep 2 and 3; the new "end" takes the free 1.
        let second = order_keys(&first, &labels(&["commit B", "commit C", "end"]));
        assert!(second.contains(&("commit B".into(), 2)) && second.contains(&("commit C".into(), 3)));
        assert!(second.contains(&("end".into(), 1)));
        // Another decision altogether: numbered afresh.
        let third = order_keys(&second, &labels(&["play X", "play Y"]));
        assert_eq!(third, vec![("play X".into(), 1), ("play Y".into(), 2)]);
    }

    #[test]
    fn a_click_acts_only_on_the_list_that_was_on_screen_and_one_at_a_time() {
        let mut s = PanelMemory::default();
        let draw = |s: &mut PanelMemory, digest: u64| {
            s.frame += 1;
            s.orders_drawn(digest);
        };
        for _ in 0..5 {
            draw(&mut s, 1);
        }
        // A press on the list shown for frames: taken; the next waits for its answer.
        s.press_frame = s.frame;
        assert_eq!(s.take_order_click("Second mission from North", 1.0), Ok(true));
        assert_eq!(s.take_order_click("Second mission from North", 1.1), Ok(false), "one order at a time");
        s.order_sent = None; // the answer came
        // The list changes (the order applied) in a frame the screen has not shown yet: a press
        // in that frame or the next was made looking at the old list.
        draw(&mut s, 2);
        s.press_frame = s.frame;
        assert_eq!(s.take_order_click("KeepMission(1)", 2.0), Err(CLICK_BEFORE_LIST));
        assert!(CLICK_BEFORE_LIST.contains("nothing was ordered"));
        draw(&mut s, 2);
        s.press_frame = s.frame;
        assert!(s.take_order_click("KeepMission(1)", 2.1).is_err());
        draw(&mut s, 2);
        s.press_frame = s.frame;
        assert_eq!(s.take_order_click("KeepMission(1)", 2.2), Ok(true), "two frames on, the new list is on screen");
        // A list back after frames without it (the other seat's turn) is new on screen again.
        s.order_sent = None;
        s.frame += 10;
        draw(&mut s, 2);
        s.press_frame = s.frame;
        assert!(s.take_order_click("KeepMission(1)", 3.0).is_err());
    }
}

/// A table this machine holds a seat at, as Game → Across machines lists it.
#[derive(Clone, Debug)]
pub struct MyTable {
    pub url: String,
    pub seat: u8,
    /// The table's scenario, as the host names it (empty: an older host's), and the seat's name
    /// in its game (empty: as the window's game names it).
    pub scenario: String,
    pub seat_name: String,
    /// Whose turn it is there, in words (or why the host did not answer).
    pub state: String,
}

/// An unfinished game found in the journal at start, offered for resuming.
#[derive(Resource)]
pub struct ResumeOffer<G: crate::engine::rules::Game>(pub Option<crate::engine::save::SaveFile<G::Action>>);
