//! The rules' invariants, written once for every game (issue 63): whatever game is registered is
//! held to them by being registered. At every decision of random games and of games the computer
//! plays: what the legal list offers `check` accepts, and what `check` accepts the list offers
//! (candidates: listed actions with a number changed, earlier actions, other seats); a refusal
//! leaves the table as it was; each seat's view and the spectator's are all a table dealt again
//! from them shows, and the seat to decide decides the same on it. A finished game lists no
//! decision and accepts none, and its save replays to the same digest.

use crate::engine::kit::{Kit, load_save};
use crate::engine::rng::TableRng;
use crate::engine::rules::Mode;
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::table::{Act, Table};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

/// How one run plays.
#[derive(Clone, Debug)]
pub struct Options {
    /// Games played.
    pub games: u64,
    /// Who decides for both seats: `random`, or a computer level (`beginner`, `normal`...).
    pub player: String,
    /// The most listed actions checked at a position (drawn at random): a hex game lists
    /// thousands of moves at every position.
    pub listed_checks: usize,
    /// A game stopped after this many actions is checked as far as it went (its end unchecked).
    pub max_actions: usize,
}

/// What a run checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub games: u64,
    /// Games played to their end.
    pub finished: u64,
    pub positions: u64,
    pub candidates: u64,
    pub refused: u64,
    /// Views dealt again and compared.
    pub views: u64,
}

/// Every variant of `v` with one number changed (to 0, one less, one or two more, 255, 65535),
/// one boolean flipped, one optional value removed, or a list one shorter or longer.
pub fn mutations(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    match v {
        Value::Number(n) => {
            let n = n.as_i64().unwrap_or(0);
            for m in [0, n - 1, n + 1, n + 2, 255, 65535] {
                if m != n && m >= 0 {
                    out.push(Value::from(m));
                }
            }
        }
        Value::Bool(b) => out.push(Value::Bool(!b)),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                for m in mutations(item) {
                    let mut c = items.clone();
                    c[i] = m;
                    out.push(Value::Array(c));
                }
            }
            if !items.is_empty() {
                out.push(Value::Array(items[..items.len() - 1].to_vec()));
                let mut longer = items.clone();
                longer.push(items[0].clone());
                out.push(Value::Array(longer));
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                for m in mutations(item) {
                    let mut c = map.clone();
                    c.insert(k.clone(), m);
                    out.push(Value::Object(c));
                }
                if !item.is_null() && !item.is_object() && !item.is_array() {
                    let mut c = map.clone();
                    c.insert(k.clone(), Value::Null);
                    out.push(Value::Object(c));
                }
            }
        }
        Value::Null | Value::String(_) => {}
    }
    out
}

/// `a` with one of its numbers changed, each way `mutations` knows that still reads as an action.
pub fn mutated<A: Serialize + DeserializeOwned>(a: &A) -> Vec<A> {
    let v = serde_json::to_value(a).expect("actions serialize");
    mutations(&v).into_iter().filter_map(|m| serde_json::from_value(m).ok()).collect()
}

/// Plays `o.games` games on scenario `path` from seed `seed` on, checking every invariant at
/// every decision: what was checked, or the first invariant broken (naming the seed and action).
pub fn check<G: Kit>(path: &Path, seed: u64, o: &Options) -> Result<Report, String> {
    let sc = Arc::new(G::load_scenario(path).map_err(|e| e.to_string())?);
    let player = if o.player == "random" { None } else { Some(crate::engine::kit::player_named::<G>(&o.player)?) };
    let mut n = Report::default();
    for game_seed in seed..seed + o.games {
        let at = |m: String| format!("{} {}, seed {game_seed}, {} player: {m}", G::ID, path.display(), o.player);
        let mut t = G::table_on(sc.clone(), game_seed, Mode::Enforced);
        let mut rng = TableRng::from_seed(game_seed ^ 0x0c0f_0a11);
        let mut history: Vec<G::Action> = Vec::new();
        let mut legal = Vec::new();
        n.games += 1;
        while !t.game.is_over() && t.records.len() < o.max_actions {
            position(&t, &mut legal, &mut history, &mut rng, o, &mut n).map_err(at)?;
            let seat = t.game.active_seat().expect("checked by `position`");
            let a = match player {
                None => legal[rng.below(legal.len())].clone(),
                Some(p) => t.game.choose(seat, &legal, p, &mut rng),
            };
            t.submit(seat, Act::Game(a.clone())).map_err(|e| at(format!("{a:?}, chosen, was refused: {e}")))?;
        }
        if t.game.is_over() {
            n.finished += 1;
            finished(&mut t, &history, &mut n).map_err(at)?;
        }
        // The save replays to the same table.
        let save = crate::engine::save::save_of(&t);
        let beside = path.with_file_name(format!("conformance-{game_seed}.save.ron"));
        let back = load_save::<G>(&save, &beside).map_err(|e| at(format!("its save does not load: {e}")))?;
        if back.digest() != t.digest() {
            return Err(at(format!("its save replays to another table after {} actions", t.records.len())));
        }
    }
    Ok(n)
}

/// The invariants of one position of a game not over.
fn position<G: Kit>(
    t: &Table<G>,
    legal: &mut Vec<G::Action>,
    history: &mut Vec<G::Action>,
    rng: &mut TableRng,
    o: &Options,
    n: &mut Report,
) -> Result<(), String> {
    let step = t.records.len();
    t.game.legal_actions(t.mode, legal);
    let Some(seat) = t.game.active_seat() else {
        return Err(format!("action {step}: a game not over with no seat to decide"));
    };
    if legal.is_empty() {
        return Err(format!("action {step}: a game not over lists nothing to do"));
    }
    n.positions += 1;
    let sample: Vec<&G::Action> = if legal.len() <= o.listed_checks {
        legal.iter().collect()
    } else {
        (0..o.listed_checks).map(|_| &legal[rng.below(legal.len())]).collect()
    };
    for a in sample {
        if let Err(e) = t.game.check(t.mode, seat, a) {
            return Err(format!("action {step}: listed but refused: {a:?} ({e})"));
        }
        if !history.contains(a) && history.len() < 4096 {
            history.push(a.clone());
        }
    }
    // Candidates: listed actions with a number changed, earlier actions, another seat's turn.
    let mut candidates: Vec<(SeatId, G::Action)> = Vec::new();
    for _ in 0..2 {
        let a = &legal[rng.below(legal.len())];
        candidates.extend(mutated(a).into_iter().map(|m| (seat, m)));
    }
    for _ in 0..4.min(history.len()) {
        candidates.push((seat, history[rng.below(history.len())].clone()));
    }
    let seats = t.game.seat_names().len() as u8;
    for other in (0..seats).map(SeatId).chain([SeatId(255)]).filter(|s| *s != seat) {
        candidates.push((other, legal[rng.below(legal.len())].clone()));
    }
    let mut untouched_checked = !n.positions.is_multiple_of(4);
    for (s, c) in candidates {
        n.candidates += 1;
        let accepted = t.game.check(t.mode, s, &c).is_ok();
        let listed = s == seat && legal.contains(&c);
        if accepted != listed {
            let (a, l) = (if accepted { "accepted" } else { "refused" }, if listed { "is" } else { "not" });
            return Err(format!("action {step}, seat {}: {c:?} is {a} but {l} listed", s.0));
        }
        if !accepted {
            n.refused += 1;
            if !untouched_checked {
                untouched_checked = true;
                refusal_changes_nothing(t, s, c)?;
            }
        }
    }
    // Every eight positions, each viewer's view: all that a table dealt again from it shows, and
    // the seat to decide lists the same there.
    if n.positions % 8 == 1 {
        for viewer in (0..seats).map(|k| Viewer::Seat(SeatId(k))).chain([Viewer::Spectator]) {
            n.views += 1;
            let view = t.game.observe(viewer);
            let dealt = G::from_view(&view, rng);
            if dealt.observe(viewer) != view {
                return Err(format!("action {step}: {viewer:?}'s view is not what a table dealt from it shows"));
            }
            if viewer == Viewer::Seat(seat) {
                let mut again = Vec::new();
                dealt.legal_actions(t.mode, &mut again);
                if &again != legal {
                    return Err(format!(
                        "action {step}: seat {} lists other actions on a table dealt again from its view: \
                         what it may do depends on what it cannot see",
                        seat.0
                    ));
                }
            }
        }
    }
    Ok(())
}

/// A refused submission leaves the table as it was.
fn refusal_changes_nothing<G: Kit>(t: &Table<G>, s: SeatId, c: G::Action) -> Result<(), String> {
    let mut probe = t.clone();
    let before = (probe.digest(), probe.records.len(), probe.entries.len());
    if probe.submit(s, Act::Game(c.clone())).is_ok() {
        return Err(format!("{c:?}: refused by the check, taken by the table"));
    }
    if (probe.digest(), probe.records.len(), probe.entries.len()) != before {
        return Err(format!("{c:?}: refused, yet it changed the table"));
    }
    Ok(())
}

/// A finished game lists no decision, names no seat to decide, and accepts nothing.
fn finished<G: Kit>(t: &mut Table<G>, history: &[G::Action], n: &mut Report) -> Result<(), String> {
    let mut legal = Vec::new();
    t.game.legal_actions(t.mode, &mut legal);
    if !legal.is_empty() {
        return Err(format!("the game is over yet lists {} actions: {:?}", legal.len(), &legal[..legal.len().min(3)]));
    }
    if let Some(s) = t.game.active_seat() {
        return Err(format!("the game is over yet seat {} is to decide", s.0));
    }
    let seats = t.game.seat_names().len() as u8;
    for a in history.iter().rev().take(64) {
        for s in (0..seats).map(SeatId) {
            n.candidates += 1;
            if t.game.check(t.mode, s, a).is_ok() {
                return Err(format!("the game is over yet seat {} may still {a:?}", s.0));
            }
            n.refused += 1;
        }
    }
    if let Some(a) = history.last() {
        refusal_changes_nothing(t, SeatId(0), a.clone())?;
    }
    Ok(())
}
