// The part of the MediaPipe Tasks C API (libmediapipe.so, mediapipe 1.2.2) that
// Spotter uses, written from the ctypes declarations of the same wheel:
//   mediapipe/tasks/python/core/base_options_c.py, mediapipe_c_utils.py
//   mediapipe/tasks/python/components/containers/landmark_c.py, category_c.py, rect_c.py
//   mediapipe/tasks/python/vision/core/image.py, image_processing_options_c.py
//   mediapipe/tasks/python/vision/pose_landmarker.py, hand_landmarker.py
//
// The library is not linked: CMediaPipe_open() loads it with dlopen and fills a
// table of entry points, so that a missing engine is an error Swift can report.
#ifndef CMEDIAPIPE_H
#define CMEDIAPIPE_H

#include <stdbool.h>
#include <stdint.h>

/// absl::StatusCode values, as MpStatus.
typedef int32_t MpStatus;
static const MpStatus kMpOk = 0;

typedef struct MpImageInternal *MpImagePtr;
typedef struct MpPoseLandmarkerInternal *MpPoseLandmarkerPtr;
typedef struct MpHandLandmarkerInternal *MpHandLandmarkerPtr;

/// mediapipe::ImageFormat::Format values used here.
static const int kMpImageFormatSrgb = 1;
static const int kMpImageFormatSrgba = 2;
static const int kMpImageFormatVec32F1 = 9;

/// Running modes, as in vision_task_running_mode.py.
static const int kMpRunningModeImage = 1;
static const int kMpRunningModeVideo = 2;
static const int kMpRunningModeLiveStream = 3;

/// Delegates, as in BaseOptions.Delegate.
static const int kMpDelegateCpu = 1;
static const int kMpDelegateGpu = 2;

struct MpBaseOptions {
  const char *model_asset_buffer;
  unsigned int model_asset_buffer_count;
  const char *model_asset_path;
  int file_descriptor;
  int delegate;
  int host_environment;
  int host_system;
  const char *host_version;
  const char *ca_bundle_path;
  const char *app_id;
  const char *app_version;
};

struct MpLandmark {
  float x;
  float y;
  float z;
  bool has_visibility;
  float visibility;
  bool has_presence;
  float presence;
  const char *name;
};

struct MpLandmarks {
  struct MpLandmark *landmarks;
  uint32_t landmarks_count;
};

/// Same layout as MpLandmark; x and y normalized by the image size.
typedef struct MpLandmark MpNormalizedLandmark;

struct MpNormalizedLandmarks {
  MpNormalizedLandmark *landmarks;
  uint32_t landmarks_count;
};

struct MpCategory {
  int index;
  float score;
  const char *category_name;
  const char *display_name;
};

struct MpCategories {
  struct MpCategory *categories;
  uint32_t categories_count;
};

struct MpRectF {
  float left;
  float top;
  float bottom;
  float right;
};

// The engine reads the bytes after some `bool` fields along with the flag, so
// the padding that follows them is declared, and zeroed by Swift's initializers.
// (With garbage there, an options struct without a region of interest was seen
// refused as "This task doesn't support region-of-interest".)

struct MpImageProcessingOptions {
  bool has_region_of_interest;
  uint8_t has_region_of_interest_padding[3];
  struct MpRectF region_of_interest;
  int rotation_degrees;
};

struct MpPoseLandmarkerResult {
  MpImagePtr *segmentation_masks;
  uint32_t segmentation_masks_count;
  struct MpNormalizedLandmarks *pose_landmarks;
  uint32_t pose_landmarks_count;
  struct MpLandmarks *pose_world_landmarks;
  uint32_t pose_world_landmarks_count;
};

struct MpHandLandmarkerResult {
  struct MpCategories *handedness;
  uint32_t handedness_count;
  struct MpNormalizedLandmarks *hand_landmarks;
  uint32_t hand_landmarks_count;
  struct MpLandmarks *hand_world_landmarks;
  uint32_t hand_world_landmarks_count;
};

/// Live-stream callback. `result` and `image` are valid only during the call;
/// the library frees the result afterwards.
typedef void (*MpPoseLandmarkerCallback)(MpStatus status, const struct MpPoseLandmarkerResult *result,
                                         MpImagePtr image, int64_t timestamp_ms);
typedef void (*MpHandLandmarkerCallback)(MpStatus status, const struct MpHandLandmarkerResult *result,
                                         MpImagePtr image, int64_t timestamp_ms);

struct MpPoseLandmarkerOptions {
  struct MpBaseOptions base_options;
  int running_mode;
  int num_poses;
  float min_pose_detection_confidence;
  float min_pose_presence_confidence;
  float min_tracking_confidence;
  bool output_segmentation_masks;
  uint8_t output_segmentation_masks_padding[3];
  MpPoseLandmarkerCallback result_callback;
};

struct MpHandLandmarkerOptions {
  struct MpBaseOptions base_options;
  int running_mode;
  int num_hands;
  float min_hand_detection_confidence;
  float min_hand_presence_confidence;
  float min_tracking_confidence;
  MpHandLandmarkerCallback result_callback;
};

/// The entry points of libmediapipe.so that Spotter calls. Every status-returning
/// function takes a trailing `char **error_msg` that it may set; free it with
/// `MpErrorFree`.
typedef struct CMediaPipe_API {
  void (*MpErrorFree)(char *error_msg);

  MpStatus (*MpImageCreateFromUint8Data)(int format, int width, int height, const uint8_t *data,
                                         int data_size, MpImagePtr *out, char **error_msg);
  MpStatus (*MpImageCreateFromFile)(const char *path, MpImagePtr *out, char **error_msg);
  void (*MpImageFree)(MpImagePtr image);
  int (*MpImageGetWidth)(MpImagePtr image);
  int (*MpImageGetHeight)(MpImagePtr image);
  int (*MpImageGetFormat)(MpImagePtr image);
  /// The pixels, packed without row padding (copied by the engine if need be),
  /// valid as long as the image.
  MpStatus (*MpImageDataUint8)(MpImagePtr image, const uint8_t **out, char **error_msg);
  MpStatus (*MpImageDataFloat32)(MpImagePtr image, const float **out, char **error_msg);

  MpStatus (*MpPoseLandmarkerCreate)(struct MpPoseLandmarkerOptions *options, MpPoseLandmarkerPtr *out,
                                     char **error_msg);
  MpStatus (*MpPoseLandmarkerDetectImage)(MpPoseLandmarkerPtr landmarker, MpImagePtr image,
                                          const struct MpImageProcessingOptions *options,
                                          struct MpPoseLandmarkerResult *result, char **error_msg);
  MpStatus (*MpPoseLandmarkerDetectForVideo)(MpPoseLandmarkerPtr landmarker, MpImagePtr image,
                                             const struct MpImageProcessingOptions *options,
                                             int64_t timestamp_ms, struct MpPoseLandmarkerResult *result,
                                             char **error_msg);
  MpStatus (*MpPoseLandmarkerDetectAsync)(MpPoseLandmarkerPtr landmarker, MpImagePtr image,
                                          const struct MpImageProcessingOptions *options,
                                          int64_t timestamp_ms, char **error_msg);
  void (*MpPoseLandmarkerCloseResult)(struct MpPoseLandmarkerResult *result);
  MpStatus (*MpPoseLandmarkerClose)(MpPoseLandmarkerPtr landmarker, char **error_msg);

  MpStatus (*MpHandLandmarkerCreate)(struct MpHandLandmarkerOptions *options, MpHandLandmarkerPtr *out,
                                     char **error_msg);
  MpStatus (*MpHandLandmarkerDetectImage)(MpHandLandmarkerPtr landmarker, MpImagePtr image,
                                          const struct MpImageProcessingOptions *options,
                                          struct MpHandLandmarkerResult *result, char **error_msg);
  MpStatus (*MpHandLandmarkerDetectForVideo)(MpHandLandmarkerPtr landmarker, MpImagePtr image,
                                             const struct MpImageProcessingOptions *options,
                                             int64_t timestamp_ms, struct MpHandLandmarkerResult *result,
                                             char **error_msg);
  MpStatus (*MpHandLandmarkerDetectAsync)(MpHandLandmarkerPtr landmarker, MpImagePtr image,
                                          const struct MpImageProcessingOptions *options,
                                          int64_t timestamp_ms, char **error_msg);
  void (*MpHandLandmarkerCloseResult)(struct MpHandLandmarkerResult *result);
  MpStatus (*MpHandLandmarkerClose)(MpHandLandmarkerPtr landmarker, char **error_msg);
} CMediaPipe_API;

/// Opens the library at `path` and resolves every entry point of `CMediaPipe_API`.
/// Returns the table (owned by the process; the library stays loaded) or NULL, with
/// a description of the failure in `error` (free it with free()).
const CMediaPipe_API *CMediaPipe_open(const char *path, char **error);

/// Live-stream results arrive through a C function without a context pointer.
/// A slot binds one of a fixed set of such functions to a Swift handler and its
/// context. `result` is an MpPoseLandmarkerResult or MpHandLandmarkerResult.
typedef void (*CMediaPipe_ResultHandler)(void *context, MpStatus status, const void *result,
                                         int64_t timestamp_ms);

/// The number of live-stream landmarkers that may be open at once.
#define CMEDIAPIPE_SLOT_COUNT 64

/// Claims a free slot for `handler` and `context`; returns its index, or -1 when all
/// slots are taken.
int CMediaPipe_claimSlot(CMediaPipe_ResultHandler handler, void *context);

/// The C callback bound to `slot`, to be cast to the task's callback type.
MpPoseLandmarkerCallback CMediaPipe_poseCallback(int slot);
MpHandLandmarkerCallback CMediaPipe_handCallback(int slot);

/// Frees `slot`; callbacks arriving for it afterwards are ignored.
void CMediaPipe_releaseSlot(int slot);

#endif
