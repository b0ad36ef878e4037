//! One game as the rest of the program sees it (`GameEntry`), what the commands and the window
//! hand it (`SimOptions`, `WindowOptions`), and the checks of a scenario's part files. Every game
//! gets its entry from its `Kit` (`registered::Registered`); `registry.rs` only lists them.

use crate::engine::scenario::{probe_game_id, read_text};
use std::path::{Path, PathBuf};

/// How `simulate` plays: who decides for each seat (by the game's seat names) and for the rest.
#[derive(Clone, Debug, Default)]
pub struct SimOptions {
    pub games: u64,
    pub seed: u64,
    /// The player for every seat not named in `seats` (e.g. "random", "hard").
    pub players: Option<String>,
    /// (seat name, player) pairs.
    pub seats: Vec<(String, String)>,
    pub save_dir: Option<PathBuf>,
}

/// How the window opens.
#[derive(Clone, Debug, Default)]
pub struct WindowOptions {
    pub seed: Option<u64>,
    pub sandbox: bool,
    /// Render one frame to this PNG, through this seat's eyes ("spectator" or a seat name).
    pub screenshot: Option<(PathBuf, String)>,
    /// The seat the computer plays ("both" for every seat), and its strength.
    pub computer: Option<String>,
    pub level: Option<String>,
    pub pace: f32,
    /// The size of panels and text.
    pub ui_scale: f32,
    /// Open the camera on this point of the table (x, z) from this distance.
    pub look: Option<[f32; 3]>,
    /// Sit at a host's table.
    pub remote: Option<RemoteSeat>,
    pub stream: StreamOptions,
    /// Open on Learn to play: the guided first turn of the game's first new game.
    pub learn: bool,
}

/// Where a window sits at a host's table.
#[derive(Clone, Debug, Default)]
pub struct RemoteSeat {
    /// The table's address, ws://HOST:PORT/TABLE (or wss://).
    pub url: String,
    /// The seat's name (None: watch).
    pub seat: Option<String>,
    /// A private table's invitation code (a seat's, or the spectators').
    pub code: Option<String>,
    /// A table this seat opens is listed and open to anyone.
    pub public: bool,
    /// The seat's notification address (a webhook).
    pub notify: Option<String>,
    /// The clock of a table this seat opens (`live:30+10`, `days:2+5`).
    pub clock: Option<String>,
}

/// Streaming: the broadcast window, the feed for stream tools, the delay and the director.
#[derive(Clone, Debug)]
pub struct StreamOptions {
    /// Open the broadcast window at this size (watching a host's table: be it).
    pub broadcast: Option<(u32, u32)>,
    /// Serve the broadcast feed here: a port of this machine, or ADDRESS:PORT.
    pub feed: Option<String>,
    /// How far behind the table the broadcast is kept (at a host's table, the host's delay).
    pub delay: crate::net::proto::Delay,
    /// The director camera: auto, fixed or follow:SEAT.
    pub director: String,
    /// Open this save on a timeline (the replay view).
    pub replay: Option<PathBuf>,
    /// No panels: the table and its status line only (the report's pictures).
    pub clean: bool,
}

impl Default for StreamOptions {
    fn default() -> Self {
        StreamOptions {
            broadcast: None,
            feed: None,
            delay: Default::default(),
            director: "auto".into(),
            replay: None,
            clean: false,
        }
    }
}

/// One game of a match, as a game's registration plays it: its seed → the winner's seat index
/// (None for a draw).
pub type MatchGame = Box<dyn Fn(u64) -> Result<Option<usize>, String> + Send + Sync>;

/// One game as the rest of the program sees it.
pub trait GameEntry: Sync {
    /// The id scenarios and saves carry in their `game` field, and the scenario folder's name.
    fn id(&self) -> &'static str;
    fn name(&self) -> &'static str;
    fn default_scenario(&self) -> PathBuf;
    /// Checks a scenario, a part of one, or a save: what it is, or `file:line:column: message`.
    fn validate(&self, file: &Path, text: &str) -> Result<String, String>;
    /// Plays `games` random games on a scenario, loaded as play loads it, each to its end within
    /// `MAX_PLAYTEST_ACTIONS`: how `validate` knows a scenario can be played.
    fn playtest(&self, scenario: &Path, seed: u64, games: u64) -> Result<(), String>;
    /// Replays a save headless: the digest of its final table.
    fn replay(&self, save: &Path) -> Result<String, String>;
    /// Recomputes a finished hosted game from its save (`net::hosted::verify_file`): what was
    /// verified, or why it does not hold.
    fn verify(&self, save: &Path) -> Result<String, String>;
    /// What the host needs to open tables on a scenario (`grognard host`): the seats' names and
    /// how to set a table up once every seat has sent its value for the dice.
    fn host_tables(&self, scenario: &Path) -> Result<crate::net::host::Tables, String>;
    /// A seat's save of a game during play (`engine::save::SeatSave`): what that seat (or a
    /// spectator) may see of the table a save holds, and nothing else.
    fn seat_save(&self, save: &Path, seat: &str) -> Result<String, String>;
    /// Plays complete games headless, printing a JSON line per game and a summary; the exit code.
    fn simulate(&self, scenario: &Path, options: &SimOptions) -> i32;
    /// The seats as the command line names them (`--player SEAT=…`), in seat order.
    fn seat_names(&self) -> &'static [&'static str];
    /// Plays games on a scenario checking the rules' invariants at every decision
    /// (`engine::conformance`): what was checked, or the first invariant broken.
    fn conformance(
        &self,
        scenario: &Path,
        seed: u64,
        options: &crate::engine::conformance::Options,
    ) -> Result<crate::engine::conformance::Report, String>;
    /// The players the ladder measures, weakest first: `random`, then the computer levels (the
    /// same names in every game).
    fn levels(&self) -> &'static [&'static str] {
        &["random", "beginner", "normal", "strong", "expert"]
    }
    /// What the ladder measures `strong` against besides the level below it.
    fn baseline(&self) -> &'static str {
        "beginner"
    }
    /// How this game plays one game of a match, `players[i]` at seat `i` (by the names
    /// `simulate --player` takes): a game's seed → its winner's seat index (None: a draw). The
    /// ladder plays many on every core and collects how long each search decision took.
    fn match_of(&self, scenario: &Path, players: &[&str]) -> Result<MatchGame, String>;
    /// (testing) Random legal actions on a new table, each written to a journal; the exit code.
    fn autoplay(&self, scenario: &Path, journal: &Path, seed: u64, max: u64, delay_ms: u64) -> i32;
    /// Opens the table on a scenario or a save; the exit code.
    #[cfg(feature = "gui")]
    fn open_window(&self, file: &Path, options: &WindowOptions) -> i32;
    /// Writes the after-action report of a save into a folder (`table::report`): the page.
    #[cfg(feature = "gui")]
    fn report(&self, save: &Path, out: &Path, pictures: bool) -> Result<PathBuf, String>;
}

/// The most actions a random game of a playable scenario may take (far above the shipped games:
/// Battle of the Nations under 200, Victory & Glory under 400).
pub const MAX_PLAYTEST_ACTIONS: usize = 5_000;

/// The most games one `simulate` plays (hours of work even at full speed).
pub const MAX_GAMES: u64 = 10_000_000;
/// The most games one `simulate --save-dir` writes, one file each.
pub const MAX_SAVED_GAMES: u64 = 10_000;

/// The scenario files (those with a `game` field of `game`) in the folder of a part file.
pub fn scenarios_beside(file: &Path, game: &str) -> Result<Vec<PathBuf>, String> {
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron") && p.is_file())
        .filter(|p| {
            read_text(p).is_ok_and(|t| {
                !crate::engine::save::looks_like_save(&t)
                    && t.contains("game:")
                    && probe_game_id(&t).is_some_and(|id| id == game)
            })
        })
        .collect();
    out.sort();
    Ok(out)
}

/// Validates a part file of `game` (a board, a deck, ...) through the scenario files beside it
/// that name it: each loaded as play loads it, and played.
pub fn validate_part(game: &dyn GameEntry, file: &Path) -> Result<String, String> {
    // The table map is read by the view alone, never named by a scenario.
    if file.file_name().is_some_and(|n| n == crate::engine::tablemap::FILE) {
        return crate::engine::tablemap::TableMap::load(file).map(|m| m.summary()).map_err(|e| e.to_string());
    }
    let scenarios = scenarios_naming(file, game.id())?;
    for s in &scenarios {
        game.playtest(s, 1, 2)?;
    }
    Ok(format!("checked and played with the {} scenario file(s) beside it that name it", scenarios.len()))
}

/// The scenario files beside a part file that name it (as a quoted file name): a part file no
/// scenario names is refused, since nothing would ever load it.
pub fn scenarios_naming(file: &Path, game: &str) -> Result<Vec<PathBuf>, String> {
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let quoted = format!("\"{name}\"");
    let naming: Vec<PathBuf> =
        scenarios_beside(file, game)?.into_iter().filter(|s| read_text(s).is_ok_and(|t| t.contains(&quoted))).collect();
    if naming.is_empty() {
        return Err(format!(
            "{}:1:1: no scenario of `{game}` beside this file names it, so no game would load it",
            file.display()
        ));
    }
    Ok(naming)
}
