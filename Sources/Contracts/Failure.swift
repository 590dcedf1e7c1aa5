/// What kind of failure an error of any stage is, as the command line, the
/// worker and the API tell them apart (exit statuses, retrying or failing a job,
/// HTTP statuses).
public enum FailureKind: Sendable, Equatable {
    /// The request itself is wrong (an option out of range).
    case usage
    /// The input is unreadable, truncated, hostile or unsupported: permanent.
    case badInput
    /// Something needed is missing (engine, model, database): fixable by installing or starting it.
    case unavailable
    /// An output could not be written.
    case cannotCreate
    /// A bug or an unexpected failure.
    case internalError
}

/// An error that says what kind of failure it is, in words safe to show.
///
/// Each stage's error type conforms in its own module, so that describing a
/// failure needs only this small module — not the decoder, the engine or libcurl.
public protocol DescribedFailure: Error {
    var failureKind: FailureKind { get }
    /// One line naming the input and the reason, safe to store with a job and show to clients.
    var safeMessage: String { get }
    /// What operators read in logs and on the command line: by default the safe message.
    var operatorMessage: String { get }
}

extension DescribedFailure {
    public var operatorMessage: String { safeMessage }
}

/// The kind of `error` and a one-line message naming the input and the reason,
/// safe to store with a job and show to clients.
public func describeFailure(_ error: any Error) -> (kind: FailureKind, message: String) {
    guard let described = error as? any DescribedFailure else { return (.internalError, String(describing: error)) }
    return (described.failureKind, described.safeMessage)
}

/// `describeFailure`'s message with what only operators should read — a
/// database server's own message, detail and hint, which may quote values —
/// for logs and the operator's command line; never for what clients see.
public func describeFailureForOperator(_ error: any Error) -> String {
    (error as? any DescribedFailure)?.operatorMessage ?? String(describing: error)
}
