/// Finds the spans a position is held in: every condition met, with breaks of
/// up to `maxGapMs` bridged, each span's ends trimmed to where its steady
/// signals have settled, and spans shorter than `minMs` ignored. Pure.
struct HoldDetector {
    let rule: HoldRule

    /// Held spans, as frame ranges. `steady` holds each steady signal's values
    /// (empty when it is not measured) and its tolerance.
    func detect(times: [Int], met: [Bool?], steady: [(values: [Double?], tolerance: Double)] = []) -> [ClosedRange<Int>] {
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
        return spans.compactMap { settled($0, steady) }.filter { times[$0.upperBound] - times[$0.lowerBound] >= rule.minMs }
    }

    /// `span` without the frames at either end where a steady signal is further
    /// than its tolerance from its median over the span, or none is measured;
    /// nil when nothing settles.
    private func settled(_ span: ClosedRange<Int>, _ steady: [(values: [Double?], tolerance: Double)]) -> ClosedRange<Int>? {
        let checks: [(values: [Double?], median: Double, tolerance: Double)] = steady.compactMap { signal in
            let inSpan = signal.values.isEmpty ? [] : span.compactMap { signal.values[$0] }.sorted()
            return inSpan.isEmpty ? nil : (signal.values, inSpan[inSpan.count / 2], signal.tolerance)
        }
        let isSettled = { (frame: Int) in
            let measured = checks.compactMap { check in check.values[frame].map { abs($0 - check.median) <= check.tolerance } }
            return checks.isEmpty || (!measured.isEmpty && !measured.contains(false))
        }
        guard let first = span.first(where: isSettled), let last = span.last(where: isSettled) else { return nil }
        return first...last
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
