import Foundation

/// Squats: narrow, shoulder-width or wide (sumo) stance with the toes out 0–40°
/// (the knees bend in the plane of the feet, so they travel outward), body weight
/// with the arms forward, a barbell on the back, or a goblet at the chest.
struct SquatForm: ExerciseForm {
    enum Load: String, CaseIterable { case bodyweight = "body weight, arms forward", barbell = "barbell on the back", goblet }
    enum Stance: String, CaseIterable { case narrow, shoulder = "shoulder-width", wide = "wide (sumo)" }

    struct Detail: Sendable {
        var knee: Double
        var lean: Double
        /// Degrees the knees turn out (+) or cave in (−) from the plane of the feet, at the turn.
        var kneeSwing: Double
    }

    var body: BodyShape
    var stance: Stance
    var stanceHalf: Double
    var toeOut: Double
    var load: Load
    var restKnee: Double
    var restLean: Double
    /// Body weight: how far the arms are raised forward at rest (they reach 90° at the bottom).
    var restArms: Double
    var gripHalf: Double

    var preparation: Preparation { load == .barbell ? .unrack : load == .goblet ? .pickUp : .none }

    func pose(_ rep: Detail?, _ state: RepState) -> Pose {
        guard let rep else { return shape(knee: restKnee, lean: restLean, swing: 0, arms: restArms) }
        let u = state.u
        return shape(knee: lerp(restKnee, rep.knee, u), lean: lerp(restLean, rep.lean, pow(u, 0.7)),
                     swing: rep.kneeSwing * u, arms: lerp(restArms, 90, u))
    }

    func shape(knee: Double, lean: Double, swing: Double, arms: Double) -> Pose {
        let span = body.legSpan(knee: knee)
        let lateral = body.hipHalf - stanceHalf
        let room = max(span * span - lateral * lateral, 1e-4).squareRoot()
        let back = clamp(body.torso * sinDeg(lean) * 0.85 - 0.03, 0, 0.8 * room)
        var pose = Stand.pose(body, stanceHalf: stanceHalf, toeOut: toeOut, knee: restKnee, lean: lean, arms: false)
        pose.pelvis = Vec3(0, -back, body.ankleHeight + (room * room - back * back).squareRoot())
        pose.headPitch = -0.5 * lean
        BodySide.forBoth { side in
            let ankle = pose[leg: side].end
            let along = (ankle - pose.hip(side, body)).unit()
            let toes = levelDirection(-side.lateral * toeOut)
            pose[leg: side].pole = toes.turned(about: along, degrees: side.lateral * swing)
        }
        let trunk = TrunkFrame(pose, body)
        BodySide.forBoth { side in
            let l = side.lateral
            switch load {
            case .bodyweight:
                pose[arm: side] = Stand.hangingArm(pose, side, body, forward: arms, out: 3, elbow: 174)
                pose[hand: side] = HandPose(pronation: 160, flexion: 0, grip: 0.15)
            case .barbell:
                let wrist = trunk.shoulderMid + trunk.right * (l * gripHalf) - trunk.forward * 0.07 + trunk.up * 0.03
                pose[arm: side] = Limb(end: wrist, pole: -trunk.up - trunk.forward * 0.6 + trunk.right * (l * 0.3))
                pose[hand: side] = HandPose(pronation: 160, flexion: -30, grip: 0.9)
            case .goblet:
                let wrist = trunk.shoulderMid + trunk.forward * 0.2 - trunk.up * 0.16 + trunk.right * (l * 0.05)
                pose[arm: side] = Limb(end: wrist, pole: -trunk.up + trunk.right * (l * 0.5))
                pose[hand: side] = HandPose(pronation: 90, flexion: 10, grip: 0.7)
            }
        }
        return pose
    }

    /// Knee spacing over ankle spacing across the body, signed (crossed knees are negative).
    func kneeSpread(_ pose: Pose) -> Double {
        func knee(_ side: BodySide) -> Vec3 {
            reach(from: pose.hip(side, body), to: pose[leg: side].end, upper: body.thigh, lower: body.shin, pole: pose[leg: side].pole).middle
        }
        return (knee(.right).x - knee(.left).x) / (pose.rightLeg.end.x - pose.leftLeg.end.x)
    }
}

extension SquatForm {
    static func draw(_ body: BodyShape, _ random: inout SimRandom) -> SquatForm {
        let stance = random.pick(Stance.allCases)
        let (half, toes) = switch stance {
        case .narrow: (body.hipHalf * random.uniform(0.8, 1.15), random.uniform(0, 20))
        case .shoulder: (body.shoulderHalf * random.uniform(0.95, 1.25), random.uniform(5, 30))
        case .wide: (body.hipHalf * random.uniform(2.0, 2.8), random.uniform(25, 40))
        }
        let load = random.pick(Load.allCases)
        return SquatForm(
            body: body, stance: stance, stanceHalf: half, toeOut: toes, load: load,
            restKnee: random.chance(0.5) ? random.uniform(174, 179) : random.uniform(164, 172),
            restLean: random.uniform(0, 6), restArms: random.chance(0.5) ? 90 : random.uniform(0, 30),
            gripHalf: body.shoulderHalf + random.uniform(0.1, 0.25))
    }

    func draft(_ index: Int, _ odds: FaultOdds, _ random: inout SimRandom) -> DraftRep<Detail> {
        let depth = FaultBook.rule("squat", "shallow_depth"), leaning = FaultBook.rule("squat", "forward_lean")
        let valgus = FaultBook.rule("squat", "knee_valgus")
        var faults = Set<String>()
        let shallow = odds.draw(depth.code, &random)
        let knee = shallow ? depth.faulty(toward: 130, &random) : depth.clean(toward: 60, &random)
        let leansOver = odds.draw(leaning.code, &random)
        let lean: Double = if leansOver {
            leaning.faulty(toward: 68, &random)
        } else {
            switch load {
            case .bodyweight: leaning.clean(toward: 14, &random)
            case .barbell: leaning.clean(toward: 20, &random)
            case .goblet: random.uniform(8, 30)
            }
        }
        let caves = odds.draw(valgus.code, &random)
        let target = caves ? valgus.faulty(toward: 0.45, &random) : random.uniform(0.85, 1.3)
        var detail = Detail(knee: knee, lean: lean, kneeSwing: 0)
        func swing(for target: Double) -> Double {
            solve(target, in: -45, 60) { kneeSpread(shape(knee: knee, lean: lean, swing: $0, arms: 90)) }
        }
        detail.kneeSwing = swing(for: target)
        var spread = kneeSpread(shape(knee: knee, lean: lean, swing: detail.kneeSwing, arms: 90))
        if !valgus.isFaulty(spread) && !valgus.isClean(spread) {
            // Caving in that far is out of this stance's reach: track the knees out instead.
            detail.kneeSwing = swing(for: 1.0)
            spread = kneeSpread(shape(knee: knee, lean: lean, swing: detail.kneeSwing, arms: 90))
        }
        if shallow { faults.insert(depth.code) }
        if leansOver { faults.insert(leaning.code) }
        if valgus.isFaulty(spread) { faults.insert(valgus.code) }
        return DraftRep(
            detail: detail, faults: faults, sides: [.left, .right],
            planned: [PlannedValue(measure: .knee(.left), value: knee), PlannedValue(measure: .knee(.right), value: knee),
                      PlannedValue(measure: .lean, value: lean), PlannedValue(measure: .kneeSpread, value: spread)])
    }

    var summary: String {
        String(format: "%@ stance (ankles %.1f hip widths apart), toes out %.0f°, %@, knees %@ (%.0f°) at the top",
               stance.rawValue, stanceHalf / body.hipHalf, toeOut, load.rawValue, restKnee >= 174 ? "locked" : "soft", restKnee)
    }
}
