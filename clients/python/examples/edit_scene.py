#!/usr/bin/env python3
"""Scene edits with the blocking client: add a region, change it, read it back, remove it. Needs the scene
permission (root or a member of clients.sceneGroups); otherwise touchd answers permission-denied.

    python3 edit_scene.py [--socket PATH]
"""

from __future__ import annotations

import argparse
import json
import sys

import touchd


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--socket", default=None)
    args = parser.parse_args()
    with touchd.Client(args.socket, timeout=5) as client:
        try:
            version = client.add_region({"id": "banner", "frame": [0, 0, 400, 80], "gestures": ["tap"]})
            print(f"added banner: scene version {version}")
            version = client.update_region("banner", {"frame": [0, 0, 400, 120], "hidden": True})
            banner = next(r for r in client.get_scene()["regions"] if r["id"] == "banner")
            print(f"updated banner (version {version}): {json.dumps(banner, sort_keys=True)}")
            print(f"removed banner: scene version {client.remove_region('banner')}")
            client.remove_region("banner")
        except touchd.NotFound as error:
            print(f"as expected, a second removal fails: {error.message}")
        except touchd.PermissionDenied as error:
            print(f"not allowed: {error.message}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
