//! XI. Military Units Location: where a nation's units stand (the unused stack, a holding area, a
//! player's army, a campaign), where an eliminated unit goes, and which units may join a campaign
//! (naval units at sea, Spanish units only in Spain and France).

use super::*;

impl Vg {
    /// Where a nation's new or surviving units go: its ally's army, its holding area, or (minor
    /// nations and the player nations) the army of the player concerned.
    pub(super) fn home_loc(&self, n: NationId, p: Player) -> Loc {
        match self.nation_kind(n) {
            NationKind::Major => match self.allies[n as usize] {
                Some(a) => Loc::Army(a),
                None => Loc::Holding,
            },
            NationKind::Player => {
                Loc::Army(if self.sc.home(Player::France) == n { Player::France } else { Player::Britain })
            }
            NationKind::Minor => Loc::Army(p),
        }
    }

    pub(super) fn eliminate(&mut self, u: UnitId, events: &mut Vec<Event>) {
        self.units.set(u as usize, Loc::Pool);
        events.push(Event::Eliminated { unit: u });
    }

    /// Units in front of `p` that may join campaign `c` (VIII Limitations).
    pub fn valid_units(&self, p: Player, c: CampaignId) -> Vec<UnitId> {
        self.joinable(p, c).collect()
    }

    /// `valid_units` read without making the list (the legal list and every commitment ask).
    pub(super) fn joinable(&self, p: Player, c: CampaignId) -> impl Iterator<Item = UnitId> + '_ {
        self.units_in(Loc::Army(p)).filter(move |&u| self.unit_may_join(p, u, c).is_ok())
    }

    /// Whether `p` has a unit that may join campaign `c`.
    pub fn any_valid_unit(&self, p: Player, c: CampaignId) -> bool {
        self.joinable(p, c).next().is_some()
    }

    pub(super) fn unit_may_join(&self, p: Player, u: UnitId, c: CampaignId) -> Result<(), &'static str> {
        let camp = &self.campaigns[c as usize];
        self.unit_may_join_at(p, u, camp.region, camp.naval)
    }

    /// Whether `p`'s unit `u` may join a campaign in `region` (None: at sea).
    pub(super) fn unit_may_join_at(
        &self,
        p: Player,
        u: UnitId,
        region: Option<NationId>,
        naval: bool,
    ) -> Result<(), &'static str> {
        let kind = self.unit_kind(u);
        let nation = self.unit_nation(u);
        let (spain, france) = (self.sc.spain, self.sc.france);
        // "Spanish military units may only be used in campaigns in Spain and France": not at sea.
        if Some(nation) == spain && (naval || (region != spain && region != france)) {
            return Err("Spanish units fight only in Spain and France");
        }
        if naval {
            return if kind == UnitKind::Navy { Ok(()) } else { Err("only naval units fight at sea") };
        }
        let Some(region) = region else { return Err("a land campaign has a region") };
        if kind == UnitKind::Navy && !self.sc.nations[region as usize].naval {
            return Err("naval units may not be sent there");
        }
        if Some(region) == spain
            && p == Player::Britain
            && nation != self.sc.home(Player::Britain)
            && Some(nation) != spain
        {
            return Err("only British and Spanish units may join Britain's campaigns in Spain");
        }
        Ok(())
    }
}
