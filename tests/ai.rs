//! The computer opponent: legal, sensible moves at every strength (places armies on missions,
//! allocates a fight's damage where it loses least), stronger levels winning more, every game
//! ending and replaying to the same digest.
mod common;
use common::*;
use grognard::engine::rng::TableRng;
use grognard::engine::rules::{Game, Mode};
use grognard::engine::seats::Viewer;
use grognard::engine::table::Act;
use grognard::games::botn::ai::{Player, choose};
use grognard::games::botn::data::{ActionCard, Side};
use grognard::games::botn::play_game;
use grognard::games::botn::state::HandCard;
use grognard::games::botn::{self, Action, Scenario};
use std::sync::Arc;

fn scenario() -> Arc<Scenario> {
    Arc::new(Scenario::load(&scenario_path()).expect("the shipped scenario loads"))
}

#[test]
fn every_level_plays_whole_games_from_either_side_and_they_replay() {
    // Play: a computer opponent for either side plays legal moves to the end of the game.
    let sc = scenario();
    // Expert is strong with a longer budget: the same player, ten times slower.
    for level in [Player::Beginner, Player::Normal, Player::Strong] {
        for (seed, players) in [(1, [level, Player::Random]), (2, [Player::Random, level])] {
            let t = play_game(sc.clone(), seed, players, 5000).expect("a complete game of legal actions");
            // The game ran to its end by the rules: past 19.10., every mission scored.
            assert!(t.game.is_over() && t.game.past_last_date());
            assert_eq!(t.game.results.len(), t.game.missions.len(), "every mission scored");
            let mut again = botn::table_on(sc.clone(), seed, Mode::Enforced);
            again.replay(t.records.iter().cloned()).expect("the log replays");
            assert_eq!(again.digest(), t.digest());
        }
    }
}

#[test]
fn stronger_levels_win_more_games_as_napoleon() {
    // A chosen strength: over the same 12 seeds against a random Schwarzenberg, the hard computer
    // wins more games than the random one, and the normal one more than the random one.
    let sc = scenario();
    let wins = |french: Player| {
        (1..=12)
            .filter(|&seed| {
                let t = play_game(sc.clone(), seed, [french, Player::Random], 5000).unwrap();
                t.game.winner() == Some(FRENCH)
            })
            .count()
    };
    let (random, normal, hard) = (wins(Player::Random), wins(Player::Normal), wins(Player::Strong));
    assert!(normal > random, "normal {normal} vs random {random}");
    assert!(hard > random, "hard {hard} vs random {random}");
}

#[test]
fn the_computer_places_its_army_on_a_mission_field() {
    // Sensible moves: with Ney's last two markers on a mission field and on another field, and a
    // terrain card for the other field, the computer clears that one so Ney stands on the mission.
    let mut t = after_draft(31);
    t.game.had_first_turn = [true, true];
    let ney = army(&t, "Ney");
    let mission = t.game.sc.missions[t.game.missions[0] as usize].field;
    let mission_terrain = t.game.sc.fields[mission.0 as usize].terrain;
    let other = (0..t.game.sc.fields.len() as u16)
        .map(grognard::engine::geometry::SpaceId)
        .find(|&f| f != mission && t.game.sc.fields[f.0 as usize].terrain != mission_terrain)
        .unwrap();
    let terrain = t.game.sc.fields[other.0 as usize].terrain;
    t.game.armies[ney as usize].card_played = true;
    let ney_markers: Vec<u8> =
        (0..t.game.markers.len() as u8).filter(|&m| t.game.markers[m as usize].army == ney).collect();
    t.game.markers[ney_markers[0] as usize].at = Some(mission);
    t.game.markers[ney_markers[1] as usize].at = Some(other);
    let card = (0..t.game.sc.action_cards.len() as u8)
        .find(|&c| t.game.sc.action_cards[c as usize] == ActionCard::Terrain(terrain))
        .expect("a terrain card for that field");
    t.game.draw_pile.retain(|&c| c != card);
    t.game.face_up.retain(|&c| c != card);
    t.game.hands[Side::French.index()] = vec![HandCard::Action(card)];
    let legal = legal(&t);
    assert!(legal.contains(&Action::PlayTerrainCard { card, marker: ney_markers[1] }));
    for level in [Player::Normal, Player::Strong] {
        let mut rng = TableRng::from_seed(3);
        let a = choose(|| t.game.observe(t.game.active_seat().map(Viewer::Seat).unwrap()), &legal, level, &mut rng);
        assert_eq!(a, Action::PlayTerrainCard { card, marker: ney_markers[1] }, "{level:?}");
    }
    t.submit(FRENCH, Act::Game(Action::PlayTerrainCard { card, marker: ney_markers[1] })).unwrap();
    assert_eq!(t.game.armies[ney as usize].at, Some(mission));
}

#[test]
fn the_computer_gives_a_fights_point_to_the_army_that_survives_it() {
    // Fight: the defender chooses which of his armies takes the point; the computer does not let
    // Poniatowski (strength 1) fall when Bertrand (3) can take it.
    let mut t = after_draft(32);
    let fields = layout(&t, 3, &[(0, 1), (0, 2)], &[(1, 2)]);
    let (yorck, poniatowski, bertrand) = (army(&t, "Yorck"), army(&t, "Poniatowski"), army(&t, "Bertrand"));
    place(&mut t, yorck, fields[0], 4);
    place(&mut t, poniatowski, fields[1], 1);
    place(&mut t, bertrand, fields[2], 3);
    last_french_action_at(&mut t, "16.10.");
    t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap();
    let legal = legal(&t);
    for level in [Player::Normal, Player::Strong] {
        let a = choose(
            || t.game.observe(t.game.active_seat().map(Viewer::Seat).unwrap()),
            &legal,
            level,
            &mut TableRng::from_seed(4),
        );
        assert_eq!(a, Action::AllocateHit { attacker: yorck, target: bertrand }, "{level:?}");
    }
}

#[test]
fn the_computer_places_its_army_where_the_coming_fight_beats_a_weak_enemy() {
    // Fights where it wins: Yorck's last two markers lie on a field touching Poniatowski (strength 1)
    // and on a field touching no army; before the fight of 16.10. Schwarzenberg's computer clears
    // the other marker so Yorck stands next to Poniatowski, who will fall.
    let mut t = after_draft(33);
    t.game.had_first_turn = [true, true];
    let mission_fields: Vec<_> = t.game.sc.missions.iter().map(|m| m.field).collect();
    let free = |f: &grognard::engine::geometry::SpaceId| !mission_fields.contains(f);
    // Fields: 0 Poniatowski, 1 next to him, 2 away from both; none of them a mission field.
    let (poni_at, near, far) = (0..t.game.sc.fields.len() as u16)
        .map(grognard::engine::geometry::SpaceId)
        .filter(free)
        .find_map(|p| {
            let near = t.game.sc.graph.neighbours(p).iter().copied().find(free)?;
            let far = (0..t.game.sc.fields.len() as u16).map(grognard::engine::geometry::SpaceId).find(|&f| {
                free(&f)
                    && f != p
                    && f != near
                    && !t.game.sc.graph.adjacent(f, p)
                    && t.game.sc.fields[f.0 as usize].terrain != t.game.sc.fields[near.0 as usize].terrain
            })?;
            Some((p, near, far))
        })
        .expect("such fields");
    let (poniatowski, yorck) = (army(&t, "Poniatowski"), army(&t, "Yorck"));
    place(&mut t, poniatowski, poni_at, 1);
    t.game.armies[yorck as usize].card_played = true;
    let markers: Vec<u8> =
        (0..t.game.markers.len() as u8).filter(|&m| t.game.markers[m as usize].army == yorck).collect();
    t.game.markers[markers[0] as usize].at = Some(near);
    t.game.markers[markers[1] as usize].at = Some(far);
    let terrain = t.game.sc.fields[far.0 as usize].terrain;
    let card = (0..t.game.sc.action_cards.len() as u8)
        .find(|&c| t.game.sc.action_cards[c as usize] == ActionCard::Terrain(terrain))
        .unwrap();
    t.game.draw_pile.retain(|&c| c != card);
    t.game.face_up.retain(|&c| c != card);
    t.game.hands[Side::Allied.index()] = vec![HandCard::Action(card)];
    t.game.active = Side::Allied;
    t.game.time = time_index(&t, "15.10.");
    let legal = legal(&t);
    let attack = Action::PlayTerrainCard { card, marker: markers[1] };
    assert!(legal.contains(&attack));
    for level in [Player::Normal, Player::Strong] {
        assert_eq!(
            choose(
                || t.game.observe(t.game.active_seat().map(Viewer::Seat).unwrap()),
                &legal,
                level,
                &mut TableRng::from_seed(5)
            ),
            attack,
            "{level:?}"
        );
    }
}
