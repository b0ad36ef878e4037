//! Leaders: what a leader adds to the units stacked with him.

use crate::games::leipzig::state::{Leipzig, UnitId, What};

impl Leipzig {
    pub(super) fn leader_bonus(&self, units: &[UnitId], defense: bool) -> u32 {
        units
            .iter()
            .filter_map(|&u| match self.units[u as usize].what {
                What::Leader(n) => self
                    .sc
                    .leader(self.units[u as usize].side, n)
                    .map(|l| if defense { l.defense } else { l.offense } as u32),
                _ => None,
            })
            .sum()
    }
}
