import Landmarkers
import TestSupport
import Testing

@Suite("Hand landmarker on real photos")
struct HandLandmarkerTests {
    @Test("a visible hand gives handedness, 21 landmarks and 21 world landmarks", arguments: HandModel.allCases)
    func visibleHand(_ model: HandModel) throws {
        var options = HandLandmarkerOptions.installed(model: model)
        options.numHands = 2
        let result = try HandLandmarker(options: options).detect(image: MPImage(contentsOfFile: TestAssets.photo("messi5.jpg")))
        let hand = try #require(result.hands.first)
        #expect(result.hands.count == 1)
        #expect(hand.landmarks.count == 21 && hand.worldLandmarks.count == 21)
        let handedness = try #require(hand.handedness)
        #expect(["Left", "Right"].contains(handedness.categoryName ?? ""))
        #expect(handedness.score > 0.5 && handedness.score <= 1)
        // World landmarks are metres around the hand's centre: a hand spans about 10–25 cm.
        let span = distance(hand.worldLandmark(.wrist), hand.worldLandmark(.middleFingerTip))
        #expect(span > 0.05 && span < 0.3, "wrist to middle finger tip \(span) m")
        #expect(hand.landmark(.wrist) == result.landmarks[0][0])
        #expect(HandLandmarkType.allCases.count == 21 && HandLandmarkType.pinkyTip.rawValue == 20)
    }

    @Test("photos without a clear hand give no hands")
    func noHands() throws {
        let landmarker = try HandLandmarker(options: .installed())
        for photo in ["coffee.png", "bus.jpg"] {
            let result = try landmarker.detect(image: MPImage(contentsOfFile: TestAssets.photo(photo)))
            #expect(result.hands.isEmpty && result.handedness.isEmpty, "\(photo)")
        }
    }

    @Test("video timestamps must increase")
    func videoTimestamps() throws {
        let landmarker = try HandLandmarker(options: .installed(.video))
        let image = try MPImage(contentsOfFile: TestAssets.photo("messi5.jpg"))
        _ = try landmarker.detect(videoFrame: image, timestampInMilliseconds: 100)
        let error = #expect(throws: LandmarkerError.self) {
            _ = try landmarker.detect(videoFrame: image, timestampInMilliseconds: 99)
        }
        #expect(error?.code == .nonMonotonicTimestamp)
    }

    func distance(_ a: Landmark, _ b: Landmark) -> Float {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z)).squareRoot()
    }
}
