/// Where a job is in its life.
public enum JobState: String, Sendable, CaseIterable, Codable {
    /// Waiting for a worker, from `runAt` on.
    case queued
    /// Leased by a worker, which heartbeats to keep the lease.
    case running
    case succeeded
    /// Failed for a reason that another try would not change (a corrupt video, an unknown exercise).
    case failed
    /// Failed on every allowed try, or its workers kept vanishing.
    case dead
    case cancelled

    /// Whether the job is over (it may still be retried by hand).
    public var isFinished: Bool { self != .queued && self != .running }
}

/// Whether a failure could go away by itself.
public enum JobFailureKind: String, Sendable {
    /// Storage or network hiccups, an unavailable service: tried again later.
    case retryable
    /// Bad input or a missing rule: failed at once, never retried.
    case permanent
}

/// A job's life as a pure state machine, apart from the database: the queue
/// reads a job's row, applies an event here, and writes what comes out.
public struct JobLifecycle: Sendable, Equatable {
    public private(set) var state: JobState
    /// Failed runs so far.
    public private(set) var attempts: Int
    public let maxAttempts: Int
    /// Runs whose worker stopped heartbeating; these do not spend attempts.
    public private(set) var leaseExpirations: Int
    /// Set on a running job that was asked to stop.
    public private(set) var cancelRequested: Bool

    /// After this many vanished workers the job is dead rather than requeued
    /// again: something in it keeps killing workers.
    public static let maxLeaseExpirations = 5

    public init(state: JobState, attempts: Int, maxAttempts: Int, leaseExpirations: Int, cancelRequested: Bool = false) {
        self.state = state
        self.attempts = attempts
        self.maxAttempts = maxAttempts
        self.leaseExpirations = leaseExpirations
        self.cancelRequested = cancelRequested
    }

    /// Something that happens to a job.
    public enum Event: Sendable, Equatable {
        case claimed
        case succeeded
        /// The run failed; `jitter` in -1…1 spreads the retry time.
        case failed(JobFailureKind, jitter: Double)
        /// The worker's lease ran out without a heartbeat.
        case leaseExpired
        case cancelRequested
        /// The running job's worker stopped it after a cancellation request.
        case stoppedForCancellation
        /// Queued again by hand.
        case retryRequested
        /// The worker gave the job back unfinished (it is shutting down).
        case released
    }

    /// What the queue does besides writing the new state.
    public enum Effect: Sendable, Equatable {
        case none
        /// Run again no earlier than this long from now.
        case runAgain(after: Duration)
        /// Tell the running job's worker to stop.
        case askWorkerToStop
    }

    /// An event that does not apply in the job's state.
    public struct InvalidTransition: Error, Sendable, CustomStringConvertible {
        public var state: JobState
        public var event: Event
        public var description: String {
            switch event {
            case .retryRequested: "only failed, dead or cancelled jobs can be retried"
            case .cancelRequested: "only queued or running jobs can be cancelled"
            default: "a \(state.rawValue) job cannot take \(event)"
            }
        }
    }

    /// Applies `event`, or throws when the job's state does not allow it.
    public mutating func apply(_ event: Event, retryPolicy: RetryPolicy = RetryPolicy()) throws -> Effect {
        switch (state, event) {
        case (.queued, .claimed):
            state = .running
            cancelRequested = false
            return .none
        case (.running, .succeeded):
            state = .succeeded
            return .none
        case (.running, .failed(.permanent, _)):
            attempts += 1
            state = .failed
            return .none
        case (.running, .failed(.retryable, _)) where cancelRequested:
            // Asked to stop: a failure on the way ends it cancelled, never queued again.
            attempts += 1
            state = .cancelled
            return .none
        case (.running, .failed(.retryable, let jitter)):
            attempts += 1
            guard attempts < maxAttempts else {
                state = .dead
                return .none
            }
            state = .queued
            return .runAgain(after: retryPolicy.delay(afterFailedAttempt: attempts, jitter: jitter))
        case (.running, .leaseExpired) where cancelRequested:
            leaseExpirations += 1
            state = .cancelled
            return .none
        case (.running, .leaseExpired):
            leaseExpirations += 1
            state = leaseExpirations >= Self.maxLeaseExpirations ? .dead : .queued
            return .none
        case (.running, .released):
            state = cancelRequested ? .cancelled : .queued
            return cancelRequested ? .none : .runAgain(after: .zero)
        case (.queued, .cancelRequested):
            state = .cancelled
            return .none
        case (.running, .cancelRequested):
            cancelRequested = true
            return .askWorkerToStop
        case (.running, .stoppedForCancellation) where cancelRequested:
            state = .cancelled
            return .none
        case (.failed, .retryRequested), (.dead, .retryRequested), (.cancelled, .retryRequested):
            state = .queued
            attempts = 0
            leaseExpirations = 0
            cancelRequested = false
            return .runAgain(after: .zero)
        default:
            throw InvalidTransition(state: state, event: event)
        }
    }
}

/// Exponential backoff with jitter for retryable failures.
public struct RetryPolicy: Sendable, Equatable {
    /// The delay after the first failed attempt; it doubles with every further one.
    public var baseDelay: Duration
    public var maximumDelay: Duration
    /// The spread around the delay, as a fraction: 0.2 is ±20 %.
    public var jitterFraction: Double

    public init(baseDelay: Duration = .seconds(5), maximumDelay: Duration = .seconds(600), jitterFraction: Double = 0.2) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.jitterFraction = jitterFraction
    }

    /// The delay after failed attempt `attempt` (1 for the first), with `jitter` in -1…1.
    public func delay(afterFailedAttempt attempt: Int, jitter: Double) -> Duration {
        let base = Double(baseDelay.components.seconds) + Double(baseDelay.components.attoseconds) * 1e-18
        let maximum = Double(maximumDelay.components.seconds) + Double(maximumDelay.components.attoseconds) * 1e-18
        let exponential = min(maximum, base * pow2(attempt - 1))
        let spread = 1 + jitterFraction * min(1, max(-1, jitter))
        return .milliseconds(Int64((exponential * spread * 1000).rounded()))
    }

    private func pow2(_ exponent: Int) -> Double {
        exponent >= 60 ? .infinity : Double(1 << max(0, exponent))
    }
}
