import LandmarkTracks

/// A track reduced to what one rule reads: per frame, the chosen person's
/// smoothed landmarks (world and image), their visibility, and for each wrist
/// the hand matched to it.
struct PreparedTrack {
    let times: [Int]
    let hasPose: [Bool]
    /// Frame size, for turning normalized image coordinates into pixels.
    let width: Double
    let height: Double
    /// Landmark index → row in the per-landmark arrays.
    private let slots: [Int: Int]
    private(set) var world: [[Point]]
    private(set) var image: [[Point]]
    private(set) var visibility: [[Double]]
    /// Per side, per frame: the matched hand's direction from the wrist to the
    /// middle finger's MCP joint, in hand world coordinates.
    private(set) var handDirections: [BodySide: [Point?]]
    /// Whether the track carries hand results at all.
    let hasHandData: Bool

    /// Landmarks every rule's checks read: nose, shoulders and hips.
    static let alwaysNeeded: Set<Int> = [0, 11, 12, 23, 24]

    /// Smoothing restarts after a gap this long, as MediaPipe's does when tracking is lost.
    static let smoothingResetMs = 500

    init(track: LandmarkTrack, landmarks: Set<Int>, smoothing: LandmarkSmoothing?, matchHands: Bool) {
        let needed = landmarks.union(Self.alwaysNeeded).sorted()
        slots = Dictionary(uniqueKeysWithValues: needed.enumerated().map { ($1, $0) })
        let width = Double(track.header.width), height = Double(track.header.height)
        self.width = width
        self.height = height
        let count = track.frames.count
        times = track.frames.map(\.timestampMilliseconds)
        let missing = Point(repeating: .nan)
        world = Array(repeating: Array(repeating: missing, count: count), count: needed.count)
        image = world
        visibility = Array(repeating: Array(repeating: 0, count: count), count: needed.count)
        handDirections = [.left: Array(repeating: nil, count: count), .right: Array(repeating: nil, count: count)]
        let hasHandData = matchHands && track.frames.contains { $0.hands != nil }
        self.hasHandData = hasHandData

        var posePresent = Array(repeating: false, count: count)
        var filters = smoothing.map { SmoothingFilters(parameters: $0, landmarks: needed.count) }
        var previousCentre: Point?
        var lastPoseTime: Int?
        for (frameIndex, frame) in track.frames.enumerated() {
            guard let pose = Self.choosePose(frame.poses, near: previousCentre, width: width, height: height) else { continue }
            posePresent[frameIndex] = true
            let pixels = pose.landmarks.map { Point(Double($0.x) * width, Double($0.y) * height, 0) }
            previousCentre = pixels.reduce(.zero, +) / Double(pixels.count)
            if let last = lastPoseTime, frame.timestampMilliseconds - last > Self.smoothingResetMs {
                filters = smoothing.map { SmoothingFilters(parameters: $0, landmarks: needed.count) }
            }
            lastPoseTime = frame.timestampMilliseconds
            let objectScale = Self.objectScale(pixels)
            for (slot, index) in needed.enumerated() {
                let row = pose.world[index]
                var worldPoint = Point(Double(row.x), Double(row.y), Double(row.z))
                var imagePoint = pixels[index]
                if filters != nil {
                    worldPoint = filters!.world(slot, worldPoint, at: frame.timestampMilliseconds)
                    imagePoint = filters!.image(slot, imagePoint, at: frame.timestampMilliseconds, scale: 1 / objectScale)
                }
                world[slot][frameIndex] = worldPoint
                image[slot][frameIndex] = imagePoint
                visibility[slot][frameIndex] = Double(pose.landmarks[index].visibility ?? 1)
            }
            if hasHandData, let hands = frame.hands, !hands.isEmpty {
                for (side, direction) in Self.matchHands(hands, to: pixels, width: width, height: height) {
                    handDirections[side]![frameIndex] = direction
                }
            }
        }
        hasPose = posePresent
    }

    /// The slot of a landmark index (every index a rule reads has one).
    func slot(_ index: Int) -> Int { slots[index]! }

    var frameCount: Int { times.count }

    // MARK: - Choosing and matching

    /// With several people, the one nearest the person followed so far; at the
    /// start, the one that looks biggest.
    private static func choosePose(_ poses: [TrackPose], near centre: Point?, width: Double, height: Double) -> TrackPose? {
        guard poses.count > 1 else { return poses.first }
        func centreOf(_ pose: TrackPose) -> Point {
            pose.landmarks.reduce(Point.zero) { $0 + Point(Double($1.x) * width, Double($1.y) * height, 0) }
                / Double(pose.landmarks.count)
        }
        if let centre {
            return poses.min { Geometry.length(centreOf($0) - centre) < Geometry.length(centreOf($1) - centre) }
        }
        return poses.max { objectScale(pixelsOf($0, width, height)) < objectScale(pixelsOf($1, width, height)) }
    }

    private static func pixelsOf(_ pose: TrackPose, _ width: Double, _ height: Double) -> [Point] {
        pose.landmarks.map { Point(Double($0.x) * width, Double($0.y) * height, 0) }
    }

    /// MediaPipe's object scale: the mean of the landmarks' bounding box sides, in pixels.
    private static func objectScale(_ pixels: [Point]) -> Double {
        let xs = pixels.map(\.x), ys = pixels.map(\.y)
        return max(1, ((xs.max()! - xs.min()!) + (ys.max()! - ys.min()!)) / 2)
    }

    /// Each wrist gets the nearest hand whose own wrist is close to it in the
    /// image (never by the handedness label, which MediaPipe gives as if mirrored).
    private static func matchHands(
        _ hands: [TrackHand], to pose: [Point], width: Double, height: Double
    ) -> [(BodySide, Point)] {
        let wrists: [(BodySide, Point, Double)] = BodySide.allCases.map { side in
            let (elbow, wrist) = side == .left ? (13, 15) : (14, 16)
            // A hand farther than half a forearm from the wrist is someone else's, or a misdetection.
            return (side, pose[wrist], max(8, Geometry.length(pose[wrist] - pose[elbow]) * 0.6))
        }
        var candidates: [(distance: Double, side: BodySide, hand: Int)] = []
        for (side, wrist, reach) in wrists {
            for (index, hand) in hands.enumerated() {
                let handWrist = Point(Double(hand.landmarks[0].x) * width, Double(hand.landmarks[0].y) * height, 0)
                let distance = Geometry.length(handWrist - wrist)
                if distance <= reach { candidates.append((distance, side, index)) }
            }
        }
        var matched: [(BodySide, Point)] = []
        var usedSides = Set<BodySide>(), usedHands = Set<Int>()
        for candidate in candidates.sorted(by: { $0.distance < $1.distance })
        where !usedSides.contains(candidate.side) && !usedHands.contains(candidate.hand) {
            usedSides.insert(candidate.side)
            usedHands.insert(candidate.hand)
            let world = hands[candidate.hand].world
            matched.append((candidate.side, Point(Double(world[9].x - world[0].x), Double(world[9].y - world[0].y), Double(world[9].z - world[0].z))))
        }
        return matched
    }
}

/// One Euro filters for every coordinate of the landmarks a rule reads.
private struct SmoothingFilters {
    private var world: [[OneEuroFilter]]
    private var image: [[OneEuroFilter]]

    init(parameters: LandmarkSmoothing, landmarks: Int) {
        world = Array(repeating: Array(repeating: OneEuroFilter(parameters.world), count: 3), count: landmarks)
        image = Array(repeating: Array(repeating: OneEuroFilter(parameters.image), count: 2), count: landmarks)
    }

    mutating func world(_ slot: Int, _ point: Point, at time: Int) -> Point {
        Point(
            world[slot][0].filter(point.x, at: time), world[slot][1].filter(point.y, at: time),
            world[slot][2].filter(point.z, at: time))
    }

    mutating func image(_ slot: Int, _ point: Point, at time: Int, scale: Double) -> Point {
        Point(image[slot][0].filter(point.x, at: time, valueScale: scale), image[slot][1].filter(point.y, at: time, valueScale: scale), 0)
    }
}
