import Rules
import Testing
import WorkoutSimulator

/// A fault judged at an event — the deadlift's knees straightening while the
/// hips are still bent — is read where the event began, also when that was
/// just before the rep's phase starts, and at a low frame rate.
@Suite("Faults at an event")
struct EventFaultTests {
    @Test("knees straightened before the hips rise, filmed at 15 frames/s, are found on the reps that did it")
    func kneesLockedBeforeTheHipsRise() throws {
        // A tuning set: conventional deadlifts filmed from the side at 15 frames/s, the knees
        // straight before the hips leave the floor on most reps. Every one was missed when the
        // event was read only from the phase's start (two frames there: too few to read the hips).
        let session = WorkoutSimulator.session("deadlift", seed: 3_000_239)
        #expect(session.summary.contains("at 15 fps"), "\(session.summary)")
        let report = try Scorer(rule: RuleFixtures.book.rule(for: "deadlift")).score(session.track).report
        let truth = session.reps.map { $0.faults.contains("knees_locked_early") }
        #expect(truth.filter { $0 }.count >= 5)
        try #require(report.reps.count == session.reps.count)
        #expect(report.reps.map { $0.faults.contains("knees_locked_early") } == truth)
    }
}
