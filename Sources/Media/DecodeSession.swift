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
        if spanEnded { return try conclude() }
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
