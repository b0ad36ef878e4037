//! The hands of a person playing the French seat of a Leipzig 1813 game in the window, for
//! `scripts/window-game.py`: reads the window's autosave journal, decides as the
//! beginner would on the French seat's view — but only among what a person does with the mouse
//! (a counter dragged to a lit hex, a button of the Orders list, a target clicked and the Combat
//! panel's attack as it first offers it, a resolution, a lit retreat) — and prints the gesture
//! in window pixels for the default camera at 1280×800. It never acts on the table itself.
//!
//! Usage: `cargo run --example leipzig_hands -- JOURNAL [LABEL...]` (LABELs: gestures the window
//! did not take, to leave aside). Prints one line: `over`, `wait`,
//! `order K N LABEL` (the K-th of the N buttons of the Orders list), `drag HX HY X1 Y1 X2 Y2`
//! (rest on the stack at HX,HY, pick the counter at X1,Y1, drop it at X2,Y2), `click X Y`,
//! or `declare X Y` (click the target, then the panel's Declare button).

use grognard::engine::journal::Journal;
use grognard::engine::rng::TableRng;
use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::{SeatId, Viewer};
use grognard::games::leipzig::actions::Action;
use grognard::games::leipzig::ai::{LzPlayer, choose};
use grognard::games::leipzig::data::{Hex, Side};
use grognard::games::leipzig::rules::supply::supply_near;
use grognard::games::leipzig::state::Leipzig;
use std::path::PathBuf;

#[path = "common/projection.rs"]
mod projection;
use projection::{V3, View};

const HEX: f32 = 0.5;
const THICK: f32 = 0.05;

/// A table point in window pixels, through Leipzig's home view.
fn screen(p: V3) -> (i32, i32) {
    View { focus: [0.0, 0.0, 0.6], distance: 27.0, pitch: 1.35 }.screen(p)
}

/// A hex's centre on the table (as the view's MapGeometry places it).
fn world(g: &Leipzig, h: Hex) -> V3 {
    let b = &g.sc.board;
    let radius = HEX / 3f32.sqrt();
    let width = (b.columns as f32 * 1.5 + 0.5) * radius;
    let depth = (b.rows as f32 + 0.5) * HEX;
    let (c, r) = (h.0 as usize % b.columns, h.0 as usize / b.columns);
    let x = radius + c as f32 * 1.5 * radius;
    let z = HEX / 2.0 + r as f32 * HEX + if c % 2 == 1 { HEX / 2.0 } else { 0.0 };
    [x - width / 2.0, 0.0, z - depth / 2.0]
}

/// Where a counter lies on its hex, stacked or spread (the view's place_counters).
fn counter_points(g: &Leipzig, u: u16) -> ((i32, i32), (i32, i32)) {
    let h = g.hex_of(u).expect("on the map");
    let mut list: Vec<u16> = g.at(h).collect();
    list.sort_by_key(|&x| (!g.is_combat(x), x));
    let n = list.len();
    let c = world(g, h);
    let top = n - 1;
    let stacked = |k: usize| {
        screen([c[0] + 0.03 * k as f32, c[1] + THICK / 2.0 + k as f32 * (THICK + 0.004), c[2] - 0.03 * k as f32])
    };
    if n == 1 {
        return (stacked(0), stacked(0));
    }
    let k = list.iter().position(|&x| x == u).expect("in its stack");
    let a = k as f32 / n as f32 * std::f32::consts::TAU;
    let r = 0.28 + 0.04 * n as f32;
    (stacked(top), screen([c[0] + r * a.cos(), c[1] + 0.35, c[2] + r * a.sin()]))
}

/// The one move a drop on each hex makes (the view's counter_targets): the first listed, or the
/// march with a supply unit where there is one.
fn drop_moves(g: &Leipzig, legal: &[Action]) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::new();
    for a in legal {
        if let Action::Move { unit, to, supply, .. } = a {
            match out.iter_mut().find(|x| matches!(x, Action::Move { unit: u2, to: t2, .. } if u2 == unit && t2 == to))
            {
                Some(slot) if supply.is_some() => *slot = a.clone(),
                Some(_) => {}
                None => out.push(a.clone()),
            }
        }
    }
    let _ = g;
    out
}

/// The attack the Combat panel first offers on a target: from the first hex that may attack it,
/// every ready combat unit there with its leaders, the first supply unit near.
fn panel_attack(g: &Leipzig, legal: &[Action], target: Hex) -> Option<Action> {
    let from = *Action::attack_froms(legal, target).first()?;
    let fortress = g.sc.board.is_fortress(from);
    let mut units: Vec<u16> = g.at(from).filter(|&u| g.attack_ready(u) && g.is_combat(u)).collect();
    if !fortress {
        units.extend(g.at(from).filter(|&u| g.attack_ready(u) && g.is_leader(u)));
    }
    let supply = if fortress { None } else { supply_near(g, g.side, from).first().copied() };
    let a = Action::Declare { from, units, target, supply };
    legal.contains(&a).then_some(a)
}

fn main() {
    let path = PathBuf::from(std::env::args().nth(1).expect("the journal's path"));
    let save = Journal::read::<Action>(&path).unwrap_or_else(|e| panic!("{e}"));
    let table = grognard::games::leipzig::load_save(&save, &path).unwrap_or_else(|e| panic!("{e}"));
    let g = &table.game;
    if g.is_over() {
        println!("over");
        return;
    }
    if g.deciding() != Some(Side::French) {
        println!("wait");
        return;
    }
    let mut legal = Vec::new();
    g.legal_actions(Mode::Enforced, &mut legal);
    // What a person's hands reach: the Orders list (where "bring the rest in" and "deploy the
    // rest" stand for the single entries), drops, lit hexes, the panel's attack.
    let mut reach: Vec<Action> = legal.iter().filter(|a| !a.on_map()).cloned().collect();
    reach.extend(drop_moves(g, &legal));
    reach.extend(legal.iter().filter(|a| matches!(a, Action::RetreatBefore { .. } | Action::Retreat { .. })).cloned());
    let mut targets: Vec<Hex> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Declare { target, .. } => Some(*target),
            _ => None,
        })
        .collect();
    targets.sort_unstable();
    targets.dedup();
    reach.extend(targets.into_iter().filter_map(|t| panel_attack(g, &legal, t)));
    // What the hands tried and the window did not take (a counter hidden under another stack's
    // spread, say): a person would do something else first.
    let skip: Vec<String> = std::env::args().skip(2).collect();
    // A counter the hands could not pick up twice (`unit=N`) is left where it stands.
    let skipped = |a: &Action| {
        skip.contains(&g.action_label(a))
            || matches!(a, Action::Move { unit, .. } | Action::RetreatBefore { unit, .. }
                if skip.contains(&format!("unit={unit}")))
    };
    if reach.iter().any(|a| !skipped(a)) {
        reach.retain(|a| !skipped(a));
    }
    let mut rng = TableRng::from_seed(table.records.len() as u64);
    let a = choose(|| g.observe(Viewer::Seat(SeatId(0))), &reach, LzPlayer::Beginner, &mut rng);
    let orders: Vec<&Action> = legal.iter().filter(|x| !x.on_map()).collect();
    match &a {
        _ if !a.on_map() => {
            let k = orders.iter().position(|x| **x == a).expect("listed");
            println!("order {k} {} {}", orders.len(), g.action_label(&a));
        }
        Action::Move { unit, to, .. } | Action::RetreatBefore { unit, to } => {
            let (hover, pick) = counter_points(g, *unit);
            let d = screen(world(g, *to));
            let (x, y, l) = (d.0, d.1, g.action_label(&a));
            println!("drag {} {} {} {} {x} {y} unit={unit} {l}", hover.0, hover.1, pick.0, pick.1);
        }
        Action::Retreat { to } => {
            let p = screen(world(g, *to));
            println!("click {} {} {}", p.0, p.1, g.action_label(&a));
        }
        Action::Declare { target, .. } => {
            let p = screen(world(g, *target));
            println!("declare {} {} {}", p.0, p.1, g.action_label(&a));
        }
        other => panic!("no gesture for {other:?}"),
    }
}
