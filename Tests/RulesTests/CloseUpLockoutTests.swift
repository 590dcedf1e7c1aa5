@testable import Rules
import Testing
import WorkoutSimulator

/// A deadlift filmed close up from the side, the head out of the picture: at each
/// lockout the shoulders leave it too, MediaPipe calls them hidden (visibility
/// 0.00–0.16) and goes on guessing them. Deadlift v12 counts its reps on every
/// landmark MediaPipe gives (`reps: visibility: 0`), as the lunge and the curl do;
/// the trunk standing up at the lockout (deadlift v8) still keeps out hips that
/// straighten on guessed legs under a trunk bent over the bar.
@Suite("A deadlift whose shoulders leave the picture at lockout")
struct CloseUpLockoutTests {
    @Test("every rep counts, where deadlift v11 counted none (no_reps: no movement went from rest to a turn and back)")
    func countsEveryRep() throws {
        // The independent generator's tuning set 50: 12 reps, the lockouts above the picture.
        let session = WorkoutSimulator.session("deadlift", seed: 50)
        #expect(session.summary.contains("head out of frame") && session.reps.count == 12)
        let report = try SessionCheckTests.score("deadlift", session.track)
        #expect(report.repCount == 12, "\(report.warnings)")
        #expect(!report.warnings.contains { $0.hasPrefix("no_reps") }, "\(report.warnings)")
    }
}
