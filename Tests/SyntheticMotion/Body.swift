#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

public typealias Vector = SIMD3<Double>

/// Scene axes, right-handed: x forward (where the person faces), y up, z toward
/// the person's right.
enum Axis {
    static let forward = Vector(1, 0, 0)
    static let up = Vector(0, 1, 0)
    static let left = Vector(0, 0, -1)
    /// The axis elbows and wrists bend about when the arm hangs: forearm forward.
    static let sagittalBend = Vector(0, 0, 1)
}

func norm(_ v: Vector) -> Double { (v * v).sum().squareRoot() }
func unit(_ v: Vector) -> Vector { v / max(norm(v), 1e-12) }
func cross(_ a: Vector, _ b: Vector) -> Vector {
    Vector(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

/// Rotates `v` about the unit `axis` by `degrees` (Rodrigues).
func rotate(_ v: Vector, about axis: Vector, by degrees: Double) -> Vector {
    let k = unit(axis), angle = radians(degrees)
    return v * cos(angle) + cross(k, v) * sin(angle) + k * (k * v).sum() * (1 - cos(angle))
}

/// Realistic segment lengths (metres) of one person, scaled by height.
public struct Skeleton: Sendable {
    var pelvisWidth = 0.28
    var shoulderWidth = 0.38
    var torso = 0.50
    var thigh = 0.45
    var shank = 0.43
    var upperArm = 0.30
    var forearm = 0.27
    var hand = 0.09

    init(scale: Double) {
        pelvisWidth *= scale
        shoulderWidth *= scale
        torso *= scale
        thigh *= scale
        shank *= scale
        upperArm *= scale
        forearm *= scale
        hand *= scale
    }
}

/// The 33 MediaPipe pose landmarks of a body, as scene points, plus the hands'
/// 21 points each, built from joint positions.
struct BodyPoints {
    var pose = [Vector](repeating: .zero, count: 33)
    /// Per side (0 left, 1 right): the hand's 21 points, when hands are modelled.
    var hands: [[Vector]?] = [nil, nil]

    /// Fills the head from the shoulders and the torso's up and forward directions.
    mutating func head(midShoulder: Vector, up: Vector, forward: Vector, left: Vector) {
        let nose = midShoulder + up * 0.22 + forward * 0.10
        pose[0] = nose
        for (side, sign) in [(0, 1.0), (1, -1.0)] {
            let eyeBase = nose + up * 0.035 - forward * 0.01
            pose[1 + 3 * side] = eyeBase + left * sign * 0.025  // eye inner
            pose[2 + 3 * side] = eyeBase + left * sign * 0.04   // eye
            pose[3 + 3 * side] = eyeBase + left * sign * 0.055  // eye outer
            pose[7 + side] = midShoulder + up * 0.2 + left * sign * 0.075 - forward * 0.02  // ear
            pose[9 + side] = nose - up * 0.035 + left * sign * 0.025  // mouth
        }
    }

    /// Sets one side's shoulder … hand points; side 0 is left.
    mutating func arm(side: Int, shoulder: Vector, elbow: Vector, wrist: Vector, handDirection: Vector, lateral: Vector, handLength: Double) {
        pose[11 + side] = shoulder
        pose[13 + side] = elbow
        pose[15 + side] = wrist
        pose[17 + side] = wrist + handDirection * handLength * 0.85 - lateral * 0.025  // pinky
        pose[19 + side] = wrist + handDirection * handLength + lateral * 0.015          // index
        pose[21 + side] = wrist + handDirection * handLength * 0.5 + lateral * 0.04      // thumb
        var hand = [Vector](repeating: wrist, count: 21)
        // Thumb: CMC, MCP, IP, tip.
        for joint in 1...4 { hand[joint] = wrist + handDirection * (0.02 + 0.02 * Double(joint)) + lateral * (0.025 + 0.012 * Double(joint)) }
        // Index, middle, ring, pinky: MCP and three more joints along the hand.
        for (finger, offset) in [0.03, 0.008, -0.014, -0.032].enumerated() {
            let mcp = wrist + handDirection * handLength + lateral * offset
            for joint in 0..<4 { hand[5 + 4 * finger + joint] = mcp + handDirection * 0.028 * Double(joint) }
        }
        hands[side] = hand
    }

    /// Sets one side's hip … foot points; side 0 is left.
    mutating func leg(side: Int, hip: Vector, knee: Vector, ankle: Vector, forward: Vector, up: Vector) {
        pose[23 + side] = hip
        pose[25 + side] = knee
        pose[27 + side] = ankle
        pose[29 + side] = ankle - forward * 0.05 - up * 0.05   // heel
        pose[31 + side] = ankle + forward * 0.15 - up * 0.06   // foot index
    }
}

/// Two-link reach: the elbow (or knee) between `root` and `tip`, bent toward `bendToward`.
func middleJoint(root: Vector, tip: Vector, first: Double, second: Double, bendToward: Vector) -> Vector {
    let toTip = tip - root
    let distance = min(norm(toTip), first + second - 1e-6)
    let along = (first * first - second * second + distance * distance) / (2 * distance)
    let across = max(0, first * first - along * along).squareRoot()
    let direction = unit(toTip)
    let bend = unit(bendToward - direction * (bendToward * direction).sum())
    return root + direction * along + bend * across
}
