#!/usr/bin/env python3
"""Prints touchd's events, one line each, with the blocking client; reconnects when touchd restarts.

    python3 monitor.py [--socket PATH] [--events touch,gesture] [--regions a,b] [--count N] [--idle SECONDS]
"""

from __future__ import annotations

import argparse

import touchd


def describe(event: touchd.Event) -> str:
    match event:
        case touchd.Touch(phase=phase, finger=finger, region=region, x=x, y=y):
            return f"{phase:<6} finger {finger:<3} {region or '-':<12} {x:8.2f} {y:8.2f}"
        case touchd.Gesture(region=region, gesture=name, state=state, fingers=fingers):
            return f"gesture {name} {state} in {region} ({fingers} finger(s))"
        case touchd.Reconnected(hello=hello, attempts=attempts):
            return f"reconnected to {hello.server} after {attempts} attempt(s): touches in progress were lost"
        case touchd.SceneChanged(source=source, scene=scene):
            return f"scene version {scene.version} ({scene.regions} regions) by {source}"
        case _:
            return repr(event)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--socket", default=None, help="default: $TOUCHD_SOCKET or /run/touchd/touchd.sock")
    parser.add_argument("--events", default="touch,gesture", help="kinds: touch, gesture, frame, region, device, scene")
    parser.add_argument("--regions", default="", help="region ids (default: all)")
    parser.add_argument("--count", type=int, default=0, help="stop after this many events")
    parser.add_argument("--idle", type=float, default=None, help="stop after this many seconds without an event")
    args = parser.parse_args()

    retry = touchd.Backoff(initial=0.1, maximum=5.0, jitter=0.2, attempts=None)  # wait for touchd for ever
    with touchd.Client(args.socket, reconnect=retry) as client:
        print(f"connected to {client.hello.server}: {len(client.hello.devices)} device(s)", flush=True)
        client.subscribe(args.events.split(","), regions=[r for r in args.regions.split(",") if r])
        for received, event in enumerate(client.events(idle_timeout=args.idle), start=1):
            print(describe(event), flush=True)
            if received == args.count:
                break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
