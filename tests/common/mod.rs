//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod services;

use grognard::engine::geometry::SpaceId;
use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::SeatId;
use grognard::engine::table::{Act, Table};
use grognard::games::botn::data::District;
use grognard::games::botn::{self, Action, Botn};
use std::path::PathBuf;

pub const FRENCH: SeatId = SeatId(0);
pub const ALLIED: SeatId = SeatId(1);

pub fn scenario_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-of-the-nations/beginner.ron")
}

pub fn new_table(seed: u64) -> Table<Botn> {
    botn::new_table(&scenario_path(), seed, Mode::Enforced).expect("the shipped scenario loads")
}

/// Preparation done: second cards from North and South, the first of each pair kept.
pub fn after_draft(seed: u64) -> Table<Botn> {
    let mut t = new_table(seed);
    for d in [District::North, District::South] {
        t.submit(FRENCH, Act::Game(Action::DraftDistrict(d))).unwrap();
        let keep = t.game.draft_pair[0];
        t.submit(FRENCH, Act::Game(Action::KeepMission(keep))).unwrap();
    }
    t
}

pub fn army(t: &Table<Botn>, name: &str) -> u8 {
    t.game.sc.army_id(name).unwrap_or_else(|| panic!("no army {name}")) as u8
}

pub fn field(t: &Table<Botn>, name: &str) -> grognard::engine::geometry::SpaceId {
    t.game.sc.field_id(name).unwrap_or_else(|| panic!("no field {name}"))
}

pub fn legal(t: &Table<Botn>) -> Vec<Action> {
    let mut v = Vec::new();
    t.game.legal_actions(t.mode, &mut v);
    v
}

/// Plays `n` random legal actions (or until the game ends).
pub fn play_random(t: &mut Table<Botn>, n: usize, seed: u64) {
    let mut rng = grognard::engine::rng::TableRng::from_seed(seed);
    for _ in 0..n {
        if t.game.is_over() {
            break;
        }
        let l = legal(t);
        let seat = t.game.active_seat().unwrap();
        let a = l[rng.below(l.len())].clone();
        t.submit(seat, Act::Game(a)).unwrap();
    }
}

/// Fields for `n` armies on the real board such that the pairs in `adj` are adjacent and the
/// pairs in `apart` are not (a rulebook picture laid out on Grognard's map). Deterministic.
pub fn layout(t: &Table<Botn>, n: usize, adj: &[(usize, usize)], apart: &[(usize, usize)]) -> Vec<SpaceId> {
    fn go(
        g: &grognard::engine::geometry::AreaGraph,
        fields: usize,
        n: usize,
        adj: &[(usize, usize)],
        apart: &[(usize, usize)],
        chosen: &mut Vec<SpaceId>,
    ) -> bool {
        let k = chosen.len();
        if k == n {
            return true;
        }
        for f in 0..fields {
            let f = SpaceId(f as u16);
            if chosen.contains(&f) {
                continue;
            }
            let fits = |pairs: &[(usize, usize)], want: bool| {
                pairs.iter().all(|&(a, b)| {
                    let other = if a == k && b < k {
                        b
                    } else if b == k && a < k {
                        a
                    } else {
                        return true;
                    };
                    g.adjacent(f, chosen[other]) == want
                })
            };
            if fits(adj, true) && fits(apart, false) {
                chosen.push(f);
                if go(g, fields, n, adj, apart, chosen) {
                    return true;
                }
                chosen.pop();
            }
        }
        false
    }
    let mut chosen = Vec::new();
    assert!(go(&t.game.sc.graph, t.game.sc.fields.len(), n, adj, apart, &mut chosen), "the board has no such layout");
    chosen
}

/// Puts an army on the board as in a rulebook picture: card laid out, markers gone, `strength`
/// (the picture's number) with the first lost point shown by the flip.
pub fn place(t: &mut Table<Botn>, army: u8, at: SpaceId, strength: i8) {
    let printed = t.game.sc.armies[army as usize].def.strength as i8;
    let st = &mut t.game.armies[army as usize];
    st.card_played = true;
    st.at = Some(at);
    st.strength = strength;
    st.flipped = strength < printed;
    st.chips = (printed - strength - 1).max(0) as u8;
    if st.chosen_unit.is_none()
        && t.game.sc.armies[army as usize].def.unit == grognard::games::botn::data::UnitType::All
    {
        st.chosen_unit = Some(grognard::games::botn::data::UnitType::Infantry);
    }
    for m in t.game.markers.iter_mut().filter(|m| m.army == army) {
        m.at = None;
        m.removed = true;
    }
}

/// The time bar index of a space by its label.
pub fn time_index(t: &Table<Botn>, label: &str) -> u8 {
    t.game.sc.time.iter().position(|s| s.label == label).unwrap_or_else(|| panic!("no time space {label}")) as u8
}

/// Napoléon's turn with one action left and the time indicator on `label`: his last action ends
/// the turn (what happens at the end of a turn is then under test).
pub fn last_french_action_at(t: &mut Table<Botn>, label: &str) {
    t.game.time = time_index(t, label);
    t.game.active = grognard::games::botn::data::Side::French;
    t.game.actions_left = 1;
    t.game.had_first_turn = [true, true];
}

/// Starts `grognard host` with these arguments (its scenario among them) and reads the address it
/// serves at from its first line: the child, and HOST:PORT.
pub fn grognard_host<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (std::process::Child, String) {
    let (child, at) = grognard_server("host", args);
    (child, at.trim_start_matches("ws://").to_string())
}

/// Starts `grognard edge` on the bus at `nats`; the child and its address (ws://…).
pub fn grognard_edge(nats: &str) -> (std::process::Child, String) {
    grognard_server("edge", &["--port", "0", "--nats", nats])
}

/// Starts `grognard COMMAND ARGS…` and reads the address (ws://…) its first line names; the rest
/// of what it prints is read as it comes (a line printed to a closed pipe would end it).
fn grognard_server<S: AsRef<std::ffi::OsStr>>(command: &str, args: &[S]) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .arg(command)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let at = line.split("ws://").nth(1).and_then(|s| s.split('/').next()).expect("the address").to_string();
    (child, format!("ws://{at}"))
}

/// The first few items of `a` that `b` lacks, for a failure's message.
pub fn only_in<'a, T: PartialEq>(a: &'a [T], b: &[T]) -> Vec<&'a T> {
    a.iter().filter(|x| !b.contains(x)).take(5).collect()
}

/// The next update from the host, skipping anything else; a refusal fails the test.
pub async fn next_update(c: &mut grognard::net::client::Client) -> grognard::net::proto::Update {
    use grognard::net::proto::ToSeat;
    loop {
        match c.recv().await.expect("open") {
            ToSeat::Update(u) => return u,
            ToSeat::Refused { message, .. } => panic!("refused: {message}"),
            _ => {}
        }
    }
}

/// The next refusal's words from the host, skipping anything else.
pub async fn next_refusal(c: &mut grognard::net::client::Client) -> String {
    loop {
        if let grognard::net::proto::ToSeat::Refused { message, .. } = c.recv().await.expect("open") {
            return message;
        }
    }
}

/// A Battle of the Nations game played through a host, played again offline from its finished
/// save (the host's revealed secret, the seats' values), each seat choosing as the tests' random
/// seats do (`net::sim::pick` with `seed`): the same chain and table if the host lost nothing.
pub fn offline_botn(save: &grognard::net::hosted::HostedSave, seed: u64) -> grognard::net::hosted::Hosted<Botn> {
    use grognard::net::chain;
    use grognard::net::play::HostedGame;
    let secret = chain::from_hex(save.fair.secret.as_deref().unwrap()).unwrap();
    let values = save.fair.contributions.iter().map(|v| chain::from_hex(v).unwrap()).collect();
    let mut h = grognard::net::hosted::Hosted::start(&save.fair.table_id, secret, values, new_table);
    while let Some(seat) = h.table.game.active_seat().filter(|_| !h.table.game.is_over()) {
        let mut legal = Vec::new();
        h.table.game.legal_actions(Mode::Enforced, &mut legal);
        let k = grognard::net::sim::pick(seed, seat.0, h.index(), legal.len());
        h.submit(seat, Act::Game(legal[k].clone())).unwrap();
    }
    h
}

/// What seats that keep coming back saw of the host or hosts: actions accepted, reconnections,
/// and each time a seat was cut off, how long until a host served its table again.
#[derive(Default)]
pub struct Cuts {
    pub actions: std::sync::atomic::AtomicU64,
    pub reconnects: std::sync::atomic::AtomicU64,
    pub gaps: std::sync::Mutex<Vec<std::time::Duration>>,
}

/// A seat's token in the tests of hosts killed: its own from the start.
pub fn token_of(table: &str, seat: u8) -> grognard::net::chain::Hash {
    grognard::net::chain::hash_parts(&[b"token", table.as_bytes(), &[seat]])
}

/// A seat's value for the dice in those tests.
pub fn value_of(table: &str, seat: u8) -> grognard::net::chain::Hash {
    grognard::net::chain::hash_parts(&[table.as_bytes(), &[seat]])
}

/// A seat that plays random legal actions (`net::sim::pick` with `seed`) until its game is over,
/// through whichever of `hosts` (ws://HOST:PORT) answers: it starts at host `first` and, whenever
/// its connection ends or is refused, comes back with its token and the last index it saw to the
/// next (as behind a load balancer). Its value goes again after every welcome (a host killed
/// before it wrote the value down never took it); the log never goes back, the commitment never
/// changes, and the finished save holds the first welcome's commitment and the seat's value.
pub async fn resilient_seat(
    hosts: std::sync::Arc<Vec<String>>,
    first: usize,
    table: String,
    me: u8,
    seed: u64,
    cuts: std::sync::Arc<Cuts>,
) -> String {
    use grognard::net::client::{Client, Sit};
    use grognard::net::proto::ToSeat;
    use std::sync::atomic::Ordering;
    let (mut index, mut at, mut first_commitment, mut cut) = (0u64, first, None, None::<std::time::Instant>);
    loop {
        let url = format!("{}/{table}", hosts[at % hosts.len()]);
        let sit = Sit {
            seat: Some(me),
            token: Some(token_of(&table, me)),
            value: Some(value_of(&table, me)),
            public: true,
            since: index,
            ..Sit::default()
        };
        let Ok(mut c) = Client::sit(&url, &sit).await else {
            cut.get_or_insert_with(std::time::Instant::now);
            at += 1;
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            continue;
        };
        let commitment = c.commitment().expect("a welcome brings the commitment");
        assert_eq!(*first_commitment.get_or_insert(commitment), commitment, "{table}: the same dice secret throughout");
        while let Some(m) = c.recv().await {
            match m {
                ToSeat::Update(u) => {
                    if let Some(since) = cut.take() {
                        cuts.gaps.lock().unwrap().push(since.elapsed());
                    }
                    assert!(
                        u.index >= index,
                        "{table}: the log went back from {index} to {}: an action was lost",
                        u.index
                    );
                    cuts.actions.fetch_add(u.index - index, Ordering::Relaxed);
                    index = u.index;
                    if u.active == Some(me) && !u.over {
                        let k = grognard::net::sim::pick(seed, me, u.index, u.legal.len());
                        let _ = c.submit(u.index, u.legal[k].clone()).await;
                    }
                }
                ToSeat::Finished { save } => {
                    grognard::net::hosted::check_save_text(
                        &save,
                        first_commitment.as_ref(),
                        Some((me, value_of(&table, me))),
                    )
                    .expect("the save holds the first welcome's commitment and the seat's value");
                    return save;
                }
                // An action sent just before its host went away, taken after all: stale.
                ToSeat::Refused { message, .. } if message.contains("chosen at action") => {}
                // The table changing hosts: come back.
                ToSeat::Refused { message, .. } if message.contains("come back") => {}
                ToSeat::Refused { message, .. } => panic!("{table} seat {me}: {message}"),
                _ => {}
            }
        }
        cuts.reconnects.fetch_add(1, Ordering::Relaxed);
        cut.get_or_insert_with(std::time::Instant::now);
        at += 1;
    }
}

/// Checks a Battle of the Nations game played through a host by two seats choosing with `seed`:
/// both were sent the same finished save, it verifies, and it is the same game (chain and final
/// table) as played offline. The save.
pub fn check_hosted_botn(table: &str, a: &str, b: &str, seed: u64) -> grognard::net::hosted::HostedSave {
    assert_eq!(a, b, "{table}: both seats were sent the same finished save");
    let save: grognard::net::hosted::HostedSave = ron::from_str(a).unwrap();
    let verified = grognard::net::hosted::verify(&save.fair, new_table).expect("verifies");
    let alone = offline_botn(&save, seed);
    let heads = |l: &[grognard::net::chain::Link]| (l.len(), l.last().map(|l| l.hash));
    assert_eq!(heads(&alone.links), heads(&save.fair.links), "{table}: the same chain as the game played offline");
    assert_eq!(alone.table.digest(), verified.digest(), "{table}: the same final table");
    save
}
