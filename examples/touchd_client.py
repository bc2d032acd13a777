#!/usr/bin/env python3
"""A touchd client in plain Python 3 (standard library only): connects to the socket, prints the hello,
subscribes, and prints every event line it receives.

    python3 examples/touchd_client.py [--socket PATH] [--events touch,gesture] [--regions a,b]
                                      [--until-idle SECONDS] [--count N]

Each line touchd sends is one JSON object (docs/protocol.md). This program shows the whole protocol loop:
read the hello, send a request with an id, match the reply by id, then read events until told to stop.

For a program of your own, start from the installable package in clients/python (`pip install clients/python`:
typed events, one exception per error code, timeouts, reconnect). This file stays a single file that needs no
install, to show the bare protocol and to run anywhere a python3 is (the daemon tests run it so).
"""
import argparse
import json
import os
import socket
import sys


def not_json(constant):
    """Python's json reads NaN and Infinity; JSON has no such values, and touchd never sends them."""
    raise ValueError("%s is not JSON" % constant)


def read_object(line):
    """One line from touchd as a JSON object; a line that is not one ends the program with a message."""
    try:
        message = json.loads(line, parse_constant=not_json)
    except ValueError as error:  # also JSONDecodeError and UnicodeDecodeError
        sys.exit("touchd sent a line that is not JSON (%s): %r" % (error, line[:80]))
    if not isinstance(message, dict):
        sys.exit("touchd sent a line that is not a JSON object: %r" % line[:80])
    return message


def terminal_safe(text):
    """JSON escapes C0 controls but may carry C1 controls (U+0080-U+009F) and DEL raw inside strings; some
    terminals act on them. As \\u escapes the line means the same JSON."""
    return "".join("\\u%04x" % ord(c) if ord(c) == 0x7F or 0x80 <= ord(c) <= 0x9F else c for c in text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--socket", default=os.environ.get("TOUCHD_SOCKET", "/run/touchd/touchd.sock"))
    parser.add_argument("--events", default="", help="comma-separated kinds: touch, gesture, frame, region, device, scene")
    parser.add_argument("--regions", default="", help="comma-separated region ids")
    parser.add_argument("--count", type=int, default=0, help="stop after this many event lines")
    parser.add_argument("--until-idle", type=float, default=0, help="stop after this many seconds without a line")
    args = parser.parse_args()

    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(args.socket)
    stream = connection.makefile("rwb")

    hello = read_object(stream.readline())
    if hello.get("type") != "hello":
        sys.exit("touchd refused: %s" % hello)
    print(json.dumps(hello), file=sys.stderr)

    request = {"op": "subscribe", "id": 1}
    if args.events:
        request["events"] = args.events.split(",")
    if args.regions:
        request["regions"] = args.regions.split(",")
    stream.write((json.dumps(request) + "\n").encode())
    stream.flush()

    if args.until_idle:
        connection.settimeout(args.until_idle)
    received = 0
    try:
        while True:
            line = stream.readline()
            if not line:
                break
            message = read_object(line)
            if message.get("type") == "reply":
                if message.get("id") == 1 and not message.get("ok"):
                    sys.exit("subscribe failed: %s" % message.get("error"))
                continue
            sys.stdout.write(terminal_safe(line.decode()))
            received += 1
            if args.count and received >= args.count:
                break
    except (socket.timeout, TimeoutError):
        pass
    sys.stdout.flush()
    print("received %d lines" % received, file=sys.stderr)


if __name__ == "__main__":
    main()
