/// The One Euro filter (Casiez et al., 2012) as MediaPipe implements it for
/// landmark smoothing: an adaptive low-pass whose cutoff rises with speed, so
/// that still landmarks are steady and fast ones do not lag. `valueScale`
/// expresses speeds in object sizes for image landmarks (MediaPipe's value
/// scaling); world landmarks use 1.
///
/// One filter smooths the points observed together in a sample (a pose's
/// landmarks, `channels` of them), each coordinate on its own; what depends
/// only on the time step is worked out once a sample.
struct OneEuroFilter {
    let parameters: OneEuroParameters
    private var lastTime: Int?
    /// The current sample's step in seconds, or nil when it starts the filter afresh.
    private var interval: Double?
    /// The smoothing factor of the speeds at this step (their cutoff is fixed).
    private var derivativeAlpha = 0.0
    private var channels: [Channel]

    /// One point's last sample: as observed, as filtered, and its smoothed speed.
    private struct Channel {
        var raw = Point.zero
        var filtered = Point.zero
        var derivative = Point.zero
    }

    init(_ parameters: OneEuroParameters, channels: Int = 1) {
        self.parameters = parameters
        self.channels = Array(repeating: Channel(), count: channels)
    }

    /// Starts the sample observed at `milliseconds`; a time not after the previous one starts afresh.
    mutating func advance(to milliseconds: Int) {
        if let lastTime, milliseconds > lastTime {
            let interval = Double(milliseconds - lastTime) / 1000
            self.interval = interval
            derivativeAlpha = Self.alpha(cutoff: Point(repeating: parameters.derivativeCutoff), interval: interval).x
        } else {
            interval = nil
        }
        lastTime = milliseconds
    }

    /// Filters one channel's point in the current sample.
    mutating func filter(_ channel: Int, _ value: Point, valueScale: Double = 1) -> Point {
        var last = channels[channel]
        defer { channels[channel] = last }
        guard let interval else {
            (last.raw, last.filtered) = (value, value)
            return value
        }
        let derivative = (value - last.raw) * valueScale / interval
        last.derivative += derivativeAlpha * (derivative - last.derivative)
        let speed = Point(abs(last.derivative.x), abs(last.derivative.y), abs(last.derivative.z))
        let cutoff = parameters.minCutoff + parameters.beta * speed
        last.filtered += Self.alpha(cutoff: cutoff, interval: interval) * (value - last.filtered)
        last.raw = value
        return last.filtered
    }

    /// alpha = 1 / (1 + tau / te), tau = 1 / (2π·cutoff), te = the sampling interval; coordinate by coordinate.
    private static func alpha(cutoff: Point, interval: Double) -> Point {
        1 / (1 + 1 / (2 * Double.pi * cutoff * interval))
    }

    /// Filters the only channel's `value` observed at `milliseconds`.
    mutating func filter(_ value: Double, at milliseconds: Int, valueScale: Double = 1) -> Double {
        advance(to: milliseconds)
        return filter(0, Point(value, 0, 0), valueScale: valueScale).x
    }
}
