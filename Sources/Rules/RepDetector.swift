/// A repetition's frames: where it starts, turns and ends.
struct RepSpan: Equatable, Sendable {
    var start: Int
    var turn: Int
    var end: Int
}

/// A movement of the rep signal that looked like a rep but was not counted, and why.
struct UncountedMovement: Equatable, Sendable {
    enum Reason: Equatable, Sendable {
        /// The signal left rest and came back, but never went as far as the rule's turn level.
        case tooShallow(reached: Double)
        /// The signal passed the turn level, but moved less each way than a rep moves: the
        /// rule's `minRange`, or `minShare` of the person's own range in the set.
        case tooSmall(moved: Double, needed: Double)
        /// The signal went far enough but did not come back to rest (before or after the turn).
        case noReturn(restedAt: Double)
        case tooQuick(milliseconds: Int)
        case tooSlow(milliseconds: Int)
        /// Much quicker than the set's other reps (`RepDetector.briefShare` of their typical duration).
        case brief(milliseconds: Int, typical: Int)
        /// Between two reps on a track that jitters, a movement too small for a rep on its
        /// own that did not last like the set's reps (`RepDetector.rhythmShare`).
        case offRhythm(milliseconds: Int, typical: Int)
        /// A `require` entry failed: its condition's signal, or its `any_of` alternatives' signals.
        case requirement(signals: [String])
        /// The video ended while the turn was held, where the rule does not
        /// count that as a rep (`complete_at_turn: reported`, or `lone` after another movement).
        case heldToEnd
    }

    var start: Int
    var turn: Int
    var end: Int
    var reason: Reason
}

/// Reps found in one signal, what was left uncounted, and the person's own levels.
struct RepDetection: Sendable {
    var reps: [RepSpan]
    var uncounted: [UncountedMovement]
    /// The person's typical rest and turn values over the set (nil without a counted rep).
    var levels: (rest: Double, turn: Double)?
    /// With `completeAtTurn`, a rep whose turn the video ends in: where the
    /// rule's `require` holds on it, it counts (`.counted`, or `.lone` alone in
    /// the video) or is said uncounted (`.reported`); otherwise it is dropped
    /// without a word (arms lowered to the sides after a press straighten the elbows too).
    var heldToEnd: RepSpan? = nil
    /// Whether `heldToEnd` is the video's one movement: from the rest it starts
    /// in to the turn it ends in, with no other turn anywhere.
    var heldIsLone = false
}

/// Finds repetitions in one signal, relative to the person doing them. Pure.
///
/// The signal is cleaned of one-frame spikes (a running median), split where it
/// is missing for longer than `maxGapMs`, and reduced to its turning points: a
/// turning point is kept only when the signal moves at least `minRange` away
/// from it (its prominence), so sway, noise and small bounces at the bottom are
/// never turns; on a track that jitters by more than an eighth of `minRange`
/// (measured between values `noiseSpacingMs` apart), the prominence asked for
/// is `noiseRange` times the jitter (between two reps so found, a gap as long
/// as a rep is read again with `minRange` alone). A rep is rest → turn → rest: the turn must reach the rule's
/// `active` level and the rests the rule's `rest` level — loose absolute bounds
/// that keep idle movement out — and each rest must come back at least
/// `returnFraction` of the way to the person's own typical rest from their
/// typical turn, so that a pause half-way up does not split a rep, while a set
/// whose tops never reach an ideal standing angle still counts. A rep must also
/// move at least `minShare` of the person's typical range, so that a step or a
/// shift between reps is not one. A rep that misses the depth target still
/// counts: depth is a fault, not a count.
///
/// Boundaries are refined on the cleaned series: a rep starts when the signal
/// last sat at its rest level before the turn and ends when it first settles
/// back there; its duration must lie within the rule's limits.
struct RepDetector {
    let rule: RepRule

    private struct Pivot {
        var frame: Int
        var depth: Double
        var isTurn: Bool
    }

    /// Reps in order, and the movements that were not counted. `breaks` marks
    /// frames no rep may span (spans left out of scoring: a cut, a flicker);
    /// `unseen` those where the signal was lost with the person or the
    /// landmarks (empty: every frame without a value), where a rest may hide.
    func detect(times: [Int], values: [Double?], breaks: [Bool] = [], unseen: [Bool] = []) -> RepDetection {
        let lost = unseen.isEmpty ? values.map { $0 == nil } : unseen
        return splittingAtHiddenRests(reading(times: times, values: values, breaks: breaks), times: times, values: values, lost: lost)
    }

    /// Reps read with the prominence the track's jitter allows, and the set's rhythm gaps read again.
    private func reading(times: [Int], values: [Double?], breaks: [Bool]) -> RepDetection {
        let floor = Self.noiseRange * (jitter(values, stride: Self.noiseStride(times)) ?? 0)
        guard floor <= rule.minRange else {
            var raised = rule
            raised.minRange = floor
            let coarse = RepDetector(rule: raised).counting(times: times, values: values, breaks: breaks)
            return fillingRhythmGaps(coarse, .hiddenByJitter, times: times, values: values, breaks: breaks)
        }
        let counted = counting(times: times, values: values, breaks: breaks)
        guard rule.rhythmMinRange < rule.minRange else { return counted }
        return fillingRhythmGaps(counted, .shallow, times: times, values: values, breaks: breaks)
    }

    /// A gap between two counted reps at least this share of the set's usual rep
    /// long may hold a rep the first reading missed; one found there counts
    /// when it lasts between this share and its inverse of the usual rep.
    static let rhythmShare = 0.6
    /// How many reps make a rhythm.
    static let rhythmMinimumReps = 2

    /// What a gap between two counted reps is read again for.
    private enum GapReading {
        /// Full reps the prominence a jittery track asks for hid: read with the
        /// rule's `minRange` and the gap's own levels; what still does not count is reported.
        case hiddenByJitter
        /// Shallow reps in the set's rhythm: read with `rhythmMinRange`, a
        /// `minShare` lowered in the same proportion, and the set's levels (a
        /// shallow rep never reaches the turns the gap's own levels would be
        /// read from); movements that small are not reported.
        case shallow
    }

    /// `coarse` with the reps it missed between two of its own: each gap of
    /// `rhythmShare` of the set's usual rep or longer is read again with a
    /// smaller prominence, and a rep found there that lasts like the others
    /// counts. Only between counted reps, where the set's rhythm says a rep may
    /// be: idle movement before and after a set stays uncounted. In the
    /// `.shallow` reading, a counted rep long enough to hold two is read again
    /// too, and split where that finds two or more reps none of them brief.
    private func fillingRhythmGaps(
        _ coarse: RepDetection, _ reading: GapReading, times: [Int], values: [Double?], breaks: [Bool]
    ) -> RepDetection {
        guard let usual = Self.usualDuration(coarse.reps, times: times, atLeast: Self.rhythmMinimumReps) else { return coarse }
        let lasts = (Self.rhythmShare * usual)...(usual / Self.rhythmShare)
        let shallow = reading == .shallow
        var lowered = rule
        if shallow {
            lowered.minRange = rule.rhythmMinRange
            lowered.minShare = rule.minShare * rule.rhythmMinRange / rule.minRange
        }
        let levels = shallow ? coarse.levels.map { (depth($0.rest), depth($0.turn)) } : nil
        // The signal within `window` alone, read again with the lowered rule.
        func reread(_ window: ClosedRange<Int>) -> RepDetection {
            let windowValues = values.indices.map { window.contains($0) ? values[$0] : nil }
            return RepDetector(rule: lowered).counting(
                times: times, values: windowValues, breaks: breaks, setLevels: levels, videoEnds: false)
        }
        var found: [RepSpan] = [], unfit: [UncountedMovement] = []
        for (before, after) in zip(coarse.reps, coarse.reps.dropFirst())
        where Double(times[after.start] - times[before.end]) >= Self.rhythmShare * usual {
            let gapReading = reread(before.end...after.start)
            for rep in gapReading.reps {
                let duration = times[rep.end] - times[rep.start]
                if lasts.contains(Double(duration)) {
                    found.append(rep)
                } else if !shallow {
                    unfit.append(UncountedMovement(
                        start: rep.start, turn: rep.turn, end: rep.end,
                        reason: .offRhythm(milliseconds: duration, typical: Int(usual.rounded()))))
                }
            }
            if !shallow { unfit += gapReading.uncounted }
        }
        // Two shallow reps read as one (the rest between them less than `minRange` above a turn): a rep
        // lasting as long as two that are not brief is read again the same way, and split where that
        // finds two or more reps that last between `briefShare` of the set's usual rep and the rhythm's longest.
        var split: [RepSpan] = []
        let partLasts = (Self.briefShare * usual)...(usual / Self.rhythmShare)
        for rep in coarse.reps where shallow && Double(times[rep.end] - times[rep.start]) >= 2 * Self.briefShare * usual {
            let parts = reread(rep.start...rep.end).reps
            guard parts.count >= 2, parts.allSatisfy({ partLasts.contains(Double(times[$0.end] - times[$0.start])) }) else { continue }
            split.append(rep)
            found += parts
        }
        guard !found.isEmpty || !unfit.isEmpty else { return coarse }
        var filled = coarse
        filled.reps = (coarse.reps.filter { !split.contains($0) } + found).sorted { $0.start < $1.start }
        let covered = (found.map { $0.start...$0.end }) + unfit.map { $0.start...$0.end }
        filled.uncounted = coarse.uncounted.filter { movement in !covered.contains { $0.contains(movement.turn) } } + unfit
        return filled
    }

    /// Reps and uncounted movements with the rule's `minRange` as the prominence,
    /// against the person's levels in `setLevels` (depths) where given, else
    /// their levels in these values.
    private func counting(
        times: [Int], values: [Double?], breaks: [Bool], setLevels: (rest: Double, turn: Double)? = nil, videoEnds: Bool = true
    ) -> RepDetection {
        let cleaned = Self.despiked(times: times, values: Self.withoutExcursions(times: times, values: values, size: rule.minRange))
        var segments: [[Int]] = []
        var current: [Int] = []
        var broken = false
        for frame in times.indices {
            if !breaks.isEmpty, breaks[frame] { broken = true }
            guard cleaned[frame] != nil else { continue }
            if let last = current.last, broken || times[frame] - times[last] > rule.maxGapMs {
                segments.append(current)
                current = []
            }
            broken = false
            current.append(frame)
        }
        if !current.isEmpty { segments.append(current) }

        let depth = cleaned.map { $0.map(self.depth) }
        let pivotsBySegment = segments.map { pivots(of: $0, depth: depth) }
        let levels = setLevels ?? Self.levels(pivotsBySegment.flatMap { merged($0) }, rule: self, depth: depth)
        var reps: [RepSpan] = []
        var uncounted: [UncountedMovement] = []
        var heldToEnd: RepSpan?
        let restoredBySegment = pivotsBySegment.map { merged($0, levels) }
        for (segment, restored) in zip(segments, restoredBySegment) {
            // A rest pivot at the video's first or last moment: where it cut into the way to or from a turn.
            let videoEdges = [restored.first, restored.last].compactMap { $0 }.filter {
                min(times[$0.frame] - times[0], times[times.count - 1] - times[$0.frame]) <= rule.maxGapMs
            }.map(\.frame)
            let rests = { (rest: Pivot) in
                self.isRest(rest.depth, levels) || (videoEdges.contains(rest.frame) && self.isCutOnTheWay(rest.depth, levels))
            }
            for (index, pivot) in restored.enumerated() where pivot.isTurn {
                guard index > 0, index + 1 < restored.count else { continue }
                let before = restored[index - 1], after = restored[index + 1]
                let rested = (rests(before), rests(after))
                let start = leaving(before, toward: pivot, depth: depth)
                let end = leaving(after, toward: pivot, depth: depth)
                let duration = times[end] - times[start]
                let reason: UncountedMovement.Reason?
                if pivot.depth >= activeDepth, !isDeepEnough(pivot, before, after, levels) {
                    reason = .tooSmall(moved: movement(pivot, before, after), needed: smallestMovement(levels))
                } else if !reachesTurn(pivot, before, after, levels) || (pivot.depth < activeDepth && duration < 2 * rule.minDurationMs) {
                    reason = .tooShallow(reached: value(pivot.depth))
                } else if !rested.0 || !rested.1 {
                    reason = .noReturn(restedAt: value(rested.0 ? after.depth : before.depth))
                } else if duration < rule.minDurationMs {
                    reason = .tooQuick(milliseconds: duration)
                } else if duration > rule.maxDurationMs {
                    reason = .tooSlow(milliseconds: duration)
                } else {
                    reason = nil
                }
                if let reason {
                    uncounted.append(UncountedMovement(start: start, turn: pivot.frame, end: end, reason: reason))
                } else {
                    reps.append(RepSpan(start: start, turn: pivot.frame, end: end))
                }
            }
            if videoEnds, let last = segment.last, last == segments.last?.last {
                heldToEnd = self.heldToEnd(restored, endingAt: last, levels, rests: rests, depth: depth, times: times)
            }
        }
        let (kept, brief) = Self.withoutBrief(reps + (heldToEnd.map { [$0] } ?? []), times: times)
        return RepDetection(
            reps: kept.filter { $0 != heldToEnd }, uncounted: uncounted + brief.filter { $0.turn != heldToEnd?.turn },
            levels: levels.map { (value($0.rest), value($0.turn)) },
            heldToEnd: heldToEnd.flatMap { kept.contains($0) ? $0 : nil },
            heldIsLone: heldToEnd != nil && restoredBySegment.joined().filter(\.isTurn).count == 1 && restoredBySegment.last?.count == 2)
    }

    /// The share of the set's typical rep that a rep lasts at least, where the
    /// set has `briefMinimumReps` or more: the half-step back between two
    /// lunges or a stumble between two reps is no rep, while a partial rep,
    /// quicker for its shorter way, still counts. The typical rep is the middle
    /// duration, the longer of the two middle ones in an even count, so that
    /// two lunges with a step after each still have their lunges' duration.
    static let briefShare = 0.4
    static let briefMinimumReps = 4

    /// The reps that last at least `briefShare` of the set's typical rep, and
    /// the others as uncounted movements.
    static func withoutBrief(_ reps: [RepSpan], times: [Int]) -> (kept: [RepSpan], brief: [UncountedMovement]) {
        guard let typical = usualDuration(reps, times: times, atLeast: briefMinimumReps) else { return (reps, []) }
        var kept: [RepSpan] = [], brief: [UncountedMovement] = []
        for rep in reps {
            let duration = times[rep.end] - times[rep.start]
            if Double(duration) >= briefShare * typical {
                kept.append(rep)
            } else {
                brief.append(UncountedMovement(
                    start: rep.start, turn: rep.turn, end: rep.end,
                    reason: .brief(milliseconds: duration, typical: Int(typical.rounded()))))
            }
        }
        return (kept, brief)
    }

    /// A set's usual rep duration (ms): the middle one, the longer of the two middle
    /// ones in an even count; nil with fewer than `count` reps.
    static func usualDuration(_ reps: [RepSpan], times: [Int], atLeast count: Int) -> Double? {
        guard reps.count >= count, let middle = upperMedian(reps.map { times[$0.end] - times[$0.start] }) else { return nil }
        return Double(middle)
    }

    // MARK: - Depth: how far toward the turn

    /// The signal turned so that the turn is a maximum (a squat's knee angle falls to its turn).
    func depth(_ value: Double) -> Double { rule.falls ? -value : value }
    private func value(_ depth: Double) -> Double { rule.falls ? -depth : depth }
    private var restDepth: Double { depth(rule.rest) }
    private var activeDepth: Double { depth(rule.active) }

    /// At rest: at or beyond the rule's rest level (in a set with the person's
    /// levels, its `restInSet` level where it has one), and back at least
    /// `returnFraction` of the way from the person's typical turn to their typical rest.
    func isRest(_ depth: Double, _ levels: (rest: Double, turn: Double)?) -> Bool {
        guard let levels else { return depth <= restDepth }
        guard depth <= rule.restInSet.map(self.depth) ?? restDepth else { return false }
        return depth <= levels.turn - rule.returnFraction * (levels.turn - levels.rest)
    }

    /// How far back toward their typical rest a rep must have come where the
    /// video starts or ends on its way: a clip trimmed as the person lowers
    /// from a press, or starts as they rise into the turn.
    static let cutReturn = 0.5

    /// Where the video cuts into the way to or from a turn: in a set with the
    /// person's levels, at least `cutReturn` of the way from their typical turn to their typical rest.
    private func isCutOnTheWay(_ depth: Double, _ levels: (rest: Double, turn: Double)?) -> Bool {
        guard let levels else { return false }
        return depth <= levels.turn - Self.cutReturn * (levels.turn - levels.rest)
    }

    /// With `completeAtTurn`, the rep whose turn the video ends in: the
    /// segment's last pivot a turn at the rule's active level, reached from a
    /// rest by at least the least a rep moves, and the person seen to within
    /// `maxGapMs` of the video's end (a press held overhead as the clip stops).
    /// It ends at the segment's last frame, `last`.
    private func heldToEnd(
        _ pivots: [Pivot], endingAt last: Int, _ levels: (rest: Double, turn: Double)?,
        rests: (Pivot) -> Bool, depth: [Double?], times: [Int]
    ) -> RepSpan? {
        guard rule.completeAtTurn != .never, pivots.count >= 2, let turn = pivots.last, turn.isTurn,
              times[times.count - 1] - times[last] <= rule.maxGapMs else { return nil }
        let before = pivots[pivots.count - 2]
        guard rests(before), turn.depth >= activeDepth, turn.depth - before.depth >= smallestMovement(levels) else { return nil }
        let start = leaving(before, toward: turn, depth: depth)
        guard times[last] - times[start] >= rule.minDurationMs, times[turn.frame] - times[start] <= rule.maxDurationMs else { return nil }
        return RepSpan(start: start, turn: turn.frame, end: last)
    }

    /// A turn at the rule's active level and deep enough for this person; or,
    /// in a set with reps that reach it, one short of it that moves as far as
    /// any rep must for this person (and lasts twice the shortest rep): a partial
    /// rep, which counts (depth is a fault, not a count).
    private func reachesTurn(_ turn: Pivot, _ before: Pivot, _ after: Pivot, _ levels: (rest: Double, turn: Double)?) -> Bool {
        guard isDeepEnough(turn, before, after, levels) else { return false }
        return turn.depth >= activeDepth || levels != nil
    }

    /// Deep enough for this person: the smaller of the movements down and up is
    /// at least `minShare` of their typical range (a step between two lunges is
    /// no lunge), and at least `minRange`.
    private func isDeepEnough(_ turn: Pivot, _ before: Pivot, _ after: Pivot, _ levels: (rest: Double, turn: Double)?) -> Bool {
        movement(turn, before, after) >= smallestMovement(levels)
    }

    /// How far the signal moves to a turn and back: the smaller of the two ways.
    private func movement(_ turn: Pivot, _ before: Pivot, _ after: Pivot) -> Double {
        turn.depth - max(before.depth, after.depth)
    }

    /// The least a rep moves each way: `minRange`, and `minShare` of the person's typical range.
    private func smallestMovement(_ levels: (rest: Double, turn: Double)?) -> Double {
        max(rule.minRange, levels.map { rule.minShare * ($0.turn - $0.rest) } ?? 0)
    }

    // MARK: - Turning points

    /// The signal's turning points with at least `minRange` of movement on each
    /// side; the segment's first and last extremes count as turning points when
    /// the signal moved that far from them.
    private func pivots(of frames: [Int], depth: [Double?]) -> [Pivot] {
        guard let first = frames.first else { return [] }
        var pivots: [Pivot] = []
        var high = first, low = first
        var rising: Bool?
        // The extreme so far becomes a turning point once the signal has moved minRange back from it.
        func turnAtHigh(_ frame: Int) {
            pivots.append(Pivot(frame: high, depth: depth[high]!, isTurn: true))
            rising = false
            low = frame
        }
        func restAtLow(_ frame: Int) {
            pivots.append(Pivot(frame: low, depth: depth[low]!, isTurn: false))
            rising = true
            high = frame
        }
        for frame in frames {
            let d = depth[frame]!
            switch rising {
            case nil:
                if d > depth[high]! { high = frame }
                if d < depth[low]! { low = frame }
                if d - depth[low]! >= rule.minRange { restAtLow(frame) } else if depth[high]! - d >= rule.minRange { turnAtHigh(frame) }
            case true?:
                if d >= depth[high]! { high = frame } else if depth[high]! - d >= rule.minRange { turnAtHigh(frame) }
            case false?:
                if d <= depth[low]! { low = frame } else if d - depth[low]! >= rule.minRange { restAtLow(frame) }
            }
        }
        // The last extreme: the signal moved at least minRange to reach it.
        switch rising {
        case true?: pivots.append(Pivot(frame: high, depth: depth[high]!, isTurn: true))
        case false?: pivots.append(Pivot(frame: low, depth: depth[low]!, isTurn: false))
        case nil: break
        }
        return pivots
    }

    /// Rests that are no rests (`isRest`: short of the rest level, or with the
    /// person's `levels`, not back far enough toward their typical rest): the
    /// turns on either side of one are one movement (the deeper turn is kept).
    private func merged(_ pivots: [Pivot], _ levels: (rest: Double, turn: Double)? = nil) -> [Pivot] {
        dropping(pivots) { !isRest($0.depth, levels) }
    }

    /// Removes every interior rest pivot `unrested` says is no rest, with the shallower of its two turns.
    private func dropping(_ pivots: [Pivot], unrested: (Pivot) -> Bool) -> [Pivot] {
        var result: [Pivot] = []
        for pivot in pivots {
            if pivot.isTurn, result.count >= 2, let rest = result.last, !rest.isTurn, unrested(rest),
               result[result.count - 2].isTurn {
                result.removeLast()
                if pivot.depth > result[result.count - 1].depth { result[result.count - 1] = pivot }
            } else {
                result.append(pivot)
            }
        }
        return result
    }

    /// The person's typical rest and turn: medians of the rests and turns that meet the rule's levels.
    private static func levels(_ pivots: [Pivot], rule detector: RepDetector, depth: [Double?]) -> (rest: Double, turn: Double)? {
        let turns = pivots.filter { $0.isTurn && $0.depth >= detector.activeDepth }.map(\.depth)
        let rests = pivots.filter { !$0.isTurn && $0.depth <= detector.restDepth }.map(\.depth)
        guard let turn = median(turns), let rest = median(rests) else { return nil }
        return (rest, turn)
    }

    // MARK: - Boundaries

    /// From the turn back toward a rest pivot, the first frame within a tenth of
    /// the movement (at least 2 units) of that rest: where the rep leaves or regains rest.
    private func leaving(_ rest: Pivot, toward turn: Pivot, depth: [Double?]) -> Int {
        let tolerance = max(2, (turn.depth - rest.depth) * 0.1)
        let step = rest.frame < turn.frame ? -1 : 1
        var frame = turn.frame
        while frame != rest.frame {
            if let d = depth[frame], d <= rest.depth + tolerance { return frame }
            frame += step
        }
        return rest.frame
    }

    // MARK: - Cleaning

    /// How many times the signal's jitter (`jitter(_:)`) a rep moves at least,
    /// whatever the rule's `minRange`: on a noisy track (the detector unsure of
    /// a limb filmed end-on), noise alone must make no rep.
    static let noiseRange = 8.0

    /// How far apart (ms) at most the values are that jitter is measured
    /// between: a tracker's noise drifts over a few frames, so next frames
    /// agree on it; further apart, the cubic through them no longer follows the
    /// quickest reps (jumping jacks at 0.5 s).
    static let noiseSpacingMs = 100.0

    /// The longest frame stride within `noiseSpacingMs` at the track's mean frame step (at least 1).
    static func noiseStride(_ times: [Int]) -> Int {
        guard let first = times.first, let last = times.last, times.count > 1, last > first else { return 1 }
        let step = Double(last - first) / Double(times.count - 1)
        return max(1, Int(noiseSpacingMs / step + 0.01))  // 0.01: timestamps rounded to the millisecond
    }

    /// A leap of a whole rep's range between frames at most this far apart…
    static let excursionStepMs = 50
    /// …and a leap back, to within a third of that of where it left, at most this long after.
    static let excursionMs = 200

    /// The values without excursions no limb makes: the signal leaping by
    /// `size` (the rule's `min_range`) from one frame to the next and leaping
    /// back within `excursionMs` (MediaPipe reading a curling arm straight for
    /// four frames mid-curl). Their frames are left unread. A one-frame spike is
    /// left to the running median (`despiked`); tracks with frames further apart
    /// than `excursionStepMs` keep every value: a quick rep leaps there.
    static func withoutExcursions(times: [Int], values: [Double?], size: Double) -> [Double?] {
        let valid = times.indices.filter { values[$0] != nil }
        func leap(_ position: Int) -> Double? {
            let from = valid[position - 1], to = valid[position]
            guard times[to] - times[from] <= Self.excursionStepMs else { return nil }
            let change = values[to]! - values[from]!
            return abs(change) >= size ? change : nil
        }
        var cleaned = values
        var position = 1
        while position < valid.count {
            guard let out = leap(position) else {
                position += 1
                continue
            }
            let left = values[valid[position - 1]]!
            let returns = (position + 1..<valid.count).lazy
                .prefix { times[valid[$0]] - times[valid[position]] <= Self.excursionMs }
                .first { back in leap(back).map { $0 * out < 0 && abs(values[valid[back]]! - left) <= size / 3 } ?? false }
            guard let back = returns, back > position + 1 else {
                position += 1
                continue
            }
            for excursion in position..<back { cleaned[valid[excursion]] = nil }
            position = back + 1
        }
        return cleaned
    }

    /// How far either side of a value its running median reaches.
    static let medianWindowMs = 70

    /// Each value replaced by the median of the valid values within
    /// `medianWindowMs` of it: glitches of a few frames (a limb swapped, a jump,
    /// the detector's jitter) go, turns stay where they are. A value with no
    /// neighbour on one side (next to a gap) is kept: whether it is a glitch cannot be told.
    static func despiked(times: [Int], values: [Double?]) -> [Double?] {
        let valid = times.indices.filter { values[$0] != nil }
        var cleaned = [Double?](repeating: nil, count: values.count)
        var window: [Double] = []
        window.reserveCapacity(16)
        var low = 0, high = 0
        for (position, frame) in valid.enumerated() {
            while times[frame] - times[valid[low]] > Self.medianWindowMs { low += 1 }
            high = max(high, position)
            while high + 1 < valid.count, times[valid[high + 1]] - times[frame] <= Self.medianWindowMs { high += 1 }
            window.removeAll(keepingCapacity: true)
            for neighbour in low...high { window.append(values[valid[neighbour]]!) }
            let before = low < position, after = high > position
            guard before && after else {
                cleaned[frame] = values[frame]
                continue
            }
            window.sort()
            cleaned[frame] = window.count % 2 == 1
                ? window[window.count / 2] : (window[window.count / 2 - 1] + window[window.count / 2]) / 2
        }
        return cleaned
    }
}
