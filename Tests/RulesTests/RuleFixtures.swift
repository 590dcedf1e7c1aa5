import Foundation
import Rules

/// The repository's Rules/ directory.
enum RuleFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Rules").path

    /// The exercises and fault codes contracts §4 requires.
    static let contractFaultCodes: [String: Set<String>] = [
        "squat": ["shallow_depth", "forward_lean", "knee_valgus"],
        "pushup": ["shallow_depth", "hip_sag", "hip_pike"],
        "bicep_curl": ["partial_rom", "elbow_drift", "torso_swing", "bent_wrist"],
        "lunge": ["shallow_depth", "forward_lean"],
        "overhead_press": ["partial_lockout", "back_arch", "bent_wrist"],
        "jumping_jack": ["partial_rom"],
        "deadlift": ["partial_lockout", "knees_locked_early"],
        "plank": ["hip_sag", "hip_pike"],
    ]

    static let book: RuleBook = {
        do { return try RuleBook(directory: directory) } catch { fatalError("Rules/ must load: \(error)") }
    }()

    /// A shipped rule, and the same rule with one of its lines (`feet: planted`)
    /// made a comment: what the scorer did without that option.
    static func withAndWithout(_ line: String, in exercise: String) throws -> (with: Scorer, without: Scorer) {
        let rule = try book.rule(for: exercise)
        precondition(rule.text.contains("\n\(line)"), "\(exercise) has no line \(line)")
        let without = try ExerciseRule(yaml: rule.text.replacingOccurrences(of: "\n\(line)", with: "\n#"), file: rule.file)
        return (Scorer(rule: rule), Scorer(rule: without))
    }
}
