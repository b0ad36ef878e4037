//! The replay view (`grognard play SAVE --replay`): a save or a finished game on a timeline. A
//! slider and buttons step through the actions, or jump to a turn, a fight or a reveal; the
//! table, the log and the broadcast follow. It is seen from the spectator's seat (nothing hidden
//! until it was revealed in play) or, for a finished game, from any seat. The table at each point
//! is the save's log cut there and replayed, so it is the table as it stood.

use super::TableGame;
use super::session::Session;
use crate::engine::plugin::{Outcome, Request, TableRes, TableVersion};
use crate::engine::save::SaveFile;
use crate::engine::seats::Viewer;
use crate::engine::standing::Standing;
use crate::engine::table::{Record, Table};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use std::path::Path;

/// What a point of the timeline is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// A new turn (or round) begins.
    Turn,
    /// A fight, a battle or an attack.
    Fight,
    /// Something hidden is shown.
    Reveal,
}

/// A point of the timeline worth jumping to: the number of actions before it, and its words.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub index: usize,
    pub kind: MarkKind,
    pub label: String,
}

/// The timeline of a save.
#[derive(Resource)]
pub struct Replay<G: TableGame> {
    /// The table as the game began, as it ended, and the save's log.
    start: Table<G>,
    end: Table<G>,
    log: Vec<Record<G::Action>>,
    /// The point shown, in actions from the start, and the last point.
    pub at: usize,
    pub len: usize,
    pub marks: Vec<Mark>,
    /// The whole game is over: every seat's view may be shown.
    pub over: bool,
    /// The turn and the score after each number of actions (0 to `len`), and the status line
    /// that words them (for the report's reader).
    pub standings: Vec<Standing>,
    pub statuses: Vec<String>,
    shown: usize,
}

/// Whether a line of the log tells of a fight, and of something revealed.
pub fn is_fight(line: &str) -> bool {
    let l = line.to_lowercase();
    // A phase beginning ("French Combat Phase", "Allied Retreat before combat") is no fight.
    if l.contains("phase") || l.ends_with("retreat before combat") {
        return false;
    }
    ["fight", "combat", "battle", "attack", "charge", "melee", "fired"].iter().any(|w| l.contains(w))
}

pub fn is_reveal(line: &str) -> bool {
    let l = line.to_lowercase();
    l.contains("reveal") || l.contains("exposed") || l.contains("turned face up")
}

/// The points of a game worth jumping to: each new turn, each fight, each reveal (read off the
/// log in a spectator's words and the standing after each action).
pub fn marks_of<G: TableGame>(table: &Table<G>, standings: &[Standing]) -> Vec<Mark> {
    let mut out = Vec::new();
    let turn_of = |i: usize| standings.get(i).and_then(|s| s.turn);
    let mut turn = turn_of(0);
    for i in 0..table.records.len() {
        let lines: Vec<String> =
            table.entries_of(i).iter().map(|e| table.game.entry_text(e, Viewer::Spectator)).collect();
        if let Some(line) = lines.iter().find(|l| is_fight(l)) {
            out.push(Mark { index: i + 1, kind: MarkKind::Fight, label: line.clone() });
        }
        if let Some(line) = lines.iter().find(|l| is_reveal(l)) {
            out.push(Mark { index: i + 1, kind: MarkKind::Reveal, label: line.clone() });
        }
        let now = turn_of(i + 1);
        if now.is_some() && now != turn {
            turn = now;
            let label = standings[i + 1].turn_label().unwrap_or_default();
            out.push(Mark { index: i + 1, kind: MarkKind::Turn, label });
        }
    }
    out
}

impl<G: TableGame> Replay<G> {
    /// The timeline of the save at `file`, and the table at its start.
    pub fn open(save: SaveFile<G::Action>, file: &Path) -> Result<(Replay<G>, Table<G>), String> {
        let mut empty = save.clone();
        empty.log.clear();
        let start = G::load_save(&empty, file)?;
        // The standing after each action, for the turns: one pass over the log.
        let mut whole = start.clone();
        let mut standings = vec![whole.game.standing()];
        let mut statuses = vec![whole.game.status()];
        for (i, r) in save.log.iter().enumerate() {
            whole.submit(r.seat, r.act.clone()).map_err(|e| format!("{}: action {}: {e}", file.display(), i + 1))?;
            standings.push(whole.game.standing());
            statuses.push(whole.game.status());
        }
        let marks = marks_of(&whole, &standings);
        let over = whole.game.is_over();
        let replay = Replay {
            len: save.log.len(),
            log: save.log,
            start: start.clone(),
            end: whole,
            at: 0,
            marks,
            over,
            standings,
            statuses,
            shown: 0,
        };
        Ok((replay, start))
    }

    /// The table after the whole save.
    pub fn end(&self) -> &Table<G> {
        &self.end
    }

    /// The table after the first `n` actions of the save.
    pub fn cut(&self, n: usize) -> Result<Table<G>, String> {
        let mut t = self.start.clone();
        for (i, r) in self.log.iter().take(n).enumerate() {
            t.submit(r.seat, r.act.clone()).map_err(|e| format!("action {}: {e}", i + 1))?;
        }
        Ok(t)
    }

    /// The next (or previous) mark of a kind from the point shown.
    pub fn next(&self, kind: Option<MarkKind>, forward: bool) -> Option<usize> {
        let fits = |m: &&Mark| kind.is_none_or(|k| m.kind == k);
        if forward {
            self.marks.iter().filter(fits).map(|m| m.index).find(|&i| i > self.at)
        } else {
            self.marks.iter().filter(fits).map(|m| m.index).rev().find(|&i| i < self.at)
        }
    }
}

/// Puts the table at the timeline's point when it moves.
pub fn follow<G: TableGame>(
    replay: Option<ResMut<Replay<G>>>,
    mut table: ResMut<TableRes<G>>,
    mut version: ResMut<TableVersion>,
    mut notice: ResMut<crate::table::session::Notice>,
    memory: Option<ResMut<super::session::PanelMemory>>,
) {
    let Some(mut replay) = replay else { return };
    if replay.at == replay.shown {
        return;
    }
    match replay.cut(replay.at) {
        Ok(t) => {
            table.0 = t;
            version.0 += 1;
            replay.shown = replay.at;
            // The log follows its newest line.
            if let Some(mut m) = memory {
                m.log_seen = 0;
            }
        }
        Err(e) => {
            notice.refuse(e);
            replay.at = replay.shown;
        }
    }
}

/// A replay's table follows the timeline: what is asked of it is refused with the reason.
pub fn refuse<G: TableGame>(mut requests: MessageReader<Request<G>>, mut outcomes: MessageWriter<Outcome>) {
    for _ in requests.read().filter(|r| !r.keeps_table()) {
        outcomes.write(Outcome {
            accepted: false,
            message: "a replay: the table follows the timeline (open the save with play to go on with it)".into(),
        });
    }
}

/// The timeline: a slider over the actions, steps, and jumps to turns, fights and reveals.
pub fn timeline<G: TableGame>(
    mut contexts: EguiContexts,
    replay: Option<ResMut<Replay<G>>>,
    session: Res<Session>,
) -> Result {
    let Some(mut replay) = replay else { return Ok(()) };
    if session.panels_hidden {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let width = ctx.content_rect().width() - 40.0;
    egui::Window::new("Replay")
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -8.0])
        .collapsible(false)
        .resizable(false)
        .title_bar(false)
        .show(&ctx, |ui| {
            ui.set_width(width.clamp(600.0, 1600.0));
            ui.horizontal(|ui| {
                let len = replay.len;
                ui.label(egui::RichText::new("Replay").strong());
                if ui.button("⏮").on_hover_text("the start").clicked() {
                    replay.at = 0;
                }
                if ui.button("◀").on_hover_text("one action back").clicked() {
                    replay.at = replay.at.saturating_sub(1);
                }
                if ui.button("▶").on_hover_text("one action on").clicked() {
                    replay.at = (replay.at + 1).min(len);
                }
                if ui.button("⏭").on_hover_text("the end").clicked() {
                    replay.at = len;
                }
                ui.spacing_mut().slider_width = (ui.available_width() - 620.0).max(160.0);
                ui.add(egui::Slider::new(&mut replay.at, 0..=len).text(format!("of {len} actions")));
                for (kind, name) in [(MarkKind::Turn, "turn"), (MarkKind::Fight, "fight"), (MarkKind::Reveal, "reveal")]
                {
                    let back = replay.next(Some(kind), false);
                    let on = replay.next(Some(kind), true);
                    if ui.add_enabled(back.is_some(), egui::Button::new(format!("◀ {name}"))).clicked() {
                        replay.at = back.expect("enabled");
                    }
                    if ui.add_enabled(on.is_some(), egui::Button::new(format!("{name} ▶"))).clicked() {
                        replay.at = on.expect("enabled");
                    }
                }
            });
            // The marks as a strip to jump along: where the game turned.
            egui::ScrollArea::horizontal().show(ui, |ui| {
                ui.horizontal(|ui| {
                    let marks = replay.marks.clone();
                    for m in marks.iter().filter(|m| m.kind == MarkKind::Turn) {
                        if ui.selectable_label(replay.at == m.index, &m.label).clicked() {
                            replay.at = m.index;
                        }
                    }
                });
            });
            let here = replay.marks.iter().filter(|m| m.index == replay.at && m.kind != MarkKind::Turn);
            for m in here {
                ui.label(egui::RichText::new(&m.label).italics());
            }
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fights_and_reveals_are_told_from_their_words() {
        assert!(is_fight("combat: 12 against 4 = 300%, die 5: Dd2"));
        assert!(is_fight("Fight of 16.10.: 2 armies in contact with the enemy"));
        assert!(is_reveal("revealed: Blücher's corps"));
        assert!(!is_fight("Soult moves from Dresden to Meissen (3 MP)"));
        assert!(!is_fight("French Combat Phase") && !is_fight("Allied Retreat before combat"));
        assert!(is_fight("attack declared on 2213 from 2114 by French 2-5 infantry division, unsupplied"));
        assert!(!is_reveal("the Allies draw a card"));
    }
}
