//! Play across machines (issue 13): nothing a host sends leaks. Over hundreds of complete games
//! of every game with hidden information, played through a host with each seat and a spectator on
//! their own connections, every frame each connection received is compared with the table it was
//! sent from, that table's hidden part dealt otherwise for that viewer (`common/scramble.rs`): the
//! view, the legal actions and every log line must come out the same; and the table a window
//! rebuilds from a frame (`Game::rebuilt_from_view`) must show that same view. So no frame carries a hand,
//! the blind pile's order, a secret mission, a face-down unit or the table's future chance.
mod common;
#[path = "common/scramble.rs"]
mod scramble;

use grognard::engine::rng::TableRng;
use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::{SeatId, Viewer};
use grognard::engine::table::{Entry, Table};
use grognard::games::{botn, leipzig, vg};
use grognard::net::chain;
use grognard::net::client::Client;
use grognard::net::host::{Host, MakeTable, Tables, serve};
use grognard::net::hosted::{Hosted, HostedSave};
use grognard::net::proto::{ToSeat, Update};
use grognard::net::sim::pick;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

fn cases(default: u64) -> u64 {
    std::env::var("GROGNARD_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn report(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Every update a connection received, by log index, and the finished save.
async fn record(mut c: Client, me: Option<u8>, seed: u64) -> (BTreeMap<u64, Update>, String) {
    let mut seen = BTreeMap::new();
    while let Some(m) = c.recv().await {
        match m {
            ToSeat::Update(u) => {
                if let Some(me) = me.filter(|&m| u.active == Some(m) && !u.over) {
                    let k = pick(seed, me, u.index, u.legal.len());
                    c.submit(u.index, u.legal[k].clone()).await.unwrap();
                }
                assert!(seen.insert(u.index, u).is_none(), "one update per action");
            }
            ToSeat::Finished { save } => return (seen, save),
            ToSeat::Refused { message, .. } => panic!("refused: {message}"),
            _ => {}
        }
    }
    panic!("closed before the end");
}

type ScrambleEntry<G> = fn(&G, &Entry<<G as Game>::Event>, Viewer, &mut TableRng) -> Entry<<G as Game>::Event>;

/// A game's hooks for the check: its table, and how to deal its hidden part otherwise.
struct Hooks<G: Game> {
    table: Arc<dyn Fn(u64) -> Table<G> + Send + Sync>,
    scramble: fn(&G, Viewer, &mut TableRng) -> G,
    /// The same log entry with what `viewer` may not read of it dealt otherwise.
    scramble_entry: ScrambleEntry<G>,
    /// Whether the legal actions sent are compared too (see the Leipzig test for why not there).
    compare_legal: bool,
}

/// Plays `games` games of one game through a host and checks every frame; the frames checked.
fn check_game<G: grognard::engine::kit::Kit>(hooks: Hooks<G>, games: u64) -> u64 {
    let table = hooks.table.clone();
    let make: MakeTable = Arc::new(move |id, secret, values| {
        let t = table.clone();
        Ok(Box::new(Hosted::start(id, secret, values, move |seed| t(seed))) as _)
    });
    let first = (hooks.table)(0);
    let tables = Tables {
        game: G::ID.to_string(),
        scenario: grognard::net::host::scenario_key(G::ID, &first.game.scenario().path),
        title: first.game.scenario().name,
        seats: first.game.seat_names().iter().map(|s| s.to_string()).collect(),
        scenario_hash: first.game.scenario().hash,
        make,
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let mut frames = 0;
    let mut rng = TableRng::from_seed(7);
    for n in 0..games {
        let (received, save) = runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let url = format!("ws://{}/g{n}", listener.local_addr().unwrap());
            tokio::spawn(serve(listener, Host::new(tables.clone())));
            let value = |k: u8| chain::hash_parts(&[&n.to_le_bytes(), &[k]]);
            let mut a = Client::join(&url, Some(0), Some(value(0))).await.unwrap();
            loop {
                if let Some(ToSeat::Welcome { .. }) = a.recv().await {
                    break;
                }
            }
            let watcher = Client::join(&url, None, None).await.unwrap();
            let b = Client::join(&url, Some(1), Some(value(1))).await.unwrap();
            let (ra, rb, rw) = tokio::join!(record(a, Some(0), n), record(b, Some(1), n), record(watcher, None, n));
            assert!(ra.1 == rb.1 && rb.1 == rw.1);
            ([ra.0, rb.0, rw.0], ra.1)
        });
        let save: HostedSave = ron::from_str(&save).unwrap();
        let secret = chain::from_hex(save.fair.secret.as_deref().unwrap()).unwrap();
        let values = save.fair.contributions.iter().map(|v| chain::from_hex(v).unwrap()).collect();
        let t = hooks.table.clone();
        let mut h = Hosted::start(&save.fair.table_id, secret, values, move |seed| t(seed));
        let viewers = [Viewer::Seat(SeatId(0)), Viewer::Seat(SeatId(1)), Viewer::Spectator];
        for i in 0..=save.fair.links.len() {
            if i > 0 {
                h.replay_link(&save.fair.links[i - 1]).unwrap();
            }
            for (k, &viewer) in viewers.iter().enumerate() {
                let u =
                    received[k].get(&(i as u64)).unwrap_or_else(|| panic!("game {n}: no update {i} for {viewer:?}"));
                let s = (hooks.scramble)(&h.table.game, viewer, &mut rng);
                assert_eq!(
                    u.view,
                    serde_json::to_value(s.observe(viewer)).unwrap(),
                    "game {n}, action {i}: {viewer:?}'s view"
                );
                assert_eq!(u.active, s.active_seat().map(|s| s.0));
                // What a window at the host's table draws: a table rebuilt from the frame alone,
                // which shows the same view through the same gate.
                let rebuilt = h.table.game.rebuilt_from_view(&u.view, &mut rng).unwrap();
                let again = serde_json::to_value(rebuilt.observe(viewer)).unwrap();
                assert_eq!(again, u.view, "game {n}, action {i}: {viewer:?}'s table rebuilt from its frame");
                if hooks.compare_legal && !u.legal.is_empty() {
                    let mut legal = Vec::new();
                    // The window at the host's table lights and offers what its rebuilt table
                    // allows: the same list the host sent.
                    rebuilt.legal_actions(Mode::Enforced, &mut legal);
                    let window: Vec<_> = legal.iter().map(|a| serde_json::to_value(a).unwrap()).collect();
                    if u.legal != window {
                        panic!(
                            "game {n}, action {i}: {viewer:?}'s window offers other actions than the host: \
                             only the host {:?}, only the window {:?}",
                            common::only_in(&u.legal, &window),
                            common::only_in(&window, &u.legal)
                        );
                    }
                    s.legal_actions(Mode::Enforced, &mut legal);
                    let legal: Vec<_> = legal.iter().map(|a| serde_json::to_value(a).unwrap()).collect();
                    if u.legal != legal {
                        panic!(
                            "game {n}, action {i}: {viewer:?}'s legal actions depend on what it may not see: sent {:?}, else {:?}",
                            common::only_in(&u.legal, &legal),
                            common::only_in(&legal, &u.legal)
                        );
                    }
                }
                let lines: Vec<&str> = u.log.iter().map(|l| l.text.as_str()).collect();
                let mut expect = Vec::new();
                for j in (i.max(1) - 1)..i {
                    for e in h.table.entries_of(j) {
                        expect.push(s.entry_text(&(hooks.scramble_entry)(&s, e, viewer, &mut rng), viewer));
                    }
                }
                assert_eq!(lines, expect, "game {n}, action {i}: {viewer:?}'s log");
                frames += 1;
            }
        }
    }
    frames
}

fn scenario(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(path)
}

#[test]
fn no_frame_a_host_sends_in_battle_of_the_nations_shows_what_its_viewer_may_not_see() {
    let sc = Arc::new(botn::Scenario::load(&scenario("battle-of-the-nations/beginner.ron")).unwrap());
    let hooks = Hooks {
        table: Arc::new(move |seed| botn::table_on(sc.clone(), seed, Mode::Enforced)),
        scramble: scramble::scramble_botn,
        // A blind draw names its card to the drawer only: to anyone else, any card.
        compare_legal: true,
        scramble_entry: |g, e, viewer, rng| match e {
            Entry::Game { seat, event: botn::rules::Event::DrewBlind { side, .. } }
                if viewer != Viewer::Seat(botn::state::seat_of(*side)) =>
            {
                let card = rng.below(g.sc.action_cards.len()) as u8;
                Entry::Game { seat: *seat, event: botn::rules::Event::DrewBlind { side: *side, card } }
            }
            e => e.clone(),
        },
    };
    let games = cases(150);
    let frames = check_game(hooks, games);
    report(format_args!("Battle of the Nations through a host: {games} games, {frames} frames checked"));
}

#[test]
fn no_frame_a_host_sends_in_victory_and_glory_shows_what_its_viewer_may_not_see() {
    let sc = Arc::new(vg::VgScenario::load(&scenario("victory-and-glory/napoleon.ron")).unwrap());
    let hooks = Hooks {
        table: Arc::new(move |seed| vg::table_on(sc.clone(), seed, None)),
        scramble: scramble::scramble_vg,
        scramble_entry: |_, e, _, _| e.clone(),
        compare_legal: true,
    };
    let games = cases(60);
    let frames = check_game(hooks, games);
    report(format_args!("Victory & Glory through a host: {games} games, {frames} frames checked"));
}

#[test]
fn no_frame_a_host_sends_in_leipzig_shows_a_hidden_counter() {
    let sc = Arc::new(leipzig::LzScenario::load(&scenario("leipzig-1813/1-historical-situation.ron")).unwrap());
    let hooks = Hooks {
        table: Arc::new(move |seed| leipzig::table_on(sc.clone(), seed)),
        scramble: scramble::scramble_leipzig,
        // Unit names in a line are read from the (scrambled) table: a hidden counter's type is
        // whatever the scramble dealt.
        scramble_entry: |_, e, _, _| e.clone(),
        // The legal actions too: the French choose on the zones they see (Reconnaissance).
        compare_legal: true,
    };
    let games = cases(2);
    let frames = check_game(hooks, games);
    report(format_args!("Leipzig through a host: {games} games, {frames} frames checked"));
}

#[test]
fn no_frame_a_host_sends_in_austerlitz_carries_the_tables_chance() {
    let sc = Arc::new(grognard::games::austerlitz::AzScenario::load(&scenario("austerlitz/1-historical.ron")).unwrap());
    let hooks = Hooks {
        table: Arc::new(move |seed| grognard::games::austerlitz::table_on(sc.clone(), seed)),
        // Nothing on this table is hidden but its chance, which decides every future die.
        scramble: |g, _, rng| {
            let mut s = g.clone();
            s.rng = TableRng::from_seed(rng.below(1 << 30) as u64);
            s
        },
        scramble_entry: |_, e, _, _| e.clone(),
        compare_legal: true,
    };
    let games = cases(2);
    let frames = check_game(hooks, games);
    report(format_args!("Austerlitz through a host: {games} games, {frames} frames checked"));
}
