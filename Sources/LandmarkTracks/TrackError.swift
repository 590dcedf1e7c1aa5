import Contracts

/// A problem in a track file, with the line it is on.
public struct TrackError: Error, Sendable, CustomStringConvertible {
    /// The file, as named by the caller.
    public var file: String
    /// The line, counting from 1.
    public var line: Int
    public var reason: String

    public var description: String { line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)" }
}

extension TrackError: DescribedFailure {
    public var failureKind: FailureKind { .badInput }
    public var safeMessage: String { description }
}
