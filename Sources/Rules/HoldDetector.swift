/// Finds the spans a position is held in: every condition met, with breaks of
/// up to `maxGapMs` bridged, and spans shorter than `minMs` ignored. Pure.
struct HoldDetector {
    let rule: HoldRule

    /// Held spans, as frame ranges.
    func detect(times: [Int], met: [Bool?]) -> [ClosedRange<Int>] {
        var spans: [ClosedRange<Int>] = []
        var current: ClosedRange<Int>?
        for frame in times.indices where met[frame] == true {
            if let open = current, times[frame] - times[open.upperBound] <= rule.maxGapMs {
                current = open.lowerBound...frame
            } else {
                if let open = current { spans.append(open) }
                current = frame...frame
            }
        }
        if let open = current { spans.append(open) }
        return spans.filter { times[$0.upperBound] - times[$0.lowerBound] >= rule.minMs }
    }
}

/// Runs of frames meeting a bound: pure helpers shared by faults and holds.
enum Runs {
    /// Maximal runs within `frames` where the value meets `bound`; frames without
    /// a value neither extend nor break a run.
    static func meeting(_ bound: Bound, values: [Double?], in frames: ClosedRange<Int>) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        var current: ClosedRange<Int>?
        for frame in frames {
            guard let value = values[frame] else { continue }
            if bound.isMet(by: value) {
                current = current.map { $0.lowerBound...frame } ?? frame...frame
            } else if let open = current {
                runs.append(open)
                current = nil
            }
        }
        if let open = current { runs.append(open) }
        return runs
    }

    /// The worst value in `frames` with respect to `bound`.
    static func worst(_ bound: Bound, values: [Double?], in frames: ClosedRange<Int>) -> Double? {
        frames.compactMap { values[$0] }.reduce(nil) { partial, value in partial.map { bound.worse($0, value) } ?? value }
    }
}
