import LandmarkTracks

/// What scoring a session gives: the report, and the key signal over time for plots.
public struct Analysis: Sendable {
    public var report: SessionReport
    public var keySignal: KeySignal
    /// For holds: the spans held, in milliseconds.
    public var heldSpans: [ClosedRange<Int>]
}

/// The signal reps are counted on (or the hold judged by), frame by frame.
public struct KeySignal: Sendable {
    public var name: String
    /// Whether values are degrees.
    public var isAngle: Bool
    public var times: [Int]
    public var values: [Double?]
    /// The thresholds that matter for it: rest and active for reps, the hold's limits.
    public var thresholds: [Double]
}

/// Scores landmark tracks with one exercise's rules. The engine knows no
/// exercise: everything specific comes from the rule.
public struct Scorer: Sendable {
    public let rule: ExerciseRule

    public init(rule: ExerciseRule) {
        self.rule = rule
    }

    public func score(_ track: LandmarkTrack) -> Analysis {
        var landmarks = Set(rule.signals.flatMap { $0.references.flatMap { $0.indices(on: .left) + $0.indices(on: .right) } })
        if rule.usesHands { landmarks.formUnion([13, 14, 15, 16]) }
        let imageSpace = rule.signals.contains { $0.space == .image }
        let prepared = PreparedTrack(
            track: track, landmarks: landmarks, smoothing: rule.smoothing, imageSpace: imageSpace, matchHands: rule.usesHands)
        let context = SignalContext(track: prepared, threshold: rule.visibilityThreshold, imageSpace: imageSpace)
        let series = Dictionary(uniqueKeysWithValues: rule.signals.map { ($0.name, context.series($0)) })
        let view = SessionChecks.view(context)
        let times = prepared.times
        let key = series[rule.keySignal]!

        var warnings: [String] = []
        let framesWithPose = prepared.hasPose.filter { $0 }.count
        if framesWithPose == 0 && !times.isEmpty { warnings.append("no_person: nobody was found in \(times.count) frame(s)") }
        if rule.view != .any, view != .any, view != rule.view {
            warnings.append("camera_view: filmed from the \(view.rawValue); the \(rule.exercise) rules are written for a \(rule.view.rawValue) view")
        }
        let applicable = rule.faults.filter { $0.view == nil || $0.view == view }
        // Only what this session is judged on: a front-view fault's landmarks do not matter from the side.
        let judged = rule.signalsJudged(by: applicable)
        warnings += SessionChecks.visibilityWarnings(rule.signals.filter { judged.contains($0.name) }.compactMap { series[$0.name] }, context)
        warnings += handWarnings(applicable, prepared)

        var reps: [SessionReport.Rep] = []
        var faults: [SessionReport.Fault] = []
        var holdMilliseconds: Int?
        var heldSpans: [ClosedRange<Int>] = []
        var thresholds: [Double] = []
        switch rule.movement {
        case .reps(let repRule):
            thresholds = [repRule.rest, repRule.active]
            let (spans, _) = RepDetector(rule: repRule).detect(times: times, values: key.values)
            let judge = FaultJudge(
                series: series, times: times, phases: repRule.phases, keySignal: repRule.signal, keyFalls: repRule.falls)
            for span in spans where meetsRequirements(span, repRule, series, times) {
                let index = reps.count + 1
                let found = applicable.flatMap { judge.judge($0, rep: span, index: index, held: nil) }
                reps.append(SessionReport.Rep(
                    index: index, startMilliseconds: times[span.start], bottomMilliseconds: times[span.turn],
                    endMilliseconds: times[span.end], metrics: metrics(span, repRule, series, times),
                    faults: found.map(\.code).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }))
                faults += found
            }
            let gaps = SessionChecks.gaps(in: key.values, times: times, longerThan: repRule.maxGapMs)
            warnings += SessionChecks.gapWarnings(gaps, signal: key, times: times)
        case .hold(let holdRule):
            thresholds = holdRule.conditions.filter { $0.signal == key.definition.name }.map(\.bound.limit)
            let met: [Bool?] = times.indices.map { frame in
                var all = true
                for condition in holdRule.conditions {
                    guard let value = series[condition.signal]?.values[frame] else { return nil }
                    all = all && condition.bound.isMet(by: value)
                }
                return all
            }
            let spans = HoldDetector(rule: holdRule).detect(times: times, met: met)
            heldSpans = spans.map { times[$0.lowerBound]...times[$0.upperBound] }
            holdMilliseconds = heldSpans.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
            let judge = FaultJudge(series: series, times: times, phases: (.eccentric, .concentric), keySignal: nil, keyFalls: nil)
            for span in spans {
                faults += applicable.flatMap { judge.judge($0, rep: nil, index: nil, held: span) }
            }
            let gaps = SessionChecks.gaps(in: key.values, times: times, longerThan: holdRule.maxGapMs)
            warnings += SessionChecks.gapWarnings(gaps, signal: key, times: times)
        }

        let report = SessionReport(
            exercise: rule.exercise, rulesVersion: rule.rulesVersion,
            source: SessionReport.Source(
                path: track.header.source, fps: track.header.fps, width: track.header.width, height: track.header.height,
                durationMilliseconds: (times.last ?? 0) - (times.first ?? 0), frames: times.count, framesWithPose: framesWithPose),
            repCount: reps.count, reps: reps, faults: faults.sorted { $0.startMilliseconds < $1.startMilliseconds },
            holdMilliseconds: holdMilliseconds, warnings: warnings, view: view)
        return Analysis(
            report: report,
            keySignal: KeySignal(
                name: key.definition.name, isAngle: key.definition.isAngle, times: times, values: key.values,
                thresholds: thresholds),
            heldSpans: heldSpans)
    }

    // MARK: - Reps

    private func meetsRequirements(_ span: RepSpan, _ rule: RepRule, _ series: [String: SignalSeries], _ times: [Int]) -> Bool {
        rule.require.allSatisfy { condition in
            guard let values = series[condition.signal]?.values,
                  let value = Reduction.value(values, at: span.turn, within: span.start...span.end, times: times) else { return false }
            return condition.bound.isMet(by: value)
        }
    }

    private func metrics(_ span: RepSpan, _ rule: RepRule, _ series: [String: SignalSeries], _ times: [Int]) -> [String: Double] {
        let frames = span.start...span.end
        var metrics: [String: Double] = [
            "duration_ms": Double(times[span.end] - times[span.start]),
            "\(rule.phases.0.rawValue)_ms": Double(times[span.turn] - times[span.start]),
            "\(rule.phases.1.rawValue)_ms": Double(times[span.end] - times[span.turn]),
        ]
        if let key = series[rule.signal], let turn = key.values[span.turn] {
            let ends = [key.values[span.start], key.values[span.end]].compactMap { $0 }.map { abs($0 - turn) }
            if let range = ends.max() { metrics["range_of_motion"] = FaultJudge.round(range, angle: key.definition.isAngle) }
        }
        for metric in self.rule.metrics {
            guard let signal = series[metric.signal] else { continue }
            let isAngle = signal.definition.isAngle
            let falls = metric.signal == rule.signal ? rule.falls : nil
            if let value = metric.reduce.apply(to: signal.values, in: frames, turn: span.turn, times: times, extremeFalls: falls) {
                metrics[metric.name] = FaultJudge.round(value, angle: isAngle)
            }
            // Both sides, where both are seen through most of the rep.
            guard metric.asymmetry, let left = signal.left, let right = signal.right,
                  Self.seenThroughout(left, frames), Self.seenThroughout(right, frames),
                  let l = metric.reduce.apply(to: left, in: frames, turn: span.turn, times: times, extremeFalls: falls),
                  let r = metric.reduce.apply(to: right, in: frames, turn: span.turn, times: times, extremeFalls: falls) else { continue }
            metrics[metric.name + "_left"] = FaultJudge.round(l, angle: isAngle)
            metrics[metric.name + "_right"] = FaultJudge.round(r, angle: isAngle)
            metrics[metric.name + "_asymmetry"] = FaultJudge.round(abs(l - r), angle: isAngle)
        }
        return metrics
    }

    private static func seenThroughout(_ values: [Double?], _ frames: ClosedRange<Int>) -> Bool {
        Double(frames.filter { values[$0] != nil }.count) >= 0.8 * Double(frames.count)
    }

    /// Faults on hand signals cannot be judged without hand landmarks.
    private func handWarnings(_ faults: [FaultDefinition], _ track: PreparedTrack) -> [String] {
        let handSignals = Set(rule.signals.filter { $0.kind == .wristFlexion }.map(\.name))
        let codes = faults.filter { handSignals.contains($0.signal) }.map(\.code)
        guard !codes.isEmpty else { return [] }
        if !track.hasHandData {
            return codes.map { "unscorable: \($0) needs hand landmarks; the track has none (analyse with --hands)" }
        }
        return track.hasMatchedHands ? [] : codes.map { "unscorable: \($0): no hand was found at the wrists" }
    }
}
