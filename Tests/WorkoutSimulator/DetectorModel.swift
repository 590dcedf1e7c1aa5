import Foundation

/// How the pose detector errs in one session, MediaPipe-like: temporally
/// correlated jitter (larger in depth), depth squashed toward the hips, a world
/// scale that is a little off, low visibility for what is hidden or out of frame,
/// short left/right swaps in side views, one-frame glitches and dropped frames.
struct DetectorModel: Sendable {
    /// A stretch of frames where the detector swaps the person's left and right.
    struct Swap: Sendable {
        var frames: Range<Int>
        var pairs: [(Int, Int)]
    }

    /// One frame where a limb jumps.
    struct Glitch: Sendable {
        var frame: Int
        var chain: [Int]
        /// Camera-plane jump, metres.
        var offset: Vec3
    }

    /// Error across the image plane, metres (one standard deviation).
    var jitter: Double
    /// Depth error over image-plane error.
    var depthFactor: Double
    /// Correlation time of the jitter, seconds.
    var correlation: Double
    /// Factor on depth relative to the hips (MediaPipe underestimates depth).
    var depthSquash: Double
    /// Factor on world-landmark size.
    var worldScale: Double
    /// Visibility a fully hidden landmark falls to.
    var hiddenVisibility: Double
    var dropChance: Double
    var bursts: [Range<Int>]
    var swaps: [Swap]
    var glitches: [Glitch]
    /// Chance a visible hand is missed in a frame (misses run on for a few frames).
    var handMiss: Double
    /// Frames where one hand's label is the wrong way round.
    var labelFlips: [(side: BodySide, frames: Range<Int>)]

    static let legPairs = [(23, 24), (25, 26), (27, 28), (29, 30), (31, 32)]
    static let armPairs = [(11, 12), (13, 14), (15, 16), (17, 18), (19, 20), (21, 22)]
    static let facePairs = [(1, 4), (2, 5), (3, 6), (7, 8), (9, 10)]
    static let chains = [[13, 15, 17, 19, 21], [14, 16, 18, 20, 22], [25, 27, 29, 31], [26, 28, 30, 32]]

    static func draw(frames: Int, fps: Double, sideView: Bool, height: Double, _ random: inout SimRandom) -> DetectorModel {
        let seconds = Double(frames) / fps
        func span(_ length: Int) -> Range<Int> {
            let first = random.int(0, max(frames - length - 1, 0))
            return first..<min(first + length, frames)
        }
        let bursts = (0..<random.poisson(seconds / 35)).map { _ in span(max(1, Int(random.uniform(0.2, 1.0) * fps))) }
        let swapRate = sideView ? random.uniform(0.02, 0.12) : random.uniform(0, 0.01)
        let swaps = (0..<random.poisson(seconds * swapRate)).map { _ in
            Swap(frames: span(random.int(2, 6)),
                 pairs: random.weighted([(legPairs, 0.5), (armPairs, 0.2), (legPairs + armPairs + facePairs, 0.3)]))
        }
        let glitches = (0..<random.poisson(seconds * random.uniform(0.01, 0.08))).map { _ in
            Glitch(frame: random.int(0, frames - 1), chain: random.pick(chains),
                   offset: Vec3(random.uniform(-1, 1), random.uniform(-1, 1), 0).unit() * (random.uniform(0.08, 0.22) * height))
        }
        let flips = (0..<random.poisson(seconds / 30)).map { _ in
            (side: random.chance(0.5) ? BodySide.left : .right, frames: span(Int(random.uniform(0.2, 2) * fps)))
        }
        return DetectorModel(
            jitter: random.logUniform(0.004, 0.02), depthFactor: random.uniform(2, 3), correlation: random.uniform(0.05, 0.25),
            depthSquash: random.uniform(0.6, 0.9), worldScale: random.uniform(0.9, 1.1), hiddenVisibility: random.uniform(0.05, 0.4),
            dropChance: random.chance(0.3) ? 0 : random.uniform(0.002, 0.02), bursts: bursts, swaps: swaps, glitches: glitches,
            handMiss: random.uniform(0.02, 0.12), labelFlips: flips)
    }

    var summary: String {
        String(format: "noise %.1f cm (depth ×%.1f, %.0f ms correlated), depth ×%.2f, world scale ×%.2f, hidden visibility %.2f, "
               + "dropouts %.1f%% + %d bursts, %d swaps, %d glitches",
               jitter * 100, depthFactor, correlation * 1000, depthSquash, worldScale, hiddenVisibility, dropChance * 100,
               bursts.count, swaps.count, glitches.count)
    }
}
