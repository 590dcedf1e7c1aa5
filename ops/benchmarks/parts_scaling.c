// Segment-parallel VIDEO mode on a machine with many cores, through the same C
// API and options Spotter's Landmarkers pass: the frames of a clip (JPEG or PNG
// files, in order, at FPS) landmarked in parts side by side as
// SegmentedLandmarks does — LandmarkOptions.parts' layout (as many parts as
// threads, each at least 4 s), one thread per part with a pose landmarker of
// its own made in that thread, started 1 s before its part — once per thread
// count given. The Swift binary does not travel to such a machine with its
// runtime and the engine; this measures how the engine scales in that layout.
// usage: parts_scaling ENGINE MODEL FPS cpu|gpu N[,N…] FRAME...
// Prints one JSON line per N: parts, wall seconds (making the landmarkers
// included), frames/s, speedup over the first N, frames with a pose.
#include "CMediaPipe.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kMinimumPartMs = 4000, kLeadInMs = 1000, kMostParts = 256 };

struct Part {
  const CMediaPipe_API *api;
  const char *model;
  int delegate;
  double fps;
  char **paths;
  int first, lead_in_first, end;  // frame indices: [lead_in_first, end), scored from first
  int found, status;
};

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void *landmark_part(void *argument) {
  struct Part *part = argument;
  const CMediaPipe_API *api = part->api;
  char *error = NULL;
  struct MpBaseOptions base = {.model_asset_path = part->model, .file_descriptor = -1, .delegate = part->delegate};
  struct MpPoseLandmarkerOptions options = {.base_options = base, .running_mode = kMpRunningModeVideo, .num_poses = 1,
      .min_pose_detection_confidence = 0.5f, .min_pose_presence_confidence = 0.5f, .min_tracking_confidence = 0.5f};
  MpPoseLandmarkerPtr task = NULL;
  if (api->MpPoseLandmarkerCreate(&options, &task, &error) != kMpOk) {
    fprintf(stderr, "parts_scaling: cannot create the landmarker: %s\n", error ? error : "");
    part->status = 69;
    return NULL;
  }
  struct MpImageProcessingOptions processing = {0};
  for (int i = part->lead_in_first; i < part->end; i++) {
    MpImagePtr image = NULL;
    if (api->MpImageCreateFromFile(part->paths[i], &image, &error) != kMpOk) {
      part->status = 65;
      break;
    }
    struct MpPoseLandmarkerResult result = {0};
    int64_t timestamp = (int64_t)(i * 1000.0 / part->fps);
    if (api->MpPoseLandmarkerDetectForVideo(task, image, &processing, timestamp, &result, &error) != kMpOk) {
      fprintf(stderr, "parts_scaling: frame %d: %s\n", i, error ? error : "detection failed");
      part->status = 70;
      api->MpImageFree(image);
      break;
    }
    if (i >= part->first && result.pose_landmarks_count > 0) part->found++;
    api->MpPoseLandmarkerCloseResult(&result);
    api->MpImageFree(image);
  }
  api->MpPoseLandmarkerClose(task, &error);
  return NULL;
}

// The frames in parts as LandmarkOptions.parts cuts a video of the same length.
static int run(const CMediaPipe_API *api, const char *model, int delegate, double fps, int threads, int frames,
               char **paths, double *wall, int *found) {
  int duration = (int)(frames * 1000.0 / fps);
  int count = duration / kMinimumPartMs < threads ? duration / kMinimumPartMs : threads;
  if (count < 1) count = 1;
  if (count > kMostParts) count = kMostParts;
  int length = (duration + count - 1) / count;
  struct Part parts[kMostParts];
  pthread_t running[kMostParts];
  for (int p = 0; p < count; p++) {
    int start_ms = p * length, end_ms = p == count - 1 ? duration + 1 : (p + 1) * length;
    int lead_ms = start_ms - kLeadInMs > 0 ? start_ms - kLeadInMs : 0;
    int first = 0, lead = 0, end = 0;
    for (int i = 0; i < frames; i++) {
      int t = (int)(i * 1000.0 / fps);
      if (t < lead_ms) lead = i + 1;
      if (t < start_ms) first = i + 1;
      if (t < end_ms) end = i + 1;
    }
    parts[p] = (struct Part){.api = api, .model = model, .delegate = delegate, .fps = fps, .paths = paths,
                             .first = first, .lead_in_first = lead, .end = end};
  }
  double started = now_s();
  for (int p = 0; p < count; p++) pthread_create(&running[p], NULL, landmark_part, &parts[p]);
  int status = 0;
  *found = 0;
  for (int p = 0; p < count; p++) {
    pthread_join(running[p], NULL);
    if (parts[p].status != 0) status = parts[p].status;
    *found += parts[p].found;
  }
  *wall = now_s() - started;
  return status != 0 ? -status : count;
}

int main(int argc, char **argv) {
  if (argc < 7) {
    fprintf(stderr, "usage: parts_scaling ENGINE MODEL FPS cpu|gpu N[,N...] FRAME...\n");
    return 64;
  }
  char *error = NULL;
  const CMediaPipe_API *api = CMediaPipe_open(argv[1], &error);
  if (api == NULL) {
    fprintf(stderr, "parts_scaling: %s\n", error);
    return 69;
  }
  int delegate = strcmp(argv[4], "gpu") == 0 ? kMpDelegateGpu : kMpDelegateCpu;
  double fps = atof(argv[3]), baseline = 0;
  char counts[256];
  snprintf(counts, sizeof counts, "%s", argv[5]);
  for (char *each = strtok(counts, ","); each != NULL; each = strtok(NULL, ",")) {
    double wall = 0;
    int found = 0, frames = argc - 6;
    int parts = run(api, argv[2], delegate, fps, atoi(each), frames, argv + 6, &wall, &found);
    if (parts < 0) return -parts;
    if (baseline == 0) baseline = wall;
    printf("{\"delegate\": \"%s\", \"threads\": %d, \"parts\": %d, \"frames\": %d, \"frames_with_pose\": %d, "
           "\"wall_s\": %.2f, \"fps\": %.1f, \"speedup\": %.2f}\n",
           argv[4], atoi(each), parts, frames, found, wall, frames / wall, baseline / wall);
    fflush(stdout);
  }
  return 0;
}
