//! Victory & Glory: Napoleon's data, read from RON: the nations with their era victory points, the
//! starting set-up of section V, the units of Appendix A and the three era decks. Every name is
//! resolved on load, so a bad reference is refused with its file, line and field.

use crate::engine::scenario::{DataError, Provenance, check_range, expect_game, load_ron, part_file};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub const GAME_ID: &str = "victory-and-glory";

/// The highest value a track may reach (the printed tracks end at 20 or so).
pub const MAX_TRACK: i16 = 99;
/// The most influence cubes of one player in a nation at the start.
pub const MAX_CUBES: u8 = 20;
/// The largest amount an effect moves, a unit's value, a count of units, a nation's era points.
pub const MAX_AMOUNT: i16 = 20;
/// The most units (their numbers are 8-bit).
pub const MAX_UNITS: usize = 250;
/// The most nations (their numbers are 8-bit).
pub const MAX_NATIONS: usize = 100;

/// The two player nations; seat 0 is France, seat 1 Britain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Player {
    France,
    Britain,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::France, Player::Britain];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn other(self) -> Player {
        match self {
            Player::France => Player::Britain,
            Player::Britain => Player::France,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Player::France => "France",
            Player::Britain => "Britain",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NationKind {
    Player,
    Major,
    Minor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum UnitKind {
    Infantry,
    Cavalry,
    Artillery,
    Navy,
}

impl UnitKind {
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Infantry => "Infantry",
            UnitKind::Cavalry => "Cavalry",
            UnitKind::Artillery => "Artillery",
            UnitKind::Navy => "Navy",
        }
    }
}

/// Index of a nation in the scenario's list.
pub type NationId = u8;

/// Whom an effect concerns: a named player, or the player who plays the card (in a campaign's
/// outcome: the winner in `win`, the loser in `lose`), or that player's opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Who {
    France,
    Britain,
    Player,
    Opponent,
}

/// A card's effect. In a deck file nations are named (`EffectDef`, i.e. `Effect<String>`); on load
/// they are resolved to ids (`Effect`, i.e. `Effect<NationId>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect<N = NationId> {
    Economy(Who, i8),
    Leadership(Who, i8),
    Vp(Who, i8),
    /// Influence cubes: in the named nation, or (None) where the player chooses; negative removes.
    Influence(Who, Option<N>, i8),
    /// Recruit units of the named nation, or (None) by the default rule of section VIII.
    Recruit(Who, Option<N>, u8),
    LoseUnits(Who, u8),
    Alliance(Who, N),
    /// An alliance with any Major Nation where the player holds the majority ("British Diplomacy").
    AllianceAny(Who),
    /// Resolve one ongoing campaign now.
    EnAvant,
}

/// An effect as written in a deck file.
pub type EffectDef = Effect<String>;

impl<N> Effect<N> {
    /// The same effect with each nation passed through `f`.
    pub fn try_map<M, E>(&self, f: impl Fn(&N) -> Result<M, E>) -> Result<Effect<M>, E> {
        Ok(match self {
            Effect::Economy(w, a) => Effect::Economy(*w, *a),
            Effect::Leadership(w, a) => Effect::Leadership(*w, *a),
            Effect::Vp(w, a) => Effect::Vp(*w, *a),
            Effect::Influence(w, n, a) => Effect::Influence(*w, n.as_ref().map(&f).transpose()?, *a),
            Effect::Recruit(w, n, a) => Effect::Recruit(*w, n.as_ref().map(&f).transpose()?, *a),
            Effect::LoseUnits(w, a) => Effect::LoseUnits(*w, *a),
            Effect::Alliance(w, n) => Effect::Alliance(*w, f(n)?),
            Effect::AllianceAny(w) => Effect::AllianceAny(*w),
            Effect::EnAvant => Effect::EnAvant,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignDef {
    /// A nation's name, or "Sea" for the naval campaign.
    pub region: String,
    #[serde(default)]
    pub naval: bool,
    pub win: Vec<EffectDef>,
    pub lose: Vec<EffectDef>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CardDef {
    pub name: String,
    pub year: u16,
    #[serde(default)]
    pub body: Vec<EffectDef>,
    #[serde(default)]
    pub bottom: Option<EffectDef>,
    #[serde(default)]
    pub campaign: Option<CampaignDef>,
    /// Where the card comes from when it is not a reconstruction.
    #[serde(default)]
    pub source: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Campaign {
    /// None for a naval campaign at sea.
    pub region: Option<NationId>,
    pub naval: bool,
    pub win: Vec<Effect>,
    pub lose: Vec<Effect>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    pub name: String,
    pub year: u16,
    pub era: u8,
    pub body: Vec<Effect>,
    pub bottom: Option<Effect>,
    pub campaign: Option<Campaign>,
    pub source: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NationDef {
    pub name: String,
    pub kind: NationKind,
    /// Victory points for the majority at the end of each era.
    pub vp: (u8, u8, u8),
    /// Whether naval units may join a campaign there.
    pub naval: bool,
    pub pos: (f32, f32),
}

impl NationDef {
    pub fn era_vp(&self, era: usize) -> u8 {
        [self.vp.0, self.vp.1, self.vp.2][era.min(2)]
    }
}

#[derive(Clone, Debug, Deserialize)]
struct SetupDef {
    victory_points: (i16, i16),
    leadership: (i16, i16),
    economy: (i16, i16),
    influence: Vec<(String, Player, u8)>,
    allies: Vec<(String, Player)>,
    units: Vec<(String, Vec<(UnitKind, u8)>)>,
}

#[derive(Clone, Debug, Deserialize)]
struct NationsFile {
    nations_provenance: Provenance,
    nations: Vec<NationDef>,
    setup_provenance: Provenance,
    setup: SetupDef,
    tracks_provenance: Provenance,
    track_max: i16,
    seas_pos: (f32, f32),
}

#[derive(Clone, Debug, Deserialize)]
struct UnitsFile {
    provenance: Provenance,
    notes: String,
    units: Vec<(String, UnitKind, u8, u8, String)>,
}

#[derive(Clone, Debug, Deserialize)]
struct EraDef {
    name: String,
    years: String,
    deck: String,
}

#[derive(Clone, Debug, Deserialize)]
struct ScenarioFile {
    name: String,
    game: String,
    nations: String,
    units: String,
    eras: Vec<EraDef>,
}

#[derive(Clone, Debug, Deserialize)]
struct DeckFile {
    provenance: Provenance,
    cards: Vec<CardDef>,
}

/// One military unit of Appendix A.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitDef {
    pub nation: NationId,
    pub kind: UnitKind,
    pub value: u8,
    pub name: String,
}

#[derive(Clone, Debug)]
pub struct Era {
    pub name: String,
    pub years: String,
    pub provenance: Provenance,
}

#[derive(Clone, Debug)]
pub struct Setup {
    pub victory_points: [i16; 2],
    pub leadership: [i16; 2],
    pub economy: [i16; 2],
    pub influence: Vec<(NationId, Player, u8)>,
    pub allies: Vec<(NationId, Player)>,
    /// Unit indices placed at the start, by nation.
    pub units: Vec<usize>,
}

/// The checked scenario.
#[derive(Clone, Debug)]
pub struct VgScenario {
    pub name: String,
    pub path: PathBuf,
    pub hash: String,
    pub nations: Vec<NationDef>,
    pub units: Vec<UnitDef>,
    pub cards: Vec<Card>,
    pub eras: Vec<Era>,
    pub setup: Setup,
    pub track_max: i16,
    pub seas_pos: (f32, f32),
    pub provenance: Vec<(String, Provenance)>,
    pub unit_notes: String,
    /// Spain and France, which section VIII's limits on Spanish units name (read once: looked up
    /// by name for every unit of every list they cost a tenth of a game).
    pub spain: Option<NationId>,
    pub france: Option<NationId>,
}

impl VgScenario {
    pub fn load(path: &Path) -> Result<VgScenario, DataError> {
        let (file, text): (ScenarioFile, String) = load_ron(path)?;
        expect_game(path, &text, &file.game, GAME_ID)?;
        let nations_path = part_file(path, &text, "nations", &file.nations)?;
        let (nf, nations_text): (NationsFile, String) = load_ron(&nations_path)?;
        let units_path = part_file(path, &text, "units", &file.units)?;
        let (uf, units_text): (UnitsFile, String) = load_ron(&units_path)?;
        let mut all_text = text.clone() + &nations_text + &units_text;
        // Ranges the rules and the id types can hold (far beyond the printed game's).
        let max = nf.track_max;
        check_range(&nations_path, &nations_text, "", "track_max", "track_max", max, 1, MAX_TRACK)?;
        let setup = &nf.setup;
        for (field, (a, b)) in
            [("victory_points", setup.victory_points), ("leadership", setup.leadership), ("economy", setup.economy)]
        {
            let at = format!("setup.{field}");
            check_range(&nations_path, &nations_text, "setup", field, &at, a, 0, max)?;
            check_range(&nations_path, &nations_text, "setup", field, &at, b, 0, max)?;
        }
        for (n, _, c) in &setup.influence {
            let after = format!("\"{n}\"");
            check_range(&nations_path, &nations_text, "influence", &after, "setup.influence", *c, 0, MAX_CUBES)?;
        }
        if nf.nations.len() > MAX_NATIONS {
            return Err(DataError::at_text(
                &nations_path,
                &nations_text,
                "",
                "nations:",
                format!("field `nations`: {} nations; at most {MAX_NATIONS}", nf.nations.len()),
            ));
        }
        for n in &nf.nations {
            let after = format!("\"{}\"", n.name);
            for v in [n.vp.0, n.vp.1, n.vp.2] {
                check_range(&nations_path, &nations_text, &after, "vp", "vp", v, 0, MAX_AMOUNT as u8)?;
            }
        }
        let mut total_units = 0usize;
        for (n, kind, value, count, _) in &uf.units {
            let after = format!("(\"{n}\", {kind:?}");
            check_range(&units_path, &units_text, &after, &value.to_string(), "value", *value, 1, MAX_AMOUNT as u8)?;
            check_range(&units_path, &units_text, &after, &count.to_string(), "count", *count, 1, MAX_AMOUNT as u8)?;
            total_units += *count as usize;
        }
        if total_units > MAX_UNITS {
            return Err(DataError::at_text(
                &units_path,
                &units_text,
                "",
                "units:",
                format!("field `units`: {total_units} units; unit numbers hold at most {MAX_UNITS}"),
            ));
        }

        let mut by_name: HashMap<String, NationId> = HashMap::new();
        for (i, n) in nf.nations.iter().enumerate() {
            if by_name.insert(n.name.clone(), i as NationId).is_some() {
                return Err(DataError::at_text(
                    &nations_path,
                    &nations_text,
                    "nations",
                    &format!("\"{}\"", n.name),
                    format!("field `name`: nation `{}` is listed twice", n.name),
                ));
            }
        }
        let nation = |name: &str, file: &Path, text: &str, field: &str| -> Result<NationId, DataError> {
            by_name.get(name).copied().ok_or_else(|| {
                DataError::at_text(
                    file,
                    text,
                    "",
                    &format!("\"{name}\""),
                    format!("field `{field}`: `{name}` is not a nation of nations.ron"),
                )
            })
        };
        for p in ["France", "Britain"] {
            nation(p, &nations_path, &nations_text, "nations")?;
        }

        let mut units = Vec::new();
        for (n, kind, value, count, name) in &uf.units {
            let id = nation(n, &units_path, &units_text, "units")?;
            for _ in 0..*count {
                units.push(UnitDef { nation: id, kind: *kind, value: *value, name: name.clone() });
            }
        }

        // The starting units are taken from Appendix A's counts.
        let mut used = vec![false; units.len()];
        let mut start = Vec::new();
        for (n, list) in &nf.setup.units {
            let id = nation(n, &nations_path, &nations_text, "setup.units")?;
            for (kind, value) in list {
                let Some(u) = (0..units.len())
                    .find(|&u| !used[u] && units[u].nation == id && units[u].kind == *kind && units[u].value == *value)
                else {
                    return Err(DataError::at_text(
                        &nations_path,
                        &nations_text,
                        "units:",
                        &format!("\"{n}\""),
                        format!(
                            "field `setup.units`: {n} starts with {} {value}, but units.ron has no more of them",
                            kind.name()
                        ),
                    ));
                };
                used[u] = true;
                start.push(u);
            }
        }
        let mut influence = Vec::new();
        for (n, p, c) in &nf.setup.influence {
            influence.push((nation(n, &nations_path, &nations_text, "setup.influence")?, *p, *c));
        }
        let mut allies = Vec::new();
        for (n, p) in &nf.setup.allies {
            allies.push((nation(n, &nations_path, &nations_text, "setup.allies")?, *p));
        }

        let mut cards = Vec::new();
        let mut eras = Vec::new();
        let mut provenance = vec![
            ("nations".to_string(), nf.nations_provenance.clone()),
            ("set-up".to_string(), nf.setup_provenance.clone()),
            ("tracks".to_string(), nf.tracks_provenance.clone()),
            ("units".to_string(), uf.provenance.clone()),
        ];
        for (e, era) in file.eras.iter().enumerate() {
            let deck_path = part_file(path, &text, "deck", &era.deck)?;
            let (deck, deck_text): (DeckFile, String) = load_ron(&deck_path)?;
            all_text += &deck_text;
            let resolve = |d: &EffectDef| -> Result<Effect, DataError> {
                d.try_map(|name: &String| nation(name, &deck_path, &deck_text, "cards"))
            };
            for c in &deck.cards {
                // Effect amounts the tracks and unit counts can take.
                let after = format!("\"{}\"", c.name);
                let all = c
                    .body
                    .iter()
                    .chain(&c.bottom)
                    .chain(c.campaign.iter().flat_map(|cd| cd.win.iter().chain(&cd.lose)));
                for d in all {
                    let (a, lo, hi) = match d {
                        Effect::Economy(_, a)
                        | Effect::Leadership(_, a)
                        | Effect::Vp(_, a)
                        | Effect::Influence(_, _, a) => (*a as i16, -MAX_AMOUNT, MAX_AMOUNT),
                        Effect::Recruit(_, _, a) | Effect::LoseUnits(_, a) => (*a as i16, 1, MAX_AMOUNT),
                        _ => continue,
                    };
                    let field = format!("effect {d:?}");
                    check_range(&deck_path, &deck_text, &after, &a.to_string(), &field, a, lo, hi)?;
                }
                let campaign = match &c.campaign {
                    None => None,
                    Some(cd) => Some(Campaign {
                        region: if cd.naval {
                            None
                        } else {
                            Some(nation(&cd.region, &deck_path, &deck_text, "campaign.region")?)
                        },
                        naval: cd.naval,
                        win: cd.win.iter().map(resolve).collect::<Result<_, _>>()?,
                        lose: cd.lose.iter().map(resolve).collect::<Result<_, _>>()?,
                    }),
                };
                if campaign.is_none() && (c.body.is_empty() || c.bottom.is_none()) {
                    return Err(DataError::at_text(
                        &deck_path,
                        &deck_text,
                        "",
                        &format!("\"{}\"", c.name),
                        format!("card `{}`: an event card needs a `body` and a `bottom`", c.name),
                    ));
                }
                cards.push(Card {
                    name: c.name.clone(),
                    year: c.year,
                    era: e as u8,
                    body: c.body.iter().map(resolve).collect::<Result<_, _>>()?,
                    bottom: c.bottom.as_ref().map(resolve).transpose()?,
                    campaign,
                    source: c.source.clone(),
                });
            }
            provenance.push((format!("deck {}", era.years), deck.provenance.clone()));
            eras.push(Era { name: era.name.clone(), years: era.years.clone(), provenance: deck.provenance });
        }
        if eras.len() != 3 {
            return Err(DataError::at_text(path, &text, "", "eras", "field `eras`: the game has three eras"));
        }
        let mut sc = VgScenario {
            spain: None,
            france: None,
            name: file.name,
            path: path.to_path_buf(),
            hash: crate::engine::digest::digest_bytes(all_text.as_bytes()),
            nations: nf.nations,
            units,
            cards,
            eras,
            setup: Setup {
                victory_points: [nf.setup.victory_points.0, nf.setup.victory_points.1],
                leadership: [nf.setup.leadership.0, nf.setup.leadership.1],
                economy: [nf.setup.economy.0, nf.setup.economy.1],
                influence,
                allies,
                units: start,
            },
            track_max: nf.track_max,
            seas_pos: nf.seas_pos,
            provenance,
            unit_notes: uf.notes,
        };
        (sc.spain, sc.france) = (sc.nation_id("Spain"), sc.nation_id("France"));
        Ok(sc)
    }

    pub fn nation_id(&self, name: &str) -> Option<NationId> {
        self.nations.iter().position(|n| n.name == name).map(|i| i as NationId)
    }

    pub fn nation_name(&self, n: NationId) -> &str {
        &self.nations[n as usize].name
    }

    /// The player nation's own id (France or Britain).
    pub fn home(&self, p: Player) -> NationId {
        self.nation_id(p.name()).expect("checked on load")
    }
}
