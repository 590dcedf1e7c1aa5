import Foundation

/// Things people do between sets, standing at their spot (origin, facing +y), as
/// timed keyframes: none of them is a rep of anything.
enum Gesture: String, CaseIterable {
    case still = "stands", shift = "shifts weight", hinge = "hinges to the floor", reachUp = "reaches up"
    case adjust = "adjusts clothes", shoulderRolls = "rolls shoulders", armSwings = "swings arms", turn = "turns"
    case lookAround = "looks around"

    /// A relaxed stance at the spot.
    static func standing(_ body: BodyShape, _ random: inout SimRandom) -> Pose {
        Stand.pose(body, stanceHalf: body.hipHalf * random.uniform(0.8, 1.4), toeOut: random.uniform(3, 15), knee: random.uniform(172, 179))
    }

    /// The gesture from `start`, beginning and ending in `base`.
    func keyframes(_ body: BodyShape, base: Pose, start: Double, _ random: inout SimRandom) -> Keyframes {
        var times = [start], poses = [base]
        func then(_ seconds: Double, _ pose: Pose) {
            times.append(times[times.count - 1] + seconds)
            poses.append(pose)
        }
        func arms(_ pose: Pose, forward: Double, elbow: Double = 168) -> Pose {
            var p = pose
            for side in BodySide.both { p[arm: side] = Stand.hangingArm(p, side, body, forward: forward, out: 6, elbow: elbow) }
            return p
        }
        switch self {
        case .still:
            for _ in 0..<random.int(1, 3) {
                var p = base
                p.pelvis.x += random.uniform(-0.015, 0.015)
                p.headTurn = random.uniform(-15, 15)
                then(random.uniform(0.8, 1.6), arms(p, forward: random.uniform(0, 8)))
            }
        case .shift:
            let stance = abs(base.leftLeg.end.x)
            for index in 0..<random.int(2, 4) {
                let side = (index % 2 == 0 ? 1.0 : -1.0) * random.uniform(0.04, 0.08)
                var p = Stand.pose(body, stanceHalf: stance, toeOut: -base.rightFoot.heading, knee: 178, shift: Vec3(side, 0, 0))
                p.hipDrop = side > 0 ? -3 : 3
                then(random.uniform(0.8, 1.8), arms(p, forward: 3))
            }
        case .hinge:
            let lean = random.uniform(60, 85)
            var bottom = Stand.pose(body, stanceHalf: abs(base.leftLeg.end.x), toeOut: 10, knee: random.uniform(145, 165), lean: lean,
                                    shift: Vec3(0, -0.35 * body.torso * sinDeg(lean), 0))
            bottom.headPitch = -0.3 * lean
            then(random.uniform(0.8, 1.5), arms(bottom, forward: 10))
            then(random.uniform(0.3, 1.2), poses[poses.count - 1])
        case .reachUp:
            var p = base
            let both = random.chance(0.4), side: BodySide = random.chance(0.5) ? .left : .right
            for arm in BodySide.both where both || arm == side {
                p[arm: arm] = Stand.hangingArm(p, arm, body, forward: random.uniform(160, 178), out: random.uniform(5, 20), elbow: random.uniform(165, 178))
                p[hand: arm] = HandPose(pronation: 90, flexion: 0, grip: 0.6)
            }
            then(random.uniform(0.6, 1.2), p)
            then(random.uniform(0.4, 1.5), p)
        case .adjust:
            var p = base
            if random.chance(0.6) {
                for side in BodySide.both {
                    let end = base.hip(side, body) + Vec3(-side.lateral * 0.03, 0.1, 0.04)
                    p[arm: side] = Limb(end: end, pole: Vec3(side.lateral, -0.6, 0))
                    p[hand: side] = HandPose(pronation: 160, flexion: 10, grip: 0.7)
                }
                then(random.uniform(0.6, 1.0), p)
                p.leftArm.end.z += 0.03
                p.rightArm.end.z += 0.03
                then(0.4, p)
            } else {
                let side: BodySide = random.chance(0.5) ? .left : .right
                let trunk = TrunkFrame(base, body)
                p[arm: side] = Limb(end: trunk.shoulderMid + trunk.up * 0.2 + trunk.forward * 0.08 + trunk.right * (side.lateral * 0.06),
                                    pole: Vec3(side.lateral, 0, -1))
                p[hand: side] = HandPose(pronation: 60, flexion: 20, grip: 0.3)
                then(random.uniform(0.6, 1.0), p)
                then(random.uniform(0.5, 1.5), p)
            }
        case .shoulderRolls:
            for _ in 0..<random.int(2, 4) {
                var up = base, back = base
                up.shrug = 0.045
                up.shoulderRoll = 0.02
                back.shrug = 0.02
                back.shoulderRoll = -0.03
                then(0.45, arms(up, forward: 4))
                then(0.45, arms(back, forward: 4))
                then(0.4, arms(base, forward: 4))
            }
        case .armSwings:
            let height = random.uniform(40, 80)
            for _ in 0..<random.int(3, 5) {
                then(random.uniform(0.4, 0.7), arms(base, forward: height, elbow: 172))
                then(random.uniform(0.4, 0.7), arms(base, forward: -25, elbow: 172))
            }
        case .turn:
            let turned = Placement(origin: .zero, heading: random.sign() * random.uniform(20, 60)).placed(base)
            then(random.uniform(0.8, 1.5), turned)
            then(random.uniform(0.5, 2), turned)
        case .lookAround:
            for _ in 0..<random.int(1, 3) {
                var p = base
                p.headTurn = random.sign() * random.uniform(30, 60)
                p.headPitch = random.uniform(-15, 20)
                then(random.uniform(0.5, 1.0), p)
                then(random.uniform(0.3, 1.2), p)
            }
        }
        then(random.uniform(0.6, 1.4), base)
        return Keyframes(times: times, poses: poses, body: body)
    }
}
