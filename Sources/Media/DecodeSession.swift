internal import CFFmpeg
internal import CFFmpegShims
import Foundation

/// One pass over a reader's packets: reads, decodes, samples, converts and
/// hands frames over, and keeps count of what was lost.
struct DecodeSession {
    let reader: VideoReader
    var report = DecodeReport()
    var sampler: FrameSampler
    var startPTS: Int64?
    var lastPTS: Int64?
    var duplicates = 0
    var readFailure: Int32?
    /// Set when the options' span has been handed out: decoding stops there.
    var spanEnded = false
    /// Set after a seek to a span's key frame, until the first frame shows
    /// whether the seek landed early enough.
    var seekCheckPending = false
    /// Set when a seek landed after the span's start: the pass starts again from the beginning.
    var overshot = false
    let converter: FrameConverter

    init(reader: VideoReader) {
        self.reader = reader
        sampler = FrameSampler(frameRate: reader.samplingRate)
        converter = FrameConverter(geometry: reader.geometry)
        let start = reader.demuxer.videoStream.pointee.start_time
        startPTS = start == noTimestamp ? nil : start
    }

    mutating func run(_ queue: FrameQueue<VideoFrame>) throws {
        var packetOwner = av_packet_alloc(), frameOwner = av_frame_alloc()
        defer {
            av_packet_free(&packetOwner)
            av_frame_free(&frameOwner)
        }
        guard let packet = packetOwner, let frame = frameOwner else { throw MediaError(.corrupt, "\(reader.name): out of memory") }
        try seekToSpan()
        var consumerGone = try read(packet, frame, into: queue)
        if overshot {
            try rewind()
            consumerGone = try read(packet, frame, into: queue)
        }
        if spanEnded { return try conclude() }
        if consumerGone { return }
        _ = reader.decoder.send(nil)
        _ = try drain(frame, into: queue)
        try conclude()
    }

    /// Reads and decodes packets until the input ends, the span is through,
    /// a seek shows it overshot, or the consumer has gone (then true).
    private mutating func read(
        _ packet: UnsafeMutablePointer<AVPacket>, _ frame: UnsafeMutablePointer<AVFrame>, into queue: FrameQueue<VideoFrame>
    ) throws -> Bool {
        let context = reader.demuxer.context, streamIndex = reader.demuxer.videoStream.pointee.index
        var consumerGone = false
        reading: while !consumerGone {
            let status = reader.demuxer.interruption.shouldStop ? CFFmpeg_errorExit() : av_read_frame(context, packet)
            if status == CFFmpeg_errorEndOfFile() { break reading }
            if status == CFFmpeg_errorAgain() { continue }
            if status < 0 {
                if reader.demuxer.interruption.isCancelled { return true }
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
        return consumerGone
    }

    /// For a span that starts later: moves to the key frame at or before
    /// `seekMarginMilliseconds` ahead of it (by the container's index, or
    /// libav's search without one), so that the video before it is neither read
    /// nor decoded. A seek that fails, or lands after the span's start (the
    /// first frame shows), is undone: the pass starts again at the beginning.
    private mutating func seekToSpan() throws {
        guard let span = reader.options.span, span.lowerBound > Self.seekMarginMilliseconds, let start = startPTS else { return }
        let stream = reader.demuxer.videoStream.pointee
        let target = start + av_rescale_q(
            Int64(span.lowerBound - Self.seekMarginMilliseconds), AVRational(num: 1, den: 1000), stream.time_base)
        guard av_seek_frame(reader.demuxer.context, stream.index, target, AVSEEK_FLAG_BACKWARD) >= 0 else { return try rewind() }
        seekCheckPending = true
    }

    /// How far before a span its seek aims, so that frames whose presentation
    /// follows their key frame's decoding time still come before the span.
    static let seekMarginMilliseconds = 1_000

    /// Back to the beginning after a seek that failed or landed too late, as if none had been made.
    private mutating func rewind() throws {
        let stream = reader.demuxer.videoStream.pointee
        let status = av_seek_frame(reader.demuxer.context, stream.index, startPTS ?? 0, AVSEEK_FLAG_BACKWARD)
        guard status >= 0 else {
            throw MediaError(.unreadable, "\(reader.name): cannot return to the start after seeking", ffmpegCode: status)
        }
        reader.decoder.flush()
        sampler = FrameSampler(frameRate: reader.samplingRate)
        report = DecodeReport()
        lastPTS = nil
        duplicates = 0
        readFailure = nil
        overshot = false
        seekCheckPending = false
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
            if seekCheckPending {
                seekCheckPending = false
                if let span = reader.options.span, timestamp > span.lowerBound {
                    overshot = true
                    return true
                }
            }
            if let last = sampler.lastAccepted, timestamp <= last {
                duplicates += 1
                continue
            }
            guard sampler.accept(timestamp) else { continue }
            if let span = reader.options.span {
                if timestamp >= span.upperBound {
                    spanEnded = true
                    return true
                }
                if timestamp < span.lowerBound { continue }
            }
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
            let reason = readFailure.map { "reading failed: \(describeFFmpegError($0))" } ?? "damaged video data"
            throw MediaError(.corrupt, "\(name): no frame could be decoded (\(reason))").quotingLibavLog()
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
        if !spanEnded, let duration = reader.info.durationMilliseconds, let rate = reader.info.averageFrameRate,
           Double(reached) + 2000 / rate + 500 < Double(duration) {
            report.warnings.append(
                "truncated_input: \(name) decodes to \(seconds(reached)) of the \(seconds(duration)) its header announces")
        }
        if duplicates > 0 {
            report.warnings.append("skipped_frames: \(duplicates) frame(s) of \(name) repeated an earlier timestamp")
        }
    }
}
