import Foundation

/// Standing overhead presses: a barbell or dumbbells, both arms or one (the other
/// hangs or rests on the hip), from the shoulders to straight arms overhead, elbows
/// sometimes locking past straight; the back may arch, the wrists may bend back.
struct PressForm: ExerciseForm {
    struct Detail: Sendable {
        /// Elbow angle at the top (past 180: locked past straight), trunk lean (negative = back) and wrist bend.
        var elbow: Double
        var lean: Double
        var wrist: Double
    }

    var body: BodyShape
    var barbell: Bool
    var working: [BodySide]
    /// One-arm presses: the free hand on the hip (else hanging).
    var freeHandOnHip: Bool
    var stanceHalf: Double
    var knee: Double
    /// Elbow angle with the weight at the shoulders.
    var restElbow: Double
    /// How far out to the side the hands are from the shoulders, metres.
    var handsOut: Double
    /// Elevation (degrees above level-forward) of shoulder → wrist at the shoulders and overhead.
    var rackElevation: Double
    var topElevation: Double
    var restWrist: Double
    var neutralGrip: Bool

    var preparation: Preparation { barbell ? .unrack : .pickUp }

    func pose(_ rep: Detail?, _ state: RepState) -> Pose {
        let hold = smoothstep(state.u / 0.4)
        let top = rep ?? Detail(elbow: restElbow, lean: 0, wrist: restWrist)
        return shape(elbow: lerp(restElbow, top.elbow, state.u), lean: top.lean * hold, wrist: lerp(restWrist, top.wrist, hold))
    }

    func shape(elbow: Double, lean: Double, wrist: Double) -> Pose {
        var pose = Stand.pose(body, stanceHalf: stanceHalf, knee: knee, lean: lean, shift: Vec3(0, 0.3 * body.torso * sinDeg(-lean), 0))
        pose.headPitch = 10 * (1 - (elbow - restElbow) / max(180 - restElbow, 1))
        let progress = clamp((min(elbow, 180) - restElbow) / (180 - restElbow), 0, 1)
        let rise = lerp(rackElevation, topElevation, progress)
        let span = body.armSpan(elbow: elbow)
        let bend = elbow > 180 ? -1.0 : 1.0
        BodySide.forBoth { side in
            guard working.contains(side) else { return }
            let out = side.lateral * (barbell ? handsOut : lerp(handsOut, 0.35 * handsOut, progress))
            let reach = (span * span - out * out).squareRoot()
            let wristPoint = pose.shoulder(side, body) + Vec3(out, reach * cosDeg(rise), reach * sinDeg(rise))
            let pole = Vec3(side.lateral * lerp(0.6, 1, progress), lerp(0.7, 0.1, progress), lerp(-0.7, 0, progress)) * bend
            pose[arm: side] = Limb(end: wristPoint, pole: pole)
            pose[hand: side] = HandPose(pronation: neutralGrip ? 5 : 90, flexion: -wrist, grip: 0.85)
        }
        BodySide.forBoth { side in
            guard !working.contains(side) else { return }
            if freeHandOnHip {
                (pose[arm: side], pose[hand: side]) = Stand.handOnHip(pose, side, body)
            } else {
                pose[arm: side] = Stand.hangingArm(pose, side, body, forward: 2, out: 6, elbow: 170)
            }
        }
        return pose
    }
}

extension PressForm {
    static func draw(_ body: BodyShape, _ random: inout SimRandom) -> PressForm {
        let barbell = random.chance(0.45)
        let oneArm = !barbell && random.chance(0.4)
        return PressForm(
            body: body, barbell: barbell, working: oneArm ? [random.chance(0.5) ? .left : .right] : [.left, .right],
            freeHandOnHip: random.chance(0.5), stanceHalf: body.hipHalf * random.uniform(0.9, 1.6), knee: random.uniform(170, 179),
            restElbow: random.uniform(68, 85), handsOut: barbell ? random.uniform(0.04, 0.14) : random.uniform(0.08, 0.16),
            rackElevation: random.uniform(0, 15), topElevation: random.uniform(84, 96), restWrist: random.uniform(5, 20),
            neutralGrip: !barbell && random.chance(0.3))
    }

    func draft(_ index: Int, _ odds: FaultOdds, _ random: inout SimRandom) -> DraftRep<Detail> {
        let lockout = FaultBook.rule("overhead_press", "partial_lockout"), arch = FaultBook.rule("overhead_press", "back_arch")
        let bent = FaultBook.rule("overhead_press", "bent_wrist")
        var faults = Set<String>()
        let short = odds.draw(lockout.code, &random), arches = odds.draw(arch.code, &random), bends = odds.draw(bent.code, &random)
        let elbow = short ? lockout.faulty(toward: 130, &random) : random.chance(0.3) ? random.uniform(181, 190) : lockout.clean(toward: 180, &random)
        let lean = arches ? arch.faulty(toward: -32, &random) : arch.clean(toward: 5, &random)
        let wrist = bends ? bent.faulty(toward: 62, &random) : bent.clean(toward: restWrist, &random)
        if short { faults.insert(lockout.code) }
        if arches { faults.insert(arch.code) }
        if bends { faults.insert(bent.code) }
        var planned = [PlannedValue(measure: .lean, value: lean)]
        for side in working {
            planned += [PlannedValue(measure: .elbow(side), value: elbow > 180 ? 360 - elbow : elbow), PlannedValue(measure: .wrist(side), value: wrist)]
        }
        return DraftRep(detail: Detail(elbow: elbow, lean: lean, wrist: wrist), faults: faults, sides: working, planned: planned)
    }

    var summary: String {
        let arms = working.count == 2 ? "two-arm" : "one-arm (\(working[0])), free hand \(freeHandOnHip ? "on the hip" : "hanging")"
        return String(format: "%@ %@ press%@, elbows %.0f° at the shoulders, knees %.0f°", arms, barbell ? "barbell" : "dumbbell",
                      neutralGrip ? " (neutral grip)" : "", restElbow, knee)
    }
}
