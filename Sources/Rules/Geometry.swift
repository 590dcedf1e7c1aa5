import Foundation

/// Points and the measures signals are made of. World points are metres with
/// y pointing down (MediaPipe's camera-aligned axes); image points are pixels
/// (normalized x and y scaled by the frame's width and height, z left at 0).
typealias Point = SIMD3<Double>

enum Geometry {
    static let up = Point(0, -1, 0)

    static func length(_ v: Point) -> Double { (v * v).sum().squareRoot() }

    static func dot(_ a: Point, _ b: Point) -> Double { (a * b).sum() }

    /// The angle between two vectors, degrees in [0, 180]; nil if one is zero.
    static func angle(_ u: Point, _ v: Point) -> Double? {
        let lengths = length(u) * length(v)
        guard lengths > 1e-12 else { return nil }
        return acos(min(1, max(-1, dot(u, v) / lengths))) * 180 / .pi
    }

    /// The component of `v` perpendicular to `direction`; nil for a zero direction.
    static func perpendicular(_ v: Point, to direction: Point) -> Point? {
        let squared = dot(direction, direction)
        guard squared > 1e-12 else { return nil }
        return v - direction * (dot(v, direction) / squared)
    }

    /// The horizontal part of a vector (x and z), with y set to 0.
    static func horizontal(_ v: Point) -> Point { Point(v.x, 0, v.z) }
}
