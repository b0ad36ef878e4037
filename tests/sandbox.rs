//! The sandbox of every game, from the kit (`engine::sandbox`; issue 31, step 4): any piece put on
//! a place, turned over and taken off by hand, each move logged, undone and saved like an order;
//! a table whose rules are enforced refuses a hand; a sandbox goes back to the rules only from a
//! position they accept; and random sandbox games, hand moves mixed with orders, keep the rules
//! sound (every listed order accepted, every fitting hand move accepted, no panic).
use grognard::engine::kit::Kit;
use grognard::engine::rng::TableRng;
use grognard::engine::rules::{Game, Mode};
use grognard::engine::sandbox::{HandMove, HandPiece, SANDBOX_RULE, fits};
use grognard::engine::save::save_of;
use grognard::engine::seats::{SeatId, Viewer};
use grognard::engine::table::{Act, Entry, Table, TableError};
use grognard::games::austerlitz::Austerlitz;
use grognard::games::austerlitz::data::Terrain;
use grognard::games::botn::Botn;
use grognard::games::leipzig::Leipzig;
use grognard::games::vg::Vg;
use std::sync::Arc;

fn table<G: Kit>(seed: u64, mode: Mode) -> Table<G> {
    let file = grognard::engine::scenario::scenarios_root().join(G::ID).join(G::DEFAULT_SCENARIO);
    G::table_on(Arc::new(G::load_scenario(&file).unwrap()), seed, mode)
}

fn seat<G: Game>(t: &Table<G>) -> SeatId {
    t.game.active_seat().expect("a seat to play")
}

fn pieces<G: Game>(t: &Table<G>) -> Vec<HandPiece> {
    G::hand_pieces(&t.game.observe(Viewer::Seat(seat(t))))
}

/// A place of `piece`'s other than where it lies.
fn elsewhere(piece: &HandPiece) -> u32 {
    piece.goes.clone().find(|&p| Some(p) != piece.at).expect("somewhere else to go")
}

/// Puts, turns and takes off a piece of `G`'s by hand: each move shows in the pieces, is logged
/// in words naming the piece and the place, is undone to the same digest, and replays from the
/// save.
fn hand_moves_of<G: Kit>() {
    let mut t = table::<G>(3, Mode::Sandbox);
    let s = seat(&t);
    let before = t.digest();
    let all = pieces(&t);
    let (p, piece) = all.iter().enumerate().find(|(_, x)| x.goes.len() > 1).expect("a piece that moves");
    let on = elsewhere(piece);
    t.submit(s, Act::Hand(HandMove::Put { piece: p as u32, on })).unwrap();
    assert_eq!(pieces(&t)[p].at, Some(on), "{}: the piece lies where it was put", G::NAME);
    let Some(Entry::Hand { .. }) = t.entries.last() else { panic!("{}: the move is logged", G::NAME) };
    let line = t.game.entry_text(t.entries.last().unwrap(), Viewer::Seat(s));
    let place = &t.game.hand_places()[on as usize];
    assert!(line.contains(&piece.name) && line.contains(place.as_str()), "{}: {line}", G::NAME);
    assert!(line.contains("by hand"), "{line}");
    t.undo().unwrap();
    assert_eq!(t.digest(), before, "{}: undo takes the move back", G::NAME);

    t.submit(s, Act::Hand(HandMove::Put { piece: p as u32, on })).unwrap();
    if let Some((f, x)) = pieces(&t).iter().enumerate().find(|(_, x)| x.flipped.is_some()) {
        t.submit(s, Act::Hand(HandMove::Flip { piece: f as u32 })).unwrap();
        assert_eq!(pieces(&t)[f].flipped, x.flipped.map(|v| !v), "{}: turned over", G::NAME);
    }
    let (r, _) =
        pieces(&t).into_iter().enumerate().find(|(_, x)| x.removable && x.at.is_some()).expect("a piece on the table");
    t.submit(s, Act::Hand(HandMove::Remove { piece: r as u32 })).unwrap();
    assert_eq!(pieces(&t)[r].at, None, "{}: taken off", G::NAME);

    let save = save_of(&t);
    assert_eq!(save.mode, Mode::Sandbox);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sandbox.ron");
    save.write(&path).unwrap();
    let back = grognard::engine::kit::load_save::<G>(&save, &path).unwrap();
    assert_eq!(back.digest(), t.digest(), "{}: the save replays the hand moves", G::NAME);
}

#[test]
fn every_games_pieces_are_put_turned_and_taken_off_by_hand_logged_undone_and_saved() {
    hand_moves_of::<Botn>();
    hand_moves_of::<Leipzig>();
    hand_moves_of::<Austerlitz>();
    hand_moves_of::<Vg>();
}

/// A hand at a table whose rules are enforced is refused, naming the sandbox's rule, and the
/// table is untouched; so is a hand move that does not fit, and the other seat's hand.
fn enforced_refuses<G: Kit>() {
    let mut t = table::<G>(3, Mode::Enforced);
    let s = seat(&t);
    let before = t.digest();
    let piece = &pieces(&t)[0];
    let mv = HandMove::Put { piece: 0, on: elsewhere(piece) };
    let e = t.submit(s, Act::Hand(mv.clone())).unwrap_err();
    assert_eq!(e.rule(), Some(SANDBOX_RULE), "{}", G::NAME);
    assert!(e.to_string().contains("enforced"), "{e}");
    assert_eq!((t.digest(), t.records.len()), (before, 0));

    let mut t = table::<G>(3, Mode::Sandbox);
    let before = t.digest();
    let other = SeatId(1 - s.0);
    let e = t.submit(other, Act::Hand(mv)).unwrap_err();
    assert!(e.to_string().contains("whose decision"), "{}: {e}", G::NAME);
    let n = pieces(&t).len() as u32;
    let e = t.submit(s, Act::Hand(HandMove::Flip { piece: n })).unwrap_err();
    assert!(matches!(e, TableError::Hand(_)), "{}: {e}", G::NAME);
    let places = t.game.hand_places().len() as u32;
    let e = t.submit(s, Act::Hand(HandMove::Put { piece: 0, on: places })).unwrap_err();
    assert!(e.to_string().contains("cannot lie"), "{}: {e}", G::NAME);
    assert_eq!((t.digest(), t.records.len()), (before, 0), "{}: untouched", G::NAME);
}

#[test]
fn a_hand_at_an_enforced_table_names_the_sandbox_rule_and_leaves_it_untouched() {
    enforced_refuses::<Botn>();
    enforced_refuses::<Leipzig>();
    enforced_refuses::<Austerlitz>();
    enforced_refuses::<Vg>();
}

/// Goes back to the rules: refused (naming `section`) after `break_it`, accepted once `mend`
/// sets the position right; then enforced: a hand is refused, the save begins as a
/// sandbox and replays to an enforced table, and the way back is never undone.
fn back_to_rules<G: Kit>(seed: u64, break_it: impl Fn(&mut Table<G>), section: &str, mend: impl Fn(&mut Table<G>)) {
    let mut t = table::<G>(seed, Mode::Sandbox);
    break_it(&mut t);
    let s = seat(&t);
    let before = t.digest();
    let e = t.submit(s, Act::Hand(HandMove::Enforce)).unwrap_err();
    assert_eq!(e.rule(), Some(section), "{}: {e}", G::NAME);
    assert_eq!((t.digest(), t.mode), (before, Mode::Sandbox));
    mend(&mut t);
    let s = seat(&t);
    t.submit(s, Act::Hand(HandMove::Enforce)).unwrap();
    assert_eq!(t.mode, Mode::Enforced);
    assert!(!t.can_undo(), "{}: back to the rules is never undone", G::NAME);
    let piece = &pieces(&t)[0];
    let e = t.submit(s, Act::Hand(HandMove::Put { piece: 0, on: elsewhere(piece) })).unwrap_err();
    assert_eq!(e.rule(), Some(SANDBOX_RULE));
    let save = save_of(&t);
    assert_eq!(save.mode, Mode::Sandbox, "a save keeps the mode its log began in");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("back.ron");
    save.write(&path).unwrap();
    let back = grognard::engine::kit::load_save::<G>(&save, &path).unwrap();
    assert_eq!((back.mode, back.digest()), (Mode::Enforced, t.digest()), "{}", G::NAME);
}

/// Takes back every move since the last commit point.
fn undo_all<G: Game>(t: &mut Table<G>) {
    while t.can_undo() {
        t.undo().unwrap();
    }
}

/// Puts piece `a` on the place where piece `b` lies.
fn onto<G: Game>(t: &mut Table<G>, a: usize, b: usize) {
    let s = seat(t);
    let on = pieces(t)[b].at.expect("b on the table");
    t.submit(s, Act::Hand(HandMove::Put { piece: a as u32, on })).unwrap();
}

#[test]
fn a_sandbox_goes_back_to_the_rules_only_from_a_position_they_accept() {
    // Battle of the Nations: "only one Army may be placed on each field". The armies are placed in
    // the preparation; by hand, two on one field.
    back_to_rules::<Botn>(
        3,
        |t| {
            let s = seat(t);
            let fields = t.game.sc.fields.len() as u32;
            let on = (0..fields).next().unwrap();
            t.submit(s, Act::Hand(HandMove::Put { piece: 0, on })).unwrap();
            t.submit(s, Act::Hand(HandMove::Put { piece: 1, on })).unwrap();
        },
        "Further rules: only one Army may be placed on each field",
        undo_all,
    );
    // Leipzig: a French counter put on an Allied one's hex (Stacking and Unit Breakdown).
    back_to_rules::<Leipzig>(
        3,
        |t| {
            let all = pieces(t);
            let french = all.iter().position(|p| p.seat == Some(SeatId(0)) && p.at.is_some());
            let allied = all.iter().position(|p| p.seat == Some(SeatId(1)) && p.at.is_some());
            match (french, allied) {
                (Some(f), Some(a)) => onto(t, f, a),
                // Before deployment: two counters of one side on one hex, both off the table.
                _ => {
                    let s = seat(t);
                    t.submit(s, Act::Hand(HandMove::Put { piece: 0, on: 100 })).unwrap();
                    let other = all.iter().position(|p| p.seat != all[0].seat).unwrap();
                    t.submit(s, Act::Hand(HandMove::Put { piece: other as u32, on: 100 })).unwrap();
                }
            }
        },
        "Stacking and Unit Breakdown",
        undo_all,
    );
    // Austerlitz: two infantry units on one space (Set-up: Stacking).
    back_to_rules::<Austerlitz>(
        3,
        |t| {
            let s = seat(t);
            let g = &t.game;
            let inf: Vec<usize> = (0..g.units.len()).filter(|&u| g.kind(u).is_infantry()).take(2).collect();
            let board = &g.sc.board;
            let on = board.cells().position(|c| board.space(c).terrain == Terrain::Clear).unwrap() as u32;
            t.submit(s, Act::Hand(HandMove::Put { piece: inf[0] as u32, on })).unwrap();
            t.submit(s, Act::Hand(HandMove::Put { piece: inf[1] as u32, on })).unwrap();
        },
        "Set-up: Stacking",
        undo_all,
    );
    // Victory & Glory: a decision waiting (a card's effects under way) after random orders; the
    // table goes back to the rules once the decisions are answered.
    back_to_rules::<Vg>(
        3,
        |t| play_until(t, |g| !g.pending.is_empty()),
        "VII. The Game & Rounds",
        |t| play_until(t, |g| g.pending.is_empty() && g.tasks.is_empty()),
    );
}

/// Plays random listed orders until `done`.
fn play_until<G: Game>(t: &mut Table<G>, done: impl Fn(&G) -> bool) {
    let mut rng = TableRng::from_seed(5);
    for _ in 0..2000 {
        if done(&t.game) {
            return;
        }
        let mut legal = Vec::new();
        t.game.legal_actions(t.mode, &mut legal);
        let a = legal[rng.below(legal.len())].clone();
        t.submit(seat(t), Act::Game(a)).unwrap();
    }
    panic!("never came to the position looked for");
}

/// Random sandbox games of `G`: at each step a random hand move (a third of the time) or a random
/// listed order. Every hand move `fits` accepts is accepted and one it refuses is refused; every
/// listed order is accepted; nothing panics. Returns the hand moves accepted.
fn random_sandbox<G: Kit>(games: u64, steps: usize) -> usize {
    let mut accepted = 0;
    for seed in 0..games {
        let mut t = table::<G>(seed, Mode::Sandbox);
        let mut rng = TableRng::from_seed(seed);
        let places = t.game.hand_places().len() as u32;
        for _ in 0..steps {
            let Some(s) = t.game.active_seat() else { break };
            let mut legal = Vec::new();
            t.game.legal_actions(Mode::Sandbox, &mut legal);
            if legal.is_empty() || rng.below(3) == 0 {
                let all = pieces(&t);
                let p = rng.below(all.len()) as u32;
                let piece = &all[p as usize];
                let mv = match rng.below(5) {
                    0 => HandMove::Flip { piece: p },
                    1 => HandMove::Remove { piece: p },
                    2 => HandMove::Turn { piece: p, clockwise: rng.below(2) == 0 },
                    _ => HandMove::Put { piece: p, on: piece.goes.start + rng.below(piece.goes.len().max(1)) as u32 },
                };
                let fit = fits(&mv, &all, places as usize);
                let before = t.digest();
                match t.submit(s, Act::Hand(mv.clone())) {
                    Ok(()) => {
                        assert!(fit.is_ok(), "{} seed {seed}: {mv:?} accepted though it does not fit", G::NAME);
                        accepted += 1
                    }
                    Err(e) => {
                        assert!(fit.is_err(), "{} seed {seed}: {mv:?} fits but was refused: {e}", G::NAME);
                        assert_eq!(t.digest(), before);
                    }
                }
                continue;
            }
            for a in legal.iter().take(20) {
                assert!(t.game.check(Mode::Sandbox, s, a).is_ok(), "{} seed {seed}: listed {a:?} refused", G::NAME);
            }
            let a = legal[rng.below(legal.len())].clone();
            t.submit(s, Act::Game(a)).unwrap();
        }
    }
    accepted
}

#[test]
fn random_sandbox_games_keep_every_game_sound() {
    assert!(random_sandbox::<Botn>(6, 300) > 100);
    assert!(random_sandbox::<Leipzig>(4, 300) > 100);
    assert!(random_sandbox::<Austerlitz>(4, 300) > 100);
    assert!(random_sandbox::<Vg>(6, 300) > 100);
}

#[test]
fn a_counter_dropped_on_the_map_in_a_sandbox_lies_where_it_was_dropped() {
    // The views send these for a drop the rules do not offer (Leipzig's and Austerlitz's drag):
    // the counter's piece and the hex's place must be the ones the pieces list names.
    let mut t = table::<Leipzig>(3, Mode::Sandbox);
    let hex = grognard::games::leipzig::data::Hex(777);
    t.submit(seat(&t), Act::Hand(Leipzig::hand_put(5, hex))).unwrap();
    assert_eq!(t.game.hex_of(5), Some(hex));
    assert_eq!(pieces(&t)[5].at, Some(777));

    let mut t = table::<Austerlitz>(3, Mode::Sandbox);
    let board = &t.game.sc.board;
    let cells: Vec<_> = board.cells().filter(|&c| board.space(c).terrain == Terrain::Clear).take(2).collect();
    let (unit, command) = (t.game.hand_put(false, 3, cells[0]), t.game.hand_put(true, 0, cells[1]));
    let s = seat(&t);
    t.submit(s, Act::Hand(unit)).unwrap();
    t.submit(s, Act::Hand(command)).unwrap();
    assert_eq!((t.game.units[3].at, t.game.commands[0].at), (Some(cells[0]), Some(cells[1])));
}

#[test]
fn victory_and_glorys_markers_and_cubes_are_counted_out_by_hand() {
    let mut t = table::<Vg>(3, Mode::Sandbox);
    let s = seat(&t);
    let all = pieces(&t);
    let places = t.game.hand_places();
    let find = |name: &str| all.iter().position(|p| p.name == name).unwrap_or_else(|| panic!("{name}"));
    let on = |p: &HandPiece, label: &str| p.goes.clone().find(|&o| places[o as usize] == label).unwrap();
    let cubes = find("Britain's cubes in Prussia");
    t.submit(s, Act::Hand(HandMove::Put { piece: cubes as u32, on: on(&all[cubes], "Cubes 5") })).unwrap();
    let prussia = t.game.sc.nations.iter().position(|n| n.name == "Prussia").unwrap();
    assert_eq!(t.game.influence[prussia], [t.game.influence[prussia][0], 5]);
    let vp = find("France's victory points marker");
    t.submit(s, Act::Hand(HandMove::Put { piece: vp as u32, on: on(&all[vp], "Victory points 7") })).unwrap();
    assert_eq!(t.game.vp[0], 7);
    let line = t.game.entry_text(t.entries.last().unwrap(), Viewer::Seat(s));
    assert!(line.ends_with("puts France's victory points marker on Victory points 7 by hand"), "{line}");
}

#[test]
fn an_austerlitz_unit_turns_its_front_by_hand_an_eighth_on_an_octagon_a_quarter_on_a_square() {
    use grognard::engine::geometry::CellShape;
    let mut t = table::<Austerlitz>(3, Mode::Sandbox);
    let s = seat(&t);
    let board = &t.game.sc.board;
    let clear =
        |shape| board.cells().find(|&c| board.space(c).terrain == Terrain::Clear && board.shape(c) == shape).unwrap();
    let (octagon, square) = (clear(CellShape::Octagon), clear(CellShape::Square));
    let e = t.submit(s, Act::Hand(HandMove::Turn { piece: 0, clockwise: true })).unwrap_err();
    assert!(e.to_string().contains("off the table"), "{e}");
    t.submit(s, Act::Hand(t.game.hand_put(false, 0, octagon))).unwrap();
    let f = t.game.units[0].facing;
    t.submit(s, Act::Hand(HandMove::Turn { piece: 0, clockwise: true })).unwrap();
    assert_eq!(t.game.units[0].facing, grognard::games::austerlitz::state::rotate(f, 1));
    t.submit(s, Act::Hand(t.game.hand_put(false, 0, square))).unwrap();
    let f = t.game.units[0].facing;
    assert!(!f.is_diagonal(), "on a square it faces a side");
    t.submit(s, Act::Hand(HandMove::Turn { piece: 0, clockwise: false })).unwrap();
    assert_eq!(t.game.units[0].facing, grognard::games::austerlitz::state::rotate(f, -2));
    assert!(!t.game.units[0].facing.is_diagonal());
    // A commander has no front; Leipzig's counters neither.
    let commander = t.game.units.len() as u32;
    let e = t.submit(s, Act::Hand(HandMove::Turn { piece: commander, clockwise: true })).unwrap_err();
    assert!(e.to_string().contains("no front"), "{e}");
}
