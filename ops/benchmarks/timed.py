#!/usr/bin/env python3
"""Runs a command (its standard output discarded) and prints, as one JSON line,
its wall time and the peak RSS of its process tree's largest process.

usage: timed.py COMMAND [ARG...]
"""
import json
import resource
import subprocess
import sys
import time

started = time.perf_counter()
finished = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
seconds = time.perf_counter() - started
if finished.returncode != 0:
    print(f"timed.py: {sys.argv[1]} exited {finished.returncode}", file=sys.stderr)
    sys.exit(finished.returncode)
print(json.dumps({"seconds": seconds, "peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
