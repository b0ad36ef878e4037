//! The game-neutral table (window build only): what every game's window shares — the session
//! (who is looking, notices, hand-over), the camera, the physical dice, pieces gliding to their
//! places, the computer seat and the window itself. A game plugs in by implementing `TableGame`
//! and drawing its own board and panels in `src/games/<game>/view/`. It reads the table and sends
//! `Request`s; it never decides a rule.

pub mod app;
pub mod broadcast;
pub mod camera;
pub mod coach;
pub mod computer;
pub mod dice;
pub mod director;
pub mod framing;
pub mod glide;
pub mod grip;
pub mod hexmap;
pub mod hint;
pub mod layout;
pub mod lesson;
pub mod memory;
pub mod modes;
pub mod octmap;
pub mod paint;
pub mod print;
pub mod printed;
pub mod remote;
pub mod replay;
pub mod report;
pub mod session;
pub mod sound;
pub mod start;
pub mod window;

use crate::engine::geometry::SpaceId;
use crate::engine::rng::TableRng;
use crate::engine::rules::{Game, Mode};
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::table::Table;
use bevy::prelude::*;
use std::path::Path;

pub use crate::engine::log::Span;

/// A new game the Game menu offers: its label and the game's own number for it.
#[derive(Clone, Debug, PartialEq)]
pub struct NewGame {
    pub label: String,
    pub choice: usize,
}

/// A new game: its table, and the computer's seats for it (None: keep them).
pub struct Started<G: Game> {
    pub table: Table<G>,
    pub computers: Option<Vec<Option<usize>>>,
}

/// What a game gives the shared window: labels, prompts and log lines in words, its computer
/// players, how it starts a new game, and its own presentation plugin.
pub trait TableGame: crate::engine::kit::Kit {
    /// The computer's strengths the menu offers, weakest first.
    const LEVELS: &'static [&'static str];
    /// Whether the player may hand any seat to the computer mid-game (else only a new game does).
    const FREE_COMPUTER_SEATS: bool;
    /// Whether the digit keys take the first nine orders (else the camera keeps them for views).
    const DIGIT_ORDERS: bool;
    /// The controls, for the help window.
    const HELP: &'static str;

    /// The computer's choice for `seat` at strength `level` (an index into `LEVELS`), decided on
    /// what that seat may see.
    fn computer_choice(&self, seat: SeatId, legal: &[Self::Action], level: usize, rng: &mut TableRng) -> Self::Action;
    /// Whether the Orders panel offers a *Hint* (a game whose `strong` level searches).
    const HINTS: bool = false;
    /// The hint for `seat`: `strong`'s best candidates here with their estimated chance to win,
    /// best first, decided on what `seat` may see (empty where the game gives none).
    fn hint(&self, seat: SeatId, rng: &mut TableRng) -> Vec<crate::engine::search::Estimate<Self::Action>> {
        let _ = (seat, rng);
        Vec::new()
    }
    /// The places on the table an action concerns (the counter's field and where it goes, the
    /// nation a card acts on): the hint rings them, as a lesson rings its step's places.
    fn places_of(&self, action: &Self::Action) -> Vec<SpaceId> {
        let _ = action;
        Vec::new()
    }
    /// The chance the first seat wins, estimated from what `viewer` sees (the game's evaluation
    /// averaged over deals of what it hides): the report's chart. None where the game has none.
    fn chance(&self, viewer: Viewer, rng: &mut TableRng) -> Option<f32> {
        let _ = (viewer, rng);
        None
    }
    /// How many times its usual pace the computer waits before this decision (a fight's
    /// allocation deserves a longer look).
    fn pause_factor(&self) -> f32 {
        1.0
    }
    fn action_label(&self, action: &Self::Action) -> String;
    /// Whether the orders panel lists this action (a hex game's moves, deployments and attacks
    /// are made on the map and in its own panels, not from a list of thousands).
    fn in_orders(&self, _action: &Self::Action) -> bool {
        true
    }
    /// What the table waits for, in words.
    fn prompt(&self) -> String;
    /// The state of the game in one line (turn, date, score), for the clean picture; its turn
    /// and score are `standing`'s.
    fn status(&self) -> String;
    /// The turn and the score in numbers, for the broadcast, the feed, the report and the
    /// replay's marks (which never read them back out of the status line).
    fn standing(&self) -> crate::engine::standing::Standing;
    /// Where the active seat decides somewhere else than the list of orders (a result sheet):
    /// what the orders panel says instead.
    fn orders_elsewhere(&self) -> Option<&'static str> {
        None
    }
    /// Replays a save (or a journal read as one).
    fn load_save(save: &crate::engine::save::SaveFile<Self::Action>, file: &Path) -> Result<Table<Self>, String> {
        crate::engine::kit::load_save::<Self>(save, file).map_err(|e| e.to_string())
    }
    /// A new table on a scenario file.
    fn new_table(file: &Path, seed: u64, mode: Mode) -> Result<Table<Self>, String> {
        let sc = Self::load_scenario(file).map_err(|e| e.to_string())?;
        Ok(Self::table_on(std::sync::Arc::new(sc), seed, mode))
    }
    /// A game that opens its window its own way (Victory & Glory: the solo AI's side and level)
    /// gives it here; the others are opened by `app::open_window` as the command line asks.
    const OWN_WINDOW: Option<fn(&Path, &crate::engine::entry::WindowOptions) -> i32> = None;
    /// A scenario (new game) or a save (replayed), for the window.
    fn load(file: &Path, seed: u64, mode: Mode) -> Result<Table<Self>, String> {
        let text = crate::engine::scenario::read_text(file).map_err(|e| e.to_string())?;
        if crate::engine::save::looks_like_save(&text) {
            let save = crate::engine::save::SaveFile::<Self::Action>::read(file).map_err(|e| e.to_string())?;
            Self::load_save(&save, file)
        } else {
            Self::new_table(file, seed, mode)
        }
    }
    /// Where the By hand panel of a sandbox sits (an anchor and its offset): at the top right,
    /// under the menu's height, unless the game has a panel there.
    const HAND_PANEL: (bevy_egui::egui::Align2, [f32; 2]) = (bevy_egui::egui::Align2::RIGHT_TOP, [-6.0, 56.0]);
    /// A sandbox's moves by hand of the game's own, beyond the kit's pieces (a card drawn blind,
    /// say), drawn in the By hand panel: the one clicked, as an order.
    fn hand_extras(_ui: &mut bevy_egui::egui::Ui) -> Option<Self::Action> {
        None
    }
    /// The new games the Game menu offers now.
    fn new_games(game: &Self) -> Vec<NewGame>;
    /// Starts the new game `choice` of `new_games`; `computers` are the seats the computer plays
    /// now, `level` the level the menu holds for a computer the new game brings.
    fn start(
        game: &Self,
        choice: usize,
        seed: u64,
        computers: &[Option<usize>],
        level: usize,
    ) -> Result<Started<Self>, String>;
    /// The index of `normal` among `LEVELS` (the first where there is none): the menu's default.
    fn normal_level() -> usize {
        Self::LEVELS.iter().position(|l| *l == "normal").unwrap_or(0)
    }
    /// Learn to play: what the coach says to `seat` at this moment of its first turn; `legal` is
    /// that seat's legal list (empty while another seat decides). It reads nothing `seat` may
    /// not see.
    fn lesson(&self, seat: SeatId, legal: &[Self::Action]) -> coach::Coach<Self::Action>;
    /// Where a space lies on the table and its radius there, for a ring round it (a lesson's
    /// place, a name clicked in the log).
    fn space_on_table(&self, space: SpaceId) -> Option<(Vec3, f32)>;
    /// The game's own presentation: its board, pieces, labels and panels.
    fn add_view(app: &mut App);
}

/// How the window opens, as the game's entry read it from the command line.
#[derive(Clone, Debug)]
pub struct WindowSetup {
    /// Render one frame to this PNG through these eyes, then quit.
    pub screenshot: Option<(std::path::PathBuf, Viewer)>,
    /// The computer's strength at each seat (an index into `LEVELS`), None for a person.
    pub computers: Vec<Option<usize>>,
    /// Seconds between two computer moves.
    pub pace: f32,
    /// The file name of this game's autosave journal.
    pub journal_name: &'static str,
    /// The size of panels and text.
    pub ui_scale: f32,
    /// Open the camera on this point of the table (x, z) from this distance.
    pub look: Option<[f32; 3]>,
    /// Sit at a host's table.
    pub remote: Option<crate::engine::entry::RemoteSeat>,
    /// The broadcast window, the feed, the delay and the director.
    pub stream: crate::engine::entry::StreamOptions,
    /// Open on Learn to play: the guided first turn.
    pub learn: bool,
    /// The questions the game asks a seat during the other's turn (standing orders, at a host's
    /// table).
    pub questions: &'static [crate::engine::orders::QuestionKind],
}
