/// Building blocks for upright poses, at the origin facing +y unless a heading is given.
enum Stand {
    /// The highest the pelvis midpoint can be over these ankles with the knees at `knee` degrees.
    static func pelvisHeight(_ body: BodyShape, pelvis: Vec3, left: Vec3, right: Vec3, knee: Double, heading: Double = 0) -> Double {
        let across = Vec3(cosDeg(heading), sinDeg(heading), 0) * body.hipHalf
        let span = body.legSpan(knee: knee)
        let l = (pelvis - across - left).level.length, r = (pelvis + across - right).level.length
        return min(left.z + max(span * span - l * l, 0.01).squareRoot(), right.z + max(span * span - r * r, 0.01).squareRoot())
    }

    /// Standing: ankles `stanceHalf` either side of the midline, toes turned out, knees at
    /// `knee`, the pelvis shifted by `shift` (level) and the trunk leaning; arms hanging
    /// (or left to the caller: `arms: false`).
    static func pose(_ body: BodyShape, stanceHalf: Double, toeOut: Double = 8, knee: Double = 177, lean: Double = 0,
                     shift: Vec3 = .zero, arms: Bool = true) -> Pose {
        let left = Vec3(-stanceHalf, 0, body.ankleHeight), right = Vec3(stanceHalf, 0, body.ankleHeight)
        var pelvis = Vec3(shift.x, shift.y, 0)
        pelvis.z = pelvisHeight(body, pelvis: pelvis, left: left, right: right, knee: knee)
        let still = Limb(end: .zero, pole: Vec3(0, -1, 0))
        var pose = Pose(
            pelvis: pelvis, heading: 0, lean: lean, leftArm: still, rightArm: still,
            leftLeg: Limb(end: left, pole: levelDirection(toeOut)), rightLeg: Limb(end: right, pole: levelDirection(-toeOut)),
            leftFoot: FootPose(heading: toeOut, pitch: 0), rightFoot: FootPose(heading: -toeOut, pitch: 0))
        if arms {
            pose.leftArm = hangingArm(pose, .left, body, forward: 4, out: 6, elbow: 168)
            pose.rightArm = hangingArm(pose, .right, body, forward: 4, out: 6, elbow: 168)
        }
        return pose
    }

    /// An arm hanging from its shoulder (straight down, whatever the trunk does), swung
    /// `forward` and `out` degrees, the forearm bent forward to an elbow angle of `elbow`.
    static func hangingArm(_ pose: Pose, _ side: BodySide, _ body: BodyShape, forward: Double, out: Double, elbow: Double) -> Limb {
        let shoulder = pose.shoulder(side, body)
        let right = Vec3(cosDeg(pose.heading), sinDeg(pose.heading), 0), ahead = levelDirection(pose.heading)
        let upper = Vec3(0, 0, -1).turned(about: right, degrees: forward).turned(about: ahead, degrees: -side.lateral * out)
        let hinge = upper.cross(ahead).unit(or: right)
        let lower = upper.turned(about: hinge, degrees: 180 - elbow)
        let elbowPoint = shoulder + upper * body.upperArm
        return Limb.through(shoulder, elbowPoint, elbowPoint + lower * body.forearm)
    }

    /// A hand resting on the side of the hip, elbow out.
    static func handOnHip(_ pose: Pose, _ side: BodySide, _ body: BodyShape) -> (Limb, HandPose) {
        let right = Vec3(cosDeg(pose.heading), sinDeg(pose.heading), 0), ahead = levelDirection(pose.heading)
        let wrist = pose.hip(side, body) + right * (side.lateral * 0.07) + Vec3.up * 0.06 + ahead * 0.02
        return (Limb(end: wrist, pole: right * side.lateral - ahead * 0.4), HandPose(pronation: 170, flexion: -20, grip: 0.2))
    }
}
