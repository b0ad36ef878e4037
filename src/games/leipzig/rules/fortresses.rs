//! Fortress and Siege: a fortress besieged, and by whom (the units in a fortress are in supply
//! and stack up to six divisions: `supply` and `stacking`).

use super::zoc::{Situation, Zoc};
use crate::games::leipzig::data::Hex;
use crate::games::leipzig::data::Side;
use crate::games::leipzig::state::Leipzig;

/// Whether a hex is a fortress whose garrison the Enemy besieges: every adjacent hex is held by
/// the Enemy or is in his undisputed control (Fortress and Siege, case F). Returns the besieger.
pub fn besieger(g: &Leipzig, s: &Situation, h: Hex) -> Option<Side> {
    let b = &g.sc.board;
    if !b.is_fortress(h) {
        return None;
    }
    let inside = s.side[h.0 as usize]?;
    let enemy = inside.other();
    b.neighbours(h)
        .all(|(_, n)| {
            let i = n.0 as usize;
            s.side[i] == Some(enemy)
                || (s.side[i].is_none()
                    && s.zoc[enemy.index()][i] != Zoc::None
                    && s.zoc[inside.index()][i] == Zoc::None)
        })
        .then_some(enemy)
}
