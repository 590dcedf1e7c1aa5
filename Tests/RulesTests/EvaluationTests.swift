import LandmarkTracks
import Rules
import Testing
import WorkoutSimulator

/// The accuracy tables' own scoring: which rep counts a generated set accepts.
@Suite("Evaluation")
struct EvaluationTests {
    /// A squat session of three reps or more, all in the picture, with the pose
    /// then removed on a share of its last rep's frames.
    private func session(losingLastRep share: Double) -> SimulatedSession {
        var session = (UInt64(1)...).lazy.map { WorkoutSimulator.session("squat", seed: $0, idle: false) }
            .first { $0.reps.count >= 3 && SetTruth($0).acceptedCounts.count == 1 }!
        let last = session.reps[session.reps.count - 1]
        let inRep = session.track.frames.indices.filter { (last.startMs..<last.endMs).contains(session.track.frames[$0].timestampMilliseconds) }
        for index in inRep.prefix(Int((share * Double(inRep.count)).rounded(.up))) { session.track.frames[index].poses = [] }
        return session
    }

    @Test("a rep done out of the picture (no pose on half its frames or more) may be counted or not")
    func outOfPicture() {
        let lost = session(losingLastRep: 0.6)
        let reps = lost.reps.count
        #expect(SetTruth(lost).acceptedCounts == (reps - 1)...reps)
    }

    @Test("a rep seen on most of its frames must be counted")
    func mostlySeen() {
        let seen = session(losingLastRep: 0.3)
        #expect(SetTruth(seen).acceptedCounts == seen.reps.count...seen.reps.count)
    }

    @Test("a count in the accepted range is exact; outside it, a miss whose error is the distance to the range")
    func scoring() throws {
        let lost = session(losingLastRep: 1)
        let report = Scorer(rule: try RuleFixtures.book.rule(for: "squat")).score(lost.track).report
        var evaluation = Evaluation()
        evaluation.add(SetTruth(lost), report)
        #expect(evaluation.exactCounts == 1 && evaluation.countErrors == 0, "\(evaluation.misses)")

        var twoMore = SetTruth(lost)
        let after = lost.reps[lost.reps.count - 1].endMs + 1000
        twoMore.reps += [after, after + 3000].map { SetTruth.Rep(startMilliseconds: $0, endMilliseconds: $0 + 2000, faults: []) }
        let accepted = twoMore.acceptedCounts
        evaluation.add(twoMore, report)
        #expect(evaluation.exactCounts == 1 && evaluation.misses.count == 1)
        #expect(evaluation.countErrors == accepted.lowerBound - report.repCount, "\(accepted), counted \(report.repCount)")
    }
}
