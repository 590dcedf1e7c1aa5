/// The per-rep numbers of a report: durations, range of motion, and the rule's metrics.
struct RepMetrics {
    let rule: ExerciseRule
    let times: [Int]

    func metrics(_ span: RepSpan, _ repRule: RepRule, _ series: [String: SignalSeries]) -> [String: Double] {
        let frames = span.start...span.end
        var metrics: [String: Double] = [
            "duration_ms": Double(times[span.end] - times[span.start]),
            "\(repRule.phases.0.rawValue)_ms": Double(times[span.turn] - times[span.start]),
            "\(repRule.phases.1.rawValue)_ms": Double(times[span.end] - times[span.turn]),
        ]
        if let key = series[repRule.signal], let turn = key.values[span.turn] {
            let ends = [key.values[span.start], key.values[span.end]].compactMap { $0 }.map { abs($0 - turn) }
            if let range = ends.max() { metrics["range_of_motion"] = FaultJudge.round(range, angle: key.definition.isAngle) }
        }
        for metric in rule.metrics {
            // Measured through less than half the rep (a limb hidden), a metric would
            // describe the frames it was seen in, not the rep: none.
            guard let signal = series[metric.signal], Self.seen(signal.values, frames, share: 0.5) else { continue }
            let isAngle = signal.definition.isAngle
            let falls = metric.signal == repRule.signal ? repRule.falls : nil
            if let value = metric.reduce.apply(to: signal.values, in: frames, turn: span.turn, times: times, extremeFalls: falls) {
                metrics[metric.name] = FaultJudge.round(value, angle: isAngle)
            }
            // Both sides, where both are seen through most of the rep.
            guard metric.asymmetry, let left = signal.left, let right = signal.right,
                  Self.seen(left, frames, share: 0.8), Self.seen(right, frames, share: 0.8),
                  let l = metric.reduce.apply(to: left, in: frames, turn: span.turn, times: times, extremeFalls: falls),
                  let r = metric.reduce.apply(to: right, in: frames, turn: span.turn, times: times, extremeFalls: falls) else { continue }
            metrics[metric.name + "_left"] = FaultJudge.round(l, angle: isAngle)
            metrics[metric.name + "_right"] = FaultJudge.round(r, angle: isAngle)
            metrics[metric.name + "_asymmetry"] = FaultJudge.round(abs(l - r), angle: isAngle)
        }
        return metrics
    }

    /// Whether `values` are measured in at least `share` of `frames`.
    private static func seen(_ values: [Double?], _ frames: ClosedRange<Int>, share: Double) -> Bool {
        Double(frames.filter { values[$0] != nil }.count) >= share * Double(frames.count)
    }
}
