import Foundation

/// Lunges: a stationary split squat (same leg forward all set, the back knee still
/// bent at the top), alternating forward lunges, reverse lunges, or walking lunges
/// toward the camera (the person moves on by a step each rep). Hands on the hips, hanging with
/// dumbbells, or clasped at the chest.
struct LungeForm: ExerciseForm {
    enum Style: String, CaseIterable {
        case split = "stationary split squat", forward = "alternating forward lunges", reverse = "reverse lunges"
        case walking = "walking lunges"
    }
    enum Arms: String, CaseIterable { case hips = "hands on hips", dumbbells = "dumbbells hanging", chest = "hands at the chest" }

    struct Detail: Sendable {
        var front: BodySide
        var knee: Double
        var lean: Double
    }

    var body: BodyShape
    var style: Style
    var arms: Arms
    /// Ankles either side of the midline.
    var track: Double
    /// In the lunge: front ankle ahead of the pelvis, back ankle behind it (level), and the back foot's tilt onto the toes.
    var reachAhead: Double
    var reachBack: Double
    var backPitch: Double
    var toeOut: Double
    /// Standing knees; for the split squat, the front and back knees at the top.
    var restKnee: Double
    var splitFront: Double
    var splitBack: Double
    var splitSide: BodySide
    var restLean: Double

    var preparation: Preparation { arms == .dumbbells ? .pickUp : .none }
    /// Walking lunges stay within a room's length.
    var maxReps: Int { style == .walking ? 8 : 12 }

    /// Standing toes are this far ahead of the ankles.
    var toeSpot: Double { body.footLength - body.heelBack }

    /// The ankle relative to the tip of the foot, tipped onto the toes by `pitch` degrees.
    func ankleFromToe(_ pitch: Double) -> Vec3 { body.ankle(toe: .zero, heading: 0, pitch: pitch) }

    /// The pelvis in the lunge with the front knee at `knee`.
    func lungePelvis(_ knee: Double) -> Vec3 {
        let span = body.legSpan(knee: knee), lateral = track - body.hipHalf
        let y = style == .reverse ? -reachAhead : toeSpot + ankleFromToe(backPitch).y + reachBack
        return Vec3(0, y, body.ankleHeight + max(span * span - lateral * lateral - reachAhead * reachAhead, 1e-4).squareRoot())
    }

    func pose(_ rep: Detail?, _ state: RepState) -> Pose {
        guard let rep else {
            return style == .split ? lunge(splitSide, knee: splitFront, lean: restLean, step: 1, returning: false)
                : lunge(.left, knee: restKnee, lean: restLean, step: 0, returning: false)
        }
        let knee = lerp(style == .split ? splitFront : restKnee, rep.knee, state.u)
        let lean = lerp(restLean, rep.lean, pow(state.u, 0.8))
        guard style != .split else { return lunge(rep.front, knee: knee, lean: lean, step: 1, returning: false) }
        let step = state.outbound ? smoothstep(state.phase / 0.45) : 1 - smoothstep((state.phase - 0.55) / 0.45)
        return lunge(rep.front, knee: knee, lean: lean, step: step, returning: !state.outbound)
    }

    /// The body `step` of the way from standing into the lunge with `front` forward (on the
    /// way back, walking lunges bring the back foot up beside the front one instead).
    func lunge(_ front: BodySide, knee: Double, lean: Double, step: Double, returning: Bool) -> Pose {
        let back = front.other
        let inLunge = lungePelvis(knee)
        let frontAnkle = Vec3(front.lateral * track, inLunge.y + reachAhead, body.ankleHeight)
        let backToe = style == .reverse ? Vec3(back.lateral * track, inLunge.y - reachBack, body.toeHeight) - ankleFromToe(backPitch).level
            : Vec3(back.lateral * track, toeSpot, body.toeHeight)
        let backAnkle = backToe + ankleFromToe(backPitch)
        let walkedOn = style == .walking && returning
        let standY = walkedOn ? frontAnkle.y : 0
        func standing(_ side: BodySide) -> Vec3 { Vec3(side.lateral * track, standY, body.ankleHeight) }
        let lift = Vec3(0, 0, 0.08 * body.height / 1.75 * sin(.pi * step))
        var pose = Stand.pose(body, stanceHalf: track, toeOut: toeOut, knee: restKnee, lean: lean, arms: false)
        pose.pelvis = Vec3(0, lerp(standY, inLunge.y, step), lerp(pose.pelvis.z, inLunge.z, step))
        if style == .forward || (style == .walking && !returning) {
            pose[leg: front].end = standing(front).mix(frontAnkle, step) + lift
            pose[leg: back].end = backToe + ankleFromToe(backPitch * step)
        } else if style == .split {
            pose[leg: front].end = frontAnkle
            pose[leg: back].end = backAnkle
        } else {
            pose[leg: front].end = frontAnkle
            pose[leg: back].end = standing(back).mix(backAnkle, step) + lift
        }
        pose[leg: front].pole = levelDirection(-front.lateral * toeOut)
        pose[leg: back].pole = Vec3(0, 1, -0.4)
        pose[foot: front] = FootPose(heading: -front.lateral * toeOut, pitch: 0)
        pose[foot: back] = FootPose(heading: -back.lateral * 4, pitch: backPitch * step)
        pose.headPitch = -0.4 * lean
        placeArms(&pose)
        return pose
    }

    private func placeArms(_ pose: inout Pose) {
        let trunk = TrunkFrame(pose, body)
        BodySide.forBoth { side in
            switch arms {
            case .hips: (pose[arm: side], pose[hand: side]) = Stand.handOnHip(pose, side, body)
            case .dumbbells:
                pose[arm: side] = Stand.hangingArm(pose, side, body, forward: 3, out: 4, elbow: 172)
                pose[hand: side] = HandPose(pronation: 90, flexion: 0, grip: 0.85)
            case .chest:
                let wrist = trunk.shoulderMid + trunk.forward * 0.18 - trunk.up * 0.14 + trunk.right * (side.lateral * 0.05)
                pose[arm: side] = Limb(end: wrist, pole: -trunk.up + trunk.right * side.lateral)
                pose[hand: side] = HandPose(pronation: 100, flexion: 10, grip: 0.6)
            }
        }
    }

    func advance(after rep: Detail) -> Vec3 {
        style == .walking ? Vec3(0, lungePelvis(rep.knee).y + reachAhead, 0) : .zero
    }
}

extension LungeForm {
    static func draw(_ body: BodyShape, _ random: inout SimRandom) -> LungeForm {
        let style = random.weighted([(Style.split, 0.3), (.forward, 0.25), (.reverse, 0.25), (.walking, 0.2)])
        let track = body.hipHalf * random.uniform(0.7, 1.2)
        let lateral = track - body.hipHalf, deepest = body.legSpan(knee: 75)
        let ahead = min(body.leg * random.uniform(0.3, 0.42), 0.9 * (deepest * deepest - lateral * lateral).squareRoot())
        var form = LungeForm(
            body: body, style: style, arms: random.pick(Arms.allCases), track: track, reachAhead: ahead,
            reachBack: body.leg * random.uniform(0.42, 0.56), backPitch: random.uniform(35, 60), toeOut: random.uniform(0, 12),
            restKnee: random.uniform(170, 179), splitFront: random.uniform(158, 170), splitBack: random.uniform(140, 155),
            splitSide: random.chance(0.5) ? .left : .right, restLean: random.uniform(0, 6))
        if style == .split {
            // Place the back foot so that its knee is at `splitBack` at the top, at least a third of a leg behind
            // the hips: straighten the back knee (to 155°) and then bend the front one until it fits.
            func backKnee(reaching reach: Double) -> Double {
                let drop = form.lungePelvis(form.splitFront).z - body.toeHeight - form.ankleFromToe(form.backPitch).z
                let span = (reach * reach + drop * drop + lateral * lateral).squareRoot()
                let t = body.thigh, s = body.shin
                return acos(clamp((t * t + s * s - span * span) / (2 * t * s), -1, 1)) * 180 / .pi
            }
            let shortest = body.leg / 3
            while backKnee(reaching: shortest) > 155 && form.splitFront > 150 { form.splitFront -= 1 }
            form.splitBack = max(form.splitBack, min(backKnee(reaching: shortest), 155))
            let drop = form.lungePelvis(form.splitFront).z - body.toeHeight - form.ankleFromToe(form.backPitch).z
            let span = body.legSpan(knee: form.splitBack)
            form.reachBack = max(span * span - drop * drop - lateral * lateral, 0).squareRoot()
        }
        return form
    }

    func draft(_ index: Int, _ odds: FaultOdds, _ random: inout SimRandom) -> DraftRep<Detail> {
        let depth = FaultBook.rule("lunge", "shallow_depth"), leaning = FaultBook.rule("lunge", "forward_lean")
        let front = style == .split ? splitSide : (index % 2 == 0 ? splitSide : splitSide.other)
        let shallow = odds.draw(depth.code, &random), leans = odds.draw(leaning.code, &random)
        let knee = shallow ? depth.faulty(toward: 130, &random) : depth.clean(toward: 75, &random)
        let lean = leans ? leaning.faulty(toward: 55, &random) : leaning.clean(toward: -3, &random)
        var faults = Set<String>()
        if shallow { faults.insert(depth.code) }
        if leans { faults.insert(leaning.code) }
        return DraftRep(detail: Detail(front: front, knee: knee, lean: lean), faults: faults, sides: [front],
                        planned: [PlannedValue(measure: .knee(front), value: knee), PlannedValue(measure: .lean, value: lean)])
    }

    var summary: String {
        let top = style == .split ? String(format: ", %@ leg forward, knees %.0f° front / %.0f° back at the top", "\(splitSide)", splitFront, splitBack)
            : String(format: ", knees %.0f° standing", restKnee)
        return String(format: "%@%@, stride %.2f m, %@", style.rawValue, top, reachAhead + reachBack, arms.rawValue)
    }
}
