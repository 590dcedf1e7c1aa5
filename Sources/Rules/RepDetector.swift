/// A repetition's frames: where it starts, turns and ends.
struct RepSpan: Equatable, Sendable {
    var start: Int
    var turn: Int
    var end: Int
}

/// Finds repetitions in one signal: a pure state machine with two thresholds.
///
/// A rep leaves the rest zone, reaches the active zone and comes back to rest;
/// zones must hold for `debounceMs` before they count (or up to a gap in the
/// signal), so noise at a threshold does not make or break reps. A movement that returns without reaching the
/// active zone (setting up, a half-hearted dip) is no rep; neither is one
/// shorter or longer than allowed, or with too little range. Gaps in the
/// signal longer than `maxGapMs` abandon a rep under way.
///
/// Boundaries are then refined on the whole series: a rep starts when the
/// signal last sat at its rest level before leaving, and ends when it first
/// settles back there.
struct RepDetector {
    let rule: RepRule

    private enum State {
        case unknown
        case resting
        case moving(leftRest: Int)
        case active(leftRest: Int, turn: Int)
    }

    private enum Zone { case rest, between, active }

    /// Reps, in order, and the spans of frames where the signal was missing too long.
    func detect(times: [Int], values: [Double?]) -> (reps: [RepSpan], gaps: [ClosedRange<Int>]) {
        var candidates: [(leftRest: Int, turn: Int, backInRest: Int)] = []
        var gaps: [ClosedRange<Int>] = []
        var state = State.unknown
        var zoneRun: (zone: Zone, start: Int)?
        var lastValid: Int?
        var lastRest: Int?
        // When the signal goes missing, the zone it was in holds as far as anyone
        // can tell: a zone entered just before a gap counts as settled.
        var nextValidTime = Array(repeating: Int.max, count: times.count)
        var upcoming = Int.max
        for frame in times.indices.reversed() {
            nextValidTime[frame] = upcoming
            if values[frame] != nil { upcoming = times[frame] }
        }
        for frame in times.indices {
            guard let value = values[frame] else { continue }
            if let previous = lastValid, times[frame] - times[previous] > rule.maxGapMs {
                gaps.append(previous...frame)
                state = .unknown
                zoneRun = nil
            }
            lastValid = frame
            let zone = self.zone(value)
            if zoneRun?.zone != zone { zoneRun = (zone, frame) }
            let settled = times[frame] - times[zoneRun!.start] >= rule.debounceMs
                || (nextValidTime[frame] != Int.max && nextValidTime[frame] - times[frame] > rule.debounceMs)
            switch state {
            case .unknown:
                if zone == .rest, settled {
                    state = .resting
                    lastRest = frame
                }
            case .resting:
                if zone == .rest {
                    lastRest = frame
                } else if zone == .active, settled {
                    // Straight from rest into a settled active zone (a fast rep, or one seen in few frames).
                    let leftRest = lastRest ?? frame
                    state = .active(leftRest: leftRest, turn: extreme(values, from: leftRest, through: frame))
                } else {
                    state = .moving(leftRest: lastRest ?? frame)
                }
            case .moving(let leftRest):
                if zone == .active, settled {
                    state = .active(leftRest: leftRest, turn: extreme(values, from: leftRest, through: frame))
                } else if zone == .rest, settled {
                    state = .resting
                    lastRest = frame
                } else if times[frame] - times[leftRest] > rule.maxDurationMs {
                    state = .unknown
                }
            case .active(let leftRest, let turn):
                let turn = progress(value) > progress(values[turn]!) ? frame : turn
                if zone == .rest, settled {
                    candidates.append((leftRest, turn, zoneRun!.start))
                    state = .resting
                    lastRest = frame
                } else if times[frame] - times[leftRest] > rule.maxDurationMs {
                    state = .unknown
                } else {
                    state = .active(leftRest: leftRest, turn: turn)
                }
            }
        }
        return (refine(candidates, times: times, values: values), gaps)
    }

    // MARK: - Zones

    /// How far a value has moved from rest toward active (negative beyond rest).
    private func progress(_ value: Double) -> Double {
        rule.falls ? rule.rest - value : value - rule.rest
    }

    private var span: Double { abs(rule.rest - rule.active) }

    private func zone(_ value: Double) -> Zone {
        let moved = progress(value)
        return moved <= 0 ? .rest : moved >= span ? .active : .between
    }

    private func extreme(_ values: [Double?], from start: Int, through end: Int) -> Int {
        var best = end
        for frame in start...end {
            if let value = values[frame], progress(value) > progress(values[best] ?? value) { best = frame }
        }
        return best
    }

    // MARK: - Boundaries

    private func refine(
        _ candidates: [(leftRest: Int, turn: Int, backInRest: Int)], times: [Int], values: [Double?]
    ) -> [RepSpan] {
        // Within a tenth of the threshold span of the rest plateau counts as at rest.
        let tolerance = span * 0.1
        var reps: [RepSpan] = []
        for (index, candidate) in candidates.enumerated() {
            let earliest = reps.last?.end ?? (index > 0 ? candidates[index - 1].backInRest : 0)
            let latest = index + 1 < candidates.count ? candidates[index + 1].leftRest : values.count - 1
            let start = settledPoint(values, from: candidate.leftRest, toward: earliest, tolerance: tolerance)
            let end = settledPoint(values, from: candidate.backInRest, toward: latest, tolerance: tolerance)
            guard let startValue = values[start], let endValue = values[end], let turnValue = values[candidate.turn] else { continue }
            let range = max(abs(startValue - turnValue), abs(endValue - turnValue))
            let duration = times[end] - times[start]
            guard range >= rule.minRange, duration >= rule.minDurationMs, duration <= rule.maxDurationMs else { continue }
            reps.append(RepSpan(start: start, turn: candidate.turn, end: end))
        }
        return reps
    }

    /// From `origin` (a frame at rest) toward `limit`, the frame nearest the
    /// movement where the signal is within `tolerance` of its most restful value.
    private func settledPoint(_ values: [Double?], from origin: Int, toward limit: Int, tolerance: Double) -> Int {
        let frames = limit < origin ? Array(stride(from: origin, through: limit, by: -1)) : Array(origin...limit)
        // Only the rest plateau next to the movement: stop where the signal leaves rest again.
        var plateau: [Int] = []
        for frame in frames {
            guard let value = values[frame] else { continue }
            if zone(value) != .rest && !plateau.isEmpty { break }
            if zone(value) == .rest { plateau.append(frame) }
        }
        guard let restful = plateau.map({ progress(values[$0]!) }).min() else { return origin }
        // The plateau frame nearest the movement that is close to the most restful value.
        return plateau.first { progress(values[$0]!) <= restful + tolerance } ?? origin
    }
}
