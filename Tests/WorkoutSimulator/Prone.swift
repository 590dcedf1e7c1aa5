import Foundation

/// A body held face down on its toes (push-ups, planks), at the origin with the head
/// toward +y: the toes on the floor, the shoulder–ankle line raised `elevation`
/// degrees about the ankles, the hip midpoint `hipLine` torso lengths off that line.
struct ProneBody: Sendable {
    var body: BodyShape
    var footHalf: Double
    /// Degrees the feet are tipped toes-down.
    var toePitch: Double
    var knee: Double

    static func draw(_ body: BodyShape, _ random: inout SimRandom) -> ProneBody {
        ProneBody(body: body, footHalf: random.uniform(0.03, 0.16), toePitch: random.uniform(60, 82),
                  knee: random.chance(0.6) ? random.uniform(174, 180) : random.uniform(164, 172))
    }

    func ankle(_ side: BodySide) -> Vec3 {
        body.ankle(toe: Vec3(side.lateral * footHalf, 0, body.toeHeight), heading: 0, pitch: toePitch)
    }

    var ankleMid: Vec3 { (ankle(.left) + ankle(.right)) * 0.5 }

    /// Hip midpoint and shoulder midpoint.
    func line(elevation: Double, hipLine: Double) -> (hip: Vec3, shoulder: Vec3) {
        let lateral = body.hipHalf - footHalf, span = body.legSpan(knee: knee)
        let legs = (span * span - lateral * lateral).squareRoot()
        let off = hipLine * body.torso
        let alongLegs = (legs * legs - off * off).squareRoot(), alongTrunk = (body.torso * body.torso - off * off).squareRoot()
        let along = Vec3(0, cosDeg(elevation), sinDeg(elevation)), lift = Vec3(0, -sinDeg(elevation), cosDeg(elevation))
        let a = ankleMid
        return (a + along * alongLegs + lift * off, a + along * (alongLegs + alongTrunk))
    }

    func shoulder(_ side: BodySide, elevation: Double, hipLine: Double) -> Vec3 {
        line(elevation: elevation, hipLine: hipLine).shoulder + Vec3(side.lateral * body.shoulderHalf, 0, 0)
    }

    /// The elevation at which the left shoulder is `distance` from `point` (the root on
    /// the shoulder's way up: |ankles + L·(0, cos e, sin e) − point| = distance, solved for e).
    func elevation(placing distance: Double, from point: Vec3, hipLine: Double) -> Double {
        let (_, shoulder) = line(elevation: 0, hipLine: hipLine)
        let length = shoulder.y - ankleMid.y
        let d = ankleMid - point + Vec3(-body.shoulderHalf, 0, 0)
        let c = (distance * distance - d.dot(d) - length * length) / (2 * length)
        let r = (d.y * d.y + d.z * d.z).squareRoot()
        var e = (atan2(d.z, d.y) - acos(clamp(c / r, -1, 1))) * 180 / .pi
        if e <= -180 { e += 360 } else if e > 180 { e -= 360 }
        return e
    }

    /// Everything but the arms and hands.
    func pose(elevation: Double, hipLine: Double) -> Pose {
        let (hip, shoulder) = line(elevation: elevation, hipLine: hipLine)
        let trunk = shoulder - hip
        let down = Vec3(0, sinDeg(elevation), -cosDeg(elevation))
        let still = Limb(end: shoulder, pole: Vec3(0, -1, 0))
        return Pose(
            pelvis: hip, heading: 0, lean: atan2(trunk.y, trunk.z) * 180 / .pi, headPitch: -10,
            leftArm: still, rightArm: still,
            leftLeg: Limb(end: ankle(.left), pole: down), rightLeg: Limb(end: ankle(.right), pole: down),
            leftFoot: FootPose(heading: 4, pitch: toePitch), rightFoot: FootPose(heading: -4, pitch: toePitch))
    }
}
