#include "CMediaPipe.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Loading

static char *CMediaPipe_describe(const char *what, const char *detail) {
  size_t length = strlen(what) + strlen(detail) + 3;
  char *message = malloc(length);
  if (message != NULL) snprintf(message, length, "%s: %s", what, detail);
  return message;
}

const CMediaPipe_API *CMediaPipe_open(const char *path, char **error) {
  // RTLD_LOCAL keeps the engine's bundled absl/protobuf symbols to itself. A
  // loaded engine stays for the life of the process (MediaPipeEngine keeps one
  // per path): its static state and threads make unloading it unsafe. Every
  // failure below closes the library again.
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    *error = CMediaPipe_describe("dlopen failed", dlerror());
    return NULL;
  }
  CMediaPipe_API *api = calloc(1, sizeof(CMediaPipe_API));
  if (api == NULL) {
    *error = CMediaPipe_describe("out of memory", path);
    dlclose(library);
    return NULL;
  }
#define CMEDIAPIPE_RESOLVE(name)                                          \
  do {                                                                    \
    *(void **)(&api->name) = dlsym(library, #name);                       \
    if (api->name == NULL) {                                              \
      *error = CMediaPipe_describe("missing entry point", #name);         \
      free(api);                                                          \
      dlclose(library);                                                   \
      return NULL;                                                        \
    }                                                                     \
  } while (0)
  CMEDIAPIPE_RESOLVE(MpErrorFree);
  CMEDIAPIPE_RESOLVE(MpImageCreateFromUint8Data);
  CMEDIAPIPE_RESOLVE(MpImageCreateFromFile);
  CMEDIAPIPE_RESOLVE(MpImageFree);
  CMEDIAPIPE_RESOLVE(MpImageGetWidth);
  CMEDIAPIPE_RESOLVE(MpImageGetHeight);
  CMEDIAPIPE_RESOLVE(MpImageGetFormat);
  CMEDIAPIPE_RESOLVE(MpImageDataUint8);
  CMEDIAPIPE_RESOLVE(MpImageDataFloat32);
  CMEDIAPIPE_RESOLVE(MpPoseLandmarkerCreate);
  CMEDIAPIPE_RESOLVE(MpPoseLandmarkerDetectImage);
  CMEDIAPIPE_RESOLVE(MpPoseLandmarkerDetectForVideo);
  CMEDIAPIPE_RESOLVE(MpPoseLandmarkerDetectAsync);
  CMEDIAPIPE_RESOLVE(MpPoseLandmarkerCloseResult);
  CMEDIAPIPE_RESOLVE(MpPoseLandmarkerClose);
  CMEDIAPIPE_RESOLVE(MpHandLandmarkerCreate);
  CMEDIAPIPE_RESOLVE(MpHandLandmarkerDetectImage);
  CMEDIAPIPE_RESOLVE(MpHandLandmarkerDetectForVideo);
  CMEDIAPIPE_RESOLVE(MpHandLandmarkerDetectAsync);
  CMEDIAPIPE_RESOLVE(MpHandLandmarkerCloseResult);
  CMEDIAPIPE_RESOLVE(MpHandLandmarkerClose);
#undef CMEDIAPIPE_RESOLVE
  return api;
}

// MARK: - Live-stream callback slots

typedef struct {
  pthread_mutex_t lock;
  CMediaPipe_ResultHandler handler;
  void *context;
} CMediaPipe_Slot;

static pthread_mutex_t CMediaPipe_slotsLock = PTHREAD_MUTEX_INITIALIZER;
static bool CMediaPipe_slotTaken[CMEDIAPIPE_SLOT_COUNT];
static CMediaPipe_Slot CMediaPipe_slots[CMEDIAPIPE_SLOT_COUNT];
static pthread_once_t CMediaPipe_slotsOnce = PTHREAD_ONCE_INIT;

static void CMediaPipe_initSlots(void) {
  for (int i = 0; i < CMEDIAPIPE_SLOT_COUNT; i++) pthread_mutex_init(&CMediaPipe_slots[i].lock, NULL);
}

// The slot's lock is held while the handler runs, so that once
// CMediaPipe_releaseSlot returns no handler call is under way or still to come.
static void CMediaPipe_dispatch(int slot, MpStatus status, const void *result, int64_t timestamp_ms) {
  CMediaPipe_Slot *entry = &CMediaPipe_slots[slot];
  pthread_mutex_lock(&entry->lock);
  if (entry->handler != NULL) entry->handler(entry->context, status, result, timestamp_ms);
  pthread_mutex_unlock(&entry->lock);
}

// One pair of C functions per slot, generated from this list.
#define CMEDIAPIPE_SLOTS(X) \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) \
  X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) \
  X(32) X(33) X(34) X(35) X(36) X(37) X(38) X(39) X(40) X(41) X(42) X(43) X(44) X(45) X(46) X(47) \
  X(48) X(49) X(50) X(51) X(52) X(53) X(54) X(55) X(56) X(57) X(58) X(59) X(60) X(61) X(62) X(63)

#define CMEDIAPIPE_DEFINE_TRAMPOLINES(n)                                                        \
  static void CMediaPipe_pose##n(MpStatus status, const struct MpPoseLandmarkerResult *result,  \
                                 MpImagePtr image, int64_t timestamp_ms) {                      \
    (void)image;                                                                                \
    CMediaPipe_dispatch(n, status, result, timestamp_ms);                                       \
  }                                                                                             \
  static void CMediaPipe_hand##n(MpStatus status, const struct MpHandLandmarkerResult *result,  \
                                 MpImagePtr image, int64_t timestamp_ms) {                      \
    (void)image;                                                                                \
    CMediaPipe_dispatch(n, status, result, timestamp_ms);                                       \
  }
CMEDIAPIPE_SLOTS(CMEDIAPIPE_DEFINE_TRAMPOLINES)

#define CMEDIAPIPE_POSE_ENTRY(n) CMediaPipe_pose##n,
#define CMEDIAPIPE_HAND_ENTRY(n) CMediaPipe_hand##n,
static const MpPoseLandmarkerCallback CMediaPipe_poseCallbacks[CMEDIAPIPE_SLOT_COUNT] = {
    CMEDIAPIPE_SLOTS(CMEDIAPIPE_POSE_ENTRY)};
static const MpHandLandmarkerCallback CMediaPipe_handCallbacks[CMEDIAPIPE_SLOT_COUNT] = {
    CMEDIAPIPE_SLOTS(CMEDIAPIPE_HAND_ENTRY)};

int CMediaPipe_claimSlot(CMediaPipe_ResultHandler handler, void *context) {
  pthread_once(&CMediaPipe_slotsOnce, CMediaPipe_initSlots);
  pthread_mutex_lock(&CMediaPipe_slotsLock);
  int slot = -1;
  for (int i = 0; i < CMEDIAPIPE_SLOT_COUNT && slot < 0; i++) {
    if (!CMediaPipe_slotTaken[i]) slot = i;
  }
  if (slot >= 0) {
    CMediaPipe_slotTaken[slot] = true;
    pthread_mutex_lock(&CMediaPipe_slots[slot].lock);
    CMediaPipe_slots[slot].handler = handler;
    CMediaPipe_slots[slot].context = context;
    pthread_mutex_unlock(&CMediaPipe_slots[slot].lock);
  }
  pthread_mutex_unlock(&CMediaPipe_slotsLock);
  return slot;
}

MpPoseLandmarkerCallback CMediaPipe_poseCallback(int slot) { return CMediaPipe_poseCallbacks[slot]; }

MpHandLandmarkerCallback CMediaPipe_handCallback(int slot) { return CMediaPipe_handCallbacks[slot]; }

void CMediaPipe_releaseSlot(int slot) {
  pthread_mutex_lock(&CMediaPipe_slots[slot].lock);
  CMediaPipe_slots[slot].handler = NULL;
  CMediaPipe_slots[slot].context = NULL;
  pthread_mutex_unlock(&CMediaPipe_slots[slot].lock);
  pthread_mutex_lock(&CMediaPipe_slotsLock);
  CMediaPipe_slotTaken[slot] = false;
  pthread_mutex_unlock(&CMediaPipe_slotsLock);
}
