//! Words for Victory & Glory: effects, card texts, action labels and the prompt, as a player reads
//! them.

use super::actions::Action;
use super::data::{Effect, Player, VgScenario, Who};
use super::rules::{Event, entry_words};
use super::state::{Group, HAND_SIZE, Pending, Phase, Text, Vg};

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

impl Vg {
    /// An event of the log in words.
    pub fn event_text(&self, e: &Event) -> String {
        let nation = |n: u8| self.sc.nation_name(n);
        let card = |c: u16| self.card_name(c);
        match e {
            Event::SetUp { economy, leadership } => format!(
                "Set-up: France economy {}, leadership {}; Britain economy {}, leadership {}; Austria allied to Britain",
                economy[0], leadership[0], economy[1], leadership[1]
            ),
            Event::RoundBegan { round, era, first } => {
                let era = &self.sc.eras[*era as usize];
                format!(
                    "— Round {} ({}, {}): {} cards dealt to each; {} plays first —",
                    round + 1,
                    era.name,
                    era.years,
                    HAND_SIZE,
                    first.name()
                )
            }
            Event::NoCardLeft { player } => format!("{} has no card left to play", player.name()),
            Event::RoundEnded { round } => format!("Round {} ends: the cards left in hand are discarded", round + 1),
            Event::EraEnded { era } => format!("End of the era {}", self.sc.eras[*era as usize].years),
            Event::CardPlayed { player, card: c, text } => format!(
                "{} plays {} ({})",
                player.name(),
                card(*c),
                if *text == Text::Body { "body text" } else { "bottom text" }
            ),
            Event::Economy { player, change, now } => format!("{} economy {change:+}: {now}", player.name()),
            Event::Leadership { player, change, now } => format!("{} leadership {change:+}: {now}", player.name()),
            Event::Vp { player, change, now } => format!("{} {change:+} VP: {now}", player.name()),
            Event::InfluenceGained { player, nation: n, count } => {
                format!("{} +{count} influence in {}", player.name(), nation(*n))
            }
            Event::InfluenceLost { player, nation: n, count } => {
                format!("{} loses {count} influence in {}", player.name(), nation(*n))
            }
            Event::InfluencePlaced { player, nation: n } => {
                format!("{} places influence in {}", player.name(), nation(*n))
            }
            Event::InfluenceRemoved { owner, nation: n } => {
                format!("{} loses influence in {}", owner.name(), nation(*n))
            }
            Event::NoRecruits { player } => format!("{} has no units left to recruit", player.name()),
            Event::NoMajority { player, nation: n } => {
                format!("{} cannot recruit in {}: no majority of influence", player.name(), nation(*n))
            }
            Event::Recruited { player, nation: n, count, placed } => {
                let place = match placed {
                    Some(q) => format!("in front of {}", q.name()),
                    None => "in its holding area".to_string(),
                };
                format!("{} recruits {count} {} unit(s), placed {place}", player.name(), nation(*n))
            }
            Event::NoUnitToLose { player } => format!("{} has no unit to lose", player.name()),
            Event::Eliminated { unit } => format!("{} is eliminated", self.unit_label(*unit)),
            Event::EnAvantNothing => "En Avant!: no campaign to resolve".to_string(),
            Event::AlreadyAllied { nation: n, player } => {
                format!("{} is already allied to {}", nation(*n), player.name())
            }
            Event::Allied { nation: n, player, switched } => format!(
                "{} {} {}: its units are now in front of {}",
                nation(*n),
                if *switched { "switches sides to" } else { "allies with" },
                player.name(),
                player.name()
            ),
            Event::Defeated { nation: n } => {
                format!("{} is defeated: no longer allied, its units return to its holding area", nation(*n))
            }
            Event::CampaignPlayed { player, card: c, campaign } => {
                format!("{} plays the campaign {} {}", player.name(), card(*c), self.region_name(*campaign))
            }
            Event::NoUnitForCampaign { player, campaign } => {
                format!("{} has no unit that may join the campaign {}", player.name(), self.region_name(*campaign))
            }
            Event::Committed { player, campaign } => {
                format!("{} commits a unit face down {}", player.name(), self.region_where(*campaign))
            }
            Event::CommitEnded { player, campaign, committed } => {
                let units = if *committed == 1 { "1 unit".to_string() } else { format!("{committed} units") };
                format!("{} commits no more units {} ({units} in all)", player.name(), self.region_where(*campaign))
            }
            Event::Revealed { card: c, campaign, units, to } => {
                let side = |units: &[u8]| -> String {
                    let list: Vec<String> = units.iter().map(|&u| self.unit_label(u)).collect();
                    if list.is_empty() { "nothing".to_string() } else { list.join(", ") }
                };
                format!(
                    "{} {}: units turned up — France: {}; Britain: {}. The card goes in front of {}",
                    card(*c),
                    self.region_name(*campaign),
                    side(&units[0]),
                    side(&units[1]),
                    to.name()
                )
            }
            Event::Resolved { card: c, campaign, strength, by_tabletop, winner } => format!(
                "{} {} resolved: France {} against Britain {}{} — {}",
                card(*c),
                self.region_name(*campaign),
                strength[0],
                strength[1],
                if *by_tabletop { " (decided on the miniatures table)" } else { "" },
                match winner {
                    Some(w) => format!("{} wins", w.name()),
                    None => "a tie: no winner".to_string(),
                }
            ),
            Event::Majority { nation: n, player, vp } => {
                format!("{}: {} holds the majority, +{vp} VP", nation(*n), player.name())
            }
            Event::EconomyScored { player, economy, units, vp } => format!(
                "{}: economy {economy} less {units} {} units: {vp:+} VP",
                player.name(),
                if *player == Player::France { "French" } else { "British" }
            ),
            Event::VictoryPoints { vp } => format!("Victory points: France {}, Britain {}", vp[0], vp[1]),
            Event::GameEnded { vp } => {
                let w = match vp[0].cmp(&vp[1]) {
                    std::cmp::Ordering::Greater => "France wins",
                    std::cmp::Ordering::Less => "Britain wins",
                    std::cmp::Ordering::Equal => "a tie: no winner",
                };
                format!("The game ends after round 9: {w}")
            }
            Event::SoloSetUp { ai } => {
                format!("Solo game: the AI plays {} (7 cards a round, the first and the last)", ai.name())
            }
            Event::AiCannotFight { player, card: c } => format!(
                "{} (AI) cannot fight {}: the card goes in front of {}",
                player.name(),
                card(*c),
                player.other().name()
            ),
            Event::AiDraws { player } => format!("{} (AI) draws an extra card", player.name()),
            Event::ToTabletop { card: c, campaign } => format!(
                "{} {} goes to the miniatures table: its battle sheet is ready",
                card(*c),
                self.region_name(*campaign)
            ),
            Event::TabletopDisputed { player, entry, other } => format!(
                "The tabletop result is disputed: {} enters {}, {} entered {}; nothing is applied until both agree",
                player.name(),
                entry_words(*entry),
                player.other().name(),
                entry_words(*other)
            ),
            Event::TabletopEntered { player, entry } => format!(
                "{} enters the tabletop result: {}; {} is to confirm it or enter what it saw",
                player.name(),
                entry_words(*entry),
                player.other().name()
            ),
            Event::TabletopAgreed { entry } => {
                format!("Both players agree on the tabletop result: {}", entry_words(*entry))
            }
        }
    }
}
