//! The hands of a person playing the French at Austerlitz in the window (see
//! `scripts/window-game.py`): reads the window's autosave journal, decides as the beginner would
//! on the French view — but only among what a person does with the mouse and the keys: a counter
//! dragged to a lit space and turned in the hand with Q/E, a counter held and F pressed (a
//! square), a command dragged in step 4, a button of the Orders list (the set-up, guns' shots,
//! attacks and charges, reactions, retreats, the ends of steps) — and prints the gesture in
//! window pixels for the default camera at 1280×800. It never acts on the table itself.
//!
//! `cargo run --example austerlitz_hands -- JOURNAL [LABEL...]` (LABELs: gestures the window did
//! not take twice, left aside; `unit=N` leaves a counter where it stands). Prints one line:
//! `over`, `wait`, `order K N LABEL` (the K-th of the N buttons of the Orders list),
//! `drag HX HY X1 Y1 X2 Y2 unit=N turn=T LABEL` (rest on the stack at HX,HY, pick the counter at
//! X1,Y1, turn it T eighths — E for each one clockwise, Q back — and drop it at X2,Y2), or
//! `square X Y unit=N LABEL` (pick the counter up, press F, put it back).

use grognard::engine::journal::Journal;
use grognard::engine::rng::TableRng;
use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::{SeatId, Viewer};
use grognard::games::austerlitz::actions::Action;
use grognard::games::austerlitz::ai::{AzPlayer, choose};
use grognard::games::austerlitz::data::Cell;
use grognard::games::austerlitz::state::Austerlitz;
use grognard::games::austerlitz::{self, Side};
use std::path::PathBuf;

#[path = "common/projection.rs"]
mod projection;
use projection::{V3, View};

/// The view's PITCH (centre to centre) and the counters' thickness.
const PITCH: f32 = 0.6;
const THICK: f32 = 0.05;

/// A table point in window pixels, through Austerlitz's home view.
fn screen(p: V3) -> (i32, i32) {
    View { focus: [0.0, 0.0, 0.5], distance: 16.5, pitch: 1.2 }.screen(p)
}

/// A space's centre on the table (the view's BoardGeometry::world).
fn world(g: &Austerlitz, (x, y): Cell) -> V3 {
    let grid = &g.sc.board.grid;
    let (width, depth) = (grid.width as f32 * PITCH, grid.height as f32 * PITCH);
    [(x as f32 + 0.5) * PITCH - width / 2.0, 0.0, depth / 2.0 - (y as f32 + 0.5) * PITCH]
}

/// Whether a point of the window is clear of the panels at their default places (the Orders list
/// at the top left, the turn track at the top, the log at the bottom right): a person does not
/// reach under a panel.
fn clear((x, y): (i32, i32)) -> bool {
    !((x < 350 && y < 300) || ((465..815).contains(&x) && y < 125) || (x > 945 && y > 480))
}

/// Where the hand takes a unit (or, `command`, a command) up: the top of its stack, or the corner
/// of a unit that only a command (smaller) lies on. None where another unit covers it.
fn pick(g: &Austerlitz, c: Cell, unit: Option<usize>, command: Option<usize>) -> Option<(i32, i32)> {
    // The view's order in a space: units (infantry before artillery), then commands.
    let mut units = g.units_at(c);
    units.sort_by_key(|&u| (g.kind(u).is_artillery(), u));
    let k = match (unit, command) {
        (Some(u), _) => units.iter().position(|&x| x == u)?,
        (_, Some(_)) => units.len(),
        _ => return None,
    };
    let above_units = units.len().saturating_sub(k + 1);
    let command_above = unit.is_some() && g.command_at(c).is_some();
    let centre = world(g, c);
    let lift = THICK / 2.0 + k as f32 * (THICK + 0.006) + THICK / 2.0;
    let off = 0.05 * k as f32;
    let p = match (above_units, command_above) {
        (0, false) => screen([centre[0] + off, lift, centre[2] + off]),
        // The corner a command (0.3 wide against the unit's 0.42, shifted 0.05) leaves bare.
        (0, true) => screen([centre[0] + off - 0.16, lift, centre[2] + off - 0.16]),
        _ => return None,
    };
    clear(p).then_some(p)
}

fn main() {
    let path = PathBuf::from(std::env::args().nth(1).expect("the journal's path"));
    let save = Journal::read::<Action>(&path).unwrap_or_else(|e| panic!("{e}"));
    let table = austerlitz::load_save(&save, &path).unwrap_or_else(|e| panic!("{e}"));
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
    let listed = |a: &Action| {
        !matches!(
            a,
            Action::Move { .. }
                | Action::Deploy { .. }
                | Action::PlaceCommand { .. }
                | Action::MoveCommand { .. }
                | Action::Square { .. }
        )
    };
    let orders: Vec<Action> = legal.iter().filter(|a| listed(a)).cloned().collect();
    // The gesture for an action, if the hands can make it.
    let gesture = |a: &Action| -> Option<String> {
        let label = g.action_label(a);
        match a {
            _ if listed(a) => {
                let k = orders.iter().position(|x| x == a)?;
                Some(format!("order {k} {} {label}", orders.len()))
            }
            Action::Move { unit, to, facing } => {
                let u = *unit as usize;
                let from = g.units[u].at?;
                let p = pick(g, from, Some(u), None)?;
                let d = screen(world(g, *to));
                if !clear(d) {
                    return None;
                }
                let t = (facing.index() as i32 - g.units[u].facing.index() as i32).rem_euclid(8);
                let t = if t > 4 { t - 8 } else { t };
                Some(format!("drag {} {} {} {} {} {} unit={unit} turn={t} {label}", p.0, p.1, p.0, p.1, d.0, d.1))
            }
            Action::MoveCommand { command, to } => {
                let from = g.commands[*command as usize].at?;
                let p = pick(g, from, None, Some(*command as usize))?;
                let d = screen(world(g, *to));
                if !clear(d) {
                    return None;
                }
                Some(format!("drag {} {} {} {} {} {} command={command} turn=0 {label}", p.0, p.1, p.0, p.1, d.0, d.1))
            }
            Action::Square { unit } => {
                let u = *unit as usize;
                let p = pick(g, g.units[u].at?, Some(u), None)?;
                Some(format!("square {} {} unit={unit} {label}", p.0, p.1))
            }
            _ => None,
        }
    };
    // What the hands tried and the window did not take twice: a person would do something else.
    let skip: Vec<String> = std::env::args().skip(2).collect();
    let skipped = |a: &Action| {
        skip.contains(&g.action_label(a))
            || matches!(a, Action::Move { unit, .. } | Action::Square { unit } if skip.contains(&format!("unit={unit}")))
            || matches!(a, Action::MoveCommand { command, .. } if skip.contains(&format!("command={command}")))
    };
    let mut reach: Vec<Action> = legal.iter().filter(|a| gesture(a).is_some()).cloned().collect();
    if reach.iter().any(|a| !skipped(a)) {
        reach.retain(|a| !skipped(a));
    }
    let mut rng = TableRng::from_seed(table.records.len() as u64);
    let a = choose(&g.observe(Viewer::Seat(SeatId(0))), &reach, AzPlayer::Beginner, &mut rng);
    println!("{}", gesture(&a).expect("a gesture"));
}
