internal import CFFmpeg
internal import CFFmpegShims
import Foundation
import Synchronization

/// Opens a video, tells what it holds, and decodes it to upright RGB frames.
///
/// Opening checks the limits before any decoding. `frames()` starts decoding on
/// a thread of the reader's own, off Swift's cooperative pool, and hands frames
/// over through a bounded buffer: decoding waits while the consumer is behind.
/// The libav handles are used by the opening thread, then by the decoding
/// thread only, which is why this class may be `@unchecked Sendable`.
public final class VideoReader: @unchecked Sendable {
    /// What the file holds.
    public let info: VideoStreamInfo
    /// The input, as named by the caller.
    public let name: String
    /// The size of the frames handed out (upright, scaled).
    public var frameWidth: Int { geometry.uprightWidth }
    public var frameHeight: Int { geometry.uprightHeight }

    private let options: VideoDecodeOptions
    private let demuxer: Demuxer
    private let decoder: VideoDecoder
    private let geometry: FrameGeometry
    private let outcome = Mutex(DecodeReport())
    private let started = Atomic(false)

    /// Opens a local file.
    public convenience init(path: String, options: VideoDecodeOptions = VideoDecodeOptions()) throws {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw MediaError(.unreadable, "\(path): \(reason)")
        }
        let size = (attributes[.size] as? NSNumber)?.int64Value
        try self.init(name: path, source: nil, size: size, options: options)
    }

    /// Opens a video read through `source`; `name` names it in messages and reports.
    public convenience init(source: any ByteSource, name: String, options: VideoDecodeOptions = VideoDecodeOptions()) throws {
        try self.init(name: name, source: source, size: source.size, options: options)
    }

    /// Opens a local file without blocking a thread of the cooperative pool.
    public static func open(path: String, options: VideoDecodeOptions = VideoDecodeOptions()) async throws -> VideoReader {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try VideoReader(path: path, options: options) })
            }
        }
    }

    private init(name: String, source: (any ByteSource)?, size: Int64?, options: VideoDecodeOptions) throws {
        if size == 0 { throw MediaError(.unreadable, "\(name): empty file") }
        if let size, size > options.limits.maxFileBytes {
            throw MediaError(
                .limitExceeded, "\(name): \(size) bytes is over the limit of \(options.limits.maxFileBytes) bytes")
        }
        let demuxer = try Demuxer(path: name, source: source, limits: options.limits)
        let info = Self.describe(demuxer, fileBytes: size)
        try Self.check(info, against: options.limits, name: name)
        self.name = name
        self.options = options
        self.demuxer = demuxer
        self.info = info
        self.geometry = FrameGeometry(
            width: info.width, height: info.height, rotation: info.rotation, maxLongSide: options.maxLongSide)
        self.decoder = try VideoDecoder(stream: demuxer.videoStream, threads: options.decoderThreads, name: name)
    }

    /// How the decode went; complete once `frames()` has run out.
    public var report: DecodeReport { outcome.withLock { $0 } }

    /// The frames, in timestamp order. A reader hands its frames out once;
    /// leaving the loop early stops the decoding.
    public func frames() -> VideoFrames {
        let queue = FrameQueue<VideoFrame>(capacity: options.bufferedFrames)
        if started.exchange(true, ordering: .acquiringAndReleasing) {
            queue.finish(throwing: MediaError(.unreadable, "\(name): the frames of a reader can be read once"))
        } else {
            let thread = Thread { [self] in decode(into: queue) }
            thread.name = "spotter.decode"
            thread.start()
        }
        return VideoFrames(queue: queue, interruption: demuxer.interruption)
    }

    // MARK: - Decoding (on the reader's thread)

    private func decode(into queue: FrameQueue<VideoFrame>) {
        var session = DecodeSession(reader: self)
        let result = Result { try LibavLog.capturing { try session.run(queue) } }
        outcome.withLock { $0 = session.report }
        switch result {
        case .success: queue.finish()
        case .failure(let error): queue.finish(throwing: error)
        }
    }

    /// The state of one pass over the packets.
    private struct DecodeSession {
        let reader: VideoReader
        var report = DecodeReport()
        var sampler: FrameSampler
        var startPTS: Int64?
        var lastPTS: Int64?
        var duplicates = 0
        var readFailure: Int32?
        let converter: FrameConverter

        init(reader: VideoReader) {
            self.reader = reader
            sampler = FrameSampler(frameRate: reader.options.frameRate)
            converter = FrameConverter(geometry: reader.geometry)
            let start = reader.demuxer.videoStream.pointee.start_time
            startPTS = start == noTimestamp ? nil : start
        }

        mutating func run(_ queue: FrameQueue<VideoFrame>) throws {
            guard let packet = av_packet_alloc() else { throw MediaError(.corrupt, "\(reader.name): out of memory") }
            guard let frame = av_frame_alloc() else { throw MediaError(.corrupt, "\(reader.name): out of memory") }
            defer {
                var packet: UnsafeMutablePointer<AVPacket>? = packet
                av_packet_free(&packet)
                var frame: UnsafeMutablePointer<AVFrame>? = frame
                av_frame_free(&frame)
            }
            let context = reader.demuxer.context, streamIndex = reader.demuxer.videoStream.pointee.index
            var consumerGone = false
            reading: while !consumerGone {
                let status = reader.demuxer.interruption.shouldStop ? CFFmpeg_errorExit() : av_read_frame(context, packet)
                if status == CFFmpeg_errorEndOfFile() { break reading }
                if status == CFFmpeg_errorAgain() { continue }
                if status < 0 {
                    if reader.demuxer.interruption.isCancelled { return }
                    if status == CFFmpeg_errorExit() || reader.demuxer.interruption.isPastDeadline {
                        throw MediaError(.timedOut, "\(reader.name): decoding took longer than the deadline", ffmpegCode: status)
                    }
                    readFailure = status
                    break reading
                }
                defer { av_packet_unref(packet) }
                guard packet.pointee.stream_index == streamIndex else { continue }
                var sent = reader.decoder.send(packet)
                if sent == CFFmpeg_errorAgain() {
                    consumerGone = try drain(frame, into: queue)
                    sent = reader.decoder.send(packet)
                }
                if sent < 0 && sent != CFFmpeg_errorAgain() { report.decodeErrors += 1 }
                if !consumerGone { consumerGone = try drain(frame, into: queue) }
            }
            if consumerGone { return }
            _ = reader.decoder.send(nil)
            _ = try drain(frame, into: queue)
            try conclude()
        }

        /// Receives every frame the decoder has ready; true if the consumer has gone.
        mutating func drain(_ frame: UnsafeMutablePointer<AVFrame>, into queue: FrameQueue<VideoFrame>) throws -> Bool {
            while true {
                let status = reader.decoder.receive(into: frame)
                if status == CFFmpeg_errorAgain() || status == CFFmpeg_errorEndOfFile() { return false }
                if status < 0 {
                    report.decodeErrors += 1
                    return false
                }
                defer { av_frame_unref(frame) }
                report.framesDecoded += 1
                guard let timestamp = milliseconds(of: frame) else { continue }
                if let last = sampler.lastAccepted, timestamp <= last {
                    duplicates += 1
                    continue
                }
                guard sampler.accept(timestamp) else { continue }
                let pixels = try converter.convert(frame, name: reader.name)
                let handed = VideoFrame(
                    timestampMilliseconds: timestamp, width: reader.geometry.uprightWidth,
                    height: reader.geometry.uprightHeight, pixels: pixels)
                guard queue.put(handed) else { return true }
                report.framesDelivered += 1
                report.lastTimestampMilliseconds = timestamp
            }
        }

        /// The frame's time from the stream's start, in ms; nil for a frame before the start.
        mutating func milliseconds(of frame: UnsafeMutablePointer<AVFrame>) -> Int? {
            var pts = frame.pointee.best_effort_timestamp
            if pts == noTimestamp {
                // No timestamp at all: continue from the previous frame by its duration.
                let step = frame.pointee.pkt_duration > 0 ? frame.pointee.pkt_duration : 1
                pts = (lastPTS ?? startPTS ?? 0) + step
            }
            lastPTS = pts
            let start = startPTS ?? pts
            startPTS = start
            let stream = reader.demuxer.videoStream.pointee
            let milliseconds = av_rescale_q(pts - start, stream.time_base, AVRational(num: 1, den: 1000))
            return milliseconds >= 0 ? Int(milliseconds) : nil
        }

        /// Fails when nothing decoded; otherwise puts what was lost into warnings.
        mutating func conclude() throws {
            let name = reader.name
            guard report.framesDecoded > 0 else {
                let reason = readFailure.map { MediaError(.corrupt, "", ffmpegCode: $0).ffmpegMessage ?? "" }
                throw MediaError(
                    .corrupt,
                    "\(name): no frame could be decoded\(reason.map { " (reading failed: \($0))" } ?? " (damaged video data)")")
                    .quotingLibavLog()
            }
            let seconds = { (milliseconds: Int) in String(format: "%.1f s", Double(milliseconds) / 1000) }
            let reached = report.lastTimestampMilliseconds ?? 0
            if let readFailure {
                report.warnings.append(
                    "damaged_input: reading \(name) stopped at \(seconds(reached)): \(describeFFmpegError(readFailure))")
            }
            if report.decodeErrors > 0 {
                report.warnings.append(
                    "damaged_input: \(report.decodeErrors) damaged packet(s) in \(name); frames were lost or patched")
            }
            if let duration = reader.info.durationMilliseconds, let rate = reader.info.averageFrameRate,
               Double(reached) + 2000 / rate + 500 < Double(duration) {
                report.warnings.append(
                    "truncated_input: \(name) decodes to \(seconds(reached)) of the \(seconds(duration)) its header announces")
            }
            if duplicates > 0 {
                report.warnings.append("\(duplicates) frame(s) of \(name) repeated an earlier timestamp and were skipped")
            }
        }
    }

    // MARK: - Stream information

    private static func describe(_ demuxer: Demuxer, fileBytes: Int64?) -> VideoStreamInfo {
        let context = demuxer.context.pointee
        let stream = demuxer.videoStream.pointee
        let parameters = stream.codecpar.pointee
        let rotation = rotationOf(demuxer.videoStream)
        let format = AVPixelFormat(rawValue: parameters.format)
        let depth = av_pix_fmt_desc_get(format).map { Int($0.pointee.comp.0.depth) } ?? 8
        var duration: Int?
        if stream.duration > 0 {
            duration = Int(av_rescale_q(stream.duration, stream.time_base, AVRational(num: 1, den: 1000)))
        } else if context.duration > 0 {
            duration = Int(context.duration / 1000)  // AV_TIME_BASE is microseconds
        }
        let (width, height) = (Int(parameters.width), Int(parameters.height))
        return VideoStreamInfo(
            container: String(cString: context.iformat.pointee.name),
            codec: String(cString: avcodec_get_name(parameters.codec_id)),
            profile: avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) },
            width: width, height: height,
            uprightWidth: rotation % 180 == 0 ? width : height, uprightHeight: rotation % 180 == 0 ? height : width,
            averageFrameRate: stream.avg_frame_rate.positiveValue, realFrameRate: stream.r_frame_rate.positiveValue,
            durationMilliseconds: duration, frameCount: stream.nb_frames > 0 ? Int(stream.nb_frames) : nil,
            rotation: rotation, pixelFormat: FrameConverter.name(of: format), bitDepth: depth,
            bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil, fileBytes: fileBytes)
    }

    /// Clockwise degrees to turn the frames upright, from the display matrix:
    /// the matrix rotates counter-clockwise by `av_display_rotation_get`.
    private static func rotationOf(_ stream: UnsafeMutablePointer<AVStream>) -> Int {
        guard let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) else { return 0 }
        let counterClockwise = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard counterClockwise.isFinite else { return 0 }
        let clockwise = Int((-counterClockwise).rounded())
        return ((clockwise % 360) + 360) % 360 / 90 * 90
    }

    private static func check(_ info: VideoStreamInfo, against limits: MediaLimits, name: String) throws {
        guard info.width > 0, info.height > 0 else {
            throw MediaError(.invalidDimensions, "\(name): the video has no frame size (\(info.width)×\(info.height))")
        }
        guard info.width <= 16384, info.height <= 16384 else {
            throw MediaError(.invalidDimensions, "\(name): an absurd frame size of \(info.width)×\(info.height)")
        }
        if info.width * info.height > limits.maxPixels {
            throw MediaError(
                .limitExceeded, "\(name): \(info.width)×\(info.height) frames are over the limit of \(limits.maxPixels) pixels")
        }
        if let duration = info.durationMilliseconds, duration > limits.maxDurationMilliseconds {
            throw MediaError(
                .limitExceeded,
                "\(name): \(duration / 1000) s is longer than the limit of \(limits.maxDurationMilliseconds / 1000) s")
        }
        if let rate = info.averageFrameRate, rate > limits.maxFrameRate {
            throw MediaError(
                .limitExceeded, "\(name): \(rate) frames/s is over the limit of \(limits.maxFrameRate) frames/s")
        }
    }
}

/// The frames of a `VideoReader`, in timestamp order.
public struct VideoFrames: AsyncSequence, Sendable {
    public typealias Element = VideoFrame
    fileprivate let queue: FrameQueue<VideoFrame>
    fileprivate let interruption: Interruption

    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let queue: FrameQueue<VideoFrame>
        public mutating func next() async throws -> VideoFrame? { try await queue.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: queue) }

    /// Stops the decoding: frames not yet read are dropped.
    public func cancel() {
        interruption.cancel()
        queue.close()
    }
}
