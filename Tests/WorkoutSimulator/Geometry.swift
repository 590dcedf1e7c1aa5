import Foundation

/// A point or direction in metres. The room's axes: x and y level, z up.
struct Vec3: Sendable, Equatable {
    var x: Double, y: Double, z: Double

    @_transparent
    init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    static let zero = Vec3(0, 0, 0)
    static let up = Vec3(0, 0, 1)

    @_transparent static func + (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @_transparent static func - (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @_transparent static prefix func - (a: Vec3) -> Vec3 { Vec3(-a.x, -a.y, -a.z) }
    @_transparent static func * (a: Vec3, s: Double) -> Vec3 { Vec3(a.x * s, a.y * s, a.z * s) }
    @_transparent static func * (s: Double, a: Vec3) -> Vec3 { Vec3(a.x * s, a.y * s, a.z * s) }
    @_transparent static func += (a: inout Vec3, b: Vec3) { a = a + b }

    @_transparent func dot(_ b: Vec3) -> Double { x * b.x + y * b.y + z * b.z }
    @_transparent func cross(_ b: Vec3) -> Vec3 { Vec3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x) }
    @_transparent var length: Double { (x * x + y * y + z * z).squareRoot() }
    /// The unit vector along this one, or `fallback` when this one is (nearly) zero.
    func unit(or fallback: Vec3 = .up) -> Vec3 {
        let l = length
        return l > 1e-9 ? self * (1 / l) : fallback
    }
    /// The part of this vector square to the unit vector `axis`.
    func across(_ axis: Vec3) -> Vec3 { self - axis * dot(axis) }
    /// Level part: z dropped.
    var level: Vec3 { Vec3(x, y, 0) }

    @_transparent func mix(_ other: Vec3, _ w: Double) -> Vec3 { self + (other - self) * w }

    /// This vector turned by `degrees` about the unit vector `axis` (right-handed).
    func turned(about axis: Vec3, degrees: Double) -> Vec3 {
        let r = degrees * .pi / 180, c = cos(r), s = sin(r)
        return self * c + axis.cross(self) * s + axis * (axis.dot(self) * (1 - c))
    }
}

/// Degrees between two directions, 0…180.
func degreesBetween(_ a: Vec3, _ b: Vec3) -> Double {
    let c = a.dot(b) / max(a.length * b.length, 1e-12)
    return acos(min(1, max(-1, c))) * 180 / .pi
}

/// The angle at `b` in the chain a–b–c, degrees (180 = straight).
func angleAt(_ a: Vec3, _ b: Vec3, _ c: Vec3) -> Double { degreesBetween(a - b, c - b) }

/// Direction in the level plane at `heading` degrees, turning counter-clockwise from +y.
func levelDirection(_ heading: Double) -> Vec3 {
    let r = heading * .pi / 180
    return Vec3(-sin(r), cos(r), 0)
}

func sinDeg(_ d: Double) -> Double { sin(d * .pi / 180) }
func cosDeg(_ d: Double) -> Double { cos(d * .pi / 180) }

@_transparent func clamp(_ v: Double, _ low: Double, _ high: Double) -> Double { v < low ? low : v > high ? high : v }

// Non-generic `min` and `max` for doubles: generic dispatch is most of their cost in
// debug builds, and the simulator calls them for every landmark of every frame.
@_transparent func min(_ a: Double, _ b: Double) -> Double { a < b ? a : b }
@_transparent func max(_ a: Double, _ b: Double) -> Double { a > b ? a : b }

@_transparent func lerp(_ a: Double, _ b: Double, _ w: Double) -> Double { a + (b - a) * w }

/// 0 → 0 and 1 → 1 with level ends (cubic), clamped outside [0, 1].
func smoothstep(_ x: Double) -> Double {
    let t = clamp(x, 0, 1)
    return t * t * (3 - 2 * t)
}

/// The distance between the ends of two bones of lengths `a` and `b` meeting at `angle` degrees.
func chordLength(_ a: Double, _ b: Double, angle: Double) -> Double {
    (a * a + b * b - 2 * a * b * cosDeg(angle)).squareRoot()
}

/// The argument in [low, high] where an increasing (or decreasing) `f` reaches `target`, by bisection.
func solve(_ target: Double, in low: Double, _ high: Double, _ f: (Double) -> Double) -> Double {
    var lo = low, hi = high
    let rising = f(high) >= f(low)
    for _ in 0..<40 {
        let mid = (lo + hi) / 2
        if (f(mid) < target) == rising { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
}
