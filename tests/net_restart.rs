//! Play across machines (issue 13): the host killed with SIGKILL at random moments of many games
//! and restarted on its data folder. Every seat comes back with its token and the last index it
//! saw; no accepted action is ever lost (no seat sees the log go back), and every game finishes
//! as the same game played offline (same chain, same digest) and verifies.

mod common;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::Duration;

fn scenario() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-of-the-nations/beginner.ron")
}

/// Starts `grognard host` on its data folder; the child and its port.
fn start_host(data: &Path, port: u16) -> (Child, u16) {
    let args = [OsString::from("--port"), port.to_string().into(), "--data".into(), data.into(), scenario().into()];
    let (child, at) = common::grognard_host(&args);
    (child, at.rsplit(':').next().unwrap().parse().unwrap())
}

#[test]
fn a_host_killed_at_random_moments_restarts_with_every_accepted_action() {
    let data = std::env::temp_dir().join(format!("grognard-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let (mut child, port) = start_host(&data, 0);
    let tables: Vec<String> = (0..16).map(|k| format!("k{k}")).collect();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let mut kills = 0;
    let hosts = std::sync::Arc::new(vec![format!("ws://127.0.0.1:{port}")]);
    let cuts = std::sync::Arc::new(common::Cuts::default());
    let results = runtime.block_on(async {
        let mut seats = Vec::new();
        for (k, t) in tables.iter().enumerate() {
            for me in 0..2 {
                seats.push(tokio::spawn(common::resilient_seat(
                    hosts.clone(),
                    0,
                    t.clone(),
                    me,
                    k as u64,
                    cuts.clone(),
                )));
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
    let reconnects = cuts.reconnects.load(std::sync::atomic::Ordering::Relaxed) as u32;
    assert!(reconnects >= kills, "every kill dropped the seats: {reconnects} reconnections for {kills} kills");
    for (k, t) in tables.iter().enumerate() {
        let (a, b) = (&results[2 * k], &results[2 * k + 1]);
        common::check_hosted_botn(t, a, b, k as u64);
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
