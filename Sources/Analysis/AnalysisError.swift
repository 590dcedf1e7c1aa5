import Contracts

/// An error of an analysis itself — its input, as opposed to a stage's.
public struct AnalysisError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Base: String, Hashable, Sendable {
            case unreadableInput
            case noPicture
        }

        let base: Base

        /// The input file is missing or cannot be read.
        public static let unreadableInput = Code(base: .unreadableInput)
        /// No frame of the video could be decoded near a moment a picture was asked of.
        public static let noPicture = Code(base: .noPicture)

        public var description: String { base.rawValue }
    }

    public var code: Code
    public var message: String
    /// The underlying error, such as the file system's.
    public var underlying: (any Error)?
    public var file: String
    public var line: Int

    init(_ code: Code, _ message: String, underlying: (any Error)? = nil, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.file = file
        self.line = line
    }

    public var description: String { message }
}

extension AnalysisError: DescribedFailure {
    public var failureKind: FailureKind { .badInput }
    public var safeMessage: String { message }
}
