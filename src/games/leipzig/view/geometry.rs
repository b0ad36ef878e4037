//! Where Leipzig 1813's map lies on the table (a hex's place in the world and the hex under a
//! point) and which hexes are lit: what the map, the counters and the panels share.

use super::super::data::{Board, Hex};
use bevy::prelude::*;

/// A hex's width across its flats on the table.
pub const HEX: f32 = 0.5;

/// Its corner radius.
pub const RADIUS: f32 = HEX / 1.732_050_8;

/// Where the map lies: its size on the table (x, z), centred on the origin.
#[derive(Resource, Clone, Copy, Debug)]
pub struct MapGeometry {
    pub columns: usize,
    pub rows: usize,
    pub width: f32,
    pub depth: f32,
}

impl MapGeometry {
    pub fn of(b: &Board) -> MapGeometry {
        MapGeometry {
            columns: b.columns,
            rows: b.rows,
            width: (b.columns as f32 * 1.5 + 0.5) * RADIUS,
            depth: (b.rows as f32 + 0.5) * HEX,
        }
    }

    /// A hex's centre on the table.
    pub fn world(&self, h: Hex) -> Vec3 {
        let (c, r) = (h.0 as usize % self.columns, h.0 as usize / self.columns);
        let x = RADIUS + c as f32 * 1.5 * RADIUS;
        let z = HEX / 2.0 + r as f32 * HEX + if c % 2 == 1 { HEX / 2.0 } else { 0.0 };
        Vec3::new(x - self.width / 2.0, 0.0, z - self.depth / 2.0)
    }

    /// The hex under a point of the table, if any.
    pub fn hex_at(&self, p: Vec3) -> Option<Hex> {
        let (x, z) = (p.x + self.width / 2.0, p.z + self.depth / 2.0);
        let c0 = ((x - RADIUS) / (1.5 * RADIUS)).round() as i64;
        let mut best: Option<(Hex, f32)> = None;
        for c in (c0 - 1)..=(c0 + 1) {
            if c < 0 || c as usize >= self.columns {
                continue;
            }
            let off = if c % 2 == 1 { HEX / 2.0 } else { 0.0 };
            let r0 = ((z - HEX / 2.0 - off) / HEX).round() as i64;
            for r in (r0 - 1)..=(r0 + 1) {
                if r < 0 || r as usize >= self.rows {
                    continue;
                }
                let h = Hex((r as usize * self.columns + c as usize) as u16);
                let d = self.world(h).xz().distance(p.xz());
                if best.is_none_or(|(_, b)| d < b) {
                    best = Some((h, d));
                }
            }
        }
        best.filter(|(_, d)| *d <= RADIUS).map(|(h, _)| h)
    }
}

/// How a hex is lit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Light {
    Normal,
    Double,
    Triple,
    Retreat,
    Target,
    Zoc(usize),
}

/// The hexes to light now, with their cost where they have one (set by the counters' handling).
#[derive(Resource, Default, PartialEq)]
pub struct Lights {
    pub hexes: Vec<(Hex, Light, Option<u8>)>,
    /// Zones of control shown (Z).
    pub show_zoc: bool,
}
