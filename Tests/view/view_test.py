#!/usr/bin/env python3
"""touchctl view, tested as a person would use it (scripts/view-test.sh runs this).

A real `touchd run` replays the Nexus 4 recording (xorg-integration-tests/touchscreens/n4.events: 12 touches, up
to 4 at once) through a scene of four quadrants, each with a drag gesture, slowed down (--speed 0.3). The
replay waits for two subscribers: a `touchctl monitor --raw` run by this script, whose lines say when the
replay started on the wall clock, and `touchctl view` in a detached tmux session of a fixed size.

What the screen must show is known independently: `touchd replay --scene` of the same file gives every finger's
position and region and every gesture, with times; the cell of a scene point is worked out here from the layout
docs/README.md describes (column floor(x * C / W), row 1 + floor(y * S / H), S = rows - 1 - gesture rows). At each
capture, the recording time lies in a window known from the wall clock; the capture passes if, for some
recording time in that window, the '@' cells are exactly the live fingers' cells, exactly the touched regions
are outlined with '#' corners, each region's id is on its top edge, and the gesture lines are the last ones
listed then.

Captures: one with no finger down, one with two, then the window is resized (80x24 to 120x40) and one with three.
Then `q`: the shell is back, tmux says the alternate screen is off and the cursor shown, and `stty -a` after the
view equals `stty -a` before it. A second view ends with Ctrl-C the same way, a third with SIGTERM (status 143); a fourth sees the daemon
stop (SIGTERM to touchd): it ends with status 69 (EX_UNAVAILABLE), the daemon's goodbye on stderr, and the terminal restored.
"""

import json
import os
import re
import shutil
import signal
import socket as socket_module
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOUCHD = os.path.join(ROOT, ".build/debug/touchd")
TOUCHCTL = os.path.join(ROOT, ".build/debug/touchctl")
RECORDINGS = os.environ.get("TOUCHD_RECORDINGS", os.path.join(os.path.dirname(ROOT), "shared/recordings"))
RECORDING = os.path.join(RECORDINGS, "xorg-integration-tests/touchscreens/n4.events")
SCENE = os.path.join(ROOT, "Tests/view/quadrants.json")
SPEED = 0.3
# Wall-clock slack on each side of a capture: a frame waits at most 1/30 s, plus the loop, tmux and a busy machine.
SLACK = 0.25

failures = []


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)


# A tmux server of the test's own (-L), so that no one else's sessions are touched.
SERVER = "touchd-view-test-%d" % os.getpid()


def tmux(*arguments):
    return subprocess.run(["tmux", "-L", SERVER, *arguments], check=True, capture_output=True, text=True).stdout


# ---- what the recording holds, from touchd replay --------------------------------------------------------------


def expected_events():
    output = subprocess.run(
        [TOUCHD, "replay", RECORDING, "--scene", SCENE, "--quiet"], check=True, capture_output=True, text=True
    ).stdout
    events = [json.loads(line) for line in output.splitlines()]
    base = events[0]["time_us"]
    return [dict(event, t=(event["time_us"] - base) / 1e6) for event in events if event["type"] != "frame"]


def state_at(events, t):
    """Live fingers {finger: (x, y, region)} and gesture lines [(region, name, state)] after every event up to t,
    with the view's rule for gesture lines: one in progress keeps its own line."""
    fingers, gestures = {}, []
    for event in events:
        if event["t"] > t:
            break
        if event["type"] in ("down", "move"):
            fingers[event["finger"]] = (event["x"], event["y"], event["region"])
        elif event["type"] in ("up", "cancel"):
            fingers.pop(event["finger"], None)
        elif event["type"] == "gesture":
            line = (event["region"], event["gesture"], event["state"])
            own = [i for i, g in enumerate(gestures) if g[:2] == line[:2]]
            if own and gestures[own[-1]][2] in ("pressing", "began", "changed"):
                gestures[own[-1]] = line
            else:
                gestures = (gestures + [line])[-8:]
    return fingers, gestures


# ---- the layout, worked out from the documented rule ------------------------------------------------------------


class Layout:
    def __init__(self, rows, columns, width, height):
        self.gesture_rows = min(5, (rows - 6) // 3) if rows >= 12 else 0
        self.scene_rows = rows - 1 - self.gesture_rows
        self.rows, self.columns, self.width, self.height = rows, columns, width, height

    def cell(self, x, y):
        column = min(max(int(x * self.columns // self.width), 0), self.columns - 1)
        row = 1 + min(max(int(y * self.scene_rows // self.height), 0), self.scene_rows - 1)
        return row, column


def regions():
    scene = json.load(open(SCENE))
    return scene["size"], [(r["id"], r["frame"]) for r in scene["regions"]]


def matches(lines, layout, fingers, gestures, region_list):
    """Why the screen differs from this state, or None when it shows exactly it."""
    marks = {(r, c) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "@"}
    want = {layout.cell(x, y) for x, y, _ in fingers.values()}
    if marks != want:
        return "fingers at %s, expected %s" % (sorted(marks), sorted(want))
    touched = {region for _, _, region in fingers.values()}
    for region_id, (x, y, _, _) in region_list:
        row, column = layout.cell(x, y)
        if (row, column) in want:
            continue
        corner = lines[row][column]
        if corner != ("#" if region_id in touched else "+"):
            return "%s's corner is %r (touched: %s)" % (region_id, corner, region_id in touched)
        if not lines[row][column + 1 :].startswith(region_id) and not any(
            (row, c) in want for c in range(column + 1, column + 1 + len(region_id))
        ):
            return "%s's id is not on its top edge: %r" % (region_id, lines[row])
    first = 1 + layout.scene_rows
    shown = gestures[-layout.gesture_rows :] if layout.gesture_rows else []
    for offset in range(layout.gesture_rows):
        line = lines[first + offset].rstrip()
        if offset < len(shown):
            wanted = "  ".join(shown[offset])
        else:
            wanted = "no gestures yet" if not shown and offset == 0 else ""
        if line != wanted:
            return "gesture row %d is %r, expected %r" % (offset, line, wanted)
    return None


# ---- the run ----------------------------------------------------------------------------------------------------


class Monitor:
    """touchctl monitor --raw: the time each line arrives, to know when the replay started."""

    def __init__(self, socket):
        self.process = subprocess.Popen(
            [TOUCHCTL, "--socket", socket, "monitor", "--raw", "--events", "touch"],
            stdout=subprocess.PIPE, text=True)
        self.arrivals = []
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            message = json.loads(line)
            if "time_us" in message:
                self.arrivals.append(message["time_us"])

    def start(self):
        """The monotonic time of recording time 0. The daemon stamps a replayed event with CLOCK_MONOTONIC as it
        plays it (Python's time.monotonic() reads the same clock), and the first event is at 0."""
        return self.arrivals[0] / 1e6


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    check(False, what)
    return False


def pane(session):
    return tmux("capture-pane", "-p", "-t", session).split("\n")


def prompt_shown(session):
    """The shell waits at its prompt: the last line that is not empty is the bare prompt."""
    lines = [line.strip() for line in pane(session) if line.strip()]
    return bool(lines) and lines[-1] in ("#", "$")


def start_view(session, directory, socket, name, columns=80, rows=24):
    # sh (dash), not bash: it leaves the terminal's modes alone at its prompt, so stty shows what the view left.
    tmux("new-session", "-d", "-s", session, "-x", str(columns), "-y", str(rows), "sh")
    tmux("set-option", "-t", session, "status", "off")
    wait_for(lambda: prompt_shown(session), 5, name + ": the shell is ready")
    command = (
        "stty -a > {d}/{n}.before; {ctl} --socket {s} view 2> {d}/{n}.err; echo EXIT=$?; stty -a > {d}/{n}.after"
    ).format(d=directory, n=name, ctl=TOUCHCTL, s=socket)
    tmux("send-keys", "-t", session, command, "Enter")


def check_restored(session, directory, name, status):
    # The command line itself may wrap so that "EXIT=$?" starts a line: only a number counts.
    ended = re.compile(r"^EXIT=\d+\s*$")
    wait_for(lambda: any(ended.match(line) for line in pane(session)), 5, name + ": the view ended")
    lines = pane(session)
    exit_line = next((line.strip() for line in lines if ended.match(line)), "")
    check(exit_line == "EXIT=%d" % status, "%s: exit status %s (expected %d)%s" % (
        name, exit_line, status, "" if exit_line else ":\n" + "\n".join(lines)))
    wait_for(lambda: os.path.exists(os.path.join(directory, name + ".after")), 5, name + ": stty ran after it")
    time.sleep(0.1)
    check(tmux("display", "-p", "-t", session, "#{alternate_on}").strip() == "0", name + ": alternate screen off")
    check(tmux("display", "-p", "-t", session, "#{cursor_flag}").strip() == "1", name + ": cursor shown")
    # Without the size ("rows 24; columns 80;"), which a resize changes.
    before = re.sub(r"rows \d+; columns \d+;", "", open(os.path.join(directory, name + ".before")).read())
    after = re.sub(r"rows \d+; columns \d+;", "", open(os.path.join(directory, name + ".after")).read())
    check(before == after and " icanon " in " " + after.replace("\n", " "), name + ": stty -a as before the view")
    check(wait_for(lambda: prompt_shown(session), 5, name + ": the prompt"), name + ": the shell prompt is back")
    return open(os.path.join(directory, name + ".err")).read()


def hostile_daemon(server, width, height):
    """On a listening socket: says hello, answers get-scene and subscribe, then says goodbye with an escape
    sequence (OSC 0, a window title) in its message, and closes."""
    connection, _ = server.accept()
    send = lambda value: connection.sendall((json.dumps(value) + "\n").encode())
    send({"type": "hello", "protocol": 1, "server": "stand-in", "devices": [],
          "scene": {"version": 1, "width": width, "height": height, "regions": 0},
          "permissions": {"subscribe": True, "scene": False}})
    stream = connection.makefile("r")
    for _ in range(2):
        request = json.loads(stream.readline())
        reply = {"type": "reply", "id": request.get("id"), "ok": True}
        if request["op"] == "get-scene":
            reply["scene"] = {"version": 1, "size": [width, height], "regions": []}
        send(reply)
    time.sleep(0.5)
    send({"type": "goodbye", "code": "shutdown", "message": "\x1b]0;owned\x07"})
    connection.close()
    server.close()


def main():
    if not os.path.exists(RECORDING):
        # A user's checkout may lack the shared recordings; CI always has them, so there a skip is a failure.
        print("view-test: skipped: %s is missing (set TOUCHD_RECORDINGS)" % RECORDING)
        return 1 if os.environ.get("CI") else 0
    events = expected_events()
    (width, height), region_list = regions()
    directory = tempfile.mkdtemp(prefix="touchd-view-test-")
    socket = os.path.join(directory, "touchd.sock")
    log = open(os.path.join(directory, "daemon.log"), "w")
    daemon = subprocess.Popen(
        [TOUCHD, "run", "--socket", socket, "--scene", SCENE, "--replay", RECORDING, "--speed", str(SPEED),
         "--replay-waits", "2"], stderr=log)
    session = "main"
    monitor = None
    try:
        wait_for(lambda: os.path.exists(socket), 10, "the daemon listens")
        monitor = Monitor(socket)
        time.sleep(0.3)
        start_view(session, directory, socket, "q")
        wait_for(lambda: monitor.arrivals, 10, "the replay started when the view subscribed")
        start = monitor.start()

        def capture_at(t, rows, columns, what):
            delay = start + t / SPEED - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            before = time.monotonic()
            lines = pane(session)
            after = time.monotonic()
            low = (before - start - SLACK) * SPEED
            high = (after - start + SLACK) * SPEED
            times = [low] + [e["t"] for e in events if low <= e["t"] <= high]
            layout = Layout(rows, columns, width, height)
            reasons = []
            for candidate in times:
                fingers, gestures = state_at(events, candidate)
                reason = matches(lines, layout, fingers, gestures, region_list)
                if reason is None:
                    check(True, "%s: the screen at %.3f s of the recording (%d finger(s) at %s)" % (
                        what, candidate, len(fingers), sorted(layout.cell(x, y) for x, y, _ in fingers.values())))
                    return lines
                reasons.append(reason)
            check(False, "%s: no state in %.3f...%.3f s matches: %s\n%s" % (
                what, low, high, reasons[-1], "\n".join(lines)))
            return lines

        lines = capture_at(1.6, 24, 80, "80x24, between touches")
        check(lines[0].startswith("touchctl view: touchd") and "scene 1536x2560" in lines[0], "the header")
        capture_at(2.45, 24, 80, "80x24, two fingers")
        tmux("resize-window", "-t", session, "-x", "120", "-y", "40")
        wait_for(lambda: len(pane(session)[0]) >= 100 or len(pane(session)) >= 40, 3, "the pane is 120x40")
        capture_at(3.3, 40, 120, "120x40 after the resize, between touches")
        capture_at(4.5, 40, 120, "120x40, three fingers")
        tmux("send-keys", "-t", session, "q")
        check_restored(session, directory, "q", 0)

        session = "ctrl-c"
        start_view(session, directory, socket, "ctrl-c")
        wait_for(lambda: pane(session)[0].startswith("touchctl view"), 5, "ctrl-c: the view is up")
        tmux("send-keys", "-t", session, "C-c")
        check_restored(session, directory, "ctrl-c", 0)

        session = "sigterm"
        start_view(session, directory, socket, "sigterm")
        wait_for(lambda: pane(session)[0].startswith("touchctl view"), 5, "sigterm: the view is up")
        shell = tmux("display", "-p", "-t", session, "#{pane_pid}").strip()
        view = subprocess.run(["ps", "-o", "pid=", "--ppid", shell], capture_output=True, text=True).stdout.split()
        check(len(view) == 1, "sigterm: the view is the shell's one child (%s)" % view)
        if len(view) == 1:
            os.kill(int(view[0]), signal.SIGTERM)
            check_restored(session, directory, "sigterm", 128 + signal.SIGTERM)

        session = "daemon-stops"
        start_view(session, directory, socket, "daemon-stops")
        wait_for(lambda: pane(session)[0].startswith("touchctl view"), 5, "daemon-stops: the view is up")
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(10)
        stderr = check_restored(session, directory, "daemon-stops", 69)
        check("goodbye: shutdown" in stderr, "daemon-stops: the goodbye on stderr (%r)" % stderr.strip())

        # A daemon (here a stand-in on another socket) whose goodbye carries terminal control codes: touchctl
        # shows them escaped; the raw bytes would retitle the window.
        hostile = os.path.join(directory, "hostile.sock")
        server = socket_module.socket(socket_module.AF_UNIX, socket_module.SOCK_STREAM)
        server.bind(hostile)
        server.listen(1)
        stand_in = threading.Thread(target=hostile_daemon, args=(server, width, height), daemon=True)
        stand_in.start()
        session = "hostile-goodbye"
        start_view(session, directory, hostile, "hostile-goodbye")
        stderr = check_restored(session, directory, "hostile-goodbye", 69)
        check("\x1b" not in stderr and "\x07" not in stderr and "\\u{1b}]0;owned\\u{7}" in stderr,
              "hostile-goodbye: control codes in the goodbye are shown escaped (%r)" % stderr.strip())
    finally:
        subprocess.run(["tmux", "-L", SERVER, "kill-server"], capture_output=True)
        if monitor:
            monitor.process.kill()
        if daemon.poll() is None:
            daemon.kill()
        daemon.wait()
        if not failures:
            shutil.rmtree(directory, ignore_errors=True)
        else:
            print("view-test: files kept in " + directory)
    print("view-test: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
