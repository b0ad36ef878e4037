//! Victory & Glory: Napoleon — a test per rule, each naming its rulebook section, and the
//! rulebook's scoring example reproduced exactly.
use grognard::engine::rules::Game;
use grognard::engine::seats::{SeatId, Viewer};
use grognard::engine::table::{Act, Table};
use grognard::games::vg::data::{NationKind, UnitKind};
use grognard::games::vg::state::{Group, Loc, Pending, Phase, Text};
use grognard::games::vg::{self, Action, Player, Vg, VgScenario};
use std::path::PathBuf;
use std::sync::Arc;

const FR: SeatId = SeatId(0);
const BR: SeatId = SeatId(1);

fn scenario() -> Arc<VgScenario> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory/napoleon.ron");
    Arc::new(VgScenario::load(&p).expect("the shipped scenario loads"))
}

fn fresh(seed: u64) -> Table<Vg> {
    vg::table_on(scenario(), seed, None)
}

fn nation(t: &Table<Vg>, name: &str) -> u8 {
    t.game.sc.nation_id(name).unwrap()
}

fn card(t: &Table<Vg>, name: &str) -> u16 {
    t.game.sc.cards.iter().position(|c| c.name == name).unwrap_or_else(|| panic!("no card {name}")) as u16
}

/// Puts a named card in `p`'s hand (test set-up) and makes it `p`'s turn.
fn give(t: &mut Table<Vg>, p: Player, name: &str) -> u16 {
    let c = card(t, name);
    t.game.deck.retain(|&x| x != c);
    for h in t.game.hands.iter_mut() {
        h.retain(|&x| x != c);
    }
    t.game.hands[p.index()].push(c);
    t.game.turn = p;
    c
}

fn seat(p: Player) -> SeatId {
    SeatId(p as u8)
}

fn play(t: &mut Table<Vg>, p: Player, name: &str, text: Text) {
    let c = give(t, p, name);
    t.submit(seat(p), Act::Game(Action::PlayCard { card: c, text })).unwrap();
}

fn units_of(t: &Table<Vg>, n: &str, loc: Loc) -> Vec<(UnitKind, u8)> {
    let id = nation(t, n);
    let mut v: Vec<(UnitKind, u8)> = (0..t.game.units.len() as u8)
        .filter(|&u| t.game.units[u as usize] == loc && t.game.unit_nation(u) == id)
        .map(|u| (t.game.unit_kind(u), t.game.unit_value(u)))
        .collect();
    v.sort();
    v
}

fn legal(t: &Table<Vg>) -> Vec<Action> {
    let mut v = Vec::new();
    t.game.legal_actions(t.mode, &mut v);
    v
}

#[test]
fn setup_is_section_v_exactly() {
    // V. Setup: tracks, influence, starting units, Austria allied to Britain, 10 blue cards each,
    // Britain plays first.
    let t = fresh(1);
    let g = &t.game;
    assert_eq!((g.vp, g.leadership, g.economy), ([0, 0], [3, 0], [8, 6]));
    let cubes = |n: &str| g.influence[nation(&t, n) as usize];
    assert_eq!(
        [cubes("France"), cubes("Britain"), cubes("Italy"), cubes("Germany"), cubes("Poland"), cubes("Spain")],
        [[2, 0], [0, 2], [0, 1], [0, 2], [0, 1], [0, 0]]
    );
    use UnitKind::*;
    assert_eq!(
        units_of(&t, "France", Loc::Army(Player::France)),
        vec![(Infantry, 1), (Infantry, 2), (Infantry, 3), (Cavalry, 2), (Artillery, 2), (Navy, 1), (Navy, 2)]
    );
    assert_eq!(
        units_of(&t, "Britain", Loc::Army(Player::Britain)),
        vec![(Infantry, 2), (Navy, 1), (Navy, 2), (Navy, 3)]
    );
    assert_eq!(
        units_of(&t, "Austria", Loc::Army(Player::Britain)),
        vec![(Infantry, 1), (Infantry, 2), (Infantry, 3), (Cavalry, 2), (Artillery, 2)]
    );
    assert_eq!(
        units_of(&t, "Russia", Loc::Holding),
        vec![(Infantry, 1), (Infantry, 2), (Cavalry, 1), (Cavalry, 2), (Artillery, 2)]
    );
    assert_eq!(units_of(&t, "Prussia", Loc::Holding), vec![(Infantry, 2), (Cavalry, 2), (Artillery, 2)]);
    assert_eq!(
        units_of(&t, "Spain", Loc::Holding),
        vec![(Infantry, 2), (Cavalry, 2), (Artillery, 2), (Navy, 1), (Navy, 2)]
    );
    assert_eq!(g.allies[nation(&t, "Austria") as usize], Some(Player::Britain));
    assert!(g.hands.iter().all(|h| h.len() == 10 && h.iter().all(|&c| g.sc.cards[c as usize].era == 0)));
    assert_eq!((g.turn, g.active_seat()), (Player::Britain, Some(BR)));
    // Appendix A: every unit of the game is somewhere; 157 cards in three decks.
    assert_eq!(g.sc.cards.len(), 157);
    // 18 French, 14 British, 8 Prussian, 8 Austrian, 12 Russian, 10 Spanish (one reconstructed),
    // 8 German, 5 Italian and 6 Polish units.
    assert_eq!(g.sc.units.len(), 89);
}

#[test]
fn body_text_affects_the_named_player_and_bottom_text_the_one_who_plays() {
    // VIII Event Cards: BODY affects the player(s) named; BOTTOM the player that played the card.
    let mut t = fresh(2);
    play(&mut t, Player::Britain, "Napoleon Takes Command in Italy", Text::Body);
    assert_eq!(t.game.leadership, [6, 0]);
    play(&mut t, Player::France, "Moreau on the Rhine", Text::Bottom);
    assert_eq!(t.game.leadership, [7, 0]);
    let mut t = fresh(2);
    play(&mut t, Player::Britain, "Napoleon Takes Command in Italy", Text::Bottom);
    assert_eq!(t.game.leadership, [3, 1]);
}

#[test]
fn influence_bottom_text_may_be_split_between_nations() {
    // VIII Influence, Bottom: "the influence points may be split between multiple Nations".
    let mut t = fresh(3);
    play(&mut t, Player::Britain, "Second Coalition Formed", Text::Bottom);
    assert!(matches!(t.game.pending.first(), Some(Pending::PlaceInfluence { left: 2, .. })));
    t.submit(BR, Act::Game(Action::PlaceInfluence(nation(&t, "Russia")))).unwrap();
    t.submit(BR, Act::Game(Action::PlaceInfluence(nation(&t, "Egypt")))).unwrap();
    assert_eq!(t.game.influence[nation(&t, "Russia") as usize], [0, 1]);
    assert_eq!(t.game.influence[nation(&t, "Egypt") as usize], [0, 1]);
    assert!(t.game.pending.is_empty());
}

#[test]
fn a_named_influence_loss_removes_cubes_there() {
    // VIII Influence, Body: follow the card: Campo Formio gives France 2 in Italy and takes one
    // British cube from Italy.
    let mut t = fresh(4);
    play(&mut t, Player::Britain, "Treaty of Campo Formio", Text::Body);
    assert_eq!(t.game.influence[nation(&t, "Italy") as usize], [2, 0]);
}

#[test]
fn minor_nation_recruiting_needs_a_majority() {
    // VIII Recruiting: "the player may only do so if they currently have a majority of Influence
    // in that Nation" — Britain holds Poland at the start.
    let mut t = fresh(5);
    let c = give(&mut t, Player::France, "Polish Legions in Italy");
    t.game.turn = Player::France;
    let err = t.submit(FR, Act::Game(Action::PlayCard { card: c, text: Text::Body })).unwrap_err();
    assert_eq!(err.rule(), Some("VIII. The Cards"));
    assert!(err.to_string().contains("Poland"));
    // With the majority the body recruits a Polish unit in front of France.
    {
        let n = nation(&t, "Poland");
        t.game.influence[n as usize] = [2, 1];
    }
    t.submit(FR, Act::Game(Action::PlayCard { card: c, text: Text::Body })).unwrap();
    assert_eq!(units_of(&t, "Poland", Loc::Army(Player::France)).len(), 1);
}

#[test]
fn france_must_recruit_french_and_britain_chooses_britain_or_a_major() {
    // VIII Recruiting: cards that name no nation: the French player MUST recruit French units;
    // the British player British units or a Major Nation's. Units of a nation not allied go to its
    // holding area.
    let mut t = fresh(6);
    let before = t.game.army(Player::France).len();
    play(&mut t, Player::France, "Levée en Masse", Text::Body);
    assert!(t.game.pending.is_empty(), "no choice for France");
    assert_eq!(t.game.army(Player::France).len(), before + 2);
    play(&mut t, Player::Britain, "Pitt's Gold", Text::Bottom); // economy, no recruit
    play(&mut t, Player::Britain, "Levée en Masse", Text::Bottom);
    let options = legal(&t);
    let names: Vec<&str> = options
        .iter()
        .map(|a| match a {
            Action::RecruitFrom(n) => t.game.sc.nation_name(*n),
            _ => "",
        })
        .collect();
    assert_eq!(names, ["Britain", "Spain", "Austria", "Prussia", "Russia"]);
    let err = t.submit(BR, Act::Game(Action::RecruitFrom(nation(&t, "Germany")))).unwrap_err();
    assert_eq!(err.rule(), Some("VIII. The Cards"));
    let prussia_before = units_of(&t, "Prussia", Loc::Holding).len();
    t.submit(BR, Act::Game(Action::RecruitFrom(nation(&t, "Prussia")))).unwrap();
    assert_eq!(units_of(&t, "Prussia", Loc::Holding).len(), prussia_before + 1, "not allied: holding area");
}

#[test]
fn an_alliance_needs_a_majority_and_brings_the_units_from_the_holding_area() {
    // VIII Alliance Cards: a majority of influence is needed; the nation's units move from the
    // holding area to in front of the allied player.
    let mut t = fresh(7);
    let c = give(&mut t, Player::Britain, "Second Coalition Formed");
    let err = t.submit(BR, Act::Game(Action::PlayCard { card: c, text: Text::Body })).unwrap_err();
    assert_eq!(err.rule(), Some("VIII. The Cards"));
    {
        let n = nation(&t, "Russia");
        t.game.influence[n as usize] = [0, 1];
    }
    t.submit(BR, Act::Game(Action::PlayCard { card: c, text: Text::Body })).unwrap();
    assert_eq!(t.game.allies[nation(&t, "Russia") as usize], Some(Player::Britain));
    assert_eq!(units_of(&t, "Russia", Loc::Army(Player::Britain)).len(), 5);
    assert!(units_of(&t, "Russia", Loc::Holding).is_empty());
}

#[test]
fn spain_switches_sides_with_its_units_on_campaign_too() {
    // X Spain: Spain allied to France switches to Britain by a British diplomacy card; all Spanish
    // units in front of the French player or on campaign become British-controlled.
    let mut t = fresh(8);
    let spain = nation(&t, "Spain");
    t.game.influence[spain as usize] = [2, 0];
    play(&mut t, Player::France, "Godoy Becomes A French Puppet", Text::Body);
    assert_eq!(t.game.allies[spain as usize], Some(Player::France));
    assert_eq!(units_of(&t, "Spain", Loc::Army(Player::France)).len(), 5);
    t.game.influence[spain as usize] = [1, 3];
    play(&mut t, Player::Britain, "British Diplomacy", Text::Body);
    t.submit(BR, Act::Game(Action::Ally(spain))).unwrap();
    assert_eq!(t.game.allies[spain as usize], Some(Player::Britain));
    assert_eq!(units_of(&t, "Spain", Loc::Army(Player::Britain)).len(), 5);
}

/// Britain plays a campaign card; the non-playing side (France) commits first.
fn campaign(t: &mut Table<Vg>, by: Player, name: &str) -> u8 {
    let c = give(t, by, name);
    t.submit(seat(by), Act::Game(Action::PlayCampaign { card: c })).unwrap();
    (t.game.campaigns.len() - 1) as u8
}

fn commit(t: &mut Table<Vg>, p: Player, units: &[u8]) {
    for &u in units {
        if matches!(t.game.pending.first(), Some(Pending::Commit { player, .. }) if *player == p) {
            t.submit(seat(p), Act::Game(Action::CommitUnit(u))).unwrap();
        }
    }
    if matches!(t.game.pending.first(), Some(Pending::Commit { player, .. }) if *player == p) {
        t.submit(seat(p), Act::Game(Action::EndCommit)).unwrap();
    }
}

fn unit(t: &Table<Vg>, n: &str, kind: UnitKind, value: u8, loc: Loc) -> u8 {
    let id = nation(t, n);
    (0..t.game.units.len() as u8)
        .find(|&u| {
            t.game.unit_nation(u) == id
                && t.game.unit_kind(u) == kind
                && t.game.unit_value(u) == value
                && t.game.units[u as usize] == loc
        })
        .unwrap_or_else(|| panic!("no {n} {kind:?} {value} at {loc:?}"))
}

#[test]
fn campaign_commitment_order_limits_reveal_and_handover() {
    // VIII Campaign Cards: the player who did NOT play the card commits first; at least one unit;
    // naval units only where allowed; units revealed once both have committed; the card goes in
    // front of the other player, who may play it to reinforce the same campaign.
    let mut t = fresh(9);
    let c = campaign(&mut t, Player::Britain, "Second Battle of Zurich");
    assert_eq!(t.game.active_seat(), Some(FR), "France, who did not play it, commits first");
    let err = t.submit(FR, Act::Game(Action::EndCommit)).unwrap_err();
    assert_eq!(err.rule(), Some("VIII. Campaign Cards"));
    let navy = unit(&t, "France", UnitKind::Navy, 1, Loc::Army(Player::France));
    let err = t.submit(FR, Act::Game(Action::CommitUnit(navy))).unwrap_err();
    assert_eq!(err.rule(), Some("VIII. Limitations on Which Military Units May Be Used in Which Campaigns"));
    let inf3 = unit(&t, "France", UnitKind::Infantry, 3, Loc::Army(Player::France));
    commit(&mut t, Player::France, &[inf3]);
    assert!(!t.game.campaigns[c as usize].revealed, "face down until both have committed");
    // The end of a commitment is in everyone's log: how many units, not which.
    let last = t.entries.last().map(|e| t.game.entry_text(e, Viewer::Seat(BR))).unwrap();
    assert_eq!(last, "France commits no more units in Germany (1 unit in all)");
    let aus = unit(&t, "Austria", UnitKind::Infantry, 3, Loc::Army(Player::Britain));
    commit(&mut t, Player::Britain, &[aus]);
    assert!(t.game.campaigns[c as usize].revealed);
    let zurich = card(&t, "Second Battle of Zurich");
    assert!(t.game.in_front[Player::France.index()].contains(&zurich));
    // France reinforces with the card in front of her: the same campaign, not a second one.
    t.game.turn = Player::France;
    t.submit(FR, Act::Game(Action::PlayCampaign { card: zurich })).unwrap();
    let br_inf = unit(&t, "Britain", UnitKind::Infantry, 2, Loc::Army(Player::Britain));
    commit(&mut t, Player::Britain, &[br_inf]);
    let cav = unit(&t, "France", UnitKind::Cavalry, 2, Loc::Army(Player::France));
    commit(&mut t, Player::France, &[cav]);
    assert_eq!(t.game.campaigns.len(), 1);
    assert_eq!(t.game.committed(c, Player::France).len(), 2);
    assert_eq!(t.game.committed(c, Player::Britain).len(), 2);
}

#[test]
fn only_british_and_spanish_units_join_britains_campaigns_in_spain() {
    // VIII Limitations, SPAIN: only British, Spanish, French and French-ally units in Spain.
    let mut t = fresh(10);
    t.game.era = 2;
    campaign(&mut t, Player::France, "Battle of Bailén");
    let inf = unit(&t, "France", UnitKind::Infantry, 3, Loc::Army(Player::France));
    // Britain commits first (France played it): Austrian units are refused.
    let aus = unit(&t, "Austria", UnitKind::Infantry, 3, Loc::Army(Player::Britain));
    let err = t.submit(BR, Act::Game(Action::CommitUnit(aus))).unwrap_err();
    assert!(err.to_string().contains("only British and Spanish units"));
    let navy = unit(&t, "Britain", UnitKind::Navy, 3, Loc::Army(Player::Britain));
    t.submit(BR, Act::Game(Action::CommitUnit(navy))).unwrap();
    t.submit(BR, Act::Game(Action::EndCommit)).unwrap();
    commit(&mut t, Player::France, &[inf]);
}

/// Resolves campaign `c` through an En Avant! card played by `p`.
fn en_avant(t: &mut Table<Vg>, p: Player, c: u8) {
    play(t, p, "En Avant! (Italy)", Text::Body);
    t.submit(seat(p), Act::Game(Action::Resolve(c))).unwrap();
}

#[test]
fn battle_strength_is_units_leadership_and_combined_arms() {
    // XII Resolving a Campaign: units' values + Leadership & Tactics + Combined Arms Bonus; the
    // winner loses its lowest unit, the loser its highest; the card's outcome for each; "En Avant"
    // resolves it before the end of the era.
    let mut t = fresh(11);
    let c = campaign(&mut t, Player::Britain, "Second Battle of Zurich");
    let fr = [
        unit(&t, "France", UnitKind::Infantry, 3, Loc::Army(Player::France)),
        unit(&t, "France", UnitKind::Cavalry, 2, Loc::Army(Player::France)),
        unit(&t, "France", UnitKind::Artillery, 2, Loc::Army(Player::France)),
    ];
    commit(&mut t, Player::France, &fr);
    let br = [
        unit(&t, "Austria", UnitKind::Infantry, 3, Loc::Army(Player::Britain)),
        unit(&t, "Austria", UnitKind::Infantry, 1, Loc::Army(Player::Britain)),
    ];
    commit(&mut t, Player::Britain, &br);
    // France: 3+2+2 + leadership 3 + 3 arms = 13; Britain: 3+1 + 0 + 1 = 5.
    assert_eq!((t.game.battle_strength(c, Player::France), t.game.battle_strength(c, Player::Britain)), (13, 5));
    en_avant(&mut t, Player::France, c);
    let r = t.game.results.last().unwrap();
    assert_eq!((r.strength, r.winner), ([13, 5], Some(Player::France)));
    // Losses: France's lowest (a 2: Cavalry or Artillery, France chooses), Britain's highest (Inf 3).
    assert!(matches!(t.game.pending.first(), Some(Pending::ChooseLoss { player: Player::France, .. })));
    t.submit(FR, Act::Game(Action::LoseUnit(fr[2]))).unwrap();
    assert_eq!(t.game.units[fr[2] as usize], Loc::Pool);
    assert_eq!(t.game.units[br[0] as usize], Loc::Pool);
    // Survivors go back in front of their player; Zurich: +2 VP to the winner, -1 German cube to
    // the loser.
    assert_eq!(t.game.units[fr[0] as usize], Loc::Army(Player::France));
    assert_eq!(t.game.units[br[1] as usize], Loc::Army(Player::Britain));
    assert_eq!(t.game.vp, [2, 0]);
    assert_eq!(t.game.influence[nation(&t, "Germany") as usize], [0, 1]);
}

#[test]
fn a_tie_has_no_winner_and_both_lose_their_lowest() {
    // XII: in a tie neither player wins; both lose their lowest unit.
    let mut t = fresh(12);
    t.game.leadership = [0, 0];
    let c = campaign(&mut t, Player::Britain, "Second Battle of Zurich");
    let fr = unit(&t, "France", UnitKind::Infantry, 2, Loc::Army(Player::France));
    commit(&mut t, Player::France, &[fr]);
    let br = unit(&t, "Britain", UnitKind::Infantry, 2, Loc::Army(Player::Britain));
    commit(&mut t, Player::Britain, &[br]);
    en_avant(&mut t, Player::France, c);
    assert_eq!(t.game.results.last().unwrap().winner, None);
    assert_eq!((t.game.units[fr as usize], t.game.units[br as usize]), (Loc::Pool, Loc::Pool));
    assert_eq!(t.game.vp, [0, 0]);
}

#[test]
fn naval_campaigns_take_only_ships_no_combined_arms_and_britain_plus_three() {
    // XII Naval Campaigns: only naval units; no Combined Arms Bonus; Britain +3 leadership.
    let mut t = fresh(13);
    let c = campaign(&mut t, Player::France, "Battle of the Nile");
    let inf = unit(&t, "Britain", UnitKind::Infantry, 2, Loc::Army(Player::Britain));
    let err = t.submit(BR, Act::Game(Action::CommitUnit(inf))).unwrap_err();
    assert!(err.to_string().contains("only naval units"));
    let b = [
        unit(&t, "Britain", UnitKind::Navy, 1, Loc::Army(Player::Britain)),
        unit(&t, "Britain", UnitKind::Navy, 2, Loc::Army(Player::Britain)),
    ];
    commit(&mut t, Player::Britain, &b);
    let f = [
        unit(&t, "France", UnitKind::Navy, 1, Loc::Army(Player::France)),
        unit(&t, "France", UnitKind::Navy, 2, Loc::Army(Player::France)),
    ];
    commit(&mut t, Player::France, &f);
    // France 1+2 + 3 leadership = 6; Britain 1+2 + 0 + 3 = 6.
    assert_eq!((t.game.battle_strength(c, Player::France), t.game.battle_strength(c, Player::Britain)), (6, 6));
}

#[test]
fn losing_in_an_allied_major_nation_defeats_it() {
    // IX British Allies: Britain loses a campaign in Austria: Austria is no longer allied and all
    // its units return to the holding area, those on campaign too.
    let mut t = fresh(14);
    let c = campaign(&mut t, Player::France, "Battle of Hohenlinden");
    let b = unit(&t, "Austria", UnitKind::Infantry, 1, Loc::Army(Player::Britain));
    commit(&mut t, Player::Britain, &[b]);
    let f = unit(&t, "France", UnitKind::Infantry, 3, Loc::Army(Player::France));
    commit(&mut t, Player::France, &[f]);
    en_avant(&mut t, Player::France, c);
    let austria = nation(&t, "Austria");
    assert_eq!(t.game.allies[austria as usize], None);
    assert!(units_of(&t, "Austria", Loc::Army(Player::Britain)).is_empty());
    assert_eq!(units_of(&t, "Austria", Loc::Holding).len(), 4, "Inf 1 lost, four go home");
}

#[test]
fn the_higher_leadership_chooses_the_order_of_resolution_france_on_ties() {
    // XII: at the end of an era the player with the higher leadership decides the order of the
    // campaigns; France on ties.
    let mut t = fresh(15);
    campaign(&mut t, Player::Britain, "Second Battle of Zurich");
    {
        let u = unit(&t, "France", UnitKind::Infantry, 3, Loc::Army(Player::France));
        commit(&mut t, Player::France, &[u]);
    }
    {
        let u = unit(&t, "Britain", UnitKind::Infantry, 2, Loc::Army(Player::Britain));
        commit(&mut t, Player::Britain, &[u]);
    }
    campaign(&mut t, Player::Britain, "Battle of Marengo");
    {
        let u = unit(&t, "France", UnitKind::Infantry, 2, Loc::Army(Player::France));
        commit(&mut t, Player::France, &[u]);
    }
    {
        let u = unit(&t, "Austria", UnitKind::Infantry, 2, Loc::Army(Player::Britain));
        commit(&mut t, Player::Britain, &[u]);
    }
    // Jump to the last card of the era.
    t.game.round = 2;
    t.game.played = [6, 5];
    t.game.leadership = [2, 2];
    play(&mut t, Player::Britain, "Pitt's Gold", Text::Bottom);
    assert_eq!(t.game.phase, Phase::EraEnd);
    assert!(matches!(t.game.pending.first(), Some(Pending::ResolveOrder { chooser: Player::France })));
    assert_eq!(legal(&t).iter().filter(|a| matches!(a, Action::Resolve(_))).count(), 2);
}

#[test]
fn scoring_example_of_section_xiii() {
    // XIII Scoring Example: at the end of the second era France wins Friedland (Poland, 2 VP) and
    // Ulm (Germany, 2 VP); she has 11 French and 3 German units with economy 10 (-1 VP); she has
    // the most influence in France (0), Poland (4), Germany (5) and Italy (4): 13 VP. She adds 16.
    let mut t = fresh(16);
    let g = &mut t.game;
    g.era = 1;
    g.leadership = [5, 0];
    g.economy = [10, 20];
    // 11 French units and 3 German units in front of France; Britain keeps nothing that could
    // hold a campaign, and holds no majority anywhere.
    let france = g.sc.nation_id("France").unwrap();
    let germany = g.sc.nation_id("Germany").unwrap();
    for u in 0..g.units.len() {
        g.units.set(u, Loc::Pool);
    }
    let take = |n: u8, k: usize, g: &mut Vg| {
        let ids: Vec<usize> = (0..g.units.len())
            .filter(|&u| g.sc.units[u].nation == n && g.sc.units[u].kind != UnitKind::Navy)
            .take(k)
            .collect();
        assert_eq!(ids.len(), k);
        for u in ids {
            g.units.set(u, Loc::Army(Player::France));
        }
    };
    take(france, 11, g);
    take(germany, 3, g);
    for (i, n) in g.sc.nations.iter().enumerate() {
        g.influence[i] = match n.name.as_str() {
            "France" | "Poland" | "Germany" | "Italy" => [2, 0],
            _ => [0, 0],
        };
    }
    g.vp = [0, 0];
    // Two campaigns in play, French units on both, none for Britain.
    let fried = card(&t, "Battle of Friedland");
    let ulm = card(&t, "Battle of Ulm");
    for name in ["Battle of Friedland", "Battle of Ulm"] {
        campaign(&mut t, Player::France, name);
        let u = t.game.army(Player::France)[0];
        commit(&mut t, Player::France, &[u]);
    }
    // The committed units stay French: 11 French and 3 German in all, and no losses (Britain has
    // no units there).
    t.game.round = 5;
    t.game.played = [6, 5];
    play(&mut t, Player::Britain, "Pitt's Gold", Text::Bottom);
    for _ in 0..2 {
        let a = legal(&t).into_iter().find(|a| matches!(a, Action::Resolve(_))).unwrap();
        t.submit(FR, Act::Game(a)).unwrap();
    }
    let won: Vec<u16> = t.game.results.iter().filter(|r| r.winner == Some(Player::France)).map(|r| r.card).collect();
    assert!(won.contains(&fried) && won.contains(&ulm));
    assert_eq!(t.game.national_units(Player::France), 11);
    // 2 + 2 campaigns, -1 economy, +13 influence.
    assert_eq!(t.game.vp[0], 16);
    assert_eq!(t.game.era, 2, "the next deck comes in");
}

#[test]
fn upkeep_counts_only_the_players_own_units() {
    // VII End of the Era / XIII Economy: economy minus own national units; allied units need no
    // upkeep. Britain: economy 6 less 4 British units = +2 (the 5 Austrian units do not count).
    let mut t = fresh(17);
    t.game.round = 2;
    t.game.played = [6, 5];
    for i in 0..t.game.influence.len() {
        t.game.influence[i] = [0, 0];
    }
    play(&mut t, Player::Britain, "Bank of England Suspends Payments", Text::Bottom); // economy +1: 7
    assert_eq!(t.game.vp[1], 7 - 4);
    assert_eq!(t.game.vp[0], 8 - 7);
}

#[test]
fn majority_scores_the_era_value_and_ties_score_nothing() {
    // XIII Influence: the player with the majority scores the nation's VP for the era; a tie
    // scores nothing.
    let mut t = fresh(18);
    t.game.round = 2;
    t.game.played = [6, 5];
    for i in 0..t.game.influence.len() {
        t.game.influence[i] = [0, 0];
    }
    {
        let n = nation(&t, "Germany");
        t.game.influence[n as usize] = [3, 1];
    } // 4 VP in era 1
    {
        let n = nation(&t, "Italy");
        t.game.influence[n as usize] = [2, 2];
    } // tie
    t.game.economy = [7, 4];
    play(&mut t, Player::Britain, "Pitt's Gold", Text::Bottom); // Britain economy +1: 5
    // France: Germany 4, Italy tied: nothing; upkeep 7 - 7 French units = 0. Britain: upkeep
    // 5 - 4 British units = +1.
    assert_eq!(t.game.vp, [4, 1]);
}

#[test]
fn rounds_six_cards_each_first_player_by_victory_points() {
    // VII: each player plays six cards; the round ends; leftovers are discarded; 10 new cards;
    // the player with more VP plays first (Britain on ties).
    let mut t = fresh(19);
    let mut rng = grognard::engine::rng::TableRng::from_seed(3);
    let mut turns = Vec::new();
    while t.game.round == 0 {
        let s = t.game.active_seat().unwrap();
        if t.game.pending.is_empty() {
            turns.push(s.0);
        }
        let l = legal(&t);
        let a = l[rng.below(l.len())].clone();
        t.submit(s, Act::Game(a)).unwrap();
        if t.game.phase == Phase::GameOver {
            break;
        }
    }
    assert_eq!(turns, [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
    assert!(t.game.hands.iter().all(|h| h.len() == 10));
    let expected = if t.game.vp[0] > t.game.vp[1] { Player::France } else { Player::Britain };
    assert_eq!(t.game.first, expected);
}

#[test]
fn a_card_not_in_hand_or_the_wrong_seat_is_refused_and_the_table_is_untouched() {
    // VII: the active player plays a card from their hand; anything else is refused, naming the rule.
    let mut t = fresh(20);
    let digest = t.digest();
    let fr_card = t.game.hands[0][0];
    let err = t.submit(BR, Act::Game(Action::PlayCard { card: fr_card, text: Text::Bottom })).unwrap_err();
    assert_eq!(err.rule(), Some("VII. The Game & Rounds"));
    let err = t.submit(FR, Act::Game(Action::PlayCard { card: fr_card, text: Text::Bottom })).unwrap_err();
    assert!(err.to_string().contains("Britain"));
    assert_eq!(t.digest(), digest);
    let _ = (Group::Army, NationKind::Minor);
}

#[test]
fn a_bad_reference_in_a_deck_names_its_file_line_and_field() {
    // Data as RON: a malformed scenario names the file, the line and the field.
    let tmp = tempfile::tempdir().unwrap();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/victory-and-glory");
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, tmp.path().join(p.file_name().unwrap())).unwrap();
    }
    let deck = tmp.path().join("deck-1802.ron");
    let text = std::fs::read_to_string(&deck)
        .unwrap()
        .replace("region: \"Poland\", win: [Vp(Player, 2)]", "region: \"Polonia\", win: [Vp(Player, 2)]");
    std::fs::write(&deck, &text).unwrap();
    let err = VgScenario::load(&tmp.path().join("napoleon.ron")).unwrap_err();
    let line = text.lines().position(|l| l.contains("Polonia")).unwrap() + 1;
    assert_eq!((err.file.clone(), err.line), (deck.clone(), line));
    assert!(err.message.contains("campaign.region") && err.message.contains("Polonia"), "{}", err.message);
    // A syntax error names its place too.
    std::fs::write(&deck, text.replacen("(name:", "(nme:", 1)).unwrap();
    let err = VgScenario::load(&tmp.path().join("napoleon.ron")).unwrap_err();
    assert_eq!(err.file, deck);
    assert!(err.line > 1);
}

#[test]
fn every_card_says_where_it_comes_from() {
    // Data as RON with provenance: the decks are reconstructed; the rulebook's example cards say so.
    let t = fresh(21);
    let texts: Vec<String> =
        (0..t.game.sc.cards.len() as u16).map(|c| grognard::games::vg::text::card_text(&t.game, c)).collect();
    assert!(texts.iter().all(|s| s.ends_with("[reconstructed]") || s.contains("[rulebook")));
    let trafalgar = &texts[card(&t, "Battle of Trafalgar") as usize];
    assert!(trafalgar.contains("at sea") && trafalgar.contains("[rulebook IV]"), "{trafalgar}");
    assert_eq!(texts.iter().filter(|s| s.contains("[rulebook")).count(), 6);
    assert!(t.game.sc.eras.iter().all(|e| e.provenance.is_reconstructed()));
}

/// VIII Limitations: "Spanish military units may only be used in campaigns in Spain and France" —
/// not at sea either, though a Spanish naval unit is a naval unit.
#[test]
fn spanish_naval_units_do_not_fight_at_sea() {
    let mut t = fresh(31);
    let spain = nation(&t, "Spain");
    let britain = nation(&t, "Britain");
    let navy_of = |t: &Table<Vg>, n: u8| {
        (0..t.game.units.len() as u8).find(|&u| t.game.unit_nation(u) == n && t.game.unit_kind(u) == UnitKind::Navy)
    };
    let spanish = navy_of(&t, spain).expect("Spain has a naval unit");
    let british = navy_of(&t, britain).expect("Britain has a naval unit");
    t.game.units.set(spanish as usize, Loc::Army(Player::Britain));
    t.game.units.set(british as usize, Loc::Army(Player::Britain));
    let sea = (0..t.game.sc.cards.len() as u16)
        .find(|&c| t.game.sc.cards[c as usize].campaign.as_ref().is_some_and(|k| k.naval))
        .expect("a naval campaign card");
    t.game.campaigns.push(grognard::games::vg::state::CampaignState {
        card: sea,
        region: None,
        naval: true,
        revealed: false,
        resolved: false,
        on_table: false,
    });
    let c = (t.game.campaigns.len() - 1) as u8;
    let valid = t.game.valid_units(Player::Britain, c);
    assert!(valid.contains(&british), "a British naval unit fights at sea");
    assert!(!valid.contains(&spanish), "a Spanish naval unit does not");
}

/// XV a: a campaign card the AI has no military units to send to goes in front of the player —
/// counting only the units that may join that campaign (a Spanish unit cannot go to Italy).
#[test]
fn solo_ai_hands_over_a_campaign_it_has_no_valid_units_for() {
    let mut t = vg::table_on(scenario(), 32, Some(Player::France));
    let spain = nation(&t, "Spain");
    let (france, italy) = (nation(&t, "France"), nation(&t, "Italy"));
    let italian = (0..t.game.sc.cards.len() as u16)
        .find(|&c| t.game.sc.cards[c as usize].campaign.as_ref().is_some_and(|k| k.region == Some(italy) && !k.naval))
        .expect("a land campaign in Italy");
    for u in 0..t.game.units.len() {
        if matches!(t.game.units[u], Loc::Army(_)) {
            t.game.units.set(u, Loc::Pool);
        }
    }
    let unit_of = |t: &Table<Vg>, n: u8| {
        (0..t.game.units.len() as u8).find(|&u| t.game.unit_nation(u) == n && t.game.unit_kind(u) != UnitKind::Navy)
    };
    let spanish = unit_of(&t, spain).expect("a Spanish land unit");
    t.game.units.set(spanish as usize, Loc::Army(Player::France));
    assert!(t.game.campaign_disadvantages_ai(italian), "only a Spanish unit: nothing to send to Italy");
    let french = unit_of(&t, france).expect("a French land unit");
    t.game.units.set(french as usize, Loc::Army(Player::France));
    assert!(!t.game.campaign_disadvantages_ai(italian), "a French unit may go");
}

/// Appendix A, "Units in the Game", as the rulebook prints it, every nation to Poland's line.
const APPENDIX_A: &str = "
FRANCE (blue): Infantry 1 x3; Navy 1 x2; Infantry 2 x1; Cavalry 2 x1 (Hussar); Artillery 2 x1; Navy 2 x2; Infantry 3 x1; Cavalry 3 x1 (Dragoon); Artillery 3 x1; Navy 3 x2; Infantry 4 x1 (Elite Guard); Cavalry 4 x1 (Cuirassier); Artillery 4 x1 (Guard Artillery).
BRITAIN (red): Navy 1 x2; Infantry 2 x1; Cavalry 2 x1 (Light Cavalry); Artillery 2 x1; Navy 2 x2; Infantry 3 x1; Cavalry 3 x1 (Heavy Cavalry); Navy 3 x2; Infantry 4 x1; Navy 4 x2.
PRUSSIA (purple): Infantry 1 x3 (Landwehr Militia); Cavalry 1 x1 (Landwehr Cavalry); Infantry 2 x1; Cavalry 2 x1 (Hussar Light Cavalry); Artillery 2 x1; Infantry 3 x1.
AUSTRIA (gray): Infantry 1 x2 (Landwehr); Infantry 2 x1; Cavalry 2 x1 (Hussar Light Cavalry); Artillery 2 x1; Infantry 3 x1; Cavalry 3 x1 (Heavy Cavalry); Artillery 3 x1.
RUSSIA (green): Infantry 1 x3 (Militia); Cavalry 1 x3 (Cossack); Infantry 2 x1; Cavalry 2 x1 (Hussar Light Cavalry); Artillery 2 x1 (Horse Artillery); Infantry 3 x1 (Guard Infantry); Cavalry 3 x1 (Heavy Cavalry); Artillery 3 x1.
SPAIN (yellow): Infantry 1 x4 (Guerilla); Infantry 2 x1; Cavalry 2 x1; Artillery 2 x1; Navy 1 x2.
GERMANY (light blue): Infantry 1 x2; Infantry 2 x1; Cavalry 2 x1; Artillery 2 x1 (French Artillery); Infantry 3 x1; Cavalry 3 x1; Artillery 3 x1 (French Artillery).
ITALY (orange): Infantry 1 x2; Infantry 2 x1; Cavalry 2 x1 (French Dragoon Cavalry); Artillery 2 x1 (French Artillery).
POLAND (beige): Infantry 2 x2; Cavalry 2 x2; Cavalry 3 x2.
";

/// Appendix A (issue 63, item 8): every nation's units are the appendix's, Poland's included
/// (Infantry 2 x2, Cavalry 2 x2, Cavalry 3 x2), with the one addition the scenario names: section
/// V's Spanish Navy 2.
#[test]
fn every_nations_units_are_those_appendix_a_prints() {
    let sc = scenario();
    let mut printed: Vec<(String, String, u8, usize)> = Vec::new();
    for line in APPENDIX_A.lines().filter(|l| !l.trim().is_empty()) {
        let (nation, rest) = line.split_once(" (").unwrap();
        let nation = nation[..1].to_string() + &nation[1..].to_lowercase();
        let rest = rest.split_once("): ").unwrap().1.trim_end_matches('.');
        for entry in rest.split("; ") {
            let words: Vec<&str> = entry.split_whitespace().collect();
            let count: usize = words[2].trim_start_matches('x').parse().unwrap();
            printed.push((nation.clone(), words[0].to_string(), words[1].parse().unwrap(), count));
        }
    }
    printed.push(("Spain".into(), "Navy".into(), 2, 1));
    let mut shipped: Vec<(String, String, u8, usize)> = Vec::new();
    for u in &sc.units {
        let key = (sc.nation_name(u.nation).to_string(), u.kind.name().to_string(), u.value);
        match shipped.iter_mut().find(|(n, k, v, _)| (n, k, v) == (&key.0, &key.1, &key.2)) {
            Some(found) => found.3 += 1,
            None => shipped.push((key.0, key.1, key.2, 1)),
        }
    }
    printed.sort();
    shipped.sort();
    assert_eq!(shipped, printed);
    let poland: Vec<_> = shipped.iter().filter(|u| u.0 == "Poland").collect();
    assert_eq!(poland.len(), 3, "{poland:?}");
}
