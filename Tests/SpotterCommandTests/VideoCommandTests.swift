import Foundation
import TestSupport
import Testing

/// `spotter probe` and `spotter landmarks` on videos (contracts §1).
@Suite("spotter probe and landmarks on videos")
struct VideoCommandTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-video-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @Test("probe --json prints one JSON document with the stream info")
    func probeJSON() async throws {
        let outcome = try await SpotterProcess.run(["probe", try Clips.path("person-rotated.mp4"), "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let info = try #require(JSONSerialization.jsonObject(with: outcome.standardOutput) as? [String: Any])
        #expect(info["container"] as? String == "mov,mp4,m4a,3gp,3g2,mj2" && info["codec"] as? String == "h264")
        #expect(info["width"] as? Int == 1080 && info["height"] as? Int == 810 && info["rotation"] as? Int == 270)
        #expect(info["upright_width"] as? Int == 810 && info["fps"] as? Double == 10)
        #expect(info["duration_ms"] as? Int == 1000 && info["frames"] as? Int == 10)
        #expect(info["pix_fmt"] as? String == "yuv420p" && info["bit_depth"] as? Int == 8)
    }

    @Test("probe prints the stream info as text")
    func probeText() async throws {
        let outcome = try await SpotterProcess.run(["probe", try Clips.path("hevc10.mov")])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let text = String(decoding: outcome.standardOutput, as: UTF8.self)
        for fragment in ["codec:        hevc (Main 10)", "size:         320×240", "yuv420p10le, 10 bit", "30.000 average"] {
            #expect(text.contains(fragment), "\(text)")
        }
    }

    @Test("landmarks of a video with --fps: header of the upright frames at that rate, frames in order")
    func videoTrack() async throws {
        let out = path("person.jsonl")
        let outcome = try await SpotterProcess.run(["landmarks", try Clips.path("person-rotated.mp4"), "--fps", "5", "--out", out])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        let header = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["fps"] as? Double == 5 && header["width"] as? Int == 810 && header["height"] as? Int == 1080)
        let frames = try lines.dropFirst().map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(frames.compactMap { $0["t_ms"] as? Int } == [0, 200, 400, 600, 800])
        #expect(frames.allSatisfy { ($0["poses"] as? [Any])?.count == 1 })
    }

    @Test(
        "broken videos exit 65 with one line naming the file, and leave no output",
        arguments: ["audio.m4a", "cut.mp4", "noise.mp4", "empty.mov"])
    func brokenVideos(_ name: String) async throws {
        let input = path(name)
        switch name {
        case "audio.m4a": try FileManager.default.copyItem(atPath: try Clips.path("sine.m4a"), toPath: input)
        case "cut.mp4":
            let data = try Data(contentsOf: URL(fileURLWithPath: try Clips.path("h264.mp4")))
            try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: input))
        case "noise.mp4": try Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }).write(to: URL(fileURLWithPath: input))
        default: try Data().write(to: URL(fileURLWithPath: input))
        }
        for arguments in [["landmarks", input, "--out", path("track.jsonl")], ["probe", input]] {
            let outcome = try await SpotterProcess.run(arguments)
            #expect(outcome.status == 65, "\(arguments): \(outcome.standardError)")
            #expect(outcome.errorLines.count == 1 && outcome.errorLines.first?.contains(input) == true, "\(outcome.standardError)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [name], "no partial output")
    }

    @Test("a cut video still gives a track, and a warning on stderr")
    func partialVideo() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: try Clips.path("h264-faststart.mp4")))
        let input = path("cut-mdat.mp4")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: input))
        let outcome = try await SpotterProcess.run(["landmarks", input, "--out", path("track.jsonl")])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("truncated_input:"), "\(outcome.standardError)")
        #expect(FileManager.default.fileExists(atPath: path("track.jsonl")))
    }

    @Test("--fps must be positive", arguments: ["0", "-3", "abc"])
    func badRate(_ rate: String) async throws {
        #expect(try await SpotterProcess.run(["landmarks", "x.mp4", "--fps", rate]).status == 64)
    }
}
