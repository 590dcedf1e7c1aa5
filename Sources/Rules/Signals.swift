/// A signal's value in every frame — nil where its landmarks are missing or not
/// trusted — and, for a signal on sided landmarks, each side's own values.
struct SignalSeries {
    let definition: SignalDefinition
    var values: [Double?]
    var left: [Double?]?
    var right: [Double?]?
    /// The side a `visible` signal settled on.
    var chosenSide: BodySide?
    /// Per frame, the side a rep signal read where two limbs take turns (`AlternatingLimbs`).
    var workingSides: [BodySide?]?
}

/// A body length in world and in image space (1 where it was not measured);
/// read for every frame of a signal, so kept apart rather than in a dictionary.
private struct BodyScale {
    var world = 1.0
    var image = 1.0

    subscript(space: SignalDefinition.Space) -> Double {
        get {
            switch space {
            case .world: world
            case .image: image
            case .side, .front: 1
            }
        }
        set {
            switch space {
            case .world: world = newValue
            case .image: image = newValue
            case .side, .front: break
            }
        }
    }
}

/// What every signal of a session shares: the prepared frames, the trust
/// threshold, body scales and the direction the person faces.
struct SignalContext {
    let track: PreparedTrack
    private(set) var threshold: Double
    /// Per frame, the camera's steady view: `space: side` and `space: front` read
    /// image coordinates where it is theirs, world coordinates elsewhere.
    var views: [CameraView?] = []
    private let torso: BodyScale
    private let shoulders: BodyScale
    /// The horizontal direction the person faces, world coordinates (unit or zero).
    let facing: Point
    /// +1 when the person faces right in the image, −1 when left.
    let imageFacing: Double

    /// Measures the body and its facing in world space, and in image space too when `imageSpace`.
    init(track: PreparedTrack, threshold: Double, imageSpace: Bool) {
        self.track = track
        self.threshold = threshold
        var torso = BodyScale(), shoulders = BodyScale()
        var facings: [Point] = [], imageFacings: [Double] = []
        for space in imageSpace ? [SignalDefinition.Space.world, .image] : [.world] {
            var torsos: [Double] = [], widths: [Double] = []
            for frame in 0..<track.frameCount where track.hasPose[frame] {
                func seen(_ index: Int) -> Point? { Self.point(track, index, frame, space, threshold) }
                let (left, right) = (seen(PoseLandmark.leftShoulder), seen(PoseLandmark.rightShoulder))
                // Torso length side by side, so that a hidden far side does not lose it.
                if let left, let hip = seen(PoseLandmark.leftHip) { torsos.append(Geometry.length(left - hip)) }
                if let right, let hip = seen(PoseLandmark.rightHip) { torsos.append(Geometry.length(right - hip)) }
                if let left, let right { widths.append(Geometry.length(left - right)) }
                guard let shoulder = left.map({ l in right.map { (l + $0) / 2 } ?? l }) ?? right, let nose = seen(PoseLandmark.nose) else { continue }
                if space == .world { facings.append(Geometry.horizontal(nose - shoulder)) } else { imageFacings.append(nose.x - shoulder.x) }
            }
            torso[space] = median(torsos) ?? 1
            shoulders[space] = median(widths) ?? (median(torsos) ?? 1) * 0.75
        }
        self.torso = torso
        self.shoulders = shoulders
        let summed = facings.reduce(Point.zero) { $0 + ($1 / max(Geometry.length($1), 1e-9)) }
        facing = Geometry.length(summed) > 1e-9 ? summed / Geometry.length(summed) : .zero
        imageFacing = (median(imageFacings) ?? 0) >= 0 ? 1 : -1
    }

    func scale(_ scale: SignalDefinition.Scale, in space: SignalDefinition.Space) -> Double {
        max(1e-6, (scale == .torso ? torso : shoulders)[space])
    }

    /// A trusted landmark's position in `space`, or nil.
    func point(_ index: Int, _ frame: Int, _ space: SignalDefinition.Space) -> Point? {
        Self.point(track, index, frame, space, threshold)
    }

    private static func point(
        _ track: PreparedTrack, _ index: Int, _ frame: Int, _ space: SignalDefinition.Space, _ threshold: Double
    ) -> Point? {
        let slot = track.slot(index)
        guard track.hasPose[frame], track.visibility(slot, frame) >= threshold else { return nil }
        return space == .world ? track.world(slot, frame) : track.image(slot, frame)
    }

    func point(_ reference: LandmarkReference, on side: BodySide, _ frame: Int, _ space: SignalDefinition.Space) -> Point? {
        switch reference {
        case .fixed(let index): return point(index, frame, space)
        case .sided(let left, let right): return point(side == .left ? left : right, frame, space)
        case .midpoint(let left, let right):
            guard let a = point(left, frame, space), let b = point(right, frame, space) else { return nil }
            return (a + b) / 2
        }
    }

    /// Landmarks MediaPipe is this unsure of still move with the body: unless
    /// the rule says otherwise (`reps: visibility:`), the rep signal is counted
    /// on landmarks down to this visibility.
    static let defaultCountingVisibility = 0.02
    /// The visibility the rep signal trusts landmarks down to.
    var countingVisibility = Self.defaultCountingVisibility
    /// This context, trusting landmarks down to `countingVisibility`.
    private var counting: SignalContext { trusting(Swift.min(threshold, countingVisibility)) }

    /// This context, trusting landmarks down to `visibility` (a signal's own
    /// `visibility:`), or as it is when that is nil.
    func trusting(_ visibility: Double?) -> SignalContext {
        guard let visibility else { return self }
        var context = self
        context.threshold = visibility
        return context
    }

    /// A side seen less than this on average is not the working side…
    static let workingVisibility = 0.45
    /// …but one seen this much is, when it alone moves.
    static let hiddenWorkingVisibility = 0.2

    /// The rep signal. Reps are counted on movement, and MediaPipe follows the
    /// movement of landmarks it calls hidden (a far arm, a limb behind a bar,
    /// feet at the picture's edge), so landmarks are trusted down to
    /// `countingVisibility` here; a `working` rep signal takes the side that
    /// clearly moves more (at least 1.3 times the spread), else the better seen,
    /// and a `one_limb` one whose limbs take turns, per frame the limb working then;
    /// a `max` or `min` rep signal read from one side alone counts only where
    /// that side is beyond both of the rule's rep levels (the other side may be beyond it).
    /// Its per-side values (for metrics) keep the rule's own threshold.
    func repSeries(_ definition: SignalDefinition, reps: RepRule? = nil) -> SignalSeries {
        let trusted = series(definition)
        var series = counting.series(definition)
        if definition.side == .working || definition.side == .oneLimb, let left = series.left, let right = series.right {
            // A side MediaPipe hardly sees moves with its guesses: it is not the working one,
            // unless one limb may work alone and the side it sees stays still while this one
            // clearly moves (a far arm curling alone).
            let spreads = (left: Self.spread(left), right: Self.spread(right))
            let seen = { (side: BodySide) in
                let visibility = self.meanVisibility(definition, side)
                let (own, other) = side == .left ? spreads : (spreads.right, spreads.left)
                return visibility >= Self.workingVisibility
                    || (definition.side == .oneLimb && visibility >= Self.hiddenWorkingVisibility && other < 0.25 * own)
            }
            let l = seen(.left) ? spreads.left : 0, r = seen(.right) ? spreads.right : 0
            let movesMore: BodySide? = l > 1.3 * r ? .left : r > 1.3 * l ? .right : nil
            let side = movesMore ?? visibleSide(definition)
            series.chosenSide = side
            series.values = side == .left ? left : right
            if let sides = alternating(definition, left, right, reps) {
                // Limbs that take turns (alternating curls), however unequally the view shows their
                // ranges: each limb's reps are counted, on the limb working then.
                series.workingSides = sides
                series.values = Self.values(left, right, on: sides, otherwise: side)
            } else if movesMore == nil, seen(.left), seen(.right), Self.moveTogether(left, right),
               let noise = jitter(left).flatMap({ a in jitter(right).map { (a, $0) } }) {
                // Both limbs seen and working together (a push-up's two elbows): their mean,
                // each weighted by how steady it is, has less of the detector's noise than either.
                let weight = noise.1 * noise.1 / (noise.0 * noise.0 + noise.1 * noise.1)
                series.values = zip(left, right).map { combine($0, $1) { weight * $0 + (1 - weight) * $1 } }
            }
        }
        if let reps, definition.side == .max || definition.side == .min, let left = series.left, let right = series.right {
            let isMax = definition.side == .max
            let beyond = isMax ? Swift.max(reps.rest, reps.active) : Swift.min(reps.rest, reps.active)
            series.values = zip(left, right).map { pair in
                switch pair {
                case let (a?, b?): return isMax ? Swift.max(a, b) : Swift.min(a, b)
                case let (a?, nil), let (nil, a?): return (isMax ? a >= beyond : a <= beyond) ? a : nil
                case (nil, nil): return nil
                }
            }
        }
        series.left = trusted.left
        series.right = trusted.right
        return series
    }

    /// Per frame, the working side of a `one_limb` rep signal whose limbs take turns, both seen
    /// at least `hiddenWorkingVisibility` (a far arm curling in turn is counted on MediaPipe's guesses).
    private func alternating(
        _ definition: SignalDefinition, _ left: [Double?], _ right: [Double?], _ reps: RepRule?
    ) -> [BodySide?]? {
        guard definition.side == .oneLimb, let reps,
              meanVisibility(definition, .left) >= Self.hiddenWorkingVisibility,
              meanVisibility(definition, .right) >= Self.hiddenWorkingVisibility else { return nil }
        return AlternatingLimbs.workingSides(left: left, right: right, turnBelowRest: reps.falls, minSpread: AlternatingLimbs.spreadShare * reps.minRange)
    }

    /// Per frame, the value of the side named there (of `otherwise` where none is).
    private static func values(_ left: [Double?], _ right: [Double?], on sides: [BodySide?], otherwise: BodySide) -> [Double?] {
        sides.indices.map { (sides[$0] ?? otherwise) == .left ? left[$0] : right[$0] }
    }

    /// Two limbs move together when their values, where both are seen, correlate by `togetherCorrelation` or more.
    static let togetherCorrelation = 0.7

    private static func moveTogether(_ left: [Double?], _ right: [Double?]) -> Bool {
        let pairs = zip(left, right).compactMap { pair -> (Double, Double)? in
            guard let a = pair.0, let b = pair.1 else { return nil }
            return (a, b)
        }
        guard pairs.count >= 10 else { return false }
        let n = Double(pairs.count)
        let (ma, mb) = (pairs.reduce(0) { $0 + $1.0 } / n, pairs.reduce(0) { $0 + $1.1 } / n)
        var (sab, saa, sbb) = (0.0, 0.0, 0.0)
        for (a, b) in pairs {
            sab += (a - ma) * (b - mb)
            saa += (a - ma) * (a - ma)
            sbb += (b - mb) * (b - mb)
        }
        guard saa > 0, sbb > 0 else { return false }
        return sab / (saa * sbb).squareRoot() >= togetherCorrelation
    }

    /// The spread of the values seen (10th to 90th percentile); 0 with fewer than half the frames seen.
    private static func spread(_ values: [Double?]) -> Double {
        guard values.lazy.compactMap({ $0 }).count * 2 >= values.count, let range = middleRange(values, atLeast: 2) else { return 0 }
        return range.upperBound - range.lowerBound
    }

    /// The whole series of a signal; a `working` signal other than the rep
    /// signal reads `workingSide` (the rep signal's), else the better-seen side,
    /// and per frame `workingSides` where the rep signal's limbs take turns.
    func series(_ definition: SignalDefinition, workingSide: BodySide? = nil, workingSides: [BodySide?]? = nil) -> SignalSeries {
        let frames = 0..<track.frameCount
        let values = { (side: BodySide) -> [Double?] in
            if case .ratio(let a, let b, let c, let d) = definition.kind { return self.steadyRatio(definition.space, side, a, b, c, d) }
            return frames.map { self.value(definition, side, $0) }
        }
        guard definition.references.contains(where: \.isSided) else {
            return SignalSeries(definition: definition, values: values(.left))
        }
        let left = values(.left)
        let right = values(.right)
        var series = SignalSeries(definition: definition, values: [], left: left, right: right)
        switch definition.side {
        case .left: series.values = left
        case .right: series.values = right
        case .visible, .working, .oneLimb:
            let side = definition.side == .visible ? visibleSide(definition) : workingSide ?? visibleSide(definition)
            series.chosenSide = side
            series.values = side == .left ? left : right
            if definition.side != .visible, let workingSides {
                series.values = Self.values(left, right, on: workingSides, otherwise: side)
            }
        case .min: series.values = zip(left, right).map { combine($0, $1, Swift.min) }
        case .max: series.values = zip(left, right).map { combine($0, $1, Swift.max) }
        case .mean: series.values = zip(left, right).map { combine($0, $1) { ($0 + $1) / 2 } }
        case .ahead:
            let counting = counting
            series.values = frames.map { counting.aheadValue(definition, $0, left: left[$0], right: right[$0]) }
        }
        return series
    }

    /// How far either way a ratio's denominator is steadied: a body width the movement does not change.
    static let steadyWindowMs = 1_000

    /// A ratio per frame, distance a–b over the median of distance c–d within
    /// `steadyWindowMs` either way (in the frame's own space): the denominator is a
    /// width the movement leaves alone (the hips, planted feet), whose jitter alone would move the ratio.
    private func steadyRatio(
        _ space: SignalDefinition.Space, _ side: BodySide,
        _ a: LandmarkReference, _ b: LandmarkReference, _ c: LandmarkReference, _ d: LandmarkReference
    ) -> [Double?] {
        let frames = 0..<track.frameCount
        let spaces = frames.map { resolved(space, $0) }
        func length(_ from: LandmarkReference, _ to: LandmarkReference, _ frame: Int) -> Double? {
            guard let p = point(from, on: side, frame, spaces[frame]), let q = point(to, on: side, frame, spaces[frame]) else { return nil }
            let length = Geometry.length(q - p)
            return length.isFinite ? length : nil
        }
        let widths = frames.map { length(c, d, $0) }
        // One window a space: a frame's width is steadied over the frames measured in its own space.
        var windows = (world: SlidingMedian(), image: SlidingMedian())
        func update(_ frame: Int, _ change: (inout SlidingMedian, Double) -> Void) {
            guard let width = widths[frame] else { return }
            if spaces[frame] == .world { change(&windows.world, width) } else { change(&windows.image, width) }
        }
        return TimeWindow.slide(
            times: track.times, halfWidthMs: Self.steadyWindowMs,
            enter: { update($0) { $0.insert($1) } }, leave: { update($0) { $0.remove($1) } },
            value: { frame -> Double? in
                guard let numerator = length(a, b, frame),
                      let width = (spaces[frame] == .world ? windows.world : windows.image).median, width > 1e-9 else { return nil }
                return numerator / width
            })
    }

    /// An `ahead` signal in one frame: of the sides' trusted values `left` and
    /// `right`, the one whose middle landmark is further ahead of its first, in
    /// the direction the person faces (nil where the limb ahead is hidden); the
    /// smaller of the two where the sides cannot be told apart. Called on the
    /// `counting` context: the sides are told apart on landmarks MediaPipe calls hidden too.
    private func aheadValue(_ definition: SignalDefinition, _ frame: Int, left: Double?, right: Double?) -> Double? {
        guard case .angle(let first, let middle, _) = definition.kind else { return nil }
        let space = resolved(definition.space, frame)
        func lead(_ side: BodySide) -> Double? {
            guard let from = point(first, on: side, frame, space), let to = point(middle, on: side, frame, space) else { return nil }
            return space == .world ? Geometry.dot(Geometry.horizontal(to - from), facing) : (to.x - from.x) * imageFacing
        }
        switch (lead(.left), lead(.right)) {
        case let (l?, r?) where l != r: return l > r ? left : right
        default: return combine(left, right, Swift.min)
        }
    }

    private func combine(_ a: Double?, _ b: Double?, _ both: (Double, Double) -> Double) -> Double? {
        switch (a, b) {
        case let (a?, b?): both(a, b)
        default: a ?? b
        }
    }

    /// The side whose landmarks are seen better over the session.
    func visibleSide(_ definition: SignalDefinition) -> BodySide {
        meanVisibility(definition, .right) > meanVisibility(definition, .left) ? .right : .left
    }

    /// The mean visibility of a signal's sided landmarks on one side, over the frames with a pose.
    private func meanVisibility(_ definition: SignalDefinition, _ side: BodySide) -> Double {
        let slots = definition.references.filter(\.isSided).flatMap { $0.indices(on: side) }.map(track.slot)
        var total = 0.0, count = 0
        for frame in 0..<track.frameCount where track.hasPose[frame] {
            for slot in slots { total += track.visibility(slot, frame) }
            count += slots.count
        }
        return count > 0 ? total / Double(count) : 0
    }

    /// The signal's value on one side in one frame; nil where landmarks are
    /// missing or untrusted, or where absurd coordinates give no finite measure.
    func value(_ definition: SignalDefinition, _ side: BodySide, _ frame: Int) -> Double? {
        guard let value = measure(definition, side, frame), value.isFinite else { return nil }
        return value
    }

    /// World or image coordinates for a frame.
    private func resolved(_ space: SignalDefinition.Space, _ frame: Int) -> SignalDefinition.Space {
        switch space {
        case .world, .image: return space
        case .side: return views.isEmpty || views[frame] != .side ? .world : .image
        case .front: return views.isEmpty || !(views[frame] == .front || views[frame] == .back) ? .world : .image
        }
    }

    private func measure(_ definition: SignalDefinition, _ side: BodySide, _ frame: Int) -> Double? {
        let space = resolved(definition.space, frame)
        func p(_ reference: LandmarkReference) -> Point? { point(reference, on: side, frame, space) }
        switch definition.kind {
        case .angle(let a, let b, let c):
            guard let a = p(a), let b = p(b), let c = p(c) else { return nil }
            return Geometry.angle(a - b, c - b)
        case .incline(let from, let to, let fromHorizontal, let signed):
            guard let from = p(from), let to = p(to), let fromVertical = Geometry.angle(to - from, Geometry.up) else { return nil }
            if fromHorizontal { return abs(90 - fromVertical) }
            guard signed else { return fromVertical }
            let ahead = space == .world ? Geometry.dot(Geometry.horizontal(to - from), facing) : (to.x - from.x) * imageFacing
            return ahead >= 0 ? fromVertical : -fromVertical
        case .between(let a, let b, let c, let d):
            guard let a = p(a), let b = p(b), let c = p(c), let d = p(d) else { return nil }
            return Geometry.angle(b - a, d - c)
        case .offset(let point, let a, let b):
            guard let point = p(point), let a = p(a), let b = p(b),
                  let across = Geometry.perpendicular(point - a, to: b - a) else { return nil }
            return Geometry.dot(across, Geometry.up) / scale(definition.scale, in: space)
        case .height(let a, let b):
            guard let a = p(a), let b = p(b) else { return nil }
            return (a.y - b.y) / scale(definition.scale, in: space)
        case .distance(let a, let b):
            guard let a = p(a), let b = p(b) else { return nil }
            return Geometry.length(b - a) / scale(definition.scale, in: space)
        case .ratio:
            return nil  // read over a steadied denominator, series by series (`steadyRatio`)
        case .wristFlexion:
            let (elbow, wrist) = PoseLandmark.forearm(side)
            guard let elbow = point(elbow, frame, .world), let wrist = point(wrist, frame, .world),
                  let hand = track.handDirection(side, frame) else { return nil }
            return Geometry.angle(wrist - elbow, hand)
        }
    }
}

/// How much a series jitters: the median distance of a value from the cubic
/// through two neighbours on each side, `stride` and twice `stride` frames
/// away, which follows the movement itself, fast or slow (nil with fewer than
/// 10 such frames, or none at all). A stride over one frame also sees noise
/// that drifts over a few frames, as a tracker's does, which next frames share.
func jitter(_ values: [Double?], stride: Int = 1) -> Double? {
    var distances: [Double] = []
    let k = max(1, stride)
    for index in values.indices.dropFirst(2 * k).dropLast(2 * k) {
        guard let a = values[index - 2 * k], let b = values[index - k], let c = values[index],
              let d = values[index + k], let e = values[index + 2 * k] else { continue }
        distances.append(abs(c - (4 * (b + d) - a - e) / 6))
    }
    guard distances.count >= 10, let jitter = median(distances), jitter > 0 else { return nil }
    return jitter
}

/// The values present from the `tail` quantile to the 1 − `tail` one (by default
/// the 10th to the 90th percentile), when at least `count` are; nil otherwise.
func middleRange(_ values: [Double?], atLeast count: Int, tail: Double = 0.1) -> ClosedRange<Double>? {
    var present = values.compactMap { $0 }
    guard present.count >= max(count, 1) else { return nil }
    let size = Double(present.count)
    let (low, high) = (Int(tail * size), min(present.count - 1, Int((1 - tail) * size)))
    present.select(high)
    present.select(low, within: 0..<high)
    return present[low]...present[high]
}

/// The middle of some values, the upper one of an even count (a value that
/// occurs, unlike the median), or nil for none.
func upperMedian<Value: Comparable>(_ values: [Value]) -> Value? {
    guard !values.isEmpty else { return nil }
    var values = values
    values.select(values.count / 2)
    return values[values.count / 2]
}

/// The median of some values, or nil for none.
func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    var values = values
    let upper = values.count / 2
    values.select(upper)
    // The lower middle of an even count is the largest of the values before the upper one.
    return values.count % 2 == 1 ? values[upper] : (values[..<upper].max()! + values[upper]) / 2
}
