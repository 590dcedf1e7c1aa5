import Foundation

/// Judges a rule's faults on the signals of a session.
struct FaultJudge {
    let series: [String: SignalSeries]
    let times: [Int]
    let phases: (Phase, Phase)
    /// The rep signal, and whether it falls to its turn (nil in a hold).
    let keySignal: String?
    let keyFalls: Bool?

    /// A signal's value at the rep's turn (the key signal's own extreme there).
    func value(_ signal: String, _ values: [Double?], at frame: Int, within frames: ClosedRange<Int>) -> Double? {
        Reduction.value(values, at: frame, within: frames, times: times, extremeFalls: nil)
    }

    /// The faults `fault` finds in one rep (at most one), or in one held span (any number).
    func judge(_ fault: FaultDefinition, rep: RepSpan?, index: Int?, held: ClosedRange<Int>?) -> [SessionReport.Fault] {
        guard let values = series[fault.signal]?.values else { return [] }
        let frames = rep.map { $0.start...$0.end } ?? held!
        switch fault.moment {
        case .bottom:
            guard let rep, let value = value(fault.signal, values, at: rep.turn, within: frames), fault.bound.isMet(by: value) else {
                return []
            }
            return [report(fault, value: value, span: run(around: rep.turn, fault.bound, values, frames), rep: index)]
        case .rep:
            return sustained(fault, values, frames, rep: index, every: false)
        case .phase(let phase):
            guard let rep else { return [] }
            return sustained(fault, values, phase == phases.0 ? rep.start...rep.turn : rep.turn...rep.end, rep: index, every: false)
        case .hold:
            return sustained(fault, values, frames, rep: nil, every: true)
        case .event(let trigger, let phase):
            guard let rep, let triggerValues = series[trigger.signal]?.values else { return [] }
            let window = phase.map { $0 == phases.0 ? rep.start...rep.turn : rep.turn...rep.end } ?? frames
            // The event: the first time the trigger's condition holds for 80 ms, not a noisy frame.
            let held = Runs.meeting(trigger.bound, values: triggerValues, in: window)
                .first { times[$0.upperBound] - times[$0.lowerBound] >= 80 || $0.upperBound == window.upperBound }
            guard let moment = held?.lowerBound, let value = Reduction.value(values, at: moment, within: window, times: times),
                  fault.bound.isMet(by: value) else { return [] }
            return [report(fault, value: value, span: run(around: moment, fault.bound, values, window), rep: index)]
        }
    }

    /// Faults where the bound is broken: for `for_ms`, in runs at least that long
    /// (every such run, or the longest); otherwise when the reduced value breaks it.
    private func sustained(
        _ fault: FaultDefinition, _ values: [Double?], _ frames: ClosedRange<Int>, rep: Int?, every: Bool
    ) -> [SessionReport.Fault] {
        let runs = Runs.meeting(fault.bound, values: values, in: frames)
        if let forMs = fault.forMs {
            let long = runs.filter { times[$0.upperBound] - times[$0.lowerBound] >= forMs }
            let chosen = every ? long : long.max { duration($0) < duration($1) }.map { [$0] } ?? []
            return chosen.compactMap { run in
                Runs.worst(fault.bound, values: values, in: run).map { report(fault, value: $0, span: run, rep: rep) }
            }
        }
        let reduction = fault.reduce ?? { if case .above = fault.bound { return .max } else { return .min } }()
        guard let value = reduction.apply(to: values, in: frames, turn: frames.lowerBound, times: times), fault.bound.isMet(by: value) else {
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
        let message = fault.message
            .replacingOccurrences(of: "{value}", with: Self.format(value, angle: isAngle))
            .replacingOccurrences(of: "{limit}", with: Self.format(limit, angle: isAngle))
            .replacingOccurrences(of: "{|value|}", with: Self.format(abs(value), angle: isAngle))
            .replacingOccurrences(of: "{|limit|}", with: Self.format(abs(limit), angle: isAngle))
        return SessionReport.Fault(
            code: fault.code, rep: rep, startMilliseconds: times[span.lowerBound], endMilliseconds: times[span.upperBound],
            severity: fault.severity.rawValue, message: message, value: Self.round(value, angle: isAngle),
            limit: fault.bound.limit)
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
