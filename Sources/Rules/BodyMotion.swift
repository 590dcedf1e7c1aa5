/// How fast the body moves in the picture, frame by frame, in the person's own
/// size (the mean side of their bounding box) per second. A held position is
/// still; getting into it, walking or adjusting is not.
enum BodyMotion {
    /// Over a second around the frame: whether a position is held at all.
    static let holdingWindowMs = 500
    /// Over the 400 ms after a hold's first frame (or before its last): where it has settled.
    static let settlingWindowMs = 400
    /// The landmarks whose movement says a hold has not settled: the trunk and the legs.
    static let settlingLandmarks = [
        PoseLandmark.leftShoulder, PoseLandmark.rightShoulder, PoseLandmark.leftHip, PoseLandmark.rightHip,
        PoseLandmark.leftKnee, PoseLandmark.rightKnee, PoseLandmark.leftAnkle, PoseLandmark.rightAnkle,
    ]

    /// The trunk's midpoint (shoulders and hips) in the picture, per frame with a
    /// pose, and the sum of its jumps up to each frame (`jumps`): the video cut to
    /// another camera, or a one-frame glitch. Positions less these run on across a
    /// cut: a plank filmed from two angles is held through the cut between them.
    struct TrunkPath {
        let centres: [Point?]
        let cutShifts: [Point]

        init(_ track: PreparedTrack) {
            centres = track.times.indices.map { BodyMotion.trunkCentre(track, $0) }
            var shifts = [Point](repeating: .zero, count: centres.count)
            var total = Point.zero
            var previous: Int?
            for frame in centres.indices {
                if let centre = centres[frame] {
                    if let before = previous, BodyMotion.jumps(track, from: (before, centres[before]!), to: (frame, centre)) {
                        total += centre - centres[before]!
                    }
                    previous = frame
                }
                shifts[frame] = total
            }
            cutShifts = shifts
        }
    }

    /// The midpoint of the shoulders and hips in the picture; nil without a pose.
    static func trunkCentre(_ track: PreparedTrack, _ frame: Int) -> Point? {
        guard track.hasPose[frame] else { return nil }
        let (ls, rs, lh, rh) = (track.slot(PoseLandmark.leftShoulder), track.slot(PoseLandmark.rightShoulder), track.slot(PoseLandmark.leftHip), track.slot(PoseLandmark.rightHip))
        return (track.image(ls, frame) + track.image(rs, frame) + track.image(lh, frame) + track.image(rh, frame)) / 4
    }

    /// Whether the trunk jumped between two frames with a pose: `ExclusionFinder.jumpSize`
    /// body sizes or more, faster than `ExclusionFinder.jumpSpeed` sizes a second.
    static func jumps(_ track: PreparedTrack, from before: (frame: Int, centre: Point), to after: (frame: Int, centre: Point)) -> Bool {
        guard track.bodySize[after.frame] > 1, track.times[after.frame] > track.times[before.frame] else { return false }
        let moved = Geometry.length(after.centre - before.centre) / track.bodySize[after.frame]
        let seconds = Double(track.times[after.frame] - track.times[before.frame]) / 1000
        return moved >= ExclusionFinder.jumpSize && moved / seconds > ExclusionFinder.jumpSpeed
    }

    /// The trunk's speed over `holdingWindowMs` either side of each frame, its
    /// jumps at cuts left out.
    static func speeds(_ track: PreparedTrack, _ path: TrunkPath) -> [Double?] {
        let times = track.times
        let trunk = path.centres.enumerated().map { frame, centre in centre.map { $0 - path.cutShifts[frame] } }
        var speeds = [Double?](repeating: nil, count: times.count)
        var low = 0, high = 0
        for frame in times.indices {
            guard trunk[frame] != nil, track.bodySize[frame] > 1 else { continue }
            while times[frame] - times[low] > holdingWindowMs { low += 1 }
            high = max(high, frame)
            while high + 1 < times.count, times[high + 1] - times[frame] <= holdingWindowMs { high += 1 }
            guard let from = (low...frame).first(where: { trunk[$0] != nil }), let to = (frame...high).last(where: { trunk[$0] != nil }),
                  to > from else { continue }
            let seconds = Double(times[to] - times[from]) / 1000
            speeds[frame] = Geometry.length(trunk[to]! - trunk[from]!) / track.bodySize[frame] / seconds
        }
        return speeds
    }

    /// With at least this many of the landmarks seen, their common shift may be
    /// the camera panning: `HoldDetector.Speeds.body` leaves it out.
    static let panLandmarks = 4

    /// How fast the body still moves into a position (`ahead`: over the next
    /// `settlingWindowMs`) and out of it (`behind`: over the last): the mean
    /// speed of the trunk's and legs' landmarks seen at both ends (visibility at
    /// least `visibility`), in body sizes a second. Straightening the knees onto
    /// the toes moves the legs, not the trunk.
    /// The landmarks' movements leave out the trunk's jumps at cuts (`path`).
    static func settling(_ track: PreparedTrack, visibility: Double, _ path: TrunkPath) -> HoldDetector.Settling {
        let cuts = path.cutShifts
        return (
            ahead: settlingSpeeds(track, ahead: true, visibility: visibility, cuts: cuts),
            behind: settlingSpeeds(track, ahead: false, visibility: visibility, cuts: cuts))
    }

    /// `cuts`: the trunk's `TrunkPath.cutShifts`, left out of every landmark's movement.
    private static func settlingSpeeds(_ track: PreparedTrack, ahead: Bool, visibility: Double, cuts: [Point]) -> HoldDetector.Speeds {
        let slots = settlingLandmarks.map(track.slot).filter { $0 >= 0 }
        let times = track.times
        var picture = [Double?](repeating: nil, count: times.count), body = picture
        for frame in times.indices where track.hasPose[frame] && track.bodySize[frame] > 1 {
            let window = ahead
                ? (frame + 1..<times.count).prefix { times[$0] - times[frame] <= settlingWindowMs }.last { track.hasPose[$0] }
                : (0..<frame).reversed().prefix { times[frame] - times[$0] <= settlingWindowMs }.last { track.hasPose[$0] }
            guard let other = window else { continue }
            let seen = slots.filter { track.visibility($0, frame) >= visibility && track.visibility($0, other) >= visibility }
            guard !seen.isEmpty else { continue }
            let shifts = seen.map { track.image($0, other) - track.image($0, frame) - (cuts[other] - cuts[frame]) }
            let pan = seen.count >= panLandmarks ? shifts.reduce(.zero, +) / Double(seen.count) : .zero
            let perSecond = track.bodySize[frame] * Double(abs(times[other] - times[frame])) / 1000
            picture[frame] = shifts.reduce(0.0) { $0 + Geometry.length($1) } / Double(seen.count) / perSecond
            body[frame] = shifts.reduce(0.0) { $0 + Geometry.length($1 - pan) } / Double(seen.count) / perSecond
        }
        return (picture, body)
    }
}
