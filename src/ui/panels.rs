//! The egui panels around the table.

use crate::engine::journal::Journal;
use crate::engine::plugin::{JournalRes, Request, TableRes};
use crate::engine::rules::{Game, Mode};
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::table::Act;
use crate::games::botn::ai::Player;
use crate::games::botn::text::{Span, action_label, card_name, entry_spans, prompt};
use crate::games::botn::{self, Botn, SandboxAction, Side};
use crate::table::app::{clock_seed, load_table, start_journal};
use crate::table::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

const HELP: &str = "Right-drag: orbit · Middle-drag or WASD/arrows: pan · Wheel: zoom · Space: reset view\n\
Ctrl+1..4: store a view · 1..4: recall it · Drag a troop marker: its legal fields light up\n\
R: roll the dice in the tray · Ctrl+Z: undo (back to the last roll, draw, reveal or hand-over)\n\
H or F11: hide every panel (clean picture for streaming) · F12: screenshot · F1: this help";

#[allow(clippy::too_many_arguments)]
pub fn panels(
    mut contexts: EguiContexts,
    mut table: ResMut<TableRes<Botn>>,
    mut session: ResMut<Session>,
    mut journal: ResMut<JournalRes>,
    mut requests: MessageWriter<Request<Botn>>,
    windows: Query<&Window>,
    time: Res<Time>,
    mut notice_seen: Local<(Option<String>, f32)>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    if std::env::var_os("GROGNARD_DEBUG_FRAMES").is_some() {
        info!("egui repaint causes: {:?}; events {:?}", ctx.repaint_causes(), ctx.input(|i| i.events.clone()));
    }
    let pointer = ctx.input(|i| i.pointer.hover_pos());

    if let Some(offer) = session.resume_offer.clone() {
        egui::Window::new("Resume?")
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .collapsible(false)
            .resizable(false)
            .show(&ctx, |ui| {
                ui.label(format!(
                    "An unfinished game was found in the journal:\n{} — {} actions.",
                    offer.scenario.name,
                    offer.log.len()
                ));
                ui.horizontal(|ui| {
                    if ui.button("Resume it").clicked() {
                        match botn::load_save(&offer, &session.journal_path) {
                            Ok(t) => {
                                journal.0 = start_journal(&session.journal_path, &t);
                                table.0 = t;
                            }
                            Err(e) => session.notice = Some(format!("Cannot resume: {e}")),
                        }
                        session.resume_offer = None;
                    }
                    if ui.button("Start a new game").clicked() {
                        journal.0 = start_journal(&session.journal_path, &table.0);
                        session.resume_offer = None;
                    }
                });
            });
        return Ok(());
    }

    if let Some(seat) = session.handover_to {
        if handover_screen(&ctx, table.0.game.seat_names()[seat.0 as usize]) {
            session.handover_to = None;
        }
        return Ok(());
    }

    if session.show_help {
        egui::Window::new("Controls").anchor(egui::Align2::CENTER_TOP, [0.0, 40.0]).collapsible(false).show(
            &ctx,
            |ui| {
                ui.label(HELP);
            },
        );
    }
    // A new notice shows at the pointer for a few seconds, then only in the Orders panel.
    if notice_seen.0 != session.notice {
        *notice_seen = (session.notice.clone(), time.elapsed_secs());
    }
    let fresh = time.elapsed_secs() - notice_seen.1 < 4.0;
    if let (Some(n), Some(p), true) = (session.notice.clone(), pointer, fresh) {
        egui::Area::new(egui::Id::new("notice"))
            .order(egui::Order::Tooltip)
            .fixed_pos(p + egui::vec2(16.0, 16.0))
            .show(&ctx, |ui| {
                egui::Frame::popup(ui.style()).fill(egui::Color32::from_rgb(110, 30, 25)).show(ui, |ui| {
                    ui.set_max_width(360.0);
                    ui.label(egui::RichText::new(n).color(egui::Color32::WHITE));
                });
            });
    } else if let (Some(h), Some(p)) = (session.hovered.clone(), pointer) {
        egui::Area::new(egui::Id::new("hover")).order(egui::Order::Tooltip).fixed_pos(p + egui::vec2(16.0, 16.0)).show(
            &ctx,
            |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(h);
                });
            },
        );
    }
    if session.panels_hidden {
        return Ok(());
    }
    let height = windows.iter().next().map(|w| w.height()).unwrap_or(800.0);
    let viewer = session.viewer;
    let my_seat = session.seat();

    // Menu.
    egui::Window::new("Grognard")
        .anchor(egui::Align2::LEFT_TOP, [6.0, 6.0])
        .resizable(false)
        .collapsible(true)
        .title_bar(false)
        .show(&ctx, |ui| {
            ui.horizontal(|ui| {
                ui.menu_button("Game", |ui| {
                    for (label, file) in [("New beginner game", "beginner.ron"), ("New advanced game", "advanced.ron")]
                    {
                        if ui.button(label).clicked() {
                            session.scenario_path = session.scenario_path.with_file_name(file);
                            new_game(&mut table, &mut journal, &mut session, Mode::Enforced, None);
                            ui.close();
                        }
                    }
                    if ui.button("New sandbox game").clicked() {
                        new_game(&mut table, &mut journal, &mut session, Mode::Sandbox, None);
                        ui.close();
                    }
                    if table.0.game.is_over() && table.0.game.grey_cannon.is_none() {
                        // Alternative conditions to win: the same players, roles swapped.
                        let first = table.0.game.vp[Side::French.index()];
                        if ui.button(format!("Return game, roles swapped (grey cannon at {first})")).clicked() {
                            let [f, a] = session.computers;
                            session.set_computers([a, f]);
                            new_game(&mut table, &mut journal, &mut session, Mode::Enforced, Some(first));
                            ui.close();
                        }
                    }
                    ui.separator();
                    ui.label("Computer opponent:");
                    let seats = session.computers.map(|c| c.is_some());
                    let mut choice = seats;
                    let before = choice;
                    ui.radio_value(&mut choice, [false, false], "none (two people, hot-seat)");
                    ui.radio_value(&mut choice, [true, false], "plays Napoléon");
                    ui.radio_value(&mut choice, [false, true], "plays Schwarzenberg");
                    ui.radio_value(&mut choice, [true, true], "plays both (watch)");
                    let mut level = session.computers.iter().flatten().next().copied().unwrap_or(Player::Normal);
                    let level_before = level;
                    ui.horizontal(|ui| {
                        for l in Player::COMPUTER {
                            ui.radio_value(&mut level, l, l.label());
                        }
                    });
                    if choice != before || level != level_before {
                        session.set_computers(choice.map(|on| on.then_some(level)));
                    }
                    ui.separator();
                    ui.label("Save file:");
                    ui.text_edit_singleline(&mut session.save_path);
                    if ui.button("Save").clicked() {
                        let path = std::path::PathBuf::from(&session.save_path);
                        session.notice = Some(match botn::save_of(&table.0).write(&path) {
                            Ok(()) => format!("Saved to {}", path.display()),
                            Err(e) => format!("Could not save {}: {e}", path.display()),
                        });
                        ui.close();
                    }
                    if ui.button("Load").clicked() {
                        let path = std::path::PathBuf::from(&session.save_path);
                        match load_table(&path, 1, Mode::Enforced) {
                            Ok(t) => {
                                journal.0 = start_journal(&session.journal_path, &t);
                                table.0 = t;
                                session.notice = None;
                            }
                            Err(e) => session.notice = Some(format!("Not loaded: {e}")),
                        }
                        ui.close();
                    }
                    if ui.button("Resume from journal").clicked() {
                        match Journal::read(&session.journal_path) {
                            Ok(save) => session.resume_offer = Some(save),
                            Err(e) => session.notice = Some(format!("No journal to resume: {e}")),
                        }
                        ui.close();
                    }
                });
                ui.menu_button("View", |ui| {
                    ui.checkbox(&mut session.hotseat, "Hot-seat (follow the active seat)");
                    for (label, v) in [
                        ("Napoléon's seat", Viewer::Seat(SeatId(0))),
                        ("Schwarzenberg's seat", Viewer::Seat(SeatId(1))),
                        ("Spectator / broadcast", Viewer::Spectator),
                    ] {
                        if ui.radio(session.viewer == v, label).clicked() {
                            session.viewer = v;
                            if v == Viewer::Spectator {
                                session.hotseat = false;
                            }
                        }
                    }
                    ui.separator();
                    ui.checkbox(&mut session.show_help, "Controls (F1)");
                });
                ui.label(
                    egui::RichText::new(if table.0.mode == Mode::Sandbox { "SANDBOX" } else { "rules enforced" })
                        .small(),
                );
            });
        });

    // Prompt and legal actions.
    let game = &table.0.game;
    egui::Window::new("Orders")
        .anchor(egui::Align2::LEFT_TOP, [6.0, 44.0])
        .default_width(290.0)
        .max_height(height * 0.55)
        .resizable(false)
        .show(&ctx, |ui| {
            ui.label(egui::RichText::new(prompt(game)).strong());
            if let Some(n) = &session.notice {
                ui.colored_label(egui::Color32::from_rgb(200, 60, 50), n);
            }
            let active = game.active_seat();
            if active.is_some() && active == my_seat {
                let mut legal = Vec::new();
                game.legal_actions(table.0.mode, &mut legal);
                ui.label(
                    egui::RichText::new(format!("{} legal actions — or drag a marker on the table", legal.len()))
                        .small(),
                );
                egui::ScrollArea::vertical().max_height(height * 0.4).show(ui, |ui| {
                    for a in legal {
                        if ui.button(action_label(game, &a)).clicked() {
                            requests.write(Request::Act { seat: active.expect("checked"), act: Act::Game(a) });
                        }
                    }
                });
            } else if let Some(a) = active {
                ui.label(format!("Waiting for {}", game.seat_names()[a.0 as usize]));
            }
            if table.0.mode == Mode::Sandbox {
                // By hand: every such move is logged and saved like any action.
                ui.separator();
                ui.label(
                    egui::RichText::new("Sandbox — by hand: drag any piece; F flips the army under the pointer")
                        .small(),
                );
                let seat = my_seat.unwrap_or(SeatId(0));
                let by_hand = |s: SandboxAction| Request::Act { seat, act: Act::Game(botn::Action::Sandbox(s)) };
                ui.horizontal(|ui| {
                    if ui.button("Draw a card").clicked() {
                        requests.write(by_hand(SandboxAction::DrawBlind));
                    }
                    if ui.button("Time −1").clicked() && game.time > 0 {
                        requests.write(by_hand(SandboxAction::MoveTime { to: game.time - 1 }));
                    }
                    if ui.button("Time +1").clicked() {
                        requests.write(by_hand(SandboxAction::MoveTime { to: game.time + 1 }));
                    }
                });
            }
            ui.horizontal(|ui| {
                if ui.add_enabled(table.0.can_undo(), egui::Button::new("Undo")).clicked() {
                    requests.write(Request::Undo);
                }
            });
        });

    // Hand, missions and dice tray.
    egui::Window::new("Hand")
        .anchor(egui::Align2::LEFT_BOTTOM, [6.0, -6.0])
        .default_width(290.0)
        .resizable(false)
        .show(&ctx, |ui| {
            match viewer {
                Viewer::Seat(seat) => {
                    let side = crate::games::botn::state::side_of(seat);
                    ui.label(egui::RichText::new(side.name()).strong());
                    let cards: Vec<String> = game.hands[side.index()].iter().map(|c| card_name(game, *c)).collect();
                    ui.label(if cards.is_empty() { "(no cards)".to_string() } else { cards.join(" · ") });
                    let other = side.other();
                    ui.label(
                        egui::RichText::new(format!("{} holds {} cards", other.name(), game.hand_size(other))).small(),
                    );
                }
                Viewer::Spectator => {
                    for side in [Side::French, Side::Allied] {
                        ui.label(format!("{}: {} cards", side.name(), game.hand_size(side)));
                    }
                }
            }
            let missions = game.missions_as_seen(viewer);
            if !missions.is_empty() {
                ui.separator();
                ui.label("Napoléon's missions:");
                for (i, m) in missions.iter().enumerate() {
                    let revealed = i < game.revealed as usize;
                    let text = match m {
                        Some(m) => {
                            let d = &game.sc.missions[*m as usize];
                            format!(
                                "{:?}: {} ({} / {}){}",
                                d.def.district,
                                game.sc.field_name(d.field),
                                d.def.french,
                                d.def.allied,
                                if revealed { " — revealed" } else { "" }
                            )
                        }
                        None => "hidden".to_string(),
                    };
                    ui.label(text);
                }
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("Dice:");
                ui.add(egui::DragValue::new(&mut session.dice_count).range(1..=10).suffix(" d6"));
                if ui.button("Roll (R)").clicked() {
                    let seat = my_seat.unwrap_or(SeatId(0));
                    requests.write(Request::Act { seat, act: Act::RollDice(session.dice_count) });
                }
            });
            if let Some(crate::engine::table::Entry::Dice { values, .. }) =
                table.0.entries.iter().rev().find(|e| matches!(e, crate::engine::table::Entry::Dice { .. }))
            {
                ui.label(format!("Last roll: {}", values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ")));
            }
        });

    // Tracks and log.
    egui::Window::new("Tracks").anchor(egui::Align2::CENTER_TOP, [0.0, 6.0]).title_bar(false).resizable(false).show(
        &ctx,
        |ui| {
            let date = game.current_date().unwrap_or("before 14.10.");
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(format!("Turn {} · {}", game.turn, game.active.name())).strong());
                ui.separator();
                let label = game.time_label();
                ui.label(if label == date || game.time == 0 || game.past_last_date() {
                    format!("Time {label} ({date})")
                } else {
                    format!("Time: after {date}, space {} of {}", game.time, game.sc.time.len() - 1)
                });
                ui.add(egui::ProgressBar::new(game.time as f32 / (game.sc.time.len() - 1) as f32).desired_width(90.0));
                ui.separator();
                ui.label(format!("VP French {} · Allied {}", game.vp[0], game.vp[1]));
                if let Some(grey) = game.grey_cannon {
                    ui.label(format!("· grey cannon {grey}"));
                }
            });
            let fights: Vec<String> = game
                .sc
                .time
                .iter()
                .filter(|t| t.fight)
                .enumerate()
                .map(|(i, t)| {
                    format!("{} {}", t.label, if i < game.fights_done as usize { "fought" } else { "to come" })
                })
                .collect();
            ui.label(
                egui::RichText::new(format!(
                    "{} game · fights: {} · draw pile {} · discards {} · scouts {} · -1 chips {}",
                    if game.sc.variant == botn::data::Variant::Advanced { "Advanced" } else { "Beginner" },
                    fights.join(", "),
                    game.draw_pile.len(),
                    game.discard.len(),
                    game.scout_supply,
                    game.minus_one_supply
                ))
                .small(),
            );
        },
    );
    egui::Window::new("Log")
        .anchor(egui::Align2::RIGHT_BOTTOM, [-6.0, -6.0])
        .default_width(300.0)
        .max_height(height * 0.38)
        .resizable(false)
        .show(&ctx, |ui| {
            egui::ScrollArea::vertical().stick_to_bottom(true).max_height(height * 0.34).show(ui, |ui| {
                for entry in table.0.entries.iter().rev().take(200).collect::<Vec<_>>().into_iter().rev() {
                    ui.horizontal_wrapped(|ui| {
                        ui.spacing_mut().item_spacing.x = 0.0;
                        for span in entry_spans(game, entry, viewer) {
                            match span {
                                Span::Text(t) => {
                                    ui.label(t);
                                }
                                Span::Field(f) => {
                                    if ui.link(game.sc.fields[f as usize].name.clone()).clicked() {
                                        session.focus = Some(crate::engine::geometry::SpaceId(f));
                                    }
                                }
                                Span::Army(a) => {
                                    if ui.link(game.army_name(a).to_string()).clicked() {
                                        let at = game.armies[a as usize]
                                            .at
                                            .or_else(|| game.markers_on_board(a).next().map(|(_, f)| f));
                                        session.focus = at;
                                    }
                                }
                            }
                        }
                    });
                }
            });
        });
    egui::Window::new("Player aids")
        .anchor(egui::Align2::RIGHT_TOP, [-6.0, 6.0])
        .default_width(300.0)
        .default_open(false)
        .show(&ctx, |ui| {
            let aids = &game.sc.aids;
            ui.label(egui::RichText::new("5 actions per turn").strong());
            for a in &aids.actions {
                ui.label(format!("• {a}"));
            }
            ui.separator();
            ui.label(egui::RichText::new("Terrain values (advanced game)").strong());
            egui::Grid::new("terrain-values").striped(true).show(ui, |ui| {
                for h in ["", "Artillery", "Infantry", "Cavalry"] {
                    ui.label(h);
                }
                ui.end_row();
                for r in &aids.terrain_values {
                    ui.label(r.terrain.name());
                    for v in [r.artillery, r.infantry, r.cavalry] {
                        ui.label(format!("{v:+}"));
                    }
                    ui.end_row();
                }
            });
            ui.separator();
            ui.label(egui::RichText::new("Where the data comes from").strong());
            let p = &game.sc.provenance;
            for (what, prov) in [
                ("Board", &p.board),
                ("Adjacency", &p.adjacency),
                ("Armies", &p.armies),
                ("Missions", &p.missions),
                ("Action deck", &p.actions),
                ("Scout cards", &p.scouts),
                ("Time bar", &p.time),
                ("VP bar", &p.victory_points),
            ] {
                ui.label(egui::RichText::new(format!("{what}: {}", prov.label())).small());
            }
        });
    Ok(())
}

/// Hot-seat: covers the whole table so the leaving player's hand is not seen by the next, until
/// the next player says they are ready (returns true then).
pub fn handover_screen(ctx: &egui::Context, to: &str) -> bool {
    let screen = ctx.content_rect();
    let mut ready = false;
    egui::Area::new(egui::Id::new("handover")).order(egui::Order::Foreground).fixed_pos(screen.min).show(ctx, |ui| {
        ui.painter().rect_filled(screen, 0.0, egui::Color32::from_rgb(20, 18, 16));
        ui.scope_builder(egui::UiBuilder::new().max_rect(screen), |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(screen.height() * 0.4);
                ui.heading(
                    egui::RichText::new(format!("Hand the table to {to}")).size(28.0).color(egui::Color32::WHITE),
                );
                ui.add_space(12.0);
                ready = ui.button(egui::RichText::new("I am ready — show my table").size(20.0)).clicked();
            });
        });
    });
    ready
}

fn new_game(
    table: &mut TableRes<Botn>,
    journal: &mut JournalRes,
    session: &mut Session,
    mode: Mode,
    grey_cannon: Option<u8>,
) {
    let seed = clock_seed();
    match botn::new_table(&session.scenario_path, seed, mode) {
        Ok(mut t) => {
            if let Some(french_points) = grey_cannon {
                let set = t.submit(SeatId(0), Act::Game(botn::Action::SetGreyCannon { french_points }));
                if let Err(e) = set {
                    session.notice = Some(format!("Return game: {e}"));
                }
            }
            journal.0 = start_journal(&session.journal_path, &t);
            table.0 = t;
            session.notice = None;
        }
        Err(e) => session.notice = Some(format!("Cannot start: {e}")),
    }
}
