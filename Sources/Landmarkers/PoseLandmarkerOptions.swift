/// Options of a `PoseLandmarker`, with MediaPipe's names, ranges and defaults.
public struct PoseLandmarkerOptions: Sendable {
    /// The model bundle; `PoseLandmarker(modelPath:)` fills it in.
    public var baseOptions = BaseOptions()
    /// How frames arrive. Default `.image`.
    public var runningMode = RunningMode.image
    /// The most poses to detect, > 0. Default 1.
    public var numPoses = 1
    /// Minimum confidence of the pose detector, in [0, 1]. Default 0.5.
    public var minPoseDetectionConfidence: Float = 0.5
    /// Minimum pose presence score of the landmark model, in [0, 1]. Default 0.5.
    public var minPosePresenceConfidence: Float = 0.5
    /// Minimum confidence for tracking a pose to the next frame instead of
    /// detecting it again, in [0, 1]; used in video and live-stream modes. Default 0.5.
    public var minTrackingConfidence: Float = 0.5
    /// Whether to output a segmentation mask per pose. Default false.
    public var outputSegmentationMasks = false
    /// Receives live-stream results. Without one, they arrive on
    /// `PoseLandmarker.liveStreamResults`. Only allowed in live-stream mode.
    public var poseLandmarkerLiveStreamDelegate: (any PoseLandmarkerLiveStreamDelegate)?

    public init() {}

    func validate() throws {
        guard numPoses > 0 else {
            throw LandmarkerError(.invalidOptions, "numPoses must be greater than 0, not \(numPoses)")
        }
        try requireConfidence(minPoseDetectionConfidence, "minPoseDetectionConfidence")
        try requireConfidence(minPosePresenceConfidence, "minPosePresenceConfidence")
        try requireConfidence(minTrackingConfidence, "minTrackingConfidence")
        if poseLandmarkerLiveStreamDelegate != nil, runningMode != .liveStream {
            throw LandmarkerError(
                .invalidOptions, "a live-stream delegate needs runningMode .liveStream, not .\(runningMode)")
        }
        try requireModelPath(baseOptions)
    }
}

/// Receives the results of `PoseLandmarker.detectAsync(image:timestampInMilliseconds:)`,
/// in timestamp order, on MediaPipe's output thread. While this method runs the
/// landmarker cannot take new frames, so frames sent meanwhile are dropped.
public protocol PoseLandmarkerLiveStreamDelegate: AnyObject, Sendable {
    func poseLandmarker(
        _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?,
        timestampInMilliseconds: Int, error: LandmarkerError?)
}
