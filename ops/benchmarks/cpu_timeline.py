#!/usr/bin/env python3
"""Runs a command and samples its CPU use (all threads, from /proc) every
50 ms; prints when it first kept most of the cores busy, when it fell back, and
how the wall time splits into start, busy and finish.

usage: cpu_timeline.py COMMAND ARGS...   (its output goes where it would)
"""
import os
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count() or 1


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def main():
    start = time.monotonic()
    child = subprocess.Popen(sys.argv[1:])
    samples = []  # (seconds since start, cores busy over the last interval)
    last_time, last_cpu = start, 0.0
    while child.poll() is None:
        time.sleep(0.05)
        try:
            cpu = cpu_seconds(child.pid)
        except (FileNotFoundError, ProcessLookupError, IndexError):
            break
        now = time.monotonic()
        samples.append((now - start, (cpu - last_cpu) / max(1e-6, now - last_time)))
        last_time, last_cpu = now, cpu
    child.wait()
    wall = time.monotonic() - start
    half = CORES / 2
    busy = [t for t, cores in samples if cores >= half]
    first, last = (busy[0], busy[-1]) if busy else (wall, wall)
    # Cores busy on average in each tenth of the run.
    tenths = []
    for index in range(10):
        inside = [c for t, c in samples if index * wall / 10 <= t < (index + 1) * wall / 10]
        tenths.append(sum(inside) / max(1, len(inside)))
    print(f"timeline: wall {wall:.2f} s, {CORES} cores; at least {half:g} busy from {first:.2f} s to {last:.2f} s; "
          f"start {first:.2f} s, finish {wall - last:.2f} s; cores busy by tenths: "
          + " ".join(f"{c:.1f}" for c in tenths), file=sys.stderr)
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()
