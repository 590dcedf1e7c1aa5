/// Short stretches where the pose detector mixed up the person's left and
/// right limbs, found from continuity in the picture. Pure.
///
/// From the side especially, MediaPipe now and then gives the left arm's or
/// legs' landmarks as the right ones for a few frames and back. A switch is a
/// frame whose limbs lie much nearer the previous frame's limbs of the other
/// side than their own; a switch followed by a switch back within `longestMs`
/// is a swap, and its frames are read with the sides exchanged. A longer run is
/// left alone: whether it is the detector's error cannot be told.
struct SideSwaps {
    /// Landmark pairs (left, right) that swap together.
    enum Limbs: CaseIterable {
        case arms, legs

        var pairs: [(Int, Int)] {
            switch self {
            case .arms: [(11, 12), (13, 14), (15, 16), (17, 18), (19, 20), (21, 22)]
            case .legs: [(23, 24), (25, 26), (27, 28), (29, 30), (31, 32)]
            }
        }
    }

    /// The longest swap put right.
    static let longestMs = 400
    /// Neighbouring frames farther apart than this are not compared.
    static let longestStepMs = 150
    /// A switch: the crossed distance under this share of the straight one…
    static let crossedShare = 0.5
    /// …and the straight one at least this share of the person's size per landmark.
    static let smallestJump = 0.04

    /// Per frame, the limbs whose sides are to be exchanged. `pixels` holds each
    /// frame's pose landmarks in pixels (nil without a pose), `sizes` the person's size in pixels.
    static func find(times: [Int], pixels: [[Point]?], sizes: [Double]) -> [Set<Limbs>] {
        var swapped = [Set<Limbs>](repeating: [], count: times.count)
        for limbs in Limbs.allCases {
            var pending: Int?
            var previous: Int?
            for frame in times.indices {
                guard let current = pixels[frame] else { continue }
                defer { previous = frame }
                guard let last = previous, times[frame] - times[last] <= longestStepMs, let before = pixels[last] else {
                    pending = nil
                    continue
                }
                guard isSwitch(limbs, from: before, to: current, size: sizes[frame]) else { continue }
                if let start = pending, times[frame] - times[start] <= longestMs {
                    for inside in start..<frame where pixels[inside] != nil { swapped[inside].insert(limbs) }
                    pending = nil
                } else {
                    pending = frame
                }
            }
        }
        return swapped
    }

    /// Whether the limbs' sides switched between two consecutive frames.
    private static func isSwitch(_ limbs: Limbs, from before: [Point], to current: [Point], size: Double) -> Bool {
        var straight = 0.0, crossed = 0.0
        for (left, right) in limbs.pairs {
            straight += Geometry.length(current[left] - before[left]) + Geometry.length(current[right] - before[right])
        }
        // Most frames move too little to be a switch: the crossed distances are not needed then.
        guard straight / Double(limbs.pairs.count * 2) >= smallestJump * size else { return false }
        for (left, right) in limbs.pairs {
            crossed += Geometry.length(current[left] - before[right]) + Geometry.length(current[right] - before[left])
        }
        return crossed < crossedShare * straight
    }

    /// The landmark read in place of `index` when `limbs` are swapped.
    static func mirrored(_ index: Int, in swapped: Set<Limbs>) -> Int {
        guard !swapped.isEmpty else { return index }
        for limbs in swapped {
            for (left, right) in limbs.pairs {
                if index == left { return right }
                if index == right { return left }
            }
        }
        return index
    }
}
