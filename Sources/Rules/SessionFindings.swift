/// What scoring finds in one session, gathered as the reps or holds are judged:
/// reps, faults, holds, and the warnings about what was not counted or not judged.
struct SessionFindings {
    let rule: ExerciseRule
    let times: [Int]
    /// Frames that are scored (not in an excluded span).
    let scored: [Bool]
    /// The camera view in every frame with a pose.
    let views: [CameraView?]

    var reps: [SessionReport.Rep] = []
    var faults: [SessionReport.Fault] = []
    var warnings: [String] = []
    var holdMilliseconds: Int?
    var heldSpans: [ClosedRange<Int>] = []
    /// How many rep-like movements were not counted.
    var uncountedCount = 0
    /// The numbers of the reps counted where the person was lost (`UnseenReps`).
    var unseenReps: [Int] = []
    /// Fault codes not judged for want of a suitable view: the reps (nil in a hold) and the views seen instead.
    private var notJudged: [String: (reps: [Int?], views: Set<CameraView>)] = [:]
    /// Fault codes not judged because their landmarks were hidden: the reps (nil in a hold) and the landmarks.
    private var unmeasured: [String: (reps: [Int?], landmarks: Set<String>)] = [:]
    /// Fault codes not judged on the reps counted where the person was lost (said in the `unseen:` warning).
    private var unjudgedUnseen: [String: [Int]] = [:]

    init(rule: ExerciseRule, times: [Int], scored: [Bool], views: [CameraView?]) {
        self.rule = rule
        self.times = times
        self.scored = scored
        self.views = views
    }

    /// The views of the scored frames.
    var viewsSeen: Set<CameraView> {
        CameraViews.seen(views, in: times.indices.lazy.filter { scored[$0] })
    }

    // MARK: - Reps

    /// Counts reps and judges their faults. `breaks` marks the frames no rep may
    /// span; `unseen` those where the rep signal was lost with the person (reps
    /// hidden there in a steady set are counted: `UnseenReps`; a rest hidden
    /// there splits a movement: `RepDetector.splittingAtHiddenRests`).
    mutating func scoreReps(_ repRule: RepRule, keyValues: [Double?], series: [String: SignalSeries], breaks: [Bool], unseen: [Bool]) {
        let detection = RepDetector(rule: repRule).detect(times: times, values: keyValues, breaks: breaks, unseen: unseen)
        let judge = FaultJudge(series: series, times: times, phases: repRule.phases, repSignal: repRule.signal, repFalls: repRule.falls)
        var uncounted = detection.uncounted
        var counted: [RepSpan] = []
        // Reduced over a rep, a condition's signal is read without its one-frame spikes,
        // so that one glitched landmark neither stops a rep nor lets an idle movement through.
        let despiked = Dictionary(repRule.require.flatMap(\.alternatives).filter { $0.reduce != nil }.compactMap { condition in
            series[condition.condition.signal].map { (condition.condition.signal, Reduction.withoutSpikes($0.values)) }
        }, uniquingKeysWith: { first, _ in first })
        for span in detection.reps {
            if let failed = repRule.require.first(where: { !meets($0, span, series, despiked: despiked) }) {
                uncounted.append(UncountedMovement(
                    start: span.start, turn: span.turn, end: span.end, reason: .requirement(signals: failed.signals)))
            } else {
                counted.append(span)
            }
        }
        // A turn the video ends in, with every condition measured and met: counted after a counted rep, or said uncounted.
        if let held = detection.heldToEnd,
           repRule.require.allSatisfy({ meets($0, held, series, despiked: despiked, unmeasuredPasses: false) }) {
            switch repRule.completeAtTurn {
            case .counted where !counted.isEmpty: counted.append(held)
            case .lone where counted.isEmpty && detection.heldIsLone: counted.append(held)
            case .reported, .lone: uncounted.append(UncountedMovement(start: held.start, turn: held.turn, end: held.end, reason: .heldToEnd))
            case .never, .counted: break
            }
        }
        let hidden = UnseenReps(times: times, unseen: unseen).find(between: counted)
        let spans = counted.map { (span: Self.trimmed($0, clear: hidden), hidden: false) } + hidden.map { (span: $0, hidden: true) }
        for (span, isHidden) in spans.sorted(by: { $0.span.turn < $1.span.turn }) {
            let index = reps.count + 1
            let found: [SessionReport.Fault] = isHidden ? [] : judgeable(in: span.start...span.end, rep: index).flatMap { fault in
                guard judge.measurable(fault, rep: span, held: nil) else {
                    unmeasured(fault, rep: index, at: span.turn, series)
                    return [SessionReport.Fault]()
                }
                return judge.judge(fault, rep: span, index: index, held: nil)
            }
            let duration = Double(times[span.end] - times[span.start])
            reps.append(SessionReport.Rep(
                index: index, startMilliseconds: times[span.start], bottomMilliseconds: times[span.turn],
                endMilliseconds: times[span.end],
                metrics: isHidden ? ["duration_ms": duration, "unseen_ms": duration] : RepMetrics(rule: rule, times: times).metrics(span, repRule, series),
                faults: found.map(\.code).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }))
            if isHidden {
                unseenReps.append(index)
                for code in Set(rule.faults.map(\.code)) { unjudgedUnseen[code, default: []].append(index) }
            }
            faults += found
        }
        if !hidden.isEmpty { warnings.append(unseenWarning(hidden)) }
        uncountedCount = uncounted.count
        let key = series[repRule.signal]!
        warnings += UncountedWarnings(rule: repRule, signal: key.definition, times: times)
            .warnings(uncounted.sorted { $0.turn < $1.turn }, counted: reps.count, levels: detection.levels, values: keyValues,
                      sides: reps.isEmpty ? key.left.flatMap { left in key.right.map { (scoredOnly(left), scoredOnly($0)) } } : nil)
    }

    /// `values` where the frame is scored, nil where it was left out.
    func scoredOnly(_ values: [Double?]) -> [Double?] {
        zip(values, scored).map { $1 ? $0 : nil }
    }

    /// A counted rep kept clear of the losses where hidden reps were counted.
    private static func trimmed(_ span: RepSpan, clear hidden: [RepSpan]) -> RepSpan {
        var span = span
        for loss in hidden {
            if span.turn <= loss.start && span.end > loss.start { span.end = loss.start }
            if span.turn >= loss.end && span.start < loss.end { span.start = loss.end }
        }
        return span
    }

    /// "unseen: rep 7 counted where the person was lost (6.6–7.4 s), in a steady set".
    private func unseenWarning(_ hidden: [RepSpan]) -> String {
        let numbers = Self.ranges(unseenReps)
        let spans = hidden.map { String(format: "%.1f–%.1f s", Double(times[$0.start]) / 1000, Double(times[$0.end]) / 1000) }
        let reps = unseenReps.count == 1 ? "rep \(numbers)" : "reps \(numbers)"
        return "unseen: \(reps) counted where the person was lost (\(Self.list(spans))): the set's steady rhythm puts a rep there; its faults are not judged"
    }

    /// Whether a rep meets a `require` entry: one of its conditions measured
    /// and met, at the rep's turn or reduced over the rep (the `despiked`
    /// values). One whose conditions cannot be measured at all (their landmarks
    /// hidden) does not stop the rep, unless `unmeasuredPasses` is false.
    private func meets(
        _ requirement: RepRequirement, _ span: RepSpan, _ series: [String: SignalSeries], despiked: [String: [Double?]],
        unmeasuredPasses: Bool = true
    ) -> Bool {
        let results = requirement.alternatives.map { isMet($0, span, series, despiked: despiked) }
        if results.contains(true) { return true }
        return results.allSatisfy { $0 == nil } && unmeasuredPasses
    }

    /// Whether a rep meets one condition; nil where it cannot be measured.
    private func isMet(_ requirement: RepCondition, _ span: RepSpan, _ series: [String: SignalSeries], despiked: [String: [Double?]]) -> Bool? {
        guard let values = series[requirement.condition.signal]?.values else { return nil }
        let frames = span.start...span.end
        let value = requirement.reduce.map { $0.apply(to: despiked[requirement.condition.signal] ?? values, in: frames, turn: span.turn, times: times) }
            ?? Reduction.value(values, at: span.turn, within: frames, times: times)
        return value.map { requirement.condition.bound.isMet(by: $0) }
    }

    // MARK: - Holds

    mutating func scoreHold(_ holdRule: HoldRule, series: [String: SignalSeries], speeds: [Double?], settling: HoldDetector.Settling?) {
        let met: [Bool?] = times.indices.map { frame in
            guard scored[frame] else { return nil }
            // The first condition (the hold's key signal) must be measured; others that
            // cannot be (their landmarks hidden) do not break the hold.
            guard var all = holdRule.conditions.first?.isMet(at: frame, in: series) else { return nil }
            if let limit = holdRule.stillBelow {
                guard let speed = speeds[frame] else { return nil }
                all = all && speed < limit
            }
            for condition in holdRule.conditions.dropFirst() {
                if let met = condition.isMet(at: frame, in: series) { all = all && met }
            }
            return all
        }
        let steady = holdRule.steady.map { signal in
            let values = series[signal.signal]?.values ?? []
            return (values: signal.views.map { only in values.indices.map { views[$0].map(only.contains) == true ? values[$0] : nil } } ?? values,
                    signal: signal)
        }
        let unseenEnds = holdRule.endsUnseen.map { series[$0]?.values ?? [] }
        let spans = HoldDetector(rule: holdRule).detect(times: times, met: met, steady: steady, settling: settling, unseenEnds: unseenEnds)
        heldSpans = spans.map { times[$0.lowerBound]...times[$0.upperBound] }
        holdMilliseconds = heldSpans.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        let judge = FaultJudge(series: series, times: times, phases: (.eccentric, .concentric))
        for span in spans {
            faults += judgeable(in: span, rep: nil).flatMap { fault in
                guard judge.measurable(fault, rep: nil, held: span) else {
                    unmeasured(fault, rep: nil, at: nil, series)
                    return [SessionReport.Fault]()
                }
                return judge.judge(fault, rep: nil, index: nil, held: span)
            }
        }
    }

    // MARK: - Not judged

    /// Remembers a fault whose signal could not be measured on a rep (or a
    /// hold); the landmarks named are the chosen side's, or for a signal that
    /// takes a side per frame, those of the sides unmeasured at `frame`.
    private mutating func unmeasured(_ fault: FaultDefinition, rep: Int?, at frame: Int?, _ series: [String: SignalSeries]) {
        let signal = series[fault.signal]
        var sides = [signal?.chosenSide ?? .left]
        if signal?.chosenSide == nil, let frame, let left = signal?.left, let right = signal?.right {
            let missing = [(BodySide.left, left[frame]), (.right, right[frame])].filter { $0.1 == nil }.map(\.0)
            if !missing.isEmpty { sides = missing }
        }
        let names = signal?.definition.references.flatMap { reference in sides.flatMap { reference.indices(on: $0) } }
            .map(PoseLandmarkName.spoken) ?? []
        var entry = unmeasured[fault.code] ?? ([], [])
        Self.note(rep, in: &entry.reps)
        entry.landmarks.formUnion(names)
        unmeasured[fault.code] = entry
    }

    /// "unscorable: shallow_depth not judged on reps 1, 3–12: elbow_angle not measured (needs left shoulder, … in view)".
    func unmeasuredWarnings() -> [String] {
        unmeasured.keys.sorted().map { code in
            let (reps, landmarks) = unmeasured[code]!
            let numbers = reps.compactMap { $0 }
            let which = numbers.isEmpty ? "in the hold" : numbers.count == 1 ? "on rep \(numbers[0])" : "on reps \(Self.ranges(numbers))"
            let signal = rule.faults.first { $0.code == code }?.signal ?? code
            return "unscorable: \(code) not judged \(which): \(signal) not measured (needs \(Self.list(landmarks.sorted())) in view)"
        }
    }

    // MARK: - Views

    /// The faults that can be judged over `frames` from the camera's view there;
    /// the others are remembered for a `not_judged` warning.
    private mutating func judgeable(in frames: ClosedRange<Int>, rep: Int?) -> [FaultDefinition] {
        let view = CameraViews.dominant(views, in: frames)
        return rule.faults.filter { fault in
            guard let only = fault.views else { return true }
            if let view, only.contains(view) { return true }
            var entry = notJudged[fault.code] ?? ([], [])
            Self.note(rep, in: &entry.reps)
            if let view { entry.views.insert(view) }
            notJudged[fault.code] = entry
            return false
        }
    }

    /// The fault codes not judged, with their reps: for want of a view, or where
    /// their landmarks were hidden (unmeasured, or the whole rep unseen).
    var notJudgedFaults: [SessionReport.NotJudged] {
        let hidden = Set(unmeasured.keys).union(unjudgedUnseen.keys)
        return notJudged.keys.sorted().map { code in
            SessionReport.NotJudged(
                code: code, reps: notJudged[code]!.reps.compactMap { $0 }, reason: .view, needs: rule.faultViews[code] ?? [])
        } + hidden.sorted().map { code in
            let reps = Set((unmeasured[code]?.reps ?? []).compactMap { $0 } + (unjudgedUnseen[code] ?? []))
            return SessionReport.NotJudged(code: code, reps: reps.sorted(), reason: .hidden, needs: [])
        }
    }

    /// "not_judged: knee_valgus needs a front or back view (reps 1–6 filmed from the side)".
    func notJudgedWarnings() -> [String] {
        notJudged.keys.sorted().map { code in
            let (reps, seen) = notJudged[code]!
            let needed = rule.faultViews[code]?.map(\.rawValue) ?? []
            let filmed = CameraView.allCases.filter(seen.contains).map(\.rawValue)
            let numbers = reps.compactMap { $0 }
            let which = numbers.isEmpty ? "" : numbers.count == 1 ? "rep \(numbers[0]) " : "reps \(Self.ranges(numbers)) "
            let from = filmed.isEmpty ? "view unknown" : "filmed from the \(Self.list(filmed))"
            return "not_judged: \(code) needs a \(Self.list(needed, joiner: "or")) view (\(which)\(from))"
        }
    }

    /// Adds a rep to a list once (a code with two definitions is noted once a rep); a hold (nil) every time.
    private static func note(_ rep: Int?, in reps: inout [Int?]) {
        guard let rep, reps.last == .some(rep) else {
            reps.append(rep)
            return
        }
    }

    static func list(_ words: [String], joiner: String = "and") -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " \(joiner) " + words.last!
    }

    /// "1–3, 5".
    static func ranges(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < numbers.count {
            var end = index
            while end + 1 < numbers.count, numbers[end + 1] == numbers[end] + 1 { end += 1 }
            parts.append(end == index ? "\(numbers[index])" : "\(numbers[index])–\(numbers[end])")
            index = end + 1
        }
        return parts.joined(separator: ", ")
    }
}
