import Foundation
import Testing
import WorkoutSimulator

@testable import Rules

/// Reps counted where the person was lost for a moment in a steady set.
@Suite("Reps hidden in a loss of the person")
struct UnseenRepsTests {
    /// Frames every 50 ms for `seconds`, unseen from `lost.lowerBound` to `lost.upperBound` ms.
    static func frames(seconds: Int, lost: [ClosedRange<Int>]) -> (times: [Int], unseen: [Bool]) {
        let times = Array(stride(from: 0, through: seconds * 1000, by: 50))
        return (times, times.map { time in lost.contains { $0.contains(time) } })
    }

    /// Reps turning at these times (ms), each ±250 ms around its turn.
    static func reps(turningAt turns: [Int]) -> [RepSpan] {
        turns.map { RepSpan(start: ($0 - 250) / 50, turn: $0 / 50, end: ($0 + 250) / 50) }
    }

    @Test("a rep a second, one missing where the person was lost for 0.9 s: one rep counted over the loss")
    func oneHidden() throws {
        let (times, unseen) = Self.frames(seconds: 10, lost: [4600...5400])
        let hidden = UnseenReps(times: times, unseen: unseen).find(between: Self.reps(turningAt: [1000, 2000, 3000, 4000, 6000, 7000]))
        #expect(hidden.count == 1)
        let span = try #require(hidden.first)
        #expect(times[span.start] == 4550 && times[span.end] == 5450, "over the loss, from the last frame seen to the next")
        #expect(times[span.turn] == 5000)
    }

    @Test("frames dropped one at a time in every interval leave the rhythm seen: the rep in the long loss is counted")
    func droppedFrames() throws {
        // A frame lost every 0.5 s (a 100 ms run, the frames either side seen), and the person for 0.9 s at 5 s.
        let blinks = stride(from: 250, through: 9750, by: 500).filter { !(4600...5400).contains($0) }.map { $0...$0 }
        let (times, unseen) = Self.frames(seconds: 10, lost: blinks + [4600...5400])
        let hidden = UnseenReps(times: times, unseen: unseen).find(between: Self.reps(turningAt: [1000, 2000, 3000, 4000, 6000, 7000]))
        #expect(hidden.count == 1)
        #expect(try times[#require(hidden.first).turn] == 5000)
    }

    @Test("two missing in one loss of 1.9 s: two reps, each over half of it")
    func twoHidden() {
        let (times, unseen) = Self.frames(seconds: 10, lost: [4100...5900])
        let hidden = UnseenReps(times: times, unseen: unseen).find(between: Self.reps(turningAt: [1000, 2000, 3000, 4000, 7000, 8000]))
        #expect(hidden.map { times[$0.start] } == [4050, 5000])
        #expect(hidden.map { times[$0.end] } == [5000, 5950])
    }

    @Test("no rep is counted where the gap was seen, the loss is too short or too long, or the rhythm is not steady")
    func nothingHidden() {
        let turns = [1000, 2000, 3000, 4000, 6000, 7000]
        let seenPause = Self.frames(seconds: 10, lost: [])
        #expect(UnseenReps(times: seenPause.times, unseen: seenPause.unseen).find(between: Self.reps(turningAt: turns)).isEmpty,
                "a pause seen between two reps is a pause")
        let blink = Self.frames(seconds: 10, lost: [4900...5100])
        #expect(UnseenReps(times: blink.times, unseen: blink.unseen).find(between: Self.reps(turningAt: turns)).isEmpty,
                "0.3 s cannot hide a rep of a second")
        let long = Self.frames(seconds: 20, lost: [4300...6700])
        #expect(UnseenReps(times: long.times, unseen: long.unseen).find(between: Self.reps(turningAt: [1000, 2000, 3000, 4000, 7000, 8000])).isEmpty,
                "a loss over 2 s may be anything")
        let (times, unseen) = Self.frames(seconds: 20, lost: [4600...5400])
        #expect(UnseenReps(times: times, unseen: unseen).find(between: Self.reps(turningAt: [1000, 1600, 3200, 4000, 6000, 6500])).isEmpty,
                "no steady rhythm, no rep inferred")
        #expect(UnseenReps(times: times, unseen: unseen).find(between: Self.reps(turningAt: [4000, 6000])).isEmpty,
                "two reps make no rhythm")
    }

    @Test("a jumping-jack set whose seventh rep fell in a dropout burst counts all ten, says so, lists its faults as not judged and is less sure")
    func jumpingJacks() throws {
        let session = WorkoutSimulator.session("jumping_jack", seed: 3_000_024)
        let report = Scorer(rule: try RuleFixtures.book.rule(for: "jumping_jack")).score(session.track).report
        #expect(report.repCount == session.reps.count && report.repCount == 10, "\(session.summary)")
        let unseen = report.reps.filter { $0.metrics["unseen_ms"] != nil }
        #expect(unseen.map(\.index) == [7])
        #expect(unseen.allSatisfy { $0.faults.isEmpty && $0.metrics["unseen_ms"] == $0.metrics["duration_ms"] })
        let truth = session.reps[6]
        #expect(unseen.allSatisfy { $0.bottomMilliseconds >= truth.startMs && $0.bottomMilliseconds <= truth.endMs })
        #expect(report.warnings.contains { $0.hasPrefix("unseen: rep 7 counted where the person was lost (6.2–6.5 s)") }, "\(report.warnings)")
        #expect(report.notJudged == [SessionReport.NotJudged(code: "partial_rom", reps: [7], reason: .hidden, needs: [])])
        #expect(report.countConfidence == .medium)
    }
}
