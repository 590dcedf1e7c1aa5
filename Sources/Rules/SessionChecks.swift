import Foundation

/// Checks of a whole session: which way the camera looks, which landmarks are
/// hard to see, and where the rule could not score.
enum SessionChecks {
    /// Side when the shoulders and hips line up with the camera's axis, front
    /// when they lie across it; from the world landmarks' depth. The far side is
    /// often hidden in a side view, so hidden landmarks count here: MediaPipe
    /// still places them, and the view is what hides them.
    static func view(_ context: SignalContext) -> CameraView {
        let track = context.track
        var angles: [Double] = []
        for frame in 0..<track.frameCount where track.hasPose[frame] {
            let (ls, rs) = (track.world[track.slot(11)][frame], track.world[track.slot(12)][frame])
            let (lh, rh) = (track.world[track.slot(23)][frame], track.world[track.slot(24)][frame])
            let pairs = [ls - rs, lh - rh].map { atan2(abs($0.z), abs($0.x)) * 180 / .pi }
            angles.append(pairs.reduce(0, +) / 2)
        }
        guard let typical = median(angles) else { return .any }
        return typical >= 55 ? .side : typical <= 35 ? .front : .oblique
    }

    /// "low_visibility: left ankle hidden in 40% of frames", for the landmarks
    /// the signals read that are hidden in more than a fifth of the frames.
    static func visibilityWarnings(_ series: [SignalSeries], _ context: SignalContext) -> [String] {
        var indices = Set<Int>()
        for signal in series {
            let sides: [BodySide] = switch signal.definition.side {
            case .left: [.left]
            case .right: [.right]
            case .visible: [signal.chosenSide ?? .left]
            case .min, .max, .mean: [.left, .right]
            }
            for reference in signal.definition.references {
                for side in sides { indices.formUnion(reference.indices(on: side)) }
            }
        }
        let track = context.track
        let posed = (0..<track.frameCount).filter { track.hasPose[$0] }
        guard !posed.isEmpty else { return [] }
        return indices.sorted().compactMap { index in
            let slot = track.slot(index)
            let hidden = posed.filter { track.visibility[slot][$0] < context.threshold }.count
            let share = Double(hidden) / Double(posed.count)
            guard share > 0.2 else { return nil }
            return "low_visibility: \(PoseLandmarkName.spoken(index)) hidden in \(Int((share * 100).rounded()))% of frames"
        }
    }

    /// "unscorable: 2.1–4.6 s without knee", for gaps in the key signal of a second or more.
    static func gapWarnings(_ gaps: [ClosedRange<Int>], signal: SignalSeries, times: [Int]) -> [String] {
        let landmarks = Set(signal.definition.references.flatMap { $0.indices(on: signal.chosenSide ?? .left) })
            .sorted().map(PoseLandmarkName.spoken)
        return gaps.filter { times[$0.upperBound] - times[$0.lowerBound] >= 1000 }.map { gap in
            String(
                format: "unscorable: %.1f–%.1f s without %@ (needs %@ in view)", Double(times[gap.lowerBound]) / 1000,
                Double(times[gap.upperBound]) / 1000, signal.definition.name, landmarks.joined(separator: ", "))
        }
    }

    /// Gaps where a signal has no value for longer than `limitMs`, including at the ends.
    static func gaps(in values: [Double?], times: [Int], longerThan limitMs: Int) -> [ClosedRange<Int>] {
        var gaps: [ClosedRange<Int>] = []
        var lastValid: Int?
        for frame in times.indices where values[frame] != nil {
            let from = lastValid ?? 0
            if times[frame] - times[from] > limitMs { gaps.append(from...frame) }
            lastValid = frame
        }
        if let last = times.indices.last {
            let from = lastValid ?? 0
            if times[last] - times[from] > limitMs { gaps.append(from...last) }
        }
        return gaps
    }
}
