#!/usr/bin/env python3
"""Spotter's accuracy on hand-counted clips of real people.

Runs `spotter analyze CLIP --exercise E --json` on every clip of a set (a
directory with NAME.mp4 files and truth.json, like ../shared/real-dev) — the
real path: decode, landmarks, rules — and compares each report with the hand
count: a clip is right when the rep count is one of the accepted counts (two or
three where the clip starts or ends mid-rep), or, for a hold, when the time held
is within the accepted range. A refusal (a non-zero exit) is wrong.

Prints per clip the expected and the counted reps (or hold), the view found
against the labelled one, the count confidence, the spans left out, the
warnings and the time taken against the clip's length, then the totals for all
clips, the tuning clips and the held-out clips (ops/accuracy/real-held-out.txt,
marked `*`); writes the same as JSON with --json-out.

Faults are compared per clip with `faults_seen` in truth.json (fault codes a
person saw plainly while counting; free text there is ignored): a fault seen is
flagged, missed, or not judged (the report says the view or the landmarks do not
allow it); a fault flagged that the hand count does not list is unconfirmed —
the hand counts list only what was plain to see, so it may be right or wrong.
A fault seen that the exercise's rule has no code for (`spotter rules show`) is
"no rule": said, not counted as missed.

  real_footage.py SPOTTER DIR [--json-out FILE] [--tuning] [--tracks TRACKDIR] [--only NAME,...]

--tuning leaves the held-out clips out entirely (used while choosing
thresholds, so that their results are never seen). --tracks scores landmark
tracks saved earlier (TRACKDIR/NAME.jsonl, made by `spotter landmarks`) instead
of decoding the videos: the same rules on the same landmarks, for quick
iterations; the reported times are then scoring times only.
"""

import argparse
import functools
import json
import os
import re
import subprocess
import sys
import time

FAULT_CODE = re.compile(r"[a-z]+(_[a-z]+)*")
HELD_OUT_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "real-held-out.txt")


def held_out():
    with open(HELD_OUT_FILE) as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def duration_s(spotter, video):
    probe = subprocess.run([spotter, "probe", video, "--json"], capture_output=True, text=True)
    if probe.returncode != 0:
        return None
    return json.loads(probe.stdout).get("duration_ms", 0) / 1000


def analyse(spotter, directory, name, truth, tracks):
    video = os.path.join(directory, name + ".mp4")
    source = ["--landmarks", os.path.join(tracks, name + ".jsonl")] if tracks else [video]
    started = time.monotonic()
    run = subprocess.run([spotter, "analyze", *source, "--exercise", truth["exercise"], "--json"],
                         capture_output=True, text=True)
    seconds = time.monotonic() - started
    result = {"clip": name, "exercise": truth["exercise"], "labelled_view": truth.get("view"),
              "faults_seen": sorted(code for code in truth.get("faults_seen", []) if FAULT_CODE.fullmatch(code)),
              "seconds": round(seconds, 2), "video_seconds": duration_s(spotter, video)}
    if "hold_s" in truth:
        result["expected_hold_s"] = truth["hold_s"]
    else:
        result["expected_reps"] = truth["reps"]
    if run.returncode != 0:
        lines = run.stderr.strip().splitlines()
        result.update(right=False, error=lines[-1] if lines else f"exit {run.returncode}")
        return result
    report = json.loads(run.stdout)
    result.update(view=report.get("view"), count_confidence=report.get("count_confidence"),
                  excluded=report.get("excluded", []), warnings=report.get("warnings", []),
                  faults=sorted({fault["code"] for fault in report.get("faults", [])}))
    if "hold_s" in truth:
        held = (report.get("hold_ms") or 0) / 1000
        low, high = truth["hold_s"]
        result.update(hold_s=round(held, 1), right=low <= held <= high)
    else:
        result.update(reps=report["rep_count"], right=report["rep_count"] in truth["reps"])
    return result


def expected(result):
    if "expected_hold_s" in result:
        low, high = result["expected_hold_s"]
        return f"{low:g}-{high:g} s"
    return "/".join(str(n) for n in result["expected_reps"])


def found(result):
    if "error" in result:
        return "refused"
    return f"{result['hold_s']:g} s" if "hold_s" in result else str(result["reps"])


def print_table(results, held):
    print(f"{'clip':<13}{'exercise':<16}{'expected':>10}{'found':>8}  {'ok':<4}{'view (labelled)':<28}"
          f"{'conf':<8}{'left out':>9}{'time':>14}")
    for r in results:
        mark = "*" if r["clip"] in held else " "
        view = f"{r.get('view') or '-'} ({r['labelled_view']})"
        left_out = sum(span["end_ms"] - span["start_ms"] for span in r.get("excluded", [])) / 1000
        timing = f"{r['seconds']:.1f}/{r['video_seconds'] or 0:.1f} s"
        print(f"{r['clip'] + mark:<13}{r['exercise']:<16}{expected(r):>10}{found(r):>8}  {'yes' if r['right'] else 'NO':<4}"
              f"{view:<28}{r.get('count_confidence') or '-':<8}{left_out:>8.1f}s{timing:>14}")
        for span in r.get("excluded", []):
            print(f"{'':13}left out {span['start_ms'] / 1000:.1f}-{span['end_ms'] / 1000:.1f} s: {span['reason']}")
        for warning in r.get("warnings", []):
            print(f"{'':13}{warning}")
        if "error" in r:
            print(f"{'':13}{r['error']}")
        if r["fault_outcomes"]:
            print(f"{'':13}faults: " + "; ".join(f"{code} {outcome}" for code, outcome in r["fault_outcomes"].items()))


@functools.cache
def rule_faults(spotter, exercise):
    """The fault codes the exercise's rule judges (from `spotter rules show`), read once per exercise."""
    shown = subprocess.run([spotter, "rules", "show", exercise], capture_output=True, text=True)
    if shown.returncode != 0:
        sys.exit(f"real_footage.py: `spotter rules show {exercise}` failed: {shown.stderr.strip()}")
    return frozenset(re.findall(r"^\s*- code: ([a-z_]+)", shown.stdout, re.MULTILINE))


def fault_outcomes(result, judged):
    """Each fault seen by hand or flagged, and what became of it: flagged, missed, not judged, unconfirmed,
    or no rule (a fault seen that the exercise's rule has no code for)."""
    flagged = set(result.get("faults", []))
    unjudged = {code for warning in result.get("warnings", []) for code in [warning.split(": ", 1)[-1].split(" ", 1)[0]]
                if warning.startswith(("not_judged:", "unscorable:")) and code not in flagged}
    seen = set(result["faults_seen"])
    return {code: "unconfirmed" if code not in seen else "flagged" if code in flagged else "no rule" if code not in judged
            else "not judged" if code in unjudged else "missed" for code in sorted(seen | flagged)}


def fault_totals(results):
    """How many faults seen by hand were flagged, missed or not judged, and how many flags the hand counts do not list."""
    counts = {"flagged": 0, "missed": 0, "not judged": 0, "unconfirmed": 0, "no rule": 0}
    for result in results:
        for outcome in result["fault_outcomes"].values():
            counts[outcome] += 1
    return counts


def totals(results, held):
    groups = {"all": results,
              "tuning": [r for r in results if r["clip"] not in held],
              "held-out": [r for r in results if r["clip"] in held]}
    summary = {}
    for group, members in groups.items():
        if members:
            summary[group] = {"right": sum(r["right"] for r in members), "clips": len(members)}
    return summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spotter")
    parser.add_argument("directory")
    parser.add_argument("--json-out")
    parser.add_argument("--tuning", action="store_true")
    parser.add_argument("--tracks")
    parser.add_argument("--only")
    args = parser.parse_args()
    truth_file = os.path.join(args.directory, "truth.json")
    if not os.path.isfile(truth_file):
        sys.exit(f"real_footage.py: {truth_file} is missing: not a real-footage set")
    with open(truth_file) as f:
        truth = json.load(f)
    held = held_out()
    names = sorted(truth)
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    if args.tuning:
        names = [n for n in names if n not in held]
    results = []
    for name in names:
        print(f"analysing {name}", file=sys.stderr)
        result = analyse(args.spotter, args.directory, name, truth[name], args.tracks)
        result["fault_outcomes"] = fault_outcomes(result, rule_faults(args.spotter, truth[name]["exercise"]))
        results.append(result)
    print_table(results, held)
    summary = totals(results, held)
    analysed = sum(r["seconds"] for r in results)
    video = sum(r["video_seconds"] or 0 for r in results)
    print("  ".join(f"{group}: {s['right']}/{s['clips']} right" for group, s in summary.items())
          + f"  time {analysed:.0f} s for {video:.0f} s of video ({video / max(analysed, 1e-9):.2f}x real time)")
    faults = fault_totals(results)
    seen = faults["flagged"] + faults["missed"] + faults["not judged"]
    print(f"faults seen by hand: {faults['flagged']}/{seen} flagged, {faults['missed']} missed, "
          f"{faults['not judged']} not judged from the view; flagged where the hand count lists none: {faults['unconfirmed']}"
          + (f"; seen but no code of the rule: {faults['no rule']}" if faults["no rule"] else ""))
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"clips": results, "totals": summary, "faults": faults, "held_out": sorted(held),
                       "seconds": round(analysed, 1), "video_seconds": round(video, 1)}, f, indent=1)


if __name__ == "__main__":
    main()
