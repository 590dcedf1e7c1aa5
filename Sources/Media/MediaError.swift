import Contracts

/// An error of the video stage: the input is unreadable, not a video Spotter
/// takes, over a limit, or broken beyond use.
///
/// `message` names the input and the reason and is safe to show; `ffmpegCode`
/// and `ffmpegMessage` carry what libav reported, when it reported something.
public struct MediaError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Base: String, Hashable, Sendable {
            case unreadable
            case notAVideo
            case noVideoStream
            case unsupportedCodec
            case invalidDimensions
            case limitExceeded
            case corrupt
            case timedOut
        }

        let base: Base

        /// The file is missing, unreadable or empty.
        public static let unreadable = Code(base: .unreadable)
        /// libav recognises no container in the input.
        public static let notAVideo = Code(base: .notAVideo)
        /// A media file without a video stream, such as an audio recording.
        public static let noVideoStream = Code(base: .noVideoStream)
        /// A video in a codec this build of libav cannot decode.
        public static let unsupportedCodec = Code(base: .unsupportedCodec)
        /// A zero, negative or absurd frame size.
        public static let invalidDimensions = Code(base: .invalidDimensions)
        /// Over a configured limit: file size, duration, pixels or frame rate.
        public static let limitExceeded = Code(base: .limitExceeded)
        /// Damaged beyond use: no frame could be decoded, or the container is broken.
        public static let corrupt = Code(base: .corrupt)
        /// Reading took longer than the configured deadline.
        public static let timedOut = Code(base: .timedOut)

        public var description: String { base.rawValue }
    }

    public var code: Code
    public var message: String
    /// The libav error code (negative), if libav reported one.
    public var ffmpegCode: Int32?
    /// libav's description of `ffmpegCode`.
    public var ffmpegMessage: String?
    public var file: String
    public var line: Int

    init(
        _ code: Code, _ message: String, ffmpegCode: Int32? = nil, file: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.ffmpegCode = ffmpegCode
        self.ffmpegMessage = ffmpegCode.map(describeFFmpegError)
        self.file = file
        self.line = line
    }

    public var description: String {
        guard let ffmpegMessage else { return message }
        return "\(message) (libav: \(ffmpegMessage))"
    }

    /// The error with libav's last logged error line on this thread as its detail,
    /// which is more specific than the code's description.
    func quotingLibavLog() -> MediaError {
        var error = self
        if let logged = LibavLog.lastError { error.ffmpegMessage = logged }
        return error
    }
}

extension MediaError: DescribedFailure {
    public var failureKind: FailureKind { .badInput }
    public var safeMessage: String { description }
}
