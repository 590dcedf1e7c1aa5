// libavformat, libavcodec, libswscale and libavutil (Debian 12: FFmpeg 5.1).
// The shims for macros and the log callback are in CFFmpegShims.
#ifndef CFFMPEG_H
#define CFFMPEG_H

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/adler32.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#endif
