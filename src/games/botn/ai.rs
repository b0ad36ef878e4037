//! Computer players for Battle of the Nations: a random player (for fuzzing and benchmarks) and a
//! computer opponent at three strengths. All choose only from `legal_actions`, so they can never
//! make an illegal move, and all decide on their seat's view (`Game::observe`): the Allied
//! player does not know Napoléon's hidden missions, and a look-ahead plays on a sample of what
//! the seat cannot see (the pile, the other hand, hidden missions), never on the real table.

use super::actions::Action;
use super::data::Side;
use super::observe::BotnView;
use super::state::{ArmyId, Botn, HandCard, Step, seat_of};
use crate::engine::geometry::SpaceId;
use crate::engine::rng::TableRng;
use crate::engine::rules::Game;
use crate::engine::search::{Budget, Searched};
use crate::engine::seats::SeatId;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    /// Any legal action, uniformly.
    Random,
    /// Half its moves judged by the position they lead to, half random (the old `easy`).
    #[value(alias = "easy")]
    Beginner,
    /// `strong` with a tenth of its budget (the old `normal` judged each action by the position
    /// it led to).
    #[value(alias = "ai")]
    Normal,
    /// Searches (`engine::search`): a tree of both seats' actions over many deals of what it
    /// cannot see (the old `hard` looked two of its own actions ahead).
    #[value(alias = "hard")]
    Strong,
    /// `strong` with ten times the budget.
    Expert,
}

/// The search's budget at each level: `normal` a tenth of `strong`, `expert` ten times.
pub const NORMAL: Budget = Budget::iterations(STRONG_ITERATIONS / 10, 0);
pub const STRONG: Budget = Budget::iterations(STRONG_ITERATIONS, 0);
pub const EXPERT: Budget = Budget::iterations(10 * STRONG_ITERATIONS, 0);
const STRONG_ITERATIONS: u32 = 2_000;

impl Player {
    pub const COMPUTER: [Player; 4] = [Player::Beginner, Player::Normal, Player::Strong, Player::Expert];

    pub fn label(self) -> &'static str {
        match self {
            Player::Random => "random",
            Player::Beginner => "beginner",
            Player::Normal => "normal",
            Player::Strong => "strong",
            Player::Expert => "expert",
        }
    }
}

/// Picks an action for the deciding seat from its view (`legal` must be the current legal list,
/// non-empty). The view is asked for only when the player judges positions.
pub fn choose(view: impl FnOnce() -> BotnView, legal: &[Action], player: Player, rng: &mut TableRng) -> Action {
    if legal.len() == 1 {
        return legal[0].clone();
    }
    match player {
        Player::Random => legal[rng.below(legal.len())].clone(),
        Player::Beginner if rng.below(2) == 0 => legal[rng.below(legal.len())].clone(),
        Player::Beginner => one_ply(&view(), legal, rng),
        Player::Normal | Player::Strong | Player::Expert => {
            let view = view();
            let seat = view.seat().expect("a seat decides");
            let budget = match player {
                Player::Normal => NORMAL,
                Player::Strong => STRONG,
                _ => EXPERT,
            };
            crate::engine::search::choose::<Botn>(&view, seat, legal, &budget, rng)
        }
    }
}

impl Searched for Botn {
    // Fitted on 200 beginner games (seeds 1000-1199; `examples/calibration.rs`,
    // `scripts/calibration.py`). Battle of the Nations (beginner game): the French won 12% of them;
    // Brier score on held-out games 0.186 → 0.117.
    const CALIBRATION: crate::engine::search::Platt = crate::engine::search::Platt { a: 0.372, b: -1.817 };
    fn evaluate(&self, seat: SeatId) -> f32 {
        // Both sides' judgement of the position, the French's minus the Allies': what one side
        // gains for moving the game on, the other gains too, and cancels.
        let french_margin = || {
            if self.step == Step::MissionDraft {
                return draft_value(self) / 4.0;
            }
            let known = all_targets(self);
            0.5 * (value(self, Side::French, &known) - value(self, Side::Allied, &known))
        };
        crate::engine::search::chance_of(self, seat, french_margin, EVALUATION_SCALE)
    }

    fn playout_action(&self, rng: &mut TableRng) -> Option<Action> {
        crate::engine::search::random_legal(self, rng)
    }
}

/// The points of judgement that make an even chance of winning go to about three in four.
const EVALUATION_SCALE: f32 = 4.0;

/// Every mission of a whole table (a determinized one): Napoléon's, known.
fn all_targets(game: &Botn) -> Vec<Target> {
    game.missions
        .iter()
        .map(|&m| {
            let d = &game.sc.missions[m as usize];
            Target { field: d.field, french: d.def.french as f32, allied: d.def.allied as f32, weight: 1.0 }
        })
        .collect()
}

/// A mission as the deciding seat knows it: its field, both sides' points, and how likely it is
/// to be one of Napoléon's (1 for known missions, less for a guess).
#[derive(Clone, Copy)]
struct Target {
    field: SpaceId,
    french: f32,
    allied: f32,
    weight: f32,
}

fn targets(view: &BotnView) -> Vec<Target> {
    let seen: Vec<_> = view.missions.iter().flatten().copied().collect();
    let hidden = view.missions.len() - seen.len();
    let mut out: Vec<Target> = seen
        .iter()
        .map(|&m| {
            let d = &view.sc.missions[m as usize];
            Target { field: d.field, french: d.def.french as f32, allied: d.def.allied as f32, weight: 1.0 }
        })
        .collect();
    if hidden > 0 {
        // Schwarzenberg guesses: every mission card not revealed might be one of the hidden ones.
        let unknown: Vec<_> = (0..view.sc.missions.len() as u8).filter(|m| !seen.contains(m)).collect();
        let weight = hidden as f32 / unknown.len().max(1) as f32;
        out.extend(unknown.iter().map(|&m| {
            let d = &view.sc.missions[m as usize];
            Target { field: d.field, french: d.def.french as f32, allied: d.def.allied as f32, weight }
        }));
    }
    out
}

/// Best action by the position it leads to, on one sample of what the seat cannot see.
fn one_ply(view: &BotnView, legal: &[Action], rng: &mut TableRng) -> Action {
    let side = view.side().unwrap_or(view.active);
    let known = targets(view);
    let game = &view.sample(rng);
    // One table kept for the positions judged and one list of events: each position is copied
    // into them rather than made anew.
    let (mut next, mut events) = (game.clone(), Vec::new());
    let scored: Vec<(f32, &Action)> = legal
        .iter()
        .map(|a| {
            after(&mut next, game, a, &mut events);
            (value(&next, side, &known), a)
        })
        .collect();
    let best = scored.iter().map(|s| s.0).fold(f32::MIN, f32::max);
    let ties: Vec<&Action> = scored.iter().filter(|s| s.0 >= best - 1e-4).map(|s| s.1).collect();
    ties[rng.below(ties.len())].clone()
}

/// `next` made the position after action `a` on `game` (its events, read by nobody, in `events`).
fn after(next: &mut Botn, game: &Botn, a: &Action, events: &mut Vec<super::rules::Event>) {
    next.copy_from(game);
    let seat = next.active_seat().unwrap_or(seat_of(game.active));
    // Only listed actions are looked at, so the check passes; it is what lets them be applied.
    let a =
        crate::engine::rules::checked(game, crate::engine::rules::Mode::Enforced, seat, a).expect("a listed action");
    events.clear();
    next.apply(seat, a, events);
}

/// Who holds what on the board, read once for one judgement of a position (`value` asks it of
/// every mission and every army, and the look-ahead judges hundreds of positions a decision:
/// asking the armies and markers each time was most of a decision).
struct Holding {
    /// The army on each field (the first by number, as `Botn::army_at`).
    army_on: smallvec::SmallVec<[Option<ArmyId>; 96]>,
    /// Each army's markers on the board.
    on_board: smallvec::SmallVec<[u8; 32]>,
    /// The fields with a marker of a French army down to two markers or fewer on the board.
    french_pending: smallvec::SmallVec<[bool; 96]>,
}

impl Holding {
    fn of(game: &Botn) -> Holding {
        let fields = game.sc.fields.len();
        let mut h = Holding {
            army_on: smallvec::smallvec![None; fields],
            on_board: smallvec::smallvec![0; game.armies.len()],
            french_pending: smallvec::smallvec![false; fields],
        };
        for (a, st) in game.armies.iter().enumerate() {
            if let Some(at) = st.at {
                h.army_on[at.0 as usize].get_or_insert(a as ArmyId);
            }
        }
        for m in &game.markers {
            if m.at.is_some() {
                h.on_board[m.army as usize] += 1;
            }
        }
        for m in &game.markers {
            if let Some(at) = m.at
                && game.army_side(m.army) == Side::French
                && h.on_board[m.army as usize] <= 2
            {
                h.french_pending[at.0 as usize] = true;
            }
        }
        h
    }

    /// `Botn::enemies_touching`, read from the holders.
    fn enemies_touching(&self, game: &Botn, army: ArmyId) -> smallvec::SmallVec<[ArmyId; 8]> {
        let Some(at) = game.armies[army as usize].at else { return smallvec::SmallVec::new() };
        let side = game.army_side(army);
        game.sc
            .graph
            .neighbours(at)
            .iter()
            .filter_map(|&f| self.army_on[f.0 as usize])
            .filter(|&a| game.army_side(a) != side)
            .collect()
    }
}

/// How good `game` is for `side`, from what `side` knows (`known` missions).
fn value(game: &Botn, side: Side, known: &[Target]) -> f32 {
    let me = side.index();
    let sign = |s: Side| if s == side { 1.0 } else { -1.0 };
    let mut v = game.vp[me] as f32 - game.vp[1 - me] as f32;
    if game.step == Step::GameOver {
        return v * 10.0;
    }
    if game.step == Step::MissionDraft {
        return draft_value(game);
    }
    let held = Holding::of(game);
    // Missions: who would take each if the game ended now.
    for t in known {
        let holder = held.army_on[t.field.0 as usize];
        let (french_wins, certainty) = match holder {
            Some(a) if game.army_side(a) == Side::French => (mission_holds(game, &held, a), 0.9),
            Some(_) => (false, 1.0),
            None => {
                // A French army about to be placed there counts for part of the mission.
                let pending = held.french_pending[t.field.0 as usize];
                (pending, if pending { 0.4 } else { 0.6 })
            }
        };
        let pts = if french_wins { t.french } else { t.allied };
        let winner = if french_wins { Side::French } else { Side::Allied };
        v += sign(winner) * pts * t.weight * certainty;
    }
    // Fights still to come: points dealt and taken, armies that would fall.
    if (game.fights_done as usize) < game.sc.time.iter().filter(|t| t.fight).count() {
        for a in 0..game.armies.len() as ArmyId {
            let touching = held.enemies_touching(game, a);
            if touching.is_empty() {
                continue;
            }
            let s = game.armies[a as usize].strength as f32;
            let loss = (touching.len() as f32).min(s);
            let falls = if touching.len() as f32 >= s { 2.0 + s } else { 0.0 };
            v -= sign(game.army_side(a)) * 0.6 * (loss + falls);
        }
    }
    // Progress: armies on the board, markers still to clear, army cards still in hand.
    for (i, st) in game.armies.iter().enumerate() {
        let s = game.army_side(i as ArmyId);
        if st.at.is_some() {
            v += sign(s) * 0.5;
        } else if st.eliminated {
            v -= sign(s) * 1.0;
        } else if st.card_played {
            v -= sign(s) * 0.3 * held.on_board[i] as f32;
        } else {
            v -= sign(s) * 1.5;
        }
    }
    // Moving the game on is worth a little to whoever moves it, so two computers never stall by
    // drawing and discarding for ever (the rules would allow it).
    v += 0.25 * game.time as f32;
    let hand = &game.hands[me];
    v += 0.15 * hand.len().min(8) as f32 + 0.3 * hand.iter().filter(|c| **c == HandCard::Scout).count() as f32;
    v
}

/// Whether the French army `a` on a mission field would hold it now: its value with its
/// supporters against the Allied armies touching it.
fn mission_holds(game: &Botn, held: &Holding, a: ArmyId) -> bool {
    let enemies = held.enemies_touching(game, a);
    let allied: i16 = enemies.iter().map(|&e| game.combat_value(e)).sum();
    let Some(at) = game.armies[a as usize].at else { return false };
    let support: i16 = game
        .sc
        .graph
        .neighbours(at)
        .iter()
        .filter_map(|&f| held.army_on[f.0 as usize])
        .filter(|&b| {
            game.army_side(b) == Side::French && held.enemies_touching(game, b).iter().any(|e| enemies.contains(e))
        })
        .map(|b| game.combat_value(b))
        .sum();
    game.combat_value(a) + support >= allied
}

/// Napoléon's missions are worth more when his own army cards reach their villages.
fn draft_value(game: &Botn) -> f32 {
    let mut v = 0.0;
    for &m in game.missions.iter().chain(&game.draft_pair) {
        let d = &game.sc.missions[m as usize];
        let reach = game.sc.armies.iter().any(|a| {
            a.def.side == Side::French && a.villages.iter().any(|&f| f == d.field || game.sc.graph.adjacent(f, d.field))
        });
        v += d.def.french as f32 * if reach { 1.0 } else { 0.4 };
    }
    if !game.draft_pair.is_empty() {
        v *= 0.5; // the pair's other card will leave the game
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Mode;
    use crate::games::botn::{data::Scenario, kit::play_game, table_on};
    use std::sync::Arc;

    /// Every position of two games of each scenario between two computers (`normal`): the
    /// positions the computer judges.
    fn positions() -> Vec<Botn> {
        let mut out = Vec::new();
        for name in ["beginner.ron", "advanced.ron"] {
            let path =
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-of-the-nations").join(name);
            let sc = Arc::new(Scenario::load(&path).expect("the shipped scenario loads"));
            for seed in 1..=2 {
                let game = play_game(sc.clone(), seed, [Player::Normal; 2], 10_000).expect("a game");
                let mut t = table_on(sc.clone(), seed, Mode::Enforced);
                for r in &game.records {
                    out.push(t.game.clone());
                    t.submit(r.seat, r.act.clone()).expect("the game replays");
                }
                out.push(t.game.clone());
            }
        }
        out
    }

    /// The computer judges a position from the board read once (`Holding`): the army on each
    /// field, each army's markers on the board, the fields a French army is about to take and
    /// the enemies touching each army are what the table's own questions answer, at every
    /// position of four games.
    #[test]
    fn computer_the_board_read_once_answers_as_the_tables_questions() {
        let (mut armies_seen, mut pending_seen) = (0, 0);
        for game in positions() {
            let held = Holding::of(&game);
            for f in 0..game.sc.fields.len() {
                let field = SpaceId(f as u16);
                assert_eq!(held.army_on[f], game.army_at(field));
                let pending = game.markers_at(field).any(|m| {
                    let army = game.markers[m as usize].army;
                    game.army_side(army) == Side::French && game.markers_on_board(army).count() <= 2
                });
                assert_eq!(held.french_pending[f], pending, "field {f}");
                pending_seen += usize::from(pending);
            }
            for a in 0..game.armies.len() as ArmyId {
                assert_eq!(held.on_board[a as usize] as usize, game.markers_on_board(a).count());
                assert_eq!(held.enemies_touching(&game, a).to_vec(), game.enemies_touching(a), "army {a}");
                armies_seen += usize::from(!game.enemies_touching(a).is_empty());
            }
        }
        assert!(armies_seen > 20 && pending_seen > 100, "{armies_seen} touching, {pending_seen} pending");
    }

    /// A table copied into another (`copy_from`, which keeps the other's vectors) is the table:
    /// the same text, field for field, from every seventh position of four games into the last.
    #[test]
    fn computer_a_table_copied_into_another_is_the_same_table() {
        let all = positions();
        let mut into = all[all.len() - 1].clone();
        for (i, game) in all.iter().enumerate().step_by(7) {
            into.copy_from(game);
            assert_eq!(crate::engine::digest::ron_text(&into), crate::engine::digest::ron_text(game), "position {i}");
            assert!(Arc::ptr_eq(&into.sc, &game.sc));
        }
    }
}
