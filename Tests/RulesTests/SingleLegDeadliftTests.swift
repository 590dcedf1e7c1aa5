@testable import Rules
import SyntheticMotion
import Testing

/// A single-leg Romanian deadlift hinges over one leg while the other rises
/// behind, its hip staying open: the deadlift's `require` takes both hips
/// bending or one foot raised (`any_of`), as batch 16's r-deadlift-1008 does.
@Suite("Single-leg deadlifts")
struct SingleLegDeadliftTests {
    static func set(_ camera: CameraSetup, seed: UInt64 = 5) -> SyntheticSet {
        SessionCheckTests.set("deadlift", seed: seed) { $0.reps = 4; $0.noise = 0.005; $0.singleLeg = true; $0.camera = camera }
    }

    @Test("counted from the side and the front, the raised leg's open hip no bar to the rep", arguments: [CameraSetup.left, .front])
    func counted(_ camera: CameraSetup) throws {
        let set = Self.set(camera)
        let report = try SessionCheckTests.score("deadlift", set.track)
        #expect(report.repCount == set.reps.count, "\(report.warnings)")
        #expect(!report.warnings.contains { $0.contains("condition on both_hips") }, "\(report.warnings)")
    }

    @Test("without the raised foot as an alternative, or with a foot that never rises far enough, the open hip stops every rep")
    func openHip() throws {
        let rule = try RuleFixtures.book.rule(for: "deadlift")
        let bothHipsOnly = Self.changing(rule) { $0.alternatives = [$0.alternatives[0]] }
        let footOutOfReach = Self.changing(rule) { requirement in
            for index in requirement.alternatives.indices.dropFirst() { requirement.alternatives[index].condition.bound = .above(5) }
        }
        for (changed, said) in [
            (bothHipsOnly, "did not meet the rule's condition on both_hips"),
            (footOutOfReach, "met none of the rule's conditions on both_hips, left_foot_up or right_foot_up"),
        ] {
            let report = Scorer(rule: changed).score(Self.set(.left).track).report
            #expect(report.repCount == 0)
            #expect(report.warnings.contains { $0.hasPrefix("no_reps:") && $0.contains(said) }, "\(report.warnings)")
        }
    }

    /// The rule with its first `require` entry (both hips, or a foot raised) changed.
    static func changing(_ rule: ExerciseRule, _ change: (inout RepRequirement) -> Void) -> ExerciseRule {
        guard case .reps(var reps) = rule.movement else { return rule }
        change(&reps.require[0])
        var rule = rule
        rule.movement = .reps(reps)
        return rule
    }
}
