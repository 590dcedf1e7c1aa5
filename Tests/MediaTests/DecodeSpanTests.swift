import Media
import TestSupport
import Testing

/// A decode span (one part of a video, for one of several landmarkers) starts
/// at a key frame before it, found by the container's index (or, in a live
/// Matroska stream without one, by libav's search), instead of decoding
/// everything before it, and still hands out exactly the frames and pixels a
/// whole pass hands out within it.
@Suite("Decoding one span of a video")
struct DecodeSpanTests {
    struct Decoded {
        var timestamps: [Int] = []
        var checksums: [UInt32] = []
        var framesDecoded = 0
        var warnings: [String] = []
    }

    static func decode(_ path: String, frameRate: Double?, span: Range<Int>?) async throws -> Decoded {
        var options = VideoDecodeOptions()
        options.frameRate = frameRate
        options.span = span
        let reader = try VideoReader(path: path, options: options)
        var decoded = Decoded()
        for try await frame in reader.frames() {
            decoded.timestamps.append(frame.timestampMilliseconds)
            decoded.checksums.append(frameChecksum(frame.pixels))
        }
        decoded.framesDecoded = reader.report.framesDecoded
        decoded.warnings = reader.report.warnings
        return decoded
    }

    @Test(
        "a span seeks to a key frame before it and hands out a whole pass's frames within it",
        arguments: ["h264-keyframes.mp4", "h264-keyframes.mkv", "h264-keyframes-live.mkv", "mpeg4-keyframes.avi"], [nil, 12.0])
    func seeks(clip: String, frameRate: Double?) async throws {
        let path = try Clips.path(clip)
        let whole = try await Self.decode(path, frameRate: frameRate, span: nil)
        for span in [4_000..<7_500, 9_100..<Int.max] {
            let part = try await Self.decode(path, frameRate: frameRate, span: span)
            let inside = whole.timestamps.indices.filter { span.contains(whole.timestamps[$0]) }
            #expect(!part.timestamps.isEmpty)
            #expect(part.timestamps == inside.map { whole.timestamps[$0] })
            #expect(part.checksums == inside.map { whole.checksums[$0] }, "pixels differ from a whole pass's")
            // Key frames each second: at most about 2 s is decoded before the span, not all of it.
            let before = Int(Double(span.lowerBound) / 1000 * 30)
            let through = span.upperBound == .max ? 360 : Int(Double(span.upperBound) / 1000 * 30)
            #expect(part.framesDecoded < through - before + 75, "decoded \(part.framesDecoded)")
            #expect(part.warnings.isEmpty, "\(part.warnings)")
        }
    }

    @Test("a span that starts within the seek margin decodes from the beginning")
    func nearTheStart() async throws {
        let part = try await Self.decode(try Clips.path("nv12.mkv"), frameRate: nil, span: 500..<800)
        #expect(part.timestamps == [500, 533, 567, 600, 633, 667, 700, 733, 767])
        #expect(part.framesDecoded >= 24)
    }
}
