"""Imports MediaPipe's Python Tasks API (mediapipe 1.2.2, unpacked on PYTHONPATH
by unpack_mediapipe_python in common.sh) without running mediapipe/__init__.py,
which imports OpenCV for the drawing utilities."""

import importlib.util
import os
import sys
import types


def import_tasks():
    """Returns the modules base_options, pose_landmarker, hand_landmarker, image,
    image_processing_options and vision_task_running_mode."""
    root = os.path.dirname(importlib.util.find_spec("mediapipe").origin)
    for name, sub in [("mediapipe", ""), ("mediapipe.tasks", "tasks"), ("mediapipe.tasks.python", "tasks/python"),
                      ("mediapipe.tasks.python.vision", "tasks/python/vision")]:
        package = types.ModuleType(name)
        package.__path__ = [os.path.join(root, sub)]
        sys.modules[name] = package
    from mediapipe.tasks.python.core import base_options
    from mediapipe.tasks.python.vision import hand_landmarker, pose_landmarker
    from mediapipe.tasks.python.vision.core import image, image_processing_options, vision_task_running_mode
    return base_options, pose_landmarker, hand_landmarker, image, image_processing_options, vision_task_running_mode
