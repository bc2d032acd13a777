#!/usr/bin/env python3
"""Many clients of one replaying daemon at once, each with its own subscription, compared with what the same
subscription receives alone and with what another touchd binary sends the same clients.

    fanout_diff.py --new TOUCHD [--base TOUCHD] --recording FILE --scene SCENE [--speed N] [--queue-bytes N]
                   [--solo] [--keep DIR] [--config-extra JSON]

For each binary it starts `touchd run --replay FILE --replay-waits K` on a Unix socket in a temporary directory,
connects the clients of CLIENTS (all subscribed before the replay starts), reads every one of them with one
selector loop until the replay is over and the daemon has been quiet a while, then stops the daemon with SIGTERM
and reads each client to its end. Checks, each printed as FAIL with the client's name:
- the daemon exits 0 (a crash is a status above 128), within the timeouts;
- every reading client gets every event line (no goodbye before the shutdown one, no coalescing: its queue never
  fills while it reads), the one that never reads is closed for overflow, the one that closes early gets a prefix;
- with --base: each client's event lines equal those of the same client under the base binary;
- with --solo: each reading client's event lines equal those of its subscription as the daemon's only client.
Times: a replayed event is stamped with CLOCK_MONOTONIC from the replay's start, so `time_us` is compared as the
offset from the client's first line; within one run every client's absolute times must be among the whole-line
client's. Exit status 1 when any check fails."""
import argparse
import json
import os
import re
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

TOUCH_KEYS = [
    "device", "slot", "region", "local_x", "local_y", "prev_x", "prev_y", "dx", "dy", "since_down_us", "taps",
    "raw_x", "raw_y", "pressure", "touch_major", "touch_minor", "width_major", "width_minor", "orientation",
    "distance", "tool",
]
GESTURE_KEYS = ["taps", "dx", "dy", "vx", "vy", "direction", "scale", "rotation"]

# name -> (subscribe request without op and id, behaviour). Behaviours: read (everything), never-read (subscribes,
# then never reads a byte), close-after:N (reads N event lines, then closes), pipeline:N (N pings before and after its
# subscribe in one write, then reads everything).
CLIENTS = {
    # First: the first taker of a selection holds the line the others copy, so these hold it while they overflow
    # or close.
    "never-reads": ({}, "never-read"),
    "never-reads-core": ({"fields": []}, "never-read"),
    "closes-early": ({}, "close-after:150"),
    "closes-early-core": ({"fields": []}, "close-after:40"),
    "never-reads-pad-dx": ({"regions": ["pad"], "fields": ["dx", "dy"]}, "never-read"),
    "whole": ({}, "read"),
    "whole-again": ({}, "read"),
    "core": ({"fields": []}, "read"),
    "core-again": ({"fields": []}, "read"),
    "region": ({"fields": ["region"]}, "read"),
    "vx": ({"fields": ["vx"]}, "read"),
    "every-field": ({"fields": TOUCH_KEYS + GESTURE_KEYS}, "read"),
    "every-touch-field": ({"fields": TOUCH_KEYS}, "read"),
    "core-names": ({"fields": ["type", "x", "time_us"]}, "read"),
    "raw": ({"events": ["touch"], "fields": ["raw_x", "raw_y"]}, "read"),
    "dxdy": ({"fields": ["dx", "dy", "since_down_us"]}, "read"),
    "dydx": ({"fields": ["since_down_us", "dy", "dx"]}, "read"),
    "gesture-frame": ({"events": ["gesture", "frame"]}, "read"),
    "gesture-fields": ({"events": ["gesture"], "fields": ["dx", "dy", "scale", "rotation", "vx"]}, "read"),
    "region-events": ({"events": ["region"]}, "read"),
    "pad": ({"regions": ["pad"]}, "read"),
    "pad-dx": ({"regions": ["pad"], "fields": ["dx", "dy"]}, "read"),
    "pad-unassigned-dx": ({"regions": ["pad"], "unassigned": True, "fields": ["dx", "dy"]}, "read"),
    "pinchy-core": ({"regions": ["pinchy"], "fields": []}, "read"),
    "device": ({"devices": ["replay0"], "fields": ["device", "slot"]}, "read"),
    "no-device": ({"devices": ["event99"]}, "read"),
    "touch-whole": ({"events": ["touch"]}, "read"),
    "pipeline": ({"fields": ["region", "dx"]}, "pipeline:3000"),
    "pipeline-whole": ({}, "pipeline:2000"),
}

NOT_EVENTS = {"hello", "reply", "goodbye"}


class Client:
    def __init__(self, name, subscription, behaviour):
        self.name = name
        self.subscription = subscription
        self.behaviour = behaviour
        self.sock = None
        self.buffer = b""
        self.lines = []
        self.closed_by_peer = False
        self.closed_by_us = False
        self.error = None

    @property
    def reads(self):
        return self.behaviour != "never-read"

    def connect(self, path, timeout):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if self.behaviour == "never-read":
            # A small receive buffer, so that the daemon's queue is what fills.
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        request = dict(self.subscription)
        request["op"] = "subscribe"
        request["id"] = self.name
        payload = (json.dumps(request) + "\n").encode()
        if self.behaviour.startswith("pipeline:"):
            count = int(self.behaviour.split(":")[1])
            pings = b"".join(b'{"op":"ping","id":%d}\n' % i for i in range(count))
            more = b"".join(b'{"op":"ping","id":%d}\n' % (count + i) for i in range(count))
            payload = pings + payload + more
        if self.behaviour == "never-read":
            self.sock.sendall(payload)
            return
        # The hello, then the subscribe's reply (after the pipelined pings' replies).
        self.sock.sendall(payload)
        deadline = time.time() + timeout
        while not any(l.get("type") == "reply" and l.get("id") == self.name for l in self.parsed()):
            if time.time() > deadline:
                raise RuntimeError(f"{self.name}: no reply to subscribe")
            self.receive(block=True)

    def parsed(self):
        return [json.loads(l) for l in self.lines]

    def receive(self, block=False):
        try:
            data = self.sock.recv(1 << 16)
        except BlockingIOError:
            return True
        except (ConnectionResetError, BrokenPipeError) as error:
            self.error = str(error)
            data = b""
        if not data:
            self.closed_by_peer = True
            return False
        self.buffer += data
        *complete, self.buffer = self.buffer.split(b"\n")
        self.lines += [c.decode() for c in complete]
        if self.behaviour.startswith("close-after:"):
            limit = int(self.behaviour.split(":")[1])
            if len(self.events()) >= limit:
                self.sock.close()
                self.closed_by_us = True
                return False
        return True

    def events(self):
        return [l for l in self.lines if json.loads(l).get("type") not in NOT_EVENTS]

    def goodbyes(self):
        return [json.loads(l) for l in self.lines if json.loads(l).get("type") == "goodbye"]


def normalized(lines):
    """time_us as the offset from the first line's: the replay's clock starts anywhere."""
    first = None
    out = []
    for line in lines:
        match = re.search(r'"time_us":(-?\d+)', line)
        if match:
            value = int(match.group(1))
            if first is None:
                first = value
            line = line.replace(match.group(0), f'"time_us":+{value - first}')
        out.append(line)
    return out


def run(binary, names, args, workdir):
    """One daemon with the named clients; returns (clients, daemon exit status, log)."""
    directory = tempfile.mkdtemp(prefix="fanout-", dir=workdir)
    sock_path = os.path.join(directory, "s.sock")
    config = os.path.join(directory, "touchd.json")
    with open(config, "w") as f:
        settings = {"clients": {"queueBytes": args.queue_bytes, "max": 64, "reserved": 4}}
        if args.drop_unassigned:
            settings["dropUnassigned"] = True
        if args.config_extra:
            settings.update(json.loads(args.config_extra))
        json.dump(settings, f)
    log_path = os.path.join(directory, "daemon.log")
    log = open(log_path, "w")
    command = [
        binary, "run", "--socket", sock_path, "--config", config, "--replay", args.recording,
        *(["--scene", args.scene] if args.scene != "none" else []), "--replay-waits", str(len(names)), "--speed", str(args.speed), "--log-level", "debug",
    ]
    daemon = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = time.time() + 10
        while "listening on" not in open(log_path).read():
            if daemon.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"daemon did not start: {open(log_path).read()}")
            time.sleep(0.02)
        clients = [Client(n, *CLIENTS[n]) for n in names]
        for client in clients:
            client.connect(sock_path, timeout=10)
            client.sock.setblocking(False)
        selector = selectors.DefaultSelector()
        for client in clients:
            if client.reads:
                selector.register(client.sock, selectors.EVENT_READ, client)
        # Until the replay is over (its length at this speed, and a margin) and nothing came for a second.
        end = time.time() + args.duration / args.speed + 2
        last = time.time()
        while time.time() < end or time.time() - last < 1:
            if time.time() > end + 30:
                raise RuntimeError("the daemon never went quiet")
            for key, _ in selector.select(timeout=0.2):
                last = time.time()
                if not key.data.receive():
                    selector.unregister(key.fileobj)
        daemon.send_signal(signal.SIGTERM)
        stop = time.time() + 10
        while selector.get_map() and time.time() < stop:
            for key, _ in selector.select(timeout=0.2):
                if not key.data.receive():
                    selector.unregister(key.fileobj)
        status = daemon.wait(timeout=10)
    except subprocess.TimeoutExpired:
        daemon.kill()
        status = "hung (killed after SIGTERM)"
        clients = locals().get("clients", [])
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
    log.close()
    text = open(log_path).read()
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        side = "new" if binary == args.new else "base"
        shutil.copy(log_path, os.path.join(args.keep, f"{side}-{'-'.join(names) if len(names) == 1 else len(names)}.log"))
    shutil.rmtree(directory, ignore_errors=True)
    for client in clients:
        if client.sock and not client.closed_by_us:
            client.sock.close()
    return clients, status, text


def check_run(label, clients, status, log, failures, queue_bytes):
    def fail(message):
        failures.append(f"{label}: {message}")
        print(f"FAIL {label}: {message}", flush=True)

    if status != 0:
        fail(f"daemon exit status {status}")
    whole = next((c for c in clients if c.name == "whole"), None)
    whole_times = set(re.findall(r'"time_us":(-?\d+)', "\n".join(whole.events()))) if whole else None
    for client in clients:
        goodbyes = [g.get("code") for g in client.goodbyes()]
        if client.behaviour == "never-read":
            # Only a stream well past the socket's buffer (about 200 kB) and the queue must overflow (a never-reader's
            # share is at most the whole stream, coalesced moves aside: judged for the whole-line one alone).
            if client.subscription != {} or whole is None or sum(
                len(l) + 1 for l in whole.events()) < 2 * queue_bytes + 400_000:
                continue
            number = clients.index(client) + 1
            if f"client {number} disconnected: did not read: its queue" not in log:
                fail(f"{client.name}: no overflow was logged for client {number}")
            continue
        if client.behaviour.startswith("close-after:"):
            continue
        if goodbyes != ["shutdown"]:
            fail(f"{client.name}: goodbyes {goodbyes}, expected one shutdown")
        if client.error:
            fail(f"{client.name}: {client.error}")
        if client.buffer:
            fail(f"{client.name}: a partial line at the end: {client.buffer[:80]!r}")
        if client.behaviour.startswith("pipeline:"):
            count = 2 * int(client.behaviour.split(":")[1])
            pongs = [l for l in client.parsed() if l.get("type") == "reply" and isinstance(l.get("id"), int)]
            if [p["id"] for p in pongs] != list(range(count)) or not all(p.get("pong") for p in pongs):
                fail(f"{client.name}: {len(pongs)} pongs of {count}, or out of order")
        if whole_times is not None:
            stray = set(re.findall(r'"time_us":(-?\d+)', "\n".join(client.events()))) - whole_times
            if stray:
                fail(f"{client.name}: times the whole-line client never saw: {sorted(stray)[:3]}")
    # Clients are numbered from 1 in the order they connected.
    readers = {str(i + 1) for i, c in enumerate(clients) if c.reads}
    slow = [l for l in log.splitlines() if re.search(r"client (\d+) is slow", l)
            and re.search(r"client (\d+) is slow", l).group(1) in readers]
    if slow:
        fail("a reading client was coalesced (the comparison would not hold): " + ", ".join(slow)[:300])


def compare(label, expected, got, failures, prefix=False):
    a, b = normalized(expected), normalized(got)
    if prefix:
        b = b[: len(a)] if len(b) >= len(a) else b
        a = a[: len(b)]
    if a != b:
        index = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        detail = f"{len(a)} vs {len(b)} lines; first difference at {index}:\n    {a[index] if index < len(a) else '<end>'}\n    {b[index] if index < len(b) else '<end>'}"
        failures.append(f"{label}: {detail}")
        print(f"FAIL {label}: {detail}", flush=True)
        return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--new", required=True)
    parser.add_argument("--base")
    parser.add_argument("--recording", required=True)
    parser.add_argument("--scene", required=True, help="a scene file, or none for the daemon's empty scene")
    parser.add_argument("--drop-unassigned", action="store_true", help="the configuration's dropUnassigned")
    parser.add_argument("--config-extra", help="JSON object merged into the daemons' configuration (device rules)")
    parser.add_argument("--speed", type=float, default=1)
    parser.add_argument("--duration", type=float, default=None, help="the recording's length in s (default: asks describe)")
    parser.add_argument("--queue-bytes", type=int, default=65536)
    parser.add_argument("--solo", action="store_true")
    parser.add_argument("--only", help="comma-separated client names (default: all)")
    parser.add_argument("--keep", help="a directory for the daemons' logs")
    args = parser.parse_args()
    if args.duration is None:
        described = subprocess.run([args.new, "describe", args.recording], capture_output=True, text=True).stdout
        args.duration = float(re.search(r"duration: ([\d.]+) s", described).group(1))
    names = args.only.split(",") if args.only else list(CLIENTS)
    failures = []
    started = time.time()
    new_clients, status, log = run(args.new, names, args, tempfile.gettempdir())
    check_run("new, all clients", new_clients, status, log, failures, args.queue_bytes)
    by_name = {c.name: c for c in new_clients}
    summary = ", ".join(f"{c.name} {len(c.events())}" for c in new_clients)
    print(f"new binary, {len(names)} clients: event lines {summary}", flush=True)
    whole = by_name.get("whole")
    for client in new_clients:
        if client.behaviour.startswith("close-after:") and whole and client.subscription == {}:
            compare(f"{client.name} is a prefix of whole", whole.events(), client.events(), failures, prefix=True)
    if "whole" in by_name and "whole-again" in by_name:
        compare("whole-again = whole", by_name["whole"].events(), by_name["whole-again"].events(), failures)
    if "every-field" in by_name and "whole" in by_name:
        compare("every-field = whole", by_name["whole"].events(), by_name["every-field"].events(), failures)
    if "core" in by_name and "core-again" in by_name:
        compare("core-again = core", by_name["core"].events(), by_name["core-again"].events(), failures)
    if args.base:
        base_clients, base_status, base_log = run(args.base, names, args, tempfile.gettempdir())
        check_run("base, all clients", base_clients, base_status, base_log, failures, args.queue_bytes)
        for old, new in zip(base_clients, new_clients):
            if old.behaviour == "never-read":
                continue
            compare(f"{new.name}: new vs base", old.events(), new.events(), failures,
                    prefix=old.behaviour.startswith("close-after:"))
    if args.solo:
        for client in new_clients:
            if client.behaviour != "read":
                continue
            solo, solo_status, solo_log = run(args.new, [client.name], args, tempfile.gettempdir())
            check_run(f"{client.name} alone", solo, solo_status, solo_log, failures, args.queue_bytes)
            compare(f"{client.name}: among all vs alone", solo[0].events(), client.events(), failures)
    print(f"{len(failures)} failures in {time.time() - started:.0f} s", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
