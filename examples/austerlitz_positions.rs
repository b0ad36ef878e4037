//! Finds positions worth a picture in a game of the computer against itself and writes each as a
//! save: a French gun with a target in step 1, a French charge that may be declared, a reaction
//! waiting, and (`handover`) the Allied attack that is about to give the French a reaction (for
//! the hot-seat hand-over). Prints, for each, the save's path and the space to look at.
//! `cargo run --example austerlitz_positions -- OUT_DIR [SEED]`

use grognard::engine::rules::Game;
use grognard::engine::seats::Viewer;
use grognard::engine::table::{Act, Table};
use grognard::games::austerlitz::actions::Action;
use grognard::games::austerlitz::ai::{self, AzPlayer};
use grognard::games::austerlitz::state::{Austerlitz, Pending, Step};
use grognard::games::austerlitz::{self, AzScenario, Side};
use std::path::PathBuf;
use std::sync::Arc;

fn write(t: &Table<Austerlitz>, dir: &std::path::Path, name: &str, look: (i32, i32)) {
    let path = dir.join(format!("{name}.ron"));
    austerlitz::save_of(t).write(&path).unwrap();
    println!("{name} {} {} {}", path.display(), look.0, look.1);
}

fn main() {
    let dir = PathBuf::from(std::env::args().nth(1).expect("an output folder"));
    let seed: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    std::fs::create_dir_all(&dir).unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/austerlitz/1-historical.ron");
    let sc = Arc::new(AzScenario::load(&path).unwrap());
    let mut t = austerlitz::table_on(sc, seed);
    let mut rng = grognard::engine::rng::TableRng::from_seed(seed);
    let (mut gun, mut charge, mut reaction, mut handover) = (false, false, false, false);
    let mut legal = Vec::new();
    while !(t.game.is_over() || gun && charge && reaction && handover) {
        let g = &t.game;
        g.legal_actions(t.mode, &mut legal);
        let french = g.deciding() == Some(Side::French);
        if french
            && !gun
            && g.step == Step::Fire
            && g.pending.is_empty()
            && let Some(Action::Fire { gun: u, .. }) =
                legal.iter().find(|a| matches!(a, Action::Fire { battery: false, .. }))
        {
            write(&t, &dir, "gun", g.units[*u as usize].at.unwrap());
            gun = true;
        }
        if french
            && !charge
            && g.step == Step::Move
            && g.pending.is_empty()
            && let Some(Action::Attack { target, .. }) =
                legal.iter().find(|a| matches!(a, Action::Attack { charge: true, .. }))
        {
            write(&t, &dir, "charge", *target);
            charge = true;
        }
        if french
            && !reaction
            && matches!(g.pending.last(), Some(Pending::AttackReactions { .. } | Pending::OpportunityFire { .. }))
        {
            let at = match g.pending.last() {
                Some(Pending::AttackReactions { attack }) => attack.target,
                Some(Pending::OpportunityFire { at, .. }) => g.units[*at as usize].at.unwrap(),
                _ => unreachable!(),
            };
            write(&t, &dir, "reaction", at);
            reaction = true;
        }
        let seat = g.active_seat().unwrap();
        let a = ai::choose(&g.observe(Viewer::Seat(seat)), &legal, AzPlayer::Beginner, &mut rng);
        let before = t.clone();
        t.submit(seat, Act::Game(a.clone())).unwrap();
        if !handover
            && before.game.deciding() == Some(Side::Allied)
            && t.game.deciding() == Some(Side::French)
            && let Action::Attack { target, .. } = &a
            && matches!(t.game.pending.last(), Some(Pending::AttackReactions { .. }))
        {
            write(&before, &dir, "handover", *target);
            println!("  the Allies' next action: {a:?}");
            handover = true;
        }
    }
}
