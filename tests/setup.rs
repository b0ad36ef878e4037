//! The table after the rulebook's "Preparation" section, card by card and piece by piece.
mod common;
use common::*;
use grognard::engine::rules::Game;
use grognard::engine::seats::Viewer;
use grognard::engine::table::Act;
use grognard::games::botn::Action;
use grognard::games::botn::data::{ActionCard, District, Side};
use grognard::games::botn::state::{HandCard, Step};

#[test]
fn preparation_board_and_armies() {
    let t = new_table(1);
    let g = &t.game;
    // Content: the board is divided into 47 fields; 19 armies, 8 French and 11 Allied.
    assert_eq!(g.sc.fields.len(), 47);
    assert_eq!(g.sc.armies.len(), 19);
    assert_eq!(g.sc.armies.iter().filter(|a| a.def.side == Side::French).count(), 8);
    assert_eq!(g.sc.armies.iter().filter(|a| a.def.side == Side::Allied).count(), 11);
    // Troop Marker: 3 per army, 2 for Napoléon, Ney, Schwarzenberg and Bernadotte.
    for (i, a) in g.sc.armies.iter().enumerate() {
        let n = g.markers.iter().filter(|m| m.army as usize == i).count();
        let two = ["Napoléon", "Ney", "Schwarzenberg", "Bernadotte"].contains(&a.def.name.as_str());
        assert_eq!(n, if two { 2 } else { 3 }, "{}", a.def.name);
    }
    assert_eq!(g.markers.len(), 53);
    // "Each player takes his armies with the corresponding Troop Markers": nothing on the board yet.
    assert!(g.markers.iter().all(|m| m.at.is_none() && !m.removed));
    assert!(g.armies.iter().all(|a| a.at.is_none() && !a.card_played));
    // Napoléon and Schwarzenberg lead all three unit types.
    for name in ["Napoléon", "Schwarzenberg"] {
        assert_eq!(g.sc.armies[army(&t, name) as usize].def.unit, grognard::games::botn::data::UnitType::All);
    }
    // Errata: card 6 (Friedrich) is infantry, card 17 (Marmont) has three circles.
    let friedrich = &g.sc.armies[army(&t, "Friedrich") as usize].def;
    assert_eq!((friedrich.card, friedrich.unit), (6, grognard::games::botn::data::UnitType::Infantry));
    let marmont = &g.sc.armies[army(&t, "Marmont") as usize].def;
    assert_eq!((marmont.card, marmont.markers), (17, 3));
    // The army card example: Langeron's villages.
    let langeron: Vec<&str> =
        g.sc.armies[army(&t, "Langeron") as usize].villages.iter().map(|v| g.sc.field_name(*v)).collect();
    assert_eq!(langeron, ["Breitenfeld", "Plösen", "Klein-Wiederitzsch"]);
}

#[test]
fn preparation_cards_tracks_and_start_player() {
    let t = new_table(2);
    let g = &t.game;
    // 40 action cards: 4 in each hand, 4 face up, the rest the hidden draw pile.
    assert_eq!(g.sc.action_cards.len(), 40);
    assert_eq!(g.hands[0].len(), 4);
    assert_eq!(g.hands[1].len(), 4);
    assert_eq!(g.face_up.len(), 4);
    assert_eq!(g.draw_pile.len(), 40 - 12);
    assert!(g.discard.is_empty() && g.out_of_game.is_empty());
    let mut all: Vec<u8> = g
        .hands
        .iter()
        .flatten()
        .map(|c| match c {
            HandCard::Action(id) => *id,
            HandCard::Scout => panic!("no scout card in a starting hand"),
        })
        .chain(g.face_up.iter().copied())
        .chain(g.draw_pile.iter().copied())
        .collect();
    all.sort();
    assert_eq!(all, (0..40).collect::<Vec<u8>>(), "every action card is somewhere, once");
    assert!(g.sc.action_cards.iter().any(|c| matches!(c, ActionCard::Terrain(_))));
    assert!(g.sc.action_cards.iter().any(|c| matches!(c, ActionCard::Move(_))));
    assert!(g.sc.action_cards.contains(&ActionCard::Time));
    // Scout cards and -1 chips face up next to the board.
    assert_eq!(g.scout_supply, 6);
    assert_eq!(g.minus_one_supply, 6);
    // Victory point indicators below the first field; time indicator at the pocket watch.
    assert_eq!(g.vp, [0, 0]);
    assert_eq!(g.time, 0);
    assert_eq!(g.time_label(), "Watch");
    assert_eq!(g.sc.time[1].date.as_deref(), Some("14.10."));
    // Napoléon is starting player; he first chooses his missions.
    assert_eq!(g.active, Side::French);
    assert_eq!(g.step, Step::MissionDraft);
    assert_eq!(g.active_seat(), Some(FRENCH));
}

#[test]
fn preparation_mission_cards() {
    let mut t = new_table(3);
    // Napoléon receives one card from each district.
    let districts = |t: &grognard::engine::table::Table<grognard::games::botn::Botn>| {
        let mut d: Vec<District> =
            t.game.missions.iter().map(|&m| t.game.sc.missions[m as usize].def.district).collect();
        d.sort();
        d
    };
    assert_eq!(t.game.missions.len(), 5);
    let mut all = District::ALL.to_vec();
    all.sort();
    assert_eq!(districts(&t), all);
    // The Allied seat may not choose for him.
    let refused = t.submit(ALLIED, Act::Game(Action::DraftDistrict(District::East))).unwrap_err();
    assert!(refused.to_string().contains("Napoléon"), "{refused}");
    // A second card from two districts of his choice; he keeps one of each pair.
    let before: Vec<u8> = t.game.missions.clone();
    t.submit(FRENCH, Act::Game(Action::DraftDistrict(District::West))).unwrap();
    assert_eq!(t.game.draft_pair.len(), 2);
    let pair = t.game.draft_pair.clone();
    assert!(before.contains(&pair[0]) && !before.contains(&pair[1]));
    // The same district cannot give a second card twice.
    t.submit(FRENCH, Act::Game(Action::KeepMission(pair[1]))).unwrap();
    let err = t.submit(FRENCH, Act::Game(Action::DraftDistrict(District::West))).unwrap_err();
    assert_eq!(err.rule(), Some("Preparation"));
    t.submit(FRENCH, Act::Game(Action::DraftDistrict(District::East))).unwrap();
    let pair2 = t.game.draft_pair.clone();
    t.submit(FRENCH, Act::Game(Action::KeepMission(pair2[0]))).unwrap();
    // Five missions, one per district; the others are out of the game; play begins.
    assert_eq!(districts(&t), all);
    assert!(t.game.missions.contains(&pair[1]) && !t.game.missions.contains(&pair[0]));
    assert!(t.game.mission_piles.iter().all(|p| p.is_empty()));
    assert_eq!(t.game.step, Step::Actions);
    assert_eq!(t.game.active, Side::French);
    assert_eq!(t.game.actions_left, 5);
    // Hidden from the Allied seat until revealed; known to Napoléon.
    assert!(t.game.missions_as_seen(Viewer::Seat(ALLIED)).iter().all(|m| m.is_none()));
    assert!(t.game.missions_as_seen(Viewer::Spectator).iter().all(|m| m.is_none()));
    assert!(t.game.missions_as_seen(Viewer::Seat(FRENCH)).iter().all(|m| m.is_some()));
}

#[test]
fn hands_are_seen_only_by_their_seat() {
    let t = after_draft(4);
    assert!(t.game.hand_as_seen(Side::French, Viewer::Seat(FRENCH)).iter().all(|c| c.is_some()));
    assert!(t.game.hand_as_seen(Side::French, Viewer::Seat(ALLIED)).iter().all(|c| c.is_none()));
    assert!(t.game.hand_as_seen(Side::Allied, Viewer::Spectator).iter().all(|c| c.is_none()));
}

#[test]
fn same_seed_same_setup() {
    assert_eq!(new_table(9).digest(), new_table(9).digest());
    assert_ne!(new_table(9).digest(), new_table(10).digest());
}
