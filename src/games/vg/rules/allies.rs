//! IX. British Allies and X. French Allies: a Major Nation where a player holds the majority of
//! influence may become that player's ally, its units joining that player's side.

use super::*;

impl Vg {
    /// Major Nations `p` may gain as an ally: a majority of influence, not already allied to `p`.
    pub fn ally_options(&self, p: Player) -> Vec<NationId> {
        (0..self.sc.nations.len() as NationId)
            .filter(|&n| {
                self.nation_kind(n) == NationKind::Major
                    && self.has_majority(p, n)
                    && self.allies[n as usize] != Some(p)
            })
            .collect()
    }

    pub(super) fn ally(&mut self, p: Player, n: NationId, events: &mut Vec<Event>) {
        if self.allies[n as usize] == Some(p) {
            events.push(Event::AlreadyAllied { nation: n, player: p });
            return;
        }
        let switched = self.allies[n as usize].is_some();
        self.allies[n as usize] = Some(p);
        // The nation's units leave the holding area, or (switching sides, X Spain) pass to `p`,
        // those on campaign too.
        for u in 0..self.units.len() {
            if self.sc.units[u].nation != n {
                continue;
            }
            let to = match self.units[u] {
                Loc::Holding | Loc::Army(_) => Loc::Army(p),
                Loc::Campaign(c, _) => Loc::Campaign(c, p),
                Loc::Pool => Loc::Pool,
            };
            self.units.set(u, to);
        }
        events.push(Event::Allied { nation: n, player: p, switched });
    }

    pub(super) fn legal_alliance(&self, player: Player, out: &mut Vec<Action>) {
        out.extend(self.ally_options(player).into_iter().map(Action::Ally));
    }

    pub(super) fn check_alliance(&self, n: NationId) -> Result<(), VgError> {
        let Some(Pending::AllianceAny { player }) = self.pending.first() else { return Err(self.wrong_step()) };
        if !self.ally_options(*player).contains(&n) {
            return Err(VgError::new(
                rule::CARDS,
                format!(
                    "{}: an alliance needs a Major Nation where you hold the majority of influence",
                    self.nation_label(n)
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn apply_alliance(&mut self, p: Player, n: NationId, events: &mut Vec<Event>) {
        self.pending.remove(0);
        self.ally(p, n, events);
    }
}
