//! Victory & Glory: the solo AI of section XV with its worked examples, and the miniatures
//! campaign mode of section XVI.
use grognard::engine::rng::TableRng;
use grognard::engine::rules::Game;
use grognard::engine::seats::{SeatId, Viewer};
use grognard::engine::table::{Act, Table};
use grognard::games::vg::ai::{self, VgPlayer, choose, influence_target, recruit_target};
use grognard::games::vg::data::UnitKind;
use grognard::games::vg::miniatures::{self, battle_sheet, command};
use grognard::games::vg::state::{Loc, Pending, Text};
use grognard::games::vg::{self, Action, Player, Vg, VgScenario};
use std::path::PathBuf;
use std::sync::Arc;

const FR: SeatId = SeatId(0);
const BR: SeatId = SeatId(1);

fn scenario() -> Arc<VgScenario> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory/napoleon.ron");
    Arc::new(VgScenario::load(&p).expect("the shipped scenario loads"))
}

fn nation(t: &Table<Vg>, name: &str) -> u8 {
    t.game.sc.nation_id(name).unwrap()
}

fn card(t: &Table<Vg>, name: &str) -> u16 {
    t.game.sc.cards.iter().position(|c| c.name == name).unwrap() as u16
}

fn legal(t: &Table<Vg>) -> Vec<Action> {
    let mut v = Vec::new();
    t.game.legal_actions(t.mode, &mut v);
    v
}

fn set_cubes(t: &mut Table<Vg>, cubes: &[(&str, [u8; 2])]) {
    for c in t.game.influence.iter_mut() {
        *c = [0, 0];
    }
    for (n, c) in cubes {
        let id = nation(t, n);
        t.game.influence[id as usize] = *c;
    }
}

#[test]
fn the_ai_plays_seven_cards_the_first_and_the_last() {
    // XV a: "The AI side will play 7 cards instead of 6, and will therefore play the first card and
    // the last card every round."
    let mut t = vg::table_on(scenario(), 1, Some(Player::France));
    let mut rng = TableRng::from_seed(1);
    let mut cards_by = Vec::new();
    while t.game.round < 2 {
        let s = t.game.active_seat().unwrap();
        let l = legal(&t);
        let a = choose(
            || t.game.observe(Viewer::Seat(s)),
            &l,
            if s == FR { VgPlayer::Solo } else { VgPlayer::Random },
            &mut rng,
        );
        if matches!(a, Action::PlayCard { .. } | Action::PlayCampaign { .. }) && t.game.round == 1 {
            cards_by.push(s.0);
        }
        t.submit(s, Act::Game(a)).unwrap();
    }
    assert_eq!(cards_by, [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
}

#[test]
fn a_campaign_the_ai_cannot_fight_goes_to_the_player() {
    // XV a: a Campaign card that would obviously disadvantage the AI (no units to send, or
    // outnumbered 2 to 1) is placed in front of the player and another card is played.
    let mut t = vg::table_on(scenario(), 2, Some(Player::Britain));
    // Britain (AI) holds the Battle of the Nile; with its ships gone it has nothing to send to sea.
    for u in 0..t.game.units.len() {
        if t.game.units[u] == Loc::Army(Player::Britain) && t.game.sc.units[u].kind == UnitKind::Navy {
            t.game.units.set(u, Loc::Pool);
        }
    }
    let nile = card(&t, "Battle of the Nile");
    t.game.deck.retain(|&c| c != nile);
    t.game.hands[1] = vec![nile];
    assert!(t.game.campaign_disadvantages_ai(nile));
    let a = choose(
        || t.game.observe(Viewer::Seat(t.game.active_seat().unwrap())),
        &legal(&t),
        VgPlayer::Solo,
        &mut TableRng::from_seed(1),
    );
    assert_eq!(a, Action::SoloGiveCampaign { card: nile });
    t.submit(BR, Act::Game(a)).unwrap();
    assert!(t.game.in_front[Player::France.index()].contains(&nile));
    assert_eq!(t.game.played[1], 0, "the given card is not one of the seven");
    // The AI ran out of cards: it draws an extra one and still has its turn.
    assert_eq!((t.game.hands[1].len(), t.game.active_seat()), (1, Some(BR)));
    // The player may not give cards away.
    let mut p = vg::table_on(scenario(), 2, Some(Player::Britain));
    p.game.turn = Player::France;
    let c = p.game.hands[0][0];
    let err = p.submit(FR, Act::Game(Action::SoloGiveCampaign { card: c })).unwrap_err();
    assert_eq!(err.rule(), Some("XV. Solo Play (a) Card play"));
}

#[test]
fn the_ai_takes_the_text_that_is_better_for_it() {
    // XV a: "The player is obligated to select the option that is better for the AI player."
    for (ai, want) in [(Player::France, Text::Body), (Player::Britain, Text::Bottom)] {
        let mut t = vg::table_on(scenario(), 3, Some(ai));
        let c = card(&t, "Napoleon Takes Command in Italy");
        t.game.deck.retain(|&x| x != c);
        t.game.hands[ai.index()] = vec![c];
        let a = choose(
            || t.game.observe(Viewer::Seat(t.game.active_seat().unwrap())),
            &legal(&t),
            VgPlayer::Solo,
            &mut TableRng::from_seed(1),
        );
        assert_eq!(a, Action::PlayCard { card: c, text: want }, "AI {ai:?}");
    }
}

#[test]
fn influence_example_1_round_four_scandinavia_then_egypt() {
    // XV b, first example: round 4, the AI places influence; Scandinavia and Egypt have no
    // markers, both 1 VP this era, Scandinavia 3 VP for the two remaining eras and Egypt 1: the
    // first cube goes to Scandinavia, a second to Egypt.
    let mut t = vg::table_on(scenario(), 4, Some(Player::Britain));
    t.game.era = 1;
    t.game.round = 3;
    let all: Vec<String> = t.game.sc.nations.iter().map(|n| n.name.clone()).collect();
    let cubes: Vec<(&str, [u8; 2])> = all
        .iter()
        .filter(|n| *n != "Scandinavia" && *n != "Egypt")
        .map(|n| (n.as_str(), [4, 1])) // the player far ahead: no tie, not close
        .collect();
    set_cubes(&mut t, &cubes);
    assert_eq!(influence_target(&t.game, Player::Britain), nation(&t, "Scandinavia"));
    // Through the rules: the AI's bottom text of two influence cubes.
    t.game.pending.push(Pending::PlaceInfluence { player: Player::Britain, left: 2 });
    for want in ["Scandinavia", "Egypt"] {
        let a = choose(
            || t.game.observe(Viewer::Seat(t.game.active_seat().unwrap())),
            &legal(&t),
            VgPlayer::Solo,
            &mut TableRng::from_seed(1),
        );
        assert_eq!(a, Action::PlaceInfluence(nation(&t, want)));
        t.submit(BR, Act::Game(a)).unwrap();
    }
}

#[test]
fn influence_example_2_round_seven_france_twice() {
    // XV b, second example: round 7; every nation has a cube, no ties; the AI has one or two fewer
    // in Germany (1), France (1) and Russia (2): the first cube goes to France (10 VP), the second
    // too (now a tie).
    let mut t = vg::table_on(scenario(), 5, Some(Player::Britain));
    t.game.era = 2;
    t.game.round = 6;
    let all: Vec<String> = t.game.sc.nations.iter().map(|n| n.name.clone()).collect();
    let cubes: Vec<(&str, [u8; 2])> = all
        .iter()
        .map(|n| {
            let c = match n.as_str() {
                "Germany" | "France" => [2, 1], // the AI (Britain) one fewer
                "Russia" => [3, 1],             // two fewer
                _ => [1, 2],                    // the AI ahead
            };
            (n.as_str(), c)
        })
        .collect();
    set_cubes(&mut t, &cubes);
    t.game.pending.push(Pending::PlaceInfluence { player: Player::Britain, left: 2 });
    for _ in 0..2 {
        let a = choose(
            || t.game.observe(Viewer::Seat(t.game.active_seat().unwrap())),
            &legal(&t),
            VgPlayer::Solo,
            &mut TableRng::from_seed(1),
        );
        assert_eq!(a, Action::PlaceInfluence(nation(&t, "France")));
        t.submit(BR, Act::Game(a)).unwrap();
    }
    assert_eq!(t.game.influence[nation(&t, "France") as usize], [2, 3]);
}

#[test]
fn british_ai_recruits_by_its_hierarchy_and_the_french_ai_french() {
    // XV c: British units while fewer than half the economy; then allied Majors (Russia, Austria,
    // Prussia, Spain); then the others (Austria, Russia, Prussia, Spain). French: always French.
    let mut t = vg::table_on(scenario(), 6, Some(Player::Britain));
    t.game.economy[1] = 10; // 4 British units < 5
    assert_eq!(recruit_target(&t.game, Player::Britain), nation(&t, "Britain"));
    t.game.economy[1] = 6; // 4 British units, not fewer than 3: Austria, the only ally
    assert_eq!(recruit_target(&t.game, Player::Britain), nation(&t, "Austria"));
    let russia = nation(&t, "Russia");
    t.game.allies[russia as usize] = Some(Player::Britain);
    assert_eq!(recruit_target(&t.game, Player::Britain), russia, "Russia comes first of the allies");
    let f = vg::table_on(scenario(), 6, Some(Player::France));
    assert_eq!(recruit_target(&f.game, Player::France), nation(&f, "France"));
}

#[test]
fn the_player_removes_the_ais_cubes_and_its_units_go_blind() {
    // XV d: the player selects which of the AI's influence cubes or units are removed; units blind.
    let mut t = vg::table_on(scenario(), 7, Some(Player::Britain));
    t.game.pending.push(Pending::RemoveInfluence { owner: Player::Britain, left: 1 });
    assert_eq!(t.game.active_seat(), Some(FR), "the player, not the AI, chooses");
    t.submit(FR, Act::Game(Action::RemoveInfluence(nation(&t, "Germany")))).unwrap();
    assert_eq!(t.game.influence[nation(&t, "Germany") as usize], [0, 1]);
    // A card taking AI units removes them at random, with no choice to make.
    let mut f = vg::table_on(scenario(), 8, Some(Player::France));
    f.game.era = 2;
    let c = card(&f, "The Guerrilla War");
    f.game.hands[1].push(c);
    f.game.turn = Player::Britain;
    let before = f.game.all_units(Player::France).len();
    f.submit(BR, Act::Game(Action::PlayCard { card: c, text: Text::Body })).unwrap();
    assert_eq!(f.game.all_units(Player::France).len(), before - 1);
    assert!(!f.game.pending.iter().any(|p| matches!(p, Pending::LoseUnit { .. })));
}

/// A campaign in Germany with the given French and British units committed, resolving now.
fn to_the_table(seed: u64, fr: &[(UnitKind, u8)], br: &[(&str, UnitKind, u8)]) -> (Table<Vg>, u8) {
    let mut t = vg::table_on(scenario(), seed, None);
    let zurich = card(&t, "Second Battle of Zurich");
    t.game.deck.retain(|&c| c != zurich);
    t.game.hands[1].push(zurich);
    t.submit(BR, Act::Game(Action::PlayCampaign { card: zurich })).unwrap();
    let pick = |t: &Table<Vg>, n: &str, k: UnitKind, v: u8| {
        let id = t.game.sc.nation_id(n).unwrap();
        (0..t.game.units.len() as u8)
            .find(|&u| {
                t.game.unit_nation(u) == id
                    && t.game.unit_kind(u) == k
                    && t.game.unit_value(u) == v
                    && !matches!(t.game.units[u as usize], Loc::Campaign(..))
            })
            .unwrap()
    };
    for &(k, v) in fr {
        let u = pick(&t, "France", k, v);
        t.game.units.set(u as usize, Loc::Army(Player::France));
        t.submit(FR, Act::Game(Action::CommitUnit(u))).unwrap();
    }
    if matches!(t.game.pending.first(), Some(Pending::Commit { player: Player::France, .. })) {
        t.submit(FR, Act::Game(Action::EndCommit)).unwrap();
    }
    for &(n, k, v) in br {
        let u = pick(&t, n, k, v);
        t.game.units.set(u as usize, Loc::Army(Player::Britain));
        t.submit(BR, Act::Game(Action::CommitUnit(u))).unwrap();
    }
    if matches!(t.game.pending.first(), Some(Pending::Commit { player: Player::Britain, .. })) {
        t.submit(BR, Act::Game(Action::EndCommit)).unwrap();
    }
    // An En Avant! card brings the campaign to resolution.
    let ea = card(&t, "En Avant! (Italy)");
    t.game.deck.retain(|&c| c != ea);
    t.game.hands[0].push(ea);
    t.game.turn = Player::France;
    t.submit(FR, Act::Game(Action::PlayCard { card: ea, text: Text::Body })).unwrap();
    (t, 0)
}

#[test]
fn the_battle_sheet_converts_units_to_corps_with_quality_command_and_the_50_percent_rule() {
    // XVI: each unit a corps (infantry: 3 infantry units of 6 stands + 1 artillery of 3; cavalry:
    // 3 cavalry of 6 + 1 horse artillery of 3; artillery: 3 artillery of 3); the rating gives the
    // troop quality; the leadership the command rating and generals; 50% of the enemy to win.
    let (t, c) = to_the_table(
        9,
        &[(UnitKind::Infantry, 4), (UnitKind::Cavalry, 3), (UnitKind::Artillery, 2)],
        &[("Britain", UnitKind::Infantry, 2), ("Austria", UnitKind::Cavalry, 3)],
    );
    assert!(legal(&t).contains(&Action::FightOnTable(c)));
    let sheet = battle_sheet(&t.game, c);
    let fr = &sheet.sides[0];
    assert_eq!(fr.corps.len(), 3);
    assert_eq!(fr.corps[0].quality, "Guard or Elite Troops");
    assert_eq!(fr.corps[0].units, vec![("Infantry".to_string(), 3, 6), ("Artillery".to_string(), 1, 3)]);
    assert_eq!(fr.corps[1].quality, "Medium Cavalry such as Dragoons");
    assert_eq!(fr.corps[1].units, vec![("Cavalry".to_string(), 3, 6), ("Horse Artillery".to_string(), 1, 3)]);
    assert_eq!(fr.corps[2].quality, "Light Artillery or Horse Artillery");
    assert_eq!(fr.corps[2].units, vec![("Artillery".to_string(), 3, 3)]);
    assert_eq!((fr.tabletop_units, fr.stands), (11, 18 + 3 + 18 + 3 + 9));
    assert_eq!((fr.leadership, fr.command_rating, fr.generals), (3, 4, 1));
    let br = &sheet.sides[1];
    assert_eq!((br.tabletop_units, br.corps[0].quality.as_str()), (8, "Regular Troops"));
    // 50%: France must break 4 of Britain's 8, Britain 6 of France's 11.
    assert_eq!((fr.to_win, br.to_win), (4, 6));
    assert_eq!(
        [command(0), command(3), command(4), command(6), command(7), command(10), command(11)],
        [(4, 1), (4, 1), (5, 2), (5, 2), (6, 3), (6, 3), (7, 4)]
    );
    assert_eq!(miniatures::quality(UnitKind::Infantry, 1), "Militia/Landwehr");
    assert_eq!(miniatures::quality(UnitKind::Cavalry, 1), "Landwehr or Cossacks");
    assert_eq!(miniatures::quality(UnitKind::Artillery, 4), "Heavy Artillery");
    // Exported as a printable page and as RON that reads back.
    let dir = tempfile::tempdir().unwrap();
    let [html, ron_path] = miniatures::export(&sheet, dir.path(), "zurich").unwrap();
    let page = std::fs::read_to_string(html).unwrap();
    assert!(
        page.contains("Command Rating 4") && page.contains("Guard or Elite Troops") && page.contains("@media print")
    );
    let back: miniatures::BattleSheet = ron::from_str(&std::fs::read_to_string(ron_path).unwrap()).unwrap();
    assert_eq!(back, sheet);
}

#[test]
fn a_tabletop_result_that_does_not_fit_is_refused_and_changes_nothing() {
    // XVI: an entry without a winner, or with more losses than the side brought, is refused with
    // its reason, naming the rule; the table is untouched.
    let (mut t, c) = to_the_table(10, &[(UnitKind::Infantry, 3)], &[("Britain", UnitKind::Infantry, 2)]);
    t.submit(FR, Act::Game(Action::FightOnTable(c))).unwrap();
    let digest = t.digest();
    let err = t.submit(FR, Act::Game(Action::TabletopResult { campaign: c, winner: None, lost: None })).unwrap_err();
    assert_eq!(err.rule(), Some("XVI. Tabletop Miniatures Battles"));
    assert!(err.to_string().contains("winner"));
    let err = t
        .submit(FR, Act::Game(Action::TabletopResult { campaign: c, winner: Some(Player::France), lost: Some([2, 5]) }))
        .unwrap_err();
    assert!(err.to_string().contains("Britain lost 5 tabletop units but brought only 4"));
    assert_eq!(t.digest(), digest);
}

#[test]
fn the_tabletop_result_resolves_the_campaign_as_if_the_board_had_decided() {
    // XVI: the players enter who won; the campaign resolves with that result: the card's outcome,
    // and the usual losses (winner lowest, loser highest) or the tabletop losses converted back at
    // the corps ratio.
    let fr = [(UnitKind::Infantry, 4), (UnitKind::Infantry, 3), (UnitKind::Artillery, 2)];
    let br = [("Britain", UnitKind::Infantry, 2), ("Austria", UnitKind::Cavalry, 3)];
    // France is far stronger on the board, but Britain won on the table.
    let (mut t, c) = to_the_table(11, &fr, &br);
    assert!(t.game.battle_strength(c, Player::France) > t.game.battle_strength(c, Player::Britain));
    t.submit(FR, Act::Game(Action::FightOnTable(c))).unwrap();
    assert!(matches!(t.game.pending.first(), Some(Pending::TabletopResult { .. })));
    t.submit(FR, Act::Game(Action::TabletopResult { campaign: c, winner: Some(Player::Britain), lost: None })).unwrap();
    let r = t.game.results.last().unwrap();
    assert_eq!((r.winner, r.by_tabletop), (Some(Player::Britain), true));
    assert_eq!(t.game.vp, [0, 2], "Zurich: +2 VP to the winner");
    // France (loser) lost its highest (Infantry 4); Britain (winner) its lowest (Infantry 2).
    let left: Vec<String> = t.game.army(Player::France).iter().map(|&u| t.game.unit_label(u)).collect();
    assert!(!left.contains(&"France Infantry 4".to_string()) && left.contains(&"France Infantry 3".to_string()));

    // Converted losses: France lost 9 tabletop units (two whole corps of 4, its highest first),
    // Britain 3 (none whole: its lowest corps has 4).
    let (mut t, c) = to_the_table(12, &fr, &br);
    t.submit(FR, Act::Game(Action::FightOnTable(c))).unwrap();
    t.submit(FR, Act::Game(Action::TabletopResult { campaign: c, winner: Some(Player::Britain), lost: Some([9, 3]) }))
        .unwrap();
    let fr_left: Vec<String> = t.game.army(Player::France).iter().map(|&u| t.game.unit_label(u)).collect();
    assert!(fr_left.contains(&"France Artillery 2".to_string()));
    assert!(!fr_left.contains(&"France Infantry 4".to_string()) && !fr_left.contains(&"France Infantry 3".to_string()));
    assert_eq!(
        t.game.army(Player::Britain).iter().filter(|&&u| t.game.unit_label(u) == "Britain Infantry 2").count(),
        1
    );
    let _ = ai::effect_value;
}

#[test]
fn naval_campaigns_are_not_fought_on_the_table() {
    // XVI: a Naval Unit "does not appear" on the tabletop: a naval campaign is resolved on the board.
    let mut t = vg::table_on(scenario(), 13, None);
    let nile = card(&t, "Battle of the Nile");
    t.game.hands[1].push(nile);
    t.submit(BR, Act::Game(Action::PlayCampaign { card: nile })).unwrap();
    let fr: Vec<u8> = t.game.valid_units(Player::France, 0);
    t.submit(FR, Act::Game(Action::CommitUnit(fr[0]))).unwrap();
    let _ = t.submit(FR, Act::Game(Action::EndCommit));
    let br: Vec<u8> = t.game.valid_units(Player::Britain, 0);
    t.submit(BR, Act::Game(Action::CommitUnit(br[0]))).unwrap();
    let _ = t.submit(BR, Act::Game(Action::EndCommit));
    assert!(!miniatures::can_fight_on_table(&t.game, 0));
}

#[test]
fn across_machines_both_seats_enter_the_tabletop_result_and_nothing_applies_until_they_agree() {
    // XVI at a host's table: France alone deciding a campaign it fought is not the book's "the
    // players enter": each seat enters what it saw; a disagreement is told to both and nothing
    // is applied; the result applies once the two entries agree.
    let fr = [(UnitKind::Infantry, 4), (UnitKind::Infantry, 3)];
    let br = [("Britain", UnitKind::Infantry, 2)];
    let (mut t, c) = to_the_table(14, &fr, &br);
    t.game.play_across_machines();
    t.submit(FR, Act::Game(Action::FightOnTable(c))).unwrap();
    let results = t.game.results.len();
    assert_eq!(t.game.active_seat(), Some(FR), "the chooser enters first");
    t.submit(FR, Act::Game(Action::TabletopResult { campaign: c, winner: Some(Player::France), lost: None })).unwrap();
    assert_eq!(t.game.results.len(), results, "one seat's entry applies nothing");
    assert_eq!(t.game.active_seat(), Some(BR), "the other seat is asked");
    let err = t
        .submit(FR, Act::Game(Action::TabletopResult { campaign: c, winner: Some(Player::France), lost: None }))
        .unwrap_err();
    assert!(err.to_string().contains("Britain"), "{err}");
    // Britain saw otherwise: disputed, still nothing applied, France asked again.
    t.submit(BR, Act::Game(Action::TabletopResult { campaign: c, winner: Some(Player::Britain), lost: None })).unwrap();
    assert_eq!(t.game.results.len(), results);
    assert_eq!(t.game.active_seat(), Some(FR));
    for seat in [FR, BR] {
        let log: Vec<String> = t.entries.iter().map(|e| t.game.entry_text(e, Viewer::Seat(seat))).collect();
        assert!(log.iter().any(|l| l.contains("disputed")), "the disagreement is told to both: {log:?}");
    }
    // France agrees with Britain's entry: it applies.
    t.submit(FR, Act::Game(Action::TabletopResult { campaign: c, winner: Some(Player::Britain), lost: None })).unwrap();
    let r = t.game.results.last().unwrap();
    assert_eq!((r.winner, r.by_tabletop), (Some(Player::Britain), true));
    assert!(!matches!(t.game.pending.first(), Some(Pending::TabletopResult { .. })));
}

#[test]
fn at_one_screen_the_tabletop_result_is_entered_once() {
    let (mut t, c) = to_the_table(15, &[(UnitKind::Infantry, 3)], &[("Britain", UnitKind::Infantry, 2)]);
    t.submit(FR, Act::Game(Action::FightOnTable(c))).unwrap();
    t.submit(FR, Act::Game(Action::TabletopResult { campaign: c, winner: Some(Player::France), lost: None })).unwrap();
    assert!(t.game.results.last().is_some_and(|r| r.by_tabletop));
}

#[test]
fn a_hosts_table_is_played_across_machines_and_a_table_at_one_screen_is_not() {
    let h = grognard::net::hosted::Hosted::start("vg-1", [7; 32], vec![[1; 32], [2; 32]], |seed| {
        vg::table_on(scenario(), seed, None)
    });
    assert!(h.table.game.across_machines, "the host's table asks both seats");
    assert!(!vg::table_on(scenario(), 1, None).game.across_machines);
}
