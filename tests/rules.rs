//! Battle of the Nations' rules as far as the table enforces them, each test naming its section,
//! and the rulebook's army card, terrain and movement examples reproduced.
mod common;
use common::*;
use grognard::engine::rules::Game;
use grognard::engine::table::{Act, Table, TableError};
use grognard::games::botn::actions::rule;
use grognard::games::botn::data::{ActionCard, Side, UnitType};
use grognard::games::botn::state::{HandCard, Step};
use grognard::games::botn::{Action, Botn};

/// Gives a seat the first cards of the deck matching `faces` (test set-up only).
fn give_cards(t: &mut Table<Botn>, side: Side, faces: &[ActionCard]) -> Vec<u8> {
    let mut ids = Vec::new();
    for face in faces {
        let id = (0..t.game.sc.action_cards.len() as u8)
            .find(|&i| t.game.sc.action_cards[i as usize] == *face && !ids.contains(&i))
            .expect("the deck has such a card");
        // Take it from wherever it is.
        for h in t.game.hands.iter_mut() {
            h.retain(|c| *c != HandCard::Action(id));
        }
        t.game.face_up.retain(|c| *c != id);
        t.game.draw_pile.retain(|c| *c != id);
        // At the front of the hand: the first card of its face is the one the rules play.
        t.game.hands[side.index()].insert(ids.len(), HandCard::Action(id));
        ids.push(id);
    }
    ids
}

/// Napoléon lays out Marmont's army card and draws four times: the Allied turn begins.
fn to_allied_turn(seed: u64) -> Table<Botn> {
    let mut t = after_draft(seed);
    let marmont = army(&t, "Marmont");
    t.submit(FRENCH, Act::Game(Action::LayOutArmyCard { army: marmont, skip: vec![] })).unwrap();
    for _ in 0..4 {
        t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap();
    }
    assert_eq!(t.game.active, Side::Allied);
    t
}

fn lay_out_langeron(t: &mut Table<Botn>) -> u8 {
    let langeron = army(t, "Langeron");
    t.submit(ALLIED, Act::Game(Action::LayOutArmyCard { army: langeron, skip: vec![] })).unwrap();
    langeron
}

fn marker_on(t: &Table<Botn>, army: u8, field: &str) -> u8 {
    let f = common::field(t, field);
    t.game.markers_on_board(army).find(|(_, at)| *at == f).map(|(m, _)| m).expect("marker there")
}

#[test]
fn army_card_example_langeron() {
    // 1. Lay out an Army Card — Example: Schwarzenberg lays out the Army Card Langeron. One Troop
    // Marker each is placed on the villages Breitenfeld, Plösen and Klein-Wiederitzsch. He places
    // the played Army Card face down in front of him.
    let mut t = to_allied_turn(5);
    let langeron = lay_out_langeron(&mut t);
    let mut on: Vec<&str> = t.game.markers_on_board(langeron).map(|(_, f)| t.game.sc.field_name(f)).collect();
    on.sort();
    assert_eq!(on, ["Breitenfeld", "Klein-Wiederitzsch", "Plösen"]);
    assert!(t.game.armies[langeron as usize].card_played);
    // "it cannot be used again"
    let again = t.submit(ALLIED, Act::Game(Action::LayOutArmyCard { army: langeron, skip: vec![] })).unwrap_err();
    assert_eq!(again.rule(), Some("1. Lay out an Army Card"));
}

#[test]
fn army_card_skips_fields_holding_an_army_and_others_markers_do_not_block() {
    // 1. Lay out an Army Card: markers go on every village regardless of other generals' markers;
    // a village already holding an Army gets no marker.
    let mut t = to_allied_turn(6);
    let marmont = army(&t, "Marmont");
    // Marmont's markers lie on Möckern, Breitenfeld, Lindenthal; Langeron shares Breitenfeld.
    let langeron = lay_out_langeron(&mut t);
    let breitenfeld = field(&t, "Breitenfeld");
    assert!(t.game.markers_at(breitenfeld).any(|m| t.game.markers[m as usize].army == marmont));
    assert!(t.game.markers_at(breitenfeld).any(|m| t.game.markers[m as usize].army == langeron));
    // With an army standing on Lindenthal, Yorck's card puts markers on his two other villages.
    let yorck = army(&t, "Yorck");
    t.game.armies[marmont as usize].at = Some(field(&t, "Lindenthal"));
    t.submit(ALLIED, Act::Game(Action::LayOutArmyCard { army: yorck, skip: vec![] })).unwrap();
    let mut on: Vec<&str> = t.game.markers_on_board(yorck).map(|(_, f)| t.game.sc.field_name(f)).collect();
    on.sort();
    assert_eq!(on, ["Möckern", "Radefeld"]);
}

#[test]
fn army_card_date_and_missing_markers() {
    // 1. Lay out an Army Card, conditions 2 and 3.
    let mut t = to_allied_turn(7);
    let bernadotte = army(&t, "Bernadotte");
    let err = t.submit(ALLIED, Act::Game(Action::LayOutArmyCard { army: bernadotte, skip: vec![] })).unwrap_err();
    assert!(err.to_string().contains("16.10."), "{err}");
    assert_eq!(err.rule(), Some("1. Lay out an Army Card"));
    // Schwarzenberg: 4 villages, 2 markers: two scout cards are needed; the Allies hold none.
    let schwarzenberg = army(&t, "Schwarzenberg");
    let err = t.submit(ALLIED, Act::Game(Action::LayOutArmyCard { army: schwarzenberg, skip: vec![] })).unwrap_err();
    assert!(err.to_string().contains("needs 4 markers but has 2"), "{err}");
    // With two scout cards he may choose the villages to leave out; each scout card moves time.
    t.game.hands[1].push(HandCard::Scout);
    t.game.hands[1].push(HandCard::Scout);
    t.game.scout_supply -= 2;
    let skip = vec![field(&t, "Cröbern"), field(&t, "Wachau")];
    let time = t.game.time;
    t.submit(ALLIED, Act::Game(Action::LayOutArmyCard { army: schwarzenberg, skip })).unwrap();
    let mut on: Vec<&str> = t.game.markers_on_board(schwarzenberg).map(|(_, f)| t.game.sc.field_name(f)).collect();
    on.sort();
    assert_eq!(on, ["Güldengossa", "Markkleeberg"]);
    assert_eq!(t.game.time, time + 2);
    assert_eq!(t.game.scout_supply, 6, "played scout cards return to the others on the table");
}

#[test]
fn first_turn_needs_an_army_card_first() {
    // Game Play [2]: in the first turn an army card must be laid out before actions 2, 3 and 4.
    let mut t = after_draft(8);
    let l = legal(&t);
    assert!(l.iter().any(|a| matches!(a, Action::LayOutArmyCard { .. })));
    let marmont = army(&t, "Marmont");
    t.submit(FRENCH, Act::Game(Action::LayOutArmyCard { army: marmont, skip: vec![] })).unwrap();
    t.game.hands[0].push(HandCard::Scout);
    t.game.scout_supply -= 1;
    let (marker, _) = t.game.markers_on_board(marmont).next().unwrap();
    let scout = Action::PlayScoutCard { marker };
    assert!(legal(&t).contains(&scout), "after the army card, marker actions are offered");
    // The same board in a first turn whose army card is not yet laid out: only army cards,
    // time cards and draws are offered, and a scout card is refused naming the rule.
    t.game.army_card_this_turn = false;
    let l = legal(&t);
    assert!(
        l.iter().all(|a| matches!(
            a,
            Action::LayOutArmyCard { .. } | Action::DrawFaceUp { .. } | Action::DrawBlind | Action::PlayTimeCard { .. }
        )),
        "{l:?}"
    );
    let err = t.game.check(t.mode, FRENCH, &scout).unwrap_err();
    assert_eq!(err.section, rule::FIRST_TURN, "{err}");
    assert!(err.words.contains("an army card must be laid out before"), "{err}");
    // From the second turn on the restriction is gone.
    t.game.had_first_turn[0] = true;
    assert!(legal(&t).contains(&scout));
}

#[test]
fn terrain_card_example() {
    // 2. Play a Terrain Card — Example: Schwarzenberg plays "plain"; two Langeron markers lie on
    // plain fields, so he must choose one.
    let mut t = to_allied_turn(9);
    let langeron = lay_out_langeron(&mut t);
    let [plain] =
        give_cards(&mut t, Side::Allied, &[ActionCard::Terrain(grognard::games::botn::data::Terrain::Plain)])[..]
    else {
        panic!()
    };
    let choices: Vec<u8> = legal(&t)
        .into_iter()
        .filter_map(|a| match a {
            Action::PlayTerrainCard { card, marker }
                if card == plain && t.game.markers[marker as usize].army == langeron =>
            {
                Some(marker)
            }
            _ => None,
        })
        .collect();
    let mut fields: Vec<&str> =
        choices.iter().map(|m| t.game.sc.field_name(t.game.markers[*m as usize].at.unwrap())).collect();
    fields.sort();
    assert_eq!(fields, ["Breitenfeld", "Klein-Wiederitzsch"]);
    // Plösen is a hill: a plain card cannot remove that marker.
    let plosen = marker_on(&t, langeron, "Plösen");
    let err = t.submit(ALLIED, Act::Game(Action::PlayTerrainCard { card: plain, marker: plosen })).unwrap_err();
    assert_eq!(err.rule(), Some("2. Play a Terrain Card"));
    t.submit(ALLIED, Act::Game(Action::PlayTerrainCard { card: plain, marker: choices[0] })).unwrap();
    assert_eq!(t.game.markers_on_board(langeron).count(), 2);
    assert_eq!(t.game.discard, vec![plain], "the played card goes to the discard pile");
}

#[test]
fn movement_card_example() {
    // 3. Play a Movement Card — Example: with "cavalry/infantry" a Langeron marker moves to an
    // adjacent field, never onto a field already holding a Langeron marker, never off the board.
    let mut t = to_allied_turn(10);
    let langeron = lay_out_langeron(&mut t);
    let [card] = give_cards(&mut t, Side::Allied, &[ActionCard::Move(vec![UnitType::Cavalry, UnitType::Infantry])])[..]
    else {
        panic!()
    };
    let from = marker_on(&t, langeron, "Breitenfeld");
    let plosen = field(&t, "Plösen");
    let before = t.digest();
    let err = t.submit(ALLIED, Act::Game(Action::PlayMovementCard { card, marker: from, to: plosen })).unwrap_err();
    assert_eq!(err.rule(), Some("3. Play a Movement Card"));
    assert!(err.to_string().contains("already holds a marker of Langeron"), "{err}");
    assert_eq!(t.digest(), before, "a refused action leaves the table untouched");
    // Not adjacent: Breitenfeld to Taucha.
    let err = t
        .submit(ALLIED, Act::Game(Action::PlayMovementCard { card, marker: from, to: field(&t, "Taucha") }))
        .unwrap_err();
    assert!(err.to_string().contains("not adjacent"), "{err}");
    // A legal move: one field, time +1, the card discarded.
    let to = field(&t, "Seehausen");
    let time = t.game.time;
    t.submit(ALLIED, Act::Game(Action::PlayMovementCard { card, marker: from, to })).unwrap();
    assert_eq!(t.game.markers[from as usize].at, Some(to));
    assert_eq!(t.game.time, time + 1);
    // Only units shown on the card may move: Langeron is infantry, this card moves cavalry.
    let [cav] = give_cards(&mut t, Side::Allied, &[ActionCard::Move(vec![UnitType::Cavalry])])[..] else { panic!() };
    let err = t
        .submit(ALLIED, Act::Game(Action::PlayMovementCard { card: cav, marker: from, to: field(&t, "Breitenfeld") }))
        .unwrap_err();
    assert!(err.to_string().contains("markers are infantry"), "{err}");
}

#[test]
fn placing_an_army_scores_and_clears_the_field() {
    // Place armies: the last marker becomes the army, all markers on the field are removed, one
    // victory point, a scout card, time +1 for an own army.
    let mut t = to_allied_turn(11);
    let langeron = lay_out_langeron(&mut t);
    let marmont = army(&t, "Marmont");
    let scout = [HandCard::Scout];
    t.game.hands[1].extend(scout);
    t.game.scout_supply -= 1;
    // Remove Langeron's markers on Plösen and Klein-Wiederitzsch with scout card + plain card.
    let [plain] =
        give_cards(&mut t, Side::Allied, &[ActionCard::Terrain(grognard::games::botn::data::Terrain::Plain)])[..]
    else {
        panic!()
    };
    t.submit(
        ALLIED,
        Act::Game(Action::PlayTerrainCard { card: plain, marker: marker_on(&t, langeron, "Klein-Wiederitzsch") }),
    )
    .unwrap();
    let (vp, time) = (t.game.vp, t.game.time);
    let marmont_before = t.game.markers_on_board(marmont).count();
    t.submit(ALLIED, Act::Game(Action::PlayScoutCard { marker: marker_on(&t, langeron, "Plösen") })).unwrap();
    let breitenfeld = field(&t, "Breitenfeld");
    assert_eq!(t.game.armies[langeron as usize].at, Some(breitenfeld));
    assert_eq!(t.game.markers_at(breitenfeld).count(), 0, "the field is cleared");
    assert_eq!(
        t.game.markers_on_board(marmont).count(),
        marmont_before - 1,
        "Marmont's marker on Breitenfeld went too"
    );
    assert_eq!(t.game.vp, [vp[0], vp[1] + 1]);
    assert_eq!(t.game.time, time + 2, "scout card +1 and own army placed +1");
    assert_eq!(t.game.scouts_in_hand(Side::Allied), 1, "a scout card for the placed army");
    // The placed army's markers are all gone: none is left to play a card on.
    assert_eq!(t.game.markers_on_board(langeron).count(), 0);
    assert!(
        !legal(&t)
            .iter()
            .any(|a| matches!(a, Action::PlayScoutCard { marker } | Action::PlayTerrainCard { marker, .. }
            if t.game.markers[*marker as usize].army == langeron)),
        "no card is offered on a placed army's markers"
    );
}

#[test]
fn cascade_places_the_other_sides_army_without_points() {
    // Place armies: the cascade may place the other player's army: no point, no scout, no time.
    let mut t = to_allied_turn(12);
    let marmont = army(&t, "Marmont");
    let langeron = lay_out_langeron(&mut t);
    // Leave Marmont with two markers, one on Breitenfeld (shared with Langeron).
    let moeckern = marker_on(&t, marmont, "Möckern");
    t.game.markers[moeckern as usize].at = None;
    t.game.markers[moeckern as usize].removed = true;
    let [plain] =
        give_cards(&mut t, Side::Allied, &[ActionCard::Terrain(grognard::games::botn::data::Terrain::Plain)])[..]
    else {
        panic!()
    };
    t.game.hands[1].push(HandCard::Scout);
    t.game.scout_supply -= 1;
    t.submit(
        ALLIED,
        Act::Game(Action::PlayTerrainCard { card: plain, marker: marker_on(&t, langeron, "Klein-Wiederitzsch") }),
    )
    .unwrap();
    let (vp, time) = (t.game.vp, t.game.time);
    // Langeron placed on Breitenfeld clears Marmont's marker: Marmont is down to Lindenthal.
    t.submit(ALLIED, Act::Game(Action::PlayScoutCard { marker: marker_on(&t, langeron, "Plösen") })).unwrap();
    assert_eq!(t.game.armies[marmont as usize].at, Some(field(&t, "Lindenthal")));
    assert_eq!(t.game.vp, [vp[0], vp[1] + 1], "only the active player's own army scores");
    assert_eq!(t.game.time, time + 2, "no time step for the other side's army");
}

#[test]
fn time_bar_reveals_missions_and_ends_the_game() {
    // Time bar and scoring: passing 15.10. reveals a mission; the game ends once 19.10. is
    // passed and the active player has finished his turn.
    let mut t = after_draft(13);
    let marmont = army(&t, "Marmont");
    t.submit(FRENCH, Act::Game(Action::LayOutArmyCard { army: marmont, skip: vec![] })).unwrap();
    let [time_card, time_card2] = give_cards(&mut t, Side::French, &[ActionCard::Time, ActionCard::Time])[..] else {
        panic!()
    };
    t.game.time = 4;
    t.submit(FRENCH, Act::Game(Action::PlayTimeCard { card: time_card })).unwrap();
    assert_eq!(t.game.time_label(), "15.10.");
    // "Napoléon must reveal a Mission Card": one of his choice, before play goes on.
    assert_eq!(t.game.active_seat(), Some(FRENCH));
    let hidden = t.game.missions.clone();
    let offered: Vec<Action> = legal(&t);
    assert_eq!(offered, hidden.iter().map(|&m| Action::RevealMission(m)).collect::<Vec<_>>());
    let chosen = hidden[2];
    t.submit(FRENCH, Act::Game(Action::RevealMission(chosen))).unwrap();
    assert_eq!(t.game.revealed, 1);
    let allied_view = t.game.observe(grognard::engine::seats::Viewer::Seat(ALLIED));
    assert_eq!(allied_view.missions.iter().flatten().collect::<Vec<_>>(), vec![&chosen], "the chosen card is shown");
    assert!(t.game.out_of_game.contains(&time_card), "a played time card leaves the game");
    t.game.time = t.game.sc.last_date_index() as u8;
    t.submit(FRENCH, Act::Game(Action::PlayTimeCard { card: time_card2 })).unwrap();
    assert!(t.game.past_last_date());
    assert_eq!(t.game.step, Step::Actions, "the active player finishes his turn");
    t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap();
    t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap();
    assert_eq!(t.game.step, Step::GameOver);
    assert!(t.game.is_over());
    assert!(legal(&t).is_empty());
}

#[test]
fn hand_limit_at_the_end_of_the_turn() {
    // 7. Draw an Action Card: no more than 8 cards (action and scout) at the end of the turn.
    let mut t = after_draft(14);
    let marmont = army(&t, "Marmont");
    t.submit(FRENCH, Act::Game(Action::LayOutArmyCard { army: marmont, skip: vec![] })).unwrap();
    t.game.hands[0].push(HandCard::Scout);
    t.game.scout_supply -= 1;
    for _ in 0..4 {
        t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap();
    }
    assert_eq!(t.game.hand_size(Side::French), 9);
    assert_eq!(t.game.step, Step::Discard);
    assert_eq!(t.game.active_seat(), Some(FRENCH));
    let err = t.submit(FRENCH, Act::Game(Action::DrawBlind)).unwrap_err();
    assert!(err.to_string().contains("discard"), "{err}");
    t.submit(FRENCH, Act::Game(Action::Discard(HandCard::Scout))).unwrap();
    assert_eq!(t.game.hand_size(Side::French), 8);
    assert_eq!(t.game.active, Side::Allied);
    assert_eq!(t.game.face_up.len(), 4, "the face-up row is replenished at the end of the turn");
}

#[test]
fn wild_card_is_two_identical_cards_for_one_time_step() {
    // 5. Play a Wild Card.
    let mut t = to_allied_turn(15);
    let langeron = lay_out_langeron(&mut t);
    let ids = give_cards(
        &mut t,
        Side::Allied,
        &[ActionCard::Move(vec![UnitType::Artillery]), ActionCard::Move(vec![UnitType::Artillery])],
    );
    let from = marker_on(&t, langeron, "Breitenfeld");
    let to = field(&t, "Seehausen");
    let time = t.game.time;
    t.submit(ALLIED, Act::Game(Action::PlayWildCard { cards: [ids[0], ids[1]], marker: from, to: Some(to) })).unwrap();
    assert_eq!(t.game.markers[from as usize].at, Some(to), "any movement card: an artillery pair moves infantry");
    assert_eq!(t.game.time, time + 1, "the time indicator moves only one point");
    let ids = give_cards(
        &mut t,
        Side::Allied,
        &[ActionCard::Time, ActionCard::Terrain(grognard::games::botn::data::Terrain::Hill)],
    );
    let err = t
        .submit(ALLIED, Act::Game(Action::PlayWildCard { cards: [ids[0], ids[1]], marker: from, to: None }))
        .unwrap_err();
    assert_eq!(err.rule(), Some("5. Play a Wild Card"));
}

#[test]
fn illegal_actions_name_the_rule_and_change_nothing() {
    let mut t = after_draft(16);
    let before = (t.digest(), t.records.len(), t.entries.len());
    let cases = [
        (ALLIED, Action::DrawBlind, "Game Play - Beginner's Game"),
        (FRENCH, Action::PlayScoutCard { marker: 0 }, "Game Play - Beginner's Game [2]"),
        (FRENCH, Action::LayOutArmyCard { army: army(&t, "Yorck"), skip: vec![] }, "Grognard: the table"),
        (
            FRENCH,
            Action::Sandbox(grognard::games::botn::SandboxAction::FlipArmy { army: 0 }),
            "Grognard: enforced mode",
        ),
        (FRENCH, Action::Pass, "Game Play - Beginner's Game"),
    ];
    for (seat, action, rule) in cases {
        let err = t.submit(seat, Act::Game(action.clone())).unwrap_err();
        assert_eq!(err.rule(), Some(rule), "{action:?}: {err}");
        assert_eq!((t.digest(), t.records.len(), t.entries.len()), before, "{action:?} changed the table");
    }
}

#[test]
fn every_listed_action_is_accepted() {
    // The one legal-action list and the checks agree, across many random games.
    for seed in 0..30 {
        let mut t = new_table(seed);
        let mut rng = grognard::engine::rng::TableRng::from_seed(seed);
        while !t.game.is_over() {
            let l = legal(&t);
            assert!(!l.is_empty(), "dead end at seed {seed}");
            let seat = t.game.active_seat().unwrap();
            for a in &l {
                assert!(t.game.check(t.mode, seat, a).is_ok(), "seed {seed}: listed but refused: {a:?}");
            }
            t.submit(seat, Act::Game(l[rng.below(l.len())].clone())).unwrap();
            assert!(t.records.len() < 2000);
        }
    }
}

#[test]
fn every_choice_of_villages_to_leave_out_is_listed() {
    // 1. Lay out an Army Card, condition 3: the player freely selects the villages to occupy.
    let mut t = to_allied_turn(17);
    t.game.hands[1].extend([HandCard::Scout, HandCard::Scout]);
    t.game.scout_supply -= 2;
    let schwarzenberg = army(&t, "Schwarzenberg");
    let choices: Vec<Vec<_>> = legal(&t)
        .into_iter()
        .filter_map(|a| match a {
            Action::LayOutArmyCard { army, skip } if army == schwarzenberg => Some(skip),
            _ => None,
        })
        .collect();
    assert_eq!(choices.len(), 6, "4 villages, 2 markers: any 2 of the 4 left out");
    for skip in &choices {
        assert!(
            t.game.check(t.mode, ALLIED, &Action::LayOutArmyCard { army: schwarzenberg, skip: skip.clone() }).is_ok()
        );
    }
}

#[test]
fn jump_over_an_own_army_with_two_movement_cards() {
    // 3. Play a Movement Card — Exception: by playing two Movement Cards you may jump over one
    // of your own Armies (each card moves the time indicator).
    let mut t = to_allied_turn(18);
    let langeron = lay_out_langeron(&mut t);
    // An Allied army stands on Seehausen, next to Langeron's marker on Breitenfeld.
    let blucher = army(&t, "Blücher");
    let seehausen = field(&t, "Seehausen");
    t.game.armies[blucher as usize].at = Some(seehausen);
    t.game.armies[blucher as usize].card_played = true;
    let cards = give_cards(
        &mut t,
        Side::Allied,
        &[ActionCard::Move(vec![UnitType::Infantry]), ActionCard::Move(vec![UnitType::Cavalry, UnitType::Infantry])],
    );
    let marker = marker_on(&t, langeron, "Breitenfeld");
    let jumps: Vec<Action> = legal(&t)
        .into_iter()
        .filter(|a| matches!(a, Action::JumpOverArmy { marker: m, over, .. } if *m == marker && *over == seehausen))
        .collect();
    assert!(!jumps.is_empty(), "the jump is in the legal-action list");
    let Action::JumpOverArmy { to, cards: played, .. } = jumps[0] else { unreachable!() };
    assert!(t.game.sc.graph.adjacent(seehausen, to));
    let time = t.game.time;
    t.submit(ALLIED, Act::Game(jumps[0].clone())).unwrap();
    assert_eq!(t.game.markers[marker as usize].at, Some(to));
    assert_eq!(t.game.time, time + 2);
    assert!(played.iter().all(|c| t.game.discard.contains(c)), "both cards go to the discard pile");
    // Not over an enemy army or an empty field (the two cards back in hand for the try).
    t.game.discard.retain(|c| !cards.contains(c));
    t.game.hands[1].splice(0..0, cards.iter().map(|&c| HandCard::Action(c)));
    let err = t
        .submit(
            ALLIED,
            Act::Game(Action::JumpOverArmy {
                cards: [cards[0], cards[1]],
                marker: marker_on(&t, langeron, "Plösen"),
                over: field(&t, "Radefeld"),
                to: field(&t, "Lindenthal"),
            }),
        )
        .unwrap_err();
    let TableError::Rule(err) = err else { panic!("{err}") };
    assert_eq!(err.section, rule::MOVEMENT_CARD, "{err}");
    assert!(err.words.contains("a jump must go over a field holding one of your own armies"), "{err}");
}

/// Puts `army`'s first markers on `fields` (its card laid out), the rest back in its supply.
fn put(t: &mut Table<Botn>, army: u8, fields: &[grognard::engine::geometry::SpaceId]) {
    let mut left = fields.iter();
    for m in t.game.markers.iter_mut().filter(|m| m.army == army) {
        m.at = left.next().copied();
        m.removed = false;
    }
    t.game.armies[army as usize].card_played = true;
}

#[test]
fn two_armies_down_to_one_marker_on_one_field_the_active_player_chooses() {
    // Further rules: "Only one Army may be placed on each field"; Place armies: the active player
    // checks the cascade. Langeron placed on Lindenthal clears Marmont's and Bertrand's markers
    // there; both are left with one marker on Breitenfeld: Schwarzenberg chooses which is placed.
    let mut t = to_allied_turn(21);
    let (a, b, c) = (army(&t, "Marmont"), army(&t, "Bertrand"), army(&t, "Langeron"));
    let (x, y, w) = (field(&t, "Breitenfeld"), field(&t, "Lindenthal"), field(&t, "Plösen"));
    for m in t.game.markers.iter_mut() {
        if m.at.is_some_and(|f| [x, y, w].contains(&f)) {
            m.at = None;
        }
    }
    put(&mut t, a, &[x, y]);
    put(&mut t, b, &[x, y]);
    put(&mut t, c, &[y, w]);
    t.game.had_first_turn = [true, true];
    t.game.hands[1].push(HandCard::Scout);
    t.game.scout_supply -= 1;
    t.submit(ALLIED, Act::Game(Action::PlayScoutCard { marker: marker_on(&t, c, "Plösen") })).unwrap();
    assert_eq!(t.game.armies[c as usize].at, Some(y));
    assert_eq!(t.game.step, Step::PlaceArmy);
    assert_eq!(t.game.active_seat(), Some(ALLIED));
    assert_eq!(legal(&t), vec![Action::PlaceArmy { army: a.min(b) }, Action::PlaceArmy { army: a.max(b) }]);
    t.submit(ALLIED, Act::Game(Action::PlaceArmy { army: b })).unwrap();
    assert_eq!(t.game.armies[b as usize].at, Some(x), "the chosen army is placed");
    assert!(t.game.armies[a as usize].eliminated, "the other's last marker went with the field");
    assert_eq!(t.game.step, Step::Actions);
}

/// Makes every French army out of play: Napoléon has placed all he can (official FAQ).
fn napoleon_done(t: &mut Table<Botn>) {
    for i in 0..t.game.armies.len() {
        if t.game.sc.armies[i].def.side == Side::French {
            t.game.armies[i].eliminated = true;
        }
    }
    assert!(t.game.napoleon_done());
}

#[test]
fn napoleon_with_all_armies_placed_only_draws() {
    // Official FAQ: with all his armies placed Napoléon takes only action cards.
    let mut t = after_draft(22);
    napoleon_done(&mut t);
    let [time_card] = give_cards(&mut t, Side::French, &[ActionCard::Time])[..] else { panic!() };
    let play = Action::PlayTimeCard { card: time_card };
    assert!(!legal(&t).contains(&play));
    let err = t.game.check(t.mode, FRENCH, &play).unwrap_err();
    assert_eq!(err.section, rule::FAQ_NAPOLEON, "{err}");
    assert!(legal(&t).iter().all(|a| matches!(a, Action::DrawFaceUp { .. } | Action::DrawBlind | Action::Pass)));
}

#[test]
fn napoleon_done_moves_time_only_before_the_last_date() {
    // Official FAQ: Napoléon with all his armies placed moves the time indicator one space at the
    // end of his turn "if 19.10. has not been reached".
    for (start, moved) in [(1, 1), (0, 0)] {
        let mut t = after_draft(23);
        napoleon_done(&mut t);
        let last = t.game.sc.last_date_index() as u8;
        t.game.time = last - start;
        t.submit(FRENCH, Act::Game(Action::Pass)).unwrap();
        while t.game.reveals_due > 0 {
            let m = t.game.missions[t.game.revealed as usize];
            t.submit(FRENCH, Act::Game(Action::RevealMission(m))).unwrap();
        }
        assert_eq!(t.game.time, last - start + moved, "from {} spaces before 19.10.", start);
    }
}

/// "Time bar and scoring" with "End of the game" (issue 63, item 7): when the game's last action
/// moves the time indicator two spaces, past 19.10. (two movement cards jumping an army, a scout
/// card placing an army), the reveal it makes due comes first; the game ends with it and is
/// scored with every mission shown, and a finished game lists and accepts no reveal.
#[test]
fn a_reveal_made_due_by_the_games_last_action_comes_before_the_end_and_every_mission_is_scored() {
    let mut found = 0;
    for seed in 0..400u64 {
        let mut t = new_table(seed);
        let mut rng = grognard::engine::rng::TableRng::from_seed(seed ^ 0x7e7e);
        while !t.game.is_over() {
            let l = legal(&t);
            let seat = t.game.active_seat().unwrap();
            let a = l[rng.below(l.len())].clone();
            t.submit(seat, Act::Game(a)).unwrap();
            if t.game.reveals_due > 0 && t.game.past_last_date() {
                found += 1;
                assert!(!t.game.is_over(), "seed {seed}: the game ended with a mission still to reveal");
                let l = legal(&t);
                assert!(!l.is_empty() && l.iter().all(|a| matches!(a, Action::RevealMission(_))), "{l:?}");
                assert_eq!(t.game.active_seat(), Some(FRENCH));
            }
        }
        assert_eq!(t.game.reveals_due, 0, "seed {seed}: a reveal left due after the end");
        assert_eq!(t.game.revealed as usize, t.game.missions.len(), "seed {seed}: every mission is scored");
        assert_eq!(t.game.results.len(), t.game.missions.len(), "seed {seed}");
        let hidden = t.game.missions[0];
        let refused = t.submit(FRENCH, Act::Game(Action::RevealMission(hidden)));
        assert!(refused.is_err(), "seed {seed}: a finished game accepts no reveal");
    }
    assert!(found > 0, "no game of these seeds ended on a move two spaces past 19.10.");
}
