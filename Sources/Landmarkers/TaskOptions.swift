internal import CMediaPipe

/// How a landmarker is fed, as MediaPipe's `RunningMode`.
public enum RunningMode: Sendable, Hashable, CustomStringConvertible {
    /// Independent still images: `detect(image:)`.
    case image
    /// The decoded frames of a video, with timestamps: `detect(videoFrame:timestampInMilliseconds:)`.
    /// Landmarks are tracked from frame to frame.
    case video
    /// Frames from a camera: `detectAsync(image:timestampInMilliseconds:)`. Results
    /// arrive later, in order; frames that arrive while the landmarker is busy are dropped.
    case liveStream

    var cValue: Int32 {
        switch self {
        case .image: kMpRunningModeImage
        case .video: kMpRunningModeVideo
        case .liveStream: kMpRunningModeLiveStream
        }
    }

    public var description: String {
        switch self {
        case .image: "image"
        case .video: "video"
        case .liveStream: "live-stream"
        }
    }
}

/// Options every MediaPipe task takes, as MediaPipe's `BaseOptions`.
public struct BaseOptions: Sendable, Hashable {
    /// Where the model runs, as MediaPipe's `BaseOptions.Delegate`.
    public enum Delegate: String, Sendable, Hashable, CaseIterable {
        case cpu
        /// OpenGL ES through EGL: needs a real GPU with its driver's EGL vendor
        /// library (MediaPipe refuses software emulation).
        case gpu

        var cValue: Int32 { self == .gpu ? kMpDelegateGpu : kMpDelegateCpu }
    }

    /// Path of the `.task` model bundle.
    public var modelAssetPath: String
    /// The CPU (XNNPACK) by default.
    public var delegate: Delegate

    public init(modelAssetPath: String = "", delegate: Delegate = .cpu) {
        self.modelAssetPath = modelAssetPath
        self.delegate = delegate
    }

    /// Lends the C form of these options, valid inside `body` only.
    func withCOptions<T>(_ body: (MpBaseOptions) throws -> T) rethrows -> T {
        try modelAssetPath.withCString { path in
            var c = MpBaseOptions()
            c.model_asset_path = path
            c.file_descriptor = -1
            c.delegate = delegate.cValue
            return try body(c)
        }
    }
}

/// Checks an option against MediaPipe's range for it.
func requireConfidence(_ value: Float, _ name: String) throws {
    guard value >= 0, value <= 1 else {
        throw LandmarkerError(.invalidOptions, "\(name) must be within [0, 1], not \(value)")
    }
}

func requireModelPath(_ options: BaseOptions) throws {
    guard !options.modelAssetPath.isEmpty else {
        throw LandmarkerError(.invalidOptions, "baseOptions.modelAssetPath names no model bundle")
    }
    try MediaPipeInstallation.requireModel(at: options.modelAssetPath)
}
