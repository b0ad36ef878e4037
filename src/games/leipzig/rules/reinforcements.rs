//! Reinforcements: who arrives this Game-Turn, and where it enters.

use super::fortresses::besieger;
use super::zoc::Situation;
use crate::games::leipzig::actions::Event;
use crate::games::leipzig::actions::{Action, LzError, rule};
use crate::games::leipzig::data::{Edge, Entry, Hex, Kind, ReinforcementRow, Side, Terrain};
use crate::games::leipzig::state::{Leipzig, Status, UnitId, What};

impl Leipzig {
    pub fn arriving(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter(move |(_, u)| u.side == self.side && matches!(u.status, Status::Arriving(_)))
            .map(|(i, _)| i as UnitId)
    }

    /// Where an arriving counter may enter (Reinforcements): its edge or city, never onto Enemy
    /// units, a cavalry unit never into mountains.
    pub fn entry_hexes(&self, u: UnitId) -> Vec<Hex> {
        let Status::Arriving(entry) = &self.units[u as usize].status else { return Vec::new() };
        let b = &self.sc.board;
        let side = self.units[u as usize].side;
        let elbe = b.elbe_column().unwrap_or(b.columns / 2);
        // The edge's hexes alone, in the map's order, rather than every hex of the map.
        let mut hexes: Vec<Hex> = match entry {
            Entry::WestEdge => b.edge(Edge::West).collect(),
            Entry::NorthEdgeByElbe => {
                b.edge(Edge::North).filter(|&h| b.col_row(h).0 <= elbe && b.col_row(h).0 + 2 >= elbe).collect()
            }
            Entry::NorthEdgeEastOfElbe => b.edge(Edge::North).filter(|&h| b.col_row(h).0 > elbe).collect(),
            Entry::EastEdge => b.edge(Edge::East).collect(),
            Entry::SouthEdgeWestOfAustria => {
                let first_austria = (0..b.columns)
                    .find(|&c| b.hex(c, b.rows - 1).is_some_and(|h| b.austria[h.0 as usize]))
                    .unwrap_or(b.columns);
                b.edge(Edge::South).filter(|&h| b.col_row(h).0 < first_austria).collect()
            }
            Entry::City(c) => b.place(c).into_iter().collect(),
            Entry::EastEdgeAustria => b.edge(Edge::East).filter(|&h| b.austria[h.0 as usize]).collect(),
            Entry::EastEdgeNorth => b.edge(Edge::East).filter(|&h| b.allied_side[h.0 as usize]).collect(),
        };
        let austria = self.austria_open();
        self.drop_held_by(side.other(), &mut hexes);
        hexes.retain(|&h| {
            !(self.is_cavalry(u) && b.terrain(h) == Terrain::Mountain)
                && (austria
                    || !b.austria[h.0 as usize]
                    || self.units[u as usize].austrian
                    || matches!(entry, Entry::EastEdgeAustria))
        });
        hexes
    }

    /// Every arriving counter onto one of its entry hexes: the least crowded, nearest the middle
    /// of its entry (or withdrawn, if none is left).
    pub fn apply_enter_rest(&mut self, ev: &mut Vec<Event>) {
        while let Some(u) = { self.arriving().next() } {
            let hexes = self.entry_hexes(u);
            let mid = hexes.len() / 2;
            let best =
                hexes.iter().enumerate().min_by_key(|&(i, &h)| (self.at(h).count(), i.abs_diff(mid))).map(|(_, &h)| h);
            match best {
                Some(h) => self.apply_enter(u, h, ev),
                None => {
                    self.units[u as usize].status = Status::Gone(crate::games::leipzig::state::Gone::Withdrawn);
                    ev.push(Event::Delayed { side: self.side, count: 1, why: "no free hex to enter".into() });
                }
            }
        }
    }

    pub fn apply_enter(&mut self, u: UnitId, h: Hex, ev: &mut Vec<Event>) {
        self.units[u as usize].status = Status::OnMap;
        self.units[u as usize].hex = Some(h);
        self.entered_any = true;
        ev.push(Event::Arrived { unit: u, hex: h });
        self.update_owners(ev);
    }

    /// The Reinforcement Chart's rows for this player-turn become arriving counters; those whose
    /// city is besieged or held by the Enemy do not appear (Breslau's go to the east edge).
    pub(super) fn bring_reinforcements(&mut self, ev: &mut Vec<Event>) {
        let side = self.side;
        let turn = self.turn;
        let rows: Vec<ReinforcementRow> = self
            .sc
            .reinforcements
            .iter()
            .chain(self.extra.iter())
            .filter(|r| r.turn == turn && r.side == side)
            .cloned()
            .collect();
        let s = Situation::of(self);
        for row in rows {
            if side == Side::French && self.rebellion {
                ev.push(Event::Delayed {
                    side,
                    count: row.infantry + row.cavalry + row.supply,
                    why: "the German rebellion cancels French reinforcements".into(),
                });
                continue;
            }
            let mut at = row.at.clone();
            if let Entry::City(c) = &row.at {
                let h = self.sc.board.place(c).expect("checked on load");
                if c == "Prague" && !self.austria_at_war {
                    continue; // Austria neutral: no reinforcements for Prague
                }
                let lost = besieger(self, &s, h) == Some(side.other()) || self.side_at(h) == Some(side.other());
                if lost && c == "Breslau" {
                    at = Entry::EastEdge;
                } else if lost {
                    ev.push(Event::Delayed {
                        side,
                        count: row.infantry + row.cavalry + row.supply,
                        why: format!("{c} is besieged or held by the Enemy"),
                    });
                    continue;
                }
            }
            let inf = self
                .sc
                .types
                .iter()
                .position(|t| t.kind == Kind::Infantry && t.breaks_into.is_none())
                .expect("a division type") as u8;
            let cav = self
                .sc
                .types
                .iter()
                .position(|t| t.kind == Kind::Cavalry && t.breaks_into.is_none())
                .expect("a division type") as u8;
            let sup = self.sc.types.iter().position(|t| t.kind == Kind::Supply).expect("a supply type") as u8;
            let mut whats: Vec<What> = Vec::new();
            whats.extend(std::iter::repeat_n(What::Type(inf), row.infantry as usize));
            whats.extend(std::iter::repeat_n(What::Type(cav), row.cavalry as usize));
            let supply = (row.supply as usize).min(self.supply_available(side));
            whats.extend(std::iter::repeat_n(What::Type(sup), supply));
            for &n in &row.leaders {
                if !self.units.iter().any(|u| u.side == side && u.what == What::Leader(n)) {
                    whats.push(What::Leader(n));
                }
            }
            if side == Side::Allied {
                self.rng.shuffle(&mut whats);
            }
            for w in whats {
                let id = self.add_unit(side, w, Status::Arriving(at.clone()));
                self.units[id as usize].revealed = side == Side::French;
                self.units[id as usize].austrian = matches!(&at, Entry::City(c) if c == "Prague");
            }
        }
        // Arrivals with nowhere to enter do not appear.
        for u in self.arriving().collect::<Vec<_>>() {
            if self.entry_hexes(u).is_empty() {
                self.units[u as usize].status = Status::Gone(crate::games::leipzig::state::Gone::Withdrawn);
                ev.push(Event::Delayed { side, count: 1, why: "no free hex to enter".into() });
            }
        }
    }
}

// The legal listing and the refusals of this chapter.
impl Leipzig {
    /// The armistice where it may be called, and the entry hexes of the next counter to arrive.
    pub(super) fn list_enter(&self, out: &mut Vec<Action>) {
        if self.can_armistice() {
            out.push(Action::Armistice);
        }
        if let Some(u) = self.arriving().next() {
            for hex in self.entry_hexes(u) {
                out.push(Action::Enter { unit: u, hex });
            }
            out.push(Action::EnterRest);
        }
    }

    pub(super) fn refuse_enter(&self) -> LzError {
        LzError::new(rule::REINFORCEMENTS, "reinforcements enter where the chart says, never onto Enemy units")
    }
}
