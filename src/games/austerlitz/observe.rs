//! What a seat may see of an Austerlitz table: the one gate for hidden information. Austerlitz
//! hides no units (every counter stands face up on the board), so every viewer sees the whole
//! table; what no viewer may see is the table's chance (its seed and generator), which no view
//! carries. Computer players decide on this view.

use super::state::Austerlitz;
use crate::engine::rng::TableRng;
use crate::engine::seats::Viewer;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct AzView {
    pub viewer: Viewer,
    /// The table as anyone may see it, without its chance.
    pub game: Austerlitz,
}

impl AzView {
    pub fn of(g: &Austerlitz, viewer: Viewer) -> AzView {
        let mut game = g.clone();
        game.rng = TableRng::from_seed(0);
        AzView { viewer, game }
    }
}
