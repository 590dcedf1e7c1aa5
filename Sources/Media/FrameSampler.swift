/// Chooses which decoded frames to hand out, by timestamp: every frame with a
/// new timestamp, or, at a target rate, the first frame at or after each point
/// of a grid `1000 / rate` ms apart from the stream's start (so a variable
/// frame rate is sampled evenly).
///
/// What it accepts next depends only on the last frame it accepted, so a pass
/// that starts part-way (after a seek) chooses, from its first frame on, the
/// frames a whole pass chooses.
///
/// Handed-out timestamps strictly increase, as the landmarkers' video mode needs;
/// a frame whose millisecond timestamp does not move on is skipped.
struct FrameSampler {
    private let interval: Double?
    private var nextDue: Double?
    private(set) var lastAccepted: Int?

    /// - Parameter frameRate: frames per second to keep; `nil` keeps every frame.
    init(frameRate: Double?) {
        interval = frameRate.map { 1000 / $0 }
    }

    /// Whether to hand out the frame at `timestamp` (milliseconds).
    mutating func accept(_ timestamp: Int) -> Bool {
        if let lastAccepted, timestamp <= lastAccepted { return false }
        if let interval {
            // Timestamps are whole milliseconds: allow one for rounding.
            let tolerance = 1.0
            if let nextDue, Double(timestamp) < nextDue - tolerance { return false }
            // The first grid point past this frame.
            nextDue = (((Double(timestamp) + tolerance) / interval).rounded(.down) + 1) * interval
        }
        lastAccepted = timestamp
        return true
    }
}
