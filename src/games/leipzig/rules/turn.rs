//! Game Turn Sequence, How to Use the Scenarios, Reinforcements, the Special Game Rules (Saxon
//! Garrison, Bavarian Defection), the Special Campaign-Game Rules (Armistice, German Rebellion,
//! Austrian Intervention) and How to Win: everything that happens between the players' decisions.

use super::zoc::{Situation, besieger};
use crate::engine::rng::TableRng;
use crate::games::leipzig::actions::Event;
use crate::games::leipzig::data::{Edge, Entry, Hex, Kind, LzScenario, Placement, ReinforcementRow, Side, Terrain};
use crate::games::leipzig::state::{Leipzig, Pending, Status, Step, UnitId, What};
use std::sync::Arc;

/// A new table: the Allies deploy first, then the French, then the French move first.
pub fn setup(sc: Arc<LzScenario>, seed: u64) -> (Leipzig, Vec<Event>) {
    let mut g = Leipzig {
        owners: sc
            .victory
            .cities
            .iter()
            .map(|(c, _)| sc.victory.owners.iter().find(|(o, _)| o == c).map(|(_, s)| *s).unwrap_or(Side::Allied))
            .collect(),
        austria_at_war: sc.austria == crate::games::leipzig::data::AustriaRule::Open,
        turn: sc.first_turn,
        sc: sc.clone(),
        rng: TableRng::from_seed(seed),
        side: Side::French,
        step: Step::Deploy(Side::Allied),
        units: Vec::new(),
        attacks: Vec::new(),
        defended: Vec::new(),
        pending: Vec::new(),
        march: None,
        overrun: Vec::new(),
        moved_any: false,
        unit_vp: [0; 2],
        combat_losses: [0; 2],
        exited: [0; 3],
        supply_lost: [0; 2],
        armistice: None,
        rebellion: false,
        bavaria: false,
        berlin_taken: None,
        entered_any: false,
        extra: Vec::new(),
        winner: None,
        final_vp: None,
    };
    let mut ev = Vec::new();
    // The Allies' counters first, each group's ids in a drawn order so that an id tells the
    // French nothing of what a blank is (Reconnaissance).
    for side in [Side::Allied, Side::French] {
        for (gi, _) in sc.groups.iter().enumerate().filter(|(_, g)| g.side == side) {
            g.add_group(gi as u16, false, &mut ev);
        }
    }
    ev.push(Event::TurnBegins { turn: g.turn });
    g.next_deploy(&mut ev);
    (g, ev)
}

impl Leipzig {
    /// Creates a group's counters: placed directly on their city, or waiting for their player.
    fn add_group(&mut self, gi: u16, intervention: bool, ev: &mut Vec<Event>) {
        let sc = self.sc.clone();
        let group = if intervention { &sc.intervention[gi as usize] } else { &sc.groups[gi as usize] };
        let mut whats: Vec<What> =
            group.counters.iter().map(|c| What::Type(sc.type_index(c).expect("checked on load"))).collect();
        whats.extend(group.leaders.iter().map(|&n| What::Leader(n)));
        if group.side == Side::Allied {
            self.rng.shuffle(&mut whats);
        }
        let direct = match &group.at {
            Placement::On(p) => sc.board.place(p),
            _ => None,
        };
        for what in whats {
            let status = if direct.is_some() { Status::OnMap } else { Status::Deploy { group: gi, intervention } };
            let id = self.add_unit(group.side, what, status);
            let u = &mut self.units[id as usize];
            u.garrison = group.saxon_garrison && sc.saxon_garrison;
            u.gotha = group.gotha;
            u.austrian = group.austrian;
            u.revealed = group.side == Side::French;
            if let Some(h) = direct {
                u.hex = Some(h);
                ev.push(Event::Deployed { unit: id, hex: h });
            }
        }
    }

    /// The counters still to deploy of a side.
    pub fn to_deploy(&self, side: Side) -> impl Iterator<Item = UnitId> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter(move |(_, u)| u.side == side && matches!(u.status, Status::Deploy { .. }))
            .map(|(i, _)| i as UnitId)
    }

    fn group_of(&self, u: UnitId) -> Option<&crate::games::leipzig::data::Group> {
        match self.units[u as usize].status {
            Status::Deploy { group, intervention: false } => self.sc.groups.get(group as usize),
            Status::Deploy { group, intervention: true } => self.sc.intervention.get(group as usize),
            _ => None,
        }
    }

    /// The deployments open now: the counters of the first group still deploying (any of them,
    /// so the order tells nothing) on any hex its placement allows; a free group's counters one by
    /// one (How to Use the Scenarios).
    pub fn deploy_actions(&self, side: Side, only: Option<UnitId>, out: &mut Vec<(UnitId, Hex)>) {
        let Some(first) = self.to_deploy(side).next() else { return };
        let group = self.units[first as usize].status.clone();
        let g = self.group_of(first).expect("a deploying group");
        let mut hexes: Vec<Hex> = self.sc.placement_hexes(&g.at, g.austrian);
        self.drop_held_by(side.other(), &mut hexes);
        let units: Vec<UnitId> = if g.free {
            vec![first]
        } else {
            self.to_deploy(side).filter(|&u| self.units[u as usize].status == group).collect()
        };
        for u in units {
            if only.is_some_and(|o| o != u) {
                continue;
            }
            for &h in &hexes {
                out.push((u, h));
            }
        }
    }

    pub fn apply_deploy(&mut self, u: UnitId, h: Hex, ev: &mut Vec<Event>) {
        self.units[u as usize].status = Status::OnMap;
        self.units[u as usize].hex = Some(h);
        ev.push(Event::Deployed { unit: u, hex: h });
    }

    /// Every counter still to deploy of the deploying side, spread over distinct hexes around
    /// its group's place (a free group around its suggested places).
    pub fn apply_deploy_rest(&mut self, ev: &mut Vec<Event>) {
        let Step::Deploy(side) = self.step else { return };
        let sc = self.sc.clone();
        let b = &sc.board;
        let mut taken: Vec<Hex> = Vec::new();
        loop {
            let Some(u) = self.to_deploy(side).next() else { break };
            let g = self.group_of(u).expect("deploying").clone();
            let hexes = self.sc.placement_hexes(&g.at, g.austrian);
            let centres: Vec<Hex> = match &g.at {
                Placement::On(p) | Placement::Within(p, _) => b.place(p).into_iter().collect(),
                Placement::FrenchSide => g.suggested.iter().filter_map(|p| b.place(p)).collect(),
            };
            let k = taken.len();
            let centre = centres.get(k % centres.len().max(1)).copied().unwrap_or(hexes[0]);
            let free = |h: &Hex| !taken.contains(h) && self.side_at(*h).is_none();
            let h = hexes
                .iter()
                .copied()
                .filter(free)
                .min_by_key(|&h| (b.distance(centre, h), h))
                .or_else(|| hexes.iter().copied().min_by_key(|&h| (b.distance(centre, h), h)))
                .expect("a placement with hexes");
            taken.push(h);
            self.apply_deploy(u, h, ev);
        }
    }

    /// Moves on from deployment: the Allies, then the French, then the first player-turn.
    pub fn next_deploy(&mut self, ev: &mut Vec<Event>) {
        for side in [Side::Allied, Side::French] {
            if self.to_deploy(side).next().is_some() {
                self.step = Step::Deploy(side);
                return;
            }
        }
        self.begin_player_turn(ev);
    }

    /// The start of a player-turn: flags cleared, the rebellion's levy, reinforcements, the
    /// reconnaissance of units adjacent at the start of the French Movement Phase.
    pub fn begin_player_turn(&mut self, ev: &mut Vec<Event>) {
        let side = self.side;
        for u in self.units.iter_mut().filter(|u| u.side == side) {
            u.moved = false;
            u.spent = 0;
            u.attacked = false;
            u.stays = false;
            u.used = Default::default();
            if let Some(d) = &mut u.dispersed {
                d.fresh = false;
            }
        }
        for u in self.units.iter_mut() {
            u.used = Default::default();
        }
        self.attacks.clear();
        self.defended.clear();
        self.overrun.clear();
        self.moved_any = false;
        ev.push(Event::PhaseBegins { side, step: "Movement Phase".into() });
        if side == Side::French && self.rebellion {
            self.rebellion_levy();
        }
        // Counters away on the armistice's way round come back on their turn.
        for u in self.units.iter_mut().filter(|u| u.side == side) {
            if let Status::Away { back, at } = &u.status
                && *back <= self.turn
            {
                u.status = Status::Arriving(at.clone());
            }
        }
        self.bring_reinforcements(ev);
        if side == Side::French && self.reconnaissance() {
            self.reveal_adjacent(ev);
        }
        self.step = if self.arriving().next().is_some() { Step::Enter } else { Step::Move };
    }

    /// The French examine every Allied counter next to a French unit at the start of their
    /// Movement Phase (Reconnaissance).
    fn reveal_adjacent(&mut self, ev: &mut Vec<Event>) {
        let b = &self.sc.board;
        let french: Vec<Hex> = self.on_map(Side::French).filter_map(|u| self.hex_of(u)).collect();
        let mut seen = Vec::new();
        for u in self.on_map(Side::Allied).collect::<Vec<_>>() {
            let h = self.hex_of(u).expect("on the map");
            if !self.units[u as usize].revealed && french.iter().any(|&f| b.adjacent(f, h)) {
                seen.push(u);
            }
        }
        for &u in &seen {
            self.units[u as usize].revealed = true;
        }
        if !seen.is_empty() {
            ev.push(Event::Revealed { units: seen });
        }
    }

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
    fn bring_reinforcements(&mut self, ev: &mut Vec<Event>) {
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

    /// German Rebellion: the French Player removes two divisions a turn, his choice which.
    fn rebellion_levy(&mut self) {
        self.pending.push(Pending::Lose { attack: None, divisions: 2 });
    }

    /// The end of the Movement Phase: forced-march supply used up, dispersals counted.
    pub fn end_movement(&mut self, ev: &mut Vec<Event>) {
        for u in self.on_map(self.side).collect::<Vec<_>>() {
            if self.units[u as usize].used.march && !self.units[u as usize].used.combat {
                self.units[u as usize].status =
                    crate::games::leipzig::state::Status::Gone(crate::games::leipzig::state::Gone::Consumed);
                ev.push(Event::SupplyUsed { unit: u });
            }
        }
        self.entered_any = false;
        self.count_phase(true, ev);
        ev.push(Event::PhaseBegins { side: self.side, step: "Combat Phase".into() });
        self.step = Step::Declare;
    }

    /// A friendly phase has passed for the phasing side's dispersed units (Combat, case K).
    fn count_phase(&mut self, movement: bool, ev: &mut Vec<Event>) {
        let side = self.side;
        for i in 0..self.units.len() {
            let u = &mut self.units[i];
            if u.side != side || !u.on_map() {
                continue;
            }
            let Some(d) = &mut u.dispersed else { continue };
            if d.fresh {
                d.fresh = false;
                continue;
            }
            if movement {
                d.movement = true
            } else {
                d.combat = true
            }
            if d.movement && d.combat {
                u.dispersed = None;
                ev.push(Event::Recovered { unit: i as UnitId });
            }
        }
    }

    /// The end of the Combat Phase and of the player-turn.
    pub fn end_combat(&mut self) {
        self.step = Step::Consume;
    }

    /// After the last choice of supply: supply used up, the phase counted, the next player-turn.
    pub fn finish_combat(&mut self, ev: &mut Vec<Event>) {
        self.consume_supply(ev);
        self.count_phase(false, ev);
        if self.side == Side::French {
            self.side = Side::Allied;
            self.begin_player_turn(ev);
        } else {
            self.end_game_turn(ev);
        }
    }

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

    /// The end of a Game-Turn: victory at the last, Bavaria's defection, Austria's intervention,
    /// the armistice's end, the German rebellion.
    fn end_game_turn(&mut self, ev: &mut Vec<Event>) {
        if self.turn >= self.sc.last_turn {
            let vp = self.victory_points(true);
            self.winner = match vp[0].cmp(&vp[1]) {
                std::cmp::Ordering::Greater => Some(Side::French),
                std::cmp::Ordering::Less => Some(Side::Allied),
                std::cmp::Ordering::Equal => None,
            };
            self.final_vp = Some(vp);
            self.step = Step::Over;
            ev.push(Event::GameOver { vp, winner: self.winner });
            return;
        }
        let vp = self.victory_points(false);
        if let Some(from) = self.sc.bavarian_defection_from
            && self.turn >= from
            && !self.bavaria
            && vp[0] < vp[1]
        {
            self.bavaria = true;
            ev.push(Event::BavariaDefects);
            let bav = &self.sc.bavaria;
            self.extra.push(ReinforcementRow {
                turn: self.turn + 1,
                side: Side::Allied,
                at: Entry::SouthEdgeWestOfAustria,
                infantry: bav.infantry,
                cavalry: bav.cavalry,
                supply: 0,
                leaders: Vec::new(),
                provenance: bav.provenance.clone(),
            });
        }
        if self.sc.austria == crate::games::leipzig::data::AustriaRule::Intervention
            && !self.austria_at_war
            && self.turn >= 6
            && self.combat_losses[0] > 0
            && self.combat_losses[0] >= 2 * self.combat_losses[1]
        {
            self.intervene(ev);
        }
        if let Some(t) = self.berlin_taken
            && t == self.turn
        {
            let n = self.sc.northern_option.clone();
            ev.push(Event::NorthernOption { side: Side::Allied });
            for (side, turn, at) in
                [(Side::Allied, t + 1, Entry::NorthEdgeEastOfElbe), (Side::French, t + 2, Entry::NorthEdgeByElbe)]
            {
                self.extra.push(ReinforcementRow {
                    turn,
                    side,
                    at,
                    infantry: n.allied_infantry,
                    cavalry: n.allied_cavalry,
                    supply: 0,
                    leaders: Vec::new(),
                    provenance: n.provenance.clone(),
                });
            }
        }
        self.turn += 1;
        self.side = Side::French;
        ev.push(Event::TurnBegins { turn: self.turn });
        if self.armistice.is_some_and(|t| self.turn == t + 12) {
            ev.push(Event::ArmisticeEnds);
        }
        if self.sc.campaign && self.turn == 15 && !self.rebellion {
            let b = &self.sc.board;
            let holds = |c: &str| b.place(c).is_some_and(|h| self.side_at(h) == Some(Side::French));
            let spared = self.armistice.is_some()
                || (holds("Berlin") && holds("Breslau") && self.unit_vp[0] >= 3 * self.unit_vp[1]);
            if !spared {
                self.rebellion = true;
                ev.push(Event::Rebellion);
            }
        }
        self.next_deploy(ev);
    }

    /// Austria intervenes: scenario 3's force deploys around Prague next (Austrian Intervention).
    pub fn intervene(&mut self, ev: &mut Vec<Event>) {
        self.austria_at_war = true;
        ev.push(Event::AustriaIntervenes);
        for gi in 0..self.sc.intervention.len() {
            self.add_group(gi as u16, true, ev);
        }
    }

    /// The French announce the armistice (campaign game): no zones of control, no combat, no
    /// recrossing the line for eleven complete turns; Austria intervenes.
    pub fn apply_armistice(&mut self, ev: &mut Vec<Event>) {
        self.armistice = Some(self.turn);
        ev.push(Event::ArmisticeDeclared { turn: self.turn });
        if !self.austria_at_war {
            self.intervene(ev);
        }
    }

    /// "The French may at any time after Game-Turn 3, call an armistice by simply announcing
    /// this at the beginning of the French Player-Turn": before anything of the turn is done, so
    /// before the reinforcements are placed (they arrive in the Movement Phase) as well as before
    /// any counter moves or breaks down.
    pub fn can_armistice(&self) -> bool {
        self.sc.campaign
            && self.side == Side::French
            && matches!(self.step, Step::Enter | Step::Move)
            && !self.moved_any
            && !self.entered_any
            && self.units.iter().all(|u| u.side != Side::French || u.spent == 0)
            && self.turn > 3
            && self.armistice.is_none()
    }
}
