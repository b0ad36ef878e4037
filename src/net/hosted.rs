//! A table kept by a host: the game, its log as a hash chain, and its fair dice. Before each
//! action the table's generator is reseeded from the key and the chain's head (see `fair`), the
//! action is checked by the rules as at any table, and its link is appended. When the game is
//! over the host reveals its secret; `verify` then recomputes every link and every roll.

use super::chain::{self, Hash, Link};
use super::fair;
use crate::engine::rules::Game;
use crate::engine::save::ScenarioRef;
use crate::engine::seats::SeatId;
use crate::engine::table::{Act, Refused, Table};
use serde::{Deserialize, Serialize};

/// What a hosted game keeps beside its actions: enough to recompute every roll once the host's
/// secret is revealed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FairRecord {
    pub table_id: String,
    pub scenario_hash: String,
    #[serde(with = "chain::hex32")]
    pub commitment: Hash,
    /// The host's secret, in hex: revealed only once the game is over (or claimed).
    pub secret: Option<String>,
    /// Each seat's value, in seat order, in hex.
    pub contributions: Vec<String>,
    pub links: Vec<Link>,
    /// The seat that claimed the game, the other out of time (issue 32): the game ends there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed_by: Option<u8>,
}

/// The save of a finished hosted game, as the host writes it: the game, its scenario and the
/// fair record (the log as a chain, the seats' values and the revealed secret).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostedSave {
    pub format: u32,
    pub game: String,
    pub scenario: ScenarioRef,
    pub fair: FairRecord,
}

pub const HOSTED_SAVE_FORMAT: u32 = 1;

pub struct Hosted<G: Game> {
    pub table_id: String,
    pub table: Table<G>,
    secret: Hash,
    pub commitment: Hash,
    contributions: Vec<Hash>,
    key: Hash,
    genesis: Hash,
    /// One per accepted action, as the table's records are (a hosted table never undoes).
    pub links: Vec<Link>,
    /// The seat that claimed the game, the other out of time: it ends here, its secret revealed.
    pub claimed: Option<u8>,
}

impl<G: Game> Hosted<G> {
    /// The table once every seat has contributed: `new_table` sets the game up with the seed the
    /// key gives (its first shuffles and draws are the key's too).
    pub fn start(
        table_id: &str,
        secret: Hash,
        contributions: Vec<Hash>,
        new_table: impl FnOnce(u64) -> Table<G>,
    ) -> Self {
        let commitment = fair::commitment(table_id, &secret);
        let key = fair::table_key(table_id, &secret, &contributions);
        let mut table = new_table(fair::setup_seed(table_id, &key));
        table.game.play_across_machines();
        let genesis = chain::genesis(table_id, &table.game.scenario().hash, &commitment);
        Self {
            table_id: table_id.to_string(),
            table,
            secret,
            commitment,
            contributions,
            key,
            genesis,
            links: Vec::new(),
            claimed: None,
        }
    }

    /// The hash of the last accepted action (the genesis before any).
    pub fn head(&self) -> Hash {
        self.links.last().map_or(self.genesis, |l| l.hash)
    }

    /// Checks and applies `seat`'s act with the dice of its place in the chain and appends its
    /// link. A refusal names the rule and changes nothing (the generator included).
    pub fn submit(&mut self, seat: SeatId, act: Act<G::Action>) -> Result<&Link, Refused<G>> {
        let index = self.links.len() as u64;
        let head = self.head();
        let text = ron::to_string(&act).expect("an action is plain data");
        let fresh = fair::generator(&self.table_id, &self.key, index, &head);
        let before = std::mem::replace(self.table.game.rng(), fresh);
        if let Err(e) = self.table.submit(seat, act) {
            *self.table.game.rng() = before;
            return Err(e);
        }
        let hash = chain::link_hash(&self.table_id, &head, index, seat, &text);
        self.links.push(Link { index, seat, act: text, hash });
        Ok(self.links.last().expect("just pushed"))
    }

    /// Applies the next link of a recorded log (a verification, a host's restart, the spectators'
    /// delayed copy): checked by the rules with the dice of its place in the chain, and its hash
    /// recomputed. An error names the action; the table is not to be used after one.
    pub fn replay_link(&mut self, link: &Link) -> Result<(), String> {
        let i = self.links.len();
        if link.index != i as u64 {
            return Err(format!("action {i}: it says it is action {} (the log was reordered)", link.index));
        }
        let act: Act<G::Action> =
            ron::from_str(&link.act).map_err(|e| format!("action {i}: not an action of this game: {e}"))?;
        let hash = self.submit(link.seat, act).map_err(|e| format!("action {i}: refused by the rules: {e}"))?.hash;
        if hash != link.hash {
            return Err(format!("action {i}: its hash does not follow the chain (the log was edited)"));
        }
        Ok(())
    }

    /// The save of this table (the secret in it only once the game is over).
    pub fn save(&self) -> HostedSave {
        HostedSave {
            format: HOSTED_SAVE_FORMAT,
            game: G::ID.to_string(),
            scenario: shared_scenario(self.table.game.scenario()),
            fair: self.record(),
        }
    }

    /// The record of this table; the secret is in it only once the game is over or claimed.
    pub fn record(&self) -> FairRecord {
        FairRecord {
            table_id: self.table_id.clone(),
            scenario_hash: self.table.game.scenario().hash,
            commitment: self.commitment,
            secret: (self.table.game.is_over() || self.claimed.is_some()).then(|| chain::to_hex(&self.secret)),
            contributions: self.contributions.iter().map(|c| chain::to_hex(c)).collect(),
            links: self.links.clone(),
            claimed_by: self.claimed,
        }
    }
}

/// Recomputes a finished hosted game from its record: the revealed secret against the host's
/// commitment, the scenario, every action (checked by the rules again, with the dice its place in
/// the chain gives) and every link's hash. The final table, or what does not hold.
pub fn verify<G: Game>(rec: &FairRecord, new_table: impl FnOnce(u64) -> Table<G>) -> Result<Table<G>, String> {
    let hex = |s: &str, what: &str| chain::from_hex(s).ok_or_else(|| format!("{what} is not 64 hex digits"));
    let n = rec.links.len();
    let unrevealed = || format!("the host's secret is not revealed: the game is unfinished at action {n}");
    let secret = hex(rec.secret.as_deref().ok_or_else(unrevealed)?, "the secret")?;
    if fair::commitment(&rec.table_id, &secret) != rec.commitment {
        return Err("the revealed secret does not match the commitment the host published".into());
    }
    let contributions = rec.contributions.iter().map(|c| hex(c, "a seat's value")).collect::<Result<Vec<_>, _>>()?;
    let mut h = Hosted::start(&rec.table_id, secret, contributions, new_table);
    if h.table.game.scenario().hash != rec.scenario_hash {
        return Err("the scenario is not the one the game was played on (its hash differs)".into());
    }
    for l in &rec.links {
        h.replay_link(l)?;
    }
    // A finished game's save verifies only whole: one cut short (a loss cut off) ends before the
    // game does, though its secret was revealed at the end. A claimed game ends where it was
    // claimed.
    if !h.table.game.is_over() && rec.claimed_by.is_none() {
        return Err(format!(
            "the game is not over after the save's {n} actions, yet the host's secret is revealed: the save is cut short"
        ));
    }
    Ok(h.table)
}

/// Checks a hosted game's record against what a seat kept from its welcome: the host's
/// commitment (which the host published before it took any seat's value) and, for a seat, the
/// value it sent at its place. A host that changed its secret after seeing the values, or a
/// seat's value, is caught here (issue 30, item 13).
pub fn check_kept(rec: &FairRecord, commitment: Option<&Hash>, seat_value: Option<(u8, Hash)>) -> Result<(), String> {
    if let Some(c) = commitment
        && *c != rec.commitment
    {
        return Err(format!(
            "the save's commitment {} is not the one the host sent at the welcome ({}): the host changed its secret",
            chain::to_hex(&rec.commitment),
            chain::to_hex(c)
        ));
    }
    if let Some((k, v)) = seat_value {
        let recorded = rec.contributions.get(k as usize).and_then(|c| chain::from_hex(c));
        if recorded != Some(v) {
            return Err(format!("seat {k}'s value in the save is not the one it sent"));
        }
    }
    Ok(())
}

/// `check_kept` on a finished game's save as the host sent it (RON).
pub fn check_save_text(save: &str, commitment: Option<&Hash>, seat_value: Option<(u8, Hash)>) -> Result<(), String> {
    let save: HostedSave = ron::from_str(save).map_err(|e| format!("the host's save could not be read: {e}"))?;
    check_kept(&save.fair, commitment, seat_value)
}

/// The scenario as a save handed to players names it: by the game's folder and the file's name
/// (`leipzig-1813/1-historical-situation.ron`), never the host's own path to it (issue 63: the
/// finished save carried the host's absolute path, its user name and folders).
fn shared_scenario(mut sc: crate::engine::scenario::ScenarioRef) -> crate::engine::scenario::ScenarioRef {
    let file = sc.path.file_name().map(std::path::PathBuf::from).unwrap_or_default();
    let game = sc.path.parent().and_then(|d| d.file_name()).map(std::path::PathBuf::from);
    sc.path = game.map_or(file.clone(), |g| g.join(&file));
    sc
}

/// The scenario file a save names: as written when it is there (an older save's own path),
/// else under the scenarios folder (`shared_scenario`'s name).
fn scenario_of(named: &std::path::Path) -> std::path::PathBuf {
    if named.is_relative() && !named.exists() {
        let under = crate::engine::scenario::scenarios_root().join(named);
        if under.exists() {
            return under;
        }
    }
    named.to_path_buf()
}

/// `grognard verify`: reads a hosted game's save and recomputes it on its scenario (`new_table`
/// sets a game up on the scenario file with a seed). What was verified, or why not, naming the
/// file.
pub fn verify_file<G: Game>(
    path: &std::path::Path,
    new_table: impl Fn(&std::path::Path, u64) -> Result<Table<G>, String>,
) -> Result<String, String> {
    let text = crate::engine::scenario::read_text(path).map_err(|e| e.to_string())?;
    let save: HostedSave = crate::engine::scenario::parse_ron(path, &text).map_err(|e| e.to_string())?;
    let at = |m: String| format!("{}: {m}", path.display());
    if save.format != HOSTED_SAVE_FORMAT {
        return Err(at(format!("format {} (this Grognard reads format {HOSTED_SAVE_FORMAT})", save.format)));
    }
    if save.game != G::ID {
        return Err(at(format!("a save of `{}`, not of `{}`", save.game, G::ID)));
    }
    let scenario = scenario_of(&save.scenario.path);
    new_table(&scenario, 0).map_err(at)?;
    let table = verify(&save.fair, |seed| new_table(&scenario, seed).expect("it loaded a moment ago")).map_err(at)?;
    let claimed =
        save.fair.claimed_by.map_or(String::new(), |k| format!(" (claimed by seat {k}, the other out of time)"));
    Ok(format!(
        "verified: {} actions{claimed}, each roll recomputed from the revealed secret and the seats' values; digest {}",
        save.fair.links.len(),
        table.digest()
    ))
}
