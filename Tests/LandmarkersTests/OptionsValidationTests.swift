import Landmarkers
import TestSupport
import Testing

@Suite("Options are validated against MediaPipe's ranges")
struct OptionsValidationTests {
    @Test("defaults are MediaPipe's")
    func defaults() {
        let pose = PoseLandmarkerOptions()
        #expect(pose.runningMode == .image && pose.numPoses == 1 && !pose.outputSegmentationMasks)
        #expect(pose.minPoseDetectionConfidence == 0.5 && pose.minPosePresenceConfidence == 0.5)
        #expect(pose.minTrackingConfidence == 0.5)
        let hand = HandLandmarkerOptions()
        #expect(hand.runningMode == .image && hand.numHands == 1)
        #expect(hand.minHandDetectionConfidence == 0.5 && hand.minHandPresenceConfidence == 0.5)
        #expect(hand.minTrackingConfidence == 0.5)
    }

    @Test("numPoses must be positive", arguments: [0, -1])
    func numPoses(_ value: Int) {
        var options = PoseLandmarkerOptions.installed()
        options.numPoses = value
        expectInvalid("numPoses") { _ = try PoseLandmarker(options: options) }
    }

    @Test("numHands must be positive", arguments: [0, -3])
    func numHands(_ value: Int) {
        var options = HandLandmarkerOptions.installed()
        options.numHands = value
        expectInvalid("numHands") { _ = try HandLandmarker(options: options) }
    }

    static let outOfRange: [Float] = [-0.01, 1.01, .nan, .infinity]

    @Test("pose confidences must lie in [0, 1]", arguments: outOfRange)
    func poseConfidences(_ value: Float) {
        for keyPath in [
            \PoseLandmarkerOptions.minPoseDetectionConfidence, \.minPosePresenceConfidence, \.minTrackingConfidence,
        ] {
            var options = PoseLandmarkerOptions.installed()
            options[keyPath: keyPath] = value
            expectInvalid("within [0, 1]") { _ = try PoseLandmarker(options: options) }
        }
    }

    @Test("hand confidences must lie in [0, 1]", arguments: outOfRange)
    func handConfidences(_ value: Float) {
        for keyPath in [
            \HandLandmarkerOptions.minHandDetectionConfidence, \.minHandPresenceConfidence, \.minTrackingConfidence,
        ] {
            var options = HandLandmarkerOptions.installed()
            options[keyPath: keyPath] = value
            expectInvalid("within [0, 1]") { _ = try HandLandmarker(options: options) }
        }
    }

    @Test("the bounds 0 and 1 are allowed, and a landmarker made with them detects")
    func bounds() throws {
        var options = PoseLandmarkerOptions.installed()
        options.minPoseDetectionConfidence = 0
        options.minTrackingConfidence = 1
        let landmarker = try PoseLandmarker(options: options)
        #expect(landmarker.options.minPoseDetectionConfidence == 0 && landmarker.options.minTrackingConfidence == 1)
        let result = try landmarker.detect(image: MPImage(contentsOfFile: TestAssets.photo("bus.jpg")))
        #expect(!result.landmarks.isEmpty, "a detection threshold of 0 still finds the people in bus.jpg")
    }

    @Test("a model path is required")
    func missingModelPath() {
        expectInvalid("modelAssetPath") { _ = try PoseLandmarker(options: PoseLandmarkerOptions()) }
    }

    @Test("a missing model bundle is reported as unavailable, naming it")
    func missingModel() {
        let error = #expect(throws: LandmarkerError.self) {
            _ = try HandLandmarker(modelPath: "/nonexistent/hand_landmarker.task")
        }
        #expect(error?.code == .modelUnavailable)
        #expect(error?.message.contains("/nonexistent/hand_landmarker.task") == true)
        #expect(error?.message.contains("ops/setup") == true)
    }

    @Test("a file that is not a model bundle is refused by MediaPipe with its reason")
    func notAModel() {
        let error = #expect(throws: LandmarkerError.self) {
            _ = try PoseLandmarker(modelPath: TestAssets.photo("bus.jpg"))
        }
        #expect(error?.code == .modelUnavailable)
        #expect(error?.mediaPipeMessage?.isEmpty == false)
    }

    @Test("a live-stream delegate outside live-stream mode is refused")
    func delegateOutsideLiveStream() {
        var options = PoseLandmarkerOptions.installed(.video)
        options.poseLandmarkerLiveStreamDelegate = DiscardingDelegate()
        expectInvalid("live-stream delegate") { _ = try PoseLandmarker(options: options) }
    }

    func expectInvalid(_ fragment: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        let error = #expect(throws: LandmarkerError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.code == .invalidOptions, sourceLocation: sourceLocation)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")", sourceLocation: sourceLocation)
    }
}

final class DiscardingDelegate: PoseLandmarkerLiveStreamDelegate {
    func poseLandmarker(
        _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
        timestampInMilliseconds: Int, error: LandmarkerError?
    ) {}
}
