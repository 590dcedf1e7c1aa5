#!/usr/bin/env python3
"""Makes a golden case for `spotter rules test`: the landmark track of a rendered
clip (ops/render-test-videos) as `spotter landmarks` finds it, numbers rounded to
4 decimals (0.06 px, 0.1 mm: far under MediaPipe's own noise) so that the file
stays small, and beside it NAME.expected.json: the clip's true rep count (or the
true hold, ±10 %) from its truth file, and the fault counts and warnings the
rules give today — to be read and agreed with before committing.

usage: ops/rules/golden_case.py SPOTTER CLIP.mp4 EXERCISE NAME [RULES_DIR]
"""
import json
import pathlib
import subprocess
import sys
import tempfile


def rounded(value):
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, list):
        return [rounded(item) for item in value]
    if isinstance(value, dict):
        return {key: rounded(item) for key, item in value.items()}
    return value


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    spotter, clip, exercise, name = sys.argv[1:5]
    rules = pathlib.Path(sys.argv[5] if len(sys.argv) == 6 else pathlib.Path(__file__).resolve().parents[2] / "Rules")
    truth = json.loads(pathlib.Path(clip).with_suffix(".truth.json").read_text())
    if truth["exercise"] != exercise:
        sys.exit(f"{clip} is a {truth['exercise']} clip, not {exercise}")
    out = rules / "tests" / exercise
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        raw = pathlib.Path(work) / "track.jsonl"
        subprocess.run([spotter, "landmarks", clip, "--out", str(raw)], check=True, stderr=subprocess.DEVNULL)
        lines = raw.read_text().splitlines()
    header = json.loads(lines[0])
    header["source"] = f"ops/render-test-videos: {pathlib.Path(clip).name}"
    track = out / f"{name}.jsonl"
    with track.open("w") as file:
        file.write(json.dumps(header, separators=(",", ":")) + "\n")
        for line in lines[1:]:
            file.write(json.dumps(rounded(json.loads(line)), separators=(",", ":")) + "\n")
    report = json.loads(subprocess.run(
        [spotter, "analyze", "--landmarks", str(track), "--exercise", exercise, "--json", "--rules-dir", str(rules)],
        check=True, capture_output=True, text=True).stdout)
    if report.get("hold_ms") is not None:
        faults = {}
        for fault in report["faults"]:
            faults[fault["code"]] = faults.get(fault["code"], 0) + 1
    else:
        faults = {}
        for rep in report["reps"]:
            for code in set(rep["faults"]):
                faults[code] = faults.get(code, 0) + 1
    expected = {"clip": pathlib.Path(clip).name, "reps": truth["rep_count"], "faults": faults, "warnings": report["warnings"]}
    if "hold_ms" in truth:
        expected["hold_ms"] = [int(truth["hold_ms"] * 0.9), int(truth["hold_ms"] * 1.1)]
    (out / f"{name}.expected.json").write_text(json.dumps(expected, indent=2) + "\n")
    found = report["rep_count"] if report.get("hold_ms") is None else report["hold_ms"]
    print(f"{track}: {track.stat().st_size // 1024} KiB; truth {truth['rep_count']} reps"
          f"{', held ' + str(truth['hold_ms']) + ' ms' if 'hold_ms' in truth else ''}; the rules find {found}; "
          f"faults {faults or 'none'}; {len(report['warnings'])} warning(s)")


main()
