#!/usr/bin/env python3
"""Fetches a hand-counted set of public workout clips, pinned by commit and SHA-256.

A set is a directory with SOURCES.tsv (clip, repository, path, git_blob,
commit, sha256: one public clip each) and truth.json (the hand counts, in
../shared/real-dev's format). Each clip is downloaded from its repository at
the pinned commit, checked against its SHA-256 and written whole to
OUTDIR/CLIP.mp4 (a clip already there with the right digest is kept);
truth.json is copied beside them, so that OUTDIR can be measured with

  ops/bench accuracy --real OUTDIR

  fetch_public_clips.py SET_DIR OUTDIR [--base URL]

--base replaces https://raw.githubusercontent.com (a mirror laid out as
BASE/OWNER/NAME/COMMIT/PATH; file:// URLs work). Needs network access; CI has
none, so these sets are measured by hand and reported in the README.
"""

import argparse
import csv
import hashlib
import os
import shutil
import sys
import tempfile
import urllib.parse
import urllib.request

DEFAULT_BASE = "https://raw.githubusercontent.com"


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch(row, base, outdir):
    target = os.path.join(outdir, row["clip"] + ".mp4")
    if os.path.exists(target) and sha256(target) == row["sha256"]:
        return "kept"
    url = "/".join([base.rstrip("/"), row["repository"], row["commit"], urllib.parse.quote(row["path"])])
    handle, partial = tempfile.mkstemp(dir=outdir, prefix=".partial-")
    try:
        with os.fdopen(handle, "wb") as out, urllib.request.urlopen(url, timeout=60) as response:
            shutil.copyfileobj(response, out)
        got = sha256(partial)
        if got != row["sha256"]:
            raise ValueError(f"{row['clip']}: {url} has SHA-256 {got}, expected {row['sha256']}")
        os.replace(partial, target)
        return "fetched"
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set_dir")
    parser.add_argument("outdir")
    parser.add_argument("--base", default=DEFAULT_BASE)
    args = parser.parse_args()
    sources, truth = (os.path.join(args.set_dir, name) for name in ("SOURCES.tsv", "truth.json"))
    for needed in (sources, truth):
        if not os.path.isfile(needed):
            sys.exit(f"{args.set_dir}: no {os.path.basename(needed)} (a set is a directory with SOURCES.tsv and truth.json)")
    with open(sources, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    missing = {"clip", "repository", "path", "commit", "sha256"} - set(rows[0].keys() if rows else [])
    if missing:
        sys.exit(f"{sources}: no rows, or no column {', '.join(sorted(missing))}")
    os.makedirs(args.outdir, exist_ok=True)
    failures = 0
    for row in rows:
        try:
            print(f"{row['clip']}: {fetch(row, args.base, args.outdir)}")
        except (OSError, ValueError) as error:
            failures += 1
            print(f"{row['clip']}: not fetched: {error}", file=sys.stderr)
    shutil.copyfile(truth, os.path.join(args.outdir, "truth.json"))
    if failures:
        sys.exit(f"{failures} of {len(rows)} clips not fetched")


if __name__ == "__main__":
    main()
