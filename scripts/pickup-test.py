#!/usr/bin/env python3
"""The pickup test: a person's hand (xdotool, under Xvfb at 1280x800) presses on pieces of each
game at the default zoom and drags them a little, twice each, and counts how many were taken in
hand at the first press. The window says where it draws each piece (GROGNARD_GRIPS) and when one
is taken ("lifted ENTITY" in its log); the hand rests on the piece as a person does (the tooltip
comes, a Leipzig stack spreads), follows it if the spread moved it, presses (the first time on the
piece, the second on its label where it has one), moves 30 px in three steps, looks, comes back
and lets go where it took the piece (a counter drawn offset on its stack may be let go over the
neighbouring hex, and then moves there: the rules decide). A press counts when it reaches its piece
("took" in the log): the game then lifts it, or refuses with its rule (another side's counter).

Usage: scripts/pickup-test.py OUT_DIR [GAME...]   (games: botn leipzig austerlitz)
Needs: Xvfb, xdotool, python3-pil; `cargo build` and `cargo build --example pickup_saves` first.
Then the same hand turns the wheel and right-drags over the table; each must change the picture.
Writes OUT_DIR/pickups.txt (one line a try, a summary line a game) and a screenshot a try.
Exit status 1 when any press did not take its piece.
"""

import os
import subprocess
import sys
import time

from PIL import ImageGrab

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DISPLAY = os.environ.get("PICKUP_DISPLAY", ":78")
# The game, the seat the computer takes (the hand plays the other), the pieces to try by their
# grip radius (world units, as the window gives it) and a name for each kind.
GAMES = {
    "botn": ("allied", {0.25: "French troop marker", 0.27: "Allied troop marker"}),
    "leipzig": ("allied", {0.2: "counter"}),
    "austerlitz": ("french", {0.21: "unit", 0.15: "command"}),
}
TRIES = 2
PER_KIND = 3


def xdo(*args):
    subprocess.run(["xdotool", *map(str, args)], check=True, env={**os.environ, "DISPLAY": DISPLAY})


def wheel():
    xdo("mousemove", 640, 420)
    time.sleep(0.5)
    for _ in range(3):
        xdo("click", 4)


def right_drag():
    xdo("mousemove", 600, 420)
    time.sleep(0.5)
    xdo("mousedown", 3)
    for k in (1, 2, 3):
        time.sleep(0.2)
        xdo("mousemove", 600 + 40 * k, 420 - 10 * k)
    xdo("mouseup", 3)


def clear(x, y):
    """Clear of the panels at their default places (Orders top left, the bar at the top, the log
    and the hand at the bottom): a person does not reach under a panel."""
    return 20 < x < 1260 and 20 < y < 780 and not (
        (x < 340 and y < 330) or (460 < x < 820 and y < 130) or (x > 940 and y > 470) or (x > 880 and y < 160)
    )


def grips(path, labels=False):
    """Where the window draws each piece (entity: x, y, radius px, grip, height), or (labels)
    each piece's label (entity: x, y)."""
    out = {}
    try:
        for line in open(path):
            f = line.split()
            if f[0] == "label" and labels:
                out[f[1]] = (float(f[2]), float(f[3]))
            elif f[0] != "label" and not labels:
                out[f[0]] = tuple(map(float, f[1:6]))
    except (OSError, ValueError, IndexError):
        pass
    return out


def log_words(path, word):
    """The entities after WORD in the window's log, in order ("took E": a press reached piece E
    and began to drag it; "lifted E": the game let it be carried)."""
    try:
        return [l.split(word + " ")[1].split()[0] for l in open(path, errors="replace") if word + " " in l]
    except OSError:
        return []


def run_game(game, out, record):
    computer, kinds = GAMES[game]
    save = os.path.join(out, "saves", f"{game}.ron")
    home = os.path.join(out, f"home-{game}")
    os.makedirs(home, exist_ok=True)
    grip_file = os.path.join(out, f"grips-{game}.txt")
    log_path = os.path.join(out, f"window-{game}.log")
    subprocess.run(["pkill", "-f", f"Xvfb {DISPLAY}"])
    time.sleep(0.5)
    xvfb = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", "1280x800x24"], stderr=subprocess.DEVNULL)
    time.sleep(1)
    env = {**os.environ, "DISPLAY": DISPLAY, "GROGNARD_HOME": home, "GROGNARD_GRIPS": grip_file}
    window = subprocess.Popen(
        [os.path.join(ROOT, "target/debug/grognard"), "play", save, "--computer", computer, "--pace", "1"],
        env=env, stdout=open(log_path, "w"), stderr=subprocess.STDOUT)
    taken = tries = 0
    try:
        deadline = time.time() + 180
        while "table drawn after" not in open(log_path, errors="replace").read():
            if time.time() > deadline or window.poll() is not None:
                raise SystemExit(f"{game}: the window did not open")
            time.sleep(1)
        time.sleep(10)
        seen = grips(grip_file)
        if not seen:
            raise SystemExit(f"{game}: the window wrote no pieces to {grip_file}")
        chosen = []
        for radius, kind in kinds.items():
            # Pieces of this kind in the open, away from one another's grip where possible.
            these = [(e, x, y) for e, (x, y, r, g, h) in seen.items() if abs(g - radius) < 0.006 and clear(x, y)]
            picked = []
            for e, x, y in sorted(these, key=lambda p: (p[2], p[1])):
                if all(abs(x - px) + abs(y - py) > 60 for _, px, py in picked):
                    picked.append((e, x, y))
                if len(picked) == PER_KIND:
                    break
            chosen += [(kind, e) for e, _, _ in picked]
        if not chosen:
            raise SystemExit(f"{game}: no piece in the open to try")
        for kind, e in chosen:
            for attempt in range(TRIES):
                # The first press on the piece, the second on its label where it has one (at
                # the default zoom a marker is read, and taken, by its name).
                on_label = attempt == 1 and e in grips(grip_file, labels=True)
                where = "label" if on_label else "piece"
                pos = (grips(grip_file, labels=True) if on_label else grips(grip_file)).get(e)
                if pos is None:
                    record.write(f"{game} {kind} {e} try {attempt + 1}: not drawn any more\n")
                    continue
                x, y = int(pos[0]), int(pos[1])
                xdo("mousemove", x + 4, y + 4)
                time.sleep(0.3)
                xdo("mousemove", x, y)
                time.sleep(2.5)
                # A spread stack moved its counters: the hand follows its piece. A piece lying on
                # it (a stack's order changes as counters are put back) is what a person takes:
                # the hand takes the top one there.
                now = grips(grip_file)
                pos = (grips(grip_file, labels=True) if on_label else now).get(e, pos)
                x, y = int(pos[0]), int(pos[1])
                if not on_label and e in now:
                    top = max(((o, p) for o, p in now.items() if abs(p[0] - x) + abs(p[1] - y) <= p[2]),
                              key=lambda op: op[1][4], default=(e, now[e]))[0]
                    if top != e:
                        record.write(f"        ({e} lies under {top}: the hand takes the top one)\n")
                        e = top
                xdo("mousemove", x, y)
                time.sleep(1.5)
                before = len(log_words(log_path, "took")), len(log_words(log_path, "lifted"))
                xdo("mousedown", 1)
                for k in (1, 2, 3):
                    time.sleep(0.15)
                    xdo("mousemove", x + 10 * k, y - 6 * k)
                time.sleep(3)
                ImageGrab.grab(xdisplay=DISPLAY).convert("RGB").save(
                    os.path.join(out, f"{game}-{kind.replace(' ', '-')}-{e}-{attempt + 1}.png"))
                took = log_words(log_path, "took")[before[0]:]
                lifted = log_words(log_path, "lifted")[before[1]:]
                xdo("mousemove", x, y)
                time.sleep(1.5)
                xdo("mouseup", 1)
                time.sleep(3)
                tries += 1
                # The top counter of a stack lying over the one aimed at is what a hand takes there.
                now = grips(grip_file)
                over = [t for t in took if t in now and e in now and now[t][4] > now[e][4]
                        and ((now[t][0] - x) ** 2 + (now[t][1] - y) ** 2) ** 0.5 <= now[t][2] + now[e][2]]
                if over and e not in took:
                    record.write(f"        ({over[0]} lay over {e} where the hand pressed: the top one taken)\n")
                    e = over[0]
                ok = e in took
                taken += ok
                if ok:
                    what = "taken, lifted" if e in lifted else "taken, refused by the rules (not this seat's to move)"
                else:
                    what = f"another piece taken ({' '.join(took)})" if took else "NOT taken"
                record.write(f"{game} {kind} {e} on its {where} at {x},{y} try {attempt + 1}: {what}\n")
                record.flush()
        # The wheel and a right-drag, with the same hand: each changes the picture.
        for what, gesture in (("wheel", wheel), ("right-drag", right_drag)):
            before = ImageGrab.grab(xdisplay=DISPLAY).convert("L")
            gesture()
            time.sleep(6)
            after = ImageGrab.grab(xdisplay=DISPLAY).convert("L")
            after.save(os.path.join(out, f"{game}-{what}.png"))
            changed = sum(1 for a, b in zip(before.tobytes(), after.tobytes()) if abs(a - b) > 24)
            record.write(f"{game} {what}: {changed} pixels changed\n")
            tries += 1
            taken += changed > 20000
    finally:
        window.terminate()
        time.sleep(1)
        window.kill()
        xvfb.terminate()
    record.write(f"{game}: {taken} of {tries} (presses that took their piece, the wheel and a right-drag)\n")
    record.flush()
    return taken, tries


def main():
    out = os.path.abspath(sys.argv[1])
    games = sys.argv[2:] or list(GAMES)
    os.makedirs(out, exist_ok=True)
    subprocess.run([os.path.join(ROOT, "target/debug/examples/pickup_saves"), os.path.join(out, "saves")], check=True)
    failed = False
    with open(os.path.join(out, "pickups.txt"), "w") as record:
        for game in games:
            taken, tries = run_game(game, out, record)
            print(f"{game}: {taken} of {tries}")
            failed |= taken < tries
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
