/// Finds the spans a position is held in: every condition met, with breaks of
/// up to `maxGapMs` bridged, each span's ends trimmed to where its steady
/// signals and the body have settled, and spans shorter than `minMs` ignored. Pure.
struct HoldDetector {
    let rule: HoldRule

    /// The trunk's and legs' speed per frame over a short time after it (where a
    /// hold may start) and before it (where one may end), for the rule's `settledBelow`.
    typealias Settling = (ahead: Speeds, behind: Speeds)
    /// Speeds in the picture, and of the body within it (without the common
    /// shift of its landmarks: a camera panning to follow the person is not them moving).
    typealias Speeds = (picture: [Double?], body: [Double?])

    /// A steady signal's values per frame (empty when it is not measured; nil in
    /// frames where it is not, or not in its views) and the rule's entry for it.
    typealias Steady = (values: [Double?], signal: SteadySignal)

    /// Held spans, as frame ranges. `steady` holds the rule's steady signals;
    /// `unseenEnds` the values of the rule's `ends_unseen` signals (`endingWhereSeen`).
    func detect(
        times: [Int], met: [Bool?], steady: [Steady] = [], settling: Settling? = nil,
        unseenEnds: [[Double?]] = []
    ) -> [ClosedRange<Int>] {
        var spans: [ClosedRange<Int>] = []
        var current: ClosedRange<Int>?
        for frame in times.indices where met[frame] == true {
            if let open = current, bridges(open.upperBound, frame, times: times, met: met) {
                current = open.lowerBound...frame
            } else {
                if let open = current { spans.append(open) }
                current = frame...frame
            }
        }
        if let open = current { spans.append(open) }
        return spans.compactMap { span in
            settled(span, steady, settling, times: times, firstSight: !met[..<span.lowerBound].contains { $0 != nil })
        }
            .map { Self.endingWhereSeen($0, unseenEnds, times: times) }
            .filter { times[$0.upperBound] - times[$0.lowerBound] >= rule.minMs }
    }

    /// A stretch of the person unseen between two held frames, up to this long,
    /// is held too: MediaPipe lost them, they did not get up and back in 2 s.
    static let unseenGapMs = 2000

    /// Whether the frames between `last` and `next` (both held) join them into
    /// one hold: within the rule's `maxGapMs`, or none of them measured and
    /// within `unseenGapMs`.
    private func bridges(_ last: Int, _ next: Int, times: [Int], met: [Bool?]) -> Bool {
        let gap = times[next] - times[last]
        return gap <= rule.maxGapMs || (gap <= Self.unseenGapMs && met[(last + 1)..<next].allSatisfy { $0 == nil })
    }

    /// Where the picture shakes more than the rule's `settledBelow`, a hold
    /// starts where the body moves under this many times the hold's median
    /// speed: a person filmed by a phone keeps adjusting for a second or two
    /// once in place, and MediaPipe's jitter on real footage comes and goes.
    static let startShake = 2.5
    /// And ends where it last moved under this many times it: leaving begins slowly.
    static let endShake = 2.0
    /// How long MediaPipe's landmarks take to settle onto a body it has just found:
    /// they move 0.03–0.04 body sizes a second for a few hundred milliseconds.
    static let lockOnMs = 500

    /// `span` without the frames at either end where a steady signal is further
    /// than its tolerance from its median over the span (or, falling only, below
    /// the lower of that median and its ideal by more), or none is measured,
    /// or the body moves faster than the rule lets a settled hold; nil when nothing settles.
    /// In a span from the first frame any condition is measured in (`firstSight`:
    /// the person in position as they come into view) whose body is slow once
    /// `lockOnMs` have passed, those first milliseconds have no speed limit:
    /// MediaPipe's landmarks settling onto them is not them moving into place.
    private func settled(
        _ span: ClosedRange<Int>, _ steady: [Steady], _ settling: Settling?, times: [Int], firstSight: Bool
    ) -> ClosedRange<Int>? {
        let checks: [(steady: Steady, median: Double)] = steady.compactMap { steady in
            Self.middle(of: steady.values, in: span).map { (steady, $0) }
        }
        let isSteady = { (frame: Int) in
            let measured = checks.compactMap { check in check.steady.values[frame].map { check.steady.signal.isSteady($0, median: check.median) } }
            return checks.isEmpty || (!measured.isEmpty && !measured.contains(false))
        }
        // The body's speed limit: the rule's, or a multiple of the hold's median in the picture where it shakes more.
        let slowEnough = { (speeds: Speeds?, shake: Double) -> (Int) -> Bool in
            guard let limit = rule.settledBelow, let speeds, !speeds.body.isEmpty else { return { _ in true } }
            let bound = max(limit, shake * (Self.middle(of: speeds.picture, in: span) ?? 0))
            return { frame in speeds.body[frame].map { $0 < bound } ?? false }
        }
        let slowAhead = slowEnough(settling?.ahead, Self.startShake)
        let lockingOn = { frame in times[frame] - times[span.lowerBound] <= Self.lockOnMs }
        let lockedOn = firstSight && span.first { !lockingOn($0) }.map(slowAhead) == true
        let startsSlow = { frame in (lockedOn && lockingOn(frame)) || slowAhead(frame) }
        let endsSlow = slowEnough(settling?.behind, Self.endShake)
        guard let first = span.first(where: { isSteady($0) && startsSlow($0) }),
              let last = span.last(where: { isSteady($0) && endsSlow($0) }), first <= last else { return nil }
        return first...last
    }

    /// The middle value (the upper one of an even count) of `values` measured in `span`; nil when none is.
    private static func middle(of values: [Double?], in span: ClosedRange<Int>) -> Double? {
        upperMedian(values.isEmpty ? [] : span.compactMap { values[$0] })
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

extension HoldDetector {
    /// A hold's condition that cannot be measured does not break it: a view may
    /// hide a plank's elbows throughout, or now and then. A signal of the rule's
    /// `ends_unseen`, measured on `seenShare` of the `seenBeforeMs` before it
    /// went unmeasured for the rest of the hold, and for more than `unseenEndMs`,
    /// ends the hold where it was last measured: the body changed so that its
    /// landmarks were hidden (a plank let down to lie flat hides the elbows that held it up).
    static let seenBeforeMs = 2000
    static let seenShare = 0.8
    static let unseenEndMs = 500

    /// `span`, ending where the first of `signals` (their values) that went unmeasured for the rest of it was last measured.
    static func endingWhereSeen(_ span: ClosedRange<Int>, _ signals: [[Double?]], times: [Int]) -> ClosedRange<Int> {
        var end = span.upperBound
        for values in signals where !values.isEmpty {
            guard let lastSeen = span.last(where: { values[$0] != nil }), lastSeen > span.lowerBound,
                  times[span.upperBound] - times[lastSeen] > unseenEndMs else { continue }
            guard let first = (span.lowerBound...lastSeen).first(where: { times[lastSeen] - times[$0] <= seenBeforeMs }),
                  times[lastSeen] - times[first] >= seenBeforeMs / 2,
                  Double((first...lastSeen).filter { values[$0] != nil }.count) >= seenShare * Double(lastSeen - first + 1) else { continue }
            end = min(end, lastSeen)
        }
        return span.lowerBound...end
    }
}
