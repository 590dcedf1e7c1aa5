#!/usr/bin/env python3
"""Renders a synthetic person doing an exercise, filmed from a chosen angle, with its ground truth.

There are no real workout videos to test with, so this draws one: a mannequin
built from rounded cones and ellipsoids (skin-coloured face with eyes, nose,
ears and hair, a blue shirt, dark shorts, white shoes, fingers) exercising in
a room with a wooden floor, a plaster wall, a door and a framed poster, lit by
a key light with cast shadows, fill and ambient light. The realistic look is
deliberate: MediaPipe's pose detector did not reliably find a plain grey figure
on a plain background, whereas it finds this one.

The exercises (exercises.py), with their key angle at rest → at each rep's
turn by default: squat (knee 175° → 85°); pushup (elbow 170° → 80°);
bicep_curl (both arms, elbow 165° → 40°); lunge (split squats, the left leg in
front, front knee 165° → 90°); overhead_press (elbow 75° at the shoulders →
170° overhead); jumping_jack (arms against the torso, shoulder→hip against
shoulder→wrist, 15° → 165°); deadlift (a barbell from near the floor to
lockout, hip 70° → 170°); plank (on the forearms: kneeling → plank, held
--hold seconds, → kneeling). Each rep takes 2 s, from the rest angle to the
turn (--bottom-angle: the squat's or push-up's bottom, the curl's top, the
press's or deadlift's lockout, the jack's arms up) and back along a cosine,
with 1 s still before the first rep and after the last. The key angle,
measured on the left side's joints, is exact by construction.

The view is where the camera stands: `side` (at the person's left, 90° from
where they face), `front` (facing them) or `three-quarter` (45° between, in
front of their left). A standing person is filmed from 3.2 m away at chest
height; a lying one from 1–1.5 m up, 2.9–3.4 m away, looking down (camera()).

The ground truth (--truth, JSON) gives the clip's exercise, view, fps, size,
frame count and duration; for reps, the key angle at rest (`rest_elbow_angle`,
`rest_knee_angle`, `rest_arm_angle`, `rest_hip_angle`; the squat's is
`standing_knee_angle`), `rep_count` and per rep its index, when it starts,
turns (`bottom_ms`, whatever the turn is) and ends (ms from the start of the
video) and the key angle at the turn (`bottom_knee_angle`,
`bottom_elbow_angle`, `top_elbow_angle`, `lockout_elbow_angle`,
`top_arm_angle`, `lockout_hip_angle`; squats add `bottom_torso_lean`, lunges
`bottom_back_knee_angle`, and `variant` and `front_leg` for the whole clip);
for the plank, rep_count 0, no reps, and `hold_start_ms`, `hold_end_ms`,
`hold_ms`, `hold_body_angle` (shoulder→ankle from horizontal) and
`hold_hip_angle`. `rep_count` is the number of movements drawn, whether or
not a rules engine should count them as reps (a 135° dip is no squat).

Rendering is a numpy ray caster (scene.py; numpy is the only dependency);
frames are piped as raw RGB to the ffmpeg command, which encodes H.264
(yuv420p) MP4. The output is deterministic: the textures come from fixed seeds,
nothing else is random, and the encoder runs on one thread (the same numpy and
ffmpeg on the same kind of CPU give the same bytes). Output files appear whole
or not at all.

usage: mannequin.py --out clip.mp4 [--truth clip.truth.json] [--exercise squat]
                    [--view side|front|three-quarter] [--reps 4] [--bottom-angle DEG]
                    [--hold 7] [--fps 15] [--width 640 --height 480]
"""

import argparse
import json
import math
import os
import signal
import subprocess
import sys
import tempfile

import numpy as np

from exercises import EXERCISES, Hold, Reps, milliseconds
from figure import body, yawed
from scene import Camera, Scene

VERTICAL_FOV = 50.0  # degrees
# How far the person is turned from facing across the image (+X) towards the camera (-Z), degrees.
VIEWS = {"side": 0.0, "three-quarter": 45.0, "front": 90.0}
# Where the camera stands in front of (or at 45° to) a person lying on the
# floor: its height and distance, and the height it looks at. Push-ups are
# filmed from higher up, where MediaPipe sees the elbows bend; planks from low,
# since MediaPipe's world landmarks tilt with the camera and the body's line
# must read level.
LYING_FRONT_CAMERAS = {"pushup": (1.5, 2.9, 0.25), "plank": (1.0, 3.4, 0.3)}


def camera(exercise, view, width, height):
    """The camera: at chest height 3.2 m away for a standing person; for a
    lying one, higher up and looking down at the body."""
    if not exercise.lying:
        eye, target = (0.0, 1.0, -3.2), (0.0, 1.0, 0.0)
    elif view == "side":
        eye, target = (0.0, 1.1, -3.0), (0.0, 0.35, 0.0)
    else:
        eye_height, distance, look_at = LYING_FRONT_CAMERAS[exercise.name]
        eye, target = (0.0, eye_height, -distance), (0.0, look_at, 0.0)
    return Camera(eye, target, width, height, VERTICAL_FOV)


def footprint(J, yaw):
    """The darkening on the floor under the person at rest: the centre and spread
    of the joints near the floor, in the person's frame, and the person's yaw."""
    low = np.array([v for k, v in J.items() if k.endswith(("ankle", "heel", "toe", "knee", "wrist", "elbow"))
                    and isinstance(v, np.ndarray) and v[1] < 0.3])
    centre, half = (low.max(0) + low.min(0)) / 2, (low.max(0) - low.min(0)) / 2
    return centre[0], centre[2], 0.04 + 3 * half[0] ** 2, 0.04 + 3 * half[2] ** 2, yaw


def write_atomically(path, write):
    """Calls write(temporary path) for a hidden file beside `path`, then renames it to `path`."""
    directory, name = os.path.split(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix="." + name + ".", suffix=os.path.splitext(name)[1], dir=directory)
    os.close(fd)
    try:
        write(temporary)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as open() would have made it, not mkstemp's 0600
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def encode(args, scene, motion, yaw, frames, path):
    """Renders the frames and pipes them to ffmpeg, which writes the MP4 at `path`."""
    # One encoder thread, so that the bytes do not depend on the number of cores.
    ffmpeg = subprocess.Popen(
        ["ffmpeg", "-nostdin", "-y", "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgb24",
         "-s", f"{args.width}x{args.height}", "-r", str(args.fps), "-i", "-",
         "-c:v", "libx264", "-pix_fmt", "yuv420p", "-threads", "1", "-f", "mp4", path], stdin=subprocess.PIPE)
    try:
        for k in range(frames):
            ffmpeg.stdin.write(scene.render(body(yawed(motion.pose_at(k / args.fps), yaw))).tobytes())
    finally:
        ffmpeg.stdin.close()
        status = ffmpeg.wait()
    if status != 0:
        raise RuntimeError(f"ffmpeg exited with status {status}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the MP4 to write")
    parser.add_argument("--truth", help="the ground truth JSON to write")
    parser.add_argument("--exercise", choices=list(EXERCISES), default="squat")
    parser.add_argument("--view", choices=list(VIEWS), default="side", help="where the camera stands")
    parser.add_argument("--reps", type=int, default=4, help="how many reps (not for the plank)")
    parser.add_argument("--bottom-angle", type=float,
                        help="the key angle at each rep's turn, degrees (default: the exercise's; not for the plank)")
    parser.add_argument("--hold", type=float, default=7.0, help="how long the plank is held, seconds")
    parser.add_argument("--fps", type=int, default=15)
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=480)
    args = parser.parse_args()
    exercise = EXERCISES[args.exercise]()
    if exercise.name == "plank":
        if not 1 <= args.hold <= 60:
            parser.error("--hold must be in [1, 60] seconds")
        motion = Hold(exercise, args.hold)
    else:
        turn = exercise.turn if args.bottom_angle is None else args.bottom_angle
        low, high = exercise.turn_range
        if args.reps < 0 or not low <= turn <= high:
            parser.error(f"--reps must be ≥ 0 and --bottom-angle in [{low:g}, {high:g}] for {exercise.name}"
                         f" (at rest {exercise.rest:g})")
        motion = Reps(exercise, args.reps, turn)
    if args.fps <= 0 or args.width < 64 or args.height < 64 or args.width % 2 or args.height % 2:
        parser.error("--fps must be positive, --width and --height even and at least 64 (yuv420p)")
    frames = int(round(motion.duration() * args.fps))
    yaw = math.radians(VIEWS[args.view])
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))  # clean up when stopped
    scene = Scene(camera(exercise, args.view, args.width, args.height), footprint(motion.pose_at(0.0), yaw))
    write_atomically(args.out, lambda path: encode(args, scene, motion, yaw, frames, path))
    if args.truth:
        truth = {"exercise": exercise.name, "view": args.view, "fps": args.fps, "width": args.width,
                 "height": args.height, "frames": frames, "duration_ms": milliseconds(frames / args.fps)}
        truth.update(motion.truth())

        def dump(path):
            with open(path, "w") as sink:
                json.dump(truth, sink, indent=1)
                sink.write("\n")
        write_atomically(args.truth, dump)
    return 0


if __name__ == "__main__":
    sys.exit(main())
