import Foundation

/// MediaPipe's 21 hand points from the wrist and the hand's axes, for a hand
/// of a given palm length (wrist to the middle knuckle) and grip.
struct HandShape {
    /// Wrist toward the middle knuckle.
    var axis: Vec3
    /// The way the palm faces.
    var palm: Vec3
    /// Toward the thumb side.
    var thumb: Vec3
    var wrist: Vec3
    var palmLength: Double
    /// 0 open and flat … 1 a fist.
    var grip: Double

    // The fingers, index to pinky, in palm lengths: knuckle position along the hand's axis and
    // toward the thumb, how far the finger fans toward the thumb side, and its three bones.
    private static let along = [0.96, 1.00, 0.95, 0.86]
    private static let across = [0.24, 0.00, -0.21, -0.40]
    private static let splay = [0.08, 0.00, -0.06, -0.14]
    private static let bones = [0.44, 0.26, 0.21, 0.50, 0.30, 0.22, 0.46, 0.28, 0.21, 0.36, 0.21, 0.19]
    private static let thumbBones = [0.36, 0.30, 0.26]

    /// The thumb's base, then the direction of each of its bones: out toward the index side,
    /// wrapping across the palm as the hand closes.
    private var thumbBase: Vec3 { wrist + (axis * 0.20 + thumb * 0.22 + palm * 0.05) * palmLength }
    private func thumbDirection(after previous: Vec3?) -> Vec3 {
        let wrap = (axis * 0.3 - thumb * 0.3 + palm).unit()
        return (previous ?? (axis * 0.55 + thumb * 0.75 + palm * 0.25).unit()).mix(wrap, 0.35 * grip).unit()
    }

    /// A finger's knuckle.
    private func knuckle(_ finger: Int) -> Vec3 {
        wrist + (axis * Self.along[finger] + thumb * Self.across[finger]) * palmLength
    }

    /// The direction of a finger's bone turned toward the palm by `turn` radians from the finger's straight line.
    private func boneDirection(_ finger: Int, turn: Double) -> Vec3 {
        (axis + thumb * Self.splay[finger]).unit() * cos(turn) + palm * sin(turn)
    }

    /// Writes all 21 points, in MediaPipe's hand order, from `out[offset]` on.
    func points(into out: inout [Vec3], at offset: Int) {
        out[offset] = wrist
        var joint = thumbBase, direction: Vec3? = nil
        out[offset + 1] = joint
        for bone in 0..<3 {
            let next = thumbDirection(after: direction)
            direction = next
            joint = joint + next * (Self.thumbBones[bone] * palmLength)
            out[offset + 2 + bone] = joint
        }
        // Each joint bends toward the palm, 1.3, 1.5 and 1.0 radians in a full grip, knuckle first.
        for finger in 0..<4 {
            let base = knuckle(finger), bones = 3 * finger
            let first = base + boneDirection(finger, turn: 1.3 * grip) * (Self.bones[bones] * palmLength)
            let second = first + boneDirection(finger, turn: 2.8 * grip) * (Self.bones[bones + 1] * palmLength)
            out[offset + 5 + 4 * finger] = base
            out[offset + 6 + 4 * finger] = first
            out[offset + 7 + 4 * finger] = second
            out[offset + 8 + 4 * finger] = second + boneDirection(finger, turn: 3.8 * grip) * (Self.bones[bones + 2] * palmLength)
        }
    }

    /// What the pose model reports of the hand: pinky and index knuckles (part way along the
    /// first bone), and the thumb (half way along its second bone).
    var posePoints: (pinky: Vec3, index: Vec3, thumb: Vec3) {
        let first = thumbDirection(after: nil), second = thumbDirection(after: first)
        let thumbJoint = thumbBase + first * (Self.thumbBones[0] * palmLength)
        return (knuckle(3) + boneDirection(3, turn: 1.3 * grip) * (0.4 * Self.bones[9] * palmLength),
                knuckle(0) + boneDirection(0, turn: 1.3 * grip) * (0.4 * Self.bones[0] * palmLength),
                thumbJoint + second * (0.5 * Self.thumbBones[1] * palmLength))
    }
}
