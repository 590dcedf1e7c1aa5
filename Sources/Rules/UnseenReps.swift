/// Reps done while the person was lost for a moment in a steady set. Pure.
///
/// MediaPipe loses a person now and then for a fraction of a second (motion
/// blur, a limb across the body); in a quick set a whole rep fits in such a
/// loss. Where two counted reps' turns lie two (or three) of the set's usual
/// intervals apart and the rep signal went unseen between them for long enough
/// to hide the missing turns, the reps the rhythm says were there are counted:
/// a coach watching the video would count them. Only a steady rhythm (most
/// intervals within `steadiness` of their median, over at least `leastIntervals`
/// intervals seen whole) and a loss of at most `longestLossMs` are trusted; a
/// pause seen between reps, or a span left out for another reason, is no loss.
struct UnseenReps {
    /// The longest loss of the person reps are counted across.
    static let longestLossMs = 2_000
    /// Intervals seen whole (no loss in them that could hide a rep) that a rhythm needs.
    static let leastIntervals = 2
    /// How far from the median interval a steady interval may be, as a share of it.
    static let steadiness = 0.25
    /// How far from a whole number of intervals a gap may be, in intervals.
    static let fit = 0.35
    /// The most reps counted in one loss.
    static let mostPerLoss = 2
    /// A loss shorter than this share of the interval cannot hide a rep's turn.
    static let leastLossShare = 0.4

    let times: [Int]
    /// Per frame: the rep signal not measured for want of the person or the
    /// landmarks (false in spans left out for any other reason, and where measured).
    let unseen: [Bool]

    /// The reps hidden between the counted reps `counted` (in time order), as
    /// spans over the loss that hid them.
    func find(between counted: [RepSpan]) -> [RepSpan] {
        guard counted.count >= 2 else { return [] }
        let intervals = zip(counted, counted.dropFirst()).map { before, after in
            (ms: times[after.turn] - times[before.turn], loss: longestLoss(from: before.turn, to: after.turn))
        }
        // Seen whole: no loss in it long enough to hide a rep (a frame or two dropped here and
        // there cannot), judged against the middle of all the intervals, gaps included.
        guard let overall = upperMedian(intervals.map(\.ms)) else { return [] }
        let whole = intervals.filter { interval in
            interval.loss.map { Double(duration($0)) < Self.leastLossShare * Double(overall) } ?? true
        }.map(\.ms)
        guard whole.count >= Self.leastIntervals, let middle = upperMedian(whole) else { return [] }
        let period = Double(middle)
        let steady = whole.filter { abs(Double($0) - period) <= Self.steadiness * period }.count
        guard period > 0, 3 * steady >= 2 * whole.count else { return [] }

        var hidden: [RepSpan] = []
        for interval in intervals {
            let ratio = Double(interval.ms) / period
            let missing = Int(ratio.rounded()) - 1
            guard (1...Self.mostPerLoss).contains(missing), abs(ratio - ratio.rounded()) <= Self.fit,
                  let loss = interval.loss else { continue }
            let lossMs = duration(loss)
            guard lossMs <= Self.longestLossMs, Double(lossMs) >= Self.leastLossShare * period * Double(missing) else { continue }
            hidden += split(loss, into: missing)
        }
        return hidden
    }

    /// The longest run of unseen frames strictly between two frames, from the
    /// last frame seen before it to the first seen after it; nil without one.
    private func longestLoss(from first: Int, to last: Int) -> ClosedRange<Int>? {
        Self.longestLoss(from: first, to: last, times: times) { unseen[$0] }
    }

    /// The longest run (in time) of frames `lost` says are lost, strictly between
    /// two frames, from the last frame not lost before it to the first after it; nil without one.
    static func longestLoss(from first: Int, to last: Int, times: [Int], lost: (Int) -> Bool) -> ClosedRange<Int>? {
        var longest: ClosedRange<Int>?
        var frame = first + 1
        while frame < last {
            guard lost(frame) else { frame += 1; continue }
            var end = frame
            while end + 1 < last, lost(end + 1) { end += 1 }
            let run = (frame - 1)...(end + 1)
            if longest.map({ times[run.upperBound] - times[run.lowerBound] > times[$0.upperBound] - times[$0.lowerBound] }) ?? true {
                longest = run
            }
            frame = end + 1
        }
        return longest
    }

    /// Milliseconds from a run's first frame to its last.
    private func duration(_ run: ClosedRange<Int>) -> Int { times[run.upperBound] - times[run.lowerBound] }

    /// `count` equal spans over a loss, each turning in its middle.
    private func split(_ loss: ClosedRange<Int>, into count: Int) -> [RepSpan] {
        let start = Double(times[loss.lowerBound]), length = Double(times[loss.upperBound]) - start
        func frame(at share: Double) -> Int {
            let time = start + share * length
            return loss.min { abs(Double(times[$0]) - time) < abs(Double(times[$1]) - time) } ?? loss.lowerBound
        }
        return (0..<count).map { index in
            let part = Double(index) / Double(count), next = Double(index + 1) / Double(count)
            return RepSpan(start: frame(at: part), turn: frame(at: (part + next) / 2), end: frame(at: next))
        }
    }
}
