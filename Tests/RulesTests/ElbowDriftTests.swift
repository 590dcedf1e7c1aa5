@testable import Rules
import Testing
import WorkoutSimulator

/// A curl's elbow drift is flagged past its 25° limit with no margin (curl v8):
/// MediaPipe's world landmarks read the upper arm's forward swing short, never
/// long — 3–8° short from three-quarter and close up — so a margin on top of
/// that shortfall lost a third of the independent generator's drifting reps.
@Suite("Elbow drift")
struct ElbowDriftTests {
    @Test("the generator's drifting curls are flagged, from the side and three-quarter, and strict ones are not")
    func drifting() throws {
        let scorer = Scorer(rule: try RuleFixtures.book.rule(for: "bicep_curl"))
        let sessions = Seeds.simulatorTuning.map { WorkoutSimulator.session("bicep_curl", seed: $0) }
            .filter { $0.reps.contains { $0.faults.contains("elbow_drift") } }
        let tally = FaultRepTally("elbow_drift", over: sessions, scorer: scorer)
        #expect(tally.found >= 15 && tally.wrong == 0 && tally.missed * 10 <= tally.found, "\(tally)")
    }
}
