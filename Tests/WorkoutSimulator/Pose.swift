import Foundation

/// The person's left or right.
package enum BodySide: Sendable, Hashable {
    case left, right

    /// Left then right.
    static let both: [BodySide] = [.left, .right]

    /// Runs `body` for the left side, then the right: per-frame code does this rather than
    /// iterate `both`, as debug builds iterate arrays through slow generic code.
    static func forBoth(_ body: (BodySide) -> Void) {
        body(.left)
        body(.right)
    }

    /// Along the person's right-pointing axis: −1 for the left side.
    var lateral: Double {
        switch self {
        case .left: -1
        case .right: 1
        }
    }

    var other: BodySide {
        switch self {
        case .left: .right
        case .right: .left
        }
    }

    /// 0 for the left, 1 for the right: the offset from a left landmark's index to its own.
    var index: Int {
        switch self {
        case .left: 0
        case .right: 1
        }
    }

    /// Tested by pattern, not `==`, which debug builds call out for.
    var isLeft: Bool {
        switch self {
        case .left: true
        case .right: false
        }
    }
}

/// A two-bone limb (arm or leg) given by where its end is and which way its
/// middle joint (elbow, knee) points; the middle joint is placed by inverse kinematics.
struct Limb: Sendable {
    var end: Vec3
    var pole: Vec3

    /// The limb whose middle joint is at `middle` (lengths permitting).
    static func through(_ root: Vec3, _ middle: Vec3, _ end: Vec3) -> Limb { Limb(end: end, pole: middle - root) }
}

/// A hand relative to its forearm: how far it is turned, bent at the wrist, and closed.
struct HandPose: Sendable {
    /// Forearm rotation, degrees: 0 palm toward where the elbow bends (a curl grip), 90 thumb up, 180 palm away.
    var pronation: Double
    /// Wrist bend, degrees: positive toward the palm, negative toward the back of the hand.
    var flexion: Double
    /// 0 open and flat … 1 a fist around a handle.
    var grip: Double

    static let relaxed = HandPose(pronation: 80, flexion: 8, grip: 0.35)
}

/// A foot: the level direction its toes point (degrees, like a heading) and how far it is
/// tipped toes-down (0 flat, 90 standing on the toes with the sole upright).
struct FootPose: Sendable {
    var heading: Double
    var pitch: Double
}

/// A whole-body pose in room coordinates (metres, z up): pelvis, trunk and head
/// angles, and limbs given by where their ends are. Builders make poses at the
/// origin facing +y and place them (`placed`); the script blends poses between movements.
struct Pose: Sendable {
    /// Midpoint of the hip landmarks.
    var pelvis: Vec3
    /// Where the person faces, degrees counter-clockwise from +y.
    var heading: Double
    var pelvisTurn = 0.0
    /// Degrees the pelvis tips sideways; positive drops the left hip.
    var hipDrop = 0.0
    /// Trunk (hip midpoint → shoulder midpoint) from vertical, degrees: positive forward, negative back.
    var lean = 0.0
    /// Trunk tipped toward the right, degrees.
    var sideLean = 0.0
    /// Trunk turned left of the heading, degrees.
    var twist = 0.0
    /// Chin down, degrees.
    var headPitch = 0.0
    /// Head turned left, degrees.
    var headTurn = 0.0
    /// Shoulders raised and drawn forward, metres.
    var shrug = 0.0
    var shoulderRoll = 0.0
    var leftArm: Limb
    var rightArm: Limb
    var leftLeg: Limb
    var rightLeg: Limb
    var leftHand = HandPose.relaxed
    var rightHand = HandPose.relaxed
    var leftFoot: FootPose
    var rightFoot: FootPose

    subscript(arm side: BodySide) -> Limb {
        get { side.isLeft ? leftArm : rightArm }
        set { if side.isLeft { leftArm = newValue } else { rightArm = newValue } }
    }

    subscript(leg side: BodySide) -> Limb {
        get { side.isLeft ? leftLeg : rightLeg }
        set { if side.isLeft { leftLeg = newValue } else { rightLeg = newValue } }
    }

    subscript(hand side: BodySide) -> HandPose {
        get { side.isLeft ? leftHand : rightHand }
        set { if side.isLeft { leftHand = newValue } else { rightHand = newValue } }
    }

    subscript(foot side: BodySide) -> FootPose {
        get { side.isLeft ? leftFoot : rightFoot }
        set { if side.isLeft { leftFoot = newValue } else { rightFoot = newValue } }
    }

    /// This pose a fraction `w` of the way to `other`, every parameter interpolated.
    /// With the `body`, limbs swing on an arc about their roots, their reach
    /// changing evenly: a straight arm raised overhead stays straight, where a
    /// hand moved along the straight line between two places would fold the arm
    /// through the shoulder.
    func blended(toward other: Pose, _ w: Double, body: BodyShape? = nil) -> Pose {
        func angle(_ a: Double, _ b: Double) -> Double {
            var d = (b - a).truncatingRemainder(dividingBy: 360)
            if d > 180 { d -= 360 } else if d < -180 { d += 360 }
            return a + d * w
        }
        func limb(_ a: Limb, _ b: Limb) -> Limb { Limb(end: a.end.mix(b.end, w), pole: a.pole.mix(b.pole, w)) }
        func hand(_ a: HandPose, _ b: HandPose) -> HandPose {
            HandPose(pronation: lerp(a.pronation, b.pronation, w), flexion: lerp(a.flexion, b.flexion, w), grip: lerp(a.grip, b.grip, w))
        }
        func foot(_ a: FootPose, _ b: FootPose) -> FootPose {
            FootPose(heading: angle(a.heading, b.heading), pitch: lerp(a.pitch, b.pitch, w))
        }
        var p = self
        p.pelvis = pelvis.mix(other.pelvis, w)
        p.heading = angle(heading, other.heading)
        p.pelvisTurn = lerp(pelvisTurn, other.pelvisTurn, w)
        p.hipDrop = lerp(hipDrop, other.hipDrop, w)
        p.lean = lerp(lean, other.lean, w)
        p.sideLean = lerp(sideLean, other.sideLean, w)
        p.twist = lerp(twist, other.twist, w)
        p.headPitch = lerp(headPitch, other.headPitch, w)
        p.headTurn = lerp(headTurn, other.headTurn, w)
        p.shrug = lerp(shrug, other.shrug, w)
        p.shoulderRoll = lerp(shoulderRoll, other.shoulderRoll, w)
        p.leftArm = limb(leftArm, other.leftArm)
        p.rightArm = limb(rightArm, other.rightArm)
        p.leftLeg = limb(leftLeg, other.leftLeg)
        p.rightLeg = limb(rightLeg, other.rightLeg)
        p.leftHand = hand(leftHand, other.leftHand)
        p.rightHand = hand(rightHand, other.rightHand)
        p.leftFoot = foot(leftFoot, other.leftFoot)
        p.rightFoot = foot(rightFoot, other.rightFoot)
        guard let body else { return p }
        for side in BodySide.both {
            p[arm: side].end = Self.swing(
                from: self[arm: side].end - shoulder(side, body), to: other[arm: side].end - other.shoulder(side, body), w)
                + p.shoulder(side, body)
            p[leg: side].end = Self.swing(
                from: self[leg: side].end - hip(side, body), to: other[leg: side].end - other.hip(side, body), w) + p.hip(side, body)
        }
        return p
    }

    /// A fraction `w` of the way from `a` to `b`: the direction turned along the
    /// great circle, the length interpolated.
    private static func swing(from a: Vec3, to b: Vec3, _ w: Double) -> Vec3 {
        let (la, lb) = (a.length, b.length)
        guard la > 1e-9, lb > 1e-9 else { return a.mix(b, w) }
        let (ua, ub) = (a * (1 / la), b * (1 / lb))
        let theta = acos(max(-1, min(1, ua.dot(ub))))
        let direction = sin(theta) < 1e-3
            ? ua.mix(ub, w).unit(or: ua)
            : ua * (sin((1 - w) * theta) / sin(theta)) + ub * (sin(w * theta) / sin(theta))
        return direction * lerp(la, lb, w)
    }
}

/// Where a pose made at the origin facing +y goes in the room: a level shift and a turn.
struct Placement: Sendable {
    var origin: Vec3
    var heading: Double

    static let identity = Placement(origin: .zero, heading: 0)

    func point(_ p: Vec3) -> Vec3 { origin + direction(p) }

    func direction(_ v: Vec3) -> Vec3 {
        let c = cosDeg(heading), s = sinDeg(heading)
        return Vec3(v.x * c - v.y * s, v.x * s + v.y * c, v.z)
    }

    func placed(_ pose: Pose) -> Pose {
        var p = pose
        p.pelvis = point(pose.pelvis)
        p.heading += heading
        p.leftFoot.heading += heading
        p.rightFoot.heading += heading
        BodySide.forBoth { side in
            p[arm: side] = Limb(end: point(pose[arm: side].end), pole: direction(pose[arm: side].pole))
            p[leg: side] = Limb(end: point(pose[leg: side].end), pole: direction(pose[leg: side].pole))
        }
        return p
    }
}
