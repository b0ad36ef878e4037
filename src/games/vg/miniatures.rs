//! Section XVI, Tabletop Miniatures Battles: a campaign's battle sheet (each committed unit as a
//! corps of tabletop units, the troop quality its rating stands for, the command rating and
//! generals from the leadership rating, the 50% victory condition), its export as a printable page
//! and as RON, and the conversion of tabletop losses back to board units at the same corps ratio.

use super::data::{Player, UnitKind};
use super::state::{CampaignId, Loc, UnitId, Vg};
use serde::{Deserialize, Serialize};

/// One board unit as a corps on the tabletop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Corps {
    pub unit: String,
    pub quality: String,
    /// (tabletop unit, how many, stands each).
    pub units: Vec<(String, u8, u8)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideSheet {
    pub player: Player,
    pub corps: Vec<Corps>,
    pub tabletop_units: u32,
    pub stands: u32,
    pub leadership: i16,
    pub command_rating: u8,
    pub generals: u8,
    /// Enemy tabletop units to eliminate to win (50%).
    pub to_win: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleSheet {
    pub campaign: String,
    pub region: String,
    pub sides: Vec<SideSheet>,
    pub victory: String,
    pub losses: String,
}

/// The tabletop units one board unit becomes (XVI): infantry 3 infantry units of 6 stands and an
/// artillery unit of 3; cavalry 3 cavalry units of 6 and a horse artillery unit of 3; artillery 3
/// artillery units of 3; navies do not appear.
pub fn corps_of(kind: UnitKind) -> Vec<(&'static str, u8, u8)> {
    match kind {
        UnitKind::Infantry => vec![("Infantry", 3, 6), ("Artillery", 1, 3)],
        UnitKind::Cavalry => vec![("Cavalry", 3, 6), ("Horse Artillery", 1, 3)],
        UnitKind::Artillery => vec![("Artillery", 3, 3)],
        UnitKind::Navy => vec![],
    }
}

/// Tabletop units in one board unit's corps.
pub fn corps_size(kind: UnitKind) -> u32 {
    corps_of(kind).iter().map(|(_, n, _)| *n as u32).sum()
}

/// The troop quality a numeric rating stands for (XVI).
pub fn quality(kind: UnitKind, value: u8) -> &'static str {
    match (kind, value) {
        (UnitKind::Infantry, 1) => "Militia/Landwehr",
        (UnitKind::Infantry, 2 | 3) => "Regular Troops",
        (UnitKind::Infantry, _) => "Guard or Elite Troops",
        (UnitKind::Cavalry, 1) => "Landwehr or Cossacks",
        (UnitKind::Cavalry, 2) => "Light Cavalry",
        (UnitKind::Cavalry, 3) => "Medium Cavalry such as Dragoons",
        (UnitKind::Cavalry, _) => "Heavy Cavalry such as Cuirassier or Guard Cavalry",
        (UnitKind::Artillery, 0..=2) => "Light Artillery or Horse Artillery",
        (UnitKind::Artillery, 3) => "Foot Artillery",
        (UnitKind::Artillery, _) => "Heavy Artillery",
        (UnitKind::Navy, _) => "does not appear",
    }
}

/// Command rating and generals (besides the commanding general) from the leadership rating.
pub fn command(leadership: i16) -> (u8, u8) {
    match leadership {
        i16::MIN..=3 => (4, 1),
        4..=6 => (5, 2),
        7..=10 => (6, 3),
        _ => (7, 4),
    }
}

pub fn side_sheet(game: &Vg, units: &[UnitId]) -> SideSheet {
    let player = units
        .first()
        .and_then(|&u| match game.units[u as usize] {
            super::state::Loc::Campaign(_, p) | super::state::Loc::Army(p) => Some(p),
            _ => None,
        })
        .unwrap_or(Player::France);
    let mut corps = Vec::new();
    let (mut tabletop_units, mut stands) = (0, 0);
    // Infantry, cavalry, artillery; the best first.
    let mut units = units.to_vec();
    units.sort_by_key(|&u| (game.unit_kind(u), std::cmp::Reverse(game.unit_value(u))));
    for &u in &units {
        let kind = game.unit_kind(u);
        if kind == UnitKind::Navy {
            continue;
        }
        let parts = corps_of(kind);
        tabletop_units += parts.iter().map(|p| p.1 as u32).sum::<u32>();
        stands += parts.iter().map(|p| p.1 as u32 * p.2 as u32).sum::<u32>();
        corps.push(Corps {
            unit: game.unit_label(u),
            quality: quality(kind, game.unit_value(u)).to_string(),
            units: parts.into_iter().map(|(n, c, s)| (n.to_string(), c, s)).collect(),
        });
    }
    let leadership = game.leadership[player.index()];
    let (command_rating, generals) = command(leadership);
    SideSheet { player, corps, tabletop_units, stands, leadership, command_rating, generals, to_win: 0 }
}

/// Whether a campaign can go to the miniatures table: a land campaign, not yet resolved, with
/// units that appear on the tabletop on both sides.
pub fn can_fight_on_table(game: &Vg, c: CampaignId) -> bool {
    let camp = &game.campaigns[c as usize];
    !camp.naval
        && !camp.resolved
        && camp.revealed
        && Player::BOTH.iter().all(|&p| game.units_in(Loc::Campaign(c, p)).any(|u| game.unit_kind(u) != UnitKind::Navy))
}

pub fn battle_sheet(game: &Vg, c: CampaignId) -> BattleSheet {
    let mut sides: Vec<SideSheet> = Player::BOTH
        .iter()
        .map(|&p| {
            let mut s = side_sheet(game, &game.committed(c, p));
            s.player = p;
            let (r, g) = command(game.leadership[p.index()]);
            s.leadership = game.leadership[p.index()];
            s.command_rating = r;
            s.generals = g;
            s
        })
        .collect();
    for i in 0..2 {
        let enemy = sides[1 - i].tabletop_units;
        sides[i].to_win = enemy.div_ceil(2);
    }
    BattleSheet {
        campaign: game.card_name(game.campaigns[c as usize].card).to_string(),
        region: game.region_name(c),
        victory: "The battle is won by the player who eliminates 50% of the enemy units on the tabletop.".into(),
        losses: "Afterwards the winner loses their lowest value unit and the loser their highest; or, if the players agree, the tabletop losses are converted back at the same corps ratio (a board unit for each whole corps lost).".into(),
        sides,
    }
}

/// Board units lost for `lost` tabletop units: whole corps, the loser's highest units first and
/// the winner's lowest first (the order the usual rule takes them in).
pub fn board_losses(game: &Vg, units: &[UnitId], lost: u32, winner: bool) -> usize {
    let mut land: Vec<UnitId> = units.iter().copied().filter(|&u| game.unit_kind(u) != UnitKind::Navy).collect();
    land.sort_by_key(|&u| game.unit_value(u));
    if !winner {
        land.reverse();
    }
    let mut left = lost;
    let mut count = 0;
    for u in land {
        let size = corps_size(game.unit_kind(u));
        if left < size {
            break;
        }
        left -= size;
        count += 1;
    }
    count
}

/// The battle sheet as a printable page (HTML with print styles).
pub fn to_html(sheet: &BattleSheet) -> String {
    let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let mut h = String::new();
    h += "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Battle sheet</title>";
    h += "<style>body{font-family:serif;margin:2em}table{border-collapse:collapse;margin-bottom:1em}";
    h += "td,th{border:1px solid #444;padding:3px 8px}h1{margin-bottom:0}@media print{body{margin:0}}</style></head><body>";
    h += &format!(
        "<h1>{}</h1><p>Campaign {} — Victory &amp; Glory: Napoleon, section XVI</p>",
        esc(&sheet.campaign),
        esc(&sheet.region)
    );
    for s in &sheet.sides {
        h += &format!(
            "<h2>{}</h2><p>Leadership {} — Command Rating {}, {} general(s) besides the commanding general. {} tabletop units, {} stands. To win: eliminate {} enemy units.</p>",
            s.player.name(),
            s.leadership,
            s.command_rating,
            s.generals,
            s.tabletop_units,
            s.stands,
            s.to_win
        );
        h += "<table><tr><th>Board unit</th><th>Troop quality</th><th>Tabletop units</th></tr>";
        for c in &s.corps {
            let parts: Vec<String> = c.units.iter().map(|(n, k, st)| format!("{k} {n} ({st} stands each)")).collect();
            h += &format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&c.unit),
                esc(&c.quality),
                esc(&parts.join(" + "))
            );
        }
        h += "</table>";
    }
    h += &format!("<p>{}</p><p>{}</p></body></html>\n", esc(&sheet.victory), esc(&sheet.losses));
    h
}

/// Writes the sheet as `<stem>.html` and `<stem>.ron`; returns the two paths.
pub fn export(sheet: &BattleSheet, dir: &std::path::Path, stem: &str) -> std::io::Result<[std::path::PathBuf; 2]> {
    std::fs::create_dir_all(dir)?;
    let html = dir.join(format!("{stem}.html"));
    let ron_path = dir.join(format!("{stem}.ron"));
    std::fs::write(&html, to_html(sheet))?;
    let text = ron::ser::to_string_pretty(sheet, ron::ser::PrettyConfig::default()).expect("a sheet serializes");
    std::fs::write(&ron_path, text + "\n")?;
    Ok([html, ron_path])
}
