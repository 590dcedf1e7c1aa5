#!/usr/bin/env python3
"""Compares two runs of delegate_check (ops/benchmarks/delegate_check.c) on the
same frames: frames with a pose in each, and where both found one, how far
apart their 33 landmarks are (mean and largest, in pixels of a W×H frame).

usage: delegate_compare.py A.tsv B.tsv WIDTH HEIGHT
"""
import json
import math
import sys


def read(path):
    frames = {}
    for line in open(path):
        cells = line.rstrip("\n").split("\t")
        points = [float(value) for value in cells[3:]]
        frames[int(cells[0])] = list(zip(points[0::2], points[1::2]))
    return frames


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    a, b = read(sys.argv[1]), read(sys.argv[2])
    width, height = float(sys.argv[3]), float(sys.argv[4])
    distances = []
    for index in sorted(set(a) & set(b)):
        if a[index] and b[index]:
            distances += [math.hypot((x1 - x2) * width, (y1 - y2) * height) for (x1, y1), (x2, y2) in zip(a[index], b[index])]
    print(json.dumps({
        "frames": len(a), "with_pose": [sum(1 for p in a.values() if p), sum(1 for p in b.values() if p)],
        "landmarks_compared": len(distances),
        "mean_px": round(sum(distances) / len(distances), 2) if distances else None,
        "max_px": round(max(distances), 1) if distances else None,
    }))


main()
