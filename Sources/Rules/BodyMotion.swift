/// How fast the trunk moves in the picture, frame by frame: the shoulders' and
/// hips' midpoints, over a second, in the person's own size (the mean
/// side of their bounding box) per second. A held position is still; getting
/// into it, walking or adjusting is not.
enum BodyMotion {
    static let windowMs = 500

    static func speeds(_ track: PreparedTrack) -> [Double?] {
        let (ls, rs, lh, rh) = (track.slot(PoseLandmark.leftShoulder), track.slot(PoseLandmark.rightShoulder), track.slot(PoseLandmark.leftHip), track.slot(PoseLandmark.rightHip))
        let times = track.times
        let trunk: [Point?] = times.indices.map { frame in
            guard track.hasPose[frame] else { return nil }
            return (track.image[ls][frame] + track.image[rs][frame] + track.image[lh][frame] + track.image[rh][frame]) / 4
        }
        var speeds = [Double?](repeating: nil, count: times.count)
        var low = 0, high = 0
        for frame in times.indices {
            guard trunk[frame] != nil, track.bodySize[frame] > 1 else { continue }
            while times[frame] - times[low] > windowMs { low += 1 }
            high = max(high, frame)
            while high + 1 < times.count, times[high + 1] - times[frame] <= windowMs { high += 1 }
            guard let from = (low...frame).first(where: { trunk[$0] != nil }), let to = (frame...high).last(where: { trunk[$0] != nil }),
                  to > from else { continue }
            let seconds = Double(times[to] - times[from]) / 1000
            speeds[frame] = Geometry.length(trunk[to]! - trunk[from]!) / track.bodySize[frame] / seconds
        }
        return speeds
    }
}
