#!/usr/bin/env python3
"""With the asyncio client: counts the fingers each region takes while answering pings at the same time, and
prints the counts as JSON when no touch has come for `--idle` seconds.

    python3 region_counts.py [--socket PATH] [--idle SECONDS]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections import Counter

import touchd


async def keep_pinging(client: touchd.AsyncClient, interval: float) -> None:
    """Requests go out while events stream in; each reply reaches its own request."""
    while True:
        await client.ping(timeout=2)
        await asyncio.sleep(interval)


async def main(socket: str | None, idle: float) -> dict[str, int]:
    async with await touchd.AsyncClient.connect(socket) as client:
        await client.subscribe(["touch"])
        pinging = asyncio.create_task(keep_pinging(client, 0.1))
        fingers: Counter[str] = Counter()
        async for event in client.events(idle_timeout=idle):
            if isinstance(event, touchd.Touch) and event.phase == "down":
                fingers[event.region or "(none)"] += 1
        pinging.cancel()
        return dict(sorted(fingers.items()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--socket", default=None)
    parser.add_argument("--idle", type=float, default=2.0)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.socket, args.idle))))
