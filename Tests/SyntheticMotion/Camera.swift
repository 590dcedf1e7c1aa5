import LandmarkTracks

/// Which way the camera looks at the person.
public enum CameraSetup: String, Sendable, CaseIterable {
    /// From the person's left or right side.
    case left, right
    /// From in front.
    case front

    var isSide: Bool { self != .front }
}

/// A pinhole camera looking horizontally at the scene, with MediaPipe's
/// conventions for what it reports: image landmarks normalized to the frame,
/// world landmarks in metres around the hips, axes aligned with the camera.
struct Camera {
    let position: Vector
    let forward: Vector
    let right: Vector
    let down: Vector
    let focal: Double
    let width: Double
    let height: Double

    init(setup: CameraSetup, target: Vector, distance: Double, width: Int = 1280, height: Int = 720) {
        switch setup {
        case .left: forward = -Axis.left
        case .right: forward = Axis.left
        case .front: forward = -Axis.forward
        }
        position = Vector(target.x, 1.0, target.z) - forward * distance
        down = -Axis.up
        right = cross(down, forward)  // image x grows to the right of the view
        focal = 900
        self.width = Double(width)
        self.height = Double(height)
    }

    func cameraCoordinates(_ point: Vector) -> Vector {
        let relative = point - position
        return Vector((relative * right).sum(), (relative * down).sum(), (relative * forward).sum())
    }

    /// Normalized image coordinates; z is depth relative to `reference` on the x scale.
    func image(_ point: Vector, reference: Vector) -> TrackLandmark {
        let c = cameraCoordinates(point), r = cameraCoordinates(reference)
        return TrackLandmark(
            x: Float((width / 2 + focal * c.x / c.z) / width), y: Float((height / 2 + focal * c.y / c.z) / height),
            z: Float((c.z - r.z) * focal / r.z / width))
    }

    /// Camera-aligned metres around `origin`.
    func world(_ point: Vector, origin: Vector) -> TrackLandmark {
        let c = cameraCoordinates(point) - cameraCoordinates(origin)
        return TrackLandmark(x: Float(c.x), y: Float(c.y), z: Float(c.z))
    }
}

/// Turns body points into a track frame's pose and hands, with MediaPipe's
/// shortcomings: landmark noise, lower visibility on the far side, and
/// handedness labelled as if the image were mirrored.
struct Renderer {
    let camera: Camera
    /// Noise on every point, metres (1–2 cm), and extra noise in depth.
    let noise: Double
    /// The visibility of landmarks on the far side in a side view.
    let farVisibility: ClosedRange<Double>

    static let leftIndices: Set<Int> = [1, 2, 3, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
    static let rightIndices: Set<Int> = Set(leftIndices.map { $0 + 1 })

    func render(_ body: BodyPoints, hands withHands: Bool, random: inout SeededRandom) -> (TrackPose, [TrackHand]?) {
        let points = body.pose.map { point in
            point + Vector(random.gaussian(noise), random.gaussian(noise), random.gaussian(noise))
                + camera.forward * random.gaussian(noise)
        }
        let midHip = (points[23] + points[24]) / 2
        // The side farther from the camera is hidden behind the body in a side view.
        let leftDepth = camera.cameraCoordinates(points[11]).z + camera.cameraCoordinates(points[23]).z
        let rightDepth = camera.cameraCoordinates(points[12]).z + camera.cameraCoordinates(points[24]).z
        let isSideView = abs(leftDepth - rightDepth) > 0.3
        let far = leftDepth > rightDepth ? Self.leftIndices : Self.rightIndices
        var image: [TrackLandmark] = [], world: [TrackLandmark] = []
        for (index, point) in points.enumerated() {
            let visibility = isSideView && far.contains(index)
                ? random.uniform(farVisibility) : random.uniform(0.93...0.995)
            var pixel = camera.image(point, reference: midHip)
            pixel.visibility = Float(visibility)
            pixel.presence = Float(random.uniform(0.97...0.999))
            var metres = camera.world(point, origin: midHip)
            metres.visibility = pixel.visibility
            metres.presence = pixel.presence
            image.append(pixel)
            world.append(metres)
        }
        let pose = TrackPose(landmarks: image, world: world)
        guard withHands else { return (pose, nil) }
        var hands: [TrackHand] = []
        for side in 0..<2 {
            guard let hand = body.hands[side] else { continue }
            // Hands move with their wrist's noise.
            let shift = points[15 + side] - body.pose[15 + side]
            let moved = hand.map { $0 + shift + Vector(random.gaussian(0.004), random.gaussian(0.004), random.gaussian(0.004)) }
            let centre = moved.reduce(Vector.zero, +) / Double(moved.count)
            hands.append(TrackHand(
                // MediaPipe labels handedness as if the image were mirrored.
                handedness: side == 0 ? "Right" : "Left", score: Float(random.uniform(0.8...0.99)),
                landmarks: moved.map { camera.image($0, reference: centre) },
                world: moved.map { camera.world($0, origin: centre) }))
        }
        if random.chance(0.5) { hands.reverse() }
        return (pose, hands)
    }
}
