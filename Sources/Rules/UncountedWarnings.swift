import Foundation

/// Says what the rep signal did that was not counted, so that a low count is
/// never silent: "no_reps: knee moved between 92° and 141° but never came back
/// to rest (≥ 155°)", or "uncounted: 2 movements of knee were not counted as reps: …".
struct UncountedWarnings {
    let rule: RepRule
    let signal: SignalDefinition
    let times: [Int]

    func warnings(
        _ uncounted: [UncountedMovement], counted: Int, levels: (rest: Double, turn: Double)?, values: [Double?],
        sides: (left: [Double?], right: [Double?])? = nil
    ) -> [String] {
        if counted == 0 {
            guard let (low, high) = Self.extent(values) else { return [] }
            guard high - low >= rule.minRange else { return [oneSideAlone(sides, low: low, high: high) ?? tooLittle(low: low, high: high)] }
            let why = uncounted.first.map { describe($0.reason, levels: levels) } ?? "no movement went from rest to a turn and back"
            return ["no_reps: \(signal.name) moved between \(format(low)) and \(format(high)) but no rep was counted: \(why)"]
        }
        guard !uncounted.isEmpty else { return [] }
        let shown = uncounted.prefix(3).map { "at \(seconds(times[$0.turn])) it \(describe($0.reason, levels: levels))" }
        let more = uncounted.count > 3 ? "; and \(uncounted.count - 3) more" : ""
        let movements = uncounted.count == 1 ? "1 movement" : "\(uncounted.count) movements"
        return ["uncounted: \(movements) of \(signal.name) not counted as reps: \(shown.joined(separator: "; "))\(more)"]
    }

    /// Where a signal reads one value of two sides (`min`, `max`) and stayed
    /// still, the side that alone made a rep's movement: "no_reps: knee moved
    /// between 92° and 171° on the left side alone; …" (a lateral lunge bends one knee).
    private func oneSideAlone(_ sides: (left: [Double?], right: [Double?])?, low: Double, high: Double) -> String? {
        guard let sides, signal.side == .min || signal.side == .max else { return nil }
        let moved: [(name: String, low: Double, high: Double)] = [("left", sides.left), ("right", sides.right)].compactMap { name, values in
            guard let (sideLow, sideHigh) = Self.extent(values), sideHigh - sideLow >= rule.minRange,
                  rule.falls ? sideLow <= rule.active : sideHigh >= rule.active else { return nil }
            return (name, sideLow, sideHigh)
        }
        guard let first = moved.first else { return nil }
        let (from, to) = (moved.map(\.low).min()!, moved.map(\.high).max()!)
        let which = signal.side == .max ? "larger" : "smaller"
        return "no_reps: \(signal.name) moved between \(format(from)) and \(format(to)) "
            + (moved.count == 1 ? "on the \(first.name) side alone" : "on one side at a time")
            + "; a rep moves both sides, and the \(which) of the two "
            + (format(low) == format(high) ? "stayed at \(format(low))" : "moved only between \(format(low)) and \(format(high))")
    }

    /// "no_reps: elbow moved only between 73° and 113°, under the 45° a rep moves":
    /// the signal never moved as far as one rep, which a report with no rep still says.
    private func tooLittle(low: Double, high: Double) -> String {
        let moved = format(low) == format(high) ? "stayed at \(format(low))" : "moved only between \(format(low)) and \(format(high))"
        return "no_reps: \(signal.name) \(moved), under the \(format(rule.minRange)) a rep moves"
    }

    /// The lowest and highest values present; nil with none.
    private static func extent(_ values: [Double?]) -> (low: Double, high: Double)? {
        let present = values.compactMap { $0 }
        guard let low = present.min(), let high = present.max() else { return nil }
        return (low, high)
    }

    private func describe(_ reason: UncountedMovement.Reason, levels: (rest: Double, turn: Double)?) -> String {
        let toward = rule.falls ? "≤" : "≥", back = rule.falls ? "≥" : "≤"
        switch reason {
        case .tooShallow(let reached):
            return "reached only \(format(reached)) (a rep reaches \(toward) \(format(rule.active)))"
        case .tooSmall(let moved, let needed):
            let (shown, least) = apart(moved, needed, format, finer)
            return "moved only \(shown) each way (a rep here moves at least \(least))"
        case .noReturn(let restedAt):
            return "never came back to rest: only to \(format(restedAt)) (rest is \(back) \(format(restLevel(levels))))"
        case .tooQuick(let milliseconds):
            let (lasted, least) = apart(milliseconds, rule.minDurationMs, seconds, finerSeconds)
            return "lasted only \(lasted) (a rep takes at least \(least))"
        case .tooSlow(let milliseconds):
            let (took, most) = apart(milliseconds, rule.maxDurationMs, seconds, finerSeconds)
            return "took \(took) (a rep takes at most \(most))"
        case .brief(let milliseconds, let typical):
            return "lasted only \(seconds(milliseconds)), under \(Int(RepDetector.briefShare * 100)) % of this set's usual \(seconds(typical)): a step or a stumble between reps"
        case .offRhythm(let milliseconds, let typical):
            let share = RepDetector.rhythmShare
            return "lasted \(seconds(milliseconds)) where this set's reps last \(seconds(Int(Double(typical) * share)))–\(seconds(Int(Double(typical) / share))), and moved too little to count on its own on a track that jitters"
        case .requirement(let names) where names.count == 1:
            return "did not meet the rule's condition on \(names[0])"
        case .requirement(let names):
            return "met none of the rule's conditions on \(names.dropLast().joined(separator: ", ")) or \(names[names.count - 1])"
        case .heldToEnd:
            return "reached its turn and held it to the video's end: not counted, as the pose alone does not tell "
                + "a rep finished there (a lift held at lockout) from a rest reached without the weight (standing up after setting the bar down)"
        }
    }

    /// The level a rest must reach: the rule's, or half-way back to the person's own rest when that is stricter.
    private func restLevel(_ levels: (rest: Double, turn: Double)?) -> Double {
        guard let levels else { return rule.rest }
        let personal = levels.turn + rule.returnFraction * (levels.rest - levels.turn)
        return rule.falls ? max(rule.rest, personal) : min(rule.rest, personal)
    }

    private func format(_ value: Double) -> String {
        signal.isAngle ? "\(Int(value.rounded()))°" : String(format: "%.2f", value)
    }

    private func finer(_ value: Double) -> String {
        signal.isAngle ? String(format: "%.1f°", value) : String(format: "%.3f", value)
    }

    /// Two values formatted `coarse`, or `fine` where they would read the same.
    private func apart<Value>(_ a: Value, _ b: Value, _ coarse: (Value) -> String, _ fine: (Value) -> String) -> (String, String) {
        coarse(a) == coarse(b) ? (fine(a), fine(b)) : (coarse(a), coarse(b))
    }

    private func seconds(_ milliseconds: Int) -> String { String(format: "%.1f s", Double(milliseconds) / 1000) }
    private func finerSeconds(_ milliseconds: Int) -> String { String(format: "%.2f s", Double(milliseconds) / 1000) }
}
