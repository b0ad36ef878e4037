//! Render smoke test: the window under Xvfb takes a screenshot of the table, and the board, the
//! terrain of the fields and both sides' pieces are in it.
#![cfg(feature = "gui")]
use std::process::Command;

fn count(img: &[u8], channels: usize, pred: impl Fn(u8, u8, u8) -> bool) -> usize {
    img.chunks(channels).filter(|p| pred(p[0], p[1], p[2])).count()
}

/// The pixels of a PNG, its samples per pixel, width and height.
fn read_png(path: &std::path::Path) -> (Vec<u8>, usize, u32, u32) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (buf, info.color_type.samples(), info.width, info.height)
}

#[test]
fn screenshot_shows_board_and_pieces() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("table.png");
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/battle-of-the-nations/beginner.ron");
    // A save with armies laid out, so that pieces of both sides stand on the board.
    let mut t =
        grognard::games::botn::new_table(std::path::Path::new(scenario), 3, grognard::engine::rules::Mode::Enforced)
            .unwrap();
    use grognard::engine::table::Act;
    use grognard::games::botn::Action;
    use grognard::games::botn::data::District;
    let s = grognard::engine::seats::SeatId(0);
    for d in [District::North, District::South] {
        t.submit(s, Act::Game(Action::DraftDistrict(d))).unwrap();
        let k = t.game.draft_pair[0];
        t.submit(s, Act::Game(Action::KeepMission(k))).unwrap();
    }
    let marmont = t.game.sc.army_id("Marmont").unwrap() as u8;
    t.submit(s, Act::Game(Action::LayOutArmyCard { army: marmont, skip: vec![] })).unwrap();
    for _ in 0..4 {
        t.submit(s, Act::Game(Action::DrawBlind)).unwrap();
    }
    let langeron = t.game.sc.army_id("Langeron").unwrap() as u8;
    t.submit(grognard::engine::seats::SeatId(1), Act::Game(Action::LayOutArmyCard { army: langeron, skip: vec![] }))
        .unwrap();
    let save = tmp.path().join("game.ron");
    grognard::games::botn::save_of(&t).write(&save).unwrap();

    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_grognard"), "screenshot"])
        .arg(&save)
        .arg("--out")
        .arg(&out)
        .args(["--seat", "spectator"])
        .env("GROGNARD_HOME", tmp.path())
        .status()
        .expect("xvfb-run is installed (see the README)");
    assert!(status.success());
    if let Some(keep) = std::env::var_os("GROGNARD_KEEP_SHOT") {
        std::fs::copy(&out, keep).unwrap();
    }
    let (buf, ch, width, height) = read_png(&out);
    let img = &buf[..];
    assert_eq!((width, height), (1280, 800));
    let total = img.len() / ch;
    // The printed board (parchment) covers a good part of the picture.
    let parchment = count(img, ch, |r, g, b| r > 200 && g > 190 && b > 160 && r >= b);
    assert!(parchment > total / 10, "board: {parchment} of {total}");
    // River fields (blue) and forest fields (green) are drawn.
    let river = count(img, ch, |r, g, b| b > 150 && r < 140 && g > 110 && g < 190);
    let forest = count(img, ch, |r, g, b| g > 100 && r < 100 && b < 100);
    assert!(river > 500 && forest > 300, "river {river}, forest {forest}");
    // French (deep blue) and Allied (red) markers stand on the board.
    let french = count(img, ch, |r, g, b| b > 120 && r < 70 && g < 110);
    let allied = count(img, ch, |r, g, b| r > 140 && g < 70 && b < 70);
    assert!(french > 100 && allied > 100, "french {french}, allied {allied}");
}

/// A Victory & Glory screenshot at the start of the game, through `seat`'s eyes, optionally a
/// close-up (`--look`): its pixels and samples per pixel.
fn vg_shot(seat: &str, look: Option<&str>) -> (Vec<u8>, usize) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("vg.png");
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/victory-and-glory/napoleon.ron");
    let mut cmd = Command::new("xvfb-run");
    cmd.args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_grognard"), "screenshot", scenario])
        .arg("--out")
        .arg(&out)
        .args(["--seat", seat])
        .env("GROGNARD_HOME", tmp.path());
    if let Some(look) = look {
        cmd.args(["--look", look]);
    }
    assert!(cmd.status().expect("xvfb-run is installed (see the README)").success());
    let (buf, ch, _, _) = read_png(&out);
    (buf, ch)
}

#[test]
fn victory_and_glory_screenshot_shows_the_map_and_both_armies() {
    // The default view: Europe painted from its coastlines, the land in the nations' tints, the
    // sea around it.
    let (img, ch) = vg_shot("france", None);
    let total = img.len() / ch;
    let land = count(&img, ch, |r, g, b| r > 170 && g > 150 && b > 110 && r >= b);
    assert!(land > total / 20, "land: {land} of {total}");
    // The home view frames the map with both hands fanned at its ends, between the panels:
    // the sea is about a thirteenth of the picture.
    let sea = count(&img, ch, |r, g, b| b > 120 && b as u16 > r as u16 + 40 && g > r);
    assert!(sea > total / 20, "sea: {sea} of {total}");
    // Each player's army, close up through its own eyes: wooden blocks whose stickers (France
    // blue, Britain red) face the player who knows them.
    let blue = |r: u8, g: u8, b: u8| b > 150 && b as u16 > r as u16 + 60 && b as u16 > g as u16 + 50;
    let red = |r: u8, g: u8, b: u8| r > 150 && r as u16 > g as u16 + 80 && r as u16 > b as u16 + 80;
    let wood = |r: u8, g: u8, b: u8| r > 150 && (95..150).contains(&g) && b < 110 && r as u16 > b as u16 + 60;
    let (img, ch) = vg_shot("france", Some("1.5,15,8"));
    let (stickers, blocks) = (count(&img, ch, blue), count(&img, ch, wood));
    assert!(stickers > 2000 && blocks > 2000, "France's army: blue {stickers}, wood {blocks}");
    let (img, ch) = vg_shot("britain", Some("-0.5,-15.2,7"));
    let (stickers, blocks) = (count(&img, ch, red), count(&img, ch, wood));
    assert!(stickers > 800 && blocks > 800, "Britain's army: red {stickers}, wood {blocks}");
}

#[test]
fn leipzig_screenshot_shows_the_hex_map_rivers_and_both_sides_counters() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/leipzig-1813/1-historical-situation.ron");
    // The Allies deployed around Leipzig, the French about to move.
    let mut t = grognard::games::leipzig::new_table(std::path::Path::new(scenario), 4).unwrap();
    t.submit(
        grognard::engine::seats::SeatId(1),
        grognard::engine::table::Act::Game(grognard::games::leipzig::Action::DeployRest),
    )
    .unwrap();
    let save = tmp.path().join("leipzig.ron");
    grognard::games::leipzig::save_of(&t).write(&save).unwrap();
    let out = tmp.path().join("leipzig.png");
    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_grognard"), "screenshot"])
        .arg(&save)
        .arg("--out")
        .arg(&out)
        .args(["--seat", "french", "--look", "-5.4,0,6"])
        .env("GROGNARD_HOME", tmp.path())
        .status()
        .expect("xvfb-run is installed (see the README)");
    assert!(status.success());
    if let Some(keep) = std::env::var_os("GROGNARD_KEEP_SHOT") {
        std::fs::copy(&out, keep).unwrap();
    }
    let (img, ch, _, _) = read_png(&out);
    let total = img.len() / ch;
    let paper = count(&img, ch, |r, g, b| r > 200 && g > 190 && b > 150 && r >= b);
    assert!(paper > total / 5, "the printed map: {paper} of {total}");
    let river = count(&img, ch, |r, g, b| b > 140 && b as u16 > r as u16 + 60 && g > 80);
    assert!(river > 1500, "rivers along the hexsides: {river}");
    // The French counters (blue) and the Allied blanks (brown) near Leipzig.
    let french = count(&img, ch, |r, g, b| b > 140 && r < 110 && g < 140 && b as u16 > r as u16 + 60);
    let allied = count(&img, ch, |r, g, b| r > 130 && (80..140).contains(&g) && b < 100 && r as u16 > b as u16 + 60);
    assert!(french > 1000 && allied > 1000, "french {french}, allied {allied}");
}
