extension Reduction {
    /// The reduction of the values in `frames` (`bottom`: the value nearest `turn`).
    func apply(
        to values: [Double?], in frames: ClosedRange<Int>, turn: Int, times: [Int], extremeFalls: Bool? = nil
    ) -> Double? {
        if self == .bottom { return Self.value(values, at: turn, within: frames, times: times, extremeFalls: extremeFalls) }
        let present = frames.compactMap { values[$0] }
        guard let first = present.first else { return nil }
        switch self {
        case .min: return present.min()
        case .max: return present.max()
        case .mean: return present.reduce(0, +) / Double(present.count)
        case .range: return present.max()! - present.min()!
        case .bottom: return first
        }
    }

    /// `values` with each that lies between two neighbouring frames' values
    /// replaced by the median of the three: a spike one frame long is gone, a
    /// peak over two frames or more stays whole (a wider median, like the rep
    /// signal's, would blunt a quick rep's extreme), and a value beside a gap is kept.
    static func withoutSpikes(_ values: [Double?]) -> [Double?] {
        var result = values
        for frame in values.indices.dropFirst().dropLast() {
            guard let before = values[frame - 1], let value = values[frame], let after = values[frame + 1] else { continue }
            result[frame] = medianOfThree(before, value, after)
        }
        return result
    }

    /// How far either side of a moment its value is read, at most.
    static let momentWindowMs = 100

    /// The value at a moment, robust to noise: the median of the values within
    /// `window` ms of `frame` (`momentWindowMs` unless narrower), so that one noisy frame neither makes nor hides a
    /// fault; nil when fewer than three frames there have a value. At the rep's own turn (`extremeFalls` set: whether the rep signal
    /// falls to its turn), only the more extreme half counts, so that the turn's
    /// extreme is not averaged away.
    static func value(
        _ values: [Double?], at frame: Int, within frames: ClosedRange<Int>, times: [Int], extremeFalls: Bool? = nil,
        window: Int = momentWindowMs
    ) -> Double? {
        var nearby: [Double] = []
        nearby.reserveCapacity(16)
        var index = frame
        while index >= frames.lowerBound, times[frame] - times[index] <= window {
            if let value = values[index] { nearby.append(value) }
            index -= 1
        }
        index = frame + 1
        while index <= frames.upperBound, times[index] - times[frame] <= window {
            if let value = values[index] { nearby.append(value) }
            index += 1
        }
        // Too little seen around the moment (the person lost in a gap) to judge it.
        guard nearby.count >= 3 else { return nil }
        guard let falls = extremeFalls else { return median(nearby) }
        return median(Array(nearby.sorted { falls ? $0 < $1 : $0 > $1 }.prefix((nearby.count + 1) / 2)))
    }
}
