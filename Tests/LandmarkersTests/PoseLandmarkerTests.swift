import Landmarkers
import TestSupport
import Testing

@Suite("Pose landmarker on real photos")
struct PoseLandmarkerTests {
    @Test("a person standing in full view gives 33 landmarks with visibility and presence")
    func standingPerson() throws {
        let landmarker = try PoseLandmarker(modelPath: TestAssets.installation.poseModelPath)
        let result = try landmarker.detect(image: MPImage(contentsOfFile: TestAssets.photo("bus.jpg")))
        let pose = try #require(result.poses.first)
        #expect(result.landmarks.count == 1 && pose.landmarks.count == 33 && pose.worldLandmarks.count == 33)
        #expect(result.timestampInMilliseconds == 0)
        #expect(result.segmentationMasks == nil)
        for landmark in pose.landmarks {
            #expect(landmark.visibility.map { (0...1).contains($0) } == true)
            #expect(landmark.presence.map { (0...1).contains($0) } == true)
        }
        // Upright: the nose above the hips above the ankles, in image and world coordinates (y down).
        let nose = pose.landmark(.nose), hip = pose.landmark(.leftHip), ankle = pose.landmark(.leftAnkle)
        #expect(nose.position.y < hip.position.y && hip.position.y < ankle.position.y)
        #expect(nose.worldPosition.y < hip.worldPosition.y && hip.worldPosition.y < ankle.worldPosition.y)
        // World landmarks are metres around the hips: an adult is between 1 and 2.2 m tall.
        let height = ankle.worldPosition.y - nose.worldPosition.y
        #expect(height > 1.0 && height < 2.2, "nose to ankle \(height) m")
    }

    @Test("landmark types address MediaPipe's order, ML Kit style")
    func landmarkTypes() throws {
        let result = try PoseLandmarker(modelPath: TestAssets.installation.poseModelPath)
            .detect(image: MPImage(contentsOfFile: TestAssets.photo("astronaut.png")))
        let pose = try #require(result.poses.first)
        #expect(PoseLandmarkType.allCases.count == 33)
        #expect(PoseLandmarkType.leftShoulder.rawValue == 11 && PoseLandmarkType.rightFootIndex.rawValue == 32)
        for type in PoseLandmarkType.allCases {
            let landmark = pose.landmark(type)
            #expect(landmark.type == type)
            #expect(landmark.position == result.landmarks[0][type.rawValue])
            #expect(landmark.worldPosition == result.worldLandmarks[0][type.rawValue])
            #expect(landmark.inFrameLikelihood == result.landmarks[0][type.rawValue].presence)
        }
    }

    @Test("an image with nobody in it gives no poses")
    func nobody() throws {
        var options = PoseLandmarkerOptions.installed()
        options.numPoses = 3
        let result = try PoseLandmarker(options: options).detect(image: MPImage(contentsOfFile: TestAssets.photo("coffee.png")))
        #expect(result.landmarks.isEmpty && result.worldLandmarks.isEmpty && result.poses.isEmpty)
    }

    @Test("segmentation masks have the image's size and values in [0, 1], high on the person")
    func segmentationMask() throws {
        var options = PoseLandmarkerOptions.installed()
        options.outputSegmentationMasks = true
        let image = try MPImage(contentsOfFile: TestAssets.photo("bus.jpg"))
        let result = try PoseLandmarker(options: options).detect(image: image)
        let masks = try #require(result.segmentationMasks)
        try #require(masks.count == result.landmarks.count && masks.count == 1)
        let mask = masks[0]
        #expect(mask.width == image.width && mask.height == image.height)
        #expect(mask.values.allSatisfy { (0...1).contains($0) })
        // On the person's hip the mask is confident; in the sky corner it is not.
        let hip = result.landmarks[0][PoseLandmarkType.leftHip.rawValue]
        #expect(mask[Int(hip.x * Float(mask.width)), Int(hip.y * Float(mask.height))] > 0.5)
        #expect(mask[mask.width - 1, 0] < 0.5)
    }

    @Test("methods of another running mode are refused")
    func wrongMode() throws {
        let image = try MPImage(contentsOfFile: TestAssets.photo("bus.jpg"))
        let video = try PoseLandmarker(options: .installed(.video))
        let still = try PoseLandmarker(options: .installed(.image))
        for attempt in [
            { _ = try video.detect(image: image) },
            { _ = try still.detect(videoFrame: image, timestampInMilliseconds: 0) },
            { try still.detectAsync(image: image, timestampInMilliseconds: 0) },
        ] as [() throws -> Void] {
            let error = #expect(throws: LandmarkerError.self) { try attempt() }
            #expect(error?.code == .wrongRunningMode)
        }
    }

    @Test("video timestamps must increase; a repeated or earlier one is refused with both values")
    func videoTimestamps() throws {
        let landmarker = try PoseLandmarker(options: .installed(.video))
        let image = try MPImage(contentsOfFile: TestAssets.photo("bus.jpg"))
        #expect(try landmarker.detect(videoFrame: image, timestampInMilliseconds: 0).landmarks.count == 1)
        let tracked = try landmarker.detect(videoFrame: image, timestampInMilliseconds: 33)
        #expect(tracked.timestampInMilliseconds == 33 && tracked.landmarks.count == 1)
        for stale in [33, 10] {
            let error = #expect(throws: LandmarkerError.self) {
                _ = try landmarker.detect(videoFrame: image, timestampInMilliseconds: stale)
            }
            #expect(error?.code == .nonMonotonicTimestamp)
            #expect(error?.message.contains("\(stale) ms") == true && error?.message.contains("33 ms") == true)
        }
        #expect(try landmarker.detect(videoFrame: image, timestampInMilliseconds: 66).timestampInMilliseconds == 66)
    }

    @Test("async detection from concurrent tasks, one landmarker each, matches synchronous detection")
    func concurrentTasks() async throws {
        let photos = ["bus.jpg", "astronaut.png", "messi5.jpg"]
        let expected = try photos.map {
            try PoseLandmarker(modelPath: TestAssets.installation.poseModelPath)
                .detect(image: MPImage(contentsOfFile: TestAssets.photo($0))).landmarks
        }
        let found = try await withThrowingTaskGroup(of: (Int, [[NormalizedLandmark]]).self) { group in
            for (index, photo) in photos.enumerated() {
                group.addTask {
                    let landmarker = try PoseLandmarker(modelPath: TestAssets.installation.poseModelPath)
                    let image = try MPImage(contentsOfFile: TestAssets.photo(photo))
                    return (index, try await landmarker.detect(image: image).landmarks)
                }
            }
            var found = [[[NormalizedLandmark]]](repeating: [], count: photos.count)
            for try await (index, landmarks) in group { found[index] = landmarks }
            return found
        }
        #expect(found == expected)
    }
}
