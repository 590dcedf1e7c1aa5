import Testing

@testable import Store

@Suite("The job lifecycle, apart from the database")
struct JobLifecycleTests {
    func running(attempts: Int = 0, maxAttempts: Int = 3, leaseExpirations: Int = 0) -> JobLifecycle {
        JobLifecycle(state: .running, attempts: attempts, maxAttempts: maxAttempts, leaseExpirations: leaseExpirations)
    }

    @Test("a queued job is claimed and succeeds")
    func claimAndSucceed() throws {
        var job = JobLifecycle(state: .queued, attempts: 0, maxAttempts: 3, leaseExpirations: 0)
        #expect(try job.apply(.claimed) == .none)
        #expect(job.state == .running)
        #expect(try job.apply(.succeeded) == .none)
        #expect(job.state == .succeeded)
        #expect(job.state.isFinished)
    }

    @Test("retryable failures run again with growing delays until the last attempt, then the job is dead")
    func retryableFailures() throws {
        let policy = RetryPolicy(baseDelay: .seconds(10), maximumDelay: .seconds(600), jitterFraction: 0.2)
        var job = running()
        #expect(try job.apply(.failed(.retryable, jitter: 0), retryPolicy: policy) == .runAgain(after: .seconds(10)))
        #expect(job.state == .queued && job.attempts == 1)
        _ = try job.apply(.claimed)
        #expect(try job.apply(.failed(.retryable, jitter: 0), retryPolicy: policy) == .runAgain(after: .seconds(20)))
        _ = try job.apply(.claimed)
        #expect(try job.apply(.failed(.retryable, jitter: 0), retryPolicy: policy) == .none)
        #expect(job.state == .dead && job.attempts == 3)
    }

    @Test("a permanent failure fails the job at once, whatever attempts are left")
    func permanentFailure() throws {
        var job = running(maxAttempts: 10)
        #expect(try job.apply(.failed(.permanent, jitter: 0)) == .none)
        #expect(job.state == .failed && job.attempts == 1)
    }

    @Test("a lost lease requeues without spending an attempt; after five the job is dead")
    func leaseExpiry() throws {
        var job = running(attempts: 1)
        for expiry in 1..<JobLifecycle.maxLeaseExpirations {
            #expect(try job.apply(.leaseExpired) == .none)
            #expect(job.state == .queued && job.attempts == 1 && job.leaseExpirations == expiry)
            _ = try job.apply(.claimed)
        }
        _ = try job.apply(.leaseExpired)
        #expect(job.state == .dead)
    }

    @Test("cancelling: a queued job at once, a running one through its worker")
    func cancellation() throws {
        var queued = JobLifecycle(state: .queued, attempts: 0, maxAttempts: 3, leaseExpirations: 0)
        #expect(try queued.apply(.cancelRequested) == .none)
        #expect(queued.state == .cancelled)

        var job = running()
        #expect(try job.apply(.cancelRequested) == .askWorkerToStop)
        #expect(job.state == .running && job.cancelRequested)
        #expect(try job.apply(.stoppedForCancellation) == .none)
        #expect(job.state == .cancelled)

        var notAsked = running()
        #expect(throws: JobLifecycle.InvalidTransition.self) { try notAsked.apply(.stoppedForCancellation) }
    }

    @Test("a released job is queued again at once, or cancelled when that was asked")
    func release() throws {
        var job = running(attempts: 2)
        #expect(try job.apply(.released) == .runAgain(after: .zero))
        #expect(job.state == .queued && job.attempts == 2)

        var asked = running()
        _ = try asked.apply(.cancelRequested)
        _ = try asked.apply(.released)
        #expect(asked.state == .cancelled)
    }

    @Test("a cancel asked of a running job is never lost: a retryable failure or an expired lease ends it cancelled")
    func cancelSurvivesRequeueing() throws {
        var failing = running()
        _ = try failing.apply(.cancelRequested)
        #expect(try failing.apply(.failed(.retryable, jitter: 0)) == .none)
        #expect(failing.state == .cancelled && failing.attempts == 1)

        var vanished = running()
        _ = try vanished.apply(.cancelRequested)
        #expect(try vanished.apply(.leaseExpired) == .none)
        #expect(vanished.state == .cancelled && vanished.leaseExpirations == 1)

        // A claim starts clean: a stale request cannot stop the next run.
        var stale = JobLifecycle(state: .queued, attempts: 1, maxAttempts: 3, leaseExpirations: 0, cancelRequested: true)
        _ = try stale.apply(.claimed)
        #expect(stale.state == .running && !stale.cancelRequested)
    }

    @Test("retry by hand: only finished jobs that did not succeed, with fresh attempts")
    func manualRetry() throws {
        for state in [JobState.failed, .dead, .cancelled] {
            var job = JobLifecycle(state: state, attempts: 3, maxAttempts: 3, leaseExpirations: 2)
            #expect(try job.apply(.retryRequested) == .runAgain(after: .zero))
            #expect(job.state == .queued && job.attempts == 0 && job.leaseExpirations == 0)
        }
        for state in [JobState.queued, .running, .succeeded] {
            var job = JobLifecycle(state: state, attempts: 0, maxAttempts: 3, leaseExpirations: 0)
            #expect(throws: JobLifecycle.InvalidTransition.self) { try job.apply(.retryRequested) }
        }
    }

    @Test("finished jobs take no further events but a retry")
    func finishedJobs() {
        let events: [JobLifecycle.Event] = [
            .claimed, .succeeded, .failed(.retryable, jitter: 0), .leaseExpired, .cancelRequested, .released,
        ]
        for state in [JobState.succeeded, .failed, .dead, .cancelled] {
            for event in events {
                var job = JobLifecycle(state: state, attempts: 1, maxAttempts: 3, leaseExpirations: 0)
                #expect(throws: JobLifecycle.InvalidTransition.self) { try job.apply(event) }
                #expect(job.state == state)
            }
        }
    }

    @Test("backoff doubles, stops at the maximum, and jitter stays within ±20 %")
    func backoff() {
        let policy = RetryPolicy(baseDelay: .seconds(5), maximumDelay: .seconds(60), jitterFraction: 0.2)
        #expect(policy.delay(afterFailedAttempt: 1, jitter: 0) == .seconds(5))
        #expect(policy.delay(afterFailedAttempt: 2, jitter: 0) == .seconds(10))
        #expect(policy.delay(afterFailedAttempt: 4, jitter: 0) == .seconds(40))
        #expect(policy.delay(afterFailedAttempt: 5, jitter: 0) == .seconds(60))
        #expect(policy.delay(afterFailedAttempt: 100, jitter: 0) == .seconds(60))
        #expect(policy.delay(afterFailedAttempt: 2, jitter: 1) == .seconds(12))
        #expect(policy.delay(afterFailedAttempt: 2, jitter: -1) == .seconds(8))
        #expect(policy.delay(afterFailedAttempt: 2, jitter: 7) == .seconds(12))
    }
}
