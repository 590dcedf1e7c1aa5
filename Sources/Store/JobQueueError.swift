import Contracts

/// A queue operation that cannot be done: the job is missing, the caller's lease
/// is gone, or the job's state does not allow it.
public struct JobQueueError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case notFound
        /// The lease expired or was taken over; the caller must not finish the job.
        case leaseLost
        case invalidState
        /// An upload with this idempotency key made a session whose job is no longer kept.
        case alreadyAnalysed
    }

    public var code: Code
    public var jobID: Int64
    public var message: String

    public var description: String { message }
}

extension JobQueueError: DescribedFailure {
    public var failureKind: FailureKind { code == .leaseLost ? .internalError : .usage }
    public var safeMessage: String { message }
}

extension SourceNotAllowed: DescribedFailure {
    public var failureKind: FailureKind { .usage }
    public var safeMessage: String { description }
}
