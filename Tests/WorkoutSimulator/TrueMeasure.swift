/// A quantity of the true (noise-free) body, as the fault definitions state it;
/// angles in degrees, lengths in torso lengths or as ratios.
package enum TrueMeasure: Sendable, Hashable, CustomStringConvertible {
    /// Hip–knee–ankle.
    case knee(BodySide)
    /// Shoulder–elbow–wrist.
    case elbow(BodySide)
    /// Shoulder–hip–knee.
    case hip(BodySide)
    /// Hip midpoint → shoulder midpoint from vertical: positive leaning forward, negative back.
    case lean
    /// Elbow → shoulder from vertical.
    case upperArm(BodySide)
    /// Forearm (elbow → wrist) against the hand (wrist → middle knuckle).
    case wrist(BodySide)
    /// Hip midpoint above (+) or below (−) the shoulder-midpoint–ankle-midpoint line, in torso lengths.
    case hipLine
    /// Knee spacing over ankle spacing, across the body (level, along the hips).
    case kneeSpread
    /// Shoulder → wrist against shoulder → hip.
    case armRaise(BodySide)
    /// Ankle spacing in hip widths.
    case feetSpread
    /// Shoulder midpoint → ankle midpoint from level.
    case bodyLevel

    package var description: String {
        switch self {
        case .knee(let s): "\(s) knee"
        case .elbow(let s): "\(s) elbow"
        case .hip(let s): "\(s) hip"
        case .lean: "trunk lean"
        case .upperArm(let s): "\(s) upper arm"
        case .wrist(let s): "\(s) wrist"
        case .hipLine: "hip line"
        case .kneeSpread: "knee spread"
        case .armRaise(let s): "\(s) arm raise"
        case .feetSpread: "feet spread"
        case .bodyLevel: "body level"
        }
    }

    /// Degrees (rather than a ratio or torso lengths).
    package var isAngle: Bool {
        switch self {
        case .hipLine, .kneeSpread, .feetSpread: false
        default: true
        }
    }

    /// Whether measuring needs the hands' points.
    var needsHands: Bool { if case .wrist = self { true } else { false } }

    func value(in skeleton: Skeleton) -> Double {
        let p = skeleton.points
        func at(_ index: Int, _ side: BodySide) -> Vec3 { p[index + side.index] }
        let hipMid = (p[23] + p[24]) * 0.5, shoulderMid = (p[11] + p[12]) * 0.5, ankleMid = (p[27] + p[28]) * 0.5
        let across = (p[24] - p[23]).level.unit(or: Vec3(1, 0, 0))
        switch self {
        case .knee(let s): return angleAt(at(23, s), at(25, s), at(27, s))
        case .elbow(let s): return angleAt(at(11, s), at(13, s), at(15, s))
        case .hip(let s): return angleAt(at(11, s), at(23, s), at(25, s))
        case .lean:
            let trunk = shoulderMid - hipMid
            let forward = Vec3.up.cross(across)
            let incline = degreesBetween(trunk, .up)
            return trunk.dot(forward) < 0 ? -incline : incline
        case .upperArm(let s): return degreesBetween(at(11, s) - at(13, s), .up)
        case .wrist(let s):
            let knuckle = skeleton.hands[21 * s.index + 9]
            return degreesBetween(at(15, s) - at(13, s), knuckle - at(15, s))
        case .hipLine:
            let line = (ankleMid - shoulderMid).unit()
            let off = (hipMid - shoulderMid).across(line)
            let torso = (shoulderMid - hipMid).length
            return (off.z < 0 ? -off.length : off.length) / torso
        case .kneeSpread:
            return abs((p[25] - p[26]).dot(across)) / max(abs((p[27] - p[28]).dot(across)), 1e-9)
        case .armRaise(let s): return degreesBetween(at(15, s) - at(11, s), at(23, s) - at(11, s))
        case .feetSpread: return (p[27] - p[28]).length / (p[23] - p[24]).length
        case .bodyLevel: return 90 - degreesBetween(shoulderMid - ankleMid, .up)
        }
    }
}
