import Foundation
@testable import Rules
import Testing
import WorkoutSimulator

@Suite("Limbs that take turns")
struct AlternatingLimbsTests {
    /// An elbow angle at 30 frames a second: at rest 165°, curled to 40° over the seconds in `curls`.
    static func elbow(frames: Int, curls: [ClosedRange<Double>]) -> [Double?] {
        (0..<frames).map { frame in
            let t = Double(frame) / 30
            guard let curl = curls.first(where: { $0.contains(t) }) else { return 165 }
            let u = (t - curl.lowerBound) / (curl.upperBound - curl.lowerBound)
            return 165 - 125 * sin(Double.pi * u)
        }
    }

    @Test("arms that take turns are read per frame on the arm curling then; arms together, or one arm beside a still one, are not")
    func workingSides() throws {
        let leftCurls = stride(from: 1.0, to: 20, by: 4).map { $0...($0 + 1.5) }
        let rightCurls = leftCurls.map { ($0.lowerBound + 2)...($0.upperBound + 2) }
        let left = Self.elbow(frames: 660, curls: leftCurls), right = Self.elbow(frames: 660, curls: rightCurls)
        let sides = try #require(AlternatingLimbs.workingSides(left: left, right: right, turnBelowRest: true, minSpread: 34))
        #expect(sides[Int(1.75 * 30)] == .left)
        #expect(sides[Int(3.75 * 30)] == .right)
        #expect(AlternatingLimbs.workingSides(left: left, right: left, turnBelowRest: true, minSpread: 34) == nil)
        let still = [Double?](repeating: 168, count: 660)
        #expect(AlternatingLimbs.workingSides(left: left, right: still, turnBelowRest: true, minSpread: 34) == nil)
    }

    @Test("arms that take turns in a small share of a long video (three quick curls each in 32 s) still take turns")
    func fewCurlsInALongVideo() throws {
        let leftCurls = [5.0, 15, 25].map { $0...($0 + 1.1) }
        let rightCurls = leftCurls.map { ($0.lowerBound + 3)...($0.upperBound + 3) }
        // The detector's noise on arms at rest: a few degrees either way.
        let noisy = { (values: [Double?], phase: Double) in values.enumerated().map { frame, value in value.map { $0 + 3 * sin(1.7 * Double(frame) + phase) } } }
        let left = noisy(Self.elbow(frames: 960, curls: leftCurls), 0), right = noisy(Self.elbow(frames: 960, curls: rightCurls), 1)
        let sides = try #require(AlternatingLimbs.workingSides(left: left, right: right, turnBelowRest: true, minSpread: 31.5))
        #expect(sides[Int(5.55 * 30)] == .left)
        #expect(sides[Int(8.55 * 30)] == .right)
    }

    @Test("alternating curls count every curl; each rep's faults are judged on the arm that curled, or said not judged")
    func alternatingCurls() throws {
        // A tuning set: five slow curls, the arms taking turns, filmed from the side; before, only
        // the near arm's three were counted. The far arm, behind the body, is counted on
        // MediaPipe's guesses, and its upper arm and wrist are not judged on them.
        let session = WorkoutSimulator.session("bicep_curl", seed: 3_000_095)
        #expect(session.summary.contains("arms taking turns"), "\(session.summary)")
        let near = session.reps[0].sides
        #expect(session.reps.map(\.sides) == (0..<5).map { $0 % 2 == 0 ? near : [near[0] == .left ? .right : .left] })
        let report = try Scorer(rule: RuleFixtures.book.rule(for: "bicep_curl")).score(session.track).report
        #expect(report.repCount == session.reps.count)
        for index in [0, 2, 4] {
            #expect(Set(report.reps[index].faults) == session.reps[index].faults, "rep \(index + 1): \(report.reps[index].faults)")
        }
        for code in ["elbow_drift", "partial_rom"] {
            #expect(report.warnings.contains { $0.hasPrefix("unscorable: \(code) not judged on reps 2, 4:") }, "\(report.warnings)")
        }
    }
}
