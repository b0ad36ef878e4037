//! What Battle of the Nations prints on its pieces, from the scenario's data: every card's face and
//! back, the army blocks' stickers and the troop markers' faces (the table kit draws them).

use super::super::data::{ActionCard, UnitType};
use super::super::plugin::Card;
use super::super::{Botn, Side};
use crate::engine::scenario::Provenance;
use crate::table::printed::{BackPrint, CardPrint, CounterPrint, Symbol};

fn provenance(p: &Provenance) -> String {
    if p.is_reconstructed() { "reconstructed" } else { "rulebook" }.to_string()
}

fn side_rgb(side: Side) -> [u8; 3] {
    match side {
        Side::French => [40, 76, 190],
        Side::Allied => [198, 46, 36],
    }
}

fn unit_symbol(u: UnitType) -> Symbol {
    match u {
        UnitType::Infantry => Symbol::Infantry,
        UnitType::Cavalry => Symbol::Cavalry,
        UnitType::Artillery => Symbol::Artillery,
        UnitType::All => Symbol::Leader,
    }
}

/// A card's printed face.
pub fn card_print(game: &Botn, card: Card) -> CardPrint {
    let sc = &game.sc;
    match card {
        Card::Action(c) => {
            let prov = provenance(&sc.provenance.actions);
            let (title, body, accent) = match &sc.action_cards[c as usize] {
                ActionCard::Terrain(t) => (
                    format!("Terrain: {}", t.name()),
                    format!("Remove an own troop marker from a {} field, never an army's last", t.name()),
                    [70, 105, 60],
                ),
                ActionCard::Move(units) => (
                    format!("Move: {}", units.iter().map(|u| u.name()).collect::<Vec<_>>().join(", ")),
                    "Move an own troop marker of this unit to an adjacent field; time +1".to_string(),
                    [60, 80, 130],
                ),
                ActionCard::MoveArmy(a) => (
                    format!("Move: {a}"),
                    format!("Move a troop marker of {a} to an adjacent field; time +1"),
                    [95, 60, 120],
                ),
                ActionCard::Time => (
                    "Time".to_string(),
                    "The time indicator advances one space; the card leaves the game".to_string(),
                    [150, 110, 40],
                ),
            };
            CardPrint { title, kind: "Action card".into(), body, corner: String::new(), provenance: prov, accent }
        }
        Card::Scout(_) => CardPrint {
            title: "Scout".into(),
            kind: "Scout card".into(),
            body: "Remove an own troop marker (never an army's last); time +1. Pays for a missing marker".into(),
            corner: String::new(),
            provenance: provenance(&sc.provenance.scouts),
            accent: [110, 100, 80],
        },
        Card::Mission(m) => {
            let def = &sc.missions[m as usize];
            CardPrint {
                title: sc.field_name(def.field).to_string(),
                kind: format!("Mission — {:?}", def.def.district),
                body: "Napoléon holds this village at the end: French points; lost: Allied points".into(),
                corner: format!("{} / {}", def.def.french, def.def.allied),
                provenance: provenance(&sc.provenance.missions),
                accent: [130, 45, 35],
            }
        }
        Card::Army(a) => {
            let def = &sc.armies[a as usize].def;
            CardPrint {
                title: def.name.clone(),
                kind: format!(
                    "Army card {} — {}",
                    def.card,
                    if def.side == Side::French { "French" } else { "Allied" }
                ),
                body: format!("{} markers on {}", def.markers, def.villages.join(", ")),
                corner: format!("{} {}", def.unit.name(), def.strength),
                provenance: provenance(&sc.provenance.armies),
                accent: side_rgb(def.side),
            }
        }
    }
}

/// A card's back.
pub fn back_print(game: &Botn, card: Card) -> BackPrint {
    match card {
        Card::Action(_) | Card::Scout(_) => {
            BackPrint { title: "Battle of the Nations 1813".into(), colour: [70, 52, 100] }
        }
        Card::Mission(_) => BackPrint { title: "Mission".into(), colour: [110, 40, 32] },
        Card::Army(a) => {
            let side = game.sc.armies[a as usize].def.side;
            let title = if side == Side::French { "French army" } else { "Allied army" };
            BackPrint { title: title.into(), colour: side_rgb(side).map(|c| c / 2 + 20) }
        }
    }
}

/// An army block's sticker: name, unit and strength (flipped armies print their strength in a
/// paler ink, as the flipped side of the printed block is paler).
pub fn army_print(game: &Botn, army: u8, strength: i8, flipped: bool) -> CounterPrint {
    let def = &game.sc.armies[army as usize].def;
    CounterPrint {
        name: def.name.clone(),
        symbol: unit_symbol(def.unit),
        values: strength.to_string(),
        ground: if flipped { side_rgb(def.side).map(|c| c / 2 + 100) } else { side_rgb(def.side) },
        ink: [255, 255, 255],
    }
}

/// A troop marker's face: its army's name and unit.
pub fn marker_print(game: &Botn, army: u8) -> CounterPrint {
    let def = &game.sc.armies[army as usize].def;
    CounterPrint {
        name: def.name.clone(),
        symbol: unit_symbol(def.unit),
        values: String::new(),
        ground: side_rgb(def.side),
        ink: [255, 255, 255],
    }
}
