//! Fuzzing the files players trade: the shipped scenarios (every part) and saves of both games,
//! mutated — bytes flipped, numbers made extreme, words swapped for others of the same file, lines
//! dropped or doubled, text cut short, deep nesting — and fed to `validate`, to the load of play
//! and to a few games on every scenario `validate` accepts. Nothing may panic; every refusal
//! names a file and a line; a scenario `validate` accepts can be played to its end.
//! `GROGNARD_FUZZ=N` runs N cases (the CI run does 20,000).
use grognard::engine::rng::TableRng;
use grognard::registry;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

fn cases() -> u64 {
    std::env::var("GROGNARD_FUZZ").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000)
}

/// Another series of mutations (`GROGNARD_FUZZ_SEED`), for longer runs.
fn seed() -> u64 {
    std::env::var("GROGNARD_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// Every number in `text` with its byte range.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) {
            let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
                j += 1;
            }
            out.push((start, j));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Every identifier (an enum variant, a field name) with its byte range.
fn words(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut in_string = false;
    while i < b.len() {
        if b[i] == b'"' {
            in_string = !in_string;
            i += 1;
        } else if !in_string && b[i].is_ascii_alphabetic() && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            out.push((i, j));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

const EXTREMES: [&str; 10] =
    ["0", "-1", "1", "255", "256", "-129", "65535", "65536", "4294967296", "99999999999999999999"];

/// One mutation of `text`, chosen by `rng`; None when the kind does not apply.
fn mutate(text: &str, rng: &mut TableRng) -> Option<String> {
    let mut s = text.to_string();
    match rng.below(8) {
        0 => {
            // A byte flipped (kept valid UTF-8 by flipping only ASCII).
            let ascii: Vec<usize> = s.bytes().enumerate().filter(|(_, c)| c.is_ascii()).map(|(i, _)| i).collect();
            let i = ascii[rng.below(ascii.len())];
            let mut bytes = s.into_bytes();
            bytes[i] = b"0123456789(),:[]\"-_ azAZ"[rng.below(24)];
            String::from_utf8(bytes).ok()
        }
        1 | 2 => {
            let n = numbers(&s);
            if n.is_empty() {
                return None;
            }
            let (a, b) = n[rng.below(n.len())];
            s.replace_range(a..b, EXTREMES[rng.below(EXTREMES.len())]);
            Some(s)
        }
        3 => {
            let w = words(&s);
            if w.len() < 2 {
                return None;
            }
            let (a, b) = w[rng.below(w.len())];
            let (c, d) = w[rng.below(w.len())];
            let other = s[c..d].to_string();
            s.replace_range(a..b, &other);
            Some(s)
        }
        4 => {
            let lines: Vec<&str> = s.lines().collect();
            let i = rng.below(lines.len());
            let mut out: Vec<&str> = lines.clone();
            if rng.below(2) == 0 {
                out.remove(i);
            } else {
                out.insert(i, lines[i]);
            }
            Some(out.join("\n"))
        }
        5 => {
            let cut = rng.below(s.len());
            let cut = (0..=cut).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
            s.truncate(cut);
            Some(s)
        }
        6 => {
            // Deep nesting where a value starts.
            let n = numbers(&s);
            if n.is_empty() {
                return None;
            }
            let (a, b) = n[rng.below(n.len())];
            let depth = 10 + rng.below(5000);
            let v = format!("{}{}{}", "[".repeat(depth), &s[a..b], "]".repeat(depth));
            s.replace_range(a..b, &v);
            Some(s)
        }
        _ => {
            // A string made long or empty.
            let quotes: Vec<usize> = s.match_indices('"').map(|(i, _)| i).collect();
            if quotes.len() < 2 {
                return None;
            }
            let k = rng.below(quotes.len() / 2) * 2;
            let (a, b) = (quotes[k] + 1, quotes[k + 1]);
            let long = if rng.below(2) == 0 { String::new() } else { "é".repeat(100_000) };
            s.replace_range(a..b, &long);
            Some(s)
        }
    }
}

/// A copy of a game's scenario folder, with saves of a few games in it.
fn workspace(game: &str) -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().unwrap();
    let src = grognard::engine::scenario::scenarios_root().join(game);
    let mut files = Vec::new();
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        let to = dir.path().join(p.file_name().unwrap());
        std::fs::copy(&p, &to).unwrap();
        files.push(to);
    }
    files.sort();
    let entry = registry::by_id(game).unwrap();
    let main = files.iter().find(|p| std::fs::read_to_string(p).unwrap().contains("game:")).unwrap().clone();
    let saves = dir.path().join("saves");
    let options =
        grognard::engine::entry::SimOptions { games: 2, seed: 7, save_dir: Some(saves.clone()), ..Default::default() };
    assert_eq!(entry.simulate(&main, &options), 0);
    for e in std::fs::read_dir(&saves).unwrap() {
        let p = e.unwrap().path();
        let to = dir.path().join(format!("save-{}", p.file_name().unwrap().to_string_lossy()));
        std::fs::rename(&p, &to).unwrap();
        files.push(to);
    }
    (dir, files)
}

#[derive(Default)]
struct Findings {
    cases: u64,
    accepted: u64,
    refused: u64,
    played: u64,
    problems: Vec<String>,
}

/// One case: the mutated file in place of the original, checked as a person would meet it.
fn check_case(game: &str, file: &Path, seed: u64, found: &mut Findings) {
    let entry = registry::by_id(game).unwrap();
    let text = match grognard::engine::scenario::read_text(file) {
        Ok(t) => t,
        Err(e) => {
            found.refused += 1;
            assert!(e.line >= 1);
            return;
        }
    };
    match entry.validate(file, &text) {
        Err(e) => {
            found.refused += 1;
            // Every refusal names its file and a line: `path:line:column: message`.
            let located = is_located(&e);
            if !located {
                found.problems.push(format!("{}: refusal without file:line: {}", file.display(), excerpt(&e)));
            }
            if e.len() > 2_000 {
                found.problems.push(format!("{}: refusal of {} bytes", file.display(), e.len()));
            }
        }
        Ok(_) => {
            found.accepted += 1;
            // What validate accepts, play accepts: a few games on each scenario it concerns end
            // (a save was replayed by validate itself).
            let scenarios = if grognard::engine::save::looks_like_save(&text) {
                Vec::new()
            } else if text.contains("game:") {
                vec![file.to_path_buf()]
            } else {
                grognard::engine::entry::scenarios_beside(file, game).unwrap_or_default()
            };
            for s in scenarios {
                if let Err(e) = entry.playtest(&s, seed, 2) {
                    found.problems.push(format!("{}: accepted but {}", file.display(), excerpt(&e)));
                    return;
                }
            }
            found.played += 1;
        }
    }
}

/// Whether a refusal reads `path:line:column: message` (the path may itself hold colons).
fn is_located(e: &str) -> bool {
    e.match_indices(": ").any(|(i, _)| {
        let mut back = e[..i].rsplitn(3, ':');
        let (col, line) = (back.next(), back.next());
        col.is_some_and(|c| c.parse::<usize>().is_ok())
            && line.is_some_and(|l| l.parse::<usize>().is_ok_and(|l| l >= 1))
            && back.next().is_some_and(|p| !p.is_empty())
    })
}

fn excerpt(s: &str) -> String {
    grognard::engine::scenario::excerpt(s)
}

fn fuzz_game(game: &str, cases: u64, seed: u64) -> Findings {
    let (_dir, files) = workspace(game);
    let originals: Vec<String> = files.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    let mut rng = TableRng::from_seed(seed);
    let mut found = Findings::default();
    let panics = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = panics.clone();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        sink.lock().unwrap().push(format!("{info}"));
    }));
    for case in 0..cases {
        let k = rng.below(files.len());
        let Some(mutated) = mutate(&originals[k], &mut rng) else { continue };
        std::fs::write(&files[k], &mutated).unwrap();
        found.cases += 1;
        let before = panics.lock().unwrap().len();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut local = Findings::default();
            check_case(game, &files[k], case, &mut local);
            local
        }));
        match outcome {
            Ok(local) => {
                if !local.problems.is_empty() {
                    let keep_dir = std::env::temp_dir().join(format!("fuzz-{game}-{case}"));
                    let _ = std::fs::create_dir_all(&keep_dir);
                    for f in &files {
                        let _ = std::fs::copy(f, keep_dir.join(f.file_name().unwrap()));
                    }
                }
                found.accepted += local.accepted;
                found.refused += local.refused;
                found.played += local.played;
                found.problems.extend(local.problems);
            }
            Err(_) => {
                let message = panics.lock().unwrap().get(before).cloned().unwrap_or_default();
                let keep = format!("case {case}, {}: panic: {}", files[k].display(), message);
                // The whole folder with the mutated file, to reproduce with `grognard validate`.
                let keep_dir = std::env::temp_dir().join(format!("fuzz-{game}-{case}"));
                let _ = std::fs::create_dir_all(&keep_dir);
                for f in &files {
                    let _ = std::fs::copy(f, keep_dir.join(f.file_name().unwrap()));
                }
                found.problems.push(keep);
            }
        }
        std::fs::write(&files[k], &originals[k]).unwrap();
    }
    std::panic::set_hook(previous);
    found
}

fn report(game: &str, f: &Findings) {
    let line = format!(
        "{game}: {} mutated files: {} refused with their place, {} accepted and played to the end, {} problems",
        f.cases,
        f.refused,
        f.played,
        f.problems.len()
    );
    // Straight to stderr, past the test harness's capture, so CI's log shows the case count.
    use std::io::Write;
    let mut err = std::io::stderr();
    let _ = writeln!(err, "{line}");
    for p in f.problems.iter().take(20) {
        let _ = writeln!(err, "  {p}");
    }
}

#[test]
fn battle_of_the_nations_files_mutated_never_panic_and_validate_means_playable() {
    let f = fuzz_game("battle-of-the-nations", cases() / 2, 1 + 2 * seed());
    report("Battle of the Nations", &f);
    assert!(f.problems.is_empty(), "{} problems, first: {}", f.problems.len(), f.problems[0]);
}

#[test]
fn victory_and_glory_files_mutated_never_panic_and_validate_means_playable() {
    let f = fuzz_game("victory-and-glory", cases() / 2, 2 + 2 * seed());
    report("Victory & Glory", &f);
    assert!(f.problems.is_empty(), "{} problems, first: {}", f.problems.len(), f.problems[0]);
}

#[test]
fn leipzig_files_mutated_never_panic_and_validate_means_playable() {
    // Every accepted case plays random games on the eight scenarios a part file concerns: far
    // costlier than the card games, so a two-hundredth of their cases.
    let f = fuzz_game("leipzig-1813", cases() / 200, 3 + 2 * seed());
    report("Leipzig 1813", &f);
    assert!(f.problems.is_empty(), "{} problems, first: {}", f.problems.len(), f.problems[0]);
}

#[test]
fn austerlitz_files_mutated_never_panic_and_validate_means_playable() {
    // Each accepted case plays random games of a whole battle: a four-hundredth of the card
    // games' cases.
    let f = fuzz_game("austerlitz", cases() / 400, 4 + 2 * seed());
    report("Austerlitz", &f);
    assert!(f.problems.is_empty(), "{} problems, first: {}", f.problems.len(), f.problems[0]);
}
