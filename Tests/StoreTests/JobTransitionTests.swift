import Foundation
import Postgres
import Testing
import TestSupport

@testable import Store

/// Every transition the queue makes in SQL is the one `JobLifecycle` makes:
/// each path through the lifecycle is driven through the real queue and the
/// stored row compared, after every step, with the pure state machine given the
/// same events — state, attempts, lease expirations, the cancel request, and
/// what follows from the state (a lease only while running, `finished_at` only
/// when finished, the session's status).
@Suite("Job transitions in SQL equal the lifecycle's", .serialized)
struct JobTransitionTests {
    /// The session's status while its job is in `state`, as `Migrations/0013` writes it.
    static func sessionStatus(_ state: JobState) -> String {
        switch state {
        case .queued: "pending"
        case .running: "analysing"
        case .succeeded: "analysed"
        case .failed, .dead: "failed"
        case .cancelled: "cancelled"
        }
    }

    /// One step of a path: what the queue is asked, and the event the lifecycle gets.
    enum Step {
        case claim, succeed, failPermanently, failRetryably, expireLease, release, cancel, stop, retry

        var event: JobLifecycle.Event {
            switch self {
            case .claim: .claimed
            case .succeed: .succeeded
            case .failPermanently: .failed(.permanent, jitter: 0)
            case .failRetryably: .failed(.retryable, jitter: 0)
            case .expireLease: .leaseExpired
            case .release: .released
            case .cancel: .cancelRequested
            case .stop: .stoppedForCancellation
            case .retry: .retryRequested
            }
        }
    }

    static let paths: [[Step]] = [
        [.claim, .succeed],
        [.claim, .failPermanently, .retry, .claim, .succeed],
        [.claim, .failRetryably, .claim, .failRetryably, .claim, .failRetryably],  // dead after three attempts
        [.claim, .expireLease, .claim, .release, .cancel],
        [.cancel, .retry, .claim, .cancel, .stop],
        [.claim, .cancel, .release],  // a worker that gives back a job it was asked to stop: cancelled
        [.claim, .cancel, .failRetryably],  // a failure on the way out does not lose the cancel
        [.claim, .cancel, .expireLease],  // nor does a worker that vanished
    ]

    @Test("each path through the lifecycle", .postgresDatabase, arguments: paths.indices)
    func path(_ index: Int) async throws {
        let connection = try await migratedDatabase(url: PostgresDatabase.url)
        let organization = try await Organization.create(name: "Transitions gym", on: connection)
        let queue = JobQueue(
            connection: connection, leaseDuration: .milliseconds(300),
            retryPolicy: RetryPolicy(baseDelay: .milliseconds(1), maximumDelay: .milliseconds(1), jitterFraction: 0))
        let (job, _) = try await queue.enqueue(
            AnalysisRequest(
                organizationID: organization.id, exercise: "squat", kind: .analyzeVideo, sourceURI: "/videos/\(index).mp4",
                idempotencyKey: "path-\(index)", maxAttempts: 3, origin: .operator))
        var expected = job.lifecycle
        var lease: Lease?
        for (number, step) in Self.paths[index].enumerated() {
            _ = try expected.apply(step.event, retryPolicy: queue.retryPolicy)
            switch step {
            case .claim:
                try await Task.sleep(for: .milliseconds(20))  // past a retry's run_at
                lease = try #require(try await queue.claim(worker: "w")).lease
            case .succeed: try await connection.transaction { [lease] in try queue.complete(lease!, in: $0) }
            case .failPermanently: _ = try await queue.fail(lease!, .permanent, reason: "bad input")
            case .failRetryably: _ = try await queue.fail(lease!, .retryable, reason: "flaky storage")
            case .expireLease:
                try await Task.sleep(for: .milliseconds(400))
                #expect(try await queue.reapExpiredLeases() == [job.id])
            case .release: try await queue.release(lease!)
            case .cancel: _ = try await queue.cancel(job.id, .organization(organization.id))
            case .stop: try await queue.stoppedForCancellation(lease!)
            case .retry: _ = try await queue.retry(job.id, .organization(organization.id))
            }
            let stored = try #require(try await queue.job(job.id, .organization(organization.id)))
            let where_ = "path \(index), step \(number + 1) (\(step))"
            #expect(stored.lifecycle == expected, "\(where_): stored \(stored.lifecycle), lifecycle \(expected)")
            #expect((stored.leasedBy != nil) == (expected.state == .running), "\(where_): a lease only while running")
            #expect((stored.finishedAt != nil) == expected.state.isFinished, "\(where_): finished_at only when finished")
            let status = try await connection.query("SELECT status FROM session_statuses WHERE id = $1", [job.sessionID])[0]
            #expect(try status.decode("status", as: String.self) == Self.sessionStatus(expected.state), "\(where_)")
        }
    }
}
