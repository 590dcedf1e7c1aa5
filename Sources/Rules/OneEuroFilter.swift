/// The One Euro filter (Casiez et al., 2012) as MediaPipe implements it for
/// landmark smoothing: an adaptive low-pass whose cutoff rises with speed, so
/// that still landmarks are steady and fast ones do not lag. `valueScale`
/// expresses speeds in object sizes for image landmarks (MediaPipe's value
/// scaling); world landmarks use 1.
struct OneEuroFilter {
    let parameters: OneEuroParameters
    private var lastTime: Int?
    private var lastRaw: Double?
    private var lastFiltered: Double?
    private var lastDerivative = 0.0

    init(_ parameters: OneEuroParameters) {
        self.parameters = parameters
    }

    /// Filters `value` observed at `milliseconds`, a time after the previous one.
    mutating func filter(_ value: Double, at milliseconds: Int, valueScale: Double = 1) -> Double {
        guard let lastTime, let lastRaw, let lastFiltered, milliseconds > lastTime else {
            self.lastTime = milliseconds
            self.lastRaw = value
            self.lastFiltered = value
            return value
        }
        let interval = Double(milliseconds - lastTime) / 1000
        let derivative = (value - lastRaw) * valueScale / interval
        lastDerivative = Self.smooth(derivative, previous: lastDerivative, cutoff: parameters.derivativeCutoff, interval: interval)
        let cutoff = parameters.minCutoff + parameters.beta * abs(lastDerivative)
        let filtered = Self.smooth(value, previous: lastFiltered, cutoff: cutoff, interval: interval)
        self.lastTime = milliseconds
        self.lastRaw = value
        self.lastFiltered = filtered
        return filtered
    }

    private static func smooth(_ value: Double, previous: Double, cutoff: Double, interval: Double) -> Double {
        // alpha = 1 / (1 + tau / te), tau = 1 / (2π·cutoff), te = the sampling interval.
        let alpha = 1 / (1 + 1 / (2 * Double.pi * cutoff * interval))
        return previous + alpha * (value - previous)
    }
}
