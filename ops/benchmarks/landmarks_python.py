#!/usr/bin/env python3
"""The Python side of ops/bench: MediaPipe's own Python API (1.2.2, same engine
and bundles), measured exactly as LandmarkerBenchmark measures Spotter.

usage: landmarks_python.py MODEL_DIR pose|hand ITERATIONS IMAGE...
"""
import importlib.util
import json
import os
import resource
import statistics
import sys
import time
import types


def import_tasks():
    root = os.path.dirname(importlib.util.find_spec("mediapipe").origin)
    for name, sub in [("mediapipe", ""), ("mediapipe.tasks", "tasks"), ("mediapipe.tasks.python", "tasks/python"),
                      ("mediapipe.tasks.python.vision", "tasks/python/vision")]:
        package = types.ModuleType(name)
        package.__path__ = [os.path.join(root, sub)]
        sys.modules[name] = package
    from mediapipe.tasks.python.core import base_options
    from mediapipe.tasks.python.vision import hand_landmarker, pose_landmarker
    from mediapipe.tasks.python.vision.core import image
    return base_options, pose_landmarker, hand_landmarker, image


def main() -> int:
    model_dir, task, iterations, images = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    started = time.perf_counter()
    base, pose_lib, hand_lib, image_lib = import_tasks()
    import_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    if task == "pose":
        options = base.BaseOptions(model_asset_path=os.path.join(model_dir, "pose_landmarker_full.task"))
        landmarker = pose_lib.PoseLandmarker.create_from_options(pose_lib.PoseLandmarkerOptions(base_options=options))
    else:
        options = base.BaseOptions(model_asset_path=os.path.join(model_dir, "hand_landmarker_full.task"))
        landmarker = hand_lib.HandLandmarker.create_from_options(hand_lib.HandLandmarkerOptions(base_options=options))
    load_ms = (time.perf_counter() - started) * 1000
    latencies = {}
    for path in images:
        image = image_lib.Image.create_from_file(path)
        landmarker.detect(image)
        samples = []
        for _ in range(iterations):
            started = time.perf_counter()
            landmarker.detect(image)
            samples.append((time.perf_counter() - started) * 1000)
        latencies[os.path.basename(path)] = statistics.median(samples)
    landmarker.close()
    print(json.dumps({"task": task, "engine_load_ms": import_ms, "landmarker_load_ms": load_ms,
                      "median_latency_ms": latencies,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
