import Foundation

/// Which way the camera looks at the person, frame by frame, from the world landmarks.
enum CameraViews {
    /// MediaPipe's world depth is compressed (a body turned 90° reads about 60–70°);
    /// depths are divided by this before the body's turn is measured.
    static let depthCompression = 0.7

    /// The view in every frame with a pose: the turn of the shoulders and hips
    /// away from the image plane (side beyond 62°, front under 25°, three-quarter
    /// between), and, short of a side view, the back when the nose is behind the
    /// shoulders and the body's left is on the image's left.
    static func perFrame(_ track: PreparedTrack) -> [CameraView?] {
        let (ls, rs, lh, rh, nose) = (
            track.slot(PoseLandmark.leftShoulder), track.slot(PoseLandmark.rightShoulder), track.slot(PoseLandmark.leftHip),
            track.slot(PoseLandmark.rightHip), track.slot(PoseLandmark.nose))
        return (0..<track.frameCount).map { frame -> CameraView? in
            guard track.hasPose[frame] else { return nil }
            let shoulders = track.world(rs, frame) - track.world(ls, frame)
            let hips = track.world(rh, frame) - track.world(lh, frame)
            func turned(_ across: Point) -> Double { atan2(abs(across.z) / depthCompression, abs(across.x)) * 180 / .pi }
            let turn = (turned(shoulders) + turned(hips)) / 2
            guard turn.isFinite else { return nil }
            if turn > 62 { return .side }
            let midShoulder = (track.world(ls, frame) + track.world(rs, frame)) / 2
            let awayFromCamera = track.world(nose, frame).z - midShoulder.z > 0.02 && shoulders.x > 0
            if awayFromCamera { return .back }
            return turn < 25 ? .front : .threeQuarter
        }
    }

    /// Per frame, the most common view within half a second either way, so that
    /// a frame or two read otherwise does not flip how the frame is measured.
    static func steady(_ views: [CameraView?], times: [Int]) -> [CameraView?] {
        var counts = ViewCounts()
        return TimeWindow.slide(
            times: times, halfWidthMs: 500,
            enter: { if let view = views[$0] { counts.add(view, 1) } },
            leave: { if let view = views[$0] { counts.add(view, -1) } },
            value: { _ in counts.mostCommon })
    }

    /// The most common view among `frames`, or nil when none has one.
    static func dominant(_ views: [CameraView?], in frames: some Sequence<Int>) -> CameraView? {
        ViewCounts(views, in: frames).mostCommon
    }

    /// The views seen among `frames`.
    static func seen(_ views: [CameraView?], in frames: some Sequence<Int>) -> Set<CameraView> {
        ViewCounts(views, in: frames).seen
    }
}

/// Frames counted per view, in a fixed array: views are counted for every
/// frame, and a dictionary would hash each view's name.
private struct ViewCounts {
    private static let views = CameraView.allCases
    private var counts = [Int](repeating: 0, count: views.count)

    init() {}

    /// The views of `frames`, counted.
    init(_ views: [CameraView?], in frames: some Sequence<Int>) {
        for frame in frames { if let view = views[frame] { add(view, 1) } }
    }

    mutating func add(_ view: CameraView, _ frames: Int) {
        switch view {
        case .front: counts[0] += frames
        case .threeQuarter: counts[1] += frames
        case .side: counts[2] += frames
        case .back: counts[3] += frames
        }
    }

    /// The view with the most frames (the first in `CameraView.allCases` on a tie), or nil for none.
    var mostCommon: CameraView? {
        var best: Int?
        for index in counts.indices where counts[index] > (best.map { counts[$0] } ?? 0) { best = index }
        return best.map { Self.views[$0] }
    }

    var seen: Set<CameraView> { Set(counts.indices.filter { counts[$0] > 0 }.map { Self.views[$0] }) }
}
