//! The Orders panel's *Hint*: what `strong` would do here, its three best candidates with their
//! estimated chance to win, the best one marked in the list of orders and its places ringed on the
//! table. It is off until the player turns it on, is never offered at a host's table, and is
//! worked out on a thread of its own from what the seat may see (`TableGame::hint`), as the computer decides.

use super::TableGame;
use super::lesson::{Coach, Coached, Lesson};
use super::session::Session;
use crate::engine::plugin::TableSet;
use crate::engine::rng::TableRng;
use crate::engine::search::Estimate;
use crate::engine::seats::SeatId;
use crate::engine::seen::Seen;
use bevy::prelude::*;
use bevy::window::RequestRedraw;

/// Whether the player asked for hints (the Orders panel's checkbox).
#[derive(Resource, Default)]
pub struct Hints {
    pub on: bool,
}

pub struct HintPlugin<G>(std::marker::PhantomData<G>);

impl<G> Default for HintPlugin<G> {
    fn default() -> Self {
        HintPlugin(std::marker::PhantomData)
    }
}

impl<G: TableGame> Plugin for HintPlugin<G> {
    fn build(&self, app: &mut App) {
        app.init_resource::<Hints>().add_systems(Update, hint::<G>.after(TableSet::Apply));
    }
}

/// A hint on its way: the position it is for (the log's length, the seat) and where it comes back.
pub struct Working<G: TableGame> {
    at: (usize, SeatId),
    answer: std::sync::mpsc::Receiver<Vec<Estimate<G::Action>>>,
}

/// What the coach box says of a search's candidates (None where it found none).
pub fn hint_word<G: TableGame>(game: &G, found: &[Estimate<G::Action>]) -> Option<Coach<G::Action>> {
    let best = found.first()?;
    let pct = |e: &Estimate<G::Action>| (e.win * 100.0).round() as i32;
    let others: Vec<String> =
        found.iter().skip(1).take(2).map(|e| format!("{} ({}%)", game.action_label(&e.action), pct(e))).collect();
    let why =
        if others.is_empty() { "No other order weighed.".to_string() } else { format!("Next: {}.", others.join("; ")) };
    Some(Coach::Step(Lesson {
        now: format!("Strong would play: {} ({}% to win)", game.action_label(&best.action), pct(best)),
        why,
        section: "the search's estimate, from what your seat sees".into(),
        at: game.places_of(&best.action),
        pick: Some(best.action.clone()),
    }))
}

#[allow(clippy::too_many_arguments)]
fn hint<G: TableGame>(
    seen: Res<Seen<G>>,
    session: Res<Session>,
    hints: Res<Hints>,
    remote: Option<Res<super::remote::Remote>>,
    mut coached: ResMut<Coached<G>>,
    mut working: Local<Option<Working<G>>>,
    // The position whose hint (or "thinking") the coach box holds, and whether it is the answer.
    mut shown: Local<(Option<(usize, SeatId)>, bool)>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if session.lesson.is_some() {
        return;
    }
    let Some(game) = seen.game() else { return };
    let seat = game.active_seat().filter(|&s| Some(s) == session.seat() && session.computer_at(s).is_none());
    let wanted = (G::HINTS && hints.on && remote.is_none()).then_some(()).and(seat).map(|s| (seen.log.len(), s));
    if wanted != shown.0 {
        if shown.0.is_some() {
            coached.0 = None;
        }
        *shown = (None, false);
        if working.as_ref().is_some_and(|w| Some(w.at) != wanted) {
            *working = None;
        }
    }
    let Some(at) = wanted else { return };
    if shown.1 {
        return;
    }
    if let Some(w) = working.as_ref() {
        redraw.write(RequestRedraw);
        match w.answer.try_recv() {
            Ok(found) => {
                coached.0 = Some(hint_word(game, &found).unwrap_or(Coach::Waiting("No hint here.".into())));
                *shown = (Some(at), true);
                *working = None;
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => {
                if shown.0.is_none() {
                    coached.0 = Some(Coach::Waiting("Hint: strong is thinking…".into()));
                    shown.0 = Some(at);
                }
            }
            Err(std::sync::mpsc::TryRecvError::Disconnected) => *working = None,
        }
        return;
    }
    let (tx, answer) = std::sync::mpsc::channel();
    let position = game.clone();
    // A stream of its own, from the position: the same hint each time for the same table. The
    // position is the table as the seat's eyes see it: the search reads nothing else.
    let mut rng = TableRng::from_seed(seen.salt ^ (at.0 as u64).wrapping_mul(0x9e37_79b9));
    std::thread::spawn(move || {
        // Strong's budget, and no longer than strong may think.
        crate::engine::search::cap_this_thread(Some(3_000));
        let _ = tx.send(position.hint(at.1, &mut rng));
    });
    *working = Some(Working { at, answer });
}
