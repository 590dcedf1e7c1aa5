#!/usr/bin/env python3
"""Compares two landmark tracks (spotter.landmarks/v1) of the same video: the
frames with a pose in each, and where both found one, how far apart their 33
image landmarks are (mean and largest, in pixels of the track's frame); with
hands in both, the frames with a hand in each.

usage: track_compare.py A.jsonl B.jsonl
"""
import json
import math
import sys


def read(path):
    with open(path) as lines:
        header = json.loads(next(lines))
        frames = {}
        for line in lines:
            frame = json.loads(line)
            frames[frame["t_ms"]] = frame
    return header, frames


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    (header, a), (_, b) = read(sys.argv[1]), read(sys.argv[2])
    width, height = header["width"], header["height"]
    common = sorted(set(a) & set(b))
    distances = []
    for t in common:
        pa, pb = a[t].get("poses") or [], b[t].get("poses") or []
        if pa and pb:
            distances += [math.hypot((p[0] - q[0]) * width, (p[1] - q[1]) * height)
                          for p, q in zip(pa[0]["landmarks"], pb[0]["landmarks"])]
    posed = lambda frames: sum(1 for t in common if frames[t].get("poses"))
    handed = lambda frames: sum(1 for t in common if frames[t].get("hands"))
    summary = {
        "frames": [len(a), len(b)], "common": len(common),
        "with_pose": [posed(a), posed(b)], "with_hands": [handed(a), handed(b)],
        "mean_px": round(sum(distances) / len(distances), 2) if distances else None,
        "max_px": round(max(distances), 1) if distances else None,
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
