//! The command line: `grognard [play|validate|replay|simulate|screenshot]`.

use crate::engine::autoplay::{play_out, simulate as simulate_games};
use crate::engine::journal::{Journal, JournalLine};
use crate::engine::rng::TableRng;
use crate::engine::rules::{Game, Mode};
use crate::engine::save::{SaveFile, looks_like_save};
use crate::engine::table::{Act, Record, Table};
use crate::games::botn::{self, Action, Botn, Scenario, ai};
use crate::games::vg;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Parser, Debug)]
#[command(
    name = "grognard",
    version,
    about = "A 3D virtual tabletop for Napoleonic board wargames, with their rules enforced"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open the table on a scenario or a save.
    Play {
        file: PathBuf,
        /// Seed of the table's RNG for a new game (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Free sandbox mode: any piece may be moved by hand.
        #[arg(long)]
        sandbox: bool,
        /// Let the computer play this side: french, allied, or both (to watch).
        #[arg(long)]
        computer: Option<String>,
        /// The computer opponent's strength.
        #[arg(long, value_enum, default_value_t = ai::Player::Normal)]
        level: ai::Player,
        /// Seconds between two computer moves.
        #[arg(long, default_value_t = 0.7)]
        pace: f32,
    },
    /// Check scenario and save files; prints file:line:column: message for each error.
    Validate {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Re-apply a save's log headless and print the digest of the final table.
    Replay { save: PathBuf },
    /// Play complete games headless; one JSON line per game, then a summary line.
    Simulate {
        scenario: PathBuf,
        #[arg(long, default_value_t = 1)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Who plays both sides: random, easy, normal (or ai), hard.
        #[arg(long, value_enum, default_value_t = ai::Player::Random)]
        players: ai::Player,
        /// Who plays Napoléon (default: --players).
        #[arg(long, value_enum)]
        french: Option<ai::Player>,
        /// Who plays Schwarzenberg (default: --players).
        #[arg(long, value_enum)]
        allied: Option<ai::Player>,
        /// Victory & Glory: a solo game, the section XV AI playing this side (france or britain)
        /// against a random player; without it both sides play at random.
        #[arg(long)]
        solo: Option<String>,
        #[arg(long)]
        save_dir: Option<PathBuf>,
    },
    /// Render the table to a PNG (needs a display, e.g. under xvfb-run).
    Screenshot {
        file: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Whose view: french, allied or spectator.
        #[arg(long, default_value = "spectator")]
        seat: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// (testing) Play random legal actions with a journal, printing `applied N` after each.
    #[command(hide = true)]
    Autoplay {
        scenario: PathBuf,
        #[arg(long)]
        journal: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1_000_000)]
        actions: u64,
        #[arg(long, default_value_t = 0)]
        delay_ms: u64,
    },
}

pub fn run() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        None => open_window(&botn::data::default_scenario_path(), None, false, None, [None, None], 0.7),
        Some(Command::Play { file, seed, sandbox, computer, level, pace }) => {
            let l = Some(level);
            let computers = match computer.as_deref().map(str::to_ascii_lowercase).as_deref() {
                None => [None, None],
                Some("french" | "france" | "napoleon" | "napoléon") => [l, None],
                Some("allied" | "allies" | "schwarzenberg" | "britain" | "british") => [None, l],
                Some("both") => [l, l],
                Some(other) => {
                    eprintln!("--computer {other}: expected french, allied or both");
                    return 2;
                }
            };
            open_window(&file, seed, sandbox, None, computers, pace)
        }
        Some(Command::Screenshot { file, out, seat, seed }) => {
            open_window(&file, Some(seed), false, Some((out, seat)), [None, None], 0.7)
        }
        Some(Command::Validate { files }) => validate(&files),
        Some(Command::Replay { save }) => replay(&save),
        Some(Command::Simulate { scenario, games, seed, players, french, allied, solo, save_dir }) => {
            if is_vg(&scenario) {
                let solo = match solo.as_deref().map(str::to_ascii_lowercase).as_deref() {
                    None => None,
                    Some("france" | "french") => Some(vg::Player::France),
                    Some("britain" | "british") => Some(vg::Player::Britain),
                    Some(other) => {
                        eprintln!("--solo {other}: expected france or britain");
                        return 2;
                    }
                };
                return simulate_vg(&scenario, games, seed, solo, save_dir.as_deref());
            }
            let players = [french.unwrap_or(players), allied.unwrap_or(players)];
            simulate(&scenario, games, seed, players, save_dir.as_deref())
        }
        Some(Command::Autoplay { scenario, journal, seed, actions, delay_ms }) => {
            autoplay(&scenario, &journal, seed, actions, delay_ms)
        }
    }
}

#[cfg(feature = "gui")]
fn open_window(
    file: &Path,
    seed: Option<u64>,
    sandbox: bool,
    screenshot: Option<(PathBuf, String)>,
    computers: [Option<ai::Player>; 2],
    pace: f32,
) -> i32 {
    if is_vg(file) {
        // Victory & Glory: the computer is the solo AI of section XV, on one side.
        let ai = match computers {
            [Some(_), _] => Some(vg::Player::France),
            [_, Some(_)] => Some(vg::Player::Britain),
            _ => None,
        };
        let seed = seed.unwrap_or_else(crate::table::app::clock_seed);
        return match crate::table::vg_table::load(file, seed, ai) {
            Ok(table) => crate::table::vg_table::run(table, ai, pace, screenshot),
            Err(e) => {
                eprintln!("{e}");
                1
            }
        };
    }
    crate::table::app::run(file, seed, sandbox, screenshot, computers, pace)
}

#[cfg(not(feature = "gui"))]
fn open_window(
    _: &Path,
    _: Option<u64>,
    _: bool,
    _: Option<(PathBuf, String)>,
    _: [Option<ai::Player>; 2],
    _: f32,
) -> i32 {
    eprintln!("grognard: this build has no window (built without the `gui` feature)");
    2
}

/// Checks each file: a scenario loads with all its parts, a save also replays.
pub fn validate(files: &[PathBuf]) -> i32 {
    let mut bad = 0;
    for f in files {
        match validate_one(f) {
            Ok(what) => println!("{}: ok ({what})", f.display()),
            Err(msg) => {
                bad += 1;
                println!("{msg}");
            }
        }
    }
    if bad > 0 { 1 } else { 0 }
}

/// Whether a scenario or save file belongs to Victory & Glory.
pub fn is_vg(f: &Path) -> bool {
    std::fs::read_to_string(f).is_ok_and(|t| t.contains("\"victory-and-glory\""))
        || f.parent().is_some_and(|d| d.ends_with("victory-and-glory"))
}

fn validate_vg(f: &Path, text: &str) -> Result<String, String> {
    if looks_like_save(text) {
        let save = SaveFile::<vg::Action>::read(f).map_err(|e| e.to_string())?;
        let table = vg::load_save(&save, f).map_err(|e| format!("{}:1:1: {e}", f.display()))?;
        return Ok(format!("save of {} actions, digest {}", table.records.len(), table.digest()));
    }
    let parsed: Result<ron::Value, _> = ron::from_str(text);
    if let Err(e) = parsed {
        return Err(format!("{}:{}:{}: {}", f.display(), e.span.start.line, e.span.start.col, e.code));
    }
    let scenarios: Vec<PathBuf> = if text.contains("eras:") {
        vec![f.to_path_buf()]
    } else {
        let dir = f.parent().unwrap_or(Path::new("."));
        std::fs::read_dir(dir)
            .map_err(|e| e.to_string())?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("eras:")))
            .collect()
    };
    for s in &scenarios {
        let sc = vg::VgScenario::load(s).map_err(|e| e.to_string())?;
        if s == f {
            return Ok(format!(
                "scenario \"{}\", {} nations, {} units, {} cards",
                sc.name,
                sc.nations.len(),
                sc.units.len(),
                sc.cards.len()
            ));
        }
    }
    Ok(format!("checked with {} scenario file(s) beside it", scenarios.len()))
}

fn validate_one(f: &Path) -> Result<String, String> {
    let text = crate::engine::scenario::read_text(f).map_err(|e| e.to_string())?;
    if is_vg(f) {
        return validate_vg(f, &text);
    }
    if looks_like_save(&text) {
        let save = SaveFile::<Action>::read(f).map_err(|e| e.to_string())?;
        let table = botn::load_save(&save, f).map_err(|e| format!("{}:1:1: {e}", f.display()))?;
        Ok(format!("save of {} actions, digest {}", table.records.len(), table.digest()))
    } else {
        // A part file (board, armies, ...) is checked through the scenario files beside it.
        let parsed: Result<ron::Value, _> = ron::from_str(&text);
        if let Err(e) = parsed {
            return Err(format!("{}:{}:{}: {}", f.display(), e.span.start.line, e.span.start.col, e.code));
        }
        if text.contains("variant:") {
            let sc = Scenario::load(f).map_err(|e| e.to_string())?;
            Ok(format!("scenario \"{}\", {} fields, {} armies", sc.name, sc.fields.len(), sc.armies.len()))
        } else {
            let dir = f.parent().unwrap_or(Path::new("."));
            let scenarios: Vec<PathBuf> = std::fs::read_dir(dir)
                .map_err(|e| e.to_string())?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("variant:")))
                .collect();
            for s in &scenarios {
                Scenario::load(s).map_err(|e| e.to_string())?;
            }
            Ok(format!("checked with {} scenario file(s) beside it", scenarios.len()))
        }
    }
}

pub fn replay(path: &Path) -> i32 {
    if is_vg(path) {
        let result = SaveFile::<vg::Action>::read(path)
            .map_err(|e| e.to_string())
            .and_then(|save| vg::load_save(&save, path).map_err(|e| format!("{}: {e}", path.display())));
        return match result {
            Ok(table) => {
                println!("digest {}", table.digest());
                0
            }
            Err(e) => {
                eprintln!("{e}");
                1
            }
        };
    }
    let save = match SaveFile::<Action>::read(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    match botn::load_save(&save, path) {
        Ok(table) => {
            println!("digest {}", table.digest());
            0
        }
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            1
        }
    }
}

/// One complete game between two players of the given kind; the decision RNG is separate from
/// the table's, so the table's chance depends only on its own seed and the actions.
pub fn play_game(
    sc: Arc<Scenario>,
    seed: u64,
    players: [ai::Player; 2],
    max_actions: usize,
) -> Result<Table<Botn>, String> {
    let mut chooser = TableRng::from_seed(seed ^ 0x9e37_79b9_7f4a_7c15);
    play_out(botn::table_on(sc, seed, Mode::Enforced), seed, max_actions, |game, legal, seat| {
        ai::choose(game, legal, players[seat.0 as usize], &mut chooser)
    })
}

pub fn simulate(path: &Path, games: u64, seed: u64, players: [ai::Player; 2], save_dir: Option<&Path>) -> i32 {
    let sc = match Scenario::load(path) {
        Ok(sc) => Arc::new(sc),
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let run = simulate_games(
        games,
        seed,
        save_dir.map(|d| (d, "game")),
        |game_seed| play_game(sc.clone(), game_seed, players, 5000),
        |game_seed| botn::table_on(sc.clone(), game_seed, Mode::Enforced),
        botn::save_of,
        |game| game.vp,
    );
    let run = match run {
        Ok(run) => run,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    println!(
        "{}",
        serde_json::json!({"games": games, "french": players[0].label(), "allied": players[1].label(),
            "french_wins": run.wins[0], "allied_wins": run.wins[1], "actions": run.actions, "errors": run.errors,
            "games_per_sec": run.games_per_sec(games)})
    );
    if run.errors > 0 { 1 } else { 0 }
}

/// Victory & Glory games headless: random players, or the solo AI against a random player.
pub fn simulate_vg(path: &Path, games: u64, seed: u64, solo: Option<vg::Player>, save_dir: Option<&Path>) -> i32 {
    let sc = match vg::VgScenario::load(path) {
        Ok(sc) => Arc::new(sc),
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let run = simulate_games(
        games,
        seed,
        save_dir.map(|d| (d, "vg")),
        |game_seed| vg::play_game(sc.clone(), game_seed, solo, 20_000),
        |game_seed| vg::table_on(sc.clone(), game_seed, None),
        vg::save_of,
        |game| game.vp,
    );
    let run = match run {
        Ok(run) => run,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    println!(
        "{}",
        serde_json::json!({"games": games, "solo": solo.map(|p| p.name()), "france_wins": run.wins[0],
            "britain_wins": run.wins[1], "ties": run.wins[2], "actions": run.actions, "errors": run.errors,
            "games_per_sec": run.games_per_sec(games)})
    );
    if run.errors > 0 { 1 } else { 0 }
}

fn autoplay(path: &Path, journal_path: &Path, seed: u64, max: u64, delay_ms: u64) -> i32 {
    let sc = match Scenario::load(path) {
        Ok(sc) => Arc::new(sc),
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let mut table = botn::table_on(sc, seed, Mode::Enforced);
    let mut journal = match Journal::create(journal_path, &botn::save_of(&table)) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("{}: {e}", journal_path.display());
            return 1;
        }
    };
    let mut chooser = TableRng::from_seed(seed);
    let mut legal = Vec::new();
    let mut applied = 0;
    while applied < max && !table.game.is_over() {
        table.game.legal_actions(table.mode, &mut legal);
        let seat = table.game.active_seat().expect("not over");
        let action = ai::choose(&table.game, &legal, ai::Player::Random, &mut chooser);
        let act = Act::Game(action);
        table.submit(seat, act.clone()).expect("listed actions are legal");
        journal.append(&JournalLine::Applied(Record { seat, act })).expect("journal written");
        applied += 1;
        println!("applied {applied} digest {}", table.digest());
        if delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        }
    }
    0
}
