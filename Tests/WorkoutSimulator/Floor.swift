import Foundation

/// Poses on the way to and from the floor, at the origin facing +y: a crouch
/// with the hands reaching down, and kneeling on all fours.
enum Floor {
    /// Squatting down, hands reaching for the floor in front of the feet.
    static func crouch(_ body: BodyShape) -> Pose {
        var pose = Stand.pose(body, stanceHalf: body.hipHalf * 1.1, toeOut: 15, knee: 80, lean: 45,
                              shift: Vec3(0, -0.25 * body.torso, 0), arms: false)
        pose.pelvis.z = Stand.pelvisHeight(body, pelvis: pose.pelvis, left: pose.leftLeg.end, right: pose.rightLeg.end, knee: 80)
        for side in BodySide.both {
            let shoulder = pose.shoulder(side, body)
            pose[arm: side] = Limb(end: Vec3(shoulder.x, shoulder.y + 0.15, 0.12), pole: Vec3(side.lateral, -1, 0))
            pose[hand: side] = HandPose(pronation: 170, flexion: -40, grip: 0.1)
        }
        return pose
    }

    /// On hands and knees: thighs upright, shins flat behind, hands under the shoulders.
    static func allFours(_ body: BodyShape) -> Pose {
        let s = body.height / 1.75, floor = 0.05 * s
        let pelvis = Vec3(0, -0.04, floor + body.thigh * cosDeg(6))
        let wristHeight = 0.035 * s, span = body.armSpan(elbow: 174)
        let lean = acos(clamp((wristHeight + span - pelvis.z) / body.torso, -1, 1)) * 180 / .pi
        var pose = Pose(
            pelvis: pelvis, heading: 0, lean: lean, headPitch: -15,
            leftArm: Limb(end: .zero, pole: Vec3(0, -1, 0)), rightArm: Limb(end: .zero, pole: Vec3(0, -1, 0)),
            leftLeg: Limb(end: .zero, pole: .zero), rightLeg: Limb(end: .zero, pole: .zero),
            leftFoot: FootPose(heading: 0, pitch: 165), rightFoot: FootPose(heading: 0, pitch: 165))
        for side in BodySide.both {
            let hip = pose.hip(side, body)
            let knee = Vec3(hip.x * 0.95, pelvis.y + body.thigh * sinDeg(6), floor)
            pose[leg: side] = Limb.through(hip, knee, knee + Vec3(0, -body.shin, 0.02 * s))
            let shoulder = pose.shoulder(side, body)
            pose[arm: side] = Limb(end: Vec3(shoulder.x, shoulder.y, wristHeight), pole: Vec3(side.lateral * 0.3, -1, 0))
            pose[hand: side] = HandPose(pronation: 178, flexion: -85, grip: 0.05)
        }
        return pose
    }

    /// Lying face down, flat on the floor after a plank: trunk and legs down, the
    /// arms beside the body or folded under the forehead — nothing under the shoulders.
    static func lyingFlat(_ body: BodyShape, _ prone: ProneBody, armsForward: Bool) -> Pose {
        let floor = 0.05 * body.height / 1.75
        var pose = prone.pose(elevation: 3, hipLine: 0)
        for side in BodySide.both {
            let shoulder = pose.shoulder(side, body), hip = pose.hip(side, body)
            if armsForward {
                pose[arm: side] = Limb(end: Vec3(side.lateral * 0.06, shoulder.y + 0.22, shoulder.z + 0.02),
                                       pole: Vec3(side.lateral, 0.3, 0))
                pose[hand: side] = HandPose(pronation: 170, flexion: 0, grip: 0.3)
            } else {
                pose[arm: side] = Limb(end: Vec3(hip.x + side.lateral * 0.08, hip.y + 0.05, floor), pole: Vec3(0, 0, 1))
                pose[hand: side] = HandPose(pronation: 90, flexion: 0, grip: 0.3)
            }
        }
        return pose
    }

    /// Getting down from standing onto all fours (or the reverse), as timed keyframes from `start`.
    static func getDown(_ body: BodyShape, standing: Pose, start: Double, reverse: Bool, _ random: inout SimRandom) -> Keyframes {
        var poses = [standing, crouch(body), allFours(body)]
        if reverse { poses.reverse() }
        let first = random.uniform(0.8, 1.4), second = random.uniform(0.8, 1.4)
        return Keyframes(times: [start, start + first, start + first + second], poses: poses, body: body)
    }
}
