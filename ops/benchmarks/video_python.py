#!/usr/bin/env python3
"""The Python side of `ops/bench video`: the pipeline a team would write in
Python — OpenCV decodes the video, MediaPipe's own Python API (1.2.2, the same
engine and bundles as Spotter) runs the pose landmarker, and with `hands` the
hand landmarker, in VIDEO mode on every frame, each frame scaled like Spotter's
(long side at most 1280 pixels).

usage: video_python.py MODEL_DIR VIDEO pose|hands
Prints one JSON line: frames, frames with a pose, seconds (decode + landmarks,
after the landmarkers are loaded), frames/s, the seconds spent in the
landmarkers' detect calls alone (the engine's inference: `ops/bench video`'s
bound) and peak RSS.
"""
import json
import os
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from mediapipe_tasks import import_tasks  # noqa: E402

import cv2  # noqa: E402


def main() -> int:
    model_dir, video, task = sys.argv[1], sys.argv[2], sys.argv[3]
    base, pose_lib, hand_lib, image_lib, _, running = import_tasks()
    pose = pose_lib.PoseLandmarker.create_from_options(pose_lib.PoseLandmarkerOptions(
        base_options=base.BaseOptions(model_asset_path=os.path.join(model_dir, "pose_landmarker_full.task")),
        running_mode=running.VisionTaskRunningMode.VIDEO))
    hands = None
    if task == "hands":
        hands = hand_lib.HandLandmarker.create_from_options(hand_lib.HandLandmarkerOptions(
            base_options=base.BaseOptions(model_asset_path=os.path.join(model_dir, "hand_landmarker_full.task")),
            running_mode=running.VisionTaskRunningMode.VIDEO, num_hands=2))
    capture = cv2.VideoCapture(video)
    if not capture.isOpened():
        print(f"video_python: cannot open {video}", file=sys.stderr)
        return 66
    frames = with_pose = 0
    last_ms = -1
    inference = 0.0
    started = time.perf_counter()
    while True:
        ok, bgr = capture.read()
        if not ok:
            break
        height, width = bgr.shape[:2]
        if max(width, height) > 1280:
            scale = 1280 / max(width, height)
            bgr = cv2.resize(bgr, (round(width * scale) // 2 * 2, round(height * scale) // 2 * 2), interpolation=cv2.INTER_AREA)
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        image = image_lib.Image(image_format=image_lib.ImageFormat.SRGB, data=rgb)
        timestamp = max(last_ms + 1, int(capture.get(cv2.CAP_PROP_POS_MSEC)))
        last_ms = timestamp
        detecting = time.perf_counter()
        found = pose.detect_for_video(image, timestamp).pose_landmarks
        if hands is not None:
            hands.detect_for_video(image, timestamp)
        inference += time.perf_counter() - detecting
        with_pose += bool(found)
        frames += 1
    seconds = time.perf_counter() - started
    pose.close()
    if hands is not None:
        hands.close()
    print(json.dumps({"frames": frames, "frames_with_pose": with_pose, "seconds": seconds, "fps": frames / seconds,
                      "inference_seconds": inference,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
