import Foundation
import Landmarkers
import TestSupport
import Testing

/// The landmarkers give what MediaPipe's own Python API gives on the same
/// photos, bundles and options, within 1e-4.
@Suite("Parity with MediaPipe's Python API")
struct ParityTests {
    static let tolerance = 1e-4

    @Test("the expectations were made with the bundles installed here")
    func bundlesMatch() throws {
        let expectations = try ParityExpectations.load()
        let sums = try String(contentsOfFile: TestAssets.installation.modelDirectory + "/SHA256SUMS", encoding: .utf8)
        for (bundle, digest) in expectations.bundles {
            #expect(sums.contains("\(digest)  \(bundle)"), "\(bundle) differs from the one the expectations were made with")
        }
    }

    @Test("landmarks equal MediaPipe's", arguments: try ParityExpectations.load().cases)
    func matchesMediaPipe(_ expected: ParityExpectations.Case) async throws {
        var pixels = try TestAssets.decodedPixels(expected.photo)
        if let turns = expected.transform?.rot90 { pixels = pixels.rotatedCounterClockwise(turns) }
        let orientation = try #require(Self.orientation(degrees: expected.options.rotation_degrees ?? 0))
        let video = expected.mode == "video"
        let rolls = expected.options.rolls ?? [0]
        try #require(rolls.count == expected.frames.count)

        let detect = try Self.detector(for: expected, video: video)
        for (roll, frame) in zip(rolls, expected.frames) {
            let shifted = roll == 0 ? pixels : pixels.rolledHorizontally(roll)
            let image = try MPImage(
                pixels: shifted.bytes, width: shifted.width, height: shifted.height, format: .rgb,
                orientation: orientation)
            let found = try detect(image, frame.timestamp_ms)
            let bodies = expected.task == "pose" ? frame.poses ?? [] : frame.hands ?? []
            try #require(found.bodies.count == bodies.count, "\(expected.name) at \(frame.timestamp_ms) ms")
            for (actual, body) in zip(found.bodies, bodies) {
                Self.compare(actual.landmarks, body.landmarks, "\(expected.name) landmarks")
                Self.compare(actual.world, body.world, "\(expected.name) world landmarks")
                if let handedness = body.handedness {
                    #expect(actual.handedness.count == handedness.count)
                    for (category, wanted) in zip(actual.handedness, handedness) {
                        #expect(category.index == wanted.index)
                        #expect(category.categoryName == wanted.category_name)
                        #expect(category.displayName == wanted.display_name)
                        #expect(abs(Double(category.score) - wanted.score) <= Self.tolerance)
                    }
                }
            }
            if let masks = frame.masks {
                let actual = try #require(found.masks)
                try #require(actual.count == masks.count)
                for (mask, wanted) in zip(actual, masks) {
                    #expect(mask.width == wanted.width && mask.height == wanted.height)
                    let mean = mask.values.reduce(0.0) { $0 + Double($1) } / Double(mask.values.count)
                    #expect(abs(mean - wanted.mean) <= Self.tolerance)
                    for sample in wanted.samples {
                        #expect(abs(Double(mask[Int(sample[0]), Int(sample[1])]) - sample[2]) <= Self.tolerance)
                    }
                }
            }
        }
    }

    /// What one frame gave, in a shape common to poses and hands.
    struct Found {
        var landmarks: [[Float?]]
        var world: [[Float?]]
        var handedness: [ResultCategory]
    }

    static func detector(
        for expected: ParityExpectations.Case, video: Bool
    ) throws -> (MPImage, Int) throws -> FoundFrame {
        let model = TestAssets.installation.modelDirectory + "/" + expected.bundle
        if expected.task == "pose" {
            var options = PoseLandmarkerOptions()
            options.baseOptions.modelAssetPath = model
            options.runningMode = video ? .video : .image
            options.numPoses = expected.options.num_poses ?? 1
            options.outputSegmentationMasks = expected.options.output_segmentation_masks ?? false
            let landmarker = try PoseLandmarker(options: options)
            return { image, timestamp in
                let result = video
                    ? try landmarker.detect(videoFrame: image, timestampInMilliseconds: timestamp)
                    : try landmarker.detect(image: image)
                return FoundFrame(
                    bodies: zip(result.landmarks, result.worldLandmarks).map {
                        Found(landmarks: $0.map(rows), world: $1.map(rows), handedness: [])
                    },
                    masks: result.segmentationMasks)
            }
        }
        var options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = model
        options.runningMode = video ? .video : .image
        options.numHands = expected.options.num_hands ?? 1
        let landmarker = try HandLandmarker(options: options)
        return { image, timestamp in
            let result = video
                ? try landmarker.detect(videoFrame: image, timestampInMilliseconds: timestamp)
                : try landmarker.detect(image: image)
            return FoundFrame(
                bodies: zip(result.handedness, zip(result.landmarks, result.worldLandmarks)).map {
                    Found(landmarks: $1.0.map(rows), world: $1.1.map(rows), handedness: $0)
                },
                masks: nil)
        }
    }

    struct FoundFrame {
        var bodies: [Found]
        var masks: [Mask]?
    }

    static func rows(_ landmark: NormalizedLandmark) -> [Float?] {
        [landmark.x, landmark.y, landmark.z, landmark.visibility, landmark.presence]
    }

    static func rows(_ landmark: Landmark) -> [Float?] {
        [landmark.x, landmark.y, landmark.z, landmark.visibility, landmark.presence]
    }

    static func compare(_ actual: [[Float?]], _ expected: [[Double?]], _ what: String) {
        #expect(actual.count == expected.count, "\(what): \(actual.count) landmarks, expected \(expected.count)")
        for (index, (row, wanted)) in zip(actual, expected).enumerated() {
            for (value, target) in zip(row, wanted) {
                switch (value, target) {
                case (nil, nil): continue
                case let (value?, target?):
                    #expect(abs(Double(value) - target) <= tolerance, "\(what) #\(index): \(row) vs \(wanted)")
                default:
                    Issue.record("\(what) #\(index): \(row) vs \(wanted) (a value is missing on one side)")
                }
            }
        }
    }

    static func orientation(degrees: Int) -> MPImage.Orientation? {
        switch degrees {
        case 0: .up
        case 90: .right
        case 180: .down
        case 270: .left
        default: nil
        }
    }
}
