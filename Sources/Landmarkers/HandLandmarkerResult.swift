internal import CMediaPipe

/// The hands found in one image or frame, as MediaPipe's `HandLandmarkerResult`.
public struct HandLandmarkerResult: Sendable {
    /// Per hand, whether it is a left or a right hand, with a score. MediaPipe
    /// labels handedness as if the image were mirrored (a selfie view).
    public var handedness: [[ResultCategory]]
    /// Per hand, the 21 landmarks in normalized image coordinates.
    public var landmarks: [[NormalizedLandmark]]
    /// Per hand, the 21 landmarks in metres around the hand's centre.
    public var worldLandmarks: [[Landmark]]
    /// The timestamp of the image or frame; 0 in image mode.
    public var timestampInMilliseconds: Int

    public init(
        handedness: [[ResultCategory]], landmarks: [[NormalizedLandmark]], worldLandmarks: [[Landmark]],
        timestampInMilliseconds: Int
    ) {
        self.handedness = handedness
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.timestampInMilliseconds = timestampInMilliseconds
    }

    /// The same hands, one value each, with access by landmark type.
    public var hands: [Hand] {
        zip(handedness, zip(landmarks, worldLandmarks)).map {
            Hand(handedness: $0.first, landmarks: $1.0, worldLandmarks: $1.1)
        }
    }
}

/// One detected hand.
public struct Hand: Sendable {
    /// The most likely handedness ("Left" or "Right", as if mirrored) and its score.
    public var handedness: ResultCategory?
    /// The 21 landmarks in normalized image coordinates, in `HandLandmarkType` order.
    public var landmarks: [NormalizedLandmark]
    /// The 21 landmarks in metres around the hand's centre.
    public var worldLandmarks: [Landmark]

    /// One landmark in normalized image coordinates.
    public func landmark(_ type: HandLandmarkType) -> NormalizedLandmark { landmarks[type.rawValue] }

    /// One landmark in metres.
    public func worldLandmark(_ type: HandLandmarkType) -> Landmark { worldLandmarks[type.rawValue] }
}

/// MediaPipe's 21 hand landmarks, in the order of its results.
public enum HandLandmarkType: Int, Sendable, CaseIterable {
    case wrist
    case thumbCMC, thumbMCP, thumbIP, thumbTip
    case indexFingerMCP, indexFingerPIP, indexFingerDIP, indexFingerTip
    case middleFingerMCP, middleFingerPIP, middleFingerDIP, middleFingerTip
    case ringFingerMCP, ringFingerPIP, ringFingerDIP, ringFingerTip
    case pinkyMCP, pinkyPIP, pinkyDIP, pinkyTip
}

/// The hand landmarker's C entry points.
enum HandLandmarkerCalls: VisionTaskCalls {
    typealias COptions = MpHandLandmarkerOptions
    typealias CResult = MpHandLandmarkerResult

    static let name = "hand landmarker"

    static func create(
        _ api: CMediaPipe_API, _ options: UnsafeMutablePointer<MpHandLandmarkerOptions>,
        _ task: UnsafeMutablePointer<OpaquePointer?>, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus {
        api.MpHandLandmarkerCreate(options, task, error)
    }

    static func emptyResult() -> MpHandLandmarkerResult { MpHandLandmarkerResult() }

    static func detectImage(
        _ api: CMediaPipe_API, _ task: OpaquePointer, _ image: OpaquePointer,
        _ options: UnsafePointer<MpImageProcessingOptions>, _ result: UnsafeMutablePointer<MpHandLandmarkerResult>,
        _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus {
        api.MpHandLandmarkerDetectImage(task, image, options, result, error)
    }

    static func detectForVideo(
        _ api: CMediaPipe_API, _ task: OpaquePointer, _ image: OpaquePointer,
        _ options: UnsafePointer<MpImageProcessingOptions>, _ timestamp: Int64,
        _ result: UnsafeMutablePointer<MpHandLandmarkerResult>, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus {
        api.MpHandLandmarkerDetectForVideo(task, image, options, timestamp, result, error)
    }

    static func detectAsync(
        _ api: CMediaPipe_API, _ task: OpaquePointer, _ image: OpaquePointer,
        _ options: UnsafePointer<MpImageProcessingOptions>, _ timestamp: Int64,
        _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus {
        api.MpHandLandmarkerDetectAsync(task, image, options, timestamp, error)
    }

    static func closeResult(_ api: CMediaPipe_API, _ result: UnsafeMutablePointer<MpHandLandmarkerResult>) {
        api.MpHandLandmarkerCloseResult(result)
    }

    static func close(
        _ api: CMediaPipe_API, _ task: OpaquePointer, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus {
        api.MpHandLandmarkerClose(task, error)
    }

    static func convert(
        _ result: MpHandLandmarkerResult, timestampInMilliseconds: Int, engine: MediaPipeEngine
    ) throws(LandmarkerError) -> HandLandmarkerResult {
        HandLandmarkerResult(
            handedness: [[ResultCategory]](converting: result.handedness, count: result.handedness_count) {
                [ResultCategory](converting: $0.categories, count: $0.categories_count, ResultCategory.init)
            },
            landmarks: [[NormalizedLandmark]](converting: result.hand_landmarks, count: result.hand_landmarks_count) {
                [NormalizedLandmark](converting: $0.landmarks, count: $0.landmarks_count, NormalizedLandmark.init)
            },
            worldLandmarks: [[Landmark]](converting: result.hand_world_landmarks, count: result.hand_world_landmarks_count) {
                [Landmark](converting: $0.landmarks, count: $0.landmarks_count, Landmark.init)
            },
            timestampInMilliseconds: timestampInMilliseconds)
    }
}
