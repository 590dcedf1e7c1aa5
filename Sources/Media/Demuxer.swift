internal import CFFmpeg
internal import CFFmpegShims
import Foundation
import Synchronization

/// Lets libav's blocking calls give up: at a deadline, or when the consumer has gone.
final class Interruption: Sendable {
    private let deadline: ContinuousClock.Instant
    private let cancelled = Atomic(false)

    init(after duration: Duration) {
        deadline = .now + duration
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    var isPastDeadline: Bool { ContinuousClock.now >= deadline }
    var shouldStop: Bool { isCancelled || isPastDeadline }
}

/// Owns an opened AVFormatContext (and its custom I/O, if any) and the video
/// stream chosen in it.
///
/// An upload is hostile until shown otherwise: only the containers Spotter
/// supports are probed (`formats`; an HLS playlist, a DASH manifest or an
/// ffconcat list named `.mp4` is refused, not followed), only the `file`
/// protocol is allowed, and nothing may be opened but the input itself — a
/// demuxer's nested open (a segment, an external reference) is refused.
final class Demuxer {
    /// The demuxers that may read an input: MP4/MOV, Matroska/WebM, AVI, and
    /// YUV4MPEG (raw frames; the tests' hostile headers).
    static let formats = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,yuv4mpegpipe"

    let context: UnsafeMutablePointer<AVFormatContext>
    let videoStream: UnsafeMutablePointer<AVStream>
    let name: String
    let interruption: Interruption
    private let io: CustomIO?
    private let openGuard: UnsafeMutableRawPointer

    /// Opens `path`, or `source` when given (then `path` only names it in messages).
    init(path: String, source: (any ByteSource)?, limits: MediaLimits) throws {
        let interruption = Interruption(after: limits.deadline)
        let io = try source.map { try CustomIO(source: $0, interruption: interruption) }
        name = path
        self.interruption = interruption
        self.io = io
        guard var context = avformat_alloc_context() else {
            throw MediaError(.unreadable, "\(path): cannot allocate a format context")
        }
        context.pointee.interrupt_callback.callback = { opaque in
            let interruption = Unmanaged<Interruption>.fromOpaque(opaque!).takeUnretainedValue()
            return interruption.shouldStop ? 1 : 0
        }
        context.pointee.interrupt_callback.opaque = Unmanaged.passUnretained(interruption).toOpaque()
        if let io {
            context.pointee.pb = io.context
            context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        }
        guard let openGuard = CFFmpeg_guardOpens(context, io == nil ? path : nil) else {
            avformat_free_context(context)
            throw MediaError(.unreadable, "\(path): out of memory")
        }
        var options: OpaquePointer?
        av_dict_set(&options, "format_whitelist", Self.formats, 0)
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        defer { av_dict_free(&options) }
        var optional: UnsafeMutablePointer<AVFormatContext>? = context
        let (opened, found) = LibavLog.capturing {
            // avformat_open_input frees the context when it fails.
            let opened = avformat_open_input(&optional, io == nil ? path : nil, nil, &options)
            return (opened, opened < 0 ? opened : avformat_find_stream_info(optional, nil))
        }
        guard opened >= 0, let openedContext = optional else {
            CFFmpeg_freeOpenGuard(openGuard)
            throw Self.openError(path, opened, interruption: interruption, io: io).quotingLibavLog()
        }
        context = openedContext
        if found < 0 {
            var closing: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&closing)
            CFFmpeg_freeOpenGuard(openGuard)
            throw Self.openError(path, found, interruption: interruption, io: io).quotingLibavLog()
        }
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        // A still picture attached to an audio file (cover art) is not a video.
        guard index >= 0, let stream = context.pointee.streams[Int(index)],
              stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        else {
            var closing: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&closing)
            CFFmpeg_freeOpenGuard(openGuard)
            throw MediaError(.noVideoStream, "\(path): no video stream (an audio-only or data file?)")
        }
        self.context = context
        self.videoStream = stream
        self.openGuard = openGuard
    }

    deinit {
        var closing: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&closing)
        CFFmpeg_freeOpenGuard(openGuard)
    }

    private static func openError(
        _ path: String, _ code: Int32, interruption: Interruption, io: CustomIO?
    ) -> MediaError {
        if interruption.isPastDeadline {
            return MediaError(.timedOut, "\(path): opening took longer than the deadline", ffmpegCode: code)
        }
        if let sourceError = io?.sourceError {
            return MediaError(.unreadable, "\(path): reading failed: \(sourceError)", ffmpegCode: code)
        }
        if LibavLog.lastError?.contains("not on whitelist") == true {
            return MediaError(
                .notAVideo,
                "\(path): not a video Spotter reads (MP4/MOV, Matroska/WebM and AVI are; playlists, manifests and lists of other files are refused)",
                ffmpegCode: code)
        }
        if code == -ENOENT { return MediaError(.unreadable, "\(path): no such file", ffmpegCode: code) }
        if code == -EACCES { return MediaError(.unreadable, "\(path): permission denied", ffmpegCode: code) }
        if code == CFFmpeg_errorInvalidData() {
            return MediaError(.notAVideo, "\(path): not a video libav can read (unknown or damaged container)", ffmpegCode: code)
        }
        return MediaError(.corrupt, "\(path): cannot open the video", ffmpegCode: code)
    }
}
