import Foundation
import LandmarkTracks
import Testing

@Suite("spotter.landmarks/v1 writer")
struct LandmarkTrackWriterTests {
    static let pose = TrackPose(
        landmarks: (0..<33).map { TrackLandmark(x: Float($0) / 33, y: 0.5, z: -0.25, visibility: 0.9, presence: 0.8) },
        world: (0..<33).map { TrackLandmark(x: Float($0) / 100, y: -0.5, z: 0.125, visibility: 0.9, presence: 0.8) })
    static let hand = TrackHand(
        handedness: "Left", score: 0.97,
        landmarks: (0..<21).map { TrackLandmark(x: Float($0) / 21, y: 0.25, z: 0) },
        world: (0..<21).map { TrackLandmark(x: Float($0) / 1000, y: 0.01, z: -0.02) })

    func lines(_ header: LandmarkTrackHeader, _ frames: [LandmarkTrackFrame]) throws -> [String] {
        var output = Data()
        let writer = try LandmarkTrackWriter(header: header) { output.append($0) }
        for frame in frames { try writer.append(frame) }
        let text = try #require(String(data: output, encoding: .utf8))
        #expect(text.hasSuffix("\n"))
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    func object(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("the header and frames have the contract's fields and shapes")
    func contractShape() throws {
        let header = LandmarkTrackHeader(fps: 30, width: 1920, height: 1080, source: "squat.mp4")
        let written = try lines(header, [
            LandmarkTrackFrame(timestampMilliseconds: 33, poses: [Self.pose], hands: [Self.hand]),
            LandmarkTrackFrame(timestampMilliseconds: 66, poses: [], hands: nil),
        ])
        #expect(written.count == 3)
        #expect(written[0] == #"{"format":"spotter.landmarks/v1","fps":30.0,"width":1920,"height":1080,"source":"squat.mp4"}"#)

        let first = try object(written[1])
        #expect(first["t_ms"] as? Int == 33)
        let poses = try #require(first["poses"] as? [[String: Any]])
        let rows = try #require(poses.first?["landmarks"] as? [[Double]])
        #expect(rows.count == 33 && rows.allSatisfy { $0.count == 5 })
        #expect(rows[3].map(Float.init) == [Float(3) / 33, 0.5, -0.25, 0.9, 0.8])
        let world = try #require(poses.first?["world"] as? [[Double]])
        #expect(world.count == 33 && world.allSatisfy { $0.count == 5 })
        let hands = try #require(first["hands"] as? [[String: Any]])
        #expect(hands.first?["handedness"] as? String == "Left")
        #expect((hands.first?["score"] as? Double).map { Float($0) } == 0.97)
        let handRows = try #require(hands.first?["landmarks"] as? [[Double]])
        #expect(handRows.count == 21 && handRows.allSatisfy { $0.count == 3 })

        let second = try object(written[2])
        #expect((second["poses"] as? [Any])?.isEmpty == true)
        #expect(second["hands"] == nil, "a frame without hand results omits hands")
    }

    @Test("written tracks read back to the same values")
    func roundTrip() throws {
        let frame = LandmarkTrackFrame(timestampMilliseconds: 1200, poses: [Self.pose, Self.pose], hands: [Self.hand])
        let written = try lines(LandmarkTrackHeader(fps: 29.97, width: 720, height: 1280, source: "a.mov"), [frame])
        let decoder = JSONDecoder()
        #expect(try decoder.decode(LandmarkTrackHeader.self, from: Data(written[0].utf8))
            == LandmarkTrackHeader(fps: 29.97, width: 720, height: 1280, source: "a.mov"))
        #expect(try decoder.decode(LandmarkTrackFrame.self, from: Data(written[1].utf8)) == frame)
    }

    @Test("sources with quotes, backslashes and control characters stay valid JSON")
    func escaping() throws {
        let source = "clips/\"odd\" \\ name\t\u{01}é.mp4"
        let written = try lines(LandmarkTrackHeader(fps: 0, width: 1, height: 1, source: source), [])
        #expect(try object(written[0])["source"] as? String == source)
    }

    @Test("a non-finite number, which JSON cannot carry, is written as null")
    func nonFinite() throws {
        var pose = Self.pose
        pose.landmarks[0].z = .nan
        pose.world[1].x = .infinity
        let written = try lines(
            LandmarkTrackHeader(fps: 30, width: 2, height: 2, source: "x"),
            [LandmarkTrackFrame(timestampMilliseconds: 0, poses: [pose], hands: nil)])
        let poses = try #require(try object(written[1])["poses"] as? [[String: Any]])
        let row = try #require((poses[0]["landmarks"] as? [[Any]])?.first)
        #expect(row[2] is NSNull)
    }

    @Test("rows of 4 numbers are refused when reading")
    func malformedRow() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TrackLandmark.self, from: Data("[0.1,0.2,0.3,0.4]".utf8))
        }
    }
}
