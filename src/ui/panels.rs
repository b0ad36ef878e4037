//! The panels every game shares: the resume offer, the hand-over screen, notices, the menu, the
//! orders (prompt, legal actions, dice, undo) and the log. Everything they change on the table
//! goes through `Request`s, new games and loads included.

use crate::engine::journal::Journal;
use crate::engine::plugin::Request;
use crate::engine::rng::clock_seed;
use crate::engine::rules::Mode;
use crate::engine::seats::{SeatId, Viewer};
use crate::engine::seen::Seen;
use crate::engine::table::Act;
use crate::table::lesson::Coach;
use crate::table::session::Session;
use crate::table::session::{JoinForm, ResumeOffer};
use crate::table::{Span, TableGame};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// Seconds an order sent waits for its answer before the list takes another.
const ORDER_PATIENCE: f32 = 20.0;

/// The longest press that still counts as a click, in seconds.
const CLICK_SECONDS: f64 = 3.0;

#[allow(clippy::too_many_arguments)]
pub fn panels<G: TableGame>(
    mut contexts: EguiContexts,
    mut session: ResMut<Session>,
    mut offer: ResMut<ResumeOffer<G>>,
    mut requests: MessageWriter<Request<G>>,
    windows: Query<&Window>,
    time: Res<Time>,
    mut notice_seen: Local<(Option<String>, f32)>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
    mut remote: Option<ResMut<crate::table::remote::Remote>>,
    settling: Res<crate::engine::plugin::Settling>,
    dragging: Option<Res<crate::table::glide::Dragging>>,
    coached: Option<Res<crate::table::lesson::Coached<G>>>,
    thinking: Option<Res<crate::table::computer::Thinking>>,
    mut hints: Option<ResMut<crate::table::hint::Hints>>,
    mut state: PanelState<G>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    if std::env::var_os("GROGNARD_DEBUG_FRAMES").is_some() {
        info!("egui repaint causes: {:?}; events {:?}", ctx.repaint_causes(), ctx.input(|i| i.events.clone()));
    }
    if (ctx.zoom_factor() - state.prefs.ui_scale).abs() > 1e-3 {
        ctx.set_zoom_factor(state.prefs.ui_scale);
    }
    // A click is a press let go within the limit: egui's 0.8 s is shorter than one frame of a
    // software renderer (llvmpipe draws a large table in about a second), where the press and the
    // release land in frames of their own and a button would ignore its click.
    if ctx.options(|o| o.input_options.max_click_duration) < CLICK_SECONDS {
        ctx.options_mut(|o| o.input_options.max_click_duration = CLICK_SECONDS);
    }
    crate::table::layout::add_serif(&ctx);
    let pointer = ctx.input(|i| i.pointer.hover_pos());
    let memory = &mut *state.memory;
    memory.frame += 1;
    if ctx.input(|i| i.pointer.any_pressed()) {
        memory.press_frame = memory.frame;
    }
    // An order unanswered for long (a host gone quiet) no longer holds the list.
    if memory.order_sent.as_ref().is_some_and(|(_, at)| ctx.input(|i| i.time) as f32 - at > ORDER_PATIENCE) {
        memory.order_sent = None;
    }

    let PanelState { join, seen, prefs, pointing, ask, window, memory, notice } = &mut state;
    let notice: &mut crate::table::session::Notice = notice;
    let seen: &Seen<G> = seen;
    let Some(game) = seen.game() else { return Ok(()) };
    if let Some(save) = offer.0.clone() {
        resume_window(&ctx, &save, seen.moves, &mut session, notice, &mut offer, &mut requests);
        return Ok(());
    }
    if let Some(seat) = session.handover_to {
        let name = game.seat_names().get(seat.0 as usize).copied().unwrap_or("the next player");
        if handover_screen(&ctx, name) {
            session.handover_to = None;
        }
        return Ok(());
    }
    if prefs.show_help {
        egui::Window::new("Controls").anchor(egui::Align2::CENTER_TOP, [0.0, 40.0]).collapsible(false).show(
            &ctx,
            |ui| {
                ui.label(G::HELP);
            },
        );
    }
    if window.is_some() {
        // The broadcast window's overlay is all it shows (`table::broadcast::overlay`).
        return Ok(());
    }
    if let Some(r) = remote.as_deref_mut() {
        hosted_table(&ctx, game, r);
    }
    if session.panels_hidden {
        // The clean picture: no panel, no tooltip, only the state of the game in one line.
        egui::Area::new(egui::Id::new("status")).anchor(egui::Align2::CENTER_TOP, [0.0, 8.0]).show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(egui::RichText::new(game.status()).strong());
            });
        });
        return Ok(());
    }
    // A new notice shows at the pointer for a few seconds, then only in the Orders panel.
    if notice_seen.0 != notice.text {
        *notice_seen = (notice.text.clone(), time.elapsed_secs());
    }
    let fresh = time.elapsed_secs() - notice_seen.1 < 4.0;
    if fresh && notice.text.is_some() {
        // Frames until the notice has had its time, so that it goes away on its own.
        redraw.write(bevy::window::RequestRedraw);
    }
    if let (Some(n), Some(p), true) = (notice.text.clone(), pointer, fresh) {
        let fill = if notice.news { egui::Color32::from_rgb(30, 80, 45) } else { egui::Color32::from_rgb(110, 30, 25) };
        hover_tip_filled(&ctx, egui::Id::new("notice").with(&n), p, Some(fill), |ui| {
            ui.label(egui::RichText::new(n).color(egui::Color32::WHITE));
        });
    } else if let (Some(h), true) = (pointing.hovered.clone(), ctx.input(|i| i.modifiers.alt)) {
        // Alt: a large preview of what is under the pointer, the accessible way to read it.
        egui::Area::new(egui::Id::new("preview"))
            .order(egui::Order::Tooltip)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(&ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(egui::RichText::new(h).size(26.0));
                });
            });
    } else if let (Some(h), Some(p), false) =
        (pointing.hovered.clone(), pointer, dragging.is_some_and(|d| d.entity.is_some()))
    {
        // Not while a piece is carried: the tooltip would lie over the lit destinations.
        hover_tip(&ctx, egui::Id::new("hover").with(&h), p, |ui| {
            ui.label(h);
        });
    }
    let height = windows.iter().next().map(|w| w.height()).unwrap_or(800.0);
    let hosted = remote.as_deref().map(|r| r.log.as_slice());
    menu(&ctx, seen, game, &mut session, notice, (join, prefs, ask), &mut offer, &mut requests, hosted);
    let coach = coached.as_ref().and_then(|c| c.0.as_ref());
    // Nothing to order while the dice roll, or before a host's table has started (the window
    // shows its own setting-up until the host's first update).
    let pause = if settling.active {
        Some("The dice are rolling: their result shows once they rest")
    } else if remote.as_deref().is_some_and(|r| r.waiting) {
        Some("The host's table starts once every seat has joined: nothing to order yet")
    } else {
        None
    };
    let hints = hints.as_deref_mut().filter(|_| G::HINTS && hosted.is_none());
    let thinking = thinking.as_deref().and_then(|t| t.0.as_deref());
    orders(
        &ctx,
        seen,
        (prefs, memory),
        &mut session,
        notice,
        &mut requests,
        height,
        hosted.is_some(),
        pause,
        coach,
        hints,
        thinking,
    );
    // A name clicked in the log lights its space (the pointing changes only then, so that what
    // follows it is not woken in every frame).
    if let Some(at) = log(&ctx, seen, memory, height, remote.as_deref().map(|r| r.log.as_slice()), settling.active) {
        pointing.focus = at;
    }
    Ok(())
}

/// The widest a tip at the pointer is drawn before its text wraps.
const TIP_WIDTH: f32 = 360.0;

/// A tip beside the pointer: on the side of the pointer with room for it (left of the pointer near
/// the right edge, above it near the bottom), so that egui never squeezes it into the strip left
/// between the pointer and the window's edge, a word to a line. The id names the text: an area
/// keeps the size it had last frame, and a tip of new text under an old id was laid out in the
/// old text's width ("Marmon / t — / troop / marker").
pub fn hover_tip(ctx: &egui::Context, id: egui::Id, at: egui::Pos2, add: impl FnOnce(&mut egui::Ui)) {
    hover_tip_filled(ctx, id, at, None, add)
}

fn hover_tip_filled(
    ctx: &egui::Context,
    id: egui::Id,
    at: egui::Pos2,
    fill: Option<egui::Color32>,
    add: impl FnOnce(&mut egui::Ui),
) {
    let screen = ctx.content_rect();
    let (left, up) = (at.x + 16.0 + TIP_WIDTH > screen.max.x, at.y + 16.0 + 120.0 > screen.max.y);
    let pivot = match (left, up) {
        (false, false) => egui::Align2::LEFT_TOP,
        (true, false) => egui::Align2::RIGHT_TOP,
        (false, true) => egui::Align2::LEFT_BOTTOM,
        (true, true) => egui::Align2::RIGHT_BOTTOM,
    };
    let offset = egui::vec2(if left { -16.0 } else { 16.0 }, if up { -16.0 } else { 16.0 });
    egui::Area::new(id).order(egui::Order::Tooltip).pivot(pivot).fixed_pos(at + offset).interactable(false).show(
        ctx,
        |ui| {
            let mut frame = egui::Frame::popup(ui.style());
            if let Some(fill) = fill {
                frame = frame.fill(fill);
            }
            frame.show(ui, |ui| {
                // Short text on one line, long text wrapped at the tip's width.
                ui.set_max_width(TIP_WIDTH);
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
                add(ui)
            });
        },
    );
}

/// At a host's table: where this window sits, a plain warning when the host runs on this
/// machine, and the spectators' chat for a spectator.
fn hosted_table<G: TableGame>(ctx: &egui::Context, game: &G, r: &mut crate::table::remote::Remote) {
    egui::Window::new("Host's table")
        .anchor(egui::Align2::CENTER_TOP, [0.0, 58.0])
        .resizable(false)
        .collapsible(true)
        .default_width(420.0)
        .show(ctx, |ui| {
            ui.label(r.status(game.seat_names()));
            if r.host_is_here && r.seat.is_some() {
                ui.colored_label(
                    egui::Color32::from_rgb(220, 160, 60),
                    "The host runs on this machine: whoever sits here could read what is hidden \
                     from its memory. For a competitive game, play through a neutral host.",
                );
            }
            if let Some(p) = &r.problem {
                ui.colored_label(egui::Color32::from_rgb(200, 60, 50), p);
            }
            if let Some(f) = &r.finished {
                ui.label(format!("Finished: {}", f.display()));
            }
            if let Some(clock) = r.clock_words(game.seat_names()) {
                ui.label(clock);
            }
            if r.may_claim() {
                ui.horizontal(|ui| {
                    if ui
                        .button("Claim the game")
                        .on_hover_text("The other seat is out of time: the game is yours")
                        .clicked()
                    {
                        r.tell_host(crate::net::proto::ToHost::Claim);
                    }
                    if ui
                        .button("Play their turn")
                        .on_hover_text(
                            "The host plays for the seat out of time (the computer, on its view) until it is your turn",
                        )
                        .clicked()
                    {
                        r.tell_host(crate::net::proto::ToHost::Skip);
                    }
                });
            }
            if let Some(inv) = &r.invitations {
                invitations(ui, game.seat_names(), r.seat, inv);
            }
            if r.seat.is_some() && !r.questions.is_empty() {
                standing_orders(ui, r);
            }
            if r.seat.is_none() {
                ui.separator();
                ui.label(egui::RichText::new("Spectators' chat (the players do not see it)").small());
                egui::ScrollArea::vertical().max_height(90.0).stick_to_bottom(true).show(ui, |ui| {
                    for (from, text) in r.chat.iter().rev().take(50).collect::<Vec<_>>().into_iter().rev() {
                        ui.label(format!("{from}: {text}"));
                    }
                });
                let edit = ui.text_edit_singleline(&mut r.chat_line);
                if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    r.say();
                }
            }
        });
}

/// A seat's standing orders: for each question the other seat's play may ask it, the answer
/// the host gives while it is away (none: the question waits for it).
fn standing_orders(ui: &mut egui::Ui, r: &mut crate::table::remote::Remote) {
    ui.separator();
    egui::CollapsingHeader::new(format!("Standing orders ({} left)", r.orders.len())).show(ui, |ui| {
        ui.label(
            egui::RichText::new("Answers the host gives for you while you are away; your secret, changed at any time.")
                .small(),
        );
        let draft = r.orders_draft.get_or_insert_with(|| r.orders.clone());
        for q in r.questions {
            let now = draft.get(q.kind).cloned().unwrap_or_default();
            let mut choice = now.clone();
            let shown = |a: &str| if a.is_empty() { "ask me".to_string() } else { a.to_string() };
            ui.horizontal(|ui| {
                ui.label(q.words).on_hover_text(q.kind);
                egui::ComboBox::from_id_salt(q.kind).selected_text(shown(&choice)).show_ui(ui, |ui| {
                    ui.selectable_value(&mut choice, String::new(), "ask me");
                    for (a, words) in q.answers {
                        // An answer that takes a number is offered at 300 (retreat from 3:1).
                        let a = a.replace(":N", ":300");
                        ui.selectable_value(&mut choice, a.clone(), a).on_hover_text(*words);
                    }
                    for level in ["beginner", "normal", "strong"] {
                        let a = format!("computer:{level}");
                        ui.selectable_value(&mut choice, a.clone(), format!("the computer ({level})"));
                    }
                });
            });
            if choice != now {
                if choice.is_empty() {
                    draft.remove(q.kind);
                } else {
                    draft.insert(q.kind.to_string(), choice);
                }
            }
        }
        let changed = r.orders_draft.as_ref() != Some(&r.orders);
        if ui.add_enabled(changed, egui::Button::new("Leave these orders")).clicked() {
            let orders = r.orders_draft.take().unwrap_or_default();
            r.tell_host(crate::net::proto::ToHost::Orders { orders });
        }
    });
}

/// A private table's codes, for the player who opened it to hand out: each other seat's, and the
/// spectators', each with a button that copies it.
fn invitations(ui: &mut egui::Ui, seats: &[&str], mine: Option<u8>, inv: &crate::net::proto::Invitations) {
    ui.separator();
    ui.label("A private table: hand each player their seat's code (--code CODE, or Game → Across machines).");
    let row = |ui: &mut egui::Ui, who: &str, code: &str| {
        ui.horizontal(|ui| {
            ui.label(format!("{who}:"));
            ui.monospace(code);
            if ui.small_button("Copy").clicked() {
                ui.ctx().copy_text(code.to_string());
            }
        });
    };
    for (k, code) in inv.seats.iter().enumerate() {
        if Some(k as u8) != mine {
            row(ui, seats.get(k).copied().unwrap_or("?"), code);
        }
    }
    row(ui, "Spectators", &inv.watch);
}

fn resume_window<G: TableGame>(
    ctx: &egui::Context,
    save: &crate::engine::save::SaveFile<G::Action>,
    moves: usize,
    session: &mut Session,
    notice: &mut crate::table::session::Notice,
    offer: &mut ResumeOffer<G>,
    requests: &mut MessageWriter<Request<G>>,
) {
    egui::Window::new("Resume?")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(format!(
                "An unfinished game was found in the journal:\n{} — {} actions.",
                save.scenario.name,
                save.log.len()
            ));
            ui.horizontal(|ui| {
                if ui.button("Resume it").clicked() {
                    match G::load_save(save, &session.journal_path) {
                        Ok(t) => {
                            requests.write(Request::Replace(Box::new(t)));
                        }
                        Err(e) => notice.refuse(format!("Cannot resume: {e}")),
                    }
                    offer.0 = None;
                    session.resume_offer = false;
                }
                // The table this window was opened on: a new game, or the save named to it.
                let other = if moves == 0 { "Start a new game" } else { "Open the save instead" };
                if ui.button(other).clicked() {
                    // The table as it is, with a fresh journal.
                    requests.write(Request::Restart);
                    offer.0 = None;
                    session.resume_offer = false;
                }
            });
        });
}

#[allow(clippy::too_many_arguments)]
fn menu<G: TableGame>(
    ctx: &egui::Context,
    seen: &Seen<G>,
    game: &G,
    session: &mut Session,
    notice: &mut crate::table::session::Notice,
    (join, prefs, ask): (
        &mut JoinForm,
        &mut crate::table::session::Preferences,
        &mut crate::table::broadcast::BroadcastAsk,
    ),
    offer: &mut ResumeOffer<G>,
    requests: &mut MessageWriter<Request<G>>,
    hosted: Option<&[String]>,
) {
    egui::Window::new("Grognard")
        .anchor(egui::Align2::LEFT_TOP, [6.0, 6.0])
        .resizable(false)
        .collapsible(true)
        .title_bar(false)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                // Open while its fields are typed in: every item that acts closes it itself.
                let stays = egui::containers::menu::MenuConfig::new()
                    .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
                egui::containers::menu::MenuButton::new("Game").config(stays).ui(ui, |ui| {
                    if let Some(log) = hosted {
                        // The host keeps this table: a seat saves what it may see, nothing more.
                        ui.label("Save what this seat sees:");
                        ui.text_edit_singleline(&mut session.save_path);
                        if ui.button("Save my view").clicked() {
                            // Written by the system that holds the table (`engine::plugin`).
                            let path = std::path::PathBuf::from(&session.save_path);
                            requests.write(Request::SaveView { path, viewer: session.viewer, log: log.to_vec() });
                            ui.close();
                        }
                        return;
                    }
                    if ui.button("Learn to play: a guided first turn").clicked() {
                        match crate::table::lesson::start_lesson(game, session, notice) {
                            Ok(t) => {
                                requests.write(Request::Replace(Box::new(t)));
                            }
                            Err(e) => notice.refuse(format!("Cannot start the lesson: {e}")),
                        }
                        ui.close();
                    }
                    ui.separator();
                    // The level chosen here, else the level the computer plays at now, else `normal`.
                    let level = session
                        .new_level
                        .or_else(|| session.computers.iter().flatten().next().copied())
                        .unwrap_or_else(G::normal_level);
                    for new in G::new_games(game) {
                        if ui.button(&new.label).clicked() {
                            match G::start(game, new.choice, clock_seed(), &session.computers, level) {
                                Ok(started) => {
                                    session.lesson = None;
                                    if let Some(c) = started.computers {
                                        session.set_computers(c);
                                    }
                                    session.last_active = started.table.game.active_seat();
                                    notice.clear();
                                    requests.write(Request::Replace(Box::new(started.table)));
                                }
                                Err(e) => notice.refuse(format!("Cannot start: {e}")),
                            }
                            ui.close();
                        }
                    }
                    // Every game's sandbox, from the kit: the same scenario, the rules silent.
                    if ui
                        .button("New sandbox game (pieces by hand, rules silent)")
                        .on_hover_text("Move, turn over and take off any piece; the rules come back when you ask")
                        .clicked()
                    {
                        let file = game.scenario().path;
                        match G::new_table(&file, clock_seed(), crate::engine::rules::Mode::Sandbox) {
                            Ok(t) => {
                                session.lesson = None;
                                session.last_active = t.game.active_seat();
                                notice.clear();
                                requests.write(Request::Replace(Box::new(t)));
                            }
                            Err(e) => notice.refuse(format!("Cannot start: {e}")),
                        }
                        ui.close();
                    }
                    if G::FREE_COMPUTER_SEATS {
                        computer_seats::<G>(ui, game, session);
                    } else if G::LEVELS.len() > 1 {
                        // The computer's seat comes with the new game: its level is chosen here.
                        let mut chosen = level;
                        ui.label("The computer in a new game plays at:");
                        ui.horizontal_wrapped(|ui| {
                            for (i, l) in G::LEVELS.iter().enumerate() {
                                ui.radio_value(&mut chosen, i, *l);
                            }
                        });
                        session.new_level = Some(chosen);
                    }
                    ui.separator();
                    ui.label("Save file:");
                    ui.text_edit_singleline(&mut session.save_path);
                    if ui.button("Save").clicked() {
                        // Written by the system that holds the table (`engine::plugin`).
                        requests.write(Request::Save(std::path::PathBuf::from(&session.save_path)));
                        ui.close();
                    }
                    if ui.button("Load").clicked() {
                        let path = std::path::PathBuf::from(&session.save_path);
                        match G::load(&path, clock_seed(), Mode::Enforced) {
                            Ok(t) => {
                                notice.clear();
                                session.lesson = None;
                                requests.write(Request::Replace(Box::new(t)));
                            }
                            Err(e) => notice.refuse(format!("Not loaded: {e}")),
                        }
                        ui.close();
                    }
                    if ui.button("Resume from journal").clicked() {
                        match Journal::read(&session.journal_path) {
                            Ok(save) => {
                                offer.0 = Some(save);
                                session.resume_offer = true;
                            }
                            Err(e) => notice.refuse(format!("No journal to resume: {e}")),
                        }
                        ui.close();
                    }
                    ui.label(egui::RichText::new("A save opens with: grognard play <file>").small());
                    ui.separator();
                    across_machines(ui, game, notice, join);
                });
                ui.menu_button("View", |ui| {
                    let mut viewers = if hosted.is_some() { Vec::new() } else { viewers(game) };
                    if session.spectator_only {
                        viewers.retain(|(_, v)| *v == Viewer::Spectator);
                    }
                    if hosted.is_none() && !session.spectator_only {
                        ui.checkbox(&mut session.hotseat, "Hot-seat (follow the active seat)");
                    }
                    for (label, v) in viewers {
                        if ui.radio(session.viewer == v, label).clicked() {
                            session.viewer = v;
                            if v == Viewer::Spectator {
                                session.hotseat = false;
                            }
                        }
                    }
                    ui.separator();
                    ui.add(egui::Slider::new(&mut prefs.ui_scale, 0.6..=2.5).step_by(0.05).text("panel size"));
                    ui.checkbox(&mut prefs.show_help, "Controls (F1)");
                    ui.checkbox(&mut session.hand_in_clean_picture, "My hand in the clean picture (H)")
                        .on_hover_text("off: the clean picture shows the table as a spectator sees it, safe to broadcast");
                    ui.checkbox(&mut prefs.sound, "Sound (dice, cards, pieces)");
                    ui.horizontal(|ui| {
                        ui.label("Dice:");
                        ui.radio_value(&mut prefs.quick_dice, false, "thrown")
                            .on_hover_text("every roll the rules make tumbles in the tray; its result shows once the dice rest");
                        ui.radio_value(&mut prefs.quick_dice, true, "quick")
                            .on_hover_text("the result at once, no throw: for long sessions");
                    });
                    if hosted.is_none() {
                        ui.separator();
                        ui.label("For streaming: the spectator's table, behind");
                        ui.add(egui::Slider::new(&mut ask.delay.actions, 0..=20).text("actions"));
                        if ui
                            .button("Broadcast window")
                            .on_hover_text("A second window for the broadcasting software: what a spectator sees, no panels, a director camera and an overlay")
                            .clicked()
                        {
                            ask.asked = true;
                            ui.close();
                        }
                    }
                });
                ui.label(
                    egui::RichText::new(if seen.mode == Mode::Sandbox { "SANDBOX" } else { "rules enforced" }).small(),
                );
            });
        });
}

/// The panels' resources besides the table and the session: the Across-machines form and what
/// the eyes see (the seat's legal orders).
#[derive(bevy::ecs::system::SystemParam)]
pub struct PanelState<'w, G: TableGame> {
    join: ResMut<'w, JoinForm>,
    seen: Res<'w, crate::engine::seen::Seen<G>>,
    prefs: ResMut<'w, crate::table::session::Preferences>,
    pointing: ResMut<'w, crate::table::session::Pointing>,
    /// Present in the broadcast window, which shows its overlay alone.
    window: Option<Res<'w, crate::table::broadcast::BroadcastWindow>>,
    ask: ResMut<'w, crate::table::broadcast::BroadcastAsk>,
    memory: ResMut<'w, crate::table::session::PanelMemory>,
    notice: ResMut<'w, crate::table::session::Notice>,
}

/// Game → Across machines: join a host's table (or watch it) in a new window, host this
/// scenario here and sit at it, and the tables this machine holds seats at, with whose turn it is.
fn across_machines<G: TableGame>(
    ui: &mut egui::Ui,
    game: &G,
    notice: &mut crate::table::session::Notice,
    join_form: &mut JoinForm,
) {
    use crate::table::remote;
    ui.label("Across machines — a table's address:");
    ui.text_edit_singleline(&mut join_form.url);
    let names = game.seat_names();
    ui.horizontal_wrapped(|ui| {
        for (k, name) in names.iter().enumerate() {
            ui.radio_value(&mut join_form.seat, Some(k as u8), *name);
        }
        ui.radio_value(&mut join_form.seat, None, "watch");
    });
    ui.horizontal(|ui| {
        ui.label("Invitation code:");
        ui.add(egui::TextEdit::singleline(&mut join_form.code).desired_width(200.0))
            .on_hover_text("A private table's code, as its opener handed it to you (empty: open a new private table)");
    });
    // A table this window opens: its clock, public or private, and a word when it is your turn.
    ui.horizontal(|ui| {
        ui.label("A new table's clock:");
        for (label, clock) in
            [("none", ""), ("live 30 min", "live:30+10"), ("a day a move", "days:1+3"), ("3 days a move", "days:3+7")]
        {
            ui.radio_value(&mut join_form.clock, clock.to_string(), label).on_hover_text(if clock.is_empty() {
                "no clock"
            } else {
                clock
            });
        }
        ui.checkbox(&mut join_form.public, "public")
            .on_hover_text("Listed for anyone to join; a private table gives you a code per seat to hand out");
    });
    ui.horizontal(|ui| {
        ui.label("Tell me when it is my turn:");
        ui.add(egui::TextEdit::singleline(&mut join_form.notify).desired_width(220.0).hint_text("webhook address"))
            .on_hover_text("A Discord or Slack incoming webhook, or any address taking JSON: the host posts to it when the decision passes to you");
    });
    let here = game.scenario().path.display().to_string();
    let (clock, public) = (join_form.clock.clone(), join_form.public);
    // The seat by its name in the table's own game (another game's table opens on its scenario).
    let join_on = |scenario: &str, url: &str, seat: Option<&str>| -> Vec<String> {
        let mut args = vec!["play".to_string(), scenario.to_string(), "--join".to_string(), url.to_string()];
        match seat {
            Some(name) => {
                args.extend(["--seat".to_string(), name.to_string()]);
                if !clock.is_empty() {
                    args.extend(["--clock".to_string(), clock.clone()]);
                }
                if public {
                    args.push("--public".to_string());
                }
            }
            None => args.push("--spectate".to_string()),
        }
        args
    };
    let join = |url: &str, seat: Option<u8>| join_on(&here, url, seat.and_then(|k| names.get(k as usize).copied()));
    let notify = Some(join_form.notify.trim().to_string()).filter(|n| !n.is_empty());
    if ui.button("Join that table (a new window)").clicked() {
        let code = Some(join_form.code.trim().to_string()).filter(|c| !c.is_empty());
        match remote::spawn_with(&join(&join_form.url, join_form.seat), code, notify.clone()) {
            Ok(()) => notice.inform(format!("Joining {}", join_form.url)),
            Err(e) => notice.refuse(format!("Could not open a window: {e}")),
        }
        ui.close();
    }
    if ui.button("Host this scenario here (port 7813) and join").clicked() {
        let data = crate::engine::journal::default_journal_path().with_file_name("host");
        // Every shipped scenario when this one is shipped (the lobby offers them all), else
        // this file alone.
        let root = crate::engine::scenario::scenarios_root().canonicalize().ok();
        let shipped = std::path::Path::new(&here).canonicalize().ok().zip(root).is_some_and(|(f, r)| f.starts_with(r));
        let mut host = vec!["host".to_string(), "--data".to_string(), data.display().to_string()];
        if !shipped {
            host.push(here.clone());
        }
        let name = join_form.url.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or("evening").to_string();
        let url = format!("ws://127.0.0.1:7813/{name}");
        match remote::spawn(&host).and_then(|_| {
            // The host takes a moment to listen; the window keeps trying until it answers.
            remote::spawn(&join(&url, join_form.seat))
        }) {
            Ok(()) => notice.inform(format!(
                "Hosting on this machine: the other player joins ws://<this machine's address>:7813/{name} \
                 with the code the table's window shows (start the host with --address 0.0.0.0 to be \
                 reached from other machines)"
            )),
            Err(e) => notice.refuse(format!("Could not start the host: {e}")),
        }
        ui.close();
    }
    // The host's public tables, on any of its scenarios: a new window on that scenario joins.
    let base = join_form.url.rsplit_once('/').map_or(join_form.url.clone(), |(b, _)| b.to_string());
    ui.horizontal(|ui| {
        ui.label(format!("Public tables at {base}:"));
        if ui.small_button("Refresh").clicked() {
            remote::refresh_public_tables(base.clone(), join_form.public_tables.clone());
        }
    });
    let listed = join_form.public_tables.lock().expect("not poisoned").clone();
    match listed {
        Err(e) => {
            ui.label(format!("no answer: {e}"));
        }
        Ok(list) => {
            for t in list {
                public_table(ui, notice, &t, &format!("{base}/{}", t.name), &join_on);
            }
        }
    }
    ui.horizontal(|ui| {
        ui.label("Your tables:");
        if ui.small_button("Refresh").clicked() {
            remote::refresh_my_tables(join_form.my_tables.clone());
        }
    });
    let mine = join_form.my_tables.lock().expect("not poisoned").clone();
    for t in mine {
        ui.horizontal(|ui| {
            let seat: &str =
                if t.seat_name.is_empty() { names.get(t.seat as usize).copied().unwrap_or("?") } else { &t.seat_name };
            let on = if t.scenario.is_empty() { String::new() } else { format!(" {}", t.scenario) };
            ui.label(format!("{} ({seat}){on}: {}", t.url, t.state));
            let file = crate::net::host::scenario_file(&t.scenario).map_or(here.clone(), |p| p.display().to_string());
            if ui.small_button("Open").clicked()
                && let Err(e) = remote::spawn(&join_on(&file, &t.url, Some(seat)))
            {
                notice.refuse(format!("Could not open a window: {e}"));
            }
        });
    }
}

/// The command line of a window that joins: from the scenario file, the table's address and the
/// seat (none: watch).
type JoinArgs<'a> = &'a dyn Fn(&str, &str, Option<&str>) -> Vec<String>;

/// One of a host's public tables in the lobby: its name, scenario, clock and who is to play, a
/// button for each open seat and one to watch.
fn public_table(
    ui: &mut egui::Ui,
    notice: &mut crate::table::session::Notice,
    t: &crate::net::proto::TableInfo,
    url: &str,
    join_on: JoinArgs,
) {
    let Some(file) = crate::net::host::scenario_file(&t.scenario).filter(|f| f.exists()) else {
        ui.label(format!("{}: {} (a scenario this program lacks)", t.name, t.scenario));
        return;
    };
    let name = |k: u8| t.seat_name(k);
    let clock = t.clock.as_ref().map_or("no clock".to_string(), |c| c.rule.words());
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("{} — {} · {clock} · {}", t.name, t.title, t.state()));
        for &k in &t.open_seats {
            if ui.small_button(format!("Take {}", name(k))).clicked()
                && let Err(e) = crate::table::remote::spawn(&join_on(&file.display().to_string(), url, Some(&name(k))))
            {
                notice.refuse(format!("Could not open a window: {e}"));
            }
        }
        if ui.small_button("Watch").clicked()
            && let Err(e) = crate::table::remote::spawn(&join_on(&file.display().to_string(), url, None))
        {
            notice.refuse(format!("Could not open a window: {e}"));
        }
    });
}

/// Which seats the computer plays, and how well.
fn computer_seats<G: TableGame>(ui: &mut egui::Ui, game: &G, session: &mut Session) {
    ui.separator();
    ui.label("The computer plays:");
    let mut seats: Vec<bool> = session.computers.iter().map(Option::is_some).collect();
    let before = seats.clone();
    for (i, name) in game.seat_names().iter().enumerate() {
        if let Some(on) = seats.get_mut(i) {
            ui.checkbox(on, *name);
        }
    }
    // `normal` where there are levels to choose from.
    let mut level = session.computers.iter().flatten().next().copied().unwrap_or((G::LEVELS.len().max(1) - 1).min(1));
    let level_before = level;
    ui.horizontal(|ui| {
        for (i, l) in G::LEVELS.iter().enumerate() {
            ui.radio_value(&mut level, i, *l);
        }
    });
    if seats != before || level != level_before {
        session.set_computers(seats.into_iter().map(|on| on.then_some(level)).collect());
    }
}

#[allow(clippy::too_many_arguments)]
fn orders<G: TableGame>(
    ctx: &egui::Context,
    seen: &Seen<G>,
    (prefs, memory): (&mut crate::table::session::Preferences, &mut crate::table::session::PanelMemory),
    session: &mut Session,
    notice: &mut crate::table::session::Notice,
    requests: &mut MessageWriter<Request<G>>,
    height: f32,
    hosted: bool,
    pause: Option<&str>,
    coach: Option<&Coach<G::Action>>,
    hints: Option<&mut crate::table::hint::Hints>,
    thinking: Option<&str>,
) {
    let Some(game) = seen.game() else { return };
    let seen_legal = &seen.legal;
    let my_seat = session.seat();
    let pick = match coach {
        Some(Coach::Step(l)) => l.pick.as_ref(),
        _ => None,
    };
    let now = ctx.input(|i| i.time) as f32;
    egui::Window::new("Orders")
        .anchor(egui::Align2::LEFT_TOP, [6.0, 44.0])
        .default_width(320.0)
        .max_height(height * 0.55)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(game.prompt()).strong());
            if let Some(n) = &notice.text {
                ui.colored_label(notice.colour(), n);
            }
            let hinting = hints.as_ref().is_some_and(|h| h.on) && session.lesson.is_none();
            // Offered to a person's seat only (not while the computer plays every seat).
            if let Some(h) = hints
                && session.lesson.is_none()
                && my_seat.is_some_and(|s| session.computer_at(s).is_none())
            {
                ui.checkbox(&mut h.on, "Hint: what strong would do here")
                    .on_hover_text("The search's three best orders from what your seat sees, with their chance to win");
            }
            if let Some(word) = coach
                && (session.lesson.is_some() || hinting)
            {
                lesson_box(ui, word, session);
            }
            let active = game.active_seat();
            if let Some(why) = pause {
                // The table is the one before the roll until the dice rest, or not yet the host's:
                // nothing to order yet.
                ui.label(egui::RichText::new(why).italics());
            } else if let (Some(seat), Some(elsewhere)) = (active, game.orders_elsewhere())
                && active == my_seat
                && session.computer_at(seat).is_none()
            {
                ui.label(elsewhere);
            } else if let Some(seat) = active
                && active == my_seat
                && session.computer_at(seat).is_none()
            {
                // The seat's legal orders, listed once when the table changed (`Seen`).
                let mut legal = seen_legal.to_vec();
                let all = legal.len();
                legal.retain(|a| game.in_orders(a));
                if legal.len() < all {
                    ui.label(
                        egui::RichText::new(format!(
                            "{} more on the map (drag a counter, click a lit hex)",
                            all - legal.len()
                        ))
                        .small(),
                    );
                }
                let keys = if G::DIGIT_ORDERS { " — keys 1-9 take the numbered ones" } else { "" };
                ui.label(egui::RichText::new(format!("{} legal actions{keys}", legal.len())).small());
                let labels: Vec<String> = legal.iter().map(|a| game.action_label(a)).collect();
                memory.orders_drawn({
                    use std::hash::{Hash, Hasher};
                    let mut h = std::hash::DefaultHasher::new();
                    (game.prompt(), &labels).hash(&mut h);
                    h.finish()
                });
                if let Some((what, _)) = &memory.order_sent {
                    ui.label(egui::RichText::new(format!("Sent: {what} — waiting for the table")).italics());
                }
                let sending = memory.order_sent.is_some();
                if G::DIGIT_ORDERS {
                    let keys = crate::table::session::order_keys(&memory.order_keys, &labels);
                    if keys != memory.order_keys {
                        memory.order_keys = keys;
                    }
                }
                egui::ScrollArea::vertical().max_height(height * 0.4).show(ui, |ui| {
                    for (a, label) in legal.into_iter().zip(labels) {
                        let key = memory.order_keys.iter().find(|(l, _)| *l == label).map(|(_, k)| *k);
                        let label = match key {
                            Some(k) if G::DIGIT_ORDERS => format!("{k}. {label}"),
                            _ => label,
                        };
                        // The lesson's suggestion is framed in its gold.
                        let mut button = egui::Button::new(&label).wrap();
                        if pick == Some(&a) {
                            button = button.stroke(egui::Stroke::new(2.0, LESSON_GOLD));
                        }
                        // While an order is on its way the list takes no other.
                        let taken = ui.add_enabled(!sending, button).clicked()
                            && memory.take_order_click(&label, now).unwrap_or_else(|why| {
                                notice.refuse(why);
                                false
                            });
                        if taken {
                            requests.write(Request::Act { seat, act: Act::Game(a) });
                        }
                    }
                });
            } else if let Some(a) = active {
                let who = game.seat_names().get(a.0 as usize).copied().unwrap_or("?");
                if let Some(thinking) = thinking.filter(|_| session.computer_at(a).is_some()) {
                    // The computer decides on a thread of its own: the window says so.
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(egui::RichText::new(thinking).strong());
                    });
                } else {
                    let computer = if session.computer_at(a).is_some() { " (the computer)" } else { "" };
                    ui.label(format!("Waiting for {who}{computer}"));
                }
            }
            if hosted {
                // The host rolls every die, at the commit points; nothing is undone there.
                return;
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("Dice:");
                ui.add(egui::DragValue::new(&mut prefs.dice_count).range(1..=10).suffix(" d6"));
                if ui.button("Roll (R)").clicked() {
                    let seat = my_seat.unwrap_or(SeatId(0));
                    requests.write(Request::Act { seat, act: Act::RollDice(prefs.dice_count) });
                }
                if let Some(roll) = seen.last_roll() {
                    let values: Vec<String> = roll.dice.iter().map(|v| v.to_string()).collect();
                    ui.label(format!("last: {}", values.join(" "))).on_hover_text(roll.line(game.seat_names()));
                }
                if ui.add_enabled(seen.can_undo, egui::Button::new("Undo")).clicked() {
                    requests.write(Request::Undo);
                }
            });
        });
}

/// The colour of the lesson: its box, the order it suggests and its rings on the table.
const LESSON_GOLD: egui::Color32 = egui::Color32::from_rgb(230, 180, 40);

/// Learn to play, at the top of the Orders panel: what to do now, why, and the rule's section.
fn lesson_box<A>(ui: &mut egui::Ui, word: &Coach<A>, session: &mut Session) {
    // The same box holds the hint (`table::hint`) when no lesson runs.
    let lesson = session.lesson.is_some();
    egui::Frame::group(ui.style()).stroke(egui::Stroke::new(1.5, LESSON_GOLD)).show(ui, |ui| {
        ui.label(egui::RichText::new(if lesson { "Learn to play" } else { "Hint" }).strong().color(LESSON_GOLD));
        match word {
            Coach::Step(l) => {
                ui.label(egui::RichText::new(&l.now).strong());
                ui.label(&l.why);
                let section = if lesson { format!("Rule: {}", l.section) } else { l.section.clone() };
                ui.label(egui::RichText::new(section).italics());
                if !l.at.is_empty() {
                    ui.label(egui::RichText::new("Gold rings on the table mark the places.").small());
                }
                if l.pick.is_some() {
                    ui.label(egui::RichText::new("The order framed in gold below is one good choice.").small());
                }
            }
            Coach::Waiting(w) => {
                ui.label(w);
            }
            Coach::Done => {
                ui.label(
                    "Your first turn is done: play on against the computer, or start a game of your own from the Game menu.",
                );
            }
        }
        if !lesson {
            return;
        }
        let close = if matches!(word, Coach::Done) { "Close" } else { "Leave the lesson" };
        if ui.small_button(close).clicked() {
            session.lesson = None;
        }
    });
}

fn log<G: TableGame>(
    ctx: &egui::Context,
    seen: &Seen<G>,
    memory: &mut crate::table::session::PanelMemory,
    height: f32,
    hosted: Option<&[String]>,
    rolling: bool,
) -> Option<Option<crate::engine::geometry::SpaceId>> {
    // The space of a name clicked in the log, if one was.
    let mut clicked = None;
    egui::Window::new("Log")
        .anchor(egui::Align2::RIGHT_BOTTOM, [-6.0, -6.0])
        .default_width(320.0)
        .max_height(height * 0.38)
        .resizable(false)
        .show(ctx, |ui| {
            let length = hosted.map_or(seen.log.len(), <[String]>::len);
            let grew = length != memory.log_seen;
            memory.log_seen = length;
            egui::ScrollArea::vertical().stick_to_bottom(true).max_height(height * 0.34).show(ui, |ui| {
                // At a host's table: the log in this seat's words, as the host sent it.
                for line in hosted.unwrap_or(&[]).iter().rev().take(200).collect::<Vec<_>>().into_iter().rev() {
                    ui.label(line);
                }
                // While dice tumble the table (and its log) is the one before the roll. The
                // lines were worded once, when they came (`engine::seen`).
                let local = if hosted.is_some() { &[][..] } else { &seen.log[..] };
                for line in &local[local.len().saturating_sub(200)..] {
                    ui.horizontal_wrapped(|ui| {
                        ui.spacing_mut().item_spacing.x = 0.0;
                        for span in &line.spans {
                            match span {
                                Span::Text(t) => {
                                    ui.label(t);
                                }
                                Span::Link(name, at) => {
                                    if ui.link(name).clicked() {
                                        clicked = Some(*at);
                                    }
                                }
                            }
                        }
                    });
                }
                if rolling {
                    ui.label(egui::RichText::new("the dice are rolling…").italics());
                }
                // The newest line in view whenever the log grew.
                if grew {
                    ui.scroll_to_cursor(Some(egui::Align::BOTTOM));
                }
            });
        });
    clicked
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

/// The seat names of a game with the spectator after them, for the View menu.
pub fn viewers<G: crate::engine::rules::Game>(game: &G) -> Vec<(String, Viewer)> {
    let mut out: Vec<(String, Viewer)> = game
        .seat_names()
        .iter()
        .enumerate()
        .map(|(i, n)| (format!("{n}'s seat"), Viewer::Seat(SeatId(i as u8))))
        .collect();
    out.push(("Spectator / broadcast".to_string(), Viewer::Spectator));
    out
}
