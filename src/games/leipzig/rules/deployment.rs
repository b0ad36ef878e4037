//! How to Use the Scenarios: the deployment of forces, group by group, from the deployment chart.

use super::Asked;
use crate::engine::rng::TableRng;
use crate::games::leipzig::actions::Event;
use crate::games::leipzig::actions::{Action, LzError, rule};
use crate::games::leipzig::data::{Hex, LzScenario, Placement, Side};
use crate::games::leipzig::state::{Leipzig, Status, Step, UnitId, What};
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
    pub(super) fn add_group(&mut self, gi: u16, intervention: bool, ev: &mut Vec<Event>) {
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
}

// The legal listing and the refusals of this chapter.
impl Leipzig {
    /// The places the deployment chart allows the counters still to deploy, and the rest deployed
    /// at once.
    pub(super) fn list_deploy(&self, side: Side, ask: &Asked, out: &mut Vec<Action>) {
        if ask.wants(&Action::Deploy { unit: 0, hex: Hex(0) }) {
            let mut list = Vec::new();
            self.deploy_actions(side, ask.only, &mut list);
            out.extend(list.into_iter().map(|(unit, hex)| Action::Deploy { unit, hex }));
        }
        out.push(Action::DeployRest);
    }

    pub(super) fn refuse_deploy(&self) -> LzError {
        LzError::new(
            rule::DEPLOYMENT,
            "that counter may not be placed there: the deployment chart gives each group its city or its distance from it",
        )
    }
}
