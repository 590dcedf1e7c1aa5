@testable import Rules
import WorkoutSimulator

/// Reps of one fault code over the independent generator's sessions whose count
/// is right: flagged on a faulty rep, flagged on a clean one, missed; reps the
/// report does not judge (the view, the landmarks) are left out of all three.
struct FaultRepTally: CustomStringConvertible {
    var found = 0, wrong = 0, missed = 0

    init(_ code: String, over sessions: [SimulatedSession], scorer: Scorer) {
        for session in sessions {
            let report = scorer.score(session.track).report
            guard report.repCount == session.reps.count else { continue }
            let unjudged = Set(report.notJudged.filter { $0.code == code }.flatMap(\.reps))
            let faulty = Set(session.reps.indices.filter { session.reps[$0].faults.contains(code) }.map { $0 + 1 }).subtracting(unjudged)
            let flagged = Set(report.faults.filter { $0.code == code }.compactMap(\.rep)).subtracting(unjudged)
            found += flagged.intersection(faulty).count
            wrong += flagged.subtracting(faulty).count
            missed += faulty.subtracting(flagged).count
        }
    }

    var description: String { "flagged \(found), wrongly \(wrong), missed \(missed)" }
}
