import Foundation

/// Checks of a whole session: which landmarks are hard to see, and where the rule could not score.
enum SessionChecks {
    /// "low_visibility: left ankle hidden in 40% of frames", for the landmarks
    /// the signals read that are hidden (under the rule's visibility, or under
    /// the counting visibility for landmarks only the rep signal reads) in more
    /// than a fifth of the frames. A landmark that signals read only per frame
    /// on either side (`min`, `max`, `mean`: one side seen is enough) counts as
    /// hidden where its other side is hidden too: the far elbow of a push-up
    /// filmed from the side hides nothing the rule needs.
    static func visibilityWarnings(_ series: [SignalSeries], repSignal: String, _ context: SignalContext) -> [String] {
        var alone = Set<Int>(), counterpart = [Int: Int](), judged = Set<Int>()
        for signal in series {
            let (sides, eitherSide): ([BodySide], Bool) = switch signal.definition.side {
            case .left: ([.left], false)
            case .right: ([.right], false)
            case .visible, .working, .oneLimb: ([signal.chosenSide ?? .left], false)
            case .ahead: ([.left, .right], false)
            case .min, .max, .mean: ([.left, .right], true)
            }
            for reference in signal.definition.references {
                let read = sides.flatMap { reference.indices(on: $0) }
                if eitherSide, case .sided(let left, let right) = reference {
                    counterpart[left] = right
                    counterpart[right] = left
                } else {
                    alone.formUnion(read)
                }
                if signal.definition.name != repSignal { judged.formUnion(read) }
            }
        }
        let track = context.track
        let posed = (0..<track.frameCount).filter { track.hasPose[$0] }
        guard !posed.isEmpty else { return [] }
        /// Whether the landmark is hidden in a frame, its slot and threshold read once.
        func hiddenTest(_ index: Int) -> (Int) -> Bool {
            let slot = track.slot(index)
            let threshold = judged.contains(index) ? context.threshold : min(context.threshold, context.countingVisibility)
            return { track.visibility(slot, $0) < threshold }
        }
        return alone.union(counterpart.keys).sorted().compactMap { index in
            let isHidden = hiddenTest(index)
            let isPartnerHidden = alone.contains(index) ? nil : counterpart[index].map(hiddenTest)
            let hidden = posed.filter { isHidden($0) && (isPartnerHidden?($0) ?? true) }.count
            let share = Double(hidden) / Double(posed.count)
            guard share > 0.2 else { return nil }
            return "low_visibility: \(PoseLandmarkName.spoken(index)) hidden in \(Int((share * 100).rounded()))% of frames"
        }
    }

    /// "people: up to 2 people in view (another person in 7 frames between 5.5
    /// and 15.5 s); scored the one on the left of the picture, the largest,
    /// followed throughout", when another person is found in at least 3 frames.
    /// Frames, not a share of them: `spotter landmarks` looks for other people
    /// in about one frame a second, a phone's track may in every frame.
    static func crowdWarnings(_ crowd: PreparedTrack.Crowd) -> [String] {
        guard crowd.framesWithSeveral >= 3, let span = crowd.several else { return [] }
        let size = crowd.followedLargest * 2 >= crowd.framesWithSeveral ? "the largest" : "not the largest"
        let others = crowd.mostInView == 2 ? "another person" : "others"
        let when = String(format: "between %.1f and %.1f s", Double(span.lowerBound) / 1000, Double(span.upperBound) / 1000)
        return ["people: up to \(crowd.mostInView) people in view (\(others) in \(crowd.framesWithSeveral) frames \(when)); "
            + "scored the one \(crowd.followedPlace), \(size) in the picture, followed throughout"]
    }

    /// Gaps in the key signal this long or longer are reported unscorable.
    static let unscorableGapMs = 1000

    /// "unscorable: 2.1–4.6 s without knee", for gaps in the key signal.
    static func gapWarnings(_ gaps: [ClosedRange<Int>], signal: SignalSeries, times: [Int]) -> [String] {
        let landmarks = Set(signal.definition.references.flatMap { $0.indices(on: signal.chosenSide ?? .left) })
            .sorted().map(PoseLandmarkName.spoken)
        return gaps.map { gap in
            String(
                format: "unscorable: %.1f–%.1f s without %@ (needs %@ in view)", Double(times[gap.lowerBound]) / 1000,
                Double(times[gap.upperBound]) / 1000, signal.definition.name, landmarks.joined(separator: ", "))
        }
    }

    /// Gaps where a signal has no value for `limitMs` or longer within the
    /// scored time (from the first scored frame to the last), other than
    /// excluded spans, which the report lists on their own.
    static func gaps(in values: [Double?], times: [Int], atLeast limitMs: Int, scored: [Bool]) -> [ClosedRange<Int>] {
        guard let first = scored.firstIndex(of: true), let last = scored.lastIndex(of: true) else { return [] }
        var gaps: [ClosedRange<Int>] = []
        var lastValid = first
        var excludedBetween = false
        for frame in first...last {
            if !scored[frame] { excludedBetween = true }
            guard values[frame] != nil || frame == last else { continue }
            if times[frame] - times[lastValid] >= limitMs, !excludedBetween { gaps.append(lastValid...frame) }
            lastValid = frame
            excludedBetween = false
        }
        return gaps
    }

    /// "no_reps: out of the push-up position in 98 % of the frames with a pose
    /// (body_level not below 70 in 96 % of them)": where nothing was counted and
    /// the rule's `position` left out half the frames the person was seen in or
    /// more, with the conditions that failed in most of those.
    static func outOfPositionWarnings(
        _ exclusions: [Exclusion], position: [PointCondition], series: [String: SignalSeries], hasPose: [Bool], title: String
    ) -> [String] {
        let out = exclusions.filter { $0.reason == .notExercise }.flatMap(\.frames).filter { hasPose[$0] }
        let posed = hasPose.filter { $0 }.count
        guard !out.isEmpty, out.count * 2 >= posed else { return [] }
        return ["no_reps: out of the \(title.lowercased()) position in \(percent(out.count, of: posed)) % of the frames with a pose"
            + failing(position.map { FrameCondition(alternatives: [$0]) }, in: out, series)]
    }

    /// "no_hold: the plank was held nowhere for 1.0 s (body_level not below 50 in
    /// 100 % of the frames with a pose)": where nothing was held, the hold's
    /// conditions that failed in most of the scored frames with a pose.
    static func neverHeldWarnings(
        _ hold: HoldRule, series: [String: SignalSeries], scored: [Bool], hasPose: [Bool], title: String
    ) -> [String] {
        let seen = scored.indices.filter { scored[$0] && hasPose[$0] }
        guard !seen.isEmpty else { return [] }
        return [String(format: "no_hold: the %@ was held nowhere for %.1f s", title.lowercased(), Double(hold.minMs) / 1000)
            + failing(hold.conditions, in: seen, series, of: "the frames with a pose")]
    }

    /// " (body_level not below 70 in 96 % of them; …)": the conditions failing in
    /// half of `frames` or more; an entry of alternatives (`any_of`) fails where
    /// each of them measured fails, and is named with "or" between them.
    private static func failing(
        _ entries: [FrameCondition], in frames: [Int], _ series: [String: SignalSeries], of whole: String = "them"
    ) -> String {
        let failed: [String] = entries.compactMap { entry in
            let count = frames.filter { entry.isMet(at: $0, in: series) == false }.count
            guard count * 2 >= frames.count else { return nil }
            let named = entry.alternatives.map { condition in
                switch condition.bound {
                case .above(let limit): "\(condition.signal) not above \(Int(limit.rounded()))"
                case .below(let limit): "\(condition.signal) not below \(Int(limit.rounded()))"
                }
            }
            return "\(named.joined(separator: " or ")) in \(percent(count, of: frames.count)) % of \(whole)"
        }
        return failed.isEmpty ? "" : " (" + failed.joined(separator: "; ") + ")"
    }

    private static func percent(_ part: Int, of whole: Int) -> Int { Int((Double(part) / Double(whole) * 100).rounded()) }
}
