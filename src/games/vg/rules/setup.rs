//! V. Setup: the nations' influence, the tracks, the units in their places, the decks of the
//! three eras and the first hands.

use super::*;

/// Sets the table up as section V says.
pub fn setup(sc: Arc<VgScenario>, seed: u64) -> (Vg, Vec<Event>) {
    let mut rng = TableRng::from_seed(seed);
    let s = &sc.setup;
    let mut influence = vec![[0u8; 2]; sc.nations.len()];
    for &(n, p, c) in &s.influence {
        influence[n as usize][p.index()] = influence[n as usize][p.index()].saturating_add(c);
    }
    let mut allies = vec![None; sc.nations.len()];
    for &(n, p) in &s.allies {
        allies[n as usize] = Some(p);
    }
    let mut units = vec![Loc::Pool; sc.units.len()];
    for &u in &s.units {
        let nation = sc.units[u].nation;
        units[u] = match (sc.nations[nation as usize].kind, allies[nation as usize]) {
            (NationKind::Player, _) => {
                Loc::Army(if sc.nations[nation as usize].name == "France" { Player::France } else { Player::Britain })
            }
            (_, Some(p)) => Loc::Army(p),
            (_, None) => Loc::Holding,
        };
    }
    let mut deck: Vec<CardId> = (0..sc.cards.len() as CardId).filter(|&c| sc.cards[c as usize].era == 0).collect();
    rng.shuffle(&mut deck);
    let mut g = Vg {
        rng,
        phase: Phase::Play,
        era: 0,
        round: 0,
        turn: Player::Britain,
        first: Player::Britain,
        played: [0; 2],
        quota: [CARDS_PER_ROUND; 2],
        deck,
        discard: Vec::new(),
        hands: [Vec::new(), Vec::new()],
        in_front: [Vec::new(), Vec::new()],
        economy: s.economy,
        leadership: s.leadership,
        vp: s.victory_points,
        influence,
        allies,
        units: Units::new(units),
        campaigns: Vec::new(),
        tasks: Vec::new(),
        pending: Vec::new(),
        solo: None,
        results: Vec::new(),
        chance: false,
        across_machines: false,
        sc,
    };
    let mut events = vec![Event::SetUp { economy: g.economy, leadership: g.leadership }];
    g.start_round(&mut events);
    (g, events)
}
