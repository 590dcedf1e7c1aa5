#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A standing body's joint settings, in degrees: angles of segments from the
/// vertical, forward positive (so a knee's inner angle is 180 − thigh + shank).
struct StandingPosture {
    struct Leg {
        var thigh = 0.0
        var shank = 0.0
        var abduction = 0.0
        /// How far the knee caves in toward the midline, metres.
        var valgus = 0.0
    }

    enum Arm {
        /// Upper arm from the vertical (flexion forward, abduction sideways),
        /// the elbow's inner angle, and the wrist's bend.
        case hanging(flexion: Double, abduction: Double, elbow: Double, wrist: Double)
        /// The wrist reaching from the shoulder in a direction tilted `tilt` degrees
        /// forward of straight up, with the elbow's inner angle, elbows in front.
        case reaching(tilt: Double, elbow: Double, wrist: Double)
    }

    /// Torso lean forward of vertical.
    var lean = 0.0
    var legs = [Leg(), Leg()]
    var arms: [Arm] = [.hanging(flexion: 0, abduction: 8, elbow: 170, wrist: 5), .hanging(flexion: 0, abduction: 8, elbow: 170, wrist: 5)]

    /// The body's points with the mid-hip at the origin, feet not yet on the ground.
    func points(_ skeleton: Skeleton) -> BodyPoints {
        var body = BodyPoints()
        let torsoUp = Axis.up * cos(radians(lean)) + Axis.forward * sin(radians(lean))
        let torsoForward = Axis.forward * cos(radians(lean)) - Axis.up * sin(radians(lean))
        let midShoulder = torsoUp * skeleton.torso
        for side in 0..<2 {
            let outward = Axis.left * (side == 0 ? 1 : -1)
            let leg = legs[side]
            func direction(_ angle: Double) -> Vector {
                unit((Axis.forward * sin(radians(angle)) - Axis.up * cos(radians(angle))) * cos(radians(leg.abduction))
                    + outward * sin(radians(leg.abduction)))
            }
            let hip = outward * skeleton.pelvisWidth / 2
            let knee = hip + direction(leg.thigh) * skeleton.thigh
            let ankle = knee + direction(leg.shank) * skeleton.shank
            body.leg(side: side, hip: hip, knee: knee - outward * leg.valgus, ankle: ankle, forward: Axis.forward, up: Axis.up)

            let shoulder = midShoulder + outward * skeleton.shoulderWidth / 2
            switch arms[side] {
            case .hanging(let flexion, let abduction, let elbowAngle, let wrist):
                let upper = unit((Axis.forward * sin(radians(flexion)) - Axis.up * cos(radians(flexion))) * cos(radians(abduction))
                    + outward * sin(radians(abduction)))
                let elbow = shoulder + upper * skeleton.upperArm
                let axis = norm(cross(upper, Axis.forward)) > 1e-6 ? cross(upper, Axis.forward) : Axis.sagittalBend
                let forearm = rotate(upper, about: axis, by: 180 - elbowAngle)
                let hand = rotate(forearm, about: axis, by: wrist)
                body.arm(
                    side: side, shoulder: shoulder, elbow: elbow, wrist: elbow + forearm * skeleton.forearm,
                    handDirection: hand, lateral: outward, handLength: skeleton.hand)
            case .reaching(let tilt, let elbowAngle, let wrist):
                let reach = (skeleton.upperArm * skeleton.upperArm + skeleton.forearm * skeleton.forearm
                    - 2 * skeleton.upperArm * skeleton.forearm * cos(radians(elbowAngle))).squareRoot()
                let wristPoint = shoulder + (Axis.up * cos(radians(tilt)) + Axis.forward * sin(radians(tilt))) * reach
                let elbow = middleJoint(
                    root: shoulder, tip: wristPoint, first: skeleton.upperArm, second: skeleton.forearm,
                    bendToward: Axis.forward - Axis.up * 0.5 + outward * 0.3)
                let forearm = unit(wristPoint - elbow)
                let axis = norm(cross(forearm, Axis.forward)) > 1e-6 ? cross(forearm, Axis.forward) : Axis.sagittalBend
                body.arm(
                    side: side, shoulder: shoulder, elbow: elbow, wrist: wristPoint,
                    handDirection: rotate(forearm, about: axis, by: wrist), lateral: outward, handLength: skeleton.hand)
            }
        }
        body.head(midShoulder: midShoulder, up: torsoUp, forward: torsoForward, left: Axis.left)
        // Stand on the ground, feet planted under the origin's ground point.
        let feet = [27, 28, 29, 30, 31, 32].map { body.pose[$0] }
        let ground = feet.map(\.y).min()!
        let midAnkle = (body.pose[27] + body.pose[28]) / 2
        body.translate(by: Vector(-midAnkle.x, -ground, -midAnkle.z))
        return body
    }
}

/// Face-down positions, built in scene coordinates with the ground at y = 0.
enum PronePosture {
    /// A push-up: hands under the shoulders, arms at `elbow` degrees, hips
    /// `hipOffset` torso lengths above (+) or below (−) the shoulder–ankle line.
    static func pushUp(elbow: Double, hipOffset: Double, _ skeleton: Skeleton) -> BodyPoints {
        let reach = (skeleton.upperArm * skeleton.upperArm + skeleton.forearm * skeleton.forearm
            - 2 * skeleton.upperArm * skeleton.forearm * cos(radians(elbow))).squareRoot()
        return lying(shoulderHeight: 0.05 + reach, hipOffset: hipOffset, skeleton) { shoulder, side, outward in
            let wrist = Vector(shoulder.x, 0.05, shoulder.z)
            let elbowPoint = middleJoint(
                root: shoulder, tip: wrist, first: skeleton.upperArm, second: skeleton.forearm,
                bendToward: -Axis.forward + outward * 0.6)
            return (elbowPoint, wrist, Axis.forward)
        }
    }

    /// A forearm plank, with the hips `hipOffset` torso lengths off the line.
    static func plank(hipOffset: Double, _ skeleton: Skeleton) -> BodyPoints {
        lying(shoulderHeight: 0.04 + skeleton.upperArm, hipOffset: hipOffset, skeleton) { shoulder, _, _ in
            let elbow = Vector(shoulder.x, 0.04, shoulder.z)
            return (elbow, elbow + Axis.forward * skeleton.forearm, Axis.forward)
        }
    }

    private static func lying(
        shoulderHeight: Double, hipOffset: Double, _ skeleton: Skeleton,
        arm: (Vector, Int, Vector) -> (elbow: Vector, wrist: Vector, hand: Vector)
    ) -> BodyPoints {
        var body = BodyPoints()
        let legs = skeleton.thigh + skeleton.shank
        let length = legs + skeleton.torso
        let rise = shoulderHeight - 0.08
        let run = (max(0.01, length * length - rise * rise)).squareRoot()
        let line = unit(Vector(run, rise, 0))
        let lineUp = unit(Axis.up - line * (Axis.up * line).sum())
        for side in 0..<2 {
            let outward = Axis.left * (side == 0 ? 1 : -1)
            let ankle = Vector(0, 0.08, 0) + outward * 0.1
            let shoulder = Vector(run, shoulderHeight, 0) + outward * skeleton.shoulderWidth / 2
            let hip = Vector(0, 0.08, 0) + line * legs + lineUp * hipOffset * skeleton.torso + outward * skeleton.pelvisWidth / 2
            let knee = ankle + (hip - ankle) * (skeleton.shank / legs)
            body.pose[23 + side] = hip
            body.pose[25 + side] = knee
            body.pose[27 + side] = ankle
            body.pose[29 + side] = ankle + Axis.up * 0.06 - line * 0.03
            body.pose[31 + side] = ankle - Axis.up * 0.07 - line * 0.05
            let (elbow, wrist, hand) = arm(shoulder, side, outward)
            body.arm(
                side: side, shoulder: shoulder, elbow: elbow, wrist: wrist, handDirection: hand, lateral: outward,
                handLength: skeleton.hand)
        }
        let midShoulder = (body.pose[11] + body.pose[12]) / 2
        body.head(midShoulder: midShoulder, up: line, forward: -lineUp, left: Axis.left)
        return body
    }
}

extension BodyPoints {
    mutating func translate(by offset: Vector) {
        pose = pose.map { $0 + offset }
        hands = hands.map { $0?.map { $0 + offset } }
    }

    /// The points a fraction `t` of the way from `self` to `other` (for transitions).
    func blended(with other: BodyPoints, _ t: Double) -> BodyPoints {
        var result = self
        result.pose = zip(pose, other.pose).map { $0 + ($1 - $0) * t }
        result.hands = [nil, nil]
        return result
    }
}
