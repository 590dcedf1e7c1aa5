#!/usr/bin/env python3
"""Records what MediaPipe's own Python API (mediapipe 1.2.2) finds on the test
photos, for the Swift parity tests (Tests/LandmarkersTests/Expectations).

Each case names the photo, an optional pixel transform that the Swift test
repeats exactly (a quarter turn with numpy.rot90, or a horizontal roll with
numpy.roll), the task options and the running mode, and records every landmark
as MediaPipe returns it. Run through ops/parity/make-expectations.

It also runs the pose landmarker in video mode over every frame of vtest.avi,
decoded to RGB by the ffmpeg tool (the frames Spotter's decoder must match,
checksum for checksum), and records every frame's pose count and checksum and,
every 20th frame, the landmarks (7 significant digits).

usage: landmark_expectations.py --models DIR --photos DIR --out FILE --video-out FILE
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from mediapipe_tasks import import_tasks  # noqa: E402

BUNDLES = ["pose_landmarker_full.task", "hand_landmarker_full.task", "hand_landmarker_lite.task"]

# name, task, bundle, photo, transform, options, mode (image, or video with
# one frame per listed roll in pixels, 40 ms apart)
CASES = [
    ("pose_bus", "pose", "pose_landmarker_full.task", "bus.jpg", None, {}, "image"),
    ("pose_bus_four", "pose", "pose_landmarker_full.task", "bus.jpg", None, {"num_poses": 4}, "image"),
    ("pose_astronaut_masks", "pose", "pose_landmarker_full.task", "astronaut.png", None,
     {"output_segmentation_masks": True}, "image"),
    ("pose_messi", "pose", "pose_landmarker_full.task", "messi5.jpg", None, {}, "image"),
    ("pose_zidane", "pose", "pose_landmarker_full.task", "zidane.jpg", None, {}, "image"),
    ("pose_coffee_nobody", "pose", "pose_landmarker_full.task", "coffee.png", None, {"num_poses": 2}, "image"),
    ("pose_astronaut_upside_down", "pose", "pose_landmarker_full.task", "astronaut.png", {"rot90": 2},
     {"rotation_degrees": 180}, "image"),
    ("pose_bus_video", "pose", "pose_landmarker_full.task", "bus.jpg", None, {"rolls": [0, 6, 12, 18, 24]}, "video"),
    ("hand_messi_full", "hand", "hand_landmarker_full.task", "messi5.jpg", None, {"num_hands": 2}, "image"),
    ("hand_messi_lite", "hand", "hand_landmarker_lite.task", "messi5.jpg", None, {"num_hands": 2}, "image"),
    ("hand_messi_turned", "hand", "hand_landmarker_full.task", "messi5.jpg", {"rot90": 1},
     {"rotation_degrees": 90}, "image"),
    ("hand_messi_video", "hand", "hand_landmarker_full.task", "messi5.jpg", None,
     {"num_hands": 2, "rolls": [0, 4, 8, 12]}, "video"),
]


def landmark_rows(landmarks):
    return [[lm.x, lm.y, lm.z, lm.visibility, lm.presence] for lm in landmarks]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", required=True)
    parser.add_argument("--photos", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--video-out", required=True)
    args = parser.parse_args()
    import numpy as np
    base, pose_lib, hand_lib, image_lib, ipo, modes = import_tasks()

    def sha256(path):
        return hashlib.sha256(open(path, "rb").read()).hexdigest()

    document = {
        "generator": "ops/parity/make-expectations (MediaPipe Python API 1.2.2)",
        "bundles": {b: sha256(os.path.join(args.models, b)) for b in BUNDLES},
        "photos": {},
        "cases": [],
    }
    for name, task, bundle, photo, transform, options, mode in CASES:
        path = os.path.join(args.photos, photo)
        document["photos"][photo] = sha256(path)
        decoded = image_lib.Image.create_from_file(path)
        pixels = np.array(decoded.numpy_view(), copy=True)  # a view would outlive the image
        if transform and "rot90" in transform:
            pixels = np.ascontiguousarray(np.rot90(pixels, transform["rot90"]))
        base_options = base.BaseOptions(model_asset_path=os.path.join(args.models, bundle))
        running_mode = modes.VisionTaskRunningMode.VIDEO if mode == "video" else modes.VisionTaskRunningMode.IMAGE
        task_options = {k: v for k, v in options.items() if k not in ("rotation_degrees", "rolls")}
        if task == "pose":
            landmarker = pose_lib.PoseLandmarker.create_from_options(
                pose_lib.PoseLandmarkerOptions(base_options=base_options, running_mode=running_mode, **task_options))
        else:
            landmarker = hand_lib.HandLandmarker.create_from_options(
                hand_lib.HandLandmarkerOptions(base_options=base_options, running_mode=running_mode, **task_options))
        processing = ipo.ImageProcessingOptions(rotation_degrees=options.get("rotation_degrees", 0))
        frames = []
        for index, roll in enumerate(options.get("rolls", [0])):
            frame = np.ascontiguousarray(np.roll(pixels, roll, axis=1)) if roll else pixels
            image = image_lib.Image(image_lib.ImageFormat.SRGB, frame)
            if mode == "video":
                result = landmarker.detect_for_video(image, index * 40, processing)
            else:
                result = landmarker.detect(image, processing)
            record = {"timestamp_ms": index * 40 if mode == "video" else 0}
            if task == "pose":
                record["poses"] = [{"landmarks": landmark_rows(l), "world": landmark_rows(w)}
                                   for l, w in zip(result.pose_landmarks, result.pose_world_landmarks)]
                if result.segmentation_masks:
                    record["masks"] = []
                    for mask in result.segmentation_masks:
                        values = mask.numpy_view()[:, :, 0].astype(np.float64)
                        record["masks"].append({
                            "width": mask.width, "height": mask.height, "mean": float(values.mean()),
                            "samples": [[x, y, float(values[y, x])] for x, y in
                                        [(0, 0), (mask.width // 2, mask.height // 3), (mask.width // 2, mask.height // 2),
                                         (mask.width - 1, mask.height - 1), (mask.width // 3, mask.height * 2 // 3)]],
                        })
            else:
                record["hands"] = [{"handedness": [{"index": c.index, "score": c.score, "category_name": c.category_name,
                                                    "display_name": c.display_name} for c in categories],
                                    "landmarks": landmark_rows(l), "world": landmark_rows(w)}
                                   for categories, l, w in zip(result.handedness, result.hand_landmarks,
                                                               result.hand_world_landmarks)]
            frames.append(record)
        landmarker.close()
        document["cases"].append({"name": name, "task": task, "bundle": bundle, "photo": photo,
                                  "transform": transform, "options": options, "mode": mode, "frames": frames})
    write_json(document, args.out, indent=1)
    write_json(video_expectations(args, np, base, pose_lib, image_lib, modes), args.video_out, indent=None)
    return 0


def write_json(document, path, indent):
    with open(path + ".partial", "w") as handle:
        json.dump(document, handle, indent=indent, separators=None if indent else (",", ":"))
        handle.write("\n")
    os.replace(path + ".partial", path)


def video_expectations(args, np, base, pose_lib, image_lib, modes):
    """The pose landmarker in video mode over vtest.avi, frame by frame."""
    path = os.path.join(args.photos, "vtest.avi")
    width, height, interval = 768, 576, 100
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24",
                          "-fps_mode", "passthrough", "-"], check=True, capture_output=True).stdout
    frame_bytes = width * height * 3
    bundle = "pose_landmarker_full.task"
    landmarker = pose_lib.PoseLandmarker.create_from_options(pose_lib.PoseLandmarkerOptions(
        base_options=base.BaseOptions(model_asset_path=os.path.join(args.models, bundle)),
        running_mode=modes.VisionTaskRunningMode.VIDEO))
    short = lambda rows: [[None if v is None else float(f"{v:.7g}") for v in row] for row in rows]
    frames = []
    for index in range(len(raw) // frame_bytes):
        data = raw[index * frame_bytes:(index + 1) * frame_bytes]
        pixels = np.frombuffer(data, dtype=np.uint8).reshape(height, width, 3)
        result = landmarker.detect_for_video(image_lib.Image(image_lib.ImageFormat.SRGB, pixels), index * interval)
        # Adler-32 from 0, as ffmpeg's framecrc computes it (zlib's default start is 1).
        frame = {"timestamp_ms": index * interval, "checksum": zlib.adler32(data, 0), "poses": len(result.pose_landmarks)}
        if index % 20 == 0:
            frame["landmarks"] = [{"landmarks": short(landmark_rows(l)), "world": short(landmark_rows(w))}
                                  for l, w in zip(result.pose_landmarks, result.pose_world_landmarks)]
        frames.append(frame)
    landmarker.close()
    return {"generator": "ops/parity/make-expectations (MediaPipe Python API 1.2.2, video mode)",
            "video": "vtest.avi", "bundle": bundle, "width": width, "height": height, "frames": frames}


if __name__ == "__main__":
    sys.exit(main())
