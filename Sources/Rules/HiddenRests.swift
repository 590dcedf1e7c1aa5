/// Two reps read as one because the rest between them fell in a loss of the
/// signal: MediaPipe lost the person (or the limb) for a moment while they
/// were on their way back, and the turns on either side of the loss merged
/// into one movement (two quick jumping jacks, a rep too slow to count).
/// Pure: a step of `RepDetector.detect`.
extension RepDetector {
    /// A loss shorter than this share of the set's usual rep cannot hide a return to rest and back.
    static let hiddenRestShare = 0.4

    /// `detection` with each counted rep, and each movement left uncounted as
    /// too slow, split in two where a loss inside it (frames `lost`: the person
    /// or the landmarks, not a span left out for what they did) hides a rest: the signal
    /// short of rest on both sides of the loss (`isRest`, with the person's
    /// levels), the loss lasting at least `hiddenRestShare` of
    /// the set's usual rep, and each side reaching the rule's active level and
    /// lasting like the set's reps (`rhythmShare`). Each part ends or starts at
    /// the middle of the loss. A set needs `rhythmMinimumReps` counted reps for its usual rep.
    func splittingAtHiddenRests(_ detection: RepDetection, times: [Int], values: [Double?], lost: [Bool]) -> RepDetection {
        guard let levels = detection.levels,
              let usual = Self.usualDuration(detection.reps, times: times, atLeast: Self.rhythmMinimumReps) else { return detection }
        let setLevels = (rest: depth(levels.rest), turn: depth(levels.turn))
        let lasts = (Self.rhythmShare * usual)...(usual / Self.rhythmShare)
        func parts(_ span: RepSpan) -> [RepSpan]? {
            // Its edges measured (a loss may border a span left out, unmeasured) and short of rest.
            guard let loss = UnseenReps.longestLoss(from: span.start, to: span.end, times: times, lost: { lost[$0] }),
                  Double(times[loss.upperBound] - times[loss.lowerBound]) >= Self.hiddenRestShare * usual,
                  let before = values[loss.lowerBound], let after = values[loss.upperBound],
                  !isRest(depth(before), setLevels), !isRest(depth(after), setLevels) else { return nil }
            let middle = times.indices[loss].min { abs(2 * times[$0] - times[loss.lowerBound] - times[loss.upperBound])
                < abs(2 * times[$1] - times[loss.lowerBound] - times[loss.upperBound]) }!
            var split: [RepSpan] = []
            for half in [span.start...middle, middle...span.end] {
                let measured = half.compactMap { frame in values[frame].map { (frame: frame, depth: depth($0)) } }
                guard let turn = measured.max(by: { $0.depth < $1.depth }), turn.depth >= depth(rule.active),
                      lasts.contains(Double(times[half.upperBound] - times[half.lowerBound])) else { return nil }
                split.append(RepSpan(start: half.lowerBound, turn: turn.frame, end: half.upperBound))
            }
            return split
        }
        var result = detection
        result.reps = detection.reps.flatMap { parts($0) ?? [$0] }
        var uncounted: [UncountedMovement] = []
        for movement in detection.uncounted {
            guard case .tooSlow = movement.reason, let split = parts(RepSpan(start: movement.start, turn: movement.turn, end: movement.end)) else {
                uncounted.append(movement)
                continue
            }
            result.reps += split
        }
        result.reps.sort { $0.start < $1.start }
        result.uncounted = uncounted
        return result
    }
}
