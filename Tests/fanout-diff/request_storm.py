#!/usr/bin/env python3
"""Clients that pipeline thousands of requests (pings, subscribes with changing fields, unsubscribes, get-scene,
in-place and whole-scene edits, transient regions) while a looping replay feeds subscribers, some of which never
read, half-close or hang up. Checks that touchd neither crashes nor stalls: every request of a reading client gets
exactly one reply, in order, within the timeout; a reader that subscribed keeps getting events; SIGTERM ends the
daemon with status 0.

    request_storm.py --touchd TOUCHD --recording FILE --scene SCENE [--clients N] [--requests N] [--seconds S]"""
import argparse
import json
import os
import random
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time


def requests_for(rng, name, count, region_ids):
    out = []
    for index in range(count):
        kind = rng.choice(["ping"] * 6 + ["subscribe", "unsubscribe", "get-scene", "update", "add", "remove", "devices"])
        request = {"op": kind, "id": f"{name}-{index}"}
        if kind == "subscribe":
            choice = rng.choice([None, [], ["region"], ["dx", "dy"], ["vx"], ["raw_x", "raw_y", "pressure"]])
            if choice is not None:
                request["fields"] = choice
            if rng.random() < 0.3:
                request["events"] = rng.sample(["touch", "gesture", "frame", "region", "device", "scene"], 2)
        elif kind == "update":
            request = {"op": "update-region", "id": request["id"], "region": rng.choice(region_ids),
                       "set": {"frame": [rng.randint(0, 600), rng.randint(0, 400), 300.5, 200.25]}}
        elif kind == "add":
            request = {"op": "add-region", "id": request["id"], "transient": True,
                       "region": {"id": f"t-{name}-{index % 3}", "frame": [rng.randint(0, 900), 0, 100, 100],
                                  "gestures": ["tap"]}}
        elif kind == "remove":
            request = {"op": "remove-region", "id": request["id"], "region": f"t-{name}-{rng.randint(0, 2)}"}
        out.append(request)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--touchd", required=True)
    parser.add_argument("--recording", required=True)
    parser.add_argument("--scene", required=True)
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--queue-bytes", type=int, default=65536)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    region_ids = [r["id"] for r in json.load(open(args.scene))["regions"]]
    directory = tempfile.mkdtemp(prefix="storm-")
    path = os.path.join(directory, "s.sock")
    config = os.path.join(directory, "touchd.json")
    with open(config, "w") as f:
        json.dump({"clients": {"queueBytes": args.queue_bytes, "max": 64}}, f)
    log_path = os.path.join(directory, "daemon.log")
    daemon = subprocess.Popen(
        [args.touchd, "run", "--socket", path, "--config", config, "--replay", args.recording, "--scene", args.scene,
         "--loop", "--speed", "4", "--log-level", "info"],
        stdout=subprocess.DEVNULL, stderr=open(log_path, "w"))
    failures = []
    try:
        deadline = time.time() + 10
        while "listening on" not in open(log_path).read():
            if daemon.poll() is not None or time.time() > deadline:
                raise RuntimeError("daemon did not start: " + open(log_path).read())
            time.sleep(0.02)
        selector = selectors.DefaultSelector()
        clients = []
        for index in range(args.clients):
            role = ["reader", "reader", "reader", "never-reads", "half-closes", "hangs-up"][index % 6]
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(5)
            sock.connect(path)
            name = f"c{index}"
            requests = [{"op": "subscribe", "id": f"{name}-sub"}] + requests_for(rng, name, args.requests, region_ids)
            payload = b"".join((json.dumps(r) + "\n").encode() for r in requests)
            client = {"name": name, "role": role, "sock": sock, "ids": [r["id"] for r in requests], "replies": [],
                      "buffer": b"", "events": 0, "payload": payload, "sent": 0, "closed": False}
            sock.setblocking(False)
            clients.append(client)
            selector.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE, client)
        end = time.time() + args.seconds
        while time.time() < end:
            for key, mask in selector.select(timeout=0.2):
                client = key.data
                if mask & selectors.EVENT_WRITE and client["sent"] < len(client["payload"]):
                    try:
                        client["sent"] += client["sock"].send(client["payload"][client["sent"]:client["sent"] + 65536])
                    except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                        pass
                    if client["sent"] >= len(client["payload"]):
                        if client["role"] == "half-closes":
                            client["sock"].shutdown(socket.SHUT_WR)
                        selector.modify(client["sock"], selectors.EVENT_READ, client)
                if client["role"] == "never-reads":
                    if client["sent"] >= len(client["payload"]):
                        selector.unregister(client["sock"])
                    continue
                if mask & selectors.EVENT_READ:
                    try:
                        data = client["sock"].recv(1 << 16)
                    except BlockingIOError:
                        continue
                    except ConnectionResetError:
                        data = b""
                    if not data:
                        client["closed"] = True
                        selector.unregister(client["sock"])
                        continue
                    client["buffer"] += data
                    *lines, client["buffer"] = client["buffer"].split(b"\n")
                    for line in lines:
                        message = json.loads(line)
                        if message.get("type") == "reply":
                            client["replies"].append(message.get("id"))
                        elif message.get("type") not in ("hello", "goodbye"):
                            client["events"] += 1
                    if client["role"] == "hangs-up" and len(client["replies"]) > args.requests // 3:
                        client["sock"].close()
                        client["closed"] = True
                        selector.unregister(client["sock"])
            if daemon.poll() is not None:
                failures.append(f"daemon exited during the storm with status {daemon.returncode}")
                break
        for client in clients:
            if client["role"] in ("reader", "half-closes"):
                if client["replies"] != client["ids"]:
                    got = client["replies"]
                    first = next((i for i, (a, b) in enumerate(zip(got, client["ids"])) if a != b), len(got))
                    failures.append(f"{client['name']} ({client['role']}): {len(got)} of {len(client['ids'])} replies"
                                    f" in order (first missing or out of order at {first}: {got[first:first + 2]})")
        print("clients: " + ", ".join(f"{c['name']} {c['role']} replies {len(c['replies'])} events {c['events']}"
                                      for c in clients))
        daemon.send_signal(signal.SIGTERM)
        status = daemon.wait(timeout=10)
        if status != 0:
            failures.append(f"daemon exit status {status} after SIGTERM")
    except subprocess.TimeoutExpired:
        failures.append("daemon hung after SIGTERM")
        daemon.kill()
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
    log = open(log_path).read()
    for line in log.splitlines():
        if "error" in line or "fatal" in line.lower():
            print("log:", line[:300])
    shutil.rmtree(directory, ignore_errors=True)
    for failure in failures:
        print("FAIL", failure)
    print(f"{len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
