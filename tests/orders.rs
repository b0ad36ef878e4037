//! Standing orders (issue 32): in every game a question is a decision of the seat whose turn it
//! is not, of a kind the game lists, and every answer a standing order gives is one the rules
//! offer at that moment.

use grognard::engine::kit::{Kit, new_table, player_named};
use grognard::engine::rng::TableRng;
use grognard::engine::rules::Game;
use grognard::engine::table::Act;
use grognard::games::{austerlitz::Austerlitz, botn::Botn, leipzig::Leipzig, vg::Vg};
use std::collections::BTreeMap;

/// What the games asked: each kind, how often; and for each of the game's own answers, how often
/// it gave an action and how often it did not fit.
struct Asked {
    kinds: BTreeMap<&'static str, usize>,
    answers: BTreeMap<(&'static str, String), (usize, usize)>,
}

impl std::ops::Deref for Asked {
    type Target = BTreeMap<&'static str, usize>;
    fn deref(&self) -> &Self::Target {
        &self.kinds
    }
}

/// Plays `games` games of beginners (at most `max` actions each) and checks every question
/// asked.
fn questions<G: Kit>(scenario: &str, games: u64, max: usize) -> Asked {
    let path = grognard::engine::scenario::scenarios_root().join(scenario);
    let beginner = player_named::<G>("beginner").unwrap();
    let mut seen = BTreeMap::new();
    let mut answers: BTreeMap<(&'static str, String), (usize, usize)> = BTreeMap::new();
    for g in 0..games {
        let mut t = new_table::<G>(&path, g).unwrap();
        let mut rng = TableRng::from_seed(g);
        for _ in 0..max {
            let Some(seat) = t.game.active_seat() else { break };
            let mut legal = Vec::new();
            t.game.legal_actions(t.mode, &mut legal);
            if let Some((asked, kind)) = t.game.question() {
                assert_eq!(asked, seat, "a question is asked of the seat that decides");
                let k = G::QUESTIONS.iter().find(|q| q.kind == kind).expect("a kind the game lists");
                *seen.entry(kind).or_default() += 1;
                for (answer, _) in k.answers {
                    let answer = answer.replace(":N", ":300");
                    let tally = answers.entry((kind, answer.clone())).or_default();
                    match t.game.standing_answer(seat, &answer, &legal) {
                        Some(a) => {
                            assert!(legal.contains(&a), "{kind}: `{answer}` gave {a:?}, not a legal action");
                            tally.0 += 1;
                        }
                        None => tally.1 += 1,
                    }
                }
                // Another seat's orders never answer it.
                let other = grognard::engine::seats::SeatId(1 - seat.0);
                for (answer, _) in k.answers {
                    assert_eq!(t.game.standing_answer(other, &answer.replace(":N", ":300"), &legal), None);
                }
            }
            let a = t.game.choose(seat, &legal, beginner, &mut rng);
            t.submit(seat, Act::Game(a)).unwrap();
        }
    }
    Asked { kinds: seen, answers }
}

#[test]
fn leipzig_asks_the_defender_about_retreats_before_combat_and_its_supply_combat_ii_and_iii() {
    let seen = questions::<Leipzig>("leipzig-1813/1-historical-situation.ron", 2, 1500);
    assert!(seen.contains_key("retreat-before-combat") && seen.contains_key("defence-supply"), "{:?}", seen.kinds);
    let (gave, _) = seen.answers[&("retreat-before-combat", "retreat-from:300".to_string())];
    assert!(gave > 0, "retreat-from:300 answered none of the questions");
    assert_eq!(seen.answers[&("retreat-before-combat", "stand".to_string())].1, 0, "standing always fits");
}

#[test]
fn leipzig_an_order_to_retreat_from_300_percent_does_not_fit_where_an_attacker_is_a_blank_to_the_defender() {
    // The French defending under Reconnaissance: the same question with the attackers hidden
    // from them (not revealed) leaves the order nothing it can judge, and the question waits.
    let path = grognard::engine::scenario::scenarios_root().join("leipzig-1813/1-historical-situation.ron");
    let beginner = player_named::<Leipzig>("beginner").unwrap();
    let mut checked = 0;
    for g in 0..4 {
        let mut t = new_table::<Leipzig>(&path, g).unwrap();
        let mut rng = TableRng::from_seed(g);
        for _ in 0..3000 {
            let Some(seat) = t.game.active_seat() else { break };
            let mut legal = Vec::new();
            t.game.legal_actions(t.mode, &mut legal);
            if t.game.question() == Some((seat, "retreat-before-combat")) && seat.0 == 0 {
                let mut hidden = t.game.clone();
                for a in hidden.attacks.clone() {
                    for u in a.units {
                        hidden.units[u as usize].revealed = false;
                    }
                }
                assert_eq!(hidden.standing_answer(seat, "retreat-from:300", &legal), None);
                assert!(hidden.standing_answer(seat, "stand", &legal).is_some(), "standing needs no odds");
                checked += 1;
            }
            let a = t.game.choose(seat, &legal, beginner, &mut rng);
            t.submit(seat, Act::Game(a)).unwrap();
        }
    }
    assert!(checked > 0, "the French never defended");
}

#[test]
fn austerlitz_asks_the_non_phasing_player_for_its_reactions_and_opportunity_fire() {
    let seen = questions::<Austerlitz>("austerlitz/1-historical.ron", 2, 1500);
    assert!(seen.contains_key("reaction") || seen.contains_key("opportunity-fire"), "{:?}", seen.kinds);
}

#[test]
fn battle_of_the_nations_asks_the_defender_which_army_takes_a_fights_damage() {
    let seen = questions::<Botn>("battle-of-the-nations/beginner.ron", 30, 400);
    assert!(seen.contains_key("fight-damage"), "{:?}", seen.kinds);
}

#[test]
fn victory_and_glory_asks_the_other_player_about_the_campaigns_it_is_drawn_into() {
    let seen = questions::<Vg>("victory-and-glory/napoleon.ron", 2, 800);
    assert!(!seen.is_empty(), "{:?}", seen.kinds);
}
