import LandmarkTracks

/// A track reduced to what one rule reads: per frame, the chosen person's
/// smoothed landmarks (world and image), their visibility, and for each wrist
/// the hand matched to it.
struct PreparedTrack {
    let times: [Int]
    let hasPose: [Bool]
    /// Per frame, the size of the person in the picture: the mean of the sides
    /// of the landmarks' bounding box, in pixels (MediaPipe's object scale); 0 without a pose.
    let bodySize: [Double]
    /// Frame size, for turning normalized image coordinates into pixels.
    let width: Double
    let height: Double
    /// Landmark index → slot among the landmarks read (-1 for landmarks not read).
    private let slots: [Int]
    private let slotCount: Int
    /// Per frame and slot, at `frame * slotCount + slot` (a frame's landmarks side
    /// by side, as signals read them): the smoothed world and image points and the visibility.
    private var worldPoints: [Point]
    private var imagePoints: [Point]
    private var visibilities: [Double]
    /// Per frame, for the left and the right wrist: the matched hand's direction
    /// from the wrist to the middle finger's MCP joint, in hand world coordinates.
    private var leftHands: [Point?]
    private var rightHands: [Point?]
    /// Whether the track carries hand results at all.
    let hasHandData: Bool
    /// When more than one person was found: how often, and which one was followed.
    let crowd: Crowd

    /// Frames with more than one person, and where the person followed stood among them.
    struct Crowd: Sendable {
        /// The most people found in one frame.
        var mostInView = 1
        var framesWithSeveral = 0
        /// The first and last of those frames' times.
        var several: ClosedRange<Int>?
        /// Of those frames, how many had the followed person leftmost in the
        /// picture, lowest in it, and the largest.
        var followedLeftmost = 0
        var followedLowest = 0
        var followedLargest = 0
        /// Summed over those frames, how far apart across and down the picture
        /// the followed person and the nearest other one stood, in pixels.
        var horizontalApart = 0.0
        var verticalApart = 0.0
    }

    /// Landmarks every rule's checks read: nose, shoulders and hips.
    static let alwaysNeeded: Set<Int> = [
        PoseLandmark.nose, PoseLandmark.leftShoulder, PoseLandmark.rightShoulder, PoseLandmark.leftHip, PoseLandmark.rightHip,
    ]

    /// Smoothing restarts after a gap this long, as MediaPipe's does when tracking is lost.
    static let smoothingResetMs = 500

    /// Smooths world landmarks, and image landmarks when `imageSpace` says a
    /// signal reads them (otherwise they are kept as found, for the checks).
    init(track: LandmarkTrack, landmarks: Set<Int>, smoothing: LandmarkSmoothing?, imageSpace: Bool, matchHands: Bool) {
        let needed = landmarks.union(Self.alwaysNeeded).sorted()
        var slots = Array(repeating: -1, count: LandmarkTrack.poseRows)
        for (slot, index) in needed.enumerated() { slots[index] = slot }
        self.slots = slots
        let width = Double(track.header.width), height = Double(track.header.height)
        self.width = width
        self.height = height
        let count = track.frames.count
        times = track.frames.map(\.timestampMilliseconds)
        slotCount = needed.count
        let missing = Point(repeating: .nan)
        var world = [Point](repeating: missing, count: count * needed.count)
        var image = world
        var visibility = [Double](repeating: 0, count: count * needed.count)
        leftHands = Array(repeating: nil, count: count)
        rightHands = leftHands
        let hasHandData = matchHands && track.frames.contains { $0.hands != nil }
        self.hasHandData = hasHandData

        var posePresent = Array(repeating: false, count: count)
        var sizes = Array(repeating: 0.0, count: count)
        var filters = smoothing.map { SmoothingFilters(parameters: $0, landmarks: needed.count) }
        var previousCentre: Point?
        var crowd = Crowd()
        var chosen = [TrackPose?](repeating: nil, count: count)
        var framePixels = [[Point]?](repeating: nil, count: count)
        for (frameIndex, frame) in track.frames.enumerated() {
            guard let pose = Self.choosePose(frame.poses, near: previousCentre, width: width, height: height) else { continue }
            crowd.note(pose, among: frame.poses, at: frame.timestampMilliseconds, width: width, height: height)
            posePresent[frameIndex] = true
            let pixels = Self.pixelsOf(pose, width, height)
            previousCentre = pixels.reduce(.zero, +) / Double(pixels.count)
            chosen[frameIndex] = pose
            framePixels[frameIndex] = pixels
            sizes[frameIndex] = Self.objectScale(pixels)
        }
        let swaps = SideSwaps.find(times: times, pixels: framePixels, sizes: sizes)
        var lastPoseTime: Int?
        for (frameIndex, frame) in track.frames.enumerated() {
            guard let pose = chosen[frameIndex], let found = framePixels[frameIndex] else { continue }
            let swapped = swaps[frameIndex]
            let pixels = swapped.isEmpty ? found : found.indices.map { found[SideSwaps.mirrored($0, in: swapped)] }
            if let last = lastPoseTime, frame.timestampMilliseconds - last > Self.smoothingResetMs {
                filters = smoothing.map { SmoothingFilters(parameters: $0, landmarks: needed.count) }
            }
            lastPoseTime = frame.timestampMilliseconds
            filters?.advance(to: frame.timestampMilliseconds)
            let objectScale = sizes[frameIndex]
            for (slot, landmark) in needed.enumerated() {
                let index = SideSwaps.mirrored(landmark, in: swapped)
                let row = pose.world[index]
                var worldPoint = Point(Double(row.x), Double(row.y), Double(row.z))
                var imagePoint = pixels[landmark]
                if filters != nil {
                    worldPoint = filters!.world(slot, worldPoint)
                    if imageSpace {
                        imagePoint = filters!.image(slot, imagePoint, scale: 1 / objectScale)
                    }
                }
                let at = frameIndex * needed.count + slot
                world[at] = worldPoint
                image[at] = imagePoint
                visibility[at] = Double(pose.landmarks[index].visibility ?? 1)
            }
            if hasHandData, let hands = frame.hands, !hands.isEmpty {
                (leftHands[frameIndex], rightHands[frameIndex]) = Self.matchHands(hands, to: pixels, width: width, height: height)
            }
        }
        worldPoints = world
        imagePoints = image
        visibilities = visibility
        hasPose = posePresent
        bodySize = sizes
        self.crowd = crowd
    }

    /// The hand matched to a wrist in a frame: its direction from wrist to middle finger.
    func handDirection(_ side: BodySide, _ frame: Int) -> Point? {
        side == .left ? leftHands[frame] : rightHands[frame]
    }

    /// Whether a hand was matched to either wrist in any frame.
    var hasMatchedHands: Bool { leftHands.contains { $0 != nil } || rightHands.contains { $0 != nil } }

    /// A landmark's (by slot) smoothed world point in a frame; NaN without a pose.
    func world(_ slot: Int, _ frame: Int) -> Point { worldPoints[frame * slotCount + slot] }

    /// A landmark's (by slot) point in the picture in a frame, in pixels; NaN without a pose.
    func image(_ slot: Int, _ frame: Int) -> Point { imagePoints[frame * slotCount + slot] }

    /// A landmark's (by slot) visibility in a frame; 0 without a pose.
    func visibility(_ slot: Int, _ frame: Int) -> Double { visibilities[frame * slotCount + slot] }

    /// Whether a landmark (by slot) lies within the picture in a frame.
    func inPicture(_ slot: Int, _ frame: Int) -> Bool {
        let point = image(slot, frame)
        return (0...width).contains(point.x) && (0...height).contains(point.y)
    }

    /// The slot of a landmark index (every index a rule reads has one).
    func slot(_ index: Int) -> Int { slots[index] }

    var frameCount: Int { times.count }

    // MARK: - Choosing and matching

    /// With several people, the one nearest the person followed so far; at the
    /// start, the one that looks biggest.
    private static func choosePose(_ found: [TrackPose], near centre: Point?, width: Double, height: Double) -> TrackPose? {
        // Rows of another shape (a track not read through LandmarkTrack's checks) are no pose.
        let poses = found.allSatisfy(Self.isWhole) ? found : found.filter(Self.isWhole)
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

    static func isWhole(_ pose: TrackPose) -> Bool {
        pose.landmarks.count == LandmarkTrack.poseRows && pose.world.count == LandmarkTrack.poseRows
    }

    static func pixelsOf(_ pose: TrackPose, _ width: Double, _ height: Double) -> [Point] {
        // A loop into reserved room: `map` over the rows took a slower, growing path.
        var pixels: [Point] = []
        pixels.reserveCapacity(pose.landmarks.count)
        for row in pose.landmarks { pixels.append(Point(Double(row.x) * width, Double(row.y) * height, 0)) }
        return pixels
    }

    /// MediaPipe's object scale: the mean of the landmarks' bounding box sides, in pixels.
    static func objectScale(_ pixels: [Point]) -> Double {
        var (left, right, top, bottom) = (pixels[0].x, pixels[0].x, pixels[0].y, pixels[0].y)
        for pixel in pixels {
            (left, right) = (min(left, pixel.x), max(right, pixel.x))
            (top, bottom) = (min(top, pixel.y), max(bottom, pixel.y))
        }
        return max(1, ((right - left) + (bottom - top)) / 2)
    }

    /// Each wrist gets the nearest hand whose own wrist is close to it in the
    /// image (never by the handedness label, which MediaPipe gives as if mirrored);
    /// the closest pairs are matched first. The directions of the left and right wrists' hands.
    private static func matchHands(
        _ hands: [TrackHand], to pose: [Point], width: Double, height: Double
    ) -> (left: Point?, right: Point?) {
        var distances: [(left: Double, right: Double)] = []
        distances.reserveCapacity(hands.count)
        let reach = [PoseLandmark.forearm(.left), PoseLandmark.forearm(.right)].map { elbow, wrist in
            // A hand farther than 0.6 forearm lengths from the wrist is someone else's, or a misdetection.
            max(8, Geometry.length(pose[wrist] - pose[elbow]) * 0.6)
        }
        for hand in hands {
            guard hand.landmarks.count == LandmarkTrack.handRows, hand.world.count == LandmarkTrack.handRows else {
                distances.append((.infinity, .infinity))
                continue
            }
            let wristRow = hand.landmarks[HandLandmark.wrist]
            let handWrist = Point(Double(wristRow.x) * width, Double(wristRow.y) * height, 0)
            let left = Geometry.length(handWrist - pose[PoseLandmark.leftWrist]),
                right = Geometry.length(handWrist - pose[PoseLandmark.rightWrist])
            distances.append((left <= reach[0] ? left : .infinity, right <= reach[1] ? right : .infinity))
        }
        func direction(_ hand: Int) -> Point {
            let (wrist, knuckle) = (hands[hand].world[HandLandmark.wrist], hands[hand].world[HandLandmark.middleKnuckle])
            return Point(Double(knuckle.x - wrist.x), Double(knuckle.y - wrist.y), Double(knuckle.z - wrist.z))
        }
        func nearest(_ distance: ((left: Double, right: Double)) -> Double, except taken: Int?) -> Int? {
            var best: Int?
            for index in distances.indices where index != taken && distance(distances[index]).isFinite {
                if best == nil || distance(distances[index]) < distance(distances[best!]) { best = index }
            }
            return best
        }
        // The closer of the two best pairs is matched first; the other wrist takes the nearest hand left.
        let bestLeft = nearest({ $0.left }, except: nil), bestRight = nearest({ $0.right }, except: nil)
        let leftFirst = (bestLeft.map { distances[$0].left } ?? .infinity) <= (bestRight.map { distances[$0].right } ?? .infinity)
        let left: Int?, right: Int?
        if leftFirst {
            left = bestLeft
            right = nearest({ $0.right }, except: left)
        } else {
            right = bestRight
            left = nearest({ $0.left }, except: right)
        }
        return (left.map(direction), right.map(direction))
    }
}

/// One Euro filters for the landmarks a rule reads, in world and in image coordinates.
private struct SmoothingFilters {
    /// A channel a landmark (x, y, z); image points have z 0.
    private var world: OneEuroFilter
    private var image: OneEuroFilter

    init(parameters: LandmarkSmoothing, landmarks: Int) {
        world = OneEuroFilter(parameters.world, channels: landmarks)
        image = OneEuroFilter(parameters.image, channels: landmarks)
    }

    /// Starts the frame at `time`, before its landmarks are filtered.
    mutating func advance(to time: Int) {
        world.advance(to: time)
        image.advance(to: time)
    }

    mutating func world(_ slot: Int, _ point: Point) -> Point { world.filter(slot, point) }

    mutating func image(_ slot: Int, _ point: Point, scale: Double) -> Point { image.filter(slot, point, valueScale: scale) }
}

extension PreparedTrack.Crowd {
    /// Counts a frame's people, and where the followed one stands among them.
    mutating func note(_ followed: TrackPose, among found: [TrackPose], at time: Int, width: Double, height: Double) {
        guard found.count > 1 else { return }
        let people = found.filter(PreparedTrack.isWhole)
        guard people.count > 1 else { return }
        mostInView = max(mostInView, people.count)
        framesWithSeveral += 1
        several = several.map { $0.lowerBound...time } ?? time...time
        func centre(_ pose: TrackPose) -> Point { PreparedTrack.pixelsOf(pose, width, height).reduce(.zero, +) / Double(pose.landmarks.count) }
        func size(_ pose: TrackPose) -> Double { PreparedTrack.objectScale(PreparedTrack.pixelsOf(pose, width, height)) }
        let here = centre(followed)
        let others = people.map(centre).filter { $0 != here }
        if others.allSatisfy({ $0.x >= here.x }) { followedLeftmost += 1 }
        if others.allSatisfy({ $0.y <= here.y }) { followedLowest += 1 }
        if let nearest = others.min(by: { Geometry.length($0 - here) < Geometry.length($1 - here) }) {
            horizontalApart += abs(nearest.x - here.x)
            verticalApart += abs(nearest.y - here.y)
        }
        if people.allSatisfy({ size($0) <= size(followed) }) { followedLargest += 1 }
    }

    /// Where the followed person was among the others, along the picture's
    /// axis that set them further apart: "on the left of the picture".
    var followedPlace: String {
        if verticalApart > horizontalApart {
            return followedLowest * 2 >= framesWithSeveral ? "nearer the bottom of the picture" : "nearer the top of the picture"
        }
        return followedLeftmost * 2 >= framesWithSeveral ? "on the left of the picture" : "on the right of the picture"
    }
}
