//! How to Win: victory points for cities held, units destroyed and exited, and the exit off the
//! east edge (ESM).

use super::fortresses::besieger;
use super::supply::only_support;
use super::zoc::Situation;
use crate::games::leipzig::actions::Event;
use crate::games::leipzig::actions::{LzError, rule};
use crate::games::leipzig::data::{Hex, Side};
use crate::games::leipzig::state::{Leipzig, Status, UnitId, What};

impl Leipzig {
    /// The victory points each side holds now (cities by their last occupier, or at the end by
    /// siege; destroyed units; groups off the east edge).
    pub fn victory_points(&self, last: bool) -> [i32; 2] {
        let mut vp = [self.unit_vp[0] as i32, self.unit_vp[1] as i32];
        let s = Situation::of(self);
        for (i, (city, points)) in self.sc.victory.cities.iter().enumerate() {
            if city == "Prague" && !self.austria_at_war {
                continue;
            }
            let h = self.sc.board.place(city).expect("checked on load");
            match besieger(self, &s, h).filter(|_| last) {
                Some(side) => {
                    vp[side.index()] += *points as i32;
                    let inside: u16 = self.at(h).map(|u| self.divisions(u) + u16::from(self.is_leader(u))).sum();
                    vp[side.index()] += (inside * self.sc.victory.division as u16 / 2) as i32;
                }
                None => vp[self.owners[i].index()] += *points as i32,
            }
        }
        if let Some(esm) = self.sc.victory.esm {
            let groups = (self.exited[0] / 6).min(self.exited[1]).min(self.exited[2]);
            vp[0] += groups as i32 * esm as i32;
        }
        vp
    }

    /// The edge a counter may leave the map by now, if any: the French by the east edge in the
    /// scenarios that count ESM groups; during the armistice an Allied counter north-east of the
    /// line by the east edge, one in Austria by the south edge (Armistice).
    pub fn exit_edge(&self, u: UnitId) -> Option<crate::games::leipzig::data::Edge> {
        use crate::games::leipzig::data::Edge;
        let unit = &self.units[u as usize];
        let h = unit.hex?;
        match unit.side {
            Side::French => self.sc.victory.esm.map(|_| Edge::East),
            Side::Allied if self.armistice_on() => {
                let b = &self.sc.board;
                if b.austria[h.0 as usize] {
                    Some(Edge::South)
                } else if b.allied_side[h.0 as usize] {
                    Some(Edge::East)
                } else {
                    None
                }
            }
            Side::Allied => None,
        }
    }

    /// A counter that can reach its exit edge with a Movement Point left may leave the map.
    pub fn can_exit(&self, s: &Situation, u: UnitId) -> bool {
        let Some(edge) = self.exit_edge(u) else { return false };
        if self.units[u as usize].side != self.side || !self.can_move(u) {
            return false;
        }
        let b = &self.sc.board;
        let left = self.movement(u).saturating_sub(self.units[u as usize].spent);
        // Every hex costs one at least: a counter farther from the edge than its points left
        // cannot get off it (no search needed).
        let at = self.units[u as usize].hex.expect("on the map");
        let (c, r) = b.col_row(at);
        let away = match edge {
            crate::games::leipzig::data::Edge::East => b.columns - 1 - c,
            crate::games::leipzig::data::Edge::South => b.rows - 1 - r,
            crate::games::leipzig::data::Edge::North => r,
            crate::games::leipzig::data::Edge::West => c,
        };
        if away as u16 + 1 > left as u16 {
            return false;
        }
        let r = self.reach(s, u, left.saturating_sub(1));
        let must_support = if self.is_supply(u) { only_support(self, s, u) } else { Vec::new() };
        must_support.is_empty() && r.each().any(|(hex, stop)| b.on_edge(hex, edge) && (!stop || hex == r.start))
    }

    pub fn apply_exit(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        self.moved_any = true;
        if self.units[u as usize].side == Side::Allied {
            // The way round: back on the other side of the line eight turns later.
            let from_austria = self.units[u as usize].hex.is_some_and(|h| self.sc.board.austria[h.0 as usize]);
            let at = if from_austria {
                crate::games::leipzig::data::Entry::EastEdgeNorth
            } else {
                crate::games::leipzig::data::Entry::EastEdgeAustria
            };
            let back = self.turn + 8;
            let unit = &mut self.units[u as usize];
            unit.moved = true;
            unit.status = Status::Away { back, at };
            ev.push(Event::Detour { unit: u, back });
            return;
        }
        let slot = match self.units[u as usize].what {
            What::Leader(_) => 1,
            _ if self.is_supply(u) => 2,
            _ => 0,
        };
        let unit = &mut self.units[u as usize];
        unit.moved = true;
        unit.status = Status::Gone(crate::games::leipzig::state::Gone::Exited);
        let add = if slot == 0 { self.divisions(u) } else { 1 };
        self.exited[slot] += add;
        ev.push(Event::Exited { unit: u });
    }

    /// The side last to occupy each victory city (How to Win).
    pub fn update_owners(&mut self, ev: &mut Vec<Event>) {
        // Who stands on each city, found in one pass over the counters (after every move).
        let mut hexes: Vec<Hex> = self.sc.city_hexes.iter().flatten().copied().collect();
        hexes.sort_unstable();
        hexes.dedup();
        let held = self.sides_at(&hexes);
        let sc = self.sc.clone();
        for (i, ((city, _), h)) in sc.victory.cities.iter().zip(&sc.city_hexes).enumerate() {
            let Some(h) = h else { continue };
            if let Some(side) = hexes.binary_search(h).ok().and_then(|k| held[k])
                && self.owners[i] != side
            {
                self.owners[i] = side;
                ev.push(Event::CityTaken { city: city.clone(), side });
                if city == "Berlin" && side == Side::French && self.berlin_taken.is_none() {
                    self.berlin_taken = Some(self.turn);
                }
            }
        }
    }
}

// The legal listing and the refusals of this chapter.
impl Leipzig {
    pub(super) fn refuse_exit(&self) -> LzError {
        LzError::new(
            rule::VICTORY,
            "only French counters on the east edge with a Movement Point left may move off it (ESM)",
        )
    }
}
