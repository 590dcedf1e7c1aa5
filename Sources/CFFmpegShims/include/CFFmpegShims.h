// CFFmpeg_-prefixed shims for what Swift cannot import from libav: function-like
// macros, macros with casts, and the variadic log callback.
#ifndef CFFMPEG_SHIMS_H
#define CFFMPEG_SHIMS_H

#include <stddef.h>
#include <stdint.h>

/// AVERROR(EAGAIN): the decoder wants more input.
int CFFmpeg_errorAgain(void);
/// AVERROR_EOF: the end of the input, or of the decoder's output.
int CFFmpeg_errorEndOfFile(void);
/// AVERROR_EXIT: an interrupt callback stopped a blocking call.
int CFFmpeg_errorExit(void);
/// AVERROR_INVALIDDATA: libav could not make sense of the data.
int CFFmpeg_errorInvalidData(void);
/// AV_NOPTS_VALUE: no timestamp.
int64_t CFFmpeg_noTimestamp(void);

/// The description of an error code (av_err2str is a macro over a compound
/// literal), written into `buffer`.
const char *CFFmpeg_describeError(int code, char *buffer, size_t size);

/// Routes libav's log: lines at `printLevel` or more severe (AV_LOG_* values;
/// AV_LOG_QUIET prints nothing) go to standard error prefixed "libav: ", and
/// every error line is kept, per thread, for CFFmpeg_lastError.
void CFFmpeg_routeLog(int printLevel);

struct AVFormatContext;

/// Lets `context` open nothing through its `io_open` but `input` itself (NULL
/// for custom I/O: nothing at all). A demuxer's nested opens — a playlist's
/// segments, a manifest's files, a container's external references — are
/// refused with EPERM and logged. Returns the guard, to free with
/// CFFmpeg_freeOpenGuard once the context is closed; NULL for want of memory.
void *CFFmpeg_guardOpens(struct AVFormatContext *context, const char *input);
void CFFmpeg_freeOpenGuard(void *guard);

/// The last error libav logged on this thread since CFFmpeg_clearLastError,
/// or an empty string.
const char *CFFmpeg_lastError(void);
void CFFmpeg_clearLastError(void);

#endif
