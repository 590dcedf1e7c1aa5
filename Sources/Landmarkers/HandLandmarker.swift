internal import CMediaPipe

/// Finds hands in images and video and gives 21 landmarks for each, as
/// MediaPipe's `HandLandmarker`.
///
/// Calls on one landmarker are serialized. The synchronous methods block the
/// calling thread while MediaPipe runs; from Swift concurrency, use the `async`
/// overloads, which run the work on the landmarker's own queue. For throughput,
/// give each task its own landmarker.
public final class HandLandmarker: Sendable {
    /// The options this landmarker was made with.
    public let options: HandLandmarkerOptions
    private let runner: VisionTaskRunner<HandLandmarkerCalls>

    /// Makes an image-mode landmarker with default options from a model bundle.
    public convenience init(modelPath: String) throws {
        var options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Makes a landmarker; throws if an option is out of range, the engine or the
    /// model is missing, or MediaPipe refuses the model.
    ///
    /// `engine` is the MediaPipe installation to run on (default: the one the environment names).
    public init(options: HandLandmarkerOptions, engine: MediaPipeEngine? = nil) throws {
        try options.validate()
        let engine = try engine ?? MediaPipeEngine.fromEnvironment()
        self.options = options
        self.runner = try VisionTaskRunner(
            engine: engine, baseOptions: options.baseOptions, runningMode: options.runningMode
        ) { base, slot in
            var c = MpHandLandmarkerOptions()
            c.base_options = base
            c.running_mode = options.runningMode.cValue
            c.num_hands = Int32(options.numHands)
            c.min_hand_detection_confidence = options.minHandDetectionConfidence
            c.min_hand_presence_confidence = options.minHandPresenceConfidence
            c.min_tracking_confidence = options.minTrackingConfidence
            c.result_callback = slot.map { CMediaPipe_handCallback($0.index) }
            return c
        }
        if let delegate = options.handLandmarkerLiveStreamDelegate {
            runner.forwardLiveStream { [weak self] result, timestamp, error in
                guard let self else { return }
                delegate.handLandmarker(self, didFinishDetection: result, timestampInMilliseconds: timestamp, error: error)
            }
        }
    }

    /// Live-stream results, in order, when the options name no delegate. Empty
    /// and finished in the other modes or with a delegate; finishes when the
    /// landmarker is released.
    public var liveStreamResults: AsyncStream<LiveStreamOutput<HandLandmarkerResult>> {
        runner.liveStream?.stream ?? AsyncStream { $0.finish() }
    }

    /// Detects hands in a still image (image mode).
    public func detect(image: MPImage) throws -> HandLandmarkerResult {
        try runner.detect(image)
    }

    /// Detects hands in a still image (image mode), off the cooperative pool.
    public func detect(image: MPImage) async throws -> HandLandmarkerResult {
        try await runner.onQueue { try self.runner.detect(image) }
    }

    /// Detects hands in a video frame (video mode), tracking them from the previous
    /// frame. Timestamps must increase from call to call.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> HandLandmarkerResult {
        try runner.detect(videoFrame: image, timestamp: timestampInMilliseconds)
    }

    /// Detects hands in a video frame (video mode), off the cooperative pool.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) async throws -> HandLandmarkerResult {
        try await runner.onQueue { try self.runner.detect(videoFrame: image, timestamp: timestampInMilliseconds) }
    }

    /// Sends a camera frame (live-stream mode) and returns at once; the result
    /// reaches the delegate or `liveStreamResults` later, unless the frame is
    /// dropped because the landmarker was busy. Timestamps must increase.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try runner.detectAsync(image, timestamp: timestampInMilliseconds)
    }
}
