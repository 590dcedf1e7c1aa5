import Foundation

/// Judges a rule's faults on the signals of a session.
struct FaultJudge {
    let series: [String: SignalSeries]
    let times: [Int]
    let phases: (Phase, Phase)
    /// The rep signal and whether it falls to its turn (nil in a hold).
    var repSignal: String? = nil
    var repFalls: Bool? = nil

    /// The share of a rep's (or span's) duration that a value at a moment is
    /// read within, either side: the median within 100 ms of a quick jumping
    /// jack's top (0.5 s a rep) took in its way up and down and read the arms
    /// short of the top they reached.
    static let momentShare = 0.1

    /// A signal's value at a moment of `frames`: the median within 100 ms of
    /// it, or within `momentShare` of the span's duration where that is less
    /// (but at least to the next frames either side); within 100 ms where
    /// too little is seen there.
    func value(_ values: [Double?], at frame: Int, within frames: ClosedRange<Int>) -> Double? {
        let share = Int(Self.momentShare * Double(times[frames.upperBound] - times[frames.lowerBound]))
        let neighbours = max(
            frame > frames.lowerBound ? times[frame] - times[frame - 1] : 0,
            frame < frames.upperBound ? times[frame + 1] - times[frame] : 0)
        let window = min(Reduction.momentWindowMs, max(share, neighbours))
        return Reduction.value(values, at: frame, within: frames, times: times, window: window)
            ?? Reduction.value(values, at: frame, within: frames, times: times)
    }

    /// Whether the fault's signals were measured where it is judged: at the turn,
    /// or in at least half of the rep's (phase's, hold's) frames. A fault that could
    /// not be measured is reported as not judged, never as clean.
    func measurable(_ fault: FaultDefinition, rep: RepSpan?, held: ClosedRange<Int>?) -> Bool {
        guard let values = series[fault.signal]?.values else { return false }
        let frames = rep.map { $0.start...$0.end } ?? held!
        func mostlySeen(_ values: [Double?], _ frames: ClosedRange<Int>) -> Bool {
            frames.filter { values[$0] != nil }.count * 2 >= frames.count
        }
        switch fault.moment {
        case .bottom:
            // A turn at the edge of a gap (the person lost just after or before it): the
            // bottom itself was not seen, and the frames on one side would stand for it.
            guard let rep, value(values, at: rep.turn, within: frames) != nil else { return false }
            return seen(values, from: rep.turn, by: -Self.turnSidesMs, within: frames)
                && seen(values, from: rep.turn, by: Self.turnSidesMs, within: frames)
        case .rep, .hold:
            return mostlySeen(values, frames)
        case .phase(let phase):
            guard let rep else { return false }
            return mostlySeen(values, phaseFrames(phase, in: rep))
        case .event(let trigger, _, let phase):
            guard let rep, let triggerValues = series[trigger.signal]?.values else { return false }
            let window = phaseFrames(phase, in: rep)
            guard mostlySeen(values, window) && mostlySeen(triggerValues, window) else { return false }
            // An event found whose signal cannot be read from its moment on was not judged.
            return eventReading(fault, rep: rep).map { $0.value != nil } ?? true
        }
    }

    /// The faults `fault` finds in one rep (at most one), or in one held span (any number).
    func judge(_ fault: FaultDefinition, rep: RepSpan?, index: Int?, held: ClosedRange<Int>?) -> [SessionReport.Fault] {
        guard let values = series[fault.signal]?.values else { return [] }
        let frames = rep.map { $0.start...$0.end } ?? held!
        switch fault.moment {
        case .bottom:
            guard let rep, let (moment, value) = atTurn(fault.signal, rep, within: frames, readsPause: fault.readsPause),
                  fault.bound.isMet(by: value, margin: fault.margin), confirmed(fault, rep, within: frames) else {
                return []
            }
            return [report(fault, value: value, span: run(around: moment, fault.bound, values, frames), rep: index)]
        case .rep:
            return sustained(fault, values, frames, rep: index, every: false)
        case .phase(let phase):
            guard let rep else { return [] }
            return sustained(fault, values, phaseFrames(phase, in: rep), rep: index, every: false)
        case .hold:
            return sustained(fault, values, frames, rep: nil, every: true)
        case .event:
            guard let rep, let reading = eventReading(fault, rep: rep), let value = reading.value,
                  fault.bound.isMet(by: value, margin: fault.margin) else { return [] }
            let spanned = min(reading.moment, reading.window.lowerBound)...reading.window.upperBound
            return [report(fault, value: value, span: run(around: reading.moment, fault.bound, values, spanned), rep: index)]
        }
    }

    /// An event fault's reading in a rep: the event's moment — the first time the
    /// trigger's condition holds for its time within the rep's phase, not a noisy
    /// crossing — the phase, and the fault's signal there; nil when no event came.
    /// Met already where the phase starts, the event came earlier (knees straightened
    /// before the hips began to rise): where that run began, but not before the rep
    /// left its rest. The value is read around the moment, frames before the phase
    /// included (at 10–15 frames/s the phase's first frames alone are too few); where
    /// the signal is not seen there, at the first moment after it where it is, within
    /// the phase (the signal only moves on toward the turn); nil when never.
    private func eventReading(_ fault: FaultDefinition, rep: RepSpan) -> (moment: Int, window: ClosedRange<Int>, value: Double?)? {
        guard case .event(let trigger, let heldMs, let phase) = fault.moment, let values = series[fault.signal]?.values,
              let triggerValues = series[trigger.signal]?.values else { return nil }
        let window = phaseFrames(phase, in: rep)
        let held = Runs.meeting(trigger.bound, values: triggerValues, in: window)
            .first { times[$0.upperBound] - times[$0.lowerBound] >= heldMs || $0.upperBound == window.upperBound }
        guard var moment = held?.lowerBound else { return nil }
        let start = restExtreme(before: window.lowerBound)
        if moment == window.lowerBound {
            while moment > start, let earlier = triggerValues[moment - 1], trigger.bound.isMet(by: earlier) { moment -= 1 }
        }
        let searched = start...window.upperBound
        for frame in moment...window.upperBound {
            if let value = Reduction.value(values, at: frame, within: searched, times: times) { return (frame, window, value) }
        }
        return (moment, window, nil)
    }

    /// A rep's frames in `phase` (before or after its turn), or all of them for none.
    private func phaseFrames(_ phase: Phase?, in rep: RepSpan) -> ClosedRange<Int> {
        guard let phase else { return rep.start...rep.end }
        return phase == phases.0 ? rep.start...rep.turn : rep.turn...rep.end
    }

    /// How far on each side of a rep's turn a fault judged there must be measured.
    static let turnSidesMs = 150

    /// Whether `values` has a value after `frame` (`by` > 0) or before it, within |`by`| ms.
    private func seen(_ values: [Double?], from frame: Int, by ms: Int, within frames: ClosedRange<Int>) -> Bool {
        var index = frame + (ms > 0 ? 1 : -1)
        while frames.contains(index), abs(times[index] - times[frame]) <= abs(ms) {
            if values[index] != nil { return true }
            index += ms > 0 ? 1 : -1
        }
        return false
    }

    /// How far before its window an event that is already under way there may have begun.
    static let eventLookBackMs = 1_000

    /// Where, within `eventLookBackMs` before `frame`, the rep signal was furthest
    /// on its rest side (the rep's true start); `frame` without a rep signal.
    private func restExtreme(before frame: Int) -> Int {
        guard let repSignal, let falls = repFalls, let values = series[repSignal]?.values else { return frame }
        var best = frame, earlier = frame
        while earlier > 0, times[frame] - times[earlier - 1] <= Self.eventLookBackMs {
            earlier -= 1
            guard let value = values[earlier] else { continue }
            // At rest a falling signal (a squat's knee) is highest; a rising one (a deadlift's hip) lowest.
            if let current = values[best], falls ? value < current : value > current { continue }
            best = earlier
        }
        return best
    }

    /// How far the rep signal's turn may be from the turn of the same angle
    /// measured in other coordinates (`space: side` against world).
    static let turnWindowMs = 250

    /// A signal's value at the rep's turn, and the moment: where the signal
    /// measures the rep signal's own angle in other coordinates, at its own turn
    /// within `turnWindowMs` (the extreme in the rep's direction); otherwise at
    /// the rep signal's turn (also for an `ahead` signal, which may read another
    /// limb than the rep signal's). Each value is the median around its moment.
    /// With `readsPause`, a rep that pauses at its turn is read over the whole
    /// pause instead: the median of the signal there, at the rep's turn.
    private func atTurn(_ signal: String, _ rep: RepSpan, within frames: ClosedRange<Int>, readsPause: Bool) -> (Int, Double)? {
        guard let values = series[signal]?.values else { return nil }
        if readsPause, let held = pause(in: rep), let value = median(held.compactMap { values[$0] }) {
            return (rep.turn, value)
        }
        guard let repSignal, let falls = repFalls, series[signal]?.definition.kind == series[repSignal]?.definition.kind,
              series[signal]?.definition.side != .ahead else {
            return value(values, at: rep.turn, within: frames).map { (rep.turn, $0) }
        }
        var best: (frame: Int, value: Double)?
        var frame = rep.turn
        while frame > frames.lowerBound, times[rep.turn] - times[frame - 1] <= Self.turnWindowMs { frame -= 1 }
        while frame <= frames.upperBound, times[frame] - times[rep.turn] <= Self.turnWindowMs {
            if let value = value(values, at: frame, within: frames), best == nil || (falls ? value < best!.value : value > best!.value) {
                best = (frame, value)
            }
            frame += 1
        }
        return best.map { ($0.frame, $0.value) }
    }

    /// A turn held this long, and for this share of the rep, is a pause: the
    /// rep signal, as the median around each frame reads it, within
    /// `pauseBand` of the rep's range from its extreme.
    static let pauseMs = 600
    static let pauseShare = 0.45
    static let pauseBand = 0.25

    /// The frames of a pause at the rep's turn, if it pauses there.
    private func pause(in rep: RepSpan) -> ClosedRange<Int>? {
        guard let repSignal, let falls = repFalls, let key = series[repSignal]?.values,
              times[rep.end] - times[rep.start] >= Self.pauseMs else { return nil }
        let frames = rep.start...rep.end
        let readings = frames.map { value(key, at: $0, within: frames) }
        let seen = readings.compactMap { $0 }
        guard let low = seen.min(), let high = seen.max() else { return nil }
        let (extreme, band) = (falls ? low : high, Self.pauseBand * (high - low))
        let near = { (frame: Int) in readings[frame - rep.start].map { abs($0 - extreme) <= band } ?? false }
        guard near(rep.turn) else { return nil }
        var (first, last) = (rep.turn, rep.turn)
        while first > rep.start, near(first - 1) { first -= 1 }
        while last < rep.end, near(last + 1) { last += 1 }
        let held = times[last] - times[first]
        guard held >= Self.pauseMs, Double(held) >= Self.pauseShare * Double(times[rep.end] - times[rep.start]) else { return nil }
        return first...last
    }

    /// Whether the fault's `confirm` signal, read at the rep's turn like the
    /// fault's own (at its most extreme moment even where the fault reads a
    /// pause whole: wide push-ups' flared elbows held at the bottom read
    /// straighter over the hold in the world too), is past the limit too (the
    /// margin is the fault's own signal's); true without one, or where it cannot be read.
    private func confirmed(_ fault: FaultDefinition, _ rep: RepSpan, within frames: ClosedRange<Int>) -> Bool {
        guard let name = fault.confirm, let (_, value) = atTurn(name, rep, within: frames, readsPause: false) else { return true }
        return fault.bound.isMet(by: value)
    }

    /// Faults where the bound is broken: for `for_ms`, in runs at least that long
    /// whose worst value is past the limit by more than the margin (every such
    /// run, or the longest); otherwise when the reduced value is.
    private func sustained(
        _ fault: FaultDefinition, _ values: [Double?], _ frames: ClosedRange<Int>, rep: Int?, every: Bool
    ) -> [SessionReport.Fault] {
        let runs = Runs.meeting(fault.bound, values: values, in: frames)
        if let forMs = fault.forMs {
            let long = runs.compactMap { run -> (run: ClosedRange<Int>, worst: Double)? in
                guard times[run.upperBound] - times[run.lowerBound] >= forMs,
                      let worst = Runs.worst(fault.bound, values: values, in: run),
                      fault.bound.isMet(by: worst, margin: fault.margin) else { return nil }
                return (run, worst)
            }
            let chosen = every ? long : long.max { duration($0.run) < duration($1.run) }.map { [$0] } ?? []
            return chosen.map { report(fault, value: $0.worst, span: $0.run, rep: rep) }
        }
        let reduction = fault.reduce ?? { if case .above = fault.bound { return .max } else { return .min } }()
        guard let value = reduction.apply(to: values, in: frames, turn: frames.lowerBound, times: times),
              fault.bound.isMet(by: value, margin: fault.margin) else {
            return []
        }
        // Mark the run holding the worst value (runs always hold values).
        var worstRun: (run: ClosedRange<Int>, value: Double)?
        for run in runs {
            guard let runWorst = Runs.worst(fault.bound, values: values, in: run) else { continue }
            if worstRun == nil || fault.bound.worse(worstRun!.value, runWorst) != worstRun!.value {
                worstRun = (run, runWorst)
            }
        }
        return [report(fault, value: value, span: worstRun?.run ?? frames, rep: rep)]
    }

    private func duration(_ run: ClosedRange<Int>) -> Int { times[run.upperBound] - times[run.lowerBound] }

    /// The run of frames breaking the bound that contains `frame`, within `frames`.
    private func run(around frame: Int, _ bound: Bound, _ values: [Double?], _ frames: ClosedRange<Int>) -> ClosedRange<Int> {
        Runs.meeting(bound, values: values, in: frames).first { $0.contains(frame) } ?? frame...frame
    }

    private func report(_ fault: FaultDefinition, value: Double, span: ClosedRange<Int>, rep: Int?) -> SessionReport.Fault {
        let isAngle = series[fault.signal]?.definition.isAngle ?? false
        let limit = fault.bound.limit
        let message = Self.filled(fault.message) { placeholder in
            switch placeholder {
            case "value": Self.format(value, angle: isAngle)
            case "limit": Self.format(limit, angle: isAngle)
            case "|value|": Self.format(abs(value), angle: isAngle)
            case "|limit|": Self.format(abs(limit), angle: isAngle)
            default: nil
            }
        }
        return SessionReport.Fault(
            code: fault.code, rep: rep, startMilliseconds: times[span.lowerBound], endMilliseconds: times[span.upperBound],
            severity: fault.severity.rawValue, message: message, value: Self.round(value, angle: isAngle),
            limit: fault.bound.limit)
    }

    /// A message with each `{name}` that `value` knows replaced, in one pass
    /// (Foundation's replacing, four times over, cost more than judging the rep).
    static func filled(_ template: String, _ value: (Substring) -> String?) -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let name = rest[rest.index(after: open)...]
            if let close = name.firstIndex(of: "}"), let filled = value(name[..<close]) {
                result += filled
                rest = name[name.index(after: close)...]
            } else {
                result += "{"
                rest = name
            }
        }
        return result + rest
    }

    /// Angles as whole degrees, other values with two decimals.
    static func format(_ value: Double, angle: Bool) -> String {
        angle ? String(Int(value.rounded())) : String(format: "%.2f", value)
    }

    /// Angles to 0.1°, other values to 0.001.
    static func round(_ value: Double, angle: Bool) -> Double {
        let factor = angle ? 10.0 : 1000.0
        return (value * factor).rounded() / factor
    }
}
