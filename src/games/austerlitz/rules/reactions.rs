//! Reactions of the non-phasing player: infantry opportunity fire, the counter-charge and artillery
//! opportunity fire.

use crate::games::austerlitz::actions::Action;
use crate::games::austerlitz::actions::{Event, rule};
use crate::games::austerlitz::data::{Cell, CrtResult};
use crate::games::austerlitz::state::{Aspect, Attack, Austerlitz, Pending, Step};

impl Austerlitz {
    /// The reactions the defender may still make to a declared attack: guns (by id) that may fire
    /// at a charge or at attacking infantry in their field of fire, and the counter-charge (None).
    pub fn reactions(&self, attack: &Attack) -> Vec<Option<usize>> {
        let mut out = Vec::new();
        let defender = self.side.other();
        if let Some(d) = self.defender_of(attack.target)
            && self.kind(d).is_cavalry()
            && attack.charge
            && !attack.counter_charge
            && !self.units[d].counter_charged
            && !self.units[d].dis
            && attack.units.iter().any(|&u| {
                let u = u as usize;
                self.may_charge(u, attack.target)
                    && self.aspect(d, self.units[u].at.expect("on the board")) == Aspect::Front
            })
        {
            out.push(None);
        }
        for g in 0..self.units.len() {
            if self.side_of(g) != defender || !self.on_board(g) || !self.kind(g).is_artillery() {
                continue;
            }
            if self.units[g].reacted || attack.answered.contains(&(g as u8)) || self.shielded(g) {
                continue;
            }
            if !self.reaction_targets(g, attack).is_empty() {
                out.push(Some(g));
            }
        }
        out
    }

    /// The attackers a gun may fire at in reaction: charging cavalry (not by a DIS gun), or
    /// infantry attacking the gun's own space.
    pub fn reaction_targets(&self, g: usize, attack: &Attack) -> Vec<usize> {
        let fof = self.field_of_fire(g);
        attack
            .units
            .iter()
            .map(|&u| u as usize)
            .filter(|&u| {
                let Some(at) = self.units[u].at else { return false };
                let Some(&(_, rows)) = fof.iter().find(|(c, _)| *c == at) else { return false };
                if self.fire_table(g).result(self.fire_range(rows, at), 12).is_none()
                    || self.los_blocked(g, at).is_some()
                {
                    return false;
                }
                let charging = attack.charge && self.may_charge(u, attack.target) && !self.units[g].dis;
                let infantry_at_gun = self.kind(u).is_infantry() && self.units[g].at == Some(attack.target);
                charging || infantry_at_gun
            })
            .collect()
    }

    pub(super) fn apply_react_fire(&mut self, g: usize, ev: &mut Vec<Event>) {
        let Some(Pending::AttackReactions { mut attack }) = self.pending.pop() else { unreachable!("checked") };
        let target = self.reaction_targets(g, &attack)[0];
        attack.answered.push(g as u8);
        self.units[g].reacted = true;
        self.units[g].smoke = true;
        let at = self.units[target].at.expect("on the board");
        self.pending.push(Pending::AttackReactions { attack });
        self.fire_at(g, at, vec![target], ev);
    }

    pub(super) fn apply_counter_charge(&mut self, ev: &mut Vec<Event>) {
        let Some(Pending::AttackReactions { mut attack }) = self.pending.pop() else { unreachable!("checked") };
        let d = self.defender_of(attack.target).expect("a defender");
        self.units[d].counter_charged = true;
        attack.counter_charge = true;
        ev.push(Event::CounterCharged { unit: d as u8 });
        self.pending.push(Pending::AttackReactions { attack });
    }

    /// The reactions are over (declined or spent): the attack is resolved with the units still
    /// able to make it.
    pub(super) fn apply_decline_attack_reactions(&mut self, ev: &mut Vec<Event>) {
        let Some(Pending::AttackReactions { attack }) = self.pending.pop() else { unreachable!("checked") };
        self.resolve_attack(attack, ev);
    }

    /// Infantry opportunity fire: a unit moved into the front of an enemy infantry unit without
    /// having it in its own front to attack. Chance fire (Combat): a unit moved so that it has
    /// an enemy infantry unit in its front but may not attack it, its CF difference being below
    /// the table's −1 even charging; the infantry may fire at it as at a unit in its front. (The
    /// book names chance fire in one clause and says no more: read here as opportunity fire's
    /// twin, offered once, when the weak unit arrives.)
    pub(super) fn offer_opportunity_fire(&mut self, u: usize) {
        let Some(at) = self.units[u].at else { return };
        if self.units[u].eliminated {
            return;
        }
        let mine = self.front_cells(u);
        // The infantry it faces and may attack now: its player first chooses whether it does.
        let mut attackable = Vec::new();
        if self.step == Step::Move {
            let mut options = Vec::new();
            self.attack_options(&mut options);
            attackable = options.into_iter().filter(|(set, _, _)| set.contains(&u)).map(|(_, t, _)| t).collect();
        }
        let mut faced = Vec::new();
        for v in 0..self.units.len() {
            if self.side_of(v) == self.side || !self.on_board(v) || !self.kind(v).is_infantry() || self.units[v].dis {
                continue;
            }
            let vat = self.units[v].at.expect("on the board");
            if self.opportunity_odds(v, u).is_none() {
                continue;
            }
            let chance = mine.contains(&vat) && self.below_the_table(u, vat);
            if chance {
                self.pending.push(Pending::OpportunityFire { by: v as u8, at: u as u8, chance });
            } else if self.front_cells(v).contains(&at) {
                if attackable.contains(&vat) {
                    faced.push(v as u8);
                } else {
                    self.pending.push(Pending::OpportunityFire { by: v as u8, at: u as u8, chance: false });
                }
            }
        }
        if !faced.is_empty() {
            self.pending.push(Pending::Faced { unit: u as u8, by: faced });
        }
    }

    /// The attacks the unit that faced enemy infantry may make on them now.
    pub(super) fn list_faced(&self, unit: u8, by: &[u8], out: &mut Vec<Action>) {
        let cells: Vec<Cell> = by.iter().filter_map(|&v| self.units[v as usize].at).collect();
        let mut options = Vec::new();
        self.attack_options(&mut options);
        // A column that used its extra MF must attack (Movement): any of its attacks, no leaving.
        let owed = self.units[unit as usize].extra && !self.units[unit as usize].attacked;
        out.extend(
            options
                .into_iter()
                .filter(|(set, t, _)| set.contains(&(unit as usize)) && (owed || cells.contains(t)))
                .map(|(set, target, charge)| Action::Attack {
                    units: set.into_iter().map(|u| u as u8).collect(),
                    target,
                    charge,
                }),
        );
        if !owed {
            out.push(Action::Decline);
        }
    }

    /// The unit that faced enemy infantry attacks `target`, or (none) attacks none of them: each
    /// it leaves unattacked may fire at it, once the attack (if any) is over.
    pub(super) fn settle_faced(&mut self, target: Option<Cell>) {
        let Some(Pending::Faced { unit, by }) = self.pending.pop() else { unreachable!("checked") };
        for &v in by.iter().rev() {
            if self.units[v as usize].at != target {
                self.pending.push(Pending::OpportunityFire { by: v, at: unit, chance: false });
            }
        }
    }

    /// Whether unit `u` may attack the space `t` by every other rule but the table, whose first
    /// row is −1: no attack of it alone (charging if it may) comes to −1 or more.
    pub fn below_the_table(&self, u: usize, t: Cell) -> bool {
        if self.defender_of(t).is_none() || self.attack_barred(&[u], t).is_some() {
            return false;
        }
        [false, true]
            .into_iter()
            .filter(|&charge| !charge || self.may_charge(u, t))
            .all(|charge| self.sc.tables.crt_row(self.odds(&[u], t, charge, false).difference()).is_none())
    }

    /// The CRT row of an opportunity fire: basic CFs compared.
    pub fn opportunity_odds(&self, by: usize, at: usize) -> Option<Vec<CrtResult>> {
        let diff = self.sc.units[by].cf as i32 - self.sc.units[at].cf as i32;
        self.sc.tables.crt_row(diff).map(|r| r.results.clone())
    }

    pub(super) fn apply_opportunity_fire(&mut self, fire: bool, ev: &mut Vec<Event>) {
        let Some(Pending::OpportunityFire { by, at, chance }) = self.pending.pop() else { unreachable!("checked") };
        if !fire || !self.on_board(at as usize) || !self.on_board(by as usize) {
            return;
        }
        let row = self.opportunity_odds(by as usize, at as usize).expect("offered");
        let die = self.rng.d6();
        let result = match row[die as usize - 1] {
            CrtResult::AE | CrtResult::AR(_) => CrtResult::N,
            r => r,
        };
        ev.push(self.roll(
            self.side_of(by as usize),
            rule::REACTIONS,
            format!(
                "{}'s {} at {}",
                self.sc.units[by as usize].name,
                if chance { "chance fire" } else { "opportunity fire" },
                self.sc.units[at as usize].name
            ),
            vec![die],
            Vec::new(),
            Some(("CRT", Some("basic CFs compared".into()), Some(format!("die {die}")))),
            crate::games::austerlitz::text::crt_name(result),
        ));
        let from = vec![self.units[by as usize].at.expect("on the board")];
        match result {
            CrtResult::DE => self.eliminate(at as usize, "opportunity fire".into(), ev),
            CrtResult::DR(n) => {
                let cell = self.units[at as usize].at.expect("on the board");
                let here = self.units_at(cell).into_iter().map(|u| u as u8).collect();
                self.pending.push(Pending::Retreat {
                    units: here,
                    spaces: n,
                    from,
                    demoralise: n > 3,
                    chooser: self.side.other(),
                });
            }
            _ => {}
        }
    }
}

// The legal listing and the refusals of this chapter.
impl Austerlitz {
    /// The defender's reactions to an attack (artillery fire, a counter-charge), or none.
    pub(super) fn list_reactions(&self, attack: &Attack, out: &mut Vec<Action>) {
        for r in self.reactions(attack) {
            out.push(match r {
                Some(g) => Action::ReactFire { gun: g as u8 },
                None => Action::CounterCharge,
            });
        }
        out.push(Action::Decline);
    }
}
