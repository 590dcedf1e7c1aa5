import Foundation

/// Walking from one spot to another in the room: alternating steps with the swing
/// foot lifted, the pelvis riding on the legs, arms swinging against the legs (less
/// when carrying weights); facing the way, or backing up (stepping back from a rack).
struct Walk: Movement {
    var body: BodyShape
    var from: Vec3
    var to: Vec3
    var start: Double
    var backward: Bool
    var carrying: Bool
    var stepTime: Double
    var stanceHalf: Double
    var firstSide: BodySide
    var armSwing: Double
    var steps: Int

    init(_ body: BodyShape, from: Vec3, to: Vec3, start: Double, backward: Bool = false, carrying: Bool = false,
         _ random: inout SimRandom) {
        self.body = body
        self.from = from.level
        self.to = to.level
        self.start = start
        self.backward = backward
        self.carrying = carrying
        stepTime = random.uniform(0.45, 0.62) * (backward ? 1.4 : 1)
        stanceHalf = body.hipHalf * random.uniform(0.7, 1.0)
        firstSide = random.chance(0.5) ? .left : .right
        armSwing = carrying ? random.uniform(3, 8) : random.uniform(12, 28)
        let stride = body.leg * random.uniform(0.75, 0.9) * (backward ? 0.6 : 1)
        steps = max(1, Int(((to - from).level.length / stride).rounded(.up)))
    }

    /// One step per leg in turn, then one to bring the feet together.
    var end: Double { start + Double(steps + 1) * stepTime }

    var heading: Double {
        let d = (to - from).unit(or: Vec3(0, 1, 0))
        return atan2(-d.x, d.y) * 180 / .pi + (backward ? 180 : 0)
    }

    func pose(at t: Double) -> Pose {
        let total = (to - from).length, pace = total / Double(steps)
        let clock = clamp((t - start) / stepTime, 0, Double(steps + 1))
        let step = min(Int(clock), steps + 1), swing = clock - Double(step)
        func target(_ index: Int) -> Double { min(Double(index + 1) * pace, total) }
        func side(_ index: Int) -> BodySide { index % 2 == 0 ? firstSide : firstSide.other }
        // Where each foot is along the way: at its last step's end, the moving one part way to its next.
        var leftAlong = 0.0, rightAlong = 0.0
        for index in 0..<step {
            if side(index).isLeft { leftAlong = target(index) } else { rightAlong = target(index) }
        }
        let mover = side(step)
        if step <= steps {
            let moved = lerp(mover.isLeft ? leftAlong : rightAlong, target(step), smoothstep(swing))
            if mover.isLeft { leftAlong = moved } else { rightAlong = moved }
        }
        let lift = step <= steps ? 0.1 * body.height / 1.75 * sin(.pi * swing) : 0
        let way = (to - from).unit(or: Vec3(0, 1, 0)), h = heading
        let right = Vec3(cosDeg(h), sinDeg(h), 0)
        func ground(_ foot: BodySide) -> Vec3 {
            from + way * (foot.isLeft ? leftAlong : rightAlong) + right * (foot.lateral * stanceHalf) + Vec3(0, 0, body.ankleHeight)
        }
        var pelvis = (ground(.left) + ground(.right)) * 0.5
        pelvis.z = Stand.pelvisHeight(body, pelvis: pelvis, left: ground(.left), right: ground(.right), knee: 176, heading: h)
            - 0.012 * sin(.pi * swing)
        let ahead = levelDirection(h)
        var pose = Pose(
            pelvis: pelvis, heading: h, lean: backward ? 1 : 4, twist: 4 * sin(.pi * clock),
            leftArm: Limb(end: .zero, pole: -ahead), rightArm: Limb(end: .zero, pole: -ahead),
            leftLeg: Limb(end: ground(.left), pole: ahead), rightLeg: Limb(end: ground(.right), pole: ahead),
            leftFoot: FootPose(heading: h + 6, pitch: 0), rightFoot: FootPose(heading: h - 6, pitch: 0))
        if step <= steps {
            pose[leg: mover].end = ground(mover) + Vec3(0, 0, lift)
            pose[foot: mover].pitch = 18 * sin(.pi * swing) - 8 * smoothstep(swing)
        }
        let envelope = smoothstep(clock) * smoothstep(Double(steps + 1) - clock)
        BodySide.forBoth { arm in
            let sign = (arm == firstSide ? 1.0 : -1.0) * (backward ? -1 : 1)
            pose[arm: arm] = Stand.hangingArm(pose, arm, body, forward: sign * armSwing * cos(.pi * clock) * envelope,
                                              out: 7, elbow: carrying ? 172 : 158)
            pose[hand: arm] = carrying ? HandPose(pronation: 90, flexion: 0, grip: 0.85) : .relaxed
        }
        return pose
    }
}
