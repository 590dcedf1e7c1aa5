import Foundation

/// A span of a session left out of scoring, and why.
struct Exclusion: Equatable, Sendable {
    enum Reason: String, Sendable {
        /// Nobody found: title cards, end cards, the person out of the picture.
        case noPose = "no_pose"
        /// Not in the exercise's position (the rule's `position`): standing about before
        /// push-ups, getting down, talking to the camera.
        case notExercise = "not_exercise"
        /// Walking: the hips travel across the picture (walking in, walking a bar
        /// out), or feet the rule keeps planted step (out of a rack).
        case setup
        /// The pose comes and goes: the person is lost again and again (occluded,
        /// blurred); what MediaPipe finds in between is not to be trusted.
        case unreliable
    }

    var frames: ClosedRange<Int>
    var reason: Reason

    /// Whether the person was lost here (nobody found, or found unreliably), rather
    /// than left out for what they did.
    var isLoss: Bool { reason == .noPose || reason == .unreliable }

    /// Whether no rep may span it: every kind of span but a short loss of the
    /// person (`isLoss`, lasting at most `maxGapMs`), which is a gap in the
    /// signal like any other — the person went on moving while the detector
    /// lost them, and what it found in between is not read.
    func breaksReps(maxGapMs: Int, times: [Int]) -> Bool {
        !isLoss || ExclusionFinder.duration(of: frames, times: times) > maxGapMs
    }
}

/// Finds the spans where the person is not doing the exercise. Pure.
struct ExclusionFinder {
    /// Nobody in the picture for this long is a span of its own.
    static let noPoseMs = 1000
    /// Losing the pose this many times within `flickerMs`, missing it in at least
    /// `flickerShare` of the frames from the first loss to the last, with the
    /// trunk jumping somewhere in between — `jumpSize` body sizes or more from one
    /// frame with a pose to the next, and faster than `jumpSpeed` sizes a second —
    /// makes the span unreliable.
    static let flickerLosses = 2
    static let flickerMs = 1000
    static let flickerShare = 0.25
    static let jumpSize = 0.15
    static let jumpSpeed = 1.5
    /// Out of position this long is left out; shorter slips are kept.
    static let outOfPositionMs = 700
    /// Hips that end up this many body sizes (the mean side of the person's
    /// bounding box) away from where they were `travelMs` before are walking;
    /// the hips of a squat or a push-up move and come back.
    static let travelDistance = 0.6
    static let travelMs = 1000
    /// Where the rule's feet stay planted, one ankle moving this many body sizes
    /// against the other in `travelMs` is a step (out of a rack, into place).
    /// Read on ankles seen at `feetSeen` or more.
    static let stepDistance = 0.3
    static let feetSeen = 0.5
    static let steadyMs = 100
    /// A step is left out from this long before the feet's spacing first changes.
    static let stepLeadMs = 150
    /// Hips within this many body sizes of a place are still there.
    static let stillDistance = 0.1

    let track: PreparedTrack
    let times: [Int]
    /// Whether a walk is marked from where the hips leave to where they arrive,
    /// rather than over the whole `travelMs` in which they travelled. A hold's
    /// time runs up to the moment the person moves, while the second around a
    /// walk before reps is as well left out (getting down, picking up a bar).
    var walkOnly = false

    /// Every excluded span, in time order; frames in two kinds of span get the first found.
    func find(position: [PointCondition], series: [String: SignalSeries], travelAllowed: Bool, feetPlanted: Bool) -> [Exclusion] {
        var spans = runs(of: times.indices.map { !track.hasPose[$0] }, atLeast: Self.noPoseMs).map {
            Exclusion(frames: $0, reason: .noPose)
        }
        spans += flickering().map { Exclusion(frames: $0, reason: .unreliable) }
        if !position.isEmpty {
            let out = times.indices.map { frame in
                position.contains { condition in
                    guard let value = series[condition.signal]?.values[frame] else { return false }
                    return !condition.bound.isMet(by: value)
                }
            }
            spans += runs(of: out, atLeast: Self.outOfPositionMs).map { Exclusion(frames: $0, reason: .notExercise) }
        }
        if !travelAllowed {
            spans += runs(of: travelling(), atLeast: Self.travelMs).map { Exclusion(frames: $0, reason: .setup) }
        }
        if feetPlanted {
            spans += runs(of: stepping(), atLeast: Self.travelMs).map { Exclusion(frames: $0, reason: .setup) }
        }
        return Self.disjoint(spans)
    }

    /// Frames where the hips travel `travelDistance` or more across the picture
    /// in `travelMs` — the person's own size in the picture the measure.
    private func travelling() -> [Bool] {
        guard let size = typicalSize else { return times.map { _ in false } }
        let hips = midpoints(PoseLandmark.leftHip, PoseLandmark.rightHip)
        return marked(hips, size: size, by: { abs($0.x - $1.x) }, atLeast: Self.travelDistance, from: walkOnly ? .walk : .window)
    }

    /// Frames where the feet step: one ankle moves `stepDistance` body sizes or
    /// more against the other in `travelMs` (both seen at `feetSeen`, and in the
    /// picture: MediaPipe guesses feet below its edge at visibilities up to 0.7,
    /// wandering and crossing, when the framing cuts the person off). Read as
    /// how far apart the feet are across and down the picture, so a camera that
    /// pans moves nothing and nor do left and right mistaken for each other, and
    /// as the median within `steadyMs`, so a landmark's jump for a frame or
    /// two moves nothing either.
    private func stepping() -> [Bool] {
        let (left, right) = (track.slot(PoseLandmark.leftAnkle), track.slot(PoseLandmark.rightAnkle))
        guard let size = typicalSize, left >= 0, right >= 0 else { return times.map { _ in false } }
        let apart = times.indices.map { frame -> Point? in
            guard track.hasPose[frame], track.visibility(left, frame) >= Self.feetSeen, track.visibility(right, frame) >= Self.feetSeen,
                  track.inPicture(left, frame), track.inPicture(right, frame) else { return nil }
            let apart = track.image(left, frame) - track.image(right, frame)
            return Point(abs(apart.x), abs(apart.y), 0)
        }
        return marked(steady(apart), size: size, by: { Geometry.length($0 - $1) }, atLeast: Self.stepDistance, from: .firstMove)
    }

    /// Each frame's place as the median, axis by axis, of the places within `steadyMs` of it.
    private func steady(_ places: [Point?]) -> [Point?] {
        var (first, last) = (0, 0)
        var (xs, ys) = ([Double](), [Double]())
        return times.indices.map { frame in
            guard places[frame] != nil else { return nil }
            while times[frame] - times[first] > Self.steadyMs { first += 1 }
            while last + 1 < times.count, times[last + 1] - times[frame] <= Self.steadyMs { last += 1 }
            xs.removeAll(keepingCapacity: true)
            ys.removeAll(keepingCapacity: true)
            for case let place? in places[first...last] {
                xs.append(place.x)
                ys.append(place.y)
            }
            xs.sort()
            ys.sort()
            return Point(xs[xs.count / 2], ys[ys.count / 2], 0)
        }
    }

    /// The median size of the person in the picture, when they are found at all.
    private var typicalSize: Double? {
        median(times.indices.filter { track.hasPose[$0] }.map { track.bodySize[$0] }).flatMap { $0 > 1 ? $0 : nil }
    }

    /// The image midpoint of two landmarks in each frame with a pose.
    private func midpoints(_ a: Int, _ b: Int) -> [Point?] {
        let (sa, sb) = (track.slot(a), track.slot(b))
        return times.indices.map { frame in track.hasPose[frame] ? (track.image(sa, frame) + track.image(sb, frame)) / 2 : nil }
    }

    /// Where a move's marked frames begin.
    private enum MoveStart {
        /// The whole `travelMs` in which it moved.
        case window
        /// Where the place last was at the start, up to where it first reached its end: the walk alone.
        case walk
        /// From `stepLeadMs` before the place first left the start, to the end: the feet's
        /// steps and the weight shifting onto one foot before them, but not the end of a
        /// rep's rise a moment before (their spacing comes and goes as they pass).
        case firstMove
    }

    /// Frames of each move of `places` by `distance` body sizes or more within
    /// `travelMs` (at least half of it seen), measured by `by`.
    private func marked(
        _ places: [Point?], size: Double, by apart: @escaping (Point, Point) -> Double, atLeast distance: Double, from moveStart: MoveStart
    ) -> [Bool] {
        var moving = [Bool](repeating: false, count: times.count)
        var earlier = 0
        for frame in times.indices {
            guard let place = places[frame] else { continue }
            while times[frame] - times[earlier] > Self.travelMs { earlier += 1 }
            guard let from = (earlier..<frame).first(where: { places[$0] != nil }), let start = places[from],
                  times[frame] - times[from] >= Self.travelMs / 2 else { continue }
            guard apart(place, start) / size >= distance else { continue }
            var walk = from...frame
            let near = { (frame: Int, there: Point) in places[frame].map { apart($0, there) / size < Self.stillDistance } ?? false }
            switch moveStart {
            case .window: break
            case .walk:
                let left = walk.last { near($0, start) } ?? from
                walk = left...((left...frame).first { near($0, place) } ?? frame)
            case .firstMove:
                let moved = walk.first { places[$0] != nil && !near($0, start) } ?? from
                walk = (walk.first { times[moved] - times[$0] <= Self.stepLeadMs } ?? moved)...frame
            }
            for marked in walk { moving[marked] = true }
        }
        return moving
    }

    /// Spans where the pose was lost `flickerLosses` times or more within
    /// `flickerMs`, missing in `flickerShare` of the frames, and the trunk jumped
    /// in between (MediaPipe losing the person and finding them somewhere else):
    /// from the first of those losses to the end of the last. Dropped frames
    /// around a person who moves smoothly are no flicker.
    private func flickering() -> [ClosedRange<Int>] {
        // Where each loss (a run of frames without a pose) starts and ends.
        var losses: [ClosedRange<Int>] = []
        var start: Int?
        for frame in times.indices {
            if !track.hasPose[frame] {
                if start == nil { start = frame }
            } else if let first = start {
                losses.append(first...(frame - 1))
                start = nil
            }
        }
        var spans: [ClosedRange<Int>] = []
        var first = 0
        for last in losses.indices {
            while times[losses[last].lowerBound] - times[losses[first].lowerBound] > Self.flickerMs { first += 1 }
            guard last - first + 1 >= Self.flickerLosses else { continue }
            let span = losses[first].lowerBound...losses[last].upperBound
            let missing = losses[first...last].reduce(0) { $0 + $1.count }
            guard Double(missing) >= Self.flickerShare * Double(span.count), jumps(within: span) else { continue }
            if let previous = spans.last, previous.upperBound >= span.lowerBound - 1 {
                spans[spans.count - 1] = previous.lowerBound...span.upperBound
            } else {
                spans.append(span)
            }
        }
        return spans
    }

    /// Whether the trunk (shoulders and hips) jumps between two consecutive frames
    /// with a pose in `span` (or next to it): `BodyMotion.jumps`.
    private func jumps(within span: ClosedRange<Int>) -> Bool {
        var previous: (frame: Int, centre: Point)?
        for frame in max(0, span.lowerBound - 1)...min(times.count - 1, span.upperBound + 1) {
            guard let centre = BodyMotion.trunkCentre(track, frame) else { continue }
            if let previous, BodyMotion.jumps(track, from: previous, to: (frame, centre)) { return true }
            previous = (frame, centre)
        }
        return false
    }

    /// Runs of true frames lasting at least `milliseconds` (from the frame before to the frame after).
    private func runs(of flags: [Bool], atLeast milliseconds: Int) -> [ClosedRange<Int>] {
        var result: [ClosedRange<Int>] = []
        var start: Int?
        for frame in 0...flags.count {
            let flagged = frame < flags.count && flags[frame]
            if flagged, start == nil { start = frame }
            if !flagged, let first = start {
                if Self.duration(of: first...(frame - 1), times: times) >= milliseconds { result.append(first...(frame - 1)) }
                start = nil
            }
        }
        return result
    }

    /// How long a span of frames lasts: from the frame before it to the frame after it.
    static func duration(of frames: ClosedRange<Int>, times: [Int]) -> Int {
        times[min(times.count - 1, frames.upperBound + 1)] - times[max(0, frames.lowerBound - 1)]
    }

    /// Spans in time order, with overlaps given to the earlier-found kind and
    /// touching spans of one kind joined.
    private static func disjoint(_ spans: [Exclusion]) -> [Exclusion] {
        var taken: [Exclusion] = []
        for span in spans {
            var pieces = [span.frames]
            for other in taken {
                pieces = pieces.flatMap { piece -> [ClosedRange<Int>] in
                    guard piece.overlaps(other.frames) else { return [piece] }
                    var rest: [ClosedRange<Int>] = []
                    if piece.lowerBound < other.frames.lowerBound { rest.append(piece.lowerBound...(other.frames.lowerBound - 1)) }
                    if piece.upperBound > other.frames.upperBound { rest.append((other.frames.upperBound + 1)...piece.upperBound) }
                    return rest
                }
            }
            taken += pieces.map { Exclusion(frames: $0, reason: span.reason) }
        }
        // The hips travelling as the feet step: one span of set-up, not two.
        var merged: [Exclusion] = []
        for span in taken.sorted(by: { $0.frames.lowerBound < $1.frames.lowerBound }) {
            if let last = merged.last, last.reason == span.reason, last.frames.upperBound + 1 >= span.frames.lowerBound {
                merged[merged.count - 1].frames = last.frames.lowerBound...max(last.frames.upperBound, span.frames.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}
