import Foundation
import Media
import TestSupport
import Testing

/// A deterministic mutation loop over the demuxer and decoder: damaged copies of
/// real clips, read through a byte source, must each end in frames or a
/// `MediaError`, never a crash or a hang. CI runs a few hundred; `ops/fuzz`
/// runs many more (SPOTTER_FUZZ_ITERATIONS, SPOTTER_FUZZ_SEED).
@Suite("Fuzzing the demuxer and decoder")
struct FuzzTests {
    static let seeds = ["h264.mp4", "h264-faststart.mp4", "vp9.mkv", "mpeg4.avi", "mjpeg.avi", "hevc10.mov"]
    static let environment = ProcessInfo.processInfo.environment
    static let iterations = environment["SPOTTER_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 240
    static let seed = environment["SPOTTER_FUZZ_SEED"].flatMap(UInt64.init) ?? 1

    @Test("damaged inputs end in frames or a clear error")
    func mutations() async throws {
        let inputs = try Self.seeds.map { try Data(contentsOf: URL(fileURLWithPath: try Clips.path($0))) }
        var generator = SeededGenerator(seed: Self.seed)
        var options = VideoDecodeOptions()
        options.maxLongSide = 64
        options.limits.deadline = .seconds(20)
        var outcomes: [String: Int] = [:]
        for iteration in 0..<Self.iterations {
            let input = Self.mutate(inputs[iteration % inputs.count], using: &generator)
            do {
                let reader = try VideoReader(source: DataByteSource(input), name: "fuzz-\(iteration)", options: options)
                var last = -1
                for try await frame in reader.frames() {
                    #expect(frame.timestampMilliseconds > last, "iteration \(iteration): timestamps must increase")
                    #expect(frame.pixels.count == frame.width * frame.height * 3)
                    last = frame.timestampMilliseconds
                }
                outcomes["decoded", default: 0] += 1
            } catch let error as MediaError {
                #expect(error.message.hasPrefix("fuzz-\(iteration)"), "\(error)")
                outcomes[error.code.description, default: 0] += 1
            }
        }
        // Every input ended decoded or refused with a MediaError naming it (anything else failed above);
        // the mutations must reach both, or the fuzzing exercised only one path.
        #expect(outcomes["decoded", default: 0] > 0 && outcomes.count > 1, "\(outcomes)")
        print("fuzz: \(Self.iterations) inputs from seed \(Self.seed): \(outcomes.sorted { $0.key < $1.key })")
    }

    @Test("damaged playlists, manifests and concat lists pointing at a real video are refused, as files and as bytes")
    func redirectingMutations() async throws {
        let video = try Clips.path("h264.mp4")
        let inputs = [
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n\(video)\n#EXT-X-ENDLIST\n",
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\n\(video)\n",
            "ffconcat version 1.0\nfile '\(video)'\nfile '\(video)'\n",
            "<?xml version=\"1.0\"?><MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" type=\"static\"><Period><AdaptationSet>"
                + "<Representation id=\"1\" bandwidth=\"1\"><BaseURL>\(video)</BaseURL></Representation></AdaptationSet></Period></MPD>",
        ].map { Data($0.utf8) }
        var generator = SeededGenerator(seed: Self.seed)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-fuzz-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for iteration in 0..<Self.iterations / 4 {
            let input = iteration < inputs.count ? inputs[iteration] : Self.mutate(inputs[iteration % inputs.count], using: &generator)
            let file = directory.appendingPathComponent("upload-\(iteration).mp4").path
            try input.write(to: URL(fileURLWithPath: file))
            for open in [{ try VideoReader(path: file) }, { try VideoReader(source: DataByteSource(input), name: file) }] {
                do {
                    var frames = 0
                    for try await _ in try open().frames() { frames += 1 }
                    Issue.record("iteration \(iteration): \(frames) frames from a text pointing at another file")
                } catch let error as MediaError {
                    #expect(error.message.hasPrefix(file), "\(error)")
                }
            }
        }
    }

    /// One to four random edits: bit flips, random bytes, inserted, deleted or
    /// duplicated runs, or a cut.
    static func mutate(_ original: Data, using generator: inout SeededGenerator) -> Data {
        var data = [UInt8](original)
        for _ in 0..<Int.random(in: 1...4, using: &generator) where !data.isEmpty {
            let position = Int.random(in: 0..<data.count, using: &generator)
            let length = min(Int.random(in: 1...512, using: &generator), data.count - position)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0:
                for _ in 0..<Int.random(in: 1...32, using: &generator) {
                    data[Int.random(in: 0..<data.count, using: &generator)] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                }
            case 1:
                for index in position..<(position + length) { data[index] = UInt8.random(in: 0...255, using: &generator) }
            case 2:
                data.insert(contentsOf: (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }, at: position)
            case 3: data.removeSubrange(position..<(position + length))
            case 4: data.insert(contentsOf: data[position..<(position + length)], at: Int.random(in: 0..<data.count, using: &generator))
            default: data.removeSubrange(position...)
            }
        }
        return Data(data)
    }
}
