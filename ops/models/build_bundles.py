#!/usr/bin/env python3
"""Builds the MediaPipe Tasks bundles Spotter loads (pose and hand landmarkers).

The raw TFLite graphs shipped in mediapipe 0.10.21 carry no metadata, and the
Tasks API refuses a float image input without NormalizationOptions. This script
adds that metadata with the metadata writer of mediapipe 0.10.21, imported from
the unpacked wheel without running the package's __init__ (which would need
OpenCV and the legacy solutions); the writer loads two small extension modules
of that wheel, so this runs on CPython 3.11. Each pair of graphs is packed into
a `.task` bundle: a zip archive whose members are stored, not deflated, and
start on 64-byte boundaries so that TFLite maps them in place.

Every graph is checked against its SHA-256 below before it is used; the
bundles are written atomically, with their SHA-256 in SHA256SUMS beside them.

usage: build_bundles.py --wheel-dir DIR --flatbuffers-dir DIR --out DIR
       build_bundles.py --check DIR   (exit 0 when DIR holds the pinned bundles)
"""

import argparse
import hashlib
import os
import sys
import tempfile
import time
import types
import zipfile

# The graphs of mediapipe 0.10.21 under mediapipe/modules, pinned by SHA-256,
# with the input normalization each expects: the pose detector takes [-1, 1]
# (mean 127.5, std 127.5), the others [0, 1] (mean 0, std 255).
GRAPHS = {
    "pose_detection/pose_detection.tflite":
        ("9ba9dd3d42efaaba86b4ff0122b06f29c4122e756b329d89dca1e297fd8f866c", 127.5, 127.5),
    "pose_landmark/pose_landmark_full.tflite":
        ("e9a5c5cb17f736fafd4c2ec1da3b3d331d6edbe8a0d32395855aeb2cdfd64b9f", 0.0, 255.0),
    "palm_detection/palm_detection_full.tflite":
        ("1b14e9422c6ad006cde6581a46c8b90dd573c07ab7f3934b5589e7cea3f89a54", 0.0, 255.0),
    "palm_detection/palm_detection_lite.tflite":
        ("e9a4aaddf90dda56a87235303cf00e4c2d3fb28725f68fd88772997dac905c18", 0.0, 255.0),
    "hand_landmark/hand_landmark_full.tflite":
        ("11c272b891e1a99ab034208e23937a8008388cf11ed2a9d776ed3d01d0ba00e3", 0.0, 255.0),
    "hand_landmark/hand_landmark_lite.tflite":
        ("048edd3645c9bf7397d19a9f6e3a42957d6e414c9bea6598030a2e9b624156e6", 0.0, 255.0),
}

# The bundles this script makes from the inputs above, byte for byte.
BUNDLE_SHA256 = {
    "pose_landmarker_full.task": "a0cf652adaf0c7d11ac14d95f70e08c2db1d0685a5027772336a99859c1c5d69",
    "hand_landmarker_full.task": "03313cf637d54fc16f89b2403a7cb31d2b55b96a08c917e3ac3d7f1c9eb71527",
    "hand_landmarker_lite.task": "7d2c6969c3ccf0861fd59fae0ea5ca99a566eeb13fc7e3d63f02667e9ed8037d",
}

# Each bundle: its members, named as the Tasks API looks them up, and their graphs.
BUNDLES = {
    "pose_landmarker_full.task": [
        ("pose_detector.tflite", "pose_detection/pose_detection.tflite"),
        ("pose_landmarks_detector.tflite", "pose_landmark/pose_landmark_full.tflite"),
    ],
    "hand_landmarker_full.task": [
        ("hand_detector.tflite", "palm_detection/palm_detection_full.tflite"),
        ("hand_landmarks_detector.tflite", "hand_landmark/hand_landmark_full.tflite"),
    ],
    "hand_landmarker_lite.task": [
        ("hand_detector.tflite", "palm_detection/palm_detection_lite.tflite"),
        ("hand_landmarks_detector.tflite", "hand_landmark/hand_landmark_lite.tflite"),
    ],
}

# Members start at multiples of this many bytes, so that TFLite can map the
# graphs in place (their buffers are aligned relative to the graph's start).
MEMBER_ALIGNMENT = 64
# The "zipalign" extra-field id: padding that readers skip.
ALIGNMENT_EXTRA_ID = 0xD935

# A fixed timestamp keeps the bundles byte-for-byte reproducible: the bundle's
# own members get it, and so do the label files that the metadata populator
# re-archives inside the hand graphs (zipfile stamps those with the clock).
ZIP_DATE = (2025, 1, 1, 0, 0, 0)
zipfile.time = types.SimpleNamespace(
    time=time.time, localtime=lambda *_: time.struct_time(ZIP_DATE + (2, 1, -1)))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def import_metadata_writer(wheel_dir: str, flatbuffers_dir: str):
    """Imports the metadata writer without executing mediapipe/__init__.py."""
    sys.path.insert(0, flatbuffers_dir)
    for name, sub in [("mediapipe", ""), ("mediapipe.tasks", "tasks"),
                      ("mediapipe.tasks.python", "tasks/python")]:
        package = types.ModuleType(name)
        package.__path__ = [os.path.join(wheel_dir, "mediapipe", sub)]
        sys.modules[name] = package
    from mediapipe.tasks.python.metadata.metadata_writers import metadata_writer, writer_utils
    return metadata_writer, writer_utils


def aligned_member(archive: zipfile.ZipFile, name: str) -> zipfile.ZipInfo:
    """A stored member whose data will start on a MEMBER_ALIGNMENT boundary."""
    info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
    info.compress_type = zipfile.ZIP_STORED
    data_start = archive.fp.tell() + 30 + len(name.encode()) + 4  # local header + extra-field header
    padding = -data_start % MEMBER_ALIGNMENT
    info.extra = ALIGNMENT_EXTRA_ID.to_bytes(2, "little") + padding.to_bytes(2, "little") + bytes(padding)
    return info


def with_metadata(writer_module, utils, graph: bytes, name: str, mean: float, std: float) -> bytes:
    buffer = bytearray(graph)
    writer = writer_module.MetadataWriter.create(buffer)
    writer.add_general_info(model_name=name, model_description="Built by Spotter ops/models")
    writer.add_image_input(norm_mean=[mean], norm_std=[std])
    for _ in utils.get_output_tensor_names(buffer):
        writer.add_feature_output()
    model, _ = writer.populate()
    return bytes(model)


def holds_pinned_bundles(directory: str) -> bool:
    for bundle, expected in BUNDLE_SHA256.items():
        path = os.path.join(directory, bundle)
        if not os.path.isfile(path) or sha256(open(path, "rb").read()) != expected:
            return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", metavar="DIR")
    parser.add_argument("--wheel-dir")
    parser.add_argument("--flatbuffers-dir")
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.check:
        return 0 if holds_pinned_bundles(args.check) else 1
    if not (args.wheel_dir and args.flatbuffers_dir and args.out):
        parser.error("--wheel-dir, --flatbuffers-dir and --out are required to build")

    writer_module, utils = import_metadata_writer(args.wheel_dir, args.flatbuffers_dir)
    os.makedirs(args.out, exist_ok=True)
    sums = []
    for bundle, members in BUNDLES.items():
        with tempfile.NamedTemporaryFile(dir=args.out, suffix=".partial", delete=False) as tmp:
            partial = tmp.name
        try:
            with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_STORED) as archive:
                for member, source in members:
                    expected, mean, std = GRAPHS[source]
                    graph = open(os.path.join(args.wheel_dir, "mediapipe", "modules", source), "rb").read()
                    if sha256(graph) != expected:
                        print(f"build_bundles: {source}: SHA-256 {sha256(graph)}, pinned {expected}",
                              file=sys.stderr)
                        return 1
                    model = with_metadata(writer_module, utils, graph, member, mean, std)
                    archive.writestr(aligned_member(archive, member), model)
            digest = sha256(open(partial, "rb").read())
            if digest != BUNDLE_SHA256[bundle]:
                print(f"build_bundles: {bundle}: SHA-256 {digest}, expected {BUNDLE_SHA256[bundle]} "
                      "(a different metadata writer or flatbuffers?)", file=sys.stderr)
                return 1
            os.chmod(partial, 0o644)
            os.replace(partial, os.path.join(args.out, bundle))
        finally:
            if os.path.exists(partial):
                os.unlink(partial)
        sums.append(f"{digest}  {bundle}\n")
    with open(os.path.join(args.out, "SHA256SUMS.partial"), "w") as handle:
        handle.writelines(sums)
    os.replace(os.path.join(args.out, "SHA256SUMS.partial"), os.path.join(args.out, "SHA256SUMS"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
