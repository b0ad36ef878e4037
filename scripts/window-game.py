#!/usr/bin/env python3
"""Plays a whole game in the window under Xvfb, the French seat by a person's hands (mouse
gestures through xdotool) against the computer as the Allies, for Leipzig 1813 (drags of
counters, the Orders list, the Combat panel, lit retreats) and Austerlitz (counters dragged and
turned in the hand with Q/E, squares by F in the hand, commands dragged; the Orders list: the
set-up, guns' shots, attacks and charges, reactions, retreats, the ends of steps). What
the hands do is decided by `examples/<game>_hands.rs` from the window's autosave journal; this
script only moves the mouse, waits for the window to take each action, and keeps screenshots.

Usage: scripts/window-game.py SCENARIO OUT_DIR [--seed N] [--resume]
(the game is the scenario's folder: leipzig-1813 or austerlitz; --resume goes on with the game of
OUT_DIR's journal, from a save of it.)
Needs: Xvfb, xdotool, python3-pil; `cargo build` and `cargo build --example <game>_hands` first.
"""

import os
import subprocess
import sys
import time

from PIL import ImageGrab

DISPLAY = os.environ.get("HANDS_DISPLAY", ":77")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUTTON = (60, 60, 60)
NEUTRAL = (640, 792)


def sh(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def xdo(*args):
    subprocess.run(["xdotool", *map(str, args)], check=True, env={**os.environ, "DISPLAY": DISPLAY})


def grab(path=None):
    im = ImageGrab.grab(xdisplay=DISPLAY).convert("RGB")
    if path:
        im.save(path)
    return im


def runs(im, x, y0, y1, colour=BUTTON, least=10):
    """Vertical runs of a button's fill at column x: (top, bottom) of each button, in order."""
    out, start = [], None
    for y in range(y0, y1):
        on = im.getpixel((x, y)) == colour
        if on and start is None:
            start = y
        if not on and start is not None:
            if y - start >= least:
                out.append((start, y))
            start = None
    return out


def journal_lines(journal):
    try:
        with open(journal) as f:
            return sum(1 for line in f if line.strip())
    except FileNotFoundError:
        return 0


def changed(im, before, x, y):
    """Whether the picture changed at a point (a counter arrived there)."""
    diff = 0
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            a, b = im.getpixel((x + dx, y + dy)), before.getpixel((x + dx, y + dy))
            diff += sum(abs(p - q) for p, q in zip(a, b))
    return diff > 25 * 30


def wait_for(test, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if test(grab()):
            return True
        time.sleep(0.3)
    return False


def click(x, y, probe):
    """A click a slow window sees: the pointer arrives and rests until the button under it is
    drawn lit (its fill at `probe` changes), then presses and lets go as a finger does (the window
    counts a press let go within 3 s as a click: a frame of llvmpipe here takes about one)."""
    xdo("mousemove", x + 2, y + 1)
    time.sleep(0.3)
    xdo("mousemove", x, y)
    wait_for(lambda im: im.getpixel(probe) != BUTTON, 8)
    time.sleep(2.0)  # the button's hover animation takes a frame or two more
    xdo("mousedown", 1)
    time.sleep(0.15)
    xdo("mouseup", 1)
    time.sleep(2.0)  # still, until the window has read the release where it happened


def click_table(x, y):
    """A click on the table (a counter or a hex), after the window has drawn the pointer there."""
    xdo("mousemove", x + 2, y + 1)
    time.sleep(0.3)
    xdo("mousemove", x, y)
    time.sleep(2.5)
    xdo("mousedown", 1)
    time.sleep(0.15)
    xdo("mouseup", 1)
    time.sleep(2.0)


def focus_window():
    """Keys go to the window that has the keyboard focus; with no window manager under Xvfb
    nothing gives it one: ask X to focus the window (found by its title)."""
    ids = subprocess.run(["xdotool", "search", "--name", "Grognard"], capture_output=True, text=True,
                         env={**os.environ, "DISPLAY": DISPLAY}).stdout.split()
    if ids:
        xdo("windowfocus", ids[0])


def rest():
    xdo("mousemove", *NEUTRAL)
    time.sleep(0.6)


def orders_button(k, n):
    """The k-th of the n buttons of the Orders list: counted from the top, or, where the list is
    longer than its scroll area, from the end it is scrolled to (the wheel only over the list, so
    the camera never moves)."""
    rest()
    found = runs(grab(), 16, 80, 790)
    if not found:
        return None
    if len(found) < n:
        top, bottom = found[len(found) // 2]
        xdo("mousemove", 120, (top + bottom) // 2)
        time.sleep(0.3)
        wheel = 4 if k < n // 2 else 5
        for _ in range(30):
            xdo("click", wheel)
        rest()
        time.sleep(0.8)
        found = runs(grab(), 16, 80, 790)
        if wheel == 5:
            j = n - 1 - k
            if j >= len(found):
                return None
            top, bottom = found[-1 - j]
            return 56, (top + bottom) // 2
    if k >= len(found):
        return None
    top, bottom = found[k]
    return 56, (top + bottom) // 2


def panel_buttons(im):
    """The Combat panel's buttons (it stands at the window's top right)."""
    return runs(im, 903, 0, 790)


def main():
    scenario, out = sys.argv[1], sys.argv[2]
    seed = sys.argv[sys.argv.index("--seed") + 1] if "--seed" in sys.argv else "1"
    resume = "--resume" in sys.argv
    os.makedirs(out, exist_ok=True)
    home = os.path.join(out, "home")
    os.makedirs(home, exist_ok=True)
    game_name = "austerlitz" if "austerlitz" in os.path.abspath(scenario) else "leipzig"
    journal = os.path.join(home, f"{game_name}-journal.ron")
    if "--resume" in sys.argv and os.path.exists(journal):
        # Go on with the game the journal holds: its header with the applied actions as a save.
        lines = [line.strip() for line in open(journal) if line.strip()]
        log = []
        for line in lines[1:]:
            if line == "Undo":
                log.pop()
            elif line.startswith("Applied(") and line.endswith(")"):
                log.append(line[len("Applied("):-1])
        scenario = os.path.join(out, "resume.ron")
        with open(scenario, "w") as f:
            f.write(lines[0].replace("log:[]", "log:[" + ",".join(log) + "]") + "\n")
    if os.path.exists(journal):
        os.remove(journal)
    subprocess.run(["pkill", "-f", f"Xvfb {DISPLAY}"])
    time.sleep(0.5)
    xvfb = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", "1280x800x24"], stderr=subprocess.DEVNULL)
    time.sleep(1)
    env = {**os.environ, "DISPLAY": DISPLAY, "GROGNARD_HOME": home}
    log = open(os.path.join(out, "window.log"), "w")
    game = subprocess.Popen(
        [os.path.join(ROOT, "target/debug/grognard"), "play", scenario, "--computer", "allied"]
        + ([] if resume else ["--seed", seed]) + ["--pace", "0.15"],
        env=env, stdout=log, stderr=subprocess.STDOUT)
    hands = os.path.join(ROOT, f"target/debug/examples/{game_name}_hands")
    record = open(os.path.join(out, "gestures.txt"), "a" if resume else "w")
    started = time.time()
    gestures = failures = 0
    last_turn_shot = None
    try:
        while journal_lines(journal) == 0:
            time.sleep(0.5)
        time.sleep(3)
        idle_since = time.time()
        seen = journal_lines(journal)
        strikes = {}
        while True:
            if game.poll() is not None:
                # A negative code is the signal that ended it (9: killed, as by the kernel's
                # out-of-memory killer; 11: a crash).
                raise SystemExit(f"the window closed (exit status {game.returncode})")
            n = journal_lines(journal)
            if n != seen:
                seen, idle_since = n, time.time()
            skip = [label for label, count in strikes.items() if count >= 2]
            line = subprocess.run([hands, journal, *skip], capture_output=True, text=True).stdout.strip()
            if line == "over":
                time.sleep(3)
                grab(os.path.join(out, "final.png"))
                break
            if line == "wait" or not line:
                if time.time() - idle_since > 120:
                    grab(os.path.join(out, "stalled.png"))
                    raise SystemExit("nothing happened for two minutes")
                time.sleep(0.4)
                continue
            time.sleep(0.5)  # let the window catch up with the journal (reactive frames)
            word, *rest_ = line.split(" ")
            turn_shot = None
            if word == "order" and ("End the Movement Phase" in line or "End the turn" in line):
                turn_shot = f"turn-{gestures:04d}-end.png"
            before = journal_lines(journal)
            if word == "order":
                k, count = int(rest_[0]), int(rest_[1])
                at = orders_button(k, count)
                if at is None:
                    # A frame drawn without its panels, or the list still moving: look again.
                    failures += 1
                    grab(os.path.join(out, f"fail-{gestures:04d}.png"))
                    record.write(f"        (button {k} of {count} not found: {line})\n")
                    if failures > 200:
                        raise SystemExit(f"button {k} of {count} not found: {line}")
                    continue
                if turn_shot and turn_shot != last_turn_shot:
                    grab(os.path.join(out, turn_shot))
                    last_turn_shot = turn_shot
                click(*at, (16, at[1]))
            elif word == "drag":
                hx, hy, x1, y1, x2, y2 = map(int, rest_[:6])
                # A hand comes to rest on the stack (two motions: the window draws on input),
                # waits for it to spread, and moves to the counter.
                # llvmpipe draws a frame of this table in a second or two: the hand waits to see
                # what it does, as a person would (the stack spreading, the counter lifted).
                still = grab()
                xdo("mousemove", hx + 2, hy + 2)
                time.sleep(0.3)
                xdo("mousemove", hx, hy)
                if (hx, hy) != (x1, y1):
                    wait_for(lambda im: changed(im, still, x1, y1), 8)
                    time.sleep(0.6)
                    xdo("mousemove", (hx + x1) // 2, (hy + y1) // 2)
                    time.sleep(0.4)
                xdo("mousemove", x1, y1)
                time.sleep(0.9)
                xdo("mousedown", 1)
                time.sleep(0.9)
                turns = next((int(t[5:]) for t in rest_ if t.startswith("turn=")), 0)
                if turns:
                    # Austerlitz: turned in the hand on the way (E clockwise, Q back), each
                    # press seen by a frame of its own.
                    focus_window()
                    xdo("mousemove", x1 + (x2 - x1) // 6, y1 + (y2 - y1) // 6)
                    time.sleep(1.0)
                    for _ in range(abs(turns)):
                        xdo("key", "e" if turns > 0 else "q")
                        time.sleep(1.2)
                for i in range(1, 4):
                    xdo("mousemove", x1 + (x2 - x1) * i // 3, y1 + (y2 - y1) * i // 3)
                    time.sleep(0.5)
                time.sleep(1.2)
                xdo("mouseup", 1)
            elif word == "square":
                # Austerlitz: the counter taken up, F pressed in the hand, put back.
                x1, y1 = int(rest_[0]), int(rest_[1])
                xdo("mousemove", x1 + 2, y1 + 1)
                time.sleep(0.3)
                xdo("mousemove", x1, y1)
                time.sleep(1.5)
                xdo("mousedown", 1)
                time.sleep(0.9)
                xdo("mousemove", x1 + 12, y1 + 12)
                time.sleep(1.5)
                focus_window()
                xdo("key", "f")
                time.sleep(1.5)
                xdo("mousemove", x1, y1)
                time.sleep(1.0)
                xdo("mouseup", 1)
            elif word == "click":
                click_table(int(rest_[0]), int(rest_[1]))
            elif word == "declare":
                click_table(int(rest_[0]), int(rest_[1]))
                rest()
                wait_for(lambda im: len(panel_buttons(im)) >= 2, 10)
                time.sleep(0.5)
                im = grab(os.path.join(out, f"declare-{gestures:04d}.png"))
                found = panel_buttons(im)
                if len(found) < 2:
                    # The click did not reach the target (the window was busy): try again.
                    failures += 1
                    record.write(f"        (no Declare button yet: {line})\n")
                    if failures > 200:
                        raise SystemExit(f"no Declare button: {line}")
                    continue
                top, bottom = found[-2]
                record.write(f"        (panel buttons {found}: Declare at {(top + bottom) // 2})\n")
                click(930, (top + bottom) // 2, (903, (top + bottom) // 2))
            elif word == "resolve":
                rest()
                wait_for(lambda im: len(panel_buttons(im)) >= 1, 10)
                found = panel_buttons(grab(os.path.join(out, f"resolve-{gestures:04d}.png")))
                if not found:
                    grab(os.path.join(out, f"fail-{gestures:04d}.png"))
                    raise SystemExit("no Resolve button")
                top, bottom = found[0]
                click(930, (top + bottom) // 2, (903, (top + bottom) // 2))
            else:
                raise SystemExit(f"unknown gesture {line}")
            gestures += 1
            record.write(f"{time.time() - started:7.1f} {line}\n")
            record.flush()
            rest()
            deadline = time.time() + 20
            while journal_lines(journal) == before and time.time() < deadline:
                time.sleep(0.3)
            if journal_lines(journal) == before:
                failures += 1
                tokens = line.split(" ")
                # A counter not picked up is struck as a counter (unit=N), whatever its move.
                label = tokens[7] if word == "drag" else tokens[3] if word == "square" else " ".join(tokens[3:])
                strikes[label] = strikes.get(label, 0) + 1
                grab(os.path.join(out, f"missed-{gestures:04d}.png"))
                record.write(f"        (not taken: {line})\n")
                if failures > 200:
                    raise SystemExit("too many gestures not taken")
    finally:
        record.write(f"gestures {gestures}, not taken {failures}, {time.time() - started:.0f} s\n")
        record.close()
        game.terminate()
        xvfb.terminate()


if __name__ == "__main__":
    main()
