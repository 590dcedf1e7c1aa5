import Foundation

/// Biceps curls standing: both arms together, arms taking turns, or one arm (the
/// other hangs still), palms up or a hammer grip; the elbow may drift forward,
/// the trunk may swing back, the wrist may curl.
struct CurlForm: ExerciseForm {
    struct Detail: Sendable {
        /// Elbow angle, upper arm from vertical, trunk lean and wrist bend at the top.
        var elbow: Double
        var drift: Double
        var lean: Double
        var wrist: Double
        /// The arm that curls when the arms take turns; nil when every working arm does.
        var arm: BodySide? = nil
    }

    var body: BodyShape
    var working: [BodySide]
    var hammer: Bool
    var stanceHalf: Double
    var knee: Double
    var restElbow: Double
    var restDrift: Double
    var restWrist: Double
    /// How far out of the sagittal plane the elbows sit, degrees.
    var elbowOut: Double
    /// The two arms take turns, one curl each (every curl is a rep).
    var alternating = false

    var preparation: Preparation { .pickUp }

    func pose(_ rep: Detail?, _ state: RepState) -> Pose {
        let u = state.u, hold = smoothstep(u / 0.4)
        let top = rep ?? Detail(elbow: restElbow, drift: restDrift, lean: 0, wrist: restWrist)
        return shape(elbow: lerp(restElbow, top.elbow, u), drift: lerp(restDrift, top.drift, u), lean: top.lean * hold,
                     wrist: lerp(restWrist, top.wrist, hold), arm: top.arm)
    }

    /// The pose with the curling arms (`arm`, or every working arm when nil) at these values, any other working arm at rest.
    func shape(elbow: Double, drift: Double, lean: Double, wrist: Double, arm: BodySide? = nil) -> Pose {
        var pose = Stand.pose(body, stanceHalf: stanceHalf, knee: knee, lean: lean, shift: Vec3(0, 0.25 * body.torso * sinDeg(-lean), 0))
        BodySide.forBoth { side in
            guard working.contains(side) else { return }
            let curls = arm == nil || arm == side
            let (elbow, drift, wrist) = curls ? (elbow, drift, wrist) : (restElbow, restDrift, restWrist)
            let shoulder = pose.shoulder(side, body)
            let ahead = Vec3(side.lateral * sinDeg(elbowOut), cosDeg(elbowOut), 0)
            let upper = Vec3(0, 0, -1) * cosDeg(drift) + ahead * sinDeg(drift)
            let hinge = upper.cross(Vec3(0, 1, 0)).unit(or: Vec3(1, 0, 0))
            let elbowPoint = shoulder + upper * body.upperArm
            let wristPoint = elbowPoint + upper.turned(about: hinge, degrees: 180 - elbow) * body.forearm
            pose[arm: side] = Limb.through(shoulder, elbowPoint, wristPoint)
            pose[hand: side] = HandPose(pronation: hammer ? 90 : 8, flexion: wrist, grip: 0.85)
        }
        BodySide.forBoth { side in
            guard !working.contains(side) else { return }
            pose[arm: side] = Stand.hangingArm(pose, side, body, forward: 2, out: 5, elbow: 172)
            pose[hand: side] = HandPose(pronation: 85, flexion: 0, grip: 0.85)
        }
        return pose
    }
}

extension CurlForm {
    /// A curl form; whether two arms take turns is drawn from `variation`, so that the other draws stay as they were.
    static func draw(_ body: BodyShape, _ random: inout SimRandom, variation: inout SimRandom) -> CurlForm {
        let oneArm = random.chance(0.35)
        var form = CurlForm(
            body: body, working: oneArm ? [random.chance(0.5) ? .left : .right] : [.left, .right], hammer: random.chance(0.3),
            stanceHalf: body.hipHalf * random.uniform(0.8, 1.5), knee: random.uniform(168, 179), restElbow: random.uniform(155, 174),
            restDrift: random.uniform(0, 8), restWrist: random.uniform(-10, 10), elbowOut: random.uniform(5, 25))
        form.alternating = !oneArm && variation.chance(0.35)
        return form
    }

    func draft(_ index: Int, _ odds: FaultOdds, _ random: inout SimRandom) -> DraftRep<Detail> {
        let rom = FaultBook.rule("bicep_curl", "partial_rom"), drifting = FaultBook.rule("bicep_curl", "elbow_drift")
        let swing = FaultBook.rule("bicep_curl", "torso_swing"), bent = FaultBook.rule("bicep_curl", "bent_wrist")
        var faults = Set<String>()
        /// A value clean up to `clean` or faulty up to `faulty`, as the set's odds have it.
        func pick(_ rule: FaultRule, clean: Double, faulty: Double) -> Double {
            guard odds.draw(rule.code, &random) else { return rule.clean(toward: clean, &random) }
            faults.insert(rule.code)
            return rule.faulty(toward: faulty, &random)
        }
        let arms = alternating ? [working[index % 2]] : working
        let detail = Detail(
            elbow: pick(rom, clean: 30, faulty: 90), drift: pick(drifting, clean: 0, faulty: 50),
            lean: pick(swing, clean: 6, faulty: -32), wrist: pick(bent, clean: 0, faulty: 60), arm: alternating ? arms[0] : nil)
        var planned = [PlannedValue(measure: .lean, value: detail.lean)]
        for side in arms {
            planned += [PlannedValue(measure: .elbow(side), value: detail.elbow), PlannedValue(measure: .upperArm(side), value: detail.drift),
                        PlannedValue(measure: .wrist(side), value: detail.wrist)]
        }
        return DraftRep(detail: detail, faults: faults, sides: arms, planned: planned)
    }

    var summary: String {
        let arms = working.count == 1 ? "\(working[0]) arm only" : alternating ? "arms taking turns" : "both arms"
        return String(format: "%@, %@ grip, elbows %.0f° at rest, knees %.0f°", arms, hammer ? "hammer" : "palms-up", restElbow, knee)
    }
}
