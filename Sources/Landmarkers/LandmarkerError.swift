import Contracts

/// An error from the landmark stage: the engine, a model, an image or a detection.
///
/// `message` is safe to show to a user; `mediaPipeStatus` and `mediaPipeMessage`
/// carry what the engine itself reported, when the error came from it.
public struct LandmarkerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in categories a caller can act on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Base: String, Hashable, Sendable {
            case engineUnavailable
            case modelUnavailable
            case gpuUnavailable
            case invalidOptions
            case invalidImage
            case unreadableImage
            case wrongRunningMode
            case nonMonotonicTimestamp
            case tooManyLiveStreams
            case detectionFailed
        }

        let base: Base

        /// The MediaPipe library could not be found or loaded.
        public static let engineUnavailable = Code(base: .engineUnavailable)
        /// A model bundle could not be found or opened.
        public static let modelUnavailable = Code(base: .modelUnavailable)
        /// The GPU delegate was asked for and no usable GPU (with EGL and GLES) is there.
        public static let gpuUnavailable = Code(base: .gpuUnavailable)
        /// An option is out of its documented range.
        public static let invalidOptions = Code(base: .invalidOptions)
        /// Pixels or an orientation the landmarkers cannot take.
        public static let invalidImage = Code(base: .invalidImage)
        /// An image file that is missing or cannot be decoded.
        public static let unreadableImage = Code(base: .unreadableImage)
        /// A method that does not belong to the landmarker's running mode.
        public static let wrongRunningMode = Code(base: .wrongRunningMode)
        /// A video or live-stream timestamp not greater than the previous one.
        public static let nonMonotonicTimestamp = Code(base: .nonMonotonicTimestamp)
        /// Every live-stream callback slot is in use.
        public static let tooManyLiveStreams = Code(base: .tooManyLiveStreams)
        /// The engine failed while detecting.
        public static let detectionFailed = Code(base: .detectionFailed)

        public var description: String { base.rawValue }
    }

    public var code: Code
    public var message: String
    /// The MpStatus (absl status code) the engine returned, if any.
    public var mediaPipeStatus: Int32?
    /// The engine's own description of the failure, if any.
    public var mediaPipeMessage: String?
    public var file: String
    public var line: Int

    init(
        _ code: Code, _ message: String, mediaPipeStatus: Int32? = nil, mediaPipeMessage: String? = nil,
        file: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.mediaPipeStatus = mediaPipeStatus
        self.mediaPipeMessage = mediaPipeMessage
        self.file = file
        self.line = line
    }

    public var description: String {
        guard let mediaPipeMessage, !mediaPipeMessage.isEmpty else { return message }
        return "\(message) (MediaPipe: \(mediaPipeMessage))"
    }
}

extension LandmarkerError: DescribedFailure {
    public var failureKind: FailureKind {
        switch code {
        case .engineUnavailable, .modelUnavailable, .gpuUnavailable: .unavailable
        case .unreadableImage, .invalidImage: .badInput
        case .invalidOptions: .usage
        default: .internalError
        }
    }

    public var safeMessage: String { description }
}
