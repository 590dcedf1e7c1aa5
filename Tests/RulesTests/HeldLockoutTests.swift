@testable import Rules
import LandmarkTracks
import SyntheticMotion
import Testing

/// A press is done at lockout: a 6 s phone clip of a military press that stops
/// at its second lockout was counted 1 of 2 (batch 11). With the press's
/// `complete_at_turn`, a turn the video ends in counts after a counted rep,
/// when every `require` is measured and met.
@Suite("A press held overhead as the video stops")
struct HeldLockoutTests {
    static let set = SessionCheckTests.set("overhead_press", seed: 3) { $0.reps = 4; $0.noise = 0.005 }

    /// `track` up to `milliseconds`, the frames after it cut off.
    static func trimmed(_ track: LandmarkTrack, at milliseconds: Int) -> LandmarkTrack {
        var cut = track
        cut.frames.removeAll { $0.timestampMilliseconds > milliseconds }
        return cut
    }

    /// The middle of a set's `index`th rep (its lockout; a deadlift's too).
    static func lockout(_ index: Int, of synthetic: SyntheticSet = HeldLockoutTests.set) -> Int {
        let rep = synthetic.reps[index]
        return (rep.startMilliseconds + rep.endMilliseconds) / 2
    }

    static func score(_ track: LandmarkTrack, completeAtTurn: Bool = true) throws -> SessionReport {
        var rule = try RuleFixtures.book.rule(for: "overhead_press")
        if case .reps(var reps) = rule.movement {
            reps.completeAtTurn = completeAtTurn ? .counted : .never
            rule.movement = .reps(reps)
        }
        return Scorer(rule: rule).score(track).report
    }

    @Test("a set cut at its last lockout counts that press; without the option it does not")
    func lastLockout() throws {
        #expect(Self.set.reps.count == 4)
        let cut = Self.trimmed(Self.set.track, at: Self.lockout(3))
        #expect(try Self.score(cut).repCount == 4)
        #expect(try Self.score(cut, completeAtTurn: false).repCount == 3)
    }

    @Test("a lone press cut at its lockout counts nothing: no counted rep says this is a set")
    func alone() throws {
        #expect(try Self.score(Self.trimmed(Self.set.track, at: Self.lockout(0))).repCount == 0)
    }

    @Test("with the shoulders hidden over the last press, its wrist height cannot be measured: not counted")
    func unmeasured() throws {
        var cut = Self.trimmed(Self.set.track, at: Self.lockout(3))
        for index in cut.frames.indices where cut.frames[index].timestampMilliseconds >= Self.set.reps[3].startMilliseconds {
            for pose in cut.frames[index].poses.indices {
                for shoulder in [11, 12] { cut.frames[index].poses[pose].landmarks[shoulder].visibility = 0.01 }
            }
        }
        #expect(try Self.score(cut).repCount == 3)
    }
}
