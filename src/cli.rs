//! The command line: `grognard [play|validate|replay|simulate|screenshot]`. It names no game:
//! each file is handed to the game whose id it carries (see `registry`).

use crate::engine::entry::{self, GameEntry, SimOptions, StreamOptions, WindowOptions};
use crate::engine::save::looks_like_save;
use crate::registry;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};

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
        /// Let the computer play this seat (by the game's seat names), or both.
        #[arg(long)]
        computer: Option<String>,
        /// The computer opponent's strength, where the game has several.
        #[arg(long)]
        level: Option<String>,
        /// Seconds between two computer moves.
        #[arg(long, default_value_t = 0.7)]
        pace: f32,
        /// The size of panels and text (1 as designed; 1.5 to 2 on a 4K screen, 0.8 for a 720p stream).
        #[arg(long, default_value_t = 1.0, value_parser = ui_scale)]
        ui_scale: f32,
        /// Open the camera on the table's point X,Z from DISTANCE.
        #[arg(long, value_name = "X,Z,DISTANCE", value_parser = look, allow_hyphen_values = true)]
        look: Option<[f32; 3]>,
        /// Learn to play: a guided first turn of the game's first new game (the prompt says what
        /// to do and why, with the rule's section; the computer plays the other seat).
        #[arg(long, conflicts_with_all = ["join", "replay", "sandbox"])]
        learn: bool,
        /// Sit at a host's table (FILE is the scenario the host plays): ws://HOST:PORT/TABLE.
        #[arg(long, value_name = "URL")]
        join: Option<String>,
        /// With --join: the seat to take, by the game's seat names.
        #[arg(long, requires = "join", conflicts_with = "spectate")]
        seat: Option<String>,
        /// With --join: watch, as a spectator (behind the host's delay, with the spectators' chat).
        #[arg(long, requires = "join")]
        spectate: bool,
        /// With --join: a private table's invitation code (the seat's, or the spectators'), as
        /// the player who opened the table handed it out; also read from GROGNARD_CODE.
        #[arg(long, requires = "join")]
        code: Option<String>,
        /// With --join: a table this seat opens is public, listed and open to anyone (a table is
        /// private by default: its opener is given a code per seat to hand out).
        #[arg(long, requires = "seat")]
        public: bool,
        /// With --join: a webhook the host posts to whenever the decision passes to this seat (a
        /// Discord or Slack incoming webhook, or any address taking JSON; empty: none any more);
        /// also read from GROGNARD_NOTIFY, out of the list of processes.
        #[arg(long, value_name = "URL", requires = "seat")]
        notify: Option<String>,
        /// With --join: the clock of a table this seat opens: live:MINUTES[+SECONDS] (live:30+10)
        /// or days:DAYS[+RESERVE] (days:2+5: two days a move, five in reserve).
        #[arg(long, value_name = "CLOCK", requires = "seat")]
        clock: Option<String>,
        /// Open the broadcast window for streaming (WIDTHxHEIGHT, 1920x1080 if none): the
        /// spectator's table, no panels, a director camera and an overlay; with --spectate this
        /// window is the broadcast window.
        #[arg(long, value_name = "WxH", num_args = 0..=1, default_missing_value = "1920x1080", value_parser = size)]
        broadcast: Option<(u32, u32)>,
        /// Serve the broadcast feed for stream tools (JSON over WebSocket): a PORT of this
        /// machine, or ADDRESS:PORT to open it to others.
        #[arg(long, value_name = "PORT")]
        feed: Option<String>,
        /// Keep the broadcast this many actions behind the table.
        #[arg(long, default_value_t = 0)]
        delay_actions: u64,
        /// Keep the broadcast this many seconds behind the table.
        #[arg(long, default_value_t = 0)]
        delay_seconds: u64,
        /// The broadcast's camera: auto (frames each action), fixed (the stored view 1, or the
        /// overview) or follow:SEAT (only that seat's actions).
        #[arg(long, default_value = "auto")]
        director: String,
        /// Open a save on a timeline: step through it, jump to a turn, a fight or a reveal.
        #[arg(long, conflicts_with_all = ["join", "seed", "sandbox", "computer"])]
        replay: bool,
    },
    /// Check scenario and save files; prints file:line:column: message for each error.
    Validate {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Re-apply a save's log headless and print the digest of the final table.
    Replay { save: PathBuf },
    /// Recompute a finished game played through a host: the revealed secret against the host's
    /// commitment, every action's hash in the chain and every roll; print the final digest.
    Verify {
        save: PathBuf,
        /// The commitment the host's welcome brought to a seat (64 hex digits): the save must
        /// hold the same, or the host changed its secret after seeing the seats' values.
        #[arg(long, value_name = "HEX")]
        commitment: Option<String>,
        /// A seat's own copy of the finished save: the table, the commitment and every seat's
        /// value must be the same in both.
        #[arg(long, value_name = "FILE")]
        against: Option<PathBuf>,
    },
    /// Keep tables for play across machines: the headless rules build, serving
    /// ws://ADDRESS:PORT/TABLE (a table opens when its first seat joins, on the scenario it
    /// names, and starts when every seat has joined).
    Host {
        /// The scenarios it serves, the first the default (none: every shipped scenario of every
        /// game, Battle of the Nations' beginner game the default).
        scenarios: Vec<PathBuf>,
        #[arg(long, default_value_t = 7813)]
        port: u16,
        /// The address to listen on (127.0.0.1: this machine only; 0.0.0.0: every network).
        #[arg(long, default_value = "127.0.0.1")]
        address: String,
        /// Keep every table's log here (synced before each action is announced), and reopen the
        /// tables found here: a restarted host loses no accepted action.
        #[arg(long)]
        data: Option<PathBuf>,
        /// Keep spectators this many actions behind the players.
        #[arg(long, default_value_t = 0)]
        delay_actions: u64,
        /// Keep spectators this many minutes behind the players.
        #[arg(long, default_value_t = 0)]
        delay_minutes: u64,
        /// The host's address as players reach it (ws://NAME:PORT or wss://), for the link in
        /// each notification.
        #[arg(long, value_name = "URL")]
        link: Option<String>,
        /// Post notifications to addresses on this machine and its private networks too (a host
        /// for friends on one network); a host on the internet posts only to public addresses.
        #[arg(long)]
        notify_local: bool,
        /// How many tables one address may keep waiting for their other seats (raise it for a
        /// club behind one address, or a load test on loopback).
        #[arg(long, default_value_t = crate::net::limits::Limits::default().unstarted_per_address)]
        unstarted_per_address: usize,
        /// How many tables not over one address may have opened, started or not.
        #[arg(long, default_value_t = crate::net::limits::Limits::default().tables_per_address)]
        tables_per_address: usize,
        /// How many connections one address may have at once (IPv6: one /64); never more than a
        /// quarter of the connections the host serves.
        #[arg(long, default_value_t = crate::net::limits::Limits::default().connections_per_address)]
        connections_per_address: usize,
        /// The host listens behind a TLS-terminating proxy on this machine: a connection from
        /// the loopback address is counted at the address the proxy names in X-Forwarded-For, so
        /// that the limits per address hold for each player.
        #[arg(long)]
        behind_proxy: bool,
        /// Keep the tables in this PostgreSQL (postgres://USER@HOST:PORT/DATABASE, or
        /// GROGNARD_STORE, kept out of the process list) instead of --data, shared with any other
        /// host given the same: each table is served by one host at a time, through the others.
        #[arg(long, value_name = "URL")]
        store: Option<String>,
        /// With --store: a PEM file of the CA the database's certificate is signed by (beside the
        /// system's roots), for a database on a private network.
        #[arg(long, value_name = "FILE")]
        store_ca: Option<PathBuf>,
        /// With --store: where the other hosts reach this one (ws://NAME:PORT; the address it
        /// listens on if left out). Each host its own.
        #[arg(long, value_name = "URL")]
        advertise: Option<String>,
        /// With --store: how long a table waits for another host once its host stops answering.
        #[arg(long, default_value_t = crate::net::pgstore::LEASE.as_secs_f64())]
        lease_seconds: f64,
        /// Put every public table's spectator stream on this NATS server (nats://HOST:PORT), for
        /// the edges (grognard edge) to serve spectators from.
        #[arg(long, value_name = "URL")]
        nats: Option<String>,
    },
    /// Serve spectators from the NATS server the hosts publish on (grognard host --nats), at
    /// ws://ADDRESS:PORT/TABLE: a streamed final's spectators never touch the table's host.
    Edge {
        /// The NATS server, nats://HOST:PORT
        #[arg(long, value_name = "URL")]
        nats: String,
        #[arg(long, default_value_t = 7814)]
        port: u16,
        /// The address to listen on (127.0.0.1: this machine only; 0.0.0.0: every network).
        #[arg(long, default_value = "127.0.0.1")]
        address: String,
    },
    /// List a host's tables: the seats still open and whose turn it is.
    Tables {
        /// The host's address, ws://HOST:PORT
        host: String,
        /// The tables this machine holds seats at there (the windows' kept tokens), private ones
        /// included: whose turn it is and the time left.
        #[arg(long)]
        mine: bool,
    },
    /// Write what one seat (or a spectator) may see of a saved game: its save to hand to that
    /// player during play, without the seed or the log that would give the other's secrets away.
    SeatSave {
        save: PathBuf,
        /// The seat, by the game's seat names, or spectator.
        #[arg(long)]
        seat: String,
        /// Where to write it (standard output without).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Play complete games headless; one JSON line per game, then a summary line.
    Simulate {
        scenario: PathBuf,
        #[arg(long, default_value_t = 1)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Who plays every seat not named by --player (the game's player kinds, e.g. random, hard).
        #[arg(long)]
        players: Option<String>,
        /// Who plays one seat: SEAT=PLAYER, by the game's seat and player names. May be repeated.
        #[arg(long = "player", value_parser = seat_player)]
        seat_players: Vec<(String, String)>,
        #[arg(long)]
        save_dir: Option<PathBuf>,
        /// Play the games through the host at ws://HOST:PORT (serving this scenario), each seat
        /// on its own connection playing random legal actions; the finished saves (with the
        /// host's revealed secret) go to --save-dir and are verified.
        #[arg(long)]
        via: Option<String>,
        /// With --via: this many games at once (each its own table, two connections a table).
        #[arg(long, default_value_t = 1, requires = "via")]
        at_once: usize,
    },
    /// Measure the computer levels: each against the one below it and `strong` against the
    /// baseline (`beginner`; Victory & Glory: `solo`), on both sides, over seeded games on every
    /// core, beside the lower level against itself (what each side is worth alone); one JSON line
    /// a rung and a summary.
    Ladder {
        /// A scenario of the game (default: the default game's).
        scenario: Option<PathBuf>,
        /// Games a pairing and side.
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, default_value_t = 9)]
        seed: u64,
        /// Only the rungs whose upper level is this one.
        #[arg(long)]
        level: Option<String>,
        /// Only the rungs whose lower level is this one.
        #[arg(long)]
        against: Option<String>,
        /// Only the rungs where the upper level plays this seat.
        #[arg(long)]
        seat: Option<String>,
        /// Threads to play on (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Keep each finished game in this file (one JSON line a game) and play only the games it
        /// lacks: a long ladder may be stopped and run again.
        #[arg(long)]
        record: Option<PathBuf>,
    },
    /// Render the table to a PNG (needs a display, e.g. under xvfb-run).
    Screenshot {
        file: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Whose view: a seat name of the game, or spectator.
        #[arg(long, default_value = "spectator")]
        seat: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The size of panels and text (see `play`).
        #[arg(long, default_value_t = 1.0, value_parser = ui_scale)]
        ui_scale: f32,
        /// Frame a close-up: the camera looks at the table's point X,Z from DISTANCE.
        #[arg(long, value_name = "X,Z,DISTANCE", value_parser = look, allow_hyphen_values = true)]
        look: Option<[f32; 3]>,
        /// The table without panels (only its status line).
        #[arg(long)]
        clean: bool,
        /// The first step of Learn to play, through the learner's eyes.
        #[arg(long)]
        learn: bool,
    },
    /// Write the after-action report of a save: one printable HTML page with the table at each
    /// turn's end (drawn by the screenshot mode, under xvfb-run where there is no display), the
    /// log with every roll, the fights, the score over time and the result.
    Report {
        save: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Leave the pictures out (quick; no renderer needed).
        #[arg(long)]
        no_pictures: bool,
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

fn ui_scale(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if (0.5..=3.0).contains(&v) => Ok(v),
        _ => Err(format!("`{s}`: a size from 0.5 to 3")),
    }
}

fn size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{s}: expected WIDTHxHEIGHT, e.g. 1920x1080 or 1280x720");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (u32, u32) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if !(320..=7680).contains(&w) || !(240..=4320).contains(&h) {
        return Err(format!("{s}: from 320x240 to 7680x4320"));
    }
    Ok((w, h))
}

fn look(s: &str) -> Result<[f32; 3], String> {
    let v: Vec<f32> = s.split(',').filter_map(|p| p.trim().parse().ok()).collect();
    match v[..] {
        [x, z, d] if x.abs() <= 100.0 && z.abs() <= 100.0 && (1.0..=100.0).contains(&d) => Ok([x, z, d]),
        _ => {
            Err(format!("`{s}`: expected X,Z,DISTANCE (a point of the table within 100 and a distance from 1 to 100)"))
        }
    }
}

fn seat_player(s: &str) -> Result<(String, String), String> {
    let (seat, player) = s.split_once('=').ok_or_else(|| format!("`{s}`: expected SEAT=PLAYER"))?;
    Ok((seat.to_ascii_lowercase(), player.to_ascii_lowercase()))
}

/// Finds the game of a file, or prints why not.
fn game_of(file: &Path) -> Result<&'static dyn GameEntry, i32> {
    registry::open(file).map(|(g, _)| g).map_err(|e| {
        eprintln!("{e}");
        1
    })
}

pub fn run() -> i32 {
    let cli = Cli::parse();
    let window = |file: &Path, options: WindowOptions| match registry::open(file) {
        // A save carries its own seed and mode: flags that would change them are refused.
        Ok((_, text))
            if looks_like_save(&text)
                && (options.sandbox || (options.seed.is_some() && options.screenshot.is_none())) =>
        {
            eprintln!(
                "{}: a save carries its own seed and mode; --seed and --sandbox apply to a new game",
                file.display()
            );
            2
        }
        Ok((game, _)) => open_window(game, file, &options),
        Err(e) => {
            eprintln!("{e}");
            1
        }
    };
    match cli.command {
        None => {
            let game = registry::GAMES[0];
            open_window(
                game,
                &game.default_scenario(),
                &WindowOptions { pace: 0.7, ui_scale: 1.0, ..Default::default() },
            )
        }
        Some(Command::Play {
            file,
            seed,
            sandbox,
            computer,
            level,
            pace,
            ui_scale,
            look,
            learn,
            join,
            seat,
            spectate,
            code,
            public,
            notify,
            clock,
            broadcast,
            feed,
            delay_actions,
            delay_seconds,
            director,
            replay,
        }) => {
            if join.is_some() && (feed.is_some() || delay_actions > 0 || delay_seconds > 0) {
                eprintln!(
                    "--join: the host keeps the delay (grognard host --delay-actions/--delay-minutes); no --feed"
                );
                return 2;
            }
            if join.is_some() && seat.is_none() && !spectate {
                eprintln!("--join: name the seat to take (--seat NAME) or watch (--spectate)");
                return 2;
            }
            if join.is_some() && (sandbox || seed.is_some()) {
                eprintln!("--join: the host keeps the table: no --sandbox or --seed");
                return 2;
            }
            // A code handed to a window this one opened comes through the environment, out of
            // the list of processes other users may read.
            let code = code.or_else(|| std::env::var("GROGNARD_CODE").ok().filter(|c| !c.is_empty()));
            let notify = notify.or_else(|| std::env::var("GROGNARD_NOTIFY").ok().filter(|c| !c.is_empty()));
            if let Some(Err(e)) = clock.as_deref().map(crate::net::clock::ClockRule::parse) {
                eprintln!("--clock {e}");
                return 2;
            }
            let remote = join.map(|url| crate::engine::entry::RemoteSeat { url, seat, code, public, notify, clock });
            let stream = StreamOptions {
                broadcast,
                feed,
                delay: crate::net::proto::Delay { actions: delay_actions, seconds: delay_seconds },
                director,
                replay: replay.then(|| file.clone()),
                clean: false,
            };
            let options = WindowOptions {
                seed,
                sandbox,
                computer,
                level,
                pace,
                ui_scale,
                screenshot: None,
                look,
                remote,
                stream,
                learn,
            };
            window(&file, options)
        }
        Some(Command::Screenshot { file, out, seat, seed, ui_scale, look, clean, learn }) => window(
            &file,
            WindowOptions {
                seed: Some(seed),
                screenshot: Some((out, seat)),
                pace: 0.7,
                ui_scale,
                look,
                stream: StreamOptions { clean, ..Default::default() },
                learn,
                ..Default::default()
            },
        ),
        Some(Command::Report { save, out, no_pictures }) => report(&save, &out, !no_pictures),
        Some(Command::Validate { files }) => validate(&files),
        Some(Command::Replay { save }) => replay(&save),
        Some(Command::Verify { save, commitment, against }) => verify(&save, commitment.as_deref(), against.as_deref()),
        Some(Command::Host {
            scenarios,
            port,
            address,
            data,
            delay_actions,
            delay_minutes,
            link,
            notify_local,
            unstarted_per_address,
            tables_per_address,
            connections_per_address,
            behind_proxy,
            store,
            store_ca,
            advertise,
            lease_seconds,
            nats,
        }) => {
            let delay = crate::net::proto::Delay { actions: delay_actions, seconds: delay_minutes.saturating_mul(60) };
            // Its connections are counted in `host`, once the limit of open files is raised.
            let limits = crate::net::limits::Limits {
                unstarted_per_address,
                tables_per_address,
                connections_per_address,
                behind_proxy,
                ..Default::default()
            };
            let notify = crate::net::notify::NotifyConfig { allow_local: notify_local, link, ..Default::default() };
            let store = store.or_else(|| std::env::var("GROGNARD_STORE").ok().filter(|c| !c.is_empty()));
            let shared = store.map(|url| Shared {
                ca: store_ca,
                url,
                advertise,
                lease: std::time::Duration::from_secs_f64(lease_seconds.max(0.5)),
            });
            host(&scenarios, (&address, port), data.as_deref(), (shared, nats), delay, limits, notify)
        }
        Some(Command::Edge { nats, port, address }) => edge(&nats, (&address, port)),
        Some(Command::Tables { host, mine: false }) => tables(&host),
        Some(Command::Tables { host, mine: true }) => my_tables(&host),
        Some(Command::SeatSave { save, seat, out }) => seat_save(&save, &seat, out.as_deref()),
        Some(Command::Simulate { scenario, games, seed, save_dir, via: Some(via), players, seat_players, at_once }) => {
            if players.as_deref().is_some_and(|p| p != "random") || !seat_players.is_empty() {
                eprintln!(
                    "--via: the seats play random legal actions (a computer player reads its game's view, \
                     which a connection does not rebuild yet)"
                );
                return 2;
            }
            if games > entry::MAX_SAVED_GAMES {
                eprintln!("--games {games}: at most {} through a host", entry::MAX_SAVED_GAMES);
                return 2;
            }
            match game_of(&scenario) {
                Ok(game) => {
                    let name = crate::net::host::scenario_key(game.id(), &scenario);
                    crate::net::sim::simulate_via(&via, &name, games, seed, save_dir.as_deref(), at_once)
                }
                Err(code) => code,
            }
        }
        Some(Command::Simulate { scenario, games, seed, players, seat_players, save_dir, via: None, .. }) => {
            let cap = if save_dir.is_some() { entry::MAX_SAVED_GAMES } else { entry::MAX_GAMES };
            if games > cap {
                eprintln!(
                    "--games {games}: at most {cap}{}",
                    if save_dir.is_some() { " with --save-dir (each game is a file)" } else { "" }
                );
                return 2;
            }
            match game_of(&scenario) {
                Ok(game) => {
                    game.simulate(&scenario, &SimOptions { games, seed, players, seats: seat_players, save_dir })
                }
                Err(code) => code,
            }
        }
        Some(Command::Ladder { scenario, games, seed, level, against, seat, threads, record }) => {
            if games > entry::MAX_GAMES {
                eprintln!("--games {games}: at most {}", entry::MAX_GAMES);
                return 2;
            }
            let scenario = scenario.unwrap_or_else(|| registry::GAMES[0].default_scenario());
            match game_of(&scenario) {
                Ok(game) => {
                    use crate::engine::ladder::{LadderOptions, Record};
                    let record = match record.as_deref().map(Record::open).unwrap_or_else(|| Ok(Record::none())) {
                        Ok(r) => r,
                        Err(e) => {
                            eprintln!("{e}");
                            return 1;
                        }
                    };
                    let options = LadderOptions { games, seed, level, against, seat, threads };
                    crate::engine::ladder::run(game, &scenario, &options, &record)
                }
                Err(code) => code,
            }
        }
        Some(Command::Autoplay { scenario, journal, seed, actions, delay_ms }) => match game_of(&scenario) {
            Ok(game) => game.autoplay(&scenario, &journal, seed, actions, delay_ms),
            Err(code) => code,
        },
    }
}

#[cfg(feature = "gui")]
fn open_window(game: &dyn GameEntry, file: &Path, options: &WindowOptions) -> i32 {
    game.open_window(file, options)
}

#[cfg(not(feature = "gui"))]
fn open_window(_: &dyn GameEntry, _: &Path, _: &WindowOptions) -> i32 {
    eprintln!("grognard: this build has no window (built without the `gui` feature)");
    2
}

#[cfg(feature = "gui")]
pub fn report(save: &Path, out: &Path, pictures: bool) -> i32 {
    let game = match game_of(save) {
        Ok(g) => g,
        Err(code) => return code,
    };
    match game.report(save, out, pictures) {
        Ok(page) => {
            println!("{}", page.display());
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

#[cfg(not(feature = "gui"))]
pub fn report(_: &Path, _: &Path, _: bool) -> i32 {
    eprintln!("grognard: the report draws the table: this build has no renderer (built without the `gui` feature)");
    2
}

/// Checks each file: a scenario loads with all its parts, a save also replays.
pub fn validate(files: &[PathBuf]) -> i32 {
    let mut bad = 0;
    for f in files {
        let result = registry::open(f).and_then(|(game, text)| game.validate(f, &text));
        match result {
            Ok(what) => println!("{}: ok ({what})", f.display()),
            Err(msg) => {
                bad += 1;
                println!("{msg}");
            }
        }
    }
    if bad > 0 { 1 } else { 0 }
}

pub fn seat_save(path: &Path, seat: &str, out: Option<&Path>) -> i32 {
    let text = match registry::open(path).and_then(|(game, _)| game.seat_save(path, seat)) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    match out {
        None => {
            println!("{text}");
            0
        }
        Some(out) => match crate::engine::scenario::write_private(out, &text) {
            Ok(_) => 0,
            Err(e) => {
                eprintln!("{}: {e}", out.display());
                1
            }
        },
    }
}

/// The scenarios a host serves: those named, each found its game, or every shipped scenario of
/// every game (the default game's default scenario first).
pub fn catalogue(named: &[PathBuf]) -> Result<crate::net::host::Catalogue, String> {
    let files: Vec<PathBuf> = if named.is_empty() {
        let mut files = Vec::new();
        for game in registry::GAMES {
            let first = game.default_scenario();
            let mut beside = entry::scenarios_beside(&first, game.id())?;
            // The game's default first, so that the host's default is the program's.
            beside.sort_by_key(|p| p.file_name() != first.file_name());
            files.extend(beside);
        }
        files
    } else {
        named.to_vec()
    };
    let tables = files
        .iter()
        .map(|f| registry::open(f).and_then(|(game, _)| game.host_tables(f)))
        .collect::<Result<Vec<_>, String>>()?;
    crate::net::host::Catalogue::new(tables)
}

/// A store shared with other hosts: the database, where the others reach this host, the lease.
pub struct Shared {
    pub url: String,
    pub ca: Option<PathBuf>,
    pub advertise: Option<String>,
    pub lease: std::time::Duration,
}

pub fn host(
    scenarios: &[PathBuf],
    (address, port): (&str, u16),
    data: Option<&Path>,
    (shared, nats): (Option<Shared>, Option<String>),
    delay: crate::net::proto::Delay,
    limits: crate::net::limits::Limits,
    mut notify: crate::net::notify::NotifyConfig,
) -> i32 {
    // As many connections as the system lets this process have (half its open files).
    crate::net::limits::raise_open_file_limit();
    crate::net::limits::fewer_heaps();
    let limits = crate::net::limits::Limits {
        connections: crate::net::limits::Limits::for_this_process().connections,
        ..limits
    }
    .per_address_within();
    // Bound first: the other hosts sharing the store are told the address it listens on.
    let listener = match std::net::TcpListener::bind((address, port)).and_then(|l| l.set_nonblocking(true).map(|()| l))
    {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{address}:{port}: {e}");
            return 1;
        }
    };
    let at = listener.local_addr().map(|a| a.to_string()).unwrap_or_default();
    let made = catalogue(scenarios);
    let served: Vec<String> =
        made.as_ref().map(|c| c.scenarios().map(|t| t.scenario.clone()).collect()).unwrap_or_default();
    let opened = made.and_then(|c| match shared {
        None => crate::net::host::Host::open_with_limits(c, delay, data, limits),
        Some(s) => {
            let advertise = s.advertise.unwrap_or_else(|| format!("ws://{at}"));
            let store = crate::net::pgstore::PgStore::connect(&s.url, s.ca.as_deref(), &advertise, s.lease)?;
            crate::net::host::Host::open_on(c, delay, data, Some(std::sync::Arc::new(store)), limits)
        }
    });
    let (host, problems) = match opened {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    for p in &problems {
        eprintln!("not reopened: {p}");
    }
    // The connections on one thread; the tables' work (rules, disk) on a few more, so that a slow
    // table holds up no other (each thread holds its own allocator arena: a few, not hundreds).
    let runtime = tokio::runtime::Builder::new_current_thread()
        .max_blocking_threads(crate::net::host::TABLE_THREADS)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let listener = match tokio::net::TcpListener::from_std(listener) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("{address}:{port}: {e}");
                return 1;
            }
        };
        // Without --link, the address it listens on, where that is one a player can reach.
        if notify.link.is_none() && listener.local_addr().is_ok_and(|a| !a.ip().is_unspecified()) {
            notify.link = Some(format!("ws://{at}"));
        }
        host.notify_with(notify);
        if let Some(url) = &nats {
            let h = host.clone();
            let bus = crate::net::bus::connect_host(url, std::sync::Arc::new(move |id: &str| h.catchup(id))).await;
            let edge = crate::net::edge::Edge::connect(url, limits).await;
            match bus.and_then(|p| edge.map(|e| (p, e))) {
                Ok((p, e)) => host.on_bus(p, e),
                Err(e) => {
                    eprintln!("{e}");
                    return 1;
                }
            }
        }
        let reopened = host.list().len();
        println!(
            "hosting {} at ws://{at}/TABLE (the default {}){}",
            match served.len() {
                1 => served[0].clone(),
                n => format!("{n} scenarios"),
            },
            served[0],
            if reopened == 0 { String::new() } else { format!("; {reopened} tables reopened") }
        );
        if delay.actions > 0 || delay.seconds > 0 {
            println!("spectators are kept {} actions and {} s behind the players", delay.actions, delay.seconds);
        }
        crate::net::host::serve(listener, host).await;
        0
    })
}

/// `grognard edge`: spectators served from the bus.
pub fn edge(nats: &str, (address, port): (&str, u16)) -> i32 {
    crate::net::limits::raise_open_file_limit();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let edge = match crate::net::edge::Edge::connect(nats, crate::net::limits::Limits::for_this_process()).await {
            Ok(e) => e,
            Err(e) => {
                eprintln!("{e}");
                return 1;
            }
        };
        let listener = match tokio::net::TcpListener::bind((address, port)).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("{address}:{port}: {e}");
                return 1;
            }
        };
        let at = listener.local_addr().map(|a| a.to_string()).unwrap_or_default();
        println!("serving spectators at ws://{at}/TABLE from {nats}");
        crate::net::edge::serve(listener, edge).await;
        0
    })
}

/// `grognard tables --mine`: the tables this machine holds seats at on a host, one line each.
pub fn my_tables(url: &str) -> i32 {
    let base = url.trim_end_matches('/');
    let seats: Vec<crate::net::proto::MySeat> = crate::net::client::kept_seats()
        .into_iter()
        .filter_map(|(at, seat, token)| {
            let (host, table) = at.rsplit_once('/')?;
            (host == base).then(|| crate::net::proto::MySeat { table: table.to_string(), seat, token })
        })
        .collect();
    if seats.is_empty() {
        println!("no seats kept on this machine at {base}");
        return 0;
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    match runtime.block_on(crate::net::client::Client::mine(base, seats.clone())) {
        Ok(list) => {
            for s in &seats {
                let Some(t) = list.iter().find(|t| t.name == s.table) else {
                    println!("{}\t-\t-\tnot at that host (or not with this seat's token)", s.table);
                    continue;
                };
                println!("{}\t{}\t{}\t{}", t.name, t.scenario, t.seat_name(s.seat), t.state_for(s.seat));
            }
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// `grognard tables`: a host's tables, one line each.
pub fn tables(url: &str) -> i32 {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    match runtime.block_on(crate::net::client::Client::list(url)) {
        Ok(list) => {
            if list.is_empty() {
                println!("no tables at {url}");
            }
            for t in list {
                let name = |k: u8| t.seat_name(k);
                let state = t.state();
                let clock = t.clock.as_ref().map_or("no clock".to_string(), |c| {
                    let left: Vec<String> = c
                        .left_ms
                        .iter()
                        .enumerate()
                        .map(|(k, &ms)| format!("{} {}", name(k as u8), crate::net::clock::words(ms)))
                        .collect();
                    format!("{}: {}", c.rule.words(), left.join(", "))
                });
                let scenario = if t.scenario.is_empty() { "-" } else { t.scenario.as_str() };
                println!("{}\t{scenario}\t{} actions\t{state}\t{clock}", t.name, t.index);
            }
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// `grognard verify`: the save recomputed, and checked against what a seat kept (issue 30, item 13).
pub fn verify(path: &Path, commitment: Option<&str>, against: Option<&Path>) -> i32 {
    let kept = || -> Result<(), String> {
        if commitment.is_none() && against.is_none() {
            return Ok(());
        }
        let read = |p: &Path| -> Result<crate::net::hosted::HostedSave, String> {
            let text = crate::engine::scenario::read_text(p).map_err(|e| e.to_string())?;
            crate::engine::scenario::parse_ron(p, &text).map_err(|e| e.to_string())
        };
        let save = read(path)?;
        let at = |e: String| format!("{}: {e}", path.display());
        if let Some(c) = commitment {
            let c = crate::net::chain::from_hex(c.trim()).ok_or_else(|| "--commitment: 64 hex digits".to_string())?;
            crate::net::hosted::check_kept(&save.fair, Some(&c), None).map_err(at)?;
        }
        if let Some(other) = against {
            let mine = read(other)?;
            let differs = [
                (mine.fair.table_id != save.fair.table_id, "the table"),
                (mine.fair.commitment != save.fair.commitment, "the host's commitment"),
                (mine.fair.contributions != save.fair.contributions, "the seats' values"),
            ];
            if let Some((_, what)) = differs.iter().find(|d| d.0) {
                return Err(at(format!("{what}: not the same as in the seat's own save {}", other.display())));
            }
        }
        Ok(())
    };
    if let Err(e) = kept() {
        eprintln!("{e}");
        return 1;
    }
    match registry::open(path).and_then(|(game, _)| game.verify(path)) {
        Ok(what) => {
            println!("{what}");
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

pub fn replay(path: &Path) -> i32 {
    match registry::open(path).and_then(|(game, _)| game.replay(path)) {
        Ok(digest) => {
            println!("digest {digest}");
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}
