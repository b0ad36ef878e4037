//! The after-action report (`grognard report SAVE --out DIR`): one printable HTML page with a
//! picture of the table at the end of each turn (rendered by this program's screenshot mode, under
//! the software renderer where there is no screen), the log with every roll and modifier turn by
//! turn, the fights, the score over time as a chart and the final result. Everything in it is
//! read as a spectator reads the game (`entry_text`, the standing of the table): a report of a game
//! still in play tells nothing a seat may not see.

use super::TableGame;
use super::replay::{MarkKind, Replay, is_fight};
use crate::engine::save::SaveFile;
use crate::engine::seats::Viewer;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The colours of the seats in the chart (Okabe and Ito's, as the broadcast's).
const CHART_COLOURS: [&str; 4] = ["#0072b2", "#e69f00", "#009e73", "#d55e00"];

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The score over time as an SVG chart: one line per side of the score, in seat order.
pub fn chart(series: &[Vec<f32>], seats: &[&str]) -> String {
    let n = series.len();
    let lines = series.iter().map(Vec::len).max().unwrap_or(0).min(4);
    let top = series.iter().flatten().fold(1.0f32, |m, &v| m.max(v));
    let (w, h, pad) = (900.0, 260.0, 36.0);
    let x = |i: usize| pad + (w - 2.0 * pad) * i as f32 / (n.max(2) - 1) as f32;
    let y = |v: f32| h - pad - (h - 2.0 * pad) * v / top;
    let mut svg = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"score over time\">\
         <rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#fbf8f1\"/>\
         <line x1=\"{pad}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"#999\"/>\
         <text x=\"{pad}\" y=\"20\" font-size=\"13\">{top}</text><text x=\"{pad}\" y=\"{l}\" font-size=\"13\">0</text>\
         <text x=\"{r}\" y=\"{l}\" font-size=\"13\" text-anchor=\"end\">action {last}</text>",
        b = h - pad,
        r = w - pad,
        l = h - 10.0,
        last = n.saturating_sub(1)
    );
    for k in 0..lines {
        let pts: Vec<String> = series
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.get(k).map(|&v| format!("{:.1},{:.1}", x(i), y(v))))
            .collect();
        let colour = CHART_COLOURS[k % CHART_COLOURS.len()];
        let _ = write!(
            svg,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"3\" points=\"{}\"/>",
            pts.join(" ")
        );
        // The legend along the top, clear of the axis labels below.
        let name = seats.get(k).copied().unwrap_or("");
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"20\" font-size=\"14\" fill=\"{colour}\">{}</text>",
            pad + 80.0 + 220.0 * k as f32,
            escape(name)
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Whether a log line is a phase's heading, written between dashes: "— Turn 2: … —".
fn is_heading(line: &str) -> bool {
    line.starts_with("— ") && line.ends_with(" —")
}

/// Renders the table after the first `n` actions of `save` into `png`, with this program's
/// screenshot mode (under Xvfb when there is no screen).
fn picture<A: serde::Serialize + serde::de::DeserializeOwned + Clone>(
    save: &SaveFile<A>,
    n: usize,
    png: &Path,
) -> Result<(), String> {
    let mut part = save.clone();
    part.log.truncate(n);
    let tmp = png.with_extension("save.ron");
    std::fs::write(&tmp, part.to_ron()).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let args = [
        "screenshot".into(),
        tmp.display().to_string(),
        "--out".into(),
        png.display().to_string(),
        "--seat".into(),
        "spectator".into(),
        "--clean".into(),
    ];
    let mut command = if std::env::var_os("DISPLAY").is_some() {
        std::process::Command::new(exe)
    } else {
        let mut c = std::process::Command::new("xvfb-run");
        c.arg("-a").arg(exe);
        c
    };
    let status = command.args(&args).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).status();
    let _ = std::fs::remove_file(&tmp);
    match status {
        Ok(s) if s.success() && png.exists() => Ok(()),
        Ok(s) => Err(format!("the picture {} was not drawn ({s})", png.display())),
        Err(e) => Err(format!("the picture {} was not drawn: {e}", png.display())),
    }
}

/// Writes the report of the save at `save_path` into `out` (created if need be): `report.html`
/// and a picture per turn; the page's path.
pub fn write<G: TableGame>(save_path: &Path, out: &Path, pictures: bool) -> Result<PathBuf, String> {
    let save = SaveFile::<G::Action>::read(save_path).map_err(|e| e.to_string())?;
    let (replay, _) = Replay::<G>::open(save.clone(), save_path)?;
    let whole = replay.end();
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let g = &whole.game;
    let names = g.seat_names();
    let game_name = G::NAME;
    let scenario = g.scenario().name;
    let title = if scenario.starts_with(game_name) { scenario } else { format!("{game_name} — {scenario}") };
    // The turns: from each turn mark to the next, and the last to the end.
    // A set-up counted as turn 0 (Austerlitz) is the time before the first turn.
    let first = Some(&replay.standings[0])
        .filter(|s| s.turn.is_some_and(|(_, n)| n != 0))
        .and_then(|s| s.turn_label())
        .unwrap_or_else(|| "Before the first turn".into());
    let mut bounds: Vec<(String, usize)> = vec![(first, 0)];
    for m in replay.marks.iter().filter(|m| m.kind == MarkKind::Turn) {
        bounds.push((m.label.clone(), m.index));
    }
    let mut html = String::new();
    let _ = write!(
        html,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title><style>\
         body {{ font-family: 'DejaVu Serif', Georgia, serif; max-width: 960px; margin: 2em auto; color: #222; }}\
         h1 {{ font-size: 1.8em; }} h2 {{ border-bottom: 1px solid #aaa; margin-top: 1.6em; }}\
         img {{ width: 100%; border: 1px solid #ccc; }} .roll {{ font-weight: bold; }} table.rolls {{ border-collapse: collapse; font-size: 0.85em; }} table.rolls td, table.rolls th {{ border-bottom: 1px solid #ddd; padding: 0.2em 0.4em; vertical-align: top; text-align: left; }} .fight {{ color: #8a2a0a; }}\
         ol.log {{ font-size: 0.95em; }} li.phase {{ list-style: none; font-style: italic; margin: 0.4em 0; }}\
         .after {{ color: #555; font-size: 0.95em; margin-top: 0.2em; }} .result {{ font-size: 1.3em; padding: 0.6em; background: #f3efe4; }}\
         .chart {{ width: 100%; }} section.turn {{ break-inside: avoid-page; page-break-inside: avoid; }}\
         @media print {{ body {{ margin: 0; max-width: none; }} section.turn {{ break-before: page; }} }}\
         </style></head><body><h1>{t}</h1>",
        t = escape(&title)
    );
    let result = match (g.is_over(), g.winner()) {
        (true, Some(w)) => format!("{} won. {}", names.get(w.0 as usize).copied().unwrap_or("?"), g.status()),
        (true, None) => format!("The game ended. {}", g.status()),
        (false, _) => format!("The game is not over (after {} actions): {}", replay.len, g.status()),
    };
    let _ = write!(html, "<p class=\"result\">{}</p>", escape(&result));
    let _ = write!(
        html,
        "<p>Seed {}, {} actions; the save: <code>{}</code>. Read as a spectator reads the game.</p>",
        save.seed,
        replay.len,
        escape(&save_path.display().to_string())
    );
    // The score over time.
    let series: Vec<Vec<f32>> =
        replay.standings.iter().map(|s| s.score.as_ref().map(|x| x.points()).unwrap_or_default()).collect();
    if series.iter().any(|s| !s.is_empty()) {
        html.push_str("<h2>The score</h2>");
        html.push_str(&chart(&series, names));
    }
    chances(&mut html, &replay, whole)?;
    // The fights.
    let fights: Vec<_> = replay.marks.iter().filter(|m| m.kind == MarkKind::Fight).collect();
    if !fights.is_empty() {
        let _ = write!(html, "<h2>The fights ({})</h2><ul>", fights.len());
        for m in &fights {
            let _ = write!(html, "<li class=\"fight\">action {}: {}</li>", m.index, escape(&m.label));
        }
        html.push_str("</ul>");
    }
    // Every roll, from the roll entries: who, what for and by which rule, the dice, each
    // modifier with its reason, the table and the place read, the result.
    let rolls: Vec<(usize, &crate::engine::roll::Roll)> = (0..replay.len)
        .flat_map(|i| whole.entries_of(i).iter().filter_map(move |e| e.roll().map(|r| (i, r))))
        .collect();
    if !rolls.is_empty() {
        let _ = write!(
            html,
            "<h2>Every roll ({})</h2><table class=\"rolls\"><tr><th>action</th><th>who</th><th>for</th><th>dice</th>\
             <th>modifiers</th><th>table</th><th>result</th></tr>",
            rolls.len()
        );
        for (i, r) in &rolls {
            let dice: Vec<String> = r.dice.iter().map(|d| d.to_string()).collect();
            let mods: Vec<String> = r
                .modifiers
                .iter()
                .map(|(v, why)| if *v == 0 { escape(why) } else { format!("{v:+} {}", escape(why)) })
                .collect();
            let table = r.table.as_ref().map_or(String::new(), |t| {
                let place: Vec<&str> = [t.column.as_deref(), t.row.as_deref()].into_iter().flatten().collect();
                escape(&format!(
                    "{}{}",
                    t.name,
                    if place.is_empty() { String::new() } else { format!(": {}", place.join(", ")) }
                ))
            });
            let _ = write!(
                html,
                "<tr><td>{}</td><td>{}</td><td>{} <small>({})</small></td><td>{}</td><td>{}</td><td>{table}</td><td class=\"roll\">{}</td></tr>",
                i + 1,
                escape(names.get(r.seat.0 as usize).copied().unwrap_or("?")),
                escape(&r.what),
                escape(&r.rule),
                dice.join(" "),
                mods.join("; "),
                escape(&r.result)
            );
        }
        html.push_str("</table>");
    }
    // Turn by turn: the picture at its end and its log.
    for (k, (label, start)) in bounds.iter().enumerate() {
        let end = bounds.get(k + 1).map_or(replay.len, |b| b.1);
        if end == *start && k > 0 {
            continue;
        }
        let _ = write!(html, "<section class=\"turn\"><h2>{}</h2>", escape(label));
        if pictures {
            let png = out.join(format!("turn-{k:02}.png"));
            picture(&save, end, &png)?;
            let _ = write!(
                html,
                "<img src=\"{}\" alt=\"the table after action {end}\">",
                png.file_name().expect("a name").to_string_lossy()
            );
        }
        // The status as the table stands in the picture: often the next turn's first line.
        let _ = write!(
            html,
            "<p class=\"after\">The table after action {end}: {}</p><ol class=\"log\">",
            escape(&replay.statuses[end])
        );
        for i in *start..end {
            let rolled: Vec<String> = whole
                .entries_of(i)
                .iter()
                .filter(|e| e.roll().is_some())
                .map(|e| whole.game.entry_text(e, Viewer::Spectator))
                .collect();
            let lines: Vec<String> =
                whole.entries_of(i).iter().map(|e| whole.game.entry_text(e, Viewer::Spectator)).collect();
            let seat = names.get(whole.records[i].seat.0 as usize).copied().unwrap_or("?");
            // A phase's heading ("— Turn 2: Schwarzenberg (Allied) —") is a line of its own, not
            // part of the action that happened to begin it; at a section's end the next one is it.
            let (headings, lines): (Vec<String>, Vec<String>) = lines.into_iter().partition(|l| is_heading(l));
            let body: Vec<String> = lines
                .iter()
                .map(|l| {
                    let class = if rolled.contains(l) {
                        "roll"
                    } else if is_fight(l) {
                        "fight"
                    } else {
                        ""
                    };
                    format!("<span class=\"{class}\">{}</span>", escape(l))
                })
                .collect();
            let _ = write!(html, "<li value=\"{}\"><small>{}</small> {}</li>", i + 1, escape(seat), body.join("; "));
            if i + 1 < end {
                for h in &headings {
                    let _ =
                        write!(html, "<li class=\"phase\">{}</li>", escape(h.trim_matches(|c| c == '—' || c == ' ')));
                }
            }
        }
        html.push_str("</ol></section>");
    }
    html.push_str("</body></html>\n");
    let page = out.join("report.html");
    std::fs::write(&page, html).map_err(|e| format!("{}: {e}", page.display()))?;
    Ok(page)
}

/// The chance to win over the game (the evaluation after each action, from the spectator's view)
/// as a chart, and the three turning points: the actions where it swung most, with what `strong`
/// would have done instead (only once the game is over: the search reads the seat's view).
fn chances<G: TableGame>(
    html: &mut String,
    replay: &Replay<G>,
    whole: &crate::engine::table::Table<G>,
) -> Result<(), String> {
    let mut rng = crate::engine::rng::TableRng::from_seed(0x5e1f);
    let mut t = replay.cut(0)?;
    let Some(first) = t.game.chance(Viewer::Spectator, &mut rng) else { return Ok(()) };
    let mut chance = vec![first];
    for r in &whole.records {
        t.submit(r.seat, r.act.clone()).map_err(|e| e.to_string())?;
        chance.push(t.game.chance(Viewer::Spectator, &mut rng).unwrap_or(0.5));
    }
    let names = whole.game.seat_names();
    html.push_str("<h2>The chance to win</h2>");
    let _ = write!(
        html,
        "<p>After each action, as a spectator sees the table: the game's evaluation of the position, \
         averaged over deals of what is hidden ({} first).</p>",
        escape(names[0])
    );
    let series: Vec<Vec<f32>> = chance.iter().map(|&p| vec![100.0 * p, 100.0 * (1.0 - p)]).collect();
    html.push_str(&chart(&series, names));
    let mut swings: Vec<(usize, f32)> = (0..whole.records.len()).map(|i| (i, chance[i + 1] - chance[i])).collect();
    swings.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
    swings.truncate(3);
    swings.sort_by_key(|s| s.0);
    html.push_str("<h2>The turning points</h2><ol class=\"turning\">");
    for (i, _) in swings {
        let r = &whole.records[i];
        let before = replay.cut(i)?;
        let text: Vec<String> =
            whole.entries_of(i).iter().map(|e| whole.game.entry_text(e, Viewer::Spectator)).collect();
        let seat = names.get(r.seat.0 as usize).copied().unwrap_or("?");
        let _ = write!(
            html,
            "<li>action {}: <small>{}</small> {} — {}'s chance {:.0}% → {:.0}%",
            i + 1,
            escape(seat),
            escape(&text.join("; ")),
            escape(names[0]),
            100.0 * chance[i],
            100.0 * chance[i + 1]
        );
        if replay.over
            && let crate::engine::table::Act::Game(played) = &r.act
        {
            let found = before.game.hint(r.seat, &mut rng);
            if let Some(best) = found.first().filter(|b| &b.action != played) {
                let _ = write!(
                    html,
                    "<br><span class=\"after\">strong would have played {} ({:.0}% to win for {})</span>",
                    escape(&before.game.action_label(&best.action)),
                    100.0 * best.win,
                    escape(seat)
                );
            } else if !found.is_empty() {
                html.push_str("<br><span class=\"after\">strong would have played the same</span>");
            }
        }
        html.push_str("</li>");
    }
    html.push_str("</ol>");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_draws_a_line_per_seat() {
        let svg = chart(&[vec![0.0, 0.0], vec![1.0, 0.0], vec![3.0, 2.0]], &["French", "Allied"]);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("French") && svg.contains("Allied"));
    }
}
