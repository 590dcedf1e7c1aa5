internal import CFFmpeg
internal import CFFmpegShims
import BlockingWork
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
    /// The rate frames are sampled at: the options' `frameRate`, else their
    /// `maxFrameRate` when the video is faster; `nil` when every frame is handed out.
    public var samplingRate: Double? {
        if let rate = options.frameRate { return rate }
        guard let cap = options.maxFrameRate, let rate = info.averageFrameRate, rate > cap + 0.5 else { return nil }
        return cap
    }

    /// The size of the frames handed out (upright, scaled).
    public var frameWidth: Int { geometry.uprightWidth }
    public var frameHeight: Int { geometry.uprightHeight }

    /// How it decodes.
    public let options: VideoDecodeOptions
    let demuxer: Demuxer
    let decoder: VideoDecoder
    let geometry: FrameGeometry
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
        try await BlockingPool.shared.run { try VideoReader(path: path, options: options) }
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
            startDedicatedThread("spotter.decode") { [self] in decode(into: queue) }
        }
        return VideoFrames(queue: queue, interruption: demuxer.interruption)
    }

    /// Decodes on the reader's thread, then ends the queue.
    private func decode(into queue: FrameQueue<VideoFrame>) {
        var session = DecodeSession(reader: self)
        let result = Result { try LibavLog.capturing { try session.run(queue) } }
        outcome.withLock { $0 = session.report }
        switch result {
        case .success: queue.finish()
        case .failure(let error): queue.finish(throwing: error)
        }
    }
}

/// The frames of a `VideoReader`, in timestamp order.
public struct VideoFrames: AsyncSequence, Sendable {
    public typealias Element = VideoFrame
    fileprivate let queue: FrameQueue<VideoFrame>
    fileprivate let interruption: Interruption

    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let consumer: Consumer
        public mutating func next() async throws -> VideoFrame? { try await consumer.queue.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(consumer: Consumer(queue: queue, interruption: interruption)) }

    /// Stops the decoding when the last copy of its iterator goes: a loop left
    /// early (`break`, a thrown error) would otherwise leave the decoding thread
    /// waiting for room in the queue forever, holding the libav handles.
    fileprivate final class Consumer: Sendable {
        let queue: FrameQueue<VideoFrame>
        let interruption: Interruption

        init(queue: FrameQueue<VideoFrame>, interruption: Interruption) {
            self.queue = queue
            self.interruption = interruption
        }

        deinit {
            interruption.cancel()
            queue.close()
        }
    }

    /// Stops the decoding: frames not yet read are dropped.
    public func cancel() {
        interruption.cancel()
        queue.close()
    }
}
