#!/usr/bin/env python3
"""Checks a landmark track of a rendered clip against the clip's ground truth.

For a clip rendered by ops/render/mannequin.py, run `spotter landmarks CLIP.mp4
--out CLIP.jsonl` and then this with the track and CLIP.truth.json. It prints
the share of frames with a pose (and with hands, when they were looked for),
then the exercise's key angle measured on MediaPipe's world landmarks against
the truth: at rest (the median over the still frames before the first rep and
after the last) and, per rep, the extreme within the rep's span, when it came
and how it compares with the true angle at the turn. A rep is `seen` when the
measured angle goes at least half of the true way from rest to the turn and
comes back at least half way at the rep's ends. For a plank: the body's line
(shoulder→ankle from horizontal) during the hold and while kneeling.

Exit status 0 when a pose is found in at least 90% of the frames and every rep
is seen (the plank: the line during the hold is under 30° and over it while
kneeling), 1 otherwise. --json prints the summary as JSON instead. Needs only
the Python standard library.

usage: check_track.py CLIP.jsonl CLIP.truth.json [--json]
"""

import argparse
import json
import math
import statistics
import sys

NAMES = {"shoulder": 11, "elbow": 13, "wrist": 15, "hip": 23, "knee": 25, "ankle": 27}
MIN_POSE_SHARE = 0.9


def point(world, side, name):
    return world[NAMES[name] + (0 if side == "left" else 1)]


def angle(a, b, c):
    """The angle a-b-c at b, degrees, of three landmarks."""
    u = [a[i] - b[i] for i in range(3)]
    v = [c[i] - b[i] for i in range(3)]
    nu, nv = math.hypot(*u), math.hypot(*v)
    if nu == 0 or nv == 0:
        return None
    return math.degrees(math.acos(max(-1.0, min(1.0, sum(x * y for x, y in zip(u, v)) / (nu * nv)))))


def between(world, side):
    """The arm against the torso: shoulder→hip against shoulder→wrist."""
    s, h, w = (point(world, side, n) for n in ("shoulder", "hip", "wrist"))
    return angle(h, s, w)


def body_line(world, side):
    """Shoulder→ankle from horizontal (MediaPipe's world Y points down)."""
    s, a = point(world, side, "shoulder"), point(world, side, "ankle")
    return math.degrees(math.atan2(abs(s[1] - a[1]), math.hypot(s[0] - a[0], s[2] - a[2])))


# Per exercise: the key angle of one side, and which side: `visible` (the side
# MediaPipe sees better over the clip), `front` (the truth's front leg) or the
# `mean` of both.
KEY = {
    "squat": (lambda w, s: angle(*(point(w, s, n) for n in ("hip", "knee", "ankle"))), "visible"),
    "lunge": (lambda w, s: angle(*(point(w, s, n) for n in ("hip", "knee", "ankle"))), "front"),
    "pushup": (lambda w, s: angle(*(point(w, s, n) for n in ("shoulder", "elbow", "wrist"))), "visible"),
    "bicep_curl": (lambda w, s: angle(*(point(w, s, n) for n in ("shoulder", "elbow", "wrist"))), "visible"),
    "overhead_press": (lambda w, s: angle(*(point(w, s, n) for n in ("shoulder", "elbow", "wrist"))), "visible"),
    "jumping_jack": (between, "mean"),
    "deadlift": (lambda w, s: angle(*(point(w, s, n) for n in ("shoulder", "hip", "knee"))), "visible"),
    "plank": (body_line, "visible"),
}


def read_track(path):
    """(t_ms, world landmarks or None, hands found or None) per frame."""
    frames = []
    with open(path) as source:
        next(source)  # the header
        for line in source:
            frame = json.loads(line)
            poses = frame.get("poses") or []
            hands = frame.get("hands")
            frames.append((frame["t_ms"], poses[0]["world"] if poses else None,
                           None if hands is None else len(hands)))
    return frames


def series(frames, exercise, truth):
    """The key angle per frame (None without a pose), and the side used."""
    measure, combine = KEY[exercise]
    sides = ("left", "right")
    if combine == "mean":
        return [(t, statistics.mean([measure(w, s) for s in sides]) if w else None) for t, w, _ in frames], combine
    if combine == "front":
        side = truth["front_leg"]
    else:
        seen = {s: sum(w[NAMES["knee" if exercise == "squat" else "elbow"] + k][3] for _, w, _ in frames if w)
                for k, s in enumerate(sides)}
        side = max(sides, key=lambda s: seen[s])
    return [(t, measure(w, side) if w else None) for t, w, _ in frames], side


def check(track, truth):
    frames = read_track(track)
    exercise = truth["exercise"]
    values, side = series(frames, exercise, truth)
    with_pose = sum(1 for _, w, _ in frames if w)
    summary = {"clip": track, "exercise": exercise, "view": truth["view"], "frames": len(frames),
               "truth_frames": truth["frames"], "pose_share": round(with_pose / max(len(frames), 1), 3),
               "side": side}
    hands = [h for _, _, h in frames if h is not None]
    if hands:
        summary["two_hands_share"] = round(sum(1 for h in hands if h >= 2) / len(frames), 3)
        summary["any_hand_share"] = round(sum(1 for h in hands if h >= 1) / len(frames), 3)
    ok = with_pose >= MIN_POSE_SHARE * len(frames)

    def within(lo, hi):
        return [(t, v) for t, v in values if lo <= t <= hi and v is not None]

    if exercise == "plank":
        held = [v for _, v in within(truth["hold_start_ms"] + 300, truth["hold_end_ms"] - 300)]
        kneeling = [v for t, v in values if v is not None and (t < 1000 or t > truth["duration_ms"] - 1000)]
        summary["hold"] = {"true_body_angle": truth["hold_body_angle"],
                           "measured_median": round(statistics.median(held), 1) if held else None,
                           "measured_range": [round(min(held), 1), round(max(held), 1)] if held else None,
                           "kneeling_median": round(statistics.median(kneeling), 1) if kneeling else None}
        ok = ok and bool(held) and max(held) < 30 and bool(kneeling) and statistics.median(kneeling) > 30
        summary["ok"] = ok
        return summary

    reps = truth["reps"]
    turn_field = next(k for k in reps[0] if k.endswith("_angle")) if reps else None
    rest_field = next(k for k in truth if k.startswith(("rest_", "standing_")))
    true_rest = truth[rest_field]
    still = [v for t, v in values if v is not None and (t < reps[0]["start_ms"] - 100 or t > reps[-1]["end_ms"] + 100)]
    rest = statistics.median(still) if still else None
    summary["rest"] = {"true": true_rest, "measured": round(rest, 1) if rest is not None else None}
    summary["reps"] = []
    for rep in reps:
        true_turn = rep[turn_field]
        down = true_turn < true_rest
        span = within(rep["start_ms"], rep["end_ms"])
        if not span or rest is None:
            summary["reps"].append({"index": rep["index"], "seen": False})
            ok = False
            continue
        t_turn, extreme = (min if down else max)(span, key=lambda tv: tv[1])
        ends = within(rep["start_ms"] - 100, rep["start_ms"] + 100) + within(rep["end_ms"] - 100, rep["end_ms"] + 100)
        excursion = true_turn - true_rest
        reached = (extreme - rest) / excursion
        returned = all((v - rest) / excursion < 0.5 for _, v in ends)
        seen = reached >= 0.5 and returned
        ok = ok and seen
        summary["reps"].append({"index": rep["index"], "true_turn": true_turn, "measured_turn": round(extreme, 1),
                                "turn_ms": t_turn, "true_turn_ms": rep["bottom_ms"], "seen": seen})
    summary["ok"] = ok
    return summary


def line(summary):
    """The summary on one line."""
    text = (f"{summary['exercise']}/{summary['view']}: pose {100 * summary['pose_share']:.0f}% of "
            f"{summary['frames']} frames")
    if "any_hand_share" in summary:
        text += f", hands {100 * summary['any_hand_share']:.0f}% (both {100 * summary['two_hands_share']:.0f}%)"
    if "hold" in summary:
        h = summary["hold"]
        text += (f"; body line held {h['measured_median']}° (range {h['measured_range']}, true "
                 f"{h['true_body_angle']}°), kneeling {h['kneeling_median']}°")
    else:
        r = summary["rest"]
        turns = [x.get("measured_turn") for x in summary["reps"]]
        true = summary["reps"][0].get("true_turn") if summary["reps"] else None
        lags = [x["turn_ms"] - x["true_turn_ms"] for x in summary["reps"] if "turn_ms" in x]
        text += (f"; {summary['side']}: rest {r['measured']}° (true {r['true']}°), turns {turns} (true {true}°), "
                 f"turn times off by {lags} ms, seen {sum(1 for x in summary['reps'] if x['seen'])}/"
                 f"{len(summary['reps'])}")
    return text + ("" if summary["ok"] else "  ** FAIL **")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("track", help="the landmark track (spotter landmarks --out)")
    parser.add_argument("truth", help="the clip's NAME.truth.json")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args()
    with open(args.truth) as source:
        truth = json.load(source)
    summary = check(args.track, truth)
    print(json.dumps(summary) if args.json else line(summary))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
