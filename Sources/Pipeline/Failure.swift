import AtomicFiles
import Landmarkers
import LandmarkTracks
import Media
import Postgres
import Rules
import Store
import Transfer

/// What kind of failure an error of any stage is, as the command line and the
/// worker tell them apart (exit statuses, retrying or failing a job).
public enum FailureKind: Sendable, Equatable {
    /// The request itself is wrong (an option out of range).
    case usage
    /// The input is unreadable, truncated, hostile or unsupported: permanent.
    case badInput
    /// Something needed is missing (engine, model): fixable by installing it.
    case unavailable
    /// An output could not be written.
    case cannotCreate
    /// A bug or an unexpected failure.
    case internalError
}

/// `describeFailure`'s message with what only operators should read — a
/// database server's own message, detail and hint, which may quote values —
/// for logs and the operator's command line; never for what clients see.
public func describeFailureForOperator(_ error: any Error) -> String {
    if let error = error as? PostgresError { return "database: \(error.debugDescription)" }
    return describeFailure(error).message
}

/// The kind of `error` and a one-line message naming the input and the reason,
/// safe to store with a job and show to clients.
public func describeFailure(_ error: any Error) -> (kind: FailureKind, message: String) {
    switch error {
    case let error as LandmarkerError:
        switch error.code {
        case .engineUnavailable, .modelUnavailable: (.unavailable, error.description)
        case .unreadableImage, .invalidImage: (.badInput, error.description)
        case .invalidOptions: (.usage, error.description)
        default: (.internalError, error.description)
        }
    case let error as MediaError:
        (.badInput, error.description)
    case let error as TrackError:
        (.badInput, error.description)
    case let error as RuleError:
        (.badInput, error.description)
    case let error as UnknownExercise:
        (.usage, error.description)
    case let error as PostgresError:
        (error.code == .connectionFailed || error.code == .connectionLost ? .unavailable : .internalError,
         "database: \(error)")
    case let error as MigrationError:
        (.badInput, error.description)
    case let error as JobQueueError:
        (error.code == .leaseLost ? .internalError : .usage, error.message)
    case let error as TransferError:
        (error.isRetryable ? .unavailable : .badInput, error.description)
    case let error as ChildProcessError:
        (.unavailable, error.description)
    case let error as AtomicFile.Failure:
        (.cannotCreate, error.description)
    case let error as RuleVersions.Conflict:
        // The worker's rule file changed without a new version: fixable only by the operator.
        (.unavailable, "the rules installed here differ from the stored text: \(error)")
    case let error as PipelineError:
        (error.code == .outputFailed ? .cannotCreate : .badInput, error.message)
    default:
        (.internalError, String(describing: error))
    }
}
