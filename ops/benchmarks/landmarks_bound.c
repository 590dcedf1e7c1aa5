// The bound for ops/bench: the MediaPipe C API called directly, with no wrapper
// around it, on the same engine, bundle and images.
// usage: landmarks_bound ENGINE MODEL_DIR pose|hand ITERATIONS IMAGE...
// Prints one JSON object with the median detection latency per image.
#include "CMediaPipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: landmarks_bound ENGINE MODEL_DIR pose|hand ITERATIONS IMAGE...\n");
    return 64;
  }
  char *error = NULL;
  const CMediaPipe_API *api = CMediaPipe_open(argv[1], &error);
  if (api == NULL) {
    fprintf(stderr, "landmarks_bound: %s\n", error);
    return 69;
  }
  int pose = strcmp(argv[3], "pose") == 0, iterations = atoi(argv[4]);
  char model[4096];
  snprintf(model, sizeof model, "%s/%s", argv[2], pose ? "pose_landmarker_full.task" : "hand_landmarker_full.task");
  struct MpBaseOptions base = {.model_asset_path = model, .file_descriptor = -1, .delegate = kMpDelegateCpu};
  void *task = NULL;
  MpStatus status;
  if (pose) {
    struct MpPoseLandmarkerOptions options = {.base_options = base, .running_mode = kMpRunningModeImage,
        .num_poses = 1, .min_pose_detection_confidence = 0.5f, .min_pose_presence_confidence = 0.5f,
        .min_tracking_confidence = 0.5f};
    status = api->MpPoseLandmarkerCreate(&options, (MpPoseLandmarkerPtr *)&task, &error);
  } else {
    struct MpHandLandmarkerOptions options = {.base_options = base, .running_mode = kMpRunningModeImage,
        .num_hands = 1, .min_hand_detection_confidence = 0.5f, .min_hand_presence_confidence = 0.5f,
        .min_tracking_confidence = 0.5f};
    status = api->MpHandLandmarkerCreate(&options, (MpHandLandmarkerPtr *)&task, &error);
  }
  if (status != kMpOk) {
    fprintf(stderr, "landmarks_bound: %s\n", error ? error : "cannot create the landmarker");
    return 69;
  }
  double *samples = calloc(iterations, sizeof(double));
  printf("{\"median_latency_ms\": {");
  for (int i = 5; i < argc; i++) {
    MpImagePtr image = NULL;
    if (api->MpImageCreateFromFile(argv[i], &image, &error) != kMpOk) return 65;
    struct MpImageProcessingOptions processing = {0};
    for (int n = -1; n < iterations; n++) {
      double started = now_ms();
      if (pose) {
        struct MpPoseLandmarkerResult result = {0};
        if (api->MpPoseLandmarkerDetectImage(task, image, &processing, &result, &error) != kMpOk) return 70;
        api->MpPoseLandmarkerCloseResult(&result);
      } else {
        struct MpHandLandmarkerResult result = {0};
        if (api->MpHandLandmarkerDetectImage(task, image, &processing, &result, &error) != kMpOk) return 70;
        api->MpHandLandmarkerCloseResult(&result);
      }
      if (n >= 0) samples[n] = now_ms() - started;
    }
    qsort(samples, iterations, sizeof(double), compare);
    const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
    printf("%s\"%s\": %.4f", i > 5 ? ", " : "", name, samples[iterations / 2]);
    api->MpImageFree(image);
  }
  printf("}}\n");
  return 0;
}
