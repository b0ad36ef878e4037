//! XVI. Tabletop Miniatures Battles (optional): an open land campaign may be fought with
//! miniatures; the players enter the winner and, if they agree, the tabletop losses, converted to
//! board losses at the corps ratio (the battle sheet itself is in `miniatures.rs`). At one
//! screen the players enter it together, once; across machines each seat enters it at its own
//! screen and nothing is applied until the two entries agree (a disagreement is told to both).

use super::*;

impl Vg {
    pub(super) fn check_fight_on_table(&self, c: CampaignId) -> Result<(), VgError> {
        let (Some(Pending::EnAvant { .. }) | Some(Pending::ResolveOrder { .. })) = self.pending.first() else {
            return Err(self.wrong_step());
        };
        if !self.open_campaigns().contains(&c) || !miniatures::can_fight_on_table(self, c) {
            return Err(VgError::new(
                rule::TABLETOP,
                "the tabletop result does not fit the battle: only an open land campaign with units on both sides can be fought on the table",
            ));
        }
        Ok(())
    }

    pub(super) fn apply_fight_on_table(&mut self, p: Player, c: CampaignId, events: &mut Vec<Event>) {
        self.pending.remove(0);
        self.campaigns[c as usize].on_table = true;
        let entries = self.across_machines.then_some([None, None]);
        self.pending.insert(0, Pending::TabletopResult { campaign: c, chooser: p, entries });
        events.push(Event::ToTabletop { card: self.campaigns[c as usize].card, campaign: c });
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
            return Err(VgError::new(rule::RESOLVING, "that campaign is not open"));
        }
        self.tabletop_losses(c, winner, lost).map(|_| ())
    }

    /// Who enters the tabletop result now: the chooser at one screen; across machines the seat
    /// whose entry is missing (the chooser first).
    pub fn tabletop_seat(&self) -> Option<Player> {
        let Some(Pending::TabletopResult { chooser, entries, .. }) = self.pending.first() else { return None };
        Some(match entries {
            Some(e) if e[chooser.index()].is_some() => chooser.other(),
            _ => *chooser,
        })
    }

    pub(super) fn apply_tabletop_result(
        &mut self,
        p: Player,
        c: CampaignId,
        winner: Option<Player>,
        lost: Option<[u16; 2]>,
        events: &mut Vec<Event>,
    ) {
        let converted = self.tabletop_losses(c, winner, lost).expect("checked");
        let entry = TabletopEntry { winner: winner.expect("checked"), lost };
        if let Some(Pending::TabletopResult { entries: Some(e), .. }) = self.pending.first_mut() {
            let other = e[p.other().index()];
            match other {
                Some(o) if o == entry => {}
                Some(o) => {
                    // They disagree: nothing applies; the other seat is asked again, this seat's
                    // entry standing for it to see.
                    e[p.other().index()] = None;
                    e[p.index()] = Some(entry);
                    events.push(Event::TabletopDisputed { player: p, entry, other: o });
                    return;
                }
                None => {
                    e[p.index()] = Some(entry);
                    events.push(Event::TabletopEntered { player: p, entry });
                    return;
                }
            }
            events.push(Event::TabletopAgreed { entry });
        }
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
            return Err(VgError::new(
                rule::TABLETOP,
                "the tabletop result does not fit the battle: a winner must be entered (the side that broke 50% of the enemy)",
            ));
        };
        let _ = w;
        let Some(lost) = lost else { return Ok(None) };
        let mut out = [0u8; 2];
        for p in Player::BOTH {
            let units = self.committed(c, p);
            let sheet = miniatures::side_sheet(self, &units);
            if lost[p.index()] as u32 > sheet.tabletop_units {
                return Err(VgError::new(
                    rule::TABLETOP,
                    format!(
                        "the tabletop result does not fit the battle: {} lost {} tabletop units but brought only {}",
                        p.name(),
                        lost[p.index()],
                        sheet.tabletop_units
                    ),
                ));
            }
            out[p.index()] = miniatures::board_losses(self, &units, lost[p.index()] as u32, winner == Some(p)) as u8;
        }
        Ok(Some(out))
    }
}

/// A tabletop entry in words, for the log and the battle window.
pub fn entry_words(e: TabletopEntry) -> String {
    match e.lost {
        Some([f, b]) => format!("{} won, tabletop units lost France {f}, Britain {b}", e.winner.name()),
        None => format!("{} won, losses by the usual rule", e.winner.name()),
    }
}
