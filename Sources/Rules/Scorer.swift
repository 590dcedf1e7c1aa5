import LandmarkTracks

/// What scoring a session gives: the report, and the key signal over time for plots.
public struct Analysis: Sendable {
    public var report: SessionReport
    public var keySignal: KeySignal
    /// For holds: the spans held, in milliseconds.
    public var heldSpans: [ClosedRange<Int>]
    /// The metrics measured in degrees (the reps' `metrics` keys whose signal
    /// is an angle, their asymmetries, and `range_of_motion` on an angle);
    /// `_ms` metrics are milliseconds, the others in the rule's body scale.
    public var angleMetrics: Set<String> = []
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
        if rule.feetPlanted { landmarks.formUnion([PoseLandmark.leftAnkle, PoseLandmark.rightAnkle]) }
        if rule.usesHands { landmarks.formUnion([PoseLandmark.leftElbow, PoseLandmark.rightElbow, PoseLandmark.leftWrist, PoseLandmark.rightWrist]) }
        let imageSpace = rule.signals.contains { $0.space != .world }
        let prepared = PreparedTrack(
            track: track, landmarks: landmarks, smoothing: rule.smoothing, imageSpace: imageSpace, matchHands: rule.usesHands)
        let times = prepared.times
        let views = CameraViews.perFrame(prepared)
        var context = SignalContext(track: prepared, threshold: rule.visibilityThreshold, imageSpace: imageSpace)
        if case .reps(let reps) = rule.movement { context.countingVisibility = reps.countingVisibility }
        context.views = CameraViews.steady(views, times: times)
        let series = signalSeries(context)
        let key = series[rule.keySignal]!

        let exclusions = ExclusionFinder(track: prepared, times: times, walkOnly: rule.isHold)
            .find(position: rule.position, series: series, travelAllowed: rule.travelAllowed, feetPlanted: rule.feetPlanted)
        var scored = [Bool](repeating: true, count: times.count)
        for exclusion in exclusions { for frame in exclusion.frames { scored[frame] = false } }
        let view = CameraViews.dominant(views, in: times.indices.filter { scored[$0] })
            ?? CameraViews.dominant(views, in: times.indices)
        var session = SessionFindings(rule: rule, times: times, scored: scored, views: views)

        let framesWithPose = prepared.hasPose.filter { $0 }.count
        if framesWithPose == 0 && !times.isEmpty { session.warnings.append("no_person: nobody was found in \(times.count) frame(s)") }
        let viewsSeen = session.viewsSeen
        let judgedSomewhere = rule.faults.filter { fault in fault.views.map { views in viewsSeen.contains { views.contains($0) } } ?? true }
        // Only what this session is judged on: a front-view fault's landmarks do not matter from the side.
        let judged = rule.signalsJudged(by: judgedSomewhere)
        session.warnings += SessionChecks.visibilityWarnings(
            rule.signals.filter { judged.contains($0.name) }.compactMap { series[$0.name] }, repSignal: rule.keySignal, context)
        let handless = handWarnings(judgedSomewhere, prepared)
        session.warnings += handless
        session.warnings += SessionChecks.crowdWarnings(prepared.crowd)

        let keyValues = session.scoredOnly(key.values)
        var thresholds: [Double] = []
        switch rule.movement {
        case .reps(let repRule):
            thresholds = [repRule.rest, repRule.active]
            var breaks = [Bool](repeating: false, count: times.count)
            for exclusion in exclusions where exclusion.breaksReps(maxGapMs: repRule.maxGapMs, times: times) {
                for frame in exclusion.frames { breaks[frame] = true }
            }
            // Unseen where the person was lost, not where a span was left out for what they did.
            var unseen = keyValues.map { $0 == nil }
            for exclusion in exclusions where !exclusion.isLoss {
                for frame in exclusion.frames { unseen[frame] = false }
            }
            session.scoreReps(repRule, keyValues: keyValues, series: series, breaks: breaks, unseen: unseen)
            if session.reps.isEmpty {
                session.warnings += SessionChecks.outOfPositionWarnings(
                    exclusions, position: rule.position, series: series, hasPose: prepared.hasPose, title: rule.title)
            }

        case .hold(let holdRule):
            thresholds = holdRule.conditions.flatMap(\.alternatives).filter { $0.signal == key.definition.name }.map(\.bound.limit)
            let path = BodyMotion.TrunkPath(prepared)
            session.scoreHold(
                holdRule, series: series, speeds: holdRule.stillBelow == nil ? [] : BodyMotion.speeds(prepared, path),
                settling: holdRule.settledBelow == nil ? nil : BodyMotion.settling(prepared, visibility: rule.visibilityThreshold, path))
            if session.heldSpans.isEmpty {
                session.warnings += SessionChecks.neverHeldWarnings(holdRule, series: series, scored: scored, hasPose: prepared.hasPose, title: rule.title)
            }

        }
        session.warnings += SessionChecks.gapWarnings(
            SessionChecks.gaps(in: keyValues, times: times, atLeast: SessionChecks.unscorableGapMs, scored: scored), signal: key, times: times)
        // A hand fault without any hand is said once, by the hand warning.
        let handlessCodes = handless.isEmpty ? [] : rule.faults.filter { fault in handless.contains { $0.hasPrefix("unscorable: \(fault.code)") } }.map(\.code)
        session.warnings += session.notJudgedWarnings() + session.unmeasuredWarnings().filter { warning in
            !handlessCodes.contains { warning.hasPrefix("unscorable: \($0) not judged") }
        }
        var (confidence, reasons) = CountConfidenceCheck(times: times, hasPose: prepared.hasPose, scored: scored)
            .assess(key: keyValues, keyName: key.definition.name)
        session.warnings += reasons
        // Movements that looked like reps and were not counted: the `uncounted:` or `no_reps:` warning says what.
        if session.warnings.contains(where: { $0.hasPrefix("no_reps:") || $0.hasPrefix("no_hold:") }) { confidence = .low }
        if session.uncountedCount > 0 || !session.unseenReps.isEmpty { confidence = min(confidence, .medium) }

        let report = SessionReport(
            exercise: rule.exercise, rulesVersion: rule.rulesVersion,
            source: SessionReport.Source(
                path: track.header.source, fps: track.header.fps, width: track.header.width, height: track.header.height,
                durationMilliseconds: (times.last ?? 0) - (times.first ?? 0), frames: times.count, framesWithPose: framesWithPose),
            repCount: session.reps.count, reps: session.reps,
            faults: session.faults.sorted { $0.startMilliseconds < $1.startMilliseconds },
            holdMilliseconds: session.holdMilliseconds, warnings: session.warnings, view: view, countConfidence: confidence,
            excluded: exclusions.map {
                SessionReport.ExcludedSpan(
                    startMilliseconds: times[$0.frames.lowerBound], endMilliseconds: times[$0.frames.upperBound], reason: $0.reason.rawValue)
            },
            notJudged: session.notJudgedFaults)
        return Analysis(
            report: report,
            keySignal: KeySignal(
                name: key.definition.name, isAngle: key.definition.isAngle, times: times, values: key.values,
                thresholds: thresholds),
            heldSpans: session.heldSpans,
            angleMetrics: angleMetrics(keyIsAngle: key.definition.isAngle))
    }

    /// The metric names whose values are degrees.
    private func angleMetrics(keyIsAngle: Bool) -> Set<String> {
        var names: Set<String> = keyIsAngle ? ["range_of_motion"] : []
        for metric in rule.metrics where rule.signals.first(where: { $0.name == metric.signal })?.isAngle == true {
            names.formUnion(["", "_asymmetry", "_left", "_right"].map { metric.name + $0 })
        }
        return names
    }

    /// Every signal's series; `working` signals read the side the rep signal works on.
    private func signalSeries(_ context: SignalContext) -> [String: SignalSeries] {
        let keyDefinition = rule.signals.first { $0.name == rule.keySignal }!
        var reps: RepRule?
        if case .reps(let rule) = rule.movement { reps = rule }
        let key = context.repSeries(keyDefinition, reps: reps)
        var series = [rule.keySignal: key]
        for definition in rule.signals where definition.name != rule.keySignal {
            series[definition.name] = context.trusting(definition.visibility)
                .series(definition, workingSide: key.chosenSide, workingSides: key.workingSides)
        }
        return series
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
