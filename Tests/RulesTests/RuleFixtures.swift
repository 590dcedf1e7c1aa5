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
}
