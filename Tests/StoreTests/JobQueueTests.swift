import Contracts
import Foundation
import Postgres
import Store
import Testing
import TestSupport

@Suite("The job queue on a real server")
struct JobQueueTests {
    @Test("an upload enqueued twice, even at once, makes one session and one job", .postgresDatabase)
    func idempotentEnqueue() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        let (first, created) = try await queue.enqueue(StoreFixtures.request(organization, key: "upload-1"))
        #expect(created && first.state == .queued)
        let again = try await queue.enqueue(StoreFixtures.request(organization, key: "upload-1"))
        #expect(!again.created && again.job.id == first.id)
        let racers = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
                    return try await JobQueue(connection: connection).enqueue(StoreFixtures.request(organization, key: "upload-2")).job.id
                }
            }
            return try await group.reduce(into: Set<Int64>()) { $0.insert($1) }
        }
        #expect(racers.count == 1)
        #expect(try await StoreFixtures.count(queue.connection, "SELECT count(*)::int AS count FROM jobs") == 2)
        #expect(try await StoreFixtures.count(queue.connection, "SELECT count(*)::int AS count FROM sessions") == 2)
    }

    @Test("claims take the highest priority, then the oldest, and never a job not yet due", .postgresDatabase)
    func claimOrder() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        let low = try await queue.enqueue(StoreFixtures.request(organization, key: "low")).job
        let high = try await queue.enqueue(StoreFixtures.request(organization, key: "high", priority: 5)).job
        _ = try await queue.enqueue(StoreFixtures.request(organization, key: "later", priority: 9, runAt: Date().addingTimeInterval(3600)))
        let first = try #require(try await queue.claim(worker: "w1"))
        #expect(first.job.id == high.id && first.exercise == "squat" && first.sourceURI == "/videos/high.mp4")
        #expect(try await queue.claim(worker: "w1")?.job.id == low.id)
        #expect(try await queue.claim(worker: "w1") == nil)
        #expect(try await queue.job(high.id, .allOrganizations)?.state == .running)
        #expect(try await queue.job(high.id, .allOrganizations)?.leasedBy == "w1")
    }

    @Test("workers claiming at once get every job exactly once", .postgresDatabase)
    func concurrentClaims() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        for index in 0..<40 { _ = try await queue.enqueue(StoreFixtures.request(organization, key: "job-\(index)")) }
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for worker in 0..<5 {
                group.addTask {
                    let mine = JobQueue(connection: try await PostgresConnection.connect(to: PostgresDatabase.url))
                    var ids: [Int64] = []
                    while let job = try await mine.claim(worker: "w\(worker)") { ids.append(job.job.id) }
                    return ids
                }
            }
            return try await group.reduce(into: [Int64]()) { $0 += $1 }
        }
        #expect(claimed.count == 40 && Set(claimed).count == 40)
    }

    @Test("one queue on a pool of connections serves concurrent callers: every job claimed exactly once", .postgresDatabase)
    func claimsThroughAPool() async throws {
        let (setup, organization) = try await StoreFixtures.queue()
        for index in 0..<30 { _ = try await setup.enqueue(StoreFixtures.request(organization, key: "pooled-\(index)")) }
        // Exactly-once is the point, not latency: a loaded CI machine may keep a caller waiting for a connection long.
        let pool = PostgresConnectionPool(url: PostgresDatabase.url, size: 3, waitLimit: .seconds(120))
        let queue = JobQueue(connection: pool)
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for caller in 0..<8 {
                group.addTask {
                    var ids: [Int64] = []
                    while let job = try await queue.claim(worker: "caller-\(caller)") { ids.append(job.job.id) }
                    return ids
                }
            }
            return try await group.reduce(into: [Int64]()) { $0 += $1 }
        }
        #expect(claimed.count == 30 && Set(claimed).count == 30)
        let usage = await pool.usage
        #expect(usage.lent == 0 && (1...3).contains(usage.idle), "\(usage)")
        await pool.close()
    }

    @Test("idempotency keys are stored hashed: a key made from a signed URL keeps no token", .postgresDatabase)
    func hashedKeys() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        let key = "squat|https://cdn.example.com/clip.mp4?token=s3cret-token"
        let (first, created) = try await queue.enqueue(StoreFixtures.request(organization, key: key))
        #expect(created && first.idempotencyKey.count == 64 && !first.idempotencyKey.contains("s3cret"))
        let (again, createdAgain) = try await queue.enqueue(StoreFixtures.request(organization, key: key))
        #expect(!createdAgain && again.id == first.id, "the same key still finds the first job")
        #expect(try await StoreFixtures.count(queue.connection, "SELECT count(*)::int AS count FROM jobs WHERE idempotency_key LIKE '%s3cret%'") == 0)
    }

    @Test("an upload repeated after its job was cleaned up is refused, naming its session, never analysed twice", .postgresDatabase)
    func idempotencyOutlivesJobs() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        let (job, _) = try await queue.enqueue(StoreFixtures.request(organization, key: "kept-for-ever"))
        let claimed = try #require(try await queue.claim(worker: "w"))
        try await queue.connection.transaction { try queue.complete(claimed.lease, in: $0) }
        try await Task.sleep(for: .milliseconds(20))
        #expect(try await queue.deleteFinished(olderThan: .zero) == 1)
        #expect(try await StoreFixtures.count(
            queue.connection, "SELECT count(*)::int AS count FROM session_statuses WHERE status = 'analysed'") == 1,
            "the session keeps the status its deleted job gave it")
        let repeated = try await #require(throws: JobQueueError.self) {
            try await queue.enqueue(StoreFixtures.request(organization, key: "kept-for-ever"))
        }
        #expect(repeated.code == .alreadyAnalysed && repeated.message.contains(job.sessionID.uuidString.lowercased()))
        #expect(try await StoreFixtures.count(queue.connection, "SELECT count(*)::int AS count FROM sessions") == 1)
    }

    @Test("a client may name http(s) sources only; a path on the server is the operator's alone", .postgresDatabase)
    func clientSources() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        for path in ["/srv/uploads/other-tenant/clip.mp4", "file:///srv/uploads/clip.mp4", "FILE:///srv/x.mp4", "clip.mp4"] {
            var request = StoreFixtures.request(organization, key: path)
            request.sourceURI = path
            request.origin = .client
            let refused = await #expect(throws: SourceNotAllowed.self) { try await queue.enqueue(request) }
            #expect(describeFailure(try #require(refused)).kind == .usage)
        }
        var remote = StoreFixtures.request(organization, key: "remote", priority: 1_000_000, maxAttempts: 1_000)
        remote.sourceURI = "HTTPS://cdn.example.com/clip.mp4"
        remote.origin = .client
        let (clientJob, created) = try await queue.enqueue(remote)
        #expect(created && clientJob.priority == 0 && clientJob.maxAttempts == AnalysisRequest.defaultMaxAttempts,
                "a client cannot jump the queue or retry for ever")
        #expect(try await StoreFixtures.count(queue.connection, "SELECT count(*)::int AS count FROM sessions WHERE made_by = 'client'") == 1)
        var local = StoreFixtures.request(organization, key: "operator")
        local.origin = .operator
        #expect(try await queue.enqueue(local).created, "the operator may name a path")
    }

    @Test("a worker whose lease ran out cannot complete; the job is requeued without spending an attempt", .postgresDatabase)
    func fencing() async throws {
        let (queue, organization) = try await StoreFixtures.queue(leaseDuration: .milliseconds(200))
        _ = try await queue.enqueue(StoreFixtures.request(organization, key: "fenced"))
        let stale = try #require(try await queue.claim(worker: "slow"))
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await queue.reapExpiredLeases() == [stale.job.id])
        #expect(try await queue.heartbeat(stale.lease) == .lost)
        let requeued = try #require(try await queue.job(stale.job.id, .allOrganizations))
        #expect(requeued.state == .queued && requeued.attempts == 0 && requeued.leaseExpirations == 1)

        let fresh = try #require(try await queue.claim(worker: "fast"))
        let error = try await #require(throws: JobQueueError.self) {
            try await queue.connection.transaction { try queue.complete(stale.lease, in: $0) }
        }
        #expect(error.code == .leaseLost)
        await #expect(throws: JobQueueError.self) { try await queue.fail(stale.lease, .permanent, reason: "late") }
        try await queue.connection.transaction { try queue.complete(fresh.lease, in: $0) }
        #expect(try await queue.job(fresh.job.id, .allOrganizations)?.state == .succeeded)
    }

    @Test("heartbeats extend the lease and pass on cancellation requests", .postgresDatabase)
    func heartbeats() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        _ = try await queue.enqueue(StoreFixtures.request(organization, key: "beat"))
        let claimed = try #require(try await queue.claim(worker: "w"))
        guard case .held(let extended, cancelRequested: false) = try await queue.heartbeat(claimed.lease) else {
            Issue.record("the lease should be held")
            return
        }
        #expect(extended.expiresAt >= claimed.lease.expiresAt)
        #expect(try await queue.cancel(claimed.job.id, .allOrganizations).state == .running)
        guard case .held(_, cancelRequested: true) = try await queue.heartbeat(claimed.lease) else {
            Issue.record("the heartbeat should report the cancellation")
            return
        }
        try await queue.stoppedForCancellation(claimed.lease)
        #expect(try await queue.job(claimed.job.id, .allOrganizations)?.state == .cancelled)
        #expect(try await StoreFixtures.count(
            queue.connection, "SELECT count(*)::int AS count FROM session_statuses WHERE status = 'cancelled'") == 1)
    }

    @Test("claims are fair across organizations: one tenant's flood does not starve another's job", .postgresDatabase)
    func fairClaims() async throws {
        let (queue, flooding) = try await StoreFixtures.queue()
        let other = try await Organization.create(name: "Small gym", on: queue.connection)
        for index in 0..<5 {
            _ = try await queue.enqueue(StoreFixtures.request(flooding, key: "flood-\(index)", priority: 10))
        }
        let (waiting, _) = try await queue.enqueue(StoreFixtures.request(other, key: "one", priority: 0))
        let first = try #require(try await queue.claim(worker: "w1"))
        #expect(first.job.organizationID == flooding.id, "both have nothing running: the higher priority goes first")
        let second = try #require(try await queue.claim(worker: "w2"))
        #expect(second.job.id == waiting.id, "the flooding tenant has a job running, the other none")
        let third = try #require(try await queue.claim(worker: "w3"))
        #expect(third.job.organizationID == flooding.id, "the flooding tenant is the only one waiting")
        let (later, _) = try await queue.enqueue(StoreFixtures.request(other, key: "two", priority: 0))
        let fourth = try #require(try await queue.claim(worker: "w4"))
        #expect(fourth.job.id == later.id, "two running against one: the other tenant's job, though less urgent")
    }

    @Test("the database keeps tenants apart: a row cannot point at another organization's", .postgresDatabase)
    func compositeKeys() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        let other = try await Organization.create(name: "Other gym", on: queue.connection)
        let athlete = try await queue.connection.query(
            "INSERT INTO athletes (organization_id, display_name) VALUES ($1, 'Sam') RETURNING id", [other.id])[0].decode("id", as: UUID.self)
        var request = StoreFixtures.request(organization, key: "borrowed-athlete")
        request.athleteID = athlete
        let refused = await #expect(throws: PostgresError.self) { try await queue.enqueue(request) }
        #expect(refused?.sqlState == "23503", "another organization's athlete")
        #expect(refused.map { describeFailure($0).kind } == .badInput)
    }

    @Test("a heartbeating job is safe from the reaper past its first lease", .postgresDatabase)
    func heartbeatOutlivesTheFirstLease() async throws {
        let (queue, organization) = try await StoreFixtures.queue(leaseDuration: .seconds(30))
        _ = try await queue.enqueue(StoreFixtures.request(organization, key: "kept"))
        let claimed = try #require(try await queue.claim(worker: "w"))
        // Wide margins: on a loaded machine each step may take a second or more.
        try await Task.sleep(for: .seconds(16))
        guard case .held(let extended, cancelRequested: false) = try await queue.heartbeat(claimed.lease) else {
            Issue.record("the lease should be held")
            return
        }
        #expect(extended.expiresAt > claimed.lease.expiresAt.addingTimeInterval(10), "the heartbeat moved the expiry on")
        try await Task.sleep(for: .seconds(16))  // past the first lease's end (30 s), inside the extended one (about 46 s)
        #expect(try await queue.reapExpiredLeases().isEmpty)
        let job = try #require(try await queue.job(claimed.job.id, .allOrganizations))
        #expect(job.state == .running && job.leaseExpirations == 0)
        #expect(try await queue.heartbeat(claimed.lease) != .lost, "the worker still holds it")
    }

    @Test("retryable failures back off and end dead; permanent ones fail at once; both tell the outbox", .postgresDatabase)
    func failures() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        var policyQueue = queue
        policyQueue.retryPolicy = RetryPolicy(baseDelay: .milliseconds(1), maximumDelay: .milliseconds(1))
        _ = try await queue.enqueue(StoreFixtures.request(organization, key: "flaky", maxAttempts: 2))
        let first = try #require(try await policyQueue.claim(worker: "w"))
        #expect(try await policyQueue.fail(first.lease, .retryable, reason: "storage hiccup") == .queued)
        try await Task.sleep(for: .milliseconds(20))
        let second = try #require(try await policyQueue.claim(worker: "w"))
        #expect(second.job.attempts == 1 && second.job.lastError == "storage hiccup")
        #expect(try await policyQueue.fail(second.lease, .retryable, reason: "storage hiccup again") == .dead)

        _ = try await queue.enqueue(StoreFixtures.request(organization, key: "corrupt"))
        let corrupt = try #require(try await queue.claim(worker: "w"))
        #expect(try await queue.fail(corrupt.lease, .permanent, reason: "corrupt.mp4: moov atom not found") == .failed)
        let session = try await queue.connection.query(
            "SELECT status, failure_reason FROM session_statuses WHERE id = $1", [corrupt.job.sessionID])[0]
        #expect(try session.decode("status", as: String.self) == "failed")
        #expect(try session.decode("failure_reason", as: String.self) == "corrupt.mp4: moov atom not found")
        let events = try await queue.connection.query(
            "SELECT event_type, payload->>'state' AS state FROM outbox_events ORDER BY id")
        #expect(try events.map { try $0.decode("state", as: String.self) } == ["dead", "failed"])
        #expect(try events.allSatisfy { try $0.decode("event_type", as: String.self) == "analysis.failed" })
    }

    @Test("a retryable failure waits out its backoff with jitter", .postgresDatabase)
    func backoffInDatabase() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        _ = try await queue.enqueue(StoreFixtures.request(organization, key: "later"))
        let claimed = try #require(try await queue.claim(worker: "w"))
        try await queue.fail(claimed.lease, .retryable, reason: "network")
        // From the failure's own time (updated_at, the same statement's now()), not the clock at this query:
        // a loaded machine may take seconds to get here.
        let failure = try await queue.connection.query(
            "SELECT extract(epoch FROM updated_at)::float8 AS failed_at, extract(epoch FROM run_at - updated_at)::float8 AS seconds FROM jobs WHERE id = $1",
            [claimed.job.id])[0]
        let delay = try failure.decode("seconds", as: Double.self)
        #expect(delay >= 5 * 0.8 && delay <= 5 * 1.2, "\(delay) s")
        // Not claimable before its time. A loaded machine may take longer than the backoff to
        // get to the claim, and then it may rightly succeed: so the server's clock, read after
        // the claim, must show the backoff over whenever the claim took the job.
        let again = try await queue.claim(worker: "w")
        let now = try await queue.connection.query("SELECT extract(epoch FROM clock_timestamp())::float8 AS now")[0]
            .decode("now", as: Double.self)
        let waited = now - (try failure.decode("failed_at", as: Double.self))
        #expect(again == nil || waited >= delay - 0.001, "claimed within \(waited) s of failing, with \(delay) s to wait")
    }

    @Test("release gives a job back at once; retry by hand starts afresh; finished jobs are cleaned up in batches", .postgresDatabase)
    func releaseRetryCleanup() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        _ = try await queue.enqueue(StoreFixtures.request(organization, key: "released"))
        let claimed = try #require(try await queue.claim(worker: "w"))
        try await queue.release(claimed.lease)
        #expect(try await queue.job(claimed.job.id, .allOrganizations)?.state == .queued)
        let again = try #require(try await queue.claim(worker: "w"))
        try await queue.fail(again.lease, .permanent, reason: "bad video")
        let retried = try await queue.retry(claimed.job.id, .allOrganizations)
        #expect(retried.state == .queued && retried.attempts == 0)
        let invalid = try await #require(throws: JobQueueError.self) { try await queue.retry(claimed.job.id, .allOrganizations) }
        #expect(invalid.code == .invalidState && invalid.message.contains("only failed, dead or cancelled"))
        let missing = try await #require(throws: JobQueueError.self) { try await queue.cancel(999_999, .allOrganizations) }
        #expect(missing.code == .notFound)

        for index in 0..<25 {
            let job = try await queue.enqueue(StoreFixtures.request(organization, key: "done-\(index)")).job
            _ = try await queue.cancel(job.id, .allOrganizations)
        }
        try await queue.connection.query("UPDATE jobs SET finished_at = now() - interval '40 days' WHERE state = 'cancelled'")
        #expect(try await queue.deleteFinished(olderThan: .seconds(30 * 86_400), batchSize: 10) == 25)
        #expect(try await StoreFixtures.count(queue.connection, "SELECT count(*)::int AS count FROM jobs") == 1)
        #expect(try await StoreFixtures.count(queue.connection, "SELECT count(*)::int AS count FROM sessions") == 26)
        #expect(try await StoreFixtures.count(
            queue.connection, "SELECT count(*)::int AS count FROM session_statuses WHERE status = 'cancelled'") == 25)
    }

    @Test("enqueueing wakes listeners on the jobs channel", .postgresDatabase)
    func wakeUp() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        let listener = try await PostgresConnection.connect(to: PostgresDatabase.url)
        try await listener.listen(JobQueue.channel)
        _ = try await queue.enqueue(StoreFixtures.request(organization, key: "wake"))
        #expect(try await listener.nextNotification(timeout: .seconds(120))?.channel == JobQueue.channel)
    }
}
