//! Words for Victory & Glory: effects, card texts, action labels and the prompt, as a player reads
//! them.

use super::actions::Action;
use super::data::{Effect, Player, VgScenario, Who};
use super::state::{Group, Pending, Phase, Text, Vg};

fn who(w: Who) -> &'static str {
    match w {
        Who::France => "France",
        Who::Britain => "Britain",
        Who::Player => "you",
        Who::Opponent => "your opponent",
    }
}

pub fn effect_text(sc: &VgScenario, e: &Effect) -> String {
    let nation = |n: &Option<u8>| n.map(|n| sc.nation_name(n).to_string());
    match e {
        Effect::Economy(w, a) => format!("{} {a:+} economy", who(*w)),
        Effect::Leadership(w, a) => format!("{} {a:+} leadership", who(*w)),
        Effect::Vp(w, a) => format!("{} {a:+} VP", who(*w)),
        Effect::Influence(w, n, a) => match nation(n) {
            Some(n) => format!("{} {a:+} influence in {n}", who(*w)),
            None => format!("{} {a:+} influence (anywhere)", who(*w)),
        },
        Effect::Recruit(w, n, c) => match nation(n) {
            Some(n) => format!("{} recruits {c} {n} unit(s)", who(*w)),
            None => format!("{} recruits {c} unit(s)", who(*w)),
        },
        Effect::LoseUnits(w, c) => format!("{} loses {c} unit(s)", who(*w)),
        Effect::Alliance(w, n) => format!("{} gains {} as an ally (majority needed)", who(*w), sc.nation_name(*n)),
        Effect::AllianceAny(w) => format!("{} gains a Major Nation as an ally (majority needed)", who(*w)),
        Effect::EnAvant => "En Avant! resolve a campaign now".to_string(),
    }
}

fn effects(sc: &VgScenario, list: &[Effect]) -> String {
    list.iter().map(|e| effect_text(sc, e)).collect::<Vec<_>>().join(" AND ")
}

/// A card's full text, with where it comes from (the rulebook, or a reconstruction).
pub fn card_text(game: &Vg, card: u16) -> String {
    let c = &game.sc.cards[card as usize];
    let origin = match &c.source {
        Some(s) => format!(" [{s}]"),
        None => " [reconstructed]".to_string(),
    };
    card_body(game, c) + &origin
}

/// What a card prints under its title: its kind, and its effects.
pub fn card_print_text(game: &Vg, card: u16) -> (String, String) {
    let c = &game.sc.cards[card as usize];
    match &c.campaign {
        Some(camp) => (
            match camp.region {
                Some(n) => format!("Campaign in {} · {}", game.sc.nation_name(n), c.year),
                None => format!("Naval campaign · {}", c.year),
            },
            format!("Win: {}. Lose: {}.", effects(&game.sc, &camp.win), effects(&game.sc, &camp.lose)),
        ),
        None => (
            format!("Event · {}", c.year),
            format!(
                "{}. Bottom: {}.",
                effects(&game.sc, &c.body),
                c.bottom.as_ref().map(|e| effect_text(&game.sc, e)).unwrap_or_default()
            ),
        ),
    }
}

fn card_body(game: &Vg, c: &super::data::Card) -> String {
    match &c.campaign {
        Some(camp) => format!(
            "{} ({}) — campaign {}: win {}; lose {}",
            c.name,
            c.year,
            match camp.region {
                Some(n) => format!("in {}", game.sc.nation_name(n)),
                None => "at sea (naval)".to_string(),
            },
            effects(&game.sc, &camp.win),
            effects(&game.sc, &camp.lose)
        ),
        None => format!(
            "{} ({}) — body: {} | bottom: {}",
            c.name,
            c.year,
            effects(&game.sc, &c.body),
            c.bottom.as_ref().map(|e| effect_text(&game.sc, e)).unwrap_or_default()
        ),
    }
}

pub fn action_label(game: &Vg, a: &Action) -> String {
    let sc = &game.sc;
    match a {
        Action::SoloSetup { ai } => format!("Solo game, the AI plays {}", ai.name()),
        Action::PlayCard { card, text } => {
            let c = &sc.cards[*card as usize];
            match text {
                Text::Body => format!("{}: body — {}", c.name, effects(sc, &c.body)),
                Text::Bottom => {
                    format!(
                        "{}: bottom — {}",
                        c.name,
                        c.bottom.as_ref().map(|e| effect_text(sc, e)).unwrap_or_default()
                    )
                }
            }
        }
        Action::PlayCampaign { card } => format!("Campaign: {}", card_text(game, *card)),
        Action::SoloGiveCampaign { card } => format!("(AI) give {} to the player", sc.cards[*card as usize].name),
        Action::CommitUnit(u) => format!("Commit {}", game.unit_label(*u)),
        Action::EndCommit => "Done committing".to_string(),
        Action::PlaceInfluence(n) => format!("Influence in {}", sc.nation_name(*n)),
        Action::RemoveInfluence(n) => format!("Remove a cube from {}", sc.nation_name(*n)),
        Action::RecruitFrom(n) => format!("Recruit from {}", sc.nation_name(*n)),
        Action::LoseFrom(Group::Army) => "Lose a unit from the army (at random)".to_string(),
        Action::LoseFrom(Group::Campaign(c)) => {
            format!("Lose a unit from the campaign {} (at random)", game.region_name(*c))
        }
        Action::LoseUnit(u) => format!("Lose {}", game.unit_label(*u)),
        Action::Ally(n) => format!("Ally with {}", sc.nation_name(*n)),
        Action::Resolve(c) => {
            format!("Resolve {} {}", game.card_name(game.campaigns[*c as usize].card), game.region_name(*c))
        }
        Action::FightOnTable(c) => {
            format!("Fight {} on the miniatures table", game.card_name(game.campaigns[*c as usize].card))
        }
        Action::TabletopResult { winner, lost, .. } => format!(
            "Tabletop result: {} won{}",
            winner.map(Player::name).unwrap_or("nobody"),
            if lost.is_some() { ", losses converted" } else { "" }
        ),
    }
}

pub fn prompt(game: &Vg) -> String {
    if game.phase == Phase::GameOver {
        let w = match game.vp[0].cmp(&game.vp[1]) {
            std::cmp::Ordering::Greater => "France wins",
            std::cmp::Ordering::Less => "Britain wins",
            std::cmp::Ordering::Equal => "a tie",
        };
        return format!("Game over — France {} VP, Britain {} VP: {w}", game.vp[0], game.vp[1]);
    }
    match game.pending.first() {
        None => format!(
            "{}: play a card ({} of {} this round) — body or bottom text, or a campaign",
            game.turn.name(),
            game.played[game.turn.index()] + 1,
            game.quota[game.turn.index()]
        ),
        Some(Pending::Commit { player, campaign, .. }) => format!(
            "{}: commit units face down to the campaign {} (at least one), then Done",
            player.name(),
            game.region_name(*campaign)
        ),
        Some(Pending::PlaceInfluence { player, left }) => format!("{}: place {left} influence cube(s)", player.name()),
        Some(Pending::RemoveInfluence { owner, left }) => {
            format!("Remove {left} of {}'s influence cubes", owner.name())
        }
        Some(Pending::RecruitNation { player, count }) => {
            format!("{}: recruit {count} unit(s) — from which nation?", player.name())
        }
        Some(Pending::LoseUnit { player, left }) => format!("{}: lose {left} unit(s) — from where?", player.name()),
        Some(Pending::ChooseLoss { player, .. }) => {
            format!("{}: choose which unit of that value is lost", player.name())
        }
        Some(Pending::AllianceAny { player }) => format!("{}: choose a Major Nation to ally with", player.name()),
        Some(Pending::EnAvant { player }) => format!("{}: En Avant! — choose a campaign to resolve now", player.name()),
        Some(Pending::ResolveOrder { chooser }) => format!(
            "End of the era — {} (higher leadership) chooses the next campaign to resolve, or sends it to the miniatures table",
            chooser.name()
        ),
        Some(Pending::TabletopResult { entries: None, .. }) => {
            "Miniatures battle: fight it with the battle sheet, then enter who won".to_string()
        }
        Some(Pending::TabletopResult { entries: Some(e), .. }) => {
            let who = game.tabletop_seat().expect("a tabletop result waits");
            match e[who.other().index()] {
                Some(other) => format!(
                    "Miniatures battle: {} entered {}; {}: confirm it or enter what you saw (nothing applies until you agree)",
                    who.other().name(),
                    crate::games::vg::rules::entry_words(other),
                    who.name()
                ),
                None => {
                    format!("Miniatures battle: fight it with the battle sheet, then {} enters who won", who.name())
                }
            }
        }
    }
}
