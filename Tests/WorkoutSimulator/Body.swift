import Foundation

/// One person's build, in metres between the points the detector reports
/// (hip, knee and ankle landmarks, shoulders, elbows, wrists…), drawn for each session.
struct BodyShape: Sendable {
    var height: Double
    var thigh: Double
    var shin: Double
    /// Ankle landmark above the floor when standing flat.
    var ankleHeight: Double
    /// Heel to the tip of the foot, and how far the heel sits behind the ankle.
    var footLength: Double
    var heelBack: Double
    /// Hip midpoint to shoulder midpoint.
    var torso: Double
    var shoulderHalf: Double
    var hipHalf: Double
    var upperArm: Double
    var forearm: Double
    /// Wrist to the middle finger's knuckle.
    var palm: Double
    /// Shoulder midpoint to the middle of the head (between the ears).
    var neck: Double

    static func draw(_ random: inout SimRandom) -> BodyShape {
        let h = random.uniform(1.50, 1.95)
        let leg = 0.485 * h * random.uniform(0.95, 1.05)
        let femurOverTibia = random.uniform(0.92, 1.22)
        let torso = 0.295 * h * random.uniform(0.92, 1.08)
        let arms = 0.332 * h * random.uniform(0.94, 1.07)
        let upperShare = random.uniform(0.54, 0.58)
        let hipHalf = h * random.uniform(0.055, 0.075)
        let shoulderHalf = min(h * random.uniform(0.09, 0.112), hipHalf + 0.11 * torso)
        return BodyShape(
            height: h, thigh: leg * femurOverTibia / (1 + femurOverTibia), shin: leg / (1 + femurOverTibia),
            ankleHeight: 0.039 * h * random.uniform(0.9, 1.1), footLength: 0.152 * h * random.uniform(0.95, 1.05),
            heelBack: 0.035 * h, torso: torso, shoulderHalf: shoulderHalf, hipHalf: hipHalf,
            upperArm: arms * upperShare, forearm: arms * (1 - upperShare), palm: 0.052 * h * random.uniform(0.93, 1.07),
            neck: 0.1 * h * random.uniform(0.93, 1.07))
    }

    var leg: Double { thigh + shin }

    /// Height of the tip of the foot (the foot-index landmark) above the floor.
    var toeHeight: Double { 0.25 * ankleHeight }

    /// Hip-to-ankle distance at a knee angle (degrees, 180 straight).
    func legSpan(knee: Double) -> Double { chordLength(thigh, shin, angle: knee) }

    /// Shoulder-to-wrist distance at an elbow angle; past 180 (hyperextended) counts as 360 − angle.
    func armSpan(elbow: Double) -> Double { chordLength(upperArm, forearm, angle: elbow > 180 ? 360 - elbow : elbow) }

    /// Hip midpoint height when standing with the knees at `knee` degrees and the feet under the hips.
    func standingPelvisHeight(knee: Double = 178) -> Double { ankleHeight + legSpan(knee: knee) }

    var summary: String {
        String(format: "body %.2f m, femur/tibia %.2f, torso %.2fH, arms %.2fH, shoulders %.2f m, hips %.2f m",
               height, thigh / shin, torso / height, (upperArm + forearm) / height, 2 * shoulderHalf, 2 * hipHalf)
    }
}
