internal import CMediaPipe

/// The poses found in one image or frame, as MediaPipe's `PoseLandmarkerResult`.
public struct PoseLandmarkerResult: Sendable {
    /// Per pose, the 33 landmarks in normalized image coordinates.
    public var landmarks: [[NormalizedLandmark]]
    /// Per pose, the 33 landmarks in metres around the hips' centre.
    public var worldLandmarks: [[Landmark]]
    /// Per pose, its segmentation mask, when the options ask for masks.
    public var segmentationMasks: [Mask]?
    /// The timestamp of the image or frame; 0 in image mode.
    public var timestampInMilliseconds: Int

    public init(
        landmarks: [[NormalizedLandmark]], worldLandmarks: [[Landmark]], segmentationMasks: [Mask]?,
        timestampInMilliseconds: Int
    ) {
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.segmentationMasks = segmentationMasks
        self.timestampInMilliseconds = timestampInMilliseconds
    }

    /// The same poses, one value each, with ML Kit-style access by landmark type.
    public var poses: [Pose] {
        zip(landmarks, worldLandmarks).map { Pose(landmarks: $0, worldLandmarks: $1) }
    }
}

/// One detected person.
public struct Pose: Sendable {
    /// The 33 landmarks in normalized image coordinates, in `PoseLandmarkType` order.
    public var landmarks: [NormalizedLandmark]
    /// The 33 landmarks in metres around the hips' centre.
    public var worldLandmarks: [Landmark]

    /// One landmark, as ML Kit's `Pose.landmark(ofType:)`.
    public func landmark(_ type: PoseLandmarkType) -> PoseLandmark {
        PoseLandmark(type: type, position: landmarks[type.rawValue], worldPosition: worldLandmarks[type.rawValue])
    }
}

/// A landmark of a `Pose` with its type, as ML Kit's `PoseLandmark`.
public struct PoseLandmark: Sendable {
    public var type: PoseLandmarkType
    /// Where it is in the image, normalized.
    public var position: NormalizedLandmark
    /// Where it is in metres around the hips' centre.
    public var worldPosition: Landmark

    /// Likelihood that the landmark is inside the image (MediaPipe's presence).
    public var inFrameLikelihood: Float { position.presence ?? 0 }
}

/// MediaPipe's 33 pose landmarks, in the order of its results.
public enum PoseLandmarkType: Int, Sendable, CaseIterable {
    case nose
    case leftEyeInner, leftEye, leftEyeOuter
    case rightEyeInner, rightEye, rightEyeOuter
    case leftEar, rightEar
    case mouthLeft, mouthRight
    case leftShoulder, rightShoulder
    case leftElbow, rightElbow
    case leftWrist, rightWrist
    case leftPinky, rightPinky
    case leftIndex, rightIndex
    case leftThumb, rightThumb
    case leftHip, rightHip
    case leftKnee, rightKnee
    case leftAnkle, rightAnkle
    case leftHeel, rightHeel
    case leftFootIndex, rightFootIndex
}

/// The pose landmarker's C entry points.
enum PoseLandmarkerCalls: VisionTaskCalls {
    typealias COptions = MpPoseLandmarkerOptions
    typealias CResult = MpPoseLandmarkerResult

    static let name = "pose landmarker"

    static func create(
        _ api: CMediaPipe_API, _ options: UnsafeMutablePointer<MpPoseLandmarkerOptions>,
        _ task: UnsafeMutablePointer<OpaquePointer?>, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus {
        api.MpPoseLandmarkerCreate(options, task, error)
    }

    static func emptyResult() -> MpPoseLandmarkerResult { MpPoseLandmarkerResult() }

    static func detectImage(
        _ api: CMediaPipe_API, _ task: OpaquePointer, _ image: OpaquePointer,
        _ options: UnsafePointer<MpImageProcessingOptions>, _ result: UnsafeMutablePointer<MpPoseLandmarkerResult>,
        _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus {
        api.MpPoseLandmarkerDetectImage(task, image, options, result, error)
    }

    static func detectForVideo(
        _ api: CMediaPipe_API, _ task: OpaquePointer, _ image: OpaquePointer,
        _ options: UnsafePointer<MpImageProcessingOptions>, _ timestamp: Int64,
        _ result: UnsafeMutablePointer<MpPoseLandmarkerResult>, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus {
        api.MpPoseLandmarkerDetectForVideo(task, image, options, timestamp, result, error)
    }

    static func detectAsync(
        _ api: CMediaPipe_API, _ task: OpaquePointer, _ image: OpaquePointer,
        _ options: UnsafePointer<MpImageProcessingOptions>, _ timestamp: Int64,
        _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus {
        api.MpPoseLandmarkerDetectAsync(task, image, options, timestamp, error)
    }

    static func closeResult(_ api: CMediaPipe_API, _ result: UnsafeMutablePointer<MpPoseLandmarkerResult>) {
        api.MpPoseLandmarkerCloseResult(result)
    }

    static func close(
        _ api: CMediaPipe_API, _ task: OpaquePointer, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus {
        api.MpPoseLandmarkerClose(task, error)
    }

    static func convert(
        _ result: MpPoseLandmarkerResult, timestampInMilliseconds: Int, engine: MediaPipeEngine
    ) throws(LandmarkerError) -> PoseLandmarkerResult {
        let landmarks = [[NormalizedLandmark]](converting: result.pose_landmarks, count: result.pose_landmarks_count) {
            [NormalizedLandmark](converting: $0.landmarks, count: $0.landmarks_count, NormalizedLandmark.init)
        }
        let world = [[Landmark]](converting: result.pose_world_landmarks, count: result.pose_world_landmarks_count) {
            [Landmark](converting: $0.landmarks, count: $0.landmarks_count, Landmark.init)
        }
        var masks: [Mask]?
        if result.segmentation_masks_count > 0, let pointers = result.segmentation_masks {
            masks = []
            for index in 0..<Int(result.segmentation_masks_count) {
                guard let image = pointers[index] else { continue }
                masks?.append(try Mask(copying: image, engine: engine))
            }
        }
        return PoseLandmarkerResult(
            landmarks: landmarks, worldLandmarks: world, segmentationMasks: masks,
            timestampInMilliseconds: timestampInMilliseconds)
    }
}
