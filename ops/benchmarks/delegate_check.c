// The GPU delegate on a machine that has a GPU, through the same C API and
// options Spotter's Landmarkers pass (BaseOptions.delegate: CPU 1, GPU 2): the
// pose landmarker in VIDEO mode over a clip's frames (JPEG or PNG files, in
// order, at FPS), once per delegate given.
// usage: delegate_check ENGINE MODEL_DIR FPS OUT_PREFIX cpu|gpu[,…] FRAME...
// Writes OUT_PREFIX.DELEGATE.tsv (per frame: index, ms to detect, poses found,
// then the first pose's 33 normalized x y) and prints one JSON line per
// delegate: frames, frames with a pose, load ms, mean ms per frame, frames/s.
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

static int run(const CMediaPipe_API *api, const char *model, double fps, const char *prefix, const char *delegate,
               int frames, char **paths) {
  char *error = NULL;
  struct MpBaseOptions base = {.model_asset_path = model, .file_descriptor = -1,
                               .delegate = strcmp(delegate, "gpu") == 0 ? kMpDelegateGpu : kMpDelegateCpu};
  struct MpPoseLandmarkerOptions options = {.base_options = base, .running_mode = kMpRunningModeVideo, .num_poses = 1,
      .min_pose_detection_confidence = 0.5f, .min_pose_presence_confidence = 0.5f, .min_tracking_confidence = 0.5f};
  MpPoseLandmarkerPtr task = NULL;
  double started = now_ms();
  if (api->MpPoseLandmarkerCreate(&options, &task, &error) != kMpOk) {
    printf("{\"delegate\": \"%s\", \"error\": \"cannot create the landmarker\"}\n", delegate);
    fprintf(stderr, "delegate_check: %s: %s\n", delegate, error ? error : "cannot create the landmarker");
    return 69;
  }
  double load = now_ms() - started, total = 0;
  char name[4096];
  snprintf(name, sizeof name, "%s.%s.tsv", prefix, delegate);
  FILE *out = fopen(name, "w");
  if (out == NULL) return 73;
  int found = 0;
  struct MpImageProcessingOptions processing = {0};
  for (int i = 0; i < frames; i++) {
    MpImagePtr image = NULL;
    if (api->MpImageCreateFromFile(paths[i], &image, &error) != kMpOk) return 65;
    struct MpPoseLandmarkerResult result = {0};
    double begun = now_ms();
    if (api->MpPoseLandmarkerDetectForVideo(task, image, &processing, (int64_t)(i * 1000.0 / fps), &result, &error) != kMpOk) {
      fprintf(stderr, "delegate_check: %s: frame %d: %s\n", delegate, i, error ? error : "detection failed");
      return 70;
    }
    double took = now_ms() - begun;
    total += took;
    fprintf(out, "%d\t%.3f\t%u", i, took, result.pose_landmarks_count);
    if (result.pose_landmarks_count > 0) {
      found++;
      for (uint32_t k = 0; k < result.pose_landmarks[0].landmarks_count; k++) {
        fprintf(out, "\t%.5f\t%.5f", result.pose_landmarks[0].landmarks[k].x, result.pose_landmarks[0].landmarks[k].y);
      }
    }
    fprintf(out, "\n");
    api->MpPoseLandmarkerCloseResult(&result);
    api->MpImageFree(image);
  }
  fclose(out);
  api->MpPoseLandmarkerClose(task, &error);
  printf("{\"delegate\": \"%s\", \"frames\": %d, \"frames_with_pose\": %d, \"load_ms\": %.1f, \"mean_ms\": %.3f, \"fps\": %.1f}\n",
         delegate, frames, found, load, total / frames, frames / (total / 1000));
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 7) {
    fprintf(stderr, "usage: delegate_check ENGINE MODEL_DIR FPS OUT_PREFIX cpu|gpu[,...] FRAME...\n");
    return 64;
  }
  char *error = NULL;
  const CMediaPipe_API *api = CMediaPipe_open(argv[1], &error);
  if (api == NULL) {
    fprintf(stderr, "delegate_check: %s\n", error);
    return 69;
  }
  char model[4096];
  snprintf(model, sizeof model, "%s/pose_landmarker_full.task", argv[2]);
  int status = 0;
  char delegates[256];
  snprintf(delegates, sizeof delegates, "%s", argv[5]);
  for (char *delegate = strtok(delegates, ","); delegate != NULL; delegate = strtok(NULL, ",")) {
    int result = run(api, model, atof(argv[3]), argv[4], delegate, argc - 6, argv + 6);
    if (result != 0) status = result;
  }
  return status;
}
