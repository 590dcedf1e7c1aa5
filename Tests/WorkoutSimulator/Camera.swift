import Foundation

/// A camera at one moment: its position and axes (right, down, forward) and its pinhole optics.
struct CameraView {
    var origin: Vec3
    var right: Vec3, down: Vec3, forward: Vec3
    /// Focal length in pixels.
    var focal: Double
    var width: Double, height: Double

    /// Camera coordinates, metres: x right, y down, z away from the camera.
    func local(_ p: Vec3) -> Vec3 {
        let d = p - origin
        return Vec3(d.dot(right), d.dot(down), d.dot(forward))
    }

    /// Normalized image position of a point in camera coordinates.
    func image(_ c: Vec3) -> (x: Double, y: Double) {
        let depth = c.z > 0.05 ? c.z : 0.05
        return (focal * c.x / depth / width + 0.5, focal * c.y / depth / height + 0.5)
    }
}

/// Which part of the body the camera is framed on.
enum Framing: String, Sendable {
    case whole = "whole body"
    case upperBody = "upper body (legs out of frame)"
    case closeUp = "close-up (head out of frame)"
}

/// The camera of a session: drawn around the person (yaw, pitch, field of view,
/// frame size), then placed so that the person fills the planned share of the frame.
struct CameraRig: Sendable {
    /// Degrees around the person from in front of them: +90 at their left, −90 at their right, ±180 behind.
    var yaw: Double
    /// Degrees the optical axis points above level.
    var pitch: Double
    /// Vertical field of view, degrees.
    var fov: Double
    var width: Int
    var height: Int
    var framing: Framing
    /// The share of the frame the framed part should fill.
    var fill: Double
    var position = Vec3.zero
    /// Hand-held shake, degrees (0 on a tripod).
    var shake: Double
    var shakePhase: Double

    var focal: Double { Double(height) / 2 / tan(fov / 2 * .pi / 180) }

    static func draw(_ exercise: String, _ random: inout SimRandom) -> CameraRig {
        let behind = random.chance(0.1)
        let yaw = random.sign() * (behind ? random.uniform(150, 180) : random.uniform(0, 90))
        let (w, h) = random.weighted([((1280, 720), 0.3), ((1920, 1080), 0.25), ((640, 360), 0.1), ((960, 540), 0.1),
                                      ((720, 1280), 0.15), ((480, 848), 0.1)])
        let upperOnly = (exercise == "bicep_curl" || exercise == "overhead_press") && random.chance(0.35)
        let framing: Framing = upperOnly ? .upperBody : random.chance(0.08) ? .closeUp : .whole
        return CameraRig(
            yaw: yaw, pitch: random.uniform(-20, 20), fov: random.uniform(40, 90), width: w, height: h, framing: framing,
            fill: framing == .whole ? random.uniform(0.4, 0.95) : random.uniform(0.85, 1.0),
            shake: random.chance(0.2) ? random.uniform(0.3, 1.5) : 0, shakePhase: random.uniform(0, 360))
    }

    /// The camera's axes for its yaw and pitch (the person's spot faces +y).
    func axes(yawOffset: Double = 0, pitchOffset: Double = 0) -> (right: Vec3, down: Vec3, forward: Vec3) {
        let toward = -levelDirection(yaw + yawOffset)
        let forward = toward * cosDeg(pitch + pitchOffset) + Vec3.up * sinDeg(pitch + pitchOffset)
        let right = forward.cross(.up).unit()
        return (right, forward.cross(right), forward)
    }

    /// Places the camera so the framed points (sampled over the set) fill `fill` of the
    /// frame, keeping its height within 0.3–1.8 m (the pitch gives way, within ±20°).
    mutating func frame(on points: [Vec3]) {
        let (right, down, forward) = axes()
        let across = points.map { $0.dot(right) }, vertical = points.map { $0.dot(down) }, depth = points.map { $0.dot(forward) }
        let spanX = (across.max()! - across.min()!) + 0.1, spanY = (vertical.max()! - vertical.min()!) + 0.1
        var distance = focal * max(spanY / (fill * Double(height)), spanX / (fill * Double(width)))
        var centre = right * ((across.max()! + across.min()!) / 2) + down * ((vertical.max()! + vertical.min()!) / 2)
            + forward * (depth.reduce(0, +) / Double(depth.count))
        if framing == .closeUp { centre = centre + down * (0.08 * spanY) }
        distance = max(distance, (depth.reduce(0, +) / Double(depth.count)) - depth.min()! + 0.6)
        position = centre - forward * distance
        guard position.z < 0.3 || position.z > 1.8 else { return }
        position.z = clamp(position.z, 0.3, 1.8)
        let look = centre - position
        pitch = clamp(asin(look.z / look.length) * 180 / .pi, -20, 20)
    }

    func view(at t: Double) -> CameraView {
        let wobble = shake == 0 ? 0 : shake * sin(t * 1.3 + shakePhase) + 0.5 * shake * sin(t * 3.1 + 2 * shakePhase)
        let nod = shake == 0 ? 0 : 0.7 * shake * sin(t * 1.9 + 3 * shakePhase)
        let (right, down, forward) = axes(yawOffset: wobble, pitchOffset: nod)
        return CameraView(origin: position, right: right, down: down, forward: forward, focal: focal,
                          width: Double(width), height: Double(height))
    }

    /// The camera's view of the person, from its yaw.
    var viewName: String {
        switch abs(yaw) {
        case ...22.5: "front"
        case ...67.5: "three-quarter"
        case ...112.5: "side"
        default: "back"
        }
    }

    var summary: String {
        let distance = (position.level).length
        return String(format: "camera yaw %.0f° (%@) pitch %.0f° height %.2f m distance %.1f m fov %.0f°, %@ filling %.0f%%%@, %d×%d",
                      yaw, viewName, pitch, position.z, distance, fov, framing.rawValue, fill * 100,
                      shake > 0 ? String(format: ", hand-held (%.1f°)", shake) : "", width, height)
    }
}
