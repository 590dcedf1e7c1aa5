import Foundation

/// Jumping jacks, full (arms overhead) or half (arms only part way up): arms out to
/// the side and feet apart with a small hop each way.
struct JumpingJackForm: ExerciseForm {
    struct Detail: Sendable {
        /// Arm raise (shoulder→wrist against shoulder→hip) and feet spread (hip widths) at the top.
        var arms: Double
        var feet: Double
    }

    var body: BodyShape
    var half: Bool
    var restArms: Double
    var restFeet: Double
    var knee: Double
    var elbow: Double
    var hop: Double

    func pose(_ rep: Detail?, _ state: RepState) -> Pose {
        let top = rep ?? Detail(arms: restArms, feet: restFeet)
        let airborne = state.u > 0 && state.u < 1 ? hop * sin(.pi * state.phase) : 0
        return shape(arms: lerp(restArms, top.arms, state.u), feet: lerp(restFeet, top.feet, state.u), lift: airborne)
    }

    func shape(arms: Double, feet: Double, lift: Double) -> Pose {
        var pose = Stand.pose(body, stanceHalf: feet * body.hipHalf, toeOut: 10, knee: knee, arms: false)
        pose.pelvis.z += lift
        pose.leftLeg.end.z += lift
        pose.rightLeg.end.z += lift
        pose.leftFoot.pitch = 25 * lift / max(hop, 1e-6)
        pose.rightFoot.pitch = pose.leftFoot.pitch
        let trunk = TrunkFrame(pose, body)
        let span = body.armSpan(elbow: elbow)
        BodySide.forBoth { side in
            let shoulder = pose.shoulder(side, body)
            let down = (pose.hip(side, body) - shoulder).unit()
            let direction = down.turned(about: trunk.forward, degrees: -side.lateral * arms)
            pose[arm: side] = Limb(end: shoulder + direction * span, pole: -trunk.forward - trunk.up * 0.3)
            pose[hand: side] = HandPose(pronation: 90 + 60 * arms / 180, flexion: 5, grip: 0.15)
        }
        return pose
    }
}

extension JumpingJackForm {
    static func draw(_ body: BodyShape, _ random: inout SimRandom) -> JumpingJackForm {
        JumpingJackForm(
            body: body, half: random.chance(0.25), restArms: random.uniform(5, 20), restFeet: random.uniform(0.8, 1.3),
            knee: random.uniform(164, 178), elbow: random.uniform(160, 178), hop: random.uniform(0.03, 0.08) * body.height / 1.75)
    }

    func draft(_ index: Int, _ odds: FaultOdds, _ random: inout SimRandom) -> DraftRep<Detail> {
        let rules = FaultBook.rules("jumping_jack")
        let armRule = rules[0], feetRule = rules[1]
        let short = half || odds.draw(armRule.code, &random)
        // A partial rep misses with the arms, the feet or both; a full one clears both clearly.
        let (armsShort, feetShort) = !short ? (false, false) : half ? (true, random.chance(0.2))
            : random.weighted([((true, false), 0.5), ((false, true), 0.3), ((true, true), 0.2)])
        let arms = armsShort ? armRule.faulty(toward: 100, &random) : armRule.clean(toward: 180, &random)
        let feet = feetShort ? feetRule.faulty(toward: 1.3, &random) : feetRule.clean(toward: 3.0, &random)
        return DraftRep(
            detail: Detail(arms: arms, feet: feet), faults: short ? [armRule.code] : [], sides: [.left, .right],
            planned: [PlannedValue(measure: .armRaise(.left), value: arms), PlannedValue(measure: .armRaise(.right), value: arms),
                      PlannedValue(measure: .feetSpread, value: feet)])
    }

    var summary: String {
        String(format: "%@ jumping jacks, arms %.0f° and feet %.1f hip widths at rest, knees %.0f°, elbows %.0f°, hop %.0f cm",
               half ? "half" : "full", restArms, restFeet, knee, elbow, hop * 100)
    }
}
