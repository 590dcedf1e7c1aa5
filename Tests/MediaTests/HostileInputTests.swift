import Foundation
import Media
import TestSupport
import Testing

/// Broken, truncated, hostile and unsupported files end in a clear error, or,
/// where part of the video decodes, in frames and a warning saying what was lost.
@Suite("Hostile and broken input")
struct HostileInputTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ data: Data) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    func clipData(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: try Clips.path(name)))
    }

    /// Opens and decodes `path` to the end: the frames' timestamps, or the error.
    func decode(_ path: String, options: VideoDecodeOptions = VideoDecodeOptions()) async -> Result<([Int], DecodeReport), any Error> {
        do {
            let reader = try VideoReader(path: path, options: options)
            var timestamps = [Int]()
            for try await frame in reader.frames() { timestamps.append(frame.timestampMilliseconds) }
            return .success((timestamps, reader.report))
        } catch {
            return .failure(error)
        }
    }

    func expectFailure(
        _ path: String, _ code: MediaError.Code, mentioning fragment: String,
        options: VideoDecodeOptions = VideoDecodeOptions(), sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        switch await decode(path, options: options) {
        case .success(let (timestamps, _)):
            Issue.record("\(path) decoded \(timestamps.count) frames; expected \(code)", sourceLocation: sourceLocation)
        case .failure(let error as MediaError):
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.hasPrefix(path), "the message names the file: \(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(fragment), "\(error)", sourceLocation: sourceLocation)
        case .failure(let error):
            Issue.record("not a MediaError: \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("missing, empty, text and random files")
    func notVideos() async throws {
        await expectFailure(directory.appendingPathComponent("absent.mp4").path, .unreadable, mentioning: "no such file")
        await expectFailure(try write("empty.mp4", Data()), .unreadable, mentioning: "empty file")
        await expectFailure(try write("notes.mp4", Data("3x5 squats at 100 kg\n".utf8)), .notAVideo, mentioning: "not a video")
        var generator = SeededGenerator(seed: 7)
        let noise = Data((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        await expectFailure(try write("noise.mov", noise), .notAVideo, mentioning: "not a video")
    }

    @Test("an audio-only file has no video stream")
    func audioOnly() async throws {
        await expectFailure(try Clips.path("sine.m4a"), .noVideoStream, mentioning: "no video stream")
    }

    @Test("an MP4 cut short before its index (moov at the end) cannot be opened")
    func truncatedBeforeIndex() async throws {
        let data = try clipData("h264.mp4")
        await expectFailure(try write("cut.mp4", data.prefix(data.count * 6 / 10)), .notAVideo, mentioning: "moov atom not found")
    }

    @Test("an MP4 cut in its media data gives the frames before the cut and a warning")
    func truncatedMediaData() async throws {
        let data = try clipData("h264-faststart.mp4")
        let result = await decode(try write("cut-mdat.mp4", data.prefix(data.count / 2)))
        let (timestamps, report) = try result.get()
        #expect(timestamps.count > 3 && timestamps.count < 30, "\(timestamps.count) frames")
        #expect(report.warnings.contains { $0.hasPrefix("truncated_input:") && $0.contains("of the 1.0 s") }, "\(report.warnings)")
    }

    @Test("flipped bits in the payload are survived: frames in order, damage reported", arguments: [1, 2, 3])
    func bitFlips(seed: UInt64) async throws {
        var data = try clipData("h264-faststart.mp4")
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<60 {
            let index = Int.random(in: (data.count / 5)..<data.count, using: &generator)
            data[index] ^= 1 << UInt8.random(in: 0...7, using: &generator)
        }
        switch await decode(try write("flipped-\(seed).mp4", data)) {
        case .success(let (timestamps, report)):
            #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 })
            #expect(report.framesDelivered == timestamps.count)
        case .failure(let error):
            let code = (error as? MediaError)?.code
            #expect(code == .corrupt || code == .notAVideo, "\(error)")
        }
    }

    /// Documents that make libav open other files, each named `.mp4`: they must
    /// be refused, never followed to the (real, local) video they point at.
    func redirecting(to video: String) -> [(name: String, text: String)] {
        [
            ("playlist.mp4", "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n\(video)\n#EXT-X-ENDLIST\n"),
            ("concat.mp4", "ffconcat version 1.0\nfile '\(video)'\n"),
            ("manifest.mp4", """
                <?xml version="1.0"?>
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT2S">
                <Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="1000">
                <BaseURL>\(video)</BaseURL></Representation></AdaptationSet></Period></MPD>
                """),
        ]
    }

    @Test("a playlist, a manifest or a concat list is refused, never followed to another file; from a file or a byte source")
    func noNestedOpens() async throws {
        let video = try Clips.path("h264.mp4")
        #expect(try await decode(video).get().0.count > 0, "the file they point at is a good video")
        for (name, text) in redirecting(to: video) {
            await expectFailure(try write(name, Data(text.utf8)), .notAVideo, mentioning: "not a video")
            let fromBytes = Result { try VideoReader(source: DataByteSource(Data(text.utf8)), name: "upload-\(name)") }
            #expect((fromBytes.failure as? MediaError)?.code == .notAVideo, "\(name) from bytes: \(fromBytes)")
        }
    }

    @Test("zero and absurd frame sizes are refused")
    func dimensions() async throws {
        let header = { (size: String) in Data("YUV4MPEG2 \(size) F30:1 Ip A1:1 C420jpeg\nFRAME\n".utf8) + Data(count: 64) }
        await expectFailure(try write("zero.y4m", header("W0 H0")), .corrupt, mentioning: "0x0 is invalid")
        await expectFailure(try write("wide.y4m", header("W20000 H16")), .invalidDimensions, mentioning: "absurd frame size")
    }

    @Test("a codec libav cannot decode is named")
    func unknownCodec() async throws {
        var unknown = try clipData("mpeg4.avi")
        // The AVI's stream header and format both carry the codec's tag.
        while let range = unknown.firstRange(of: Data("FMP4".utf8)) { unknown.replaceSubrange(range, with: Data("QQQQ".utf8)) }
        await expectFailure(try write("unknown.avi", unknown), .unsupportedCodec, mentioning: "tag QQQQ")
    }

    @Test("limits are enforced when the file is opened")
    func limits() async throws {
        let path = try Clips.path("h264.mp4")
        var options = VideoDecodeOptions()
        options.limits.maxPixels = 320 * 239
        await expectFailure(path, .limitExceeded, mentioning: "pixels", options: options)
        options = VideoDecodeOptions()
        options.limits.maxDurationMilliseconds = 500
        await expectFailure(path, .limitExceeded, mentioning: "longer than the limit", options: options)
        options = VideoDecodeOptions()
        options.limits.maxFrameRate = 25
        await expectFailure(path, .limitExceeded, mentioning: "frames/s", options: options)
        options = VideoDecodeOptions()
        options.limits.maxFileBytes = 1000
        await expectFailure(path, .limitExceeded, mentioning: "bytes", options: options)
    }

    @Test("reading past the deadline is interrupted")
    func deadline() async throws {
        var options = VideoDecodeOptions()
        options.limits.deadline = .zero
        await expectFailure(try Clips.path("h264.mp4"), .timedOut, mentioning: "deadline", options: options)

        // A source that trickles: opening succeeds, decoding runs out of time.
        options.limits.deadline = .milliseconds(500)
        let source = TricklingSource(try clipData("h264-faststart.mp4"), delay: .milliseconds(30))
        do {
            let reader = try VideoReader(source: source, name: "trickle.mp4", options: options)
            for try await _ in reader.frames() {}
            Issue.record("the trickling source was read to the end within the deadline")
        } catch let error as MediaError {
            #expect(error.code == .timedOut, "\(error)")
        }
    }

    @Test("a reader hands its frames out once, and leaving the loop early stops the decoding thread")
    func leavingEarly() async throws {
        var options = VideoDecodeOptions()
        options.bufferedFrames = 1
        let reader = try VideoReader(path: try Clips.path("h264.mp4"), options: options)
        var seen = 0
        for try await _ in reader.frames() {
            seen += 1
            if seen == 3 { break }
        }
        await #expect(throws: MediaError.self) { for try await _ in reader.frames() {} }
        // The decoding thread records its report as it ends; one still waiting for room in the queue never does.
        var waited = 0
        while reader.report.framesDelivered == 0, waited < 200 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        let report = reader.report
        #expect(report.framesDelivered >= 3, "the decoding thread is still waiting after the loop was left")
        #expect(report.framesDecoded < 30, "decoding stopped with the consumer: \(report.framesDecoded) frames decoded")
    }
}

/// A byte source that waits before every read, like a slow network.
final class TricklingSource: ByteSource, @unchecked Sendable {
    private let inner: DataByteSource
    private let delay: Duration

    init(_ data: Data, delay: Duration) {
        inner = DataByteSource(data)
        self.delay = delay
    }

    var size: Int64? { inner.size }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds))
        return try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(2048)))
    }

    func seek(to offset: Int64) throws { try inner.seek(to: offset) }
}

extension Result {
    /// The error, if it is one.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
