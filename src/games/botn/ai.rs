//! Computer players for Battle of the Nations: a random player (for fuzzing and benchmarks) and a
//! simple greedy player that prefers actions placing its own armies on Napoléon's missions.
//! Both choose only from `legal_actions`, so they can never make an illegal move.

use super::actions::Action;
use super::state::Botn;
use super::state::seat_of;
use crate::engine::rng::TableRng;
use crate::engine::rules::Game;
use crate::engine::seats::Viewer;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    Random,
    Ai,
}

/// Picks an action for the active seat (`legal` must be the current legal list, non-empty).
pub fn choose(game: &Botn, legal: &[Action], player: Player, rng: &mut TableRng) -> Action {
    match player {
        Player::Random => legal[rng.below(legal.len())].clone(),
        Player::Ai => greedy(game, legal, rng),
    }
}

fn greedy(game: &Botn, legal: &[Action], rng: &mut TableRng) -> Action {
    let side = game.active;
    // Only the missions this seat may see: the Allied AI does not peek at hidden ones.
    let viewer = Viewer::Seat(seat_of(side));
    let mission_fields: Vec<_> =
        game.missions_as_seen(viewer).into_iter().flatten().map(|m| game.sc.missions[m as usize].field).collect();
    let mut best: Vec<&Action> = Vec::new();
    let mut best_score = i32::MIN;
    let mut events = Vec::new();
    for a in legal {
        // Look one action ahead on a copy: placements and victory points are what count.
        let mut next = game.clone();
        events.clear();
        let seat = next.active_seat().unwrap_or(seat_of(side));
        next.apply(seat, a, &mut events);
        let mut score = 4 * (next.vp[side.index()] as i32 - game.vp[side.index()] as i32);
        for (i, st) in next.armies.iter().enumerate() {
            if let Some(at) = st.at
                && game.armies[i].at.is_none()
                && mission_fields.contains(&at)
            {
                score += if game.army_side(i as u8) == side { 6 } else { -6 };
            }
        }
        if matches!(a, Action::LayOutArmyCard { .. }) {
            score += 2;
        }
        if matches!(a, Action::PlayTimeCard { .. }) {
            score -= 1;
        }
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(a);
        }
    }
    best[rng.below(best.len())].clone()
}
