internal import CMediaPipe

/// Finds people in images and video and gives 33 body landmarks for each, as
/// MediaPipe's `PoseLandmarker`.
///
/// Calls on one landmarker are serialized. The synchronous methods block the
/// calling thread while MediaPipe runs; from Swift concurrency, use the `async`
/// overloads, which run the work on the landmarker's own queue. For throughput,
/// give each task its own landmarker.
public final class PoseLandmarker: Sendable {
    /// The options this landmarker was made with.
    public let options: PoseLandmarkerOptions
    private let runner: VisionTaskRunner<PoseLandmarkerCalls>

    /// Makes an image-mode landmarker with default options from a model bundle.
    public convenience init(modelPath: String) throws {
        var options = PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Makes a landmarker; throws if an option is out of range, the engine or the
    /// model is missing, or MediaPipe refuses the model.
    ///
    /// `engine` is the MediaPipe installation to run on (default: the one the environment names).
    public init(options: PoseLandmarkerOptions, engine: MediaPipeEngine? = nil) throws {
        try options.validate()
        let engine = try engine ?? MediaPipeEngine.fromEnvironment()
        self.options = options
        self.runner = try VisionTaskRunner(
            engine: engine, baseOptions: options.baseOptions, runningMode: options.runningMode
        ) { base, slot in
            var c = MpPoseLandmarkerOptions()
            c.base_options = base
            c.running_mode = options.runningMode.cValue
            c.num_poses = Int32(options.numPoses)
            c.min_pose_detection_confidence = options.minPoseDetectionConfidence
            c.min_pose_presence_confidence = options.minPosePresenceConfidence
            c.min_tracking_confidence = options.minTrackingConfidence
            c.output_segmentation_masks = options.outputSegmentationMasks
            c.result_callback = slot.map { CMediaPipe_poseCallback($0.index) }
            return c
        }
        if let delegate = options.poseLandmarkerLiveStreamDelegate {
            runner.forwardLiveStream { [weak self] result, timestamp, error in
                guard let self else { return }
                delegate.poseLandmarker(self, didFinishDetection: result, timestampInMilliseconds: timestamp, error: error)
            }
        }
    }

    /// Live-stream results, in order, when the options name no delegate. Empty
    /// and finished in the other modes or with a delegate; finishes when the
    /// landmarker is released.
    public var liveStreamResults: AsyncStream<LiveStreamOutput<PoseLandmarkerResult>> {
        runner.liveStream?.stream ?? AsyncStream { $0.finish() }
    }

    /// Detects poses in a still image (image mode).
    public func detect(image: MPImage) throws -> PoseLandmarkerResult {
        try runner.detect(image)
    }

    /// Detects poses in a still image (image mode), off the cooperative pool.
    public func detect(image: MPImage) async throws -> PoseLandmarkerResult {
        try await runner.onQueue { try self.runner.detect(image) }
    }

    /// Detects poses in a video frame (video mode), tracking them from the previous
    /// frame. Timestamps must increase from call to call.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> PoseLandmarkerResult {
        try runner.detect(videoFrame: image, timestamp: timestampInMilliseconds)
    }

    /// Detects poses in a video frame (video mode), off the cooperative pool.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) async throws -> PoseLandmarkerResult {
        try await runner.onQueue { try self.runner.detect(videoFrame: image, timestamp: timestampInMilliseconds) }
    }

    /// Sends a camera frame (live-stream mode) and returns at once; the result
    /// reaches the delegate or `liveStreamResults` later, unless the frame is
    /// dropped because the landmarker was busy. Timestamps must increase.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try runner.detectAsync(image, timestamp: timestampInMilliseconds)
    }
}
