//! Play across machines (issue 13): the host killed with SIGKILL at random moments of many games
//! and restarted on its data folder. Every seat comes back with its token and the last index it
//! saw; no accepted action is ever lost (no seat sees the log go back), and every game finishes
//! as the same game played offline (same chain, same digest) and verifies.

mod common;
use grognard::engine::rules::Mode;
use grognard::engine::table::Table;
use grognard::games::botn::{self, Botn};
use grognard::net::chain;
use grognard::net::client::{Client, Sit};
use grognard::net::hosted::{HostedSave, verify};
use grognard::net::proto::ToSeat;
use grognard::net::sim::pick;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::Duration;

fn scenario() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-of-the-nations/beginner.ron")
}

fn botn_table(seed: u64) -> Table<Botn> {
    botn::new_table(&scenario(), seed, Mode::Enforced).unwrap()
}

/// Starts `grognard host` on its data folder; the child and its port.
fn start_host(data: &Path, port: u16) -> (Child, u16) {
    let args = [OsString::from("--port"), port.to_string().into(), "--data".into(), data.into(), scenario().into()];
    let (child, at) = common::grognard_host(&args);
    (child, at.rsplit(':').next().unwrap().parse().unwrap())
}

fn value(table: &str, seat: u8) -> chain::Hash {
    chain::hash_parts(&[table.as_bytes(), &[seat]])
}

/// A seat that keeps coming back until its game is over: the finished save, and how often it
/// had to reconnect. Its token and value are its own from the start; the value goes again after
/// every welcome (a host killed before it wrote the value down never took it), and the finished
/// save is checked against the commitment of the first welcome and the seat's own value.
async fn resilient_seat(port: u16, table: String, me: u8, seed: u64) -> (String, u32) {
    let url = format!("ws://127.0.0.1:{port}/{table}");
    let token = chain::hash_parts(&[b"token", table.as_bytes(), &[me]]);
    let (mut seen, mut reconnects, mut first_commitment) = (0u64, 0, None);
    loop {
        let sit = Sit {
            seat: Some(me),
            token: Some(token),
            value: Some(value(&table, me)),
            public: true,
            since: seen,
            ..Sit::default()
        };
        let Ok(mut c) = Client::sit(&url, &sit).await else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        let commitment = c.commitment().expect("a welcome brings the commitment");
        assert_eq!(
            *first_commitment.get_or_insert(commitment),
            commitment,
            "{table}: the same commitment after a restart"
        );
        while let Some(m) = c.recv().await {
            match m {
                ToSeat::Update(u) => {
                    assert!(
                        u.index >= seen,
                        "{table}: the log went back from {seen} to {}: an action was lost",
                        u.index
                    );
                    seen = u.index;
                    if u.active == Some(me) && !u.over {
                        let k = pick(seed, me, u.index, u.legal.len());
                        let _ = c.submit(u.index, u.legal[k].clone()).await;
                    }
                }
                ToSeat::Finished { save } => {
                    grognard::net::hosted::check_save_text(
                        &save,
                        first_commitment.as_ref(),
                        Some((me, value(&table, me))),
                    )
                    .expect("the save holds the first welcome's commitment and the seat's value");
                    return (save, reconnects);
                }
                // An action sent just before the host stopped and taken after all: stale.
                ToSeat::Refused { message, .. } if message.contains("chosen at action") => {}
                ToSeat::Refused { message, .. } => panic!("{table} seat {me}: {message}"),
                _ => {}
            }
        }
        reconnects += 1;
    }
}

#[test]
fn a_host_killed_at_random_moments_restarts_with_every_accepted_action() {
    let data = std::env::temp_dir().join(format!("grognard-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let (mut child, port) = start_host(&data, 0);
    let tables: Vec<String> = (0..16).map(|k| format!("k{k}")).collect();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let mut kills = 0;
    let results = runtime.block_on(async {
        let mut seats = Vec::new();
        for (k, t) in tables.iter().enumerate() {
            for me in 0..2 {
                seats.push(tokio::spawn(resilient_seat(port, t.clone(), me, k as u64)));
            }
        }
        let mut rng = grognard::engine::rng::TableRng::from_seed(13);
        while !seats.iter().all(|s| s.is_finished()) {
            tokio::time::sleep(Duration::from_millis(20 + rng.below(150) as u64)).await;
            if seats.iter().all(|s| s.is_finished()) {
                break;
            }
            child.kill().unwrap();
            child.wait().unwrap();
            kills += 1;
            child = start_host(&data, port).0;
        }
        let mut out = Vec::new();
        for s in seats {
            out.push(s.await.unwrap());
        }
        out
    });
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(kills >= 5, "the host was killed {kills} times: too few to mean anything");
    let reconnects: u32 = results.iter().map(|r| r.1).sum();
    assert!(reconnects >= kills, "every kill dropped the seats: {reconnects} reconnections for {kills} kills");
    for (k, t) in tables.iter().enumerate() {
        let (a, b) = (&results[2 * k].0, &results[2 * k + 1].0);
        assert_eq!(a, b, "{t}: both seats were sent the same finished save");
        let save: HostedSave = ron::from_str(a).unwrap();
        let verified = verify(&save.fair, botn_table).expect("verifies");
        let alone = common::offline_botn(&save, k as u64);
        let heads = |l: &[grognard::net::chain::Link]| (l.len(), l.last().map(|l| l.hash));
        assert_eq!(heads(&alone.links), heads(&save.fair.links), "{t}: the same chain as the game played offline");
        assert_eq!(alone.table.digest(), verified.digest(), "{t}: the same final table");
        // The host's own copy of the finished save, written beside its log.
        assert!(data.join(format!("{t}.save.ron")).exists());
        // The store and the save hold the secret and every seat's value and token: the owner's only.
        #[cfg(unix)]
        for file in ["grognard.sqlite".to_string(), format!("{t}.save.ron")] {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(data.join(&file)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{file}");
        }
    }
    eprintln!("{kills} kills, {reconnects} reconnections, 16 games finished");
    let _ = std::fs::remove_dir_all(&data);
}
