//! Words for the log and the prompt: each event and action of Battle of the Nations as a player
//! reads it, through the eyes of the seat that is looking (a blind draw is "a card" to the other).

use super::actions::Event;
use super::actions::{Action, SandboxAction};
use super::state::{Botn, HandCard, seat_of};
use crate::engine::seats::{Viewer, Visibility};
use crate::engine::table::Entry;

/// A piece of a log line: plain text, or a name that links to a piece or field on the table.
#[derive(Clone, Debug, PartialEq)]
pub enum Span {
    Text(String),
    Army(u8),
    Field(u16),
}

fn t(s: impl Into<String>) -> Span {
    Span::Text(s.into())
}

pub fn card_name(game: &Botn, card: HandCard) -> String {
    match card {
        HandCard::Action(c) => game.sc.action_cards[c as usize].title(),
        HandCard::Scout => "Scout".to_string(),
    }
}

/// One log entry as spans.
pub fn entry_spans(game: &Botn, entry: &Entry<Event>, viewer: Viewer) -> Vec<Span> {
    let event = match entry {
        Entry::Hand { seat, mv } => return vec![t(crate::engine::rules::Game::hand_text(game, *seat, mv, viewer))],
        Entry::Roll(roll) => {
            let list: Vec<String> = roll.dice.iter().map(|v| v.to_string()).collect();
            let who = game_seat(game, roll.seat.0);
            return vec![t(if roll.is_free() {
                format!("{who} rolled {}d6: {}", roll.dice.len(), list.join(", "))
            } else {
                roll.line(crate::engine::rules::Game::seat_names(game))
            })];
        }
        Entry::Game { event, .. } => event,
    };
    let sc = &game.sc;
    match event {
        Event::MissionsDealt { count } => {
            vec![t(format!("Napoléon receives {count} mission cards, one from each district"))]
        }
        Event::SecondMission { district } => {
            vec![t(format!("Napoléon takes a second mission card from the {district:?} district"))]
        }
        Event::MissionKept { district } => {
            vec![t(format!("Napoléon keeps one {district:?} mission; the other leaves the game"))]
        }
        Event::ArmyCardLaidOut { army, fields, scouts } => {
            let mut v = vec![t("Army card "), Span::Army(*army), t(" laid out: markers on ")];
            for (i, f) in fields.iter().enumerate() {
                if i > 0 {
                    v.push(t(", "));
                }
                v.push(Span::Field(f.0));
            }
            if *scouts > 0 {
                v.push(t(format!(" ({scouts} scout card{} paid)", if *scouts > 1 { "s" } else { "" })));
            }
            v
        }
        Event::MarkerRemoved { army, field } => {
            vec![t("Marker of "), Span::Army(*army), t(" removed from "), Span::Field(field.0)]
        }
        Event::MarkerMoved { army, from, to } => {
            vec![t("Marker of "), Span::Army(*army), t(" moves "), Span::Field(from.0), t(" to "), Span::Field(to.0)]
        }
        Event::ArmyPlaced { army, field, cleared, own, scout } => {
            let mut v = vec![
                Span::Army(*army),
                t(" placed on "),
                Span::Field(field.0),
                t(format!(" ({cleared} markers cleared")),
            ];
            if *own {
                v.push(t(format!(", +1 victory point{}, time +1)", if *scout { ", a scout card" } else { "" })));
            } else {
                v.push(t(", the other side's army: no point, no time)"));
            }
            v
        }
        Event::ArmyLost { army } => {
            vec![Span::Army(*army), t(" lost its last markers before it could be placed: out of play")]
        }
        Event::UnitChosen { army, unit } => vec![Span::Army(*army), t(format!(" will fight as {}", unit.name()))],
        Event::CardPlayed { side, card } => {
            vec![t(format!("{} plays {}", side.name(), sc.action_cards[*card as usize].title()))]
        }
        Event::ScoutPlayed { side } => vec![t(format!("{} plays a scout card (time +1)", side.name()))],
        Event::TimeAdvanced { to } => {
            let space = &sc.time[*to as usize];
            vec![t(match &space.date {
                Some(date) => format!("Time indicator reaches {date}"),
                None => format!("Time indicator advances to space {to} of {}", sc.time.len() - 1),
            })]
        }
        Event::MissionRevealed { mission } => {
            let m = &sc.missions[*mission as usize];
            vec![
                t(format!("Mission revealed ({:?}): ", m.def.district)),
                Span::Field(m.field.0),
                t(format!(" — French {} / Allied {} points", m.def.french, m.def.allied)),
            ]
        }
        Event::DrewFaceUp { side, card } => {
            vec![t(format!("{} draws {} from the face-up row", side.name(), sc.action_cards[*card as usize].title()))]
        }
        Event::DrewBlind { side, card } => {
            if Visibility::Owner(seat_of(*side)).visible_to(viewer) {
                vec![t(format!(
                    "{} draws {} from the blind pile",
                    side.name(),
                    sc.action_cards[*card as usize].title()
                ))]
            } else {
                vec![t(format!("{} draws a card from the blind pile", side.name()))]
            }
        }
        Event::Reshuffled { cards } => {
            vec![t(format!("The discard pile ({cards} cards) is shuffled into a new draw pile"))]
        }
        Event::Discarded { side, card } => {
            vec![t(format!("{} discards {} (hand limit 8)", side.name(), card_name(game, *card)))]
        }
        Event::Passed { side } => vec![t(format!("{} has no possible action and passes", side.name()))],
        Event::TurnBegan { side, turn } => vec![t(format!("— Turn {turn}: {} —", side.name()))],
        Event::NapoleonWaits => {
            vec![t("Napoléon has placed all his armies: he advances the time indicator and ends his turn")]
        }
        Event::FaceUpSwapped => {
            vec![t("Nobody took a face-up card for two rounds: the row is swapped for four new cards")]
        }
        Event::FightBegan { date, armies } => {
            vec![t(format!("Fight of {date}: {armies} armies in contact with the enemy"))]
        }
        Event::Hit { attacker, target, chosen } => {
            let mut v = vec![Span::Army(*attacker), t(" deals 1 point to "), Span::Army(*target)];
            if *chosen {
                v.push(t(" (chosen by the defender)"));
            }
            v
        }
        Event::ArmyDamaged { army, points, strength, flipped, chips } => {
            let how = match (flipped, chips) {
                (true, 0) => "flipped".to_string(),
                (true, c) => format!("flipped, {c} \"-1\" chip{}", if *c > 1 { "s" } else { "" }),
                _ => String::new(),
            };
            let left = if *strength >= 1 { format!(": strength {strength}") } else { String::new() };
            vec![Span::Army(*army), t(format!(" loses {points} point{} ({how}){left}", plural(*points)))]
        }
        Event::ArmyRemoved { army, field } => {
            vec![Span::Army(*army), t(" falls below strength 1 and leaves "), Span::Field(field.0), t(": out of play")]
        }
        Event::FightEnded => vec![t("The fight is over")],
        Event::GameEnded => vec![t("The time indicator has passed 19.10.: the game is over; final scoring")],
        Event::Assigned { army, mission_army, .. } => {
            let verb = if game.army_side(*army) == super::data::Side::French { " supports " } else { " fights " };
            vec![Span::Army(*army), t(verb), Span::Army(*mission_army)]
        }
        Event::MissionScored(r) => {
            let m = &sc.missions[r.mission as usize];
            let mut v = vec![t("Mission "), Span::Field(m.field.0), t(": ")];
            match r.army {
                Some(a) => {
                    v.push(Span::Army(a));
                    for s in &r.support {
                        v.push(t(" + "));
                        v.push(Span::Army(*s));
                    }
                    v.push(t(format!(" {} against {}", r.french, r.allied)));
                }
                None => v.push(t("no French army on the field")),
            }
            v.push(t(if r.fulfilled {
                format!(" — fulfilled, French +{}", m.def.french)
            } else {
                format!(" — failed, Allied +{}", m.def.allied)
            }));
            v
        }
        Event::FinalScore { french, allied } => {
            let who = if french > allied { "Napoléon wins" } else { "Schwarzenberg wins" };
            vec![t(format!("Final score: French {french}, Allied {allied} — {who}"))]
        }
        Event::GreyCannonSet { french_points } => {
            vec![t(format!("Return game: the grey cannon marks Napoléon's {french_points} points of the first game"))]
        }
        Event::Sandbox(s) => vec![t(format!("Sandbox: {}", sandbox_text(game, s)))],
    }
}

fn plural(n: u8) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn game_seat(game: &Botn, seat: u8) -> &'static str {
    use crate::engine::rules::Game;
    game.seat_names()[seat as usize]
}

pub fn plain(game: &Botn, spans: &[Span]) -> String {
    spans
        .iter()
        .map(|s| match s {
            Span::Text(x) => x.clone(),
            Span::Army(a) => game.army_name(*a).to_string(),
            Span::Field(f) => game.sc.fields[*f as usize].name.clone(),
        })
        .collect()
}

fn sandbox_text(game: &Botn, s: &SandboxAction) -> String {
    let place = |to: &Option<crate::engine::geometry::SpaceId>| match to {
        Some(f) => game.sc.field_name(*f).to_string(),
        None => "off the board".to_string(),
    };
    match s {
        SandboxAction::MoveMarker { marker, to } => {
            format!("a marker of {} moved to {}", game.army_name(game.markers[*marker as usize].army), place(to))
        }
        SandboxAction::MoveArmy { army, to } => format!("{} moved to {}", game.army_name(*army), place(to)),
        SandboxAction::FlipArmy { army } => format!("{} flipped", game.army_name(*army)),
        SandboxAction::DrawBlind => "a card drawn by hand".to_string(),
        SandboxAction::MoveTime { to } => format!("time indicator set to {}", game.sc.time[*to as usize].label),
    }
}

/// A short label for a legal action, for its button.
pub fn action_label(game: &Botn, action: &Action) -> String {
    let sc = &game.sc;
    let field = |f: &crate::engine::geometry::SpaceId| sc.field_name(*f).to_string();
    let marker = |m: &u8| game.army_name(game.markers[*m as usize].army).to_string();
    match action {
        Action::DraftDistrict(d) => format!("Second mission from {d:?}"),
        Action::RevealMission(m) => {
            let m = &sc.missions[*m as usize];
            format!("Reveal the mission {} ({}/{})", sc.field_name(m.field), m.def.french, m.def.allied)
        }
        Action::PlaceArmy { army } => format!("Place {} (the other army leaves the field)", game.army_name(*army)),
        Action::KeepMission(m) => {
            let m = &sc.missions[*m as usize];
            format!("Keep {} ({}/{})", sc.field_name(m.field), m.def.french, m.def.allied)
        }
        Action::LayOutArmyCard { army, skip } => {
            let mut s = format!("Army card: {}", game.army_name(*army));
            if !skip.is_empty() {
                s += &format!(" (scout: skip {})", skip.iter().map(field).collect::<Vec<_>>().join(", "));
            }
            s
        }
        Action::PlayTerrainCard { marker: m, .. } => {
            let at = game.markers[*m as usize].at.map(|f| field(&f)).unwrap_or_default();
            format!("Terrain: remove {} from {at}", marker(m))
        }
        Action::PlayMovementCard { marker: m, to, .. } => {
            let at = game.markers[*m as usize].at.map(|f| field(&f)).unwrap_or_default();
            format!("Move {} {at} to {}", marker(m), field(to))
        }
        Action::JumpOverArmy { marker: m, over, to, .. } => {
            format!("Jump {} over {} to {}", marker(m), field(over), field(to))
        }
        Action::PlayScoutCard { marker: m } => {
            let at = game.markers[*m as usize].at.map(|f| field(&f)).unwrap_or_default();
            format!("Scout: remove {} from {at}", marker(m))
        }
        Action::PlayWildCard { marker: m, to, .. } => match to {
            Some(to) => format!("Wild: move {} to {}", marker(m), field(to)),
            None => format!("Wild: remove {}", marker(m)),
        },
        Action::PlayTimeCard { .. } => "Time card (+1)".to_string(),
        Action::DrawFaceUp { card } => format!("Draw {}", sc.action_cards[*card as usize].title()),
        Action::DrawBlind => "Draw blind".to_string(),
        Action::ChooseUnit { army, unit } => format!("{} as {}", game.army_name(*army), unit.name()),
        Action::Discard(c) => format!("Discard {}", card_name(game, *c)),
        Action::Pass if game.napoleon_done() && game.active == super::data::Side::French => {
            "End the turn (all armies placed)".to_string()
        }
        Action::Pass => "Pass (no action possible)".to_string(),
        Action::SwapFaceUp => "Swap the face-up row".to_string(),
        Action::AllocateHit { attacker, target } => {
            format!("{}'s point goes to {}", game.army_name(*attacker), game.army_name(*target))
        }
        Action::AssignToMission { army, mission_army } => {
            let verb = if game.army_side(*army) == super::data::Side::French { "supports" } else { "fights" };
            format!("{} {verb} {}", game.army_name(*army), game.army_name(*mission_army))
        }
        Action::SetGreyCannon { french_points } => format!("Grey cannon at {french_points}"),
        Action::Sandbox(s) => sandbox_text(game, s),
    }
}

/// What the active seat is asked to do now.
pub fn prompt(game: &Botn) -> String {
    use super::state::Step;
    let who = game.active.name();
    if game.reveals_due > 0 {
        return "Napoléon: the time indicator passed a date — reveal a mission card of your choice".to_string();
    }
    match game.step {
        Step::PlaceArmy => format!(
            "{who}: {} armies have their last marker on one field — choose the one placed there",
            game.placing.len()
        ),
        Step::MissionDraft if game.draft_pair.is_empty() => {
            format!("Napoléon: choose a district to take a second mission card from ({} of 2)", game.drafted.len() + 1)
        }
        Step::MissionDraft => "Napoléon: keep one of the two mission cards".to_string(),
        Step::Actions => format!(
            "{who}: {} action{} left — lay out an army card, play a card, or draw",
            game.actions_left,
            if game.actions_left == 1 { "" } else { "s" }
        ),
        Step::ChooseUnit => "Choose the unit type of the army just placed".to_string(),
        Step::Discard => format!("{who}: discard down to 8 cards"),
        Step::Fight => {
            let hit = &game.hits[0];
            let defender = game.army_side(hit.attacker).other();
            format!(
                "Fight — {}: {} touches {} of your armies; choose which one takes its point",
                defender.name(),
                game.army_name(hit.attacker),
                hit.targets.len()
            )
        }
        Step::Scoring => {
            let c = &game.score_choices[0];
            let verb = if game.army_side(c.army) == super::data::Side::French { "support" } else { "fight" };
            format!(
                "Final scoring — {}: choose which mission army {} will {verb}",
                game.army_side(c.army).name(),
                game.army_name(c.army)
            )
        }
        Step::GameOver => {
            let who = if game.vp[0] > game.vp[1] { "Napoléon wins" } else { "Schwarzenberg wins" };
            format!("Game over — French {}, Allied {}: {who}", game.vp[0], game.vp[1])
        }
    }
}
