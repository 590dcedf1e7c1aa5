import Foundation

/// The trunk's axes for a pose: right, forward and up (hip midpoint → shoulder midpoint).
struct TrunkFrame {
    var right: Vec3, forward: Vec3, up: Vec3
    var shoulderMid: Vec3

    init(_ pose: Pose, _ body: BodyShape) {
        let turn = pose.heading + pose.twist
        let r0 = Vec3(cosDeg(turn), sinDeg(turn), 0), f0 = levelDirection(turn)
        let cl = cosDeg(pose.lean), sl = sinDeg(pose.lean)
        let up1 = Vec3.up * cl + f0 * sl
        forward = f0 * cl - Vec3.up * sl
        let cs = cosDeg(pose.sideLean), ss = sinDeg(pose.sideLean)
        up = up1 * cs + r0 * ss
        right = r0 * cs - up1 * ss
        shoulderMid = pose.pelvis + up * body.torso
    }

    func shoulder(_ side: BodySide, _ pose: Pose, _ body: BodyShape) -> Vec3 {
        shoulderMid + right * (side.lateral * body.shoulderHalf) + up * pose.shrug + forward * pose.shoulderRoll
    }
}

extension Pose {
    /// The shoulder landmark of one side.
    func shoulder(_ side: BodySide, _ body: BodyShape) -> Vec3 { TrunkFrame(self, body).shoulder(side, self, body) }

    /// The hip landmark of one side.
    func hip(_ side: BodySide, _ body: BodyShape) -> Vec3 {
        let turn = heading + pelvisTurn
        let across = Vec3(cosDeg(turn) * cosDeg(hipDrop), sinDeg(turn) * cosDeg(hipDrop), sinDeg(hipDrop))
        return pelvis + across * (side.lateral * body.hipHalf)
    }
}

/// Places the middle joint of a two-bone chain from `root` toward `target`, bending
/// toward `pole`; returns the middle joint and the end, which is moved onto the
/// reachable shell when the target is too far or too near.
func reach(from root: Vec3, to target: Vec3, upper: Double, lower: Double, pole: Vec3) -> (middle: Vec3, end: Vec3) {
    let offset = target - root
    let d = clamp(offset.length, abs(upper - lower) + 1e-6, (upper + lower) * (1 - 1e-12))
    let along = offset.unit(or: Vec3(0, 0, -1))
    let bend = pole.across(along).unit(or: Vec3(0, 1, 0).across(along).unit(or: Vec3(1, 0, 0)))
    let x = (upper * upper - lower * lower + d * d) / (2 * d)
    let h = max(0, upper * upper - x * x).squareRoot()
    return (root + along * x + bend * h, root + along * d)
}

/// The true 3-D positions of what the detector reports, room metres (z up):
/// MediaPipe's 33 pose landmarks and, when asked, 21 points per hand.
struct Skeleton {
    /// In MediaPipe's pose order (odd = the person's left).
    var points: [Vec3]
    /// Left hand's 21 points then the right hand's, in MediaPipe's hand order; empty unless asked for.
    var hands: [Vec3]
    var trunk: TrunkFrame
    /// Where the face points.
    var headForward: Vec3

    init(_ pose: Pose, _ body: BodyShape, hands withHands: Bool = false) {
        trunk = TrunkFrame(pose, body)
        points = [Vec3](repeating: .zero, count: 33)
        hands = withHands ? [Vec3](repeating: .zero, count: 42) : []
        let s = body.height / 1.75
        // Head: turned about the trunk's up axis, then pitched.
        let hf0 = trunk.forward.turned(about: trunk.up, degrees: pose.headTurn)
        let hr = trunk.right.turned(about: trunk.up, degrees: pose.headTurn)
        let cp = cosDeg(pose.headPitch), sp = sinDeg(pose.headPitch)
        let hf = hf0 * cp - trunk.up * sp, hu = trunk.up * cp + hf0 * sp
        headForward = hf
        let head = trunk.shoulderMid + trunk.up * (0.55 * body.neck) + hu * (0.45 * body.neck)
        func face(_ r: Double, _ f: Double, _ u: Double) -> Vec3 { head + (hr * r + hf * f + hu * u) * s }
        points[0] = face(0, 0.100, -0.015)
        BodySide.forBoth { side in
            let l = side.lateral, eyes = 1 + 3 * side.index
            points[eyes] = face(0.017 * l, 0.086, 0.018)
            points[eyes + 1] = face(0.032 * l, 0.081, 0.020)
            points[eyes + 2] = face(0.046 * l, 0.073, 0.019)
            points[7 + side.index] = face(0.076 * l, 0, 0)
            points[9 + side.index] = face(0.025 * l, 0.088, -0.045)
        }
        BodySide.forBoth { side in
            let odd = side.index
            // Arm, hand.
            let shoulder = trunk.shoulder(side, pose, body)
            let arm = pose[arm: side]
            let (elbow, wrist) = reach(from: shoulder, to: arm.end, upper: body.upperArm, lower: body.forearm, pole: arm.pole)
            points[11 + odd] = shoulder
            points[13 + odd] = elbow
            points[15 + odd] = wrist
            let forearm = (wrist - elbow).unit()
            let inward = (-arm.pole).across(forearm).unit(or: trunk.forward.across(forearm).unit(or: trunk.up))
            let hand = pose[hand: side]
            let palm0 = inward.turned(about: forearm, degrees: -side.lateral * hand.pronation)
            let cf = cosDeg(hand.flexion), sf = sinDeg(hand.flexion)
            let axis = forearm * cf + palm0 * sf, palm = palm0 * cf - forearm * sf
            let thumb = side.isLeft ? palm.cross(axis) : axis.cross(palm)
            let shape = HandShape(axis: axis, palm: palm, thumb: thumb, wrist: wrist, palmLength: body.palm, grip: hand.grip)
            (points[17 + odd], points[19 + odd], points[21 + odd]) = shape.posePoints
            if withHands { shape.points(into: &hands, at: 21 * odd) }
            // Leg, foot.
            let hip = pose.hip(side, body)
            let leg = pose[leg: side]
            let (knee, ankle) = reach(from: hip, to: leg.end, upper: body.thigh, lower: body.shin, pole: leg.pole)
            points[23 + odd] = hip
            points[25 + odd] = knee
            points[27 + odd] = ankle
            let (toes, sole) = footAxes(pose[foot: side])
            points[29 + odd] = ankle - toes * body.heelBack + sole * (0.55 * body.ankleHeight)
            points[31 + odd] = ankle + toes * (body.footLength - body.heelBack) + sole * (0.75 * body.ankleHeight)
        }
    }
}

/// A foot's axes: heel toward toes, and the way the sole faces (down when flat).
func footAxes(_ foot: FootPose) -> (toes: Vec3, sole: Vec3) {
    let level = levelDirection(foot.heading), c = cosDeg(foot.pitch), s = sinDeg(foot.pitch)
    return (level * c - Vec3.up * s, -(level * s) - Vec3.up * c)
}

extension BodyShape {
    /// Where the ankle is when the tip of the foot rests at `toe` with the foot pitched `pitch` degrees toes-down.
    func ankle(toe: Vec3, heading: Double, pitch: Double) -> Vec3 {
        let (toes, sole) = footAxes(FootPose(heading: heading, pitch: pitch))
        return toe - toes * (footLength - heelBack) - sole * (0.75 * ankleHeight)
    }
}
