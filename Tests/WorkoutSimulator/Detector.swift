import Foundation
import LandmarkTracks

/// The detector at work through a session: carries its correlated errors from
/// frame to frame and turns true skeletons into track frames (MediaPipe's conventions).
struct Detector {
    let body: BodyShape
    let withHands: Bool
    private var random: SimRandom
    private var errors = [Vec3](repeating: .zero, count: 33)
    private var visibilityNoise = [Double](repeating: 0, count: 33)
    private var handErrors = [Vec3](repeating: .zero, count: 42)
    private var handDrift = [Vec3.zero, .zero]
    private var handMissing = [false, false]
    private var handScore = [0.9, 0.9]
    private var handPoints = [Vec3](repeating: .zero, count: 21)
    private var lastTime: Double?
    private var lastOcclusion = -Double.infinity
    // Per-frame working space, kept between frames.
    private var camera = [Vec3](repeating: .zero, count: 33)
    private var noisy = [Vec3](repeating: .zero, count: 33)
    private var hidden = [Double](repeating: 0, count: 33)
    private var outside = [Double](repeating: 0, count: 33)
    private var visibility = [Double](repeating: 0, count: 33)
    private var presence = [Double](repeating: 0, count: 33)
    // The model's rates, and its events by frame (copied out: debug builds would copy the whole model at each use).
    private let jitter: Double, depthFactor: Double, correlation: Double, hiddenVisibility: Double, dropChance: Double
    private let depthSquash: Double, worldScale: Double, handMiss: Double
    private let lostFrames: Set<Int>
    private let glitchAt: [Int: DetectorModel.Glitch]
    private let swapsAt: [Int: [(Int, Int)]]
    /// Frames where the left (index 0) or right (1) hand's label is the wrong way round.
    private let flippedAt: [Set<Int>]

    /// Jitter of each landmark relative to the model's: face steadiest, hands and feet least steady.
    private static let spread: [Double] = [0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.7, 0.7, 0.6, 0.6, 0.8, 0.8, 1.0, 1.0, 1.3, 1.3,
                                           1.6, 1.6, 1.6, 1.6, 1.6, 1.6, 1.1, 1.1, 1.0, 1.0, 1.2, 1.2, 1.4, 1.4, 1.4, 1.4]

    init(model: DetectorModel, body: BodyShape, withHands: Bool, random: SimRandom) {
        self.body = body
        self.withHands = withHands
        self.random = random
        (jitter, depthFactor, correlation) = (model.jitter, model.depthFactor, model.correlation)
        (hiddenVisibility, dropChance) = (model.hiddenVisibility, model.dropChance)
        (depthSquash, worldScale, handMiss) = (model.depthSquash, model.worldScale, model.handMiss)
        lostFrames = Set(model.bursts.flatMap { $0 })
        glitchAt = Dictionary(model.glitches.map { ($0.frame, $0) }, uniquingKeysWith: { first, _ in first })
        var swaps: [Int: [(Int, Int)]] = [:]
        for swap in model.swaps {
            for frame in swap.frames { swaps[frame, default: []].append(contentsOf: swap.pairs) }
        }
        swapsAt = swaps
        flippedAt = BodySide.both.map { side in Set(model.labelFlips.filter { $0.side == side }.flatMap { $0.frames }) }
    }

    /// Frame number `frame`, at `ms` milliseconds (`t` seconds).
    mutating func observe(frame: Int, ms: Int, at t: Double, _ skeleton: Skeleton, _ view: CameraView) -> LandmarkTrackFrame {
        let step = lastTime.map { t - $0 } ?? 10
        lastTime = t
        let keep = exp(-step / correlation), kick = (1 - keep * keep).squareRoot()
        let keepVisibility = exp(-step / 0.4), kickVisibility = (1 - keepVisibility * keepVisibility).squareRoot()
        for i in 0..<33 { camera[i] = view.local(skeleton.points[i]) }
        // What hides what changes slowly: look again every 120 ms or so.
        if t - lastOcclusion >= 0.12 {
            occlusion(into: &hidden, skeleton, camera, view, body)
            lastOcclusion = t
        }
        var inFrame = 0
        for i in 0..<33 {
            // How far outside the frame, in frame widths or heights (1 behind the camera).
            let c = camera[i], (x, y) = view.image(c)
            let across = x < 0 ? -x : x > 1 ? x - 1 : 0, down = y < 0 ? -y : y > 1 ? y - 1 : 0
            let out = c.z < 0.1 ? 1 : across > down ? across : down
            outside[i] = out
            if out == 0 { inFrame += 1 }
            let cover = hidden[i], spread = Self.spread[i]
            let sigma = kick * jitter * spread * (1 + 1.5 * cover) * (out > 0 ? 2 : 1)
            let e = errors[i], (a, b, d, v) = random.flat4()
            let error = Vec3(e.x * keep + sigma * a, e.y * keep + sigma * b, e.z * keep + sigma * depthFactor * d)
            errors[i] = error
            let wobble = visibilityNoise[i] * keepVisibility + kickVisibility * 0.03 * v
            visibilityNoise[i] = wobble
            noisy[i] = Vec3(c.x + error.x, c.y + error.y, c.z + error.z)
            let fade = out == 0 ? 1 : exp(-out / 0.04), fadePresence = out == 0 ? 1 : exp(-out / 0.1)
            visibility[i] = clamp(0.985 - 0.02 * spread - (0.985 - hiddenVisibility) * cover + wobble, 0, 1) * fade
            presence[i] = clamp(0.995 - 0.25 * cover + wobble, 0, 1) * fadePresence
        }
        if let glitch = glitchAt[frame] {
            for i in glitch.chain { noisy[i] = noisy[i] + glitch.offset }
        }
        for (a, b) in swapsAt[frame] ?? [] {
            noisy.swapAt(a, b)
            visibility.swapAt(a, b)
            presence.swapAt(a, b)
        }
        var trunkInFrame = 0
        for i in [11, 12, 23, 24] where outside[i] < 0.05 { trunkInFrame += 1 }
        let lost = random.chance(dropChance) || lostFrames.contains(frame) || inFrame < 12 || trunkInFrame < 2
        let hands = withHands ? observeHands(frame, skeleton, view, step) : nil
        return LandmarkTrackFrame(timestampMilliseconds: ms, poses: lost ? [] : [pose(view)], hands: hands)
    }

    /// Image and world landmarks from noisy camera coordinates.
    private func pose(_ view: CameraView) -> TrackPose {
        let hipMid = (noisy[23] + noisy[24]) * 0.5
        let depthScale = depthSquash * view.focal / (max(hipMid.z, 0.3) * view.width)
        let fx = view.focal / view.width, fy = view.focal / view.height
        var image: [TrackLandmark] = [], world: [TrackLandmark] = []
        image.reserveCapacity(33)
        world.reserveCapacity(33)
        for i in 0..<33 {
            let c = noisy[i], depth = c.z > 0.05 ? c.z : 0.05
            let v = Float(visibility[i]), p = Float(presence[i]), dz = c.z - hipMid.z
            image.append(TrackLandmark(x: Float(fx * c.x / depth + 0.5), y: Float(fy * c.y / depth + 0.5), z: Float(dz * depthScale),
                                       visibility: v, presence: p))
            world.append(TrackLandmark(x: Float((c.x - hipMid.x) * worldScale), y: Float((c.y - hipMid.y) * worldScale),
                                       z: Float(dz * worldScale * depthSquash), visibility: v, presence: p))
        }
        return TrackPose(landmarks: image, world: world)
    }

    /// The hands found: in frame, not hidden behind the body, not missed; labelled as if
    /// the image were mirrored (the person's left hand is "Right"), now and then the wrong way.
    private mutating func observeHands(_ frame: Int, _ skeleton: Skeleton, _ view: CameraView, _ step: Double) -> [TrackHand] {
        let keep = exp(-step / 0.12), kick = (1 - keep * keep).squareRoot()
        let scale = body.height / 1.75
        var found: [TrackHand] = []
        for number in 0..<2 {
            let wrist = 15 + number, side: BodySide = number == 0 ? .left : .right
            handMissing[number] = random.chance(handMissing[number] ? 0.75 : handMiss)
            let d = handDrift[number]
            handDrift[number] = Vec3(d.x * keep + kick * 0.006 * scale * random.flat(), d.y * keep + kick * 0.006 * scale * random.flat(),
                                     d.z * keep + kick * 0.015 * scale * random.flat())
            handScore[number] = clamp(handScore[number] * 0.95 + 0.05 * random.uniform(0.75, 1.0), 0.5, 1)
            guard !handMissing[number], outside[wrist] == 0, hidden[wrist] < 0.7 else { continue }
            let label = side.isLeft != flippedAt[number].contains(frame) ? "Right" : "Left"
            found.append(hand(number, label: label, score: handScore[number] * (1 - 0.3 * hidden[wrist]), skeleton, view, keep, kick))
        }
        if found.count == 2 && random.chance(0.3) { found.swapAt(0, 1) }
        return found
    }

    /// One hand as found: its points with their own correlated jitter, image z relative to the
    /// wrist, world points around the hand's centre (all along the camera's axes).
    private mutating func hand(_ number: Int, label: String, score: Double, _ skeleton: Skeleton, _ view: CameraView,
                               _ keep: Double, _ kick: Double) -> TrackHand {
        let first = number * 21, drift = handDrift[number]
        var centre = Vec3.zero
        for k in 0..<21 {
            let e = handErrors[first + k], (a, b, c, _) = random.flat4()
            let error = Vec3(e.x * keep + kick * 0.003 * a, e.y * keep + kick * 0.003 * b, e.z * keep + kick * 0.006 * c)
            handErrors[first + k] = error
            let point = view.local(skeleton.hands[first + k]) + drift + error
            handPoints[k] = point
            centre += point * (1.0 / 21)
        }
        let root = handPoints[0], depthScale = depthSquash * view.focal / (max(root.z, 0.3) * view.width)
        var image: [TrackLandmark] = [], world: [TrackLandmark] = []
        image.reserveCapacity(21)
        world.reserveCapacity(21)
        for k in 0..<21 {
            let c = handPoints[k], (x, y) = view.image(c)
            image.append(TrackLandmark(x: Float(x), y: Float(y), z: Float((c.z - root.z) * depthScale)))
            world.append(TrackLandmark(x: Float(c.x - centre.x), y: Float(c.y - centre.y), z: Float((c.z - centre.z) * depthSquash)))
        }
        return TrackHand(handedness: label, score: Float(score), landmarks: image, world: world)
    }
}
