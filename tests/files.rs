//! Files you can trust: a save finds its scenario by content, never by the path written in it;
//! only regular files of bounded size are read; a scenario's parts stay in its folder; errors quote
//! a bounded excerpt; saves and journals are written privately and never through a planted link.
mod common;
use common::*;
use grognard::engine::journal::Journal;
use grognard::engine::save::{MAX_LOG, SaveFile};
use grognard::engine::scenario::{MAX_FILE_BYTES, MAX_QUOTE, read_text};
use grognard::games::botn::{self, Action, Scenario};
use std::path::{Path, PathBuf};

fn a_save(seed: u64) -> (grognard::engine::table::Table<grognard::games::botn::Botn>, SaveFile<Action>) {
    let mut t = new_table(seed);
    play_random(&mut t, 40, seed);
    let save = botn::save_of(&t);
    (t, save)
}

#[test]
fn a_save_never_opens_the_path_written_in_it() {
    let (t, mut save) = a_save(61);
    // A device, a file outside the game, a folder that does not exist: the save still loads from
    // the scenario folder the program knows, by the scenario's content hash.
    for path in ["/dev/zero", "/etc/passwd", "/nowhere/at/all/beginner.ron", "../../../../etc/hostname"] {
        save.scenario.path = PathBuf::from(path);
        let dir = tempfile::tempdir().unwrap();
        let loaded = botn::load_save(&save, &dir.path().join("moved.ron")).expect("found by its hash");
        assert_eq!(loaded.digest(), t.digest(), "{path}");
    }
    // Unknown data is refused with the scenario's name, never the content of a file.
    save.scenario.hash = "0000000000000000".into();
    let err = botn::load_save(&save, Path::new("x.ron")).unwrap_err().to_string();
    assert!(err.contains("no scenario") && err.contains(&save.scenario.name), "{err}");
    assert!(!err.contains("root:"), "{err}");
}

#[test]
fn a_custom_scenario_beside_the_save_is_found() {
    // A copy of the scenario with one changed value, in the save's own folder.
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(scenario_path().parent().unwrap()).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let text = text.replace(
            "name: \"Yorck\",         side: Allied, unit: Infantry,  strength: 4",
            "name: \"Yorck\",         side: Allied, unit: Infantry,  strength: 5",
        );
        std::fs::write(dir.path().join(p.file_name().unwrap()), text).unwrap();
    }
    let custom = dir.path().join("beginner.ron");
    let mut t = botn::new_table(&custom, 62, grognard::engine::rules::Mode::Enforced).unwrap();
    assert_ne!(t.game.sc.hash, new_table(1).game.sc.hash, "the copy's data differs from the shipped scenario");
    play_random(&mut t, 30, 62);
    let save_path = dir.path().join("my-game.ron");
    botn::save_of(&t).write(&save_path).unwrap();
    let save = SaveFile::<Action>::read(&save_path).unwrap();
    assert_eq!(botn::load_save(&save, &save_path).unwrap().digest(), t.digest());
}

#[test]
fn only_regular_files_of_bounded_size_are_read() {
    let dir = tempfile::tempdir().unwrap();
    // A FIFO would block a reader forever: refused without opening it.
    let fifo = dir.path().join("pipe.ron");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let err = read_text(&fifo).unwrap_err();
    assert!(err.message.contains("not a regular file"), "{err}");
    // A device and a folder.
    assert!(read_text(Path::new("/dev/zero")).unwrap_err().message.contains("not a regular file"));
    assert!(read_text(dir.path()).unwrap_err().message.contains("not a regular file"));
    // A file over the limit.
    let big = dir.path().join("big.ron");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(MAX_FILE_BYTES + 1).unwrap();
    let err = read_text(&big).unwrap_err();
    assert!(err.message.contains("at most"), "{err}");
}

#[test]
fn a_scenario_names_its_parts_inside_its_own_folder() {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(scenario_path().parent().unwrap()).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
    }
    let main = dir.path().join("beginner.ron");
    let text = std::fs::read_to_string(&main).unwrap();
    for bad in ["../board.ron", "/etc/passwd", "sub/board.ron", "board.txt"] {
        std::fs::write(&main, text.replace("\"board.ron\"", &format!("\"{bad}\""))).unwrap();
        let err = Scenario::load(&main).unwrap_err();
        assert!(err.message.contains("field `board`") && err.message.contains(".ron file name"), "{bad}: {err}");
        assert_eq!(
            std::fs::read_to_string(&main).unwrap().lines().nth(err.line - 1).map(|l| l.contains("board")),
            Some(true)
        );
    }
}

#[test]
fn errors_quote_a_bounded_excerpt_of_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("save.ron");
    // A save whose game id is a megabyte long.
    let (_, mut save) = a_save(63);
    save.game = "x".repeat(1 << 20);
    std::fs::write(&path, save.to_ron()).unwrap();
    let save = SaveFile::<Action>::read(&path).unwrap();
    let err = botn::load_save(&save, &path).unwrap_err().to_string();
    assert!(err.len() < MAX_QUOTE * 3 + 200, "{} characters", err.len());
    // A syntax error in a long line.
    std::fs::write(&path, format!("(format: 1, game: {})", "y".repeat(1 << 20))).unwrap();
    let err = SaveFile::<Action>::read(&path).unwrap_err().to_string();
    assert!(err.len() < MAX_QUOTE * 3 + 200, "{} characters", err.len());
}

#[test]
fn a_log_longer_than_any_game_is_refused() {
    let (_, mut save) = a_save(64);
    let pass = save.log[0].clone();
    save.log = vec![pass; MAX_LOG + 1];
    let err = botn::load_save(&save, Path::new("x.ron")).unwrap_err().to_string();
    assert!(err.contains("field `log`") && err.contains(&MAX_LOG.to_string()), "{err}");
}

#[cfg(unix)]
#[test]
fn saves_and_journals_are_private_and_never_written_through_a_link() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (t, save) = a_save(65);
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "untouched").unwrap();
    let path = dir.path().join("game.ron");
    // Links planted at every name the writer might use for its temporary file.
    for name in [".game.ron.tmp", "game.ron.tmp", &format!(".game.ron.{}.tmp", std::process::id())] {
        std::os::unix::fs::symlink(&victim, dir.path().join(name)).unwrap();
    }
    save.write(&path).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    // A link planted at the save's own name is replaced, not followed.
    let linked = dir.path().join("linked.ron");
    std::os::unix::fs::symlink(&victim, &linked).unwrap();
    save.write(&linked).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
    assert!(!std::fs::symlink_metadata(&linked).unwrap().file_type().is_symlink());
    // The journal too.
    let journal = dir.path().join("journal.ron");
    std::os::unix::fs::symlink(&victim, &journal).unwrap();
    Journal::create(&journal, &botn::save_of(&t)).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
    assert_eq!(std::fs::metadata(&journal).unwrap().permissions().mode() & 0o777, 0o600);
}

/// A copy of a game's scenario folder with `edit` applied to `file`; the main scenario's path.
fn edited(game: &str, main: &str, file: &str, from: &str, to: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(grognard::engine::scenario::scenarios_root().join(game)).unwrap() {
        let p = e.unwrap().path();
        let mut text = std::fs::read_to_string(&p).unwrap();
        if p.file_name().unwrap() == file {
            assert!(text.contains(from), "{from}");
            text = text.replacen(from, to, 1);
        }
        std::fs::write(dir.path().join(p.file_name().unwrap()), text).unwrap();
    }
    let path = dir.path().join(main);
    (dir, path)
}

/// `validate` on a file, as the command line runs it: the refusal, or None.
fn refusal(path: &Path) -> Option<String> {
    let (game, text) = grognard::registry::open(path).unwrap();
    game.validate(path, &text).err()
}

#[test]
fn validate_refuses_values_the_rules_cannot_hold_naming_file_and_line() {
    let vg = "victory-and-glory";
    let cases = [
        (vg, "napoleon.ron", "nations.ron", "track_max: 20", "track_max: -3", "track_max"),
        (vg, "napoleon.ron", "nations.ron", "(\"Germany\", Britain, 2)", "(\"Germany\", Britain, 255)", "Germany"),
        (
            vg,
            "napoleon.ron",
            "deck-1808.ron",
            "LoseUnits(France, 1), Influence",
            "LoseUnits(France, 0), Influence",
            "Guerrilla",
        ),
        ("battle-of-the-nations", "advanced.ron", "tracks.ron", "(label: \"End\"),", "", "time:"),
        (
            "battle-of-the-nations",
            "beginner.ron",
            "cards.ron",
            "french: 3, allied: 6",
            "french: 3, allied: 255",
            "Gohlis",
        ),
    ];
    for (game, main, file, from, to, line_has) in cases {
        let (dir, path) = edited(game, main, file, from, to);
        let err = refusal(&path).unwrap_or_else(|| panic!("{file}: {to} accepted"));
        // file:line:column: message, the line the one holding the value.
        let mut parts = err.splitn(4, ':');
        let (f, line) = (parts.next().unwrap(), parts.next().unwrap().parse::<usize>().unwrap());
        assert!(f.ends_with(file), "{err}");
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        assert!(text.lines().nth(line - 1).unwrap().contains(line_has), "{err}");
        // And what validate refuses, play refuses: the same load.
        let sim = grognard::registry::by_id(game).unwrap().playtest(&path, 1, 1);
        assert!(sim.is_err(), "{file}: {to}");
    }
}

#[test]
fn a_part_file_no_scenario_names_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bn = dir.path().join("battle-of-the-nations");
    std::fs::create_dir(&bn).unwrap();
    for e in std::fs::read_dir(grognard::engine::scenario::scenarios_root().join("battle-of-the-nations")).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, bn.join(p.file_name().unwrap())).unwrap();
    }
    // A Victory & Glory file dropped among Battle of the Nations' files.
    let stray = bn.join("units.ron");
    std::fs::copy(grognard::engine::scenario::scenarios_root().join("victory-and-glory/units.ron"), &stray).unwrap();
    let err = refusal(&stray).expect("refused");
    assert!(err.contains("no scenario") && err.contains("names it"), "{err}");
}

#[test]
fn the_shipped_table_maps_load_and_place_every_nation() {
    use grognard::engine::tablemap::{FILE, TableMap};
    let root = grognard::engine::scenario::scenarios_root();
    let botn_map = TableMap::load(&root.join("battle-of-the-nations").join(FILE)).unwrap();
    let names: Vec<&str> = botn_map.rivers.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["Weiße Elster", "Luppe", "Pleiße", "Parthe"]);
    let vg_path = root.join("victory-and-glory").join(FILE);
    let vg_map = TableMap::load(&vg_path).unwrap();
    assert!(vg_map.credit.contains("Natural Earth") && vg_map.provenance.is_reconstructed());
    assert!(vg_map.land.len() >= 10, "Europe's coasts, islands and Africa's shore");
    let sc = grognard::games::vg::data::VgScenario::load(&root.join("victory-and-glory/napoleon.ron")).unwrap();
    for n in &sc.nations {
        let (x, z) = vg_map.place(&n.name).unwrap_or_else(|| panic!("{} has no place on the map", n.name));
        // On the painted sheet (x -11.5..14.5, z -14..14).
        assert!((-11.5..=14.5).contains(&x) && (-14.0..=14.0).contains(&z), "{}: ({x}, {z})", n.name);
    }
    // Paris lies west of Vienna and Vienna south of Berlin, as on any map.
    let (fx, _) = vg_map.place("France").unwrap();
    let (ax, az) = vg_map.place("Austria").unwrap();
    let (_, pz) = vg_map.place("Prussia").unwrap();
    assert!(fx < ax && pz < az);
    // `validate` checks a table map like any other file.
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_grognard")).arg("validate").arg(&vg_path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("22 land polygons"));
}
