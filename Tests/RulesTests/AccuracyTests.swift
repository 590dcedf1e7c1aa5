import Foundation
import Rules
import SyntheticMotion
import Testing

/// The rules on synthetic workouts with known truth (Tests/SyntheticMotion):
/// every exercise across frame rates, tempos, camera sides, hidden far sides,
/// landmark noise and dropped frames, plus idle sets that must give no reps.
/// Required: rep counts exact on ≥ 98 % of sets, every fault code's precision
/// and recall ≥ 0.95, no rep on idle sets, hold time within 10 %.
@Suite("Accuracy on synthetic workouts")
struct AccuracyTests {
    static let setsPerExercise = 40
    static let idleSetsPerExercise = 6

    static func evaluate(_ exercise: String) throws -> Evaluation {
        let scorer = Scorer(rule: try RuleFixtures.book.rule(for: exercise))
        var evaluation = Evaluation()
        let conditions = Corpus.conditions(for: exercise, setsPerExercise: setsPerExercise, idleSets: idleSetsPerExercise)
        for (index, conditions) in conditions.enumerated() {
            let seed = UInt64(index) &* 7919 &+ exercise.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }
            let set = SyntheticSessions.make(exercise, conditions, seed: seed)
            evaluation.add(set, scorer.score(set.track).report)
        }
        return evaluation
    }

    @Test("counts, faults and holds are right", arguments: SyntheticSessions.exercises)
    func accuracy(_ exercise: String) throws {
        let evaluation = try Self.evaluate(exercise)
        print(evaluation.table(exercise))
        #expect(evaluation.falseRepsOnIdle == 0, "reps counted on idle sets")
        if exercise == "plank" {
            #expect(evaluation.holdErrors.allSatisfy { $0 <= 0.1 }, "hold time errors: \(evaluation.holdErrors)")
        } else {
            #expect(evaluation.countAccuracy >= 0.98, "\(evaluation.misses.filter { $0.contains("counted") })")
        }
        for (code, tally) in evaluation.faults {
            #expect(tally.precision >= 0.95 && tally.recall >= 0.95, "\(exercise) \(code): \(tally)")
        }
        #expect(!evaluation.faults.isEmpty, "faults were injected and judged")
    }
}

extension Evaluation {
    /// A row per fault code, for the test log and the issue note.
    func table(_ exercise: String) -> String {
        var lines: [String] = []
        if let errors = Optional(holdErrors), !errors.isEmpty {
            let mean = errors.reduce(0, +) / Double(errors.count)
            lines.append("accuracy \(exercise): \(errors.count) holds, \(holdsWithinTenPercent) within 10 %, mean hold-time error \(String(format: "%.1f%%", mean * 100)), worst \(String(format: "%.1f%%", (errors.max() ?? 0) * 100)), idle sets \(idleSets) with \(falseRepsOnIdle) reps")
        } else {
            lines.append("accuracy \(exercise): rep count exact in \(exactCounts)/\(sets) sets (\(String(format: "%.1f%%", countAccuracy * 100))), MAE \(String(format: "%.3f", meanAbsoluteError)) reps, idle sets \(idleSets) with \(falseRepsOnIdle) reps")
        }
        for (code, tally) in faults.sorted(by: { $0.key < $1.key }) {
            lines.append("accuracy \(exercise) \(code): precision \(String(format: "%.3f", tally.precision)) recall \(String(format: "%.3f", tally.recall)) (tp \(tally.truePositives), fp \(tally.falsePositives), fn \(tally.falseNegatives))")
        }
        return lines.joined(separator: "\n")
    }
}

extension Evaluation.Tally: CustomStringConvertible {
    var description: String { "precision \(precision), recall \(recall) (tp \(truePositives), fp \(falsePositives), fn \(falseNegatives))" }
}
