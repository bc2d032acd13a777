#!/usr/bin/env python3
"""Client churn against one looping replay: clients connect, subscribe with random selections and filters,
unsubscribe, resubscribe, read slowly (a few hundred bytes at a time: their queues coalesce, compact and overflow),
pipeline requests, never read, and close at random moments (some with a reset, unread bytes pending), for a while.
Checks that the daemon neither crashes nor stalls (a fresh client's ping is answered at the end; SIGTERM exits 0)
and samples its resident memory once a second: memory that keeps growing is a leak.

    churn.py --touchd TOUCHD --recording FILE --scene SCENE [--seconds S] [--pool N] [--seed N] [--queue-bytes N]"""
import argparse
import json
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

FIELDS = [None, [], ["region"], ["dx", "dy"], ["vx"], ["raw_x", "raw_y", "pressure"], ["taps", "since_down_us"],
          ["device", "slot", "region", "local_x", "local_y", "prev_x", "prev_y", "dx", "dy", "scale", "rotation"]]
EVENTS = ["touch", "gesture", "frame", "region", "device", "scene"]


def subscribe(rng, ident, regions):
    request = {"op": "subscribe", "id": ident}
    fields = rng.choice(FIELDS)
    if fields is not None:
        request["fields"] = fields
    if rng.random() < 0.3:
        request["events"] = rng.sample(EVENTS, rng.randint(1, 3))
    if rng.random() < 0.2 and regions:
        request["regions"] = rng.sample(regions, 1)
    if rng.random() < 0.1:
        request["devices"] = [rng.choice(["replay0", "event99"])]
    return request


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--touchd", required=True)
    parser.add_argument("--recording", required=True)
    parser.add_argument("--scene", required=True)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--pool", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--speed", type=float, default=20)
    parser.add_argument("--queue-bytes", type=int, default=8192)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    regions = [r["id"] for r in json.load(open(args.scene)).get("regions", []) if "id" in r]
    directory = tempfile.mkdtemp(prefix="churn-")
    sock_path = os.path.join(directory, "s.sock")
    config = os.path.join(directory, "touchd.json")
    json.dump({"clients": {"queueBytes": args.queue_bytes, "max": args.pool + 8, "reserved": 4}}, open(config, "w"))
    log_path = os.path.join(directory, "daemon.log")
    log = open(log_path, "w")
    daemon = subprocess.Popen([args.touchd, "run", "--socket", sock_path, "--config", config, "--replay",
                               args.recording, "--loop", "--speed", str(args.speed), "--scene", args.scene,
                               "--log-level", "info"], stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.time() + 10
    while "listening on" not in open(log_path).read():
        if daemon.poll() is not None or time.time() > deadline:
            print("FAIL: daemon did not start:", open(log_path).read()[-2000:])
            sys.exit(1)
        time.sleep(0.02)
    clients = []  # (socket, behaviour)
    stats = {"connected": 0, "closed": 0, "reset": 0, "requests": 0, "bytes": 0, "refused": 0}
    samples = []
    start = time.time()
    next_sample = start
    serial = 0
    failures = []
    while time.time() - start < args.seconds:
        if daemon.poll() is not None:
            failures.append(f"daemon exited with {daemon.returncode} after {time.time() - start:.1f} s")
            break
        now = time.time()
        if now >= next_sample:
            samples.append((round(now - start, 1), rss_kib(daemon.pid)))
            next_sample += 1
        # Connect up to the pool.
        while len(clients) < args.pool:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            behaviour = rng.choice(["reader", "reader", "slow", "slow", "never", "pipeline"])
            if behaviour == "never":
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            try:
                s.connect(sock_path)
            except OSError:
                stats["refused"] += 1
                s.close()
                break
            s.setblocking(False)
            serial += 1
            payload = json.dumps(subscribe(rng, f"s{serial}", regions)) + "\n"
            if behaviour == "pipeline":
                payload = "".join(json.dumps({"op": "ping", "id": i}) + "\n" for i in range(rng.randint(1, 500)))
                payload += json.dumps(subscribe(rng, f"s{serial}", regions)) + "\n"
                payload += json.dumps({"op": "unsubscribe", "id": "u"}) + "\n"
                payload += json.dumps(subscribe(rng, f"s{serial}b", regions)) + "\n"
            try:
                s.sendall(payload.encode())
                stats["requests"] += payload.count("\n")
            except OSError:
                pass
            clients.append([s, behaviour])
            stats["connected"] += 1
        # Read.
        for client in list(clients):
            s, behaviour = client
            if behaviour == "never":
                continue
            try:
                data = s.recv(rng.choice([64, 300, 4096]) if behaviour == "slow" else 1 << 16)
                stats["bytes"] += len(data)
                if not data:
                    s.close()
                    clients.remove(client)
                    stats["closed"] += 1
                    continue
            except BlockingIOError:
                pass
            except OSError:
                s.close()
                clients.remove(client)
                continue
            if rng.random() < 0.02:
                request = subscribe(rng, "r", regions) if rng.random() < 0.7 else {"op": "unsubscribe", "id": "u"}
                try:
                    s.send((json.dumps(request) + "\n").encode())
                    stats["requests"] += 1
                except OSError:
                    pass
        # Close some.
        if clients and rng.random() < 0.3:
            client = rng.choice(clients)
            clients.remove(client)
            if rng.random() < 0.5:
                client[0].setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                stats["reset"] += 1
            elif rng.random() < 0.5:
                try:
                    client[0].shutdown(socket.SHUT_WR)
                except OSError:
                    pass
            client[0].close()
            stats["closed"] += 1
        time.sleep(0.005)
    # A fresh client must still be answered.
    alive = False
    if daemon.poll() is None:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(10)
            s.connect(sock_path)
            s.sendall(b'{"op":"ping","id":"last"}\n')
            buffer = b""
            while b'"id":"last"' not in buffer:
                data = s.recv(65536)
                if not data:
                    break
                buffer += data
            alive = b'"id":"last"' in buffer
            s.close()
        except OSError as error:
            failures.append(f"final ping: {error}")
        if not alive:
            failures.append("the final ping got no reply")
    for s, _ in clients:
        s.close()
    if daemon.poll() is None:
        daemon.send_signal(signal.SIGTERM)
        try:
            status = daemon.wait(timeout=20)
        except subprocess.TimeoutExpired:
            daemon.kill()
            status = "hung"
        if status != 0:
            failures.append(f"daemon exit status {status}")
    log.close()
    text = open(log_path).read()
    overflowed = text.count("overflowed")
    print(f"stats {stats}, overflow disconnects {overflowed}")
    if samples:
        quarter = max(1, len(samples) // 4)
        print(f"RSS KiB: first {samples[0][1]}, at 1/4 {samples[quarter][1]}, last {samples[-1][1]}, "
              f"max {max(v for _, v in samples)}")
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        print(text[-3000:])
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
