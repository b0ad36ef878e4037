//! Everything a viewer may not see, dealt otherwise: the same table with the pile's order and
//! contents, the other hand, hidden missions or units and the table's future chance changed. What
//! a viewer is shown must not change (tests/observe.rs on the views, tests/net_leak.rs on every
//! frame a host sends).
#![allow(dead_code)]
use grognard::engine::rng::TableRng;
use grognard::engine::seats::{SeatId, Viewer};
use grognard::games::botn::Botn;
use grognard::games::botn::state::HandCard;
use grognard::games::leipzig;
use grognard::games::vg::Vg;
use grognard::games::vg::state::Loc;

/// Battle of the Nations: the same table with everything `viewer` may not see dealt otherwise.
pub fn scramble_botn(g: &Botn, viewer: Viewer, rng: &mut TableRng) -> Botn {
    let mut s = g.clone();
    s.rng = TableRng::from_seed(rng.below(1 << 30) as u64);
    rng.shuffle(&mut s.draw_pile);
    for side in 0..2 {
        if viewer == Viewer::Seat(SeatId(side as u8)) {
            continue;
        }
        for c in s.hands[side].iter_mut() {
            if let HandCard::Action(id) = c
                && !s.draw_pile.is_empty()
            {
                let i = rng.below(s.draw_pile.len());
                std::mem::swap(id, &mut s.draw_pile[i]);
            }
        }
    }
    if viewer != Viewer::Seat(SeatId(0)) {
        // Napoléon's hidden missions, the drafted pair and the districts' piles: any cards.
        let all = g.sc.missions.len() as u8;
        for i in g.revealed as usize..s.missions.len() {
            s.missions[i] = rng.below(all as usize) as u8;
        }
        for m in s.draft_pair.iter_mut() {
            *m = rng.below(all as usize) as u8;
        }
        for pile in s.mission_piles.iter_mut() {
            for m in pile.iter_mut() {
                *m = rng.below(all as usize) as u8;
            }
        }
    } else {
        for pile in s.mission_piles.iter_mut() {
            rng.shuffle(pile);
        }
    }
    s
}

/// Victory & Glory: the same table with everything `viewer` may not see dealt otherwise.
pub fn scramble_vg(g: &Vg, viewer: Viewer, rng: &mut TableRng) -> Vg {
    let mut s = g.clone();
    s.rng = TableRng::from_seed(rng.below(1 << 30) as u64);
    rng.shuffle(&mut s.deck);
    for p in 0..2 {
        if viewer == Viewer::Seat(SeatId(p as u8)) {
            continue;
        }
        for c in s.hands[p].iter_mut() {
            if !s.deck.is_empty() {
                let i = rng.below(s.deck.len());
                std::mem::swap(c, &mut s.deck[i]);
            }
        }
    }
    // Every unit the viewer may not see changes places with another unseen unit of its nation.
    let unseen: Vec<u8> = (0..g.units.len() as u8)
        .filter(|&u| g.units[u as usize] != Loc::Holding && !g.unit_seen_by(u, viewer))
        .collect();
    for &u in &unseen {
        let same: Vec<u8> = unseen.iter().copied().filter(|&o| g.unit_nation(o) == g.unit_nation(u)).collect();
        let o = same[rng.below(same.len())];
        let (at_u, at_o) = (s.units[u as usize], s.units[o as usize]);
        s.units.set(u as usize, at_o);
        s.units.set(o as usize, at_u);
    }
    s
}

/// Leipzig: the same table with every Allied counter the viewer may not identify changed into
/// another hidden one's type, and other chance.
pub fn scramble_leipzig(g: &leipzig::Leipzig, viewer: Viewer, rng: &mut TableRng) -> leipzig::Leipzig {
    let mut s = g.clone();
    s.rng = TableRng::from_seed(rng.below(1 << 30) as u64);
    let hidden: Vec<usize> = (0..g.units.len()).filter(|&u| !g.seen_by(u, viewer)).collect();
    for &u in &hidden {
        let o = hidden[rng.below(hidden.len())];
        let (a, b) = (s.units[u].what, s.units[o].what);
        s.units[u].what = b;
        s.units[o].what = a;
    }
    s
}
