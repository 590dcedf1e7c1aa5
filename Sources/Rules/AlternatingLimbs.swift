/// Two limbs that take turns — alternating curls or presses, one arm working
/// while the other rests at its side — are both counted: per frame, the rep
/// signal reads the side that is working then.
enum AlternatingLimbs {
    /// Each side works (is past the middle of its own range, toward the rep's
    /// turn) in at least this share of the frames where it is seen…
    static let workingShare = 0.05
    /// …and at most this share of either side's working frames is shared with
    /// the other's: arms that curl together overlap in most of theirs.
    static let overlapShare = 0.25
    /// Each side moves at least this share of the rule's `min_range` (a far arm's
    /// guesses show less of its range; a free arm hanging at the side moves less).
    static let spreadShare = 0.75

    /// Per frame, the side working then (the one further toward the turn, or
    /// the one seen), when the two sides take turns and each moves at least
    /// `minSpread` (the range `middle(_:minSpread:)` reads); nil when they do not take turns.
    static func workingSides(left: [Double?], right: [Double?], turnBelowRest: Bool, minSpread: Double) -> [BodySide?]? {
        guard let leftMiddle = middle(left, minSpread: minSpread), let rightMiddle = middle(right, minSpread: minSpread) else { return nil }
        let working = { (value: Double?, middle: Double) in value.map { turnBelowRest ? $0 < middle : $0 > middle } ?? false }
        var leftCount = 0, rightCount = 0, both = 0, leftSeen = 0, rightSeen = 0
        for (l, r) in zip(left, right) {
            let (a, b) = (working(l, leftMiddle), working(r, rightMiddle))
            if l != nil { leftSeen += 1 }
            if r != nil { rightSeen += 1 }
            if a { leftCount += 1 }
            if b { rightCount += 1 }
            if a && b { both += 1 }
        }
        guard Double(leftCount) >= workingShare * Double(leftSeen), Double(rightCount) >= workingShare * Double(rightSeen),
              Double(both) <= overlapShare * Double(min(leftCount, rightCount)) else { return nil }
        return zip(left, right).map { pair in
            switch pair {
            case let (l?, r?): (turnBelowRest ? l <= r : l >= r) ? .left : .right
            case (_?, nil): .left
            case (nil, _?): .right
            case (nil, nil): nil
            }
        }
    }

    /// A side's own range leaves out this share of its values at each end: an arm
    /// that takes turns curls in a small share of the set (three curls of a second
    /// each in half a minute, the weights picked up and set down), so that its 10th
    /// percentile would sit on the way up, not at the turn.
    static let rangeTail = 0.05

    /// The middle of a side's own range (`rangeTail` to 1 − `rangeTail` of its
    /// values), when it spans at least `minSpread`.
    private static func middle(_ values: [Double?], minSpread: Double) -> Double? {
        guard let range = middleRange(values, atLeast: 10, tail: rangeTail), range.upperBound - range.lowerBound >= minSpread else { return nil }
        return (range.lowerBound + range.upperBound) / 2
    }
}
