@testable import Rules
import SyntheticMotion
import Testing

/// What scoring a session with another rule changes, as `rules diff` prints it.
@Suite("Report differences")
struct ReportDifferenceTests {
    static func report() throws -> SessionReport {
        var conditions = SetConditions()
        conditions.reps = 5
        let track = SyntheticSessions.make("squat", conditions, seed: 3).track
        return Scorer(rule: try RuleFixtures.book.rule(for: "squat")).score(track).report
    }

    @Test("the same report is no change")
    func same() throws {
        let report = try Self.report()
        let difference = ReportDifference(from: report, to: report)
        #expect(difference.isEmpty && difference.summary == "no change")
    }

    @Test("reps, faults by code and warnings, each way")
    func changes() throws {
        var before = try Self.report()
        let fault = { (code: String) in
            SessionReport.Fault(code: code, rep: 1, startMilliseconds: 0, endMilliseconds: 10, severity: "warning", message: "m", value: 1, limit: 2)
        }
        before.faults = [fault("forward_lean"), fault("shallow_depth")]
        var after = before
        after.repCount -= 1
        after.faults = [fault("shallow_depth"), fault("knee_valgus"), fault("knee_valgus")]
        after.warnings.append("camera_view: a new warning")
        let difference = ReportDifference(from: before, to: after)
        #expect(difference.repsBefore == before.repCount && difference.repsAfter == before.repCount - 1)
        #expect(difference.faultsAdded == ["knee_valgus": 2] && difference.faultsRemoved == ["forward_lean": 1])
        #expect(difference.warningsAdded == ["camera_view: a new warning"] && difference.warningsRemoved.isEmpty)
        #expect(difference.summary == "reps \(before.repCount) → \(before.repCount - 1); faults +knee_valgus×2 −forward_lean; warnings +\"camera_view: a new warning\"")
        #expect(ReportDifference(from: after, to: before).faultsAdded == ["forward_lean": 1])
    }
}
