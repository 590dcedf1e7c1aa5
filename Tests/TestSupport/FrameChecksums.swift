import CFFmpeg
import Foundation

/// The checksum of ffmpeg's framecrc muxer: Adler-32 as `av_adler32_update(0, …)`.
public func frameChecksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { UInt32(av_adler32_update(0, $0.baseAddress, $0.count)) }
}

/// What ffmpeg's own decoding gives for a video, frame by frame.
public struct FFmpegFrames {
    /// Per frame, its presentation time in milliseconds from the stream's start.
    public var timestamps: [Int]
    /// Per frame, the Adler-32 of its RGB24 pixels (ffmpeg turns rotated video upright).
    public var checksums: [UInt32]

    /// Decodes `path` with the ffmpeg tool, every frame at its native size.
    public init(path: String) throws {
        let probe = try Clips.run("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_time:frame=best_effort_timestamp_time",
            "-of", "csv=p=0", path,
        ])
        let lines = String(decoding: probe, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // ffprobe prints the frames, then the stream's start time.
        let values = lines.compactMap { Double($0.split(separator: ",").first ?? "") }
        let start = values.last ?? 0
        timestamps = values.dropLast().map { Int((($0 - start) * 1000).rounded()) }
        let crc = try Clips.run("/usr/bin/ffmpeg", [
            "-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-pix_fmt", "rgb24", "-fps_mode", "passthrough",
            "-f", "framecrc", "-",
        ])
        checksums = String(decoding: crc, as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .compactMap { line in line.split(separator: ",").last.flatMap { UInt32($0.trimmingCharacters(in: .whitespaces).dropFirst(2), radix: 16) } }
    }
}
