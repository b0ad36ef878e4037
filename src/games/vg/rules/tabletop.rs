//! XVI. Tabletop Miniatures Battles (optional): an open land campaign may be fought with
//! miniatures; the players enter the winner and, if they agree, the tabletop losses, converted to
//! board losses at the corps ratio (the battle sheet itself is in `miniatures.rs`).

use super::*;

impl Vg {
    pub(super) fn check_fight_on_table(&self, c: CampaignId) -> Result<(), VgError> {
        let (Some(Pending::EnAvant { .. }) | Some(Pending::ResolveOrder { .. })) = self.pending.first() else {
            return Err(self.wrong_step());
        };
        if !self.open_campaigns().contains(&c) || !miniatures::can_fight_on_table(self, c) {
            return Err(VgError::BadTabletop {
                why: "only an open land campaign with units on both sides can be fought on the table".into(),
            });
        }
        Ok(())
    }

    pub(super) fn apply_fight_on_table(&mut self, p: Player, c: CampaignId, events: &mut Vec<Event>) {
        self.pending.remove(0);
        self.campaigns[c as usize].on_table = true;
        self.pending.insert(0, Pending::TabletopResult { campaign: c, chooser: p });
        events.push(format!(
            "{} {} goes to the miniatures table: its battle sheet is ready",
            self.card_name(self.campaigns[c as usize].card),
            self.region_name(c)
        ));
    }

    /// The players enter the result; listed: each side winning, losses by the usual rule.
    pub(super) fn legal_tabletop_result(&self, campaign: CampaignId, out: &mut Vec<Action>) {
        for w in Player::BOTH {
            out.push(Action::TabletopResult { campaign, winner: Some(w), lost: None });
        }
    }

    pub(super) fn check_tabletop_result(
        &self,
        c: CampaignId,
        winner: Option<Player>,
        lost: Option<[u16; 2]>,
    ) -> Result<(), VgError> {
        let Some(Pending::TabletopResult { campaign, .. }) = self.pending.first() else {
            return Err(self.wrong_step());
        };
        if c != *campaign {
            return Err(VgError::BadCampaign);
        }
        self.tabletop_losses(c, winner, lost).map(|_| ())
    }

    pub(super) fn apply_tabletop_result(
        &mut self,
        c: CampaignId,
        winner: Option<Player>,
        lost: Option<[u16; 2]>,
        events: &mut Vec<Event>,
    ) {
        let converted = self.tabletop_losses(c, winner, lost).expect("checked");
        self.pending.remove(0);
        self.resolve(c, Some(winner), converted, events);
    }

    /// The tabletop result of a campaign, checked and converted to board losses (XVI).
    pub fn tabletop_losses(
        &self,
        c: CampaignId,
        winner: Option<Player>,
        lost: Option<[u16; 2]>,
    ) -> Result<Option<[u8; 2]>, VgError> {
        let Some(w) = winner else {
            return Err(VgError::BadTabletop {
                why: "a winner must be entered (the side that broke 50% of the enemy)".into(),
            });
        };
        let _ = w;
        let Some(lost) = lost else { return Ok(None) };
        let mut out = [0u8; 2];
        for p in Player::BOTH {
            let units = self.committed(c, p);
            let sheet = miniatures::side_sheet(self, &units);
            if lost[p.index()] as u32 > sheet.tabletop_units {
                return Err(VgError::BadTabletop {
                    why: format!(
                        "{} lost {} tabletop units but brought only {}",
                        p.name(),
                        lost[p.index()],
                        sheet.tabletop_units
                    ),
                });
            }
            out[p.index()] = miniatures::board_losses(self, &units, lost[p.index()] as u32, winner == Some(p)) as u8;
        }
        Ok(Some(out))
    }
}
