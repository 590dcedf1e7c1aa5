import Foundation
import Media
import TestSupport
import Testing

/// The formats phones and cameras record decode to the frames ffmpeg itself
/// gives: the same count, the same timestamps, the same RGB pixels.
@Suite("Containers, codecs and pixel formats")
struct FormatTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var clip: String
        var container: String
        var codec: String
        var pixelFormat: String
        var bitDepth: Int
        var testDescription: String { clip }
    }

    static let cases = [
        Case(clip: "h264.mp4", container: "mov,mp4,m4a,3gp,3g2,mj2", codec: "h264", pixelFormat: "yuv420p", bitDepth: 8),
        Case(clip: "hevc.mov", container: "mov,mp4,m4a,3gp,3g2,mj2", codec: "hevc", pixelFormat: "yuv420p", bitDepth: 8),
        Case(clip: "hevc10.mov", container: "mov,mp4,m4a,3gp,3g2,mj2", codec: "hevc", pixelFormat: "yuv420p10le", bitDepth: 10),
        Case(clip: "vp8.webm", container: "matroska,webm", codec: "vp8", pixelFormat: "yuv420p", bitDepth: 8),
        Case(clip: "vp9.mkv", container: "matroska,webm", codec: "vp9", pixelFormat: "yuv420p", bitDepth: 8),
        Case(clip: "av1.webm", container: "matroska,webm", codec: "av1", pixelFormat: "yuv420p", bitDepth: 8),
        Case(clip: "mpeg4.avi", container: "avi", codec: "mpeg4", pixelFormat: "yuv420p", bitDepth: 8),
        Case(clip: "mjpeg.avi", container: "avi", codec: "mjpeg", pixelFormat: "yuvj420p", bitDepth: 8),
        Case(clip: "nv12.mkv", container: "matroska,webm", codec: "rawvideo", pixelFormat: "nv12", bitDepth: 8),
        Case(clip: "h264-444-odd.mp4", container: "mov,mp4,m4a,3gp,3g2,mj2", codec: "h264", pixelFormat: "yuv444p", bitDepth: 8),
    ]

    static func nativeSize() -> VideoDecodeOptions {
        var options = VideoDecodeOptions()
        options.maxLongSide = nil
        return options
    }

    @Test("stream info, frame count, timestamps and pixels equal ffmpeg's", arguments: cases)
    func decodesLikeFFmpeg(_ expected: Case) async throws {
        let path = try Clips.path(expected.clip)
        let reference = try FFmpegFrames(path: path)
        let reader = try VideoReader(path: path, options: Self.nativeSize())
        let info = reader.info
        #expect(info.container == expected.container && info.codec == expected.codec)
        #expect(info.pixelFormat == expected.pixelFormat && info.bitDepth == expected.bitDepth)
        #expect(info.rotation == 0 && info.uprightWidth == info.width && info.uprightHeight == info.height)
        let odd = expected.clip.contains("odd")
        #expect(info.width == (odd ? 321 : 320) && info.height == (odd ? 241 : 240))
        #expect(info.averageFrameRate == (odd ? 25 : 30))
        #expect(info.durationMilliseconds.map { abs($0 - 1000) <= 40 } == true, "\(info)")

        var timestamps = [Int](), checksums = [UInt32]()
        for try await frame in reader.frames() {
            #expect(frame.width == info.width && frame.height == info.height)
            #expect(frame.pixels.count == frame.width * frame.height * 3)
            timestamps.append(frame.timestampMilliseconds)
            checksums.append(frameChecksum(frame.pixels))
        }
        #expect(timestamps.count == (odd ? 25 : 30))
        #expect(timestamps == reference.timestamps)
        #expect(checksums == reference.checksums, "RGB pixels differ from ffmpeg's own conversion")
        #expect(reader.report.warnings.isEmpty && reader.report.decodeErrors == 0)
        #expect(reader.report.framesDelivered == timestamps.count)
    }

    @Test("a variable frame rate keeps each frame's own time")
    func variableFrameRate() async throws {
        let path = try Clips.path("vfr.mkv")
        let reference = try FFmpegFrames(path: path)
        let reader = try VideoReader(path: path, options: Self.nativeSize())
        var timestamps = [Int]()
        for try await frame in reader.frames() { timestamps.append(frame.timestampMilliseconds) }
        #expect(timestamps == reference.timestamps && timestamps.count == 48)
        let gaps = Set(zip(timestamps.dropFirst(), timestamps).map { $0 - $1 })
        #expect(gaps == [33, 34, 66, 67], "irregular gaps: \(gaps.sorted())")
    }

    @Test("--fps hands out, for each point of a 100 ms grid, the first frame at or after it")
    func sampling() async throws {
        for clip in ["h264.mp4", "vfr.mkv"] {
            var every = [Int]()
            for try await frame in try VideoReader(path: try Clips.path(clip)).frames() {
                every.append(frame.timestampMilliseconds)
            }
            var options = VideoDecodeOptions()
            options.frameRate = 10
            var sampled = [Int]()
            for try await frame in try VideoReader(path: try Clips.path(clip), options: options).frames() {
                sampled.append(frame.timestampMilliseconds)
            }
            // Timestamps are whole milliseconds, so a frame 1 ms early counts as on time.
            let expected = stride(from: 0, through: every.last!, by: 100).compactMap { point in
                every.first { $0 >= point - 1 }
            }
            #expect(sampled == expected.reduce(into: [Int]()) { if $0.last != $1 { $0.append($1) } }, "\(clip)")
            #expect(sampled.count >= every.last! / 100, "\(clip): \(sampled)")
        }
    }

    @Test("frames are scaled down to the long-side cap, keeping the aspect ratio")
    func scaling() async throws {
        var options = VideoDecodeOptions()
        options.maxLongSide = 160
        let reader = try VideoReader(path: try Clips.path("h264.mp4"), options: options)
        #expect(reader.frameWidth == 160 && reader.frameHeight == 120)
        var count = 0
        for try await frame in reader.frames() {
            #expect(frame.width == 160 && frame.height == 120 && frame.pixels.count == 160 * 120 * 3)
            count += 1
        }
        #expect(count == 30)
        // Smaller than the cap: left alone.
        let small = try VideoReader(path: try Clips.path("h264-444-odd.mp4"))
        #expect(small.frameWidth == 321 && small.frameHeight == 241)
    }

    @Test("the real video vtest.avi: 795 frames, 100 ms apart, the pixels ffmpeg gives")
    func vtest() async throws {
        let path = TestAssets.photo("vtest.avi")
        let reference = try FFmpegFrames(path: path)
        let reader = try VideoReader(path: path)
        #expect(reader.info.frameCount == 795 && reader.info.averageFrameRate == 10)
        #expect(reader.frameWidth == 768 && reader.frameHeight == 576)
        var timestamps = [Int](), checksums = [UInt32]()
        for try await frame in reader.frames() {
            timestamps.append(frame.timestampMilliseconds)
            checksums.append(frameChecksum(frame.pixels))
        }
        #expect(timestamps == (0..<795).map { $0 * 100 })
        #expect(checksums == reference.checksums)
    }

    @Test("a file stored sideways with a display matrix is decoded upright, as ffmpeg plays it")
    func rotation() async throws {
        let rotated = try VideoReader(path: try Clips.path("person-rotated.mp4"), options: Self.nativeSize())
        #expect(rotated.info.rotation == 270 && rotated.info.width == 1080 && rotated.info.height == 810)
        #expect(rotated.info.uprightWidth == 810 && rotated.info.uprightHeight == 1080)
        #expect(rotated.frameWidth == 810 && rotated.frameHeight == 1080)
        let reference = try FFmpegFrames(path: try Clips.path("person-rotated.mp4"))
        let upright = try VideoReader(path: try Clips.path("person.mp4"), options: Self.nativeSize())
        var rotatedFrames = [[UInt8]](), uprightFrames = [[UInt8]]()
        for try await frame in rotated.frames() { rotatedFrames.append(frame.pixels) }
        for try await frame in upright.frames() { uprightFrames.append(frame.pixels) }
        #expect(rotatedFrames.map(frameChecksum) == reference.checksums)
        try #require(rotatedFrames.count == 10 && uprightFrames.count == 10)
        // The same photo, encoded twice: close, not equal.
        let difference = zip(rotatedFrames[0], uprightFrames[0]).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(uprightFrames[0].count) < 4, "mean difference per sample")
    }

    @Test("a byte source gives the same frames as the file")
    func byteSource() async throws {
        let path = try Clips.path("h264.mp4")
        let fromFile = try VideoReader(path: path)
        let fromBytes = try VideoReader(
            source: DataByteSource(try Data(contentsOf: URL(fileURLWithPath: path))), name: "upload.mp4")
        #expect(fromBytes.info.codec == "h264" && fromBytes.info.frameCount == fromFile.info.frameCount)
        var fileChecksums = [UInt32](), byteChecksums = [UInt32]()
        for try await frame in fromFile.frames() { fileChecksums.append(frameChecksum(frame.pixels)) }
        for try await frame in fromBytes.frames() { byteChecksums.append(frameChecksum(frame.pixels)) }
        #expect(byteChecksums == fileChecksums && byteChecksums.count == 30)
    }
}
