#include "CFFmpegShims.h"

#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int CFFmpeg_errorAgain(void) { return AVERROR(EAGAIN); }
int CFFmpeg_errorEndOfFile(void) { return AVERROR_EOF; }
int CFFmpeg_errorExit(void) { return AVERROR_EXIT; }
int CFFmpeg_errorInvalidData(void) { return AVERROR_INVALIDDATA; }
int64_t CFFmpeg_noTimestamp(void) { return AV_NOPTS_VALUE; }

const char *CFFmpeg_describeError(int code, char *buffer, size_t size) {
  return av_make_error_string(buffer, size, code);
}

static int CFFmpeg_printLevel = AV_LOG_QUIET;
static _Thread_local char CFFmpeg_threadLastError[512];

static void CFFmpeg_trim(char *line) {
  size_t length = strlen(line);
  while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = '\0';
}

static void CFFmpeg_log(void *context, int level, const char *format, va_list arguments) {
  if (level > AV_LOG_ERROR && level > CFFmpeg_printLevel) return;
  char line[1024];
  int prefix = level <= CFFmpeg_printLevel;  // "[h264 @ 0x…] " only where it is printed
  va_list copy;
  va_copy(copy, arguments);
  av_log_format_line2(context, level, format, copy, line, sizeof line, &prefix);
  va_end(copy);
  CFFmpeg_trim(line);
  if (level <= CFFmpeg_printLevel) fprintf(stderr, "libav: %s\n", line);
  if (level <= AV_LOG_ERROR && line[0] != '\0') {
    prefix = 0;
    av_log_format_line2(context, level, format, arguments, CFFmpeg_threadLastError,
                        sizeof CFFmpeg_threadLastError, &prefix);
    CFFmpeg_trim(CFFmpeg_threadLastError);
  }
}

void CFFmpeg_routeLog(int printLevel) {
  CFFmpeg_printLevel = printLevel;
  av_log_set_callback(CFFmpeg_log);
}

const char *CFFmpeg_lastError(void) { return CFFmpeg_threadLastError; }

void CFFmpeg_clearLastError(void) { CFFmpeg_threadLastError[0] = '\0'; }

typedef int (*CFFmpeg_IOOpen)(AVFormatContext *, AVIOContext **, const char *, int, AVDictionary **);

typedef struct {
  CFFmpeg_IOOpen original;
  char *input;
} CFFmpeg_OpenGuard;

static int CFFmpeg_guardedOpen(AVFormatContext *context, AVIOContext **io, const char *url, int flags,
                               AVDictionary **options) {
  CFFmpeg_OpenGuard *guard = context->opaque;
  if (guard == NULL || guard->input == NULL || url == NULL || strcmp(url, guard->input) != 0) {
    av_log(context, AV_LOG_ERROR, "refused to open %s: only the input itself may be read\n", url ? url : "(null)");
    return AVERROR(EPERM);
  }
  return guard->original(context, io, url, flags, options);
}

void *CFFmpeg_guardOpens(struct AVFormatContext *context, const char *input) {
  CFFmpeg_OpenGuard *guard = calloc(1, sizeof *guard);
  if (guard == NULL) return NULL;
  if (input != NULL && (guard->input = strdup(input)) == NULL) {
    free(guard);
    return NULL;
  }
  guard->original = context->io_open;
  context->opaque = guard;
  context->io_open = CFFmpeg_guardedOpen;
  return guard;
}

void CFFmpeg_freeOpenGuard(void *guard) {
  if (guard == NULL) return;
  free(((CFFmpeg_OpenGuard *)guard)->input);
  free(guard);
}
