/// A stretch of a session: a pose for each moment between `start` and `end` (seconds).
protocol Movement: Sendable {
    var start: Double { get }
    var end: Double { get }
    func pose(at t: Double) -> Pose
}

/// Poses held at given times with eased blends between them (limbs on arcs
/// when the `body` is given; see `Pose.blended`).
struct Keyframes: Movement {
    var times: [Double]
    var poses: [Pose]
    var body: BodyShape?

    var start: Double { times[0] }
    var end: Double { times[times.count - 1] }

    func pose(at t: Double) -> Pose {
        guard t > times[0] else { return poses[0] }
        for index in 1..<times.count where t < times[index] {
            let w = (t - times[index - 1]) / max(times[index] - times[index - 1], 1e-9)
            return poses[index - 1].blended(toward: poses[index], smoothstep(w), body: body)
        }
        return poses[poses.count - 1]
    }
}

/// A whole session's motion: movements one after another, each blended in from
/// where the previous one ended over `blend` seconds.
struct MotionScript: Sendable {
    var body: BodyShape
    var parts: [any Movement]
    var blend: Double

    var duration: Double { parts[parts.count - 1].end }

    func pose(at t: Double) -> Pose {
        var index = 0
        while index + 1 < parts.count && parts[index + 1].start <= t { index += 1 }
        let part = parts[index]
        let pose = part.pose(at: min(t, part.end))
        guard index > 0, t < part.start + blend else { return pose }
        let previous = parts[index - 1]
        return previous.pose(at: previous.end).blended(toward: pose, smoothstep((t - part.start) / blend), body: body)
    }
}
