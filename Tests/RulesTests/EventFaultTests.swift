import Rules
import Testing
import WorkoutSimulator

/// A fault judged at an event — the deadlift's knees straightening while the
/// hips are still bent — is read where the event began, also when that was
/// just before the rep's phase starts, and at a low frame rate.
@Suite("Faults at an event or confirmed at the turn")
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

    @Test("wide-hand push-ups filmed from the side: shallow_depth stands only where the world angle agrees with the picture's")
    func shallowDepthConfirmed() throws {
        // A tuning set: hands 1.7 shoulder widths apart, deep reps. The flared elbows read
        // 110–117° at the bottom in the picture, which flagged four deep reps before `confirm`.
        let session = WorkoutSimulator.session("pushup", seed: 3_000_087)
        #expect(session.summary.contains("hands wide"), "\(session.summary)")
        let report = try Scorer(rule: RuleFixtures.book.rule(for: "pushup")).score(session.track).report
        try #require(report.reps.count == session.reps.count)
        #expect(report.reps.map { $0.faults.contains("shallow_depth") } == session.reps.map { $0.faults.contains("shallow_depth") })
    }
}
