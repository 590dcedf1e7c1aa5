@testable import Rules
import LandmarkTracks
import SyntheticMotion
import Testing

/// A heavy deadlift single is slow: the lifter sets up at the bar, pulls, holds
/// the lockout until the "down", and lowers. Two fresh public clips of such singles
/// took 10.0 and 12.2 s and went uncounted against a 10 s limit (deadlift v7: 13 s).
@Suite("Slow deadlift singles")
struct SlowSingleTests {
    /// `track` with the frame nearest each of `holds`' moments repeated for its
    /// length, the later frames shifted by it: a person still there.
    static func holding(_ track: LandmarkTrack, _ holds: [(atMilliseconds: Int, lengthMilliseconds: Int)]) -> LandmarkTrack {
        let step = track.frames[1].timestampMilliseconds - track.frames[0].timestampMilliseconds
        var frames: [LandmarkTrackFrame] = []
        var shift = 0
        for frame in track.frames {
            var moved = frame
            moved.timestampMilliseconds += shift
            frames.append(moved)
            for hold in holds where abs(frame.timestampMilliseconds - hold.atMilliseconds) * 2 < step {
                for _ in 0..<(hold.lengthMilliseconds / step) {
                    shift += step
                    var still = frame
                    still.timestampMilliseconds += shift
                    frames.append(still)
                }
            }
        }
        var held = track
        held.frames = frames
        return held
    }

    @Test("a single set up at the bar for 3 s and held at lockout for 5 s counts, and lasts over 10 s", arguments: [CameraSetup.left, .front])
    func heavySingle(camera: CameraSetup) throws {
        let set = SessionCheckTests.set("deadlift") { $0.reps = 1; $0.tempo = .slow; $0.camera = camera; $0.noise = 0.005 }
        let quick = try SessionCheckTests.score("deadlift", set.track)
        let rep = try #require(quick.reps.first, "\(quick.warnings)")
        let slow = Self.holding(set.track, [(rep.startMilliseconds, 3000), (rep.bottomMilliseconds, 5000)])
        let report = try SessionCheckTests.score("deadlift", slow)
        #expect(report.repCount == 1, "\(report.warnings)")
        let counted = try #require(report.reps.first)
        #expect(counted.endMilliseconds - counted.startMilliseconds > 10_000, "\(counted.startMilliseconds)–\(counted.endMilliseconds) ms")
    }

    @Test("two hinges to the floor 15 s apart, standing between, are no deadlift")
    func standingBetweenHinges() throws {
        let set = SessionCheckTests.set("deadlift") { $0.reps = 1; $0.tempo = .slow; $0.camera = .left; $0.noise = 0.005 }
        let rep = try #require(try SessionCheckTests.score("deadlift", set.track).reps.first)
        let report = try SessionCheckTests.score("deadlift", Self.holding(set.track, [(rep.bottomMilliseconds, 15_000)]))
        #expect(report.repCount == 0, "\(report.warnings)")
        #expect(report.warnings.contains { $0.contains("a rep takes at most 13") }, "\(report.warnings)")
    }
}
