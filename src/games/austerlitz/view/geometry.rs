//! Where Austerlitz's board lies on the table (a space's place in the world and the space
//! under a point) and which spaces are lit: what the board, the counters and the panels share.

use super::super::data::{Board, Cell};
use crate::engine::geometry::Facing;
use crate::table::octmap::{OCT_HALF, SQUARE_HALF};
use bevy::prelude::*;

/// The distance between neighbouring spaces' centres on the table.
pub const PITCH: f32 = 0.6;

/// Where the board lies: its spaces' extent on the table (x, z), centred on the origin; north is
/// away from the players (−z).
#[derive(Resource, Clone, Copy, Debug)]
pub struct BoardGeometry {
    pub columns: i32,
    pub rows: i32,
    pub width: f32,
    pub depth: f32,
}

impl BoardGeometry {
    pub fn of(b: &Board) -> BoardGeometry {
        BoardGeometry {
            columns: b.grid.width,
            rows: b.grid.height,
            width: b.grid.width as f32 * PITCH,
            depth: b.grid.height as f32 * PITCH,
        }
    }

    /// A space's centre on the table.
    pub fn world(&self, (x, y): Cell) -> Vec3 {
        Vec3::new((x as f32 + 0.5) * PITCH - self.width / 2.0, 0.0, self.depth / 2.0 - (y as f32 + 0.5) * PITCH)
    }

    /// The space under a point of the table, if any.
    pub fn cell_at(&self, p: Vec3) -> Option<Cell> {
        let fx = (p.x + self.width / 2.0) / PITCH - 0.5;
        let fy = (self.depth / 2.0 - p.z) / PITCH - 0.5;
        let (x0, y0) = (fx.round() as i32, fy.round() as i32);
        for x in x0 - 1..=x0 + 1 {
            for y in y0 - 1..=y0 + 1 {
                if x < 0 || y < 0 || x >= self.columns || y >= self.rows {
                    continue;
                }
                let (dx, dy) = ((fx - x as f32).abs(), (fy - y as f32).abs());
                let inside = if (x + y) % 2 == 0 {
                    dx <= OCT_HALF && dy <= OCT_HALF && dx + dy <= 1.0
                } else {
                    dx <= SQUARE_HALF && dy <= SQUARE_HALF
                };
                if inside {
                    return Some((x, y));
                }
            }
        }
        None
    }

    /// The world rotation of a front pointing `f` (north is −z).
    pub fn rotation(f: Facing) -> Quat {
        Quat::from_rotation_y(-(f.index() as f32) * std::f32::consts::FRAC_PI_4)
    }

    /// The facing nearest a direction on the table.
    pub fn facing_towards(d: Vec3) -> Facing {
        // North is −z; angles clockwise from north.
        let a = d.x.atan2(-d.z);
        let i = ((a / std::f32::consts::FRAC_PI_4).round() as i32).rem_euclid(8);
        Facing::ALL[i as usize]
    }
}

/// How a space is lit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Light {
    /// Reachable facing the way the piece in hand is turned.
    Reach,
    /// Reachable, but facing another way.
    Far,
    Target,
    Seen,
    Blocked,
    Retreat,
}

/// The spaces to light now, with a label (a cost, what blocks a line of sight).
#[derive(Resource, Default, PartialEq)]
pub struct Lights {
    pub cells: Vec<(Cell, Light, Option<String>)>,
}
