//! Fair dice and the hash-chained log of a hosted table (issue 13, "Fair dice, verifiable" and
//! "The log is a hash chain"): whole games played through `net::hosted` verify from their record
//! once the host's secret is revealed; an edited, reordered or forged record does not; a refused
//! action changes nothing.

use grognard::engine::rng::TableRng;
use grognard::engine::rules::{Game, Mode};
use grognard::engine::table::{Act, Entry, Table};
use grognard::games::austerlitz::{self, Austerlitz, AzScenario};
use grognard::games::botn::{self, Botn};
use grognard::net::hosted::{FairRecord, Hosted, verify};
use grognard::net::{chain, fair};
use std::path::PathBuf;
use std::sync::Arc;

fn scenarios() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios")
}

fn austerlitz_table(seed: u64) -> Table<Austerlitz> {
    let sc = Arc::new(AzScenario::load(&scenarios().join("austerlitz/1-historical.ron")).expect("loads"));
    austerlitz::table_on(sc, seed)
}

fn botn_table(seed: u64) -> Table<Botn> {
    botn::new_table(&scenarios().join("battle-of-the-nations/beginner.ron"), seed, Mode::Enforced).expect("loads")
}

/// Plays random legal actions (each seat's own generator, not the table's) for `n` actions or
/// until the game ends.
fn play_for<G: Game>(h: &mut Hosted<G>, seed: u64, n: usize) {
    let mut players = TableRng::from_seed(seed);
    let mut legal = Vec::new();
    for _ in 0..n {
        let Some(seat) = h.table.game.active_seat() else { return };
        h.table.game.legal_actions(h.table.mode, &mut legal);
        let a = legal[players.below(legal.len())].clone();
        h.submit(seat, Act::Game(a)).expect("a legal action is accepted");
    }
}

/// Plays to the end.
fn play<G: Game>(h: &mut Hosted<G>, seed: u64, cap: usize) {
    play_for(h, seed, cap);
    assert!(h.table.game.is_over(), "no end in {cap} actions");
}

fn finished_austerlitz() -> (FairRecord, String) {
    let mut h = Hosted::start("table-1", [11; 32], vec![[1; 32], [2; 32]], austerlitz_table);
    play(&mut h, 5, 40_000);
    (h.record(), h.table.digest())
}

#[test]
fn fair_dice_a_finished_game_verifies_to_its_digest_from_the_revealed_secret() {
    let (rec, digest) = finished_austerlitz();
    assert!(rec.secret.is_some(), "revealed at the end");
    let table = verify(&rec, austerlitz_table).expect("verifies");
    assert_eq!(table.digest(), digest);
    // Battle of the Nations (hidden hands and a shuffled deck) too.
    let mut h = Hosted::start("table-2", [12; 32], vec![[3; 32], [4; 32]], botn_table);
    play(&mut h, 6, 40_000);
    let table = verify(&h.record(), botn_table).expect("verifies");
    assert_eq!(table.digest(), h.table.digest());
}

#[test]
fn fair_dice_no_secret_leaves_the_host_during_play() {
    let mut h = Hosted::start("table-3", [13; 32], vec![[5; 32], [6; 32]], austerlitz_table);
    play_for(&mut h, 7, 50);
    let rec = h.record();
    assert_eq!(rec.secret, None);
    let text = ron::to_string(&rec).unwrap();
    assert!(!text.contains(&chain::to_hex(&[13; 32])), "the secret is nowhere in the record");
    assert!(verify(&rec, austerlitz_table).unwrap_err().contains("not revealed"));
}

#[test]
fn the_log_is_a_hash_chain_an_edited_or_reordered_log_fails_at_the_edit() {
    let (rec, _) = finished_austerlitz();
    // The action at 40 replaced by the one after it.
    let mut edited = rec.clone();
    edited.links[40].act = edited.links[41].act.clone();
    let err = verify(&edited, austerlitz_table).unwrap_err();
    assert!(err.starts_with("action 40:") || err.starts_with("action 41:"), "{err}");
    let mut swapped = rec.clone();
    swapped.links.swap(60, 61);
    let err = verify(&swapped, austerlitz_table).unwrap_err();
    assert!(err.starts_with("action 60:"), "{err}");
    let mut dropped = rec.clone();
    dropped.links.remove(70);
    assert!(verify(&dropped, austerlitz_table).unwrap_err().starts_with("action 70:"));
}

#[test]
fn fair_dice_a_forged_secret_or_seat_value_is_caught() {
    let (rec, _) = finished_austerlitz();
    let mut forged = rec.clone();
    forged.secret = Some(chain::to_hex(&[99; 32]));
    assert!(verify(&forged, austerlitz_table).unwrap_err().contains("commitment"));
    // Another seat value gives other dice (and another set-up): the recorded chain no longer holds.
    let mut other = rec.clone();
    other.contributions[1] = chain::to_hex(&[7; 32]);
    assert!(verify(&other, austerlitz_table).is_err());
}

#[test]
fn fair_dice_the_rolls_follow_the_key_not_the_seed_of_a_table() {
    // The same actions under two keys: the first roll (Davout's in turn 1, or a shot) differs in
    // at least one of ten games, while each game under one key replays exactly.
    let mut differ = 0;
    for g in 0..10u8 {
        let mut a = Hosted::start("t", [g; 32], vec![[1; 32], [2; 32]], austerlitz_table);
        play(&mut a, u64::from(g), 40_000);
        let rec = a.record();
        let mut b = Hosted::start("t", [g.wrapping_add(100); 32], vec![[1; 32], [2; 32]], austerlitz_table);
        let mut same = true;
        for l in &rec.links {
            let act = ron::from_str(&l.act).unwrap();
            if b.submit(l.seat, act).is_err() {
                same = false;
                break;
            }
        }
        if !same || b.table.digest() != a.table.digest() {
            differ += 1;
        }
    }
    assert!(differ >= 9, "only {differ} of 10 games changed with the key");
}

#[test]
fn a_refused_action_changes_neither_the_table_nor_the_chain_nor_the_dice() {
    let mut h = Hosted::start("table-4", [14; 32], vec![[8; 32], [9; 32]], austerlitz_table);
    play_for(&mut h, 8, 30);
    let (digest, head, n) = (h.table.digest(), h.head(), h.links.len());
    let seat = h.table.game.active_seat().unwrap();
    let other = grognard::engine::seats::SeatId(1 - seat.0);
    let mut legal = Vec::new();
    h.table.game.legal_actions(Mode::Enforced, &mut legal);
    let err = h.submit(other, Act::Game(legal[0].clone())).unwrap_err();
    assert!(err.rule().is_some(), "names its rule: {err}");
    assert_eq!((h.table.digest(), h.head(), h.links.len()), (digest, head, n));
}

#[test]
fn fair_dice_each_actions_dice_come_from_the_key_its_index_and_the_chains_head() {
    let (secret, contributions) = ([15; 32], vec![[1; 32], [2; 32]]);
    let mut h = Hosted::start("table-5", secret, contributions.clone(), austerlitz_table);
    play_for(&mut h, 9, 25);
    let seat = h.table.game.active_seat().unwrap();
    let (index, head) = (h.links.len() as u64, h.head());
    h.submit(seat, Act::RollDice(10)).unwrap();
    let Some(Entry::Roll(roll)) = h.table.entries.last() else { panic!("a roll in the log") };
    let values = &roll.dice;
    let key = fair::table_key("table-5", &secret, &contributions);
    let mut g = fair::generator("table-5", &key, index, &head);
    let expected: Vec<u8> = (0..10).map(|_| g.d6()).collect();
    assert_eq!(values, &expected);
}

#[test]
fn verify_on_the_command_line_recomputes_a_hosted_save_and_names_an_edit() {
    let mut h = Hosted::start("table-6", [16; 32], vec![[1; 32], [2; 32]], austerlitz_table);
    play(&mut h, 10, 40_000);
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("hosted.ron");
    std::fs::write(&path, ron::ser::to_string_pretty(&h.save(), Default::default()).unwrap()).unwrap();
    let run = |p: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_grognard")).arg("verify").arg(p).output().unwrap()
    };
    let out = run(&path);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text} {}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(&h.table.digest()), "{text}");
    // One action's text edited: refused, naming the file and the action.
    let mut save = h.save();
    save.fair.links.swap(30, 31);
    let edited = tmp.path().join("edited.ron");
    std::fs::write(&edited, ron::ser::to_string_pretty(&save, Default::default()).unwrap()).unwrap();
    let out = run(&edited);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("edited.ron") && err.contains("action 30"), "{err}");
}
