//! What a seat may see of a Leipzig 1813 table: the one gate for hidden information. Under the
//! Reconnaissance rule (the spring scenarios, the campaign to turn 15) the French seat and
//! spectators see an Allied counter only as a blank until it is revealed (a French unit began its
//! Movement Phase next to it, a French cavalry unit passed next to it, or the French attacked it);
//! a blank that moves is a blank again. The table's chance (its seed and generator) is never in a
//! view. Computer players decide on this view; where they need a whole table they play on a
//! sample (`LzView::sample`), each blank guessed as an infantry corps.

use super::data::{Kind, Side, Size};
use super::state::{Leipzig, What};
use crate::engine::rng::TableRng;
use crate::engine::seats::Viewer;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct LzView {
    pub viewer: Viewer,
    /// The table as the viewer may see it: blanks where a counter is hidden, no chance.
    pub game: Leipzig,
}

impl Leipzig {
    /// Whether `viewer` may see what counter `u` is.
    pub fn seen_by(&self, u: usize, viewer: Viewer) -> bool {
        self.seen_by_all(viewer) || self.seen_alone(&self.units[u])
    }

    /// Whether `viewer` may examine every counter: the Allied seat, any viewer without
    /// Reconnaissance, and everyone once the game is over (nothing stays hidden then).
    pub fn seen_by_all(&self, viewer: Viewer) -> bool {
        !self.reconnaissance()
            || self.step == super::state::Step::Over
            || viewer == Viewer::Seat(super::data::seat_of(Side::Allied))
    }

    /// Whether a counter may be examined by everyone: a French one, or one revealed.
    pub fn seen_alone(&self, unit: &super::state::Unit) -> bool {
        unit.side == Side::French || unit.revealed
    }

    pub(super) fn view_for(&self, viewer: Viewer) -> LzView {
        let mut game = self.clone();
        game.rng = TableRng::from_seed(0);
        for (i, unit) in game.units.iter_mut().enumerate() {
            if !self.seen_by(i, viewer) {
                unit.what = What::Blank;
                unit.gotha = false;
                unit.garrison = false;
                unit.used = Default::default();
            }
        }
        LzView { viewer, game }
    }
}

impl LzView {
    /// A whole table consistent with this view: each blank guessed as an infantry corps, and a
    /// fresh seed for the table's chance.
    pub fn sample(&self, rng: &mut TableRng) -> Leipzig {
        let mut g = self.game.clone();
        let guess =
            g.sc.types
                .iter()
                .position(|t| t.kind == Kind::Infantry && t.size == Size::Corps)
                .or_else(|| g.sc.types.iter().position(|t| t.kind == Kind::Infantry))
                .expect("an infantry type") as u8;
        for u in g.units.iter_mut() {
            if u.what == What::Blank {
                u.what = What::Type(guess);
            }
        }
        g.rng = TableRng::from_seed(rng.below(u32::MAX as usize) as u64);
        g
    }

    /// The number of blanks in the view.
    pub fn blanks(&self) -> usize {
        self.game.units.iter().filter(|u| u.what == What::Blank).count()
    }
}
