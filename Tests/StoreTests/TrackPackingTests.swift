import Foundation
import LandmarkTracks
import Rules
import SyntheticMotion
import Testing

@Suite("Packed landmark tracks")
struct TrackPackingTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("packing and unpacking gives back the same track, and the same report when scored", arguments: ["squat", "bicep_curl", "plank"])
    func roundTrip(exercise: String) throws {
        var conditions = SetConditions()
        conditions.reps = 3
        let set = SyntheticSessions.make(exercise, conditions, seed: 7)
        var track = set.track
        track.frames[1].poses = []
        let packed = LandmarkTrackPacking.pack(track)
        let unpacked = try LandmarkTrackPacking.unpack(packed, name: "packed")
        #expect(unpacked == track)
        let rule = try RuleBook.rule(for: exercise, in: Self.repository.appendingPathComponent("Rules").path)
        #expect(Scorer(rule: rule).score(unpacked).report == Scorer(rule: rule).score(track).report)
        let jsonLines = try LandmarkTrackWriter.jsonLines(of: track).count
        #expect(packed.count * 2 < jsonLines, "packed \(packed.count) bytes, JSON Lines \(jsonLines)")
    }

    @Test("hands with 3-number rows, frames where hands were not looked for, odd handedness")
    func hands() throws {
        let row = TrackLandmark(x: 0.25, y: -1e-7, z: .greatestFiniteMagnitude)
        let hand = TrackHand(handedness: "Ambidextrous ✋", score: 0.5, landmarks: Array(repeating: row, count: 21), world: Array(repeating: row, count: 21))
        let track = LandmarkTrack(
            header: LandmarkTrackHeader(fps: 29.97, width: 1920, height: 1080, source: "phone/clip é.mov"),
            frames: [
                LandmarkTrackFrame(timestampMilliseconds: 0, poses: [], hands: nil),
                LandmarkTrackFrame(timestampMilliseconds: 33, poses: [], hands: []),
                LandmarkTrackFrame(timestampMilliseconds: 67, poses: [], hands: [hand, hand]),
            ])
        #expect(try LandmarkTrackPacking.unpack(LandmarkTrackPacking.pack(track), name: "packed") == track)
    }

    @Test("bytes that are not a packed track are refused with the name and the reason")
    func corrupt() throws {
        var conditions = SetConditions()
        conditions.reps = 1
        let packed = LandmarkTrackPacking.pack(SyntheticSessions.make("squat", conditions, seed: 1).track)
        let cases: [([UInt8], String)] = [
            ([], "cut short"), (Array("JSON".utf8) + [1], "not a packed landmark track"),
            (Array(packed.dropLast(3)), "cut short"), (packed + [0], "after the last frame"),
        ]
        for (bytes, reason) in cases {
            let error = try #require(throws: TrackError.self) { try LandmarkTrackPacking.unpack(bytes, name: "session 42") }
            #expect(error.file == "session 42")
            #expect(error.reason.contains(reason), "\(error)")
        }
    }
}
