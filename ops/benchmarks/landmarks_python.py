#!/usr/bin/env python3
"""The Python side of ops/bench: MediaPipe's own Python API (1.2.2, same engine
and bundles), measured exactly as LandmarkerBenchmark measures Spotter.

usage: landmarks_python.py MODEL_DIR pose|hand ITERATIONS IMAGE...
"""
import json
import os
import resource
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from mediapipe_tasks import import_tasks  # noqa: E402


def main() -> int:
    model_dir, task, iterations, images = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    started = time.perf_counter()
    base, pose_lib, hand_lib, image_lib, _, _ = import_tasks()
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
