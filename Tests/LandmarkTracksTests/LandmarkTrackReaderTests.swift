import Foundation
import LandmarkTracks
import Testing

@Suite("Reading spotter.landmarks/v1")
struct LandmarkTrackReaderTests {
    static let header = #"{"format":"spotter.landmarks/v1","fps":30,"width":640,"height":480,"source":"a.mp4"}"#
    static let row5 = "[0.5,0.5,0,0.9,0.9]"
    static let pose = #"{"landmarks":[\#(Array(repeating: row5, count: 33).joined(separator: ","))],"world":[\#(Array(repeating: row5, count: 33).joined(separator: ","))]}"#

    static func frame(_ t: Int, poses: String = pose) -> String { #"{"t_ms":\#(t),"poses":[\#(poses)]}"# }

    @Test("a track reads back, blank lines and CRLF tolerated")
    func reads() throws {
        let text = [Self.header, Self.frame(0), "", Self.frame(33) + "\r", #"{"t_ms":66,"poses":[]}"#].joined(separator: "\n")
        let track = try LandmarkTrack(contentsOf: Data(text.utf8), name: "t.jsonl")
        #expect(track.header.width == 640 && track.frames.count == 3 && track.frames[2].poses.isEmpty)
        #expect(track.frames[0].poses[0].landmarks[32].visibility == 0.9)
    }

    static let broken: [(String, [String], Int, String)] = [
        ("empty", [], 1, "empty track"),
        ("not JSON", [header, "{oops"], 2, "not a JSON object"),
        ("wrong format", [header.replacingOccurrences(of: "landmarks/v1", with: "landmarks/v9"), frame(0)], 1, "format is"),
        ("no width", [#"{"format":"spotter.landmarks/v1","fps":30,"height":480,"source":"a"}"#], 1, "no \"width\""),
        ("time backwards", [header, frame(40), frame(40)], 3, "does not follow 40"),
        ("short pose", [header, frame(0, poses: pose.replacingOccurrences(of: row5 + ",", with: "", options: [], range: pose.range(of: row5 + ",")))], 2, "not 33"),
        ("bad row", [header, frame(0, poses: pose.replacingOccurrences(of: "[0.5,0.5,0,0.9,0.9]]", with: "[0.5,0.5,0,0.9]]"))], 2, "3 or 5 numbers"),
        ("no t_ms", [header, #"{"poses":[]}"#], 2, "no \"t_ms\""),
    ]

    @Test("malformed tracks are refused with file:line and the reason", arguments: broken.map(\.0))
    func malformed(_ name: String) {
        let (_, lines, line, reason) = Self.broken.first { $0.0 == name }!
        let error = #expect(throws: TrackError.self) {
            try LandmarkTrack(contentsOf: Data(lines.joined(separator: "\n").utf8), name: "session.jsonl")
        }
        #expect(error?.line == line, "\(error?.description ?? "")")
        #expect(error?.description.hasPrefix("session.jsonl:\(line): ") == true && error?.description.contains(reason) == true,
                "\(error?.description ?? "")")
    }
}
