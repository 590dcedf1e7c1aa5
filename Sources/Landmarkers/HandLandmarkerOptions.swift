/// Options of a `HandLandmarker`, with MediaPipe's names, ranges and defaults.
public struct HandLandmarkerOptions: Sendable {
    /// The model bundle; `HandLandmarker(modelPath:)` fills it in.
    public var baseOptions = BaseOptions()
    /// How frames arrive. Default `.image`.
    public var runningMode = RunningMode.image
    /// The most hands to detect, > 0. Default 1.
    public var numHands = 1
    /// Minimum confidence of the palm detector, in [0, 1]. Default 0.5.
    public var minHandDetectionConfidence: Float = 0.5
    /// Minimum hand presence score of the landmark model, in [0, 1]. Default 0.5.
    public var minHandPresenceConfidence: Float = 0.5
    /// Minimum confidence for tracking a hand to the next frame instead of
    /// detecting it again, in [0, 1]; used in video and live-stream modes. Default 0.5.
    public var minTrackingConfidence: Float = 0.5
    /// Receives live-stream results. Without one, they arrive on
    /// `HandLandmarker.liveStreamResults`. Only allowed in live-stream mode.
    public var handLandmarkerLiveStreamDelegate: (any HandLandmarkerLiveStreamDelegate)?

    public init() {}

    func validate() throws {
        guard numHands > 0 else {
            throw LandmarkerError(.invalidOptions, "numHands must be greater than 0, not \(numHands)")
        }
        try requireConfidence(minHandDetectionConfidence, "minHandDetectionConfidence")
        try requireConfidence(minHandPresenceConfidence, "minHandPresenceConfidence")
        try requireConfidence(minTrackingConfidence, "minTrackingConfidence")
        if handLandmarkerLiveStreamDelegate != nil, runningMode != .liveStream {
            throw LandmarkerError(
                .invalidOptions, "a live-stream delegate needs runningMode .liveStream, not .\(runningMode)")
        }
        try requireModelPath(baseOptions)
    }
}

/// Receives the results of `HandLandmarker.detectAsync(image:timestampInMilliseconds:)`,
/// in timestamp order, on MediaPipe's output thread. While this method runs the
/// landmarker cannot take new frames, so frames sent meanwhile are dropped.
public protocol HandLandmarkerLiveStreamDelegate: AnyObject, Sendable {
    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: LandmarkerError?)
}
